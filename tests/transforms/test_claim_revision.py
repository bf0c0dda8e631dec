"""Patent-CR cleaning and pairing on hand-written cases and on the real OPS claims sample."""
from __future__ import annotations

from datetime import date

import polars as pl

from sources.epo_ops.parse import parse_ops_claims
from transforms.claim_revision import (clean_claim, clean_claims, looks_english, pair_claims, pair_reason,
                                       recovered_pairs, split_by_month)


def test_clean_claim_removes_numbers_reference_signs_and_whitespace() -> None:
    assert clean_claim("1. A device (100) comprising a bus (102a, 104)  and\n a lid (14') .") == \
        "A device comprising a bus and a lid."
    assert clean_claim("  12 ) The device of claim 1 (300), wherein x.") == "The device of claim 1, wherein x."
    assert clean_claim("A method (S10) of claim 1") == "A method (S10) of claim 1"  # not a pure reference sign
    assert clean_claim(None) == "" and clean_claims(["1.", "", "2. ok"]) == ["ok"]


def test_real_ops_claims_sample_cleans(real_samples) -> None:
    data = (real_samples / "epo-ops" / "get_claims.response.xml").read_bytes()
    rows = parse_ops_claims(data, "get_claims.response.xml").rows["claims"]
    raw = [r["text"] for r in sorted(rows, key=lambda r: r["claim_no"])]
    assert any("(100)" in t for t in raw)
    cleaned = clean_claims(raw)
    assert len(cleaned) == len(raw) and cleaned[0].startswith("A communication device comprising:")
    assert not any("(10" in c or "(11" in c or "\n" in c or "  " in c for c in cleaned)
    assert looks_english(cleaned)


def test_language_and_pair_reasons() -> None:
    de = ["Eine Vorrichtung umfassend einen Sensor, wobei der Sensor nach Anspruch 1 und die Einheit ..."]
    assert not looks_english(de) and looks_english(["A device comprising a sensor, wherein the sensor is round."])
    en_a, en_b = ["A device comprising a bus."], ["A device comprising a wide bus."]
    assert pair_reason(en_a, None) == "no_grant"
    assert pair_reason(None, en_b) == "no_application"
    assert pair_reason(en_a, de) == "not_english"
    assert pair_reason(en_a, list(en_a)) == "unchanged"
    assert pair_reason([], en_b) == "empty_claims"
    assert pair_reason(en_a, en_b) is None


def test_pair_claims_keeps_only_differing_non_empty_pairs_and_splits_by_month() -> None:
    df = pl.DataFrame({
        "ep_number": ["EP-1", "EP-2", "EP-3", "EP-4"], "kind_before": ["A1", "A2", "A1", "A1"],
        "claims_before": [["1. A x (10)."], ["1. A y."], [], ["1. A z (1)."]], "kind_after": ["B1"] * 4,
        "claims_after": [["1. A x (12) with y."], ["1.  A y."], ["1. A q."], ["1. A z with w."]],
        "pub_date_after": [date(2024, 1, 3), date(2024, 2, 7), date(2024, 3, 6), date(2024, 6, 5)]})
    pairs = pair_claims(df.lazy()).collect()
    assert pairs["ep_number"].to_list() == ["EP-1", "EP-4"]
    assert pairs.row(0, named=True)["claims_before"] == ["A x."]
    assert pairs.row(0, named=True)["claims_after"] == ["A x with y."]
    split = {k: v.collect()["ep_number"].to_list() for k, v in split_by_month(pairs.lazy()).items()}
    assert split == {"train": ["EP-1"], "test": ["EP-4"]}
    assert split_by_month(pairs.lazy(), (1,))["test"].collect()["ep_number"].to_list() == ["EP-1"]
    truth = df.select("ep_number", "claims_before", "claims_after")
    assert recovered_pairs(pairs.lazy(), truth.lazy()).collect()["ep_number"].to_list() == ["EP-1", "EP-4"]
