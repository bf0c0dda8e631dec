"""Patent-CR cleaning and pairing on hand-written cases and on the real OPS claims sample."""
from __future__ import annotations

from datetime import date

import polars as pl

from sources.epo_ops.parse import parse_ops_claims
from transforms.claim_revision import (clean_claim, clean_claims, issued_claims, looks_english, pair_claims,
                                       pair_reason, recovered_pairs, split_by_month)


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
    assert pairs["ep_number"].to_list() == ["EP-1", "EP-4"], "EP-2 differs in whitespace only; EP-3 has no claims"
    row = pairs.row(0, named=True)
    assert row["claims_before"] == ["1. A x (10)."] and row["claims_after"] == ["1. A x (12) with y."], "as issued"
    assert row["claims_before_clean"] == ["A x."] and row["claims_after_clean"] == ["A x with y."], "the option"
    split = {k: v.collect()["ep_number"].to_list() for k, v in split_by_month(pairs.lazy()).items()}
    assert split == {"train": ["EP-1"], "test": ["EP-4"]}
    assert split_by_month(pairs.lazy(), (1,))["test"].collect()["ep_number"].to_list() == ["EP-1"]
    truth = df.select("ep_number", "claims_before", "claims_after")
    assert recovered_pairs(pairs.lazy(), truth.lazy()).collect()["ep_number"].to_list() == ["EP-1", "EP-4"]


# Real-style EP claims (wording and layout as EP chemistry, optics and method claims are written): every numeral
# in parentheses that names a formula, condition, claim, example or sequence must survive cleaning.
CHEM_CLAIM = ("1. A compound of formula (1) wherein R1 is C1-C6 alkyl and R2 is hydrogen, or a pharmaceutically "
              "acceptable salt thereof, obtainable by reacting a compound of general formula (2) or (3) with a "
              "compound of formula (4), as described in Example (5), the compound having the sequence of "
              "SEQ ID NO: 1 (1) and a ratio R(1)/R(2) of at least 2.")
LENS_CLAIM = ("3. The zoom lens (1) according to claim 1, wherein the first lens group (G1) satisfies the following "
              "conditional expression (1) and conditions (2) to (4): 0.5 < f1/fw < 1.2 (1); and the second lens "
              "(12) satisfies equation (5).")
METHOD_CLAIM = ("5. A method for operating a communication device (100), the method comprising: receiving (202) a "
                "message from a transceiver circuitry (102, 104); determining (204; 304) whether the message "
                "fulfils the relation (6) of claim 4 (300); and (1) storing the result in a memory (106a).")


def test_formula_claim_example_and_condition_numbers_survive():
    assert clean_claim("a compound of formula (1) wherein") == "a compound of formula (1) wherein"
    assert clean_claim("of general formula (2) or (3).") == "of general formula (2) or (3)."
    chem = clean_claim(CHEM_CLAIM)
    for kept in ("formula (1) wherein", "general formula (2) or (3) with", "formula (4),", "Example (5)",
                 "R(1)/R(2)", "SEQ ID NO: 1 (1)"):
        assert kept in chem, kept
    lens = clean_claim(LENS_CLAIM)
    assert lens.startswith("The zoom lens according to claim 1, wherein the first lens group (G1) satisfies")
    for kept in ("conditional expression (1) and conditions (2) to (4):", "< 1.2 (1);", "equation (5)."):
        assert kept in lens, kept
    assert "second lens satisfies" in lens


def test_reference_signs_after_nouns_and_step_verbs_go():
    method = clean_claim(METHOD_CLAIM)
    assert method == ("A method for operating a communication device, the method comprising: receiving a message "
                      "from a transceiver circuitry; determining whether the message fulfils the relation (6) of "
                      "claim 4; and (1) storing the result in a memory.")


def test_pairs_whose_cleaned_claims_are_equal_are_kept():
    """Only numbering or reference signs changed: the paper's pair (claims differ as issued), kept."""
    df = pl.DataFrame({"ep_number": ["EP-5"], "kind_before": ["A1"], "claims_before": [["1. A lamp (10)."]],
                       "kind_after": ["B1"], "claims_after": [["1. A lamp (12)."]],
                       "pub_date_after": [date(2024, 2, 7)]})
    row = pair_claims(df.lazy()).collect().row(0, named=True)
    assert row["claims_before_clean"] == row["claims_after_clean"] == ["A lamp."]
    assert issued_claims(["  1.  A lamp\n (10). ", "", " "]) == ["1. A lamp (10)."]


def test_both_sides_of_a_pair_keep_their_formula_numbers():
    before = [CHEM_CLAIM, "2. The compound (10) of claim 1, wherein R1 is methyl."]
    after = [CHEM_CLAIM.replace("C1-C6 alkyl", "C1-C4 alkyl"), "2. The compound (10) of claim 1, wherein R1 is ethyl."]
    df = pl.DataFrame({"ep_number": ["EP-3"], "kind_before": ["A1"], "claims_before": [before], "kind_after": ["B1"],
                       "claims_after": [after], "pub_date_after": [date(2024, 6, 5)]})
    row = pair_claims(df.lazy()).collect().row(0, named=True)
    assert row["claims_before"] == before, "published as issued"
    for side in (row["claims_before_clean"], row["claims_after_clean"]):
        assert "general formula (2) or (3)" in side[0] and "formula (1) wherein" in side[0]
        assert side[1].startswith("The compound (10) of claim 1")  # 'compound (10)': a compound number, kept
    assert row["claims_before_clean"] == [clean_claim(t) for t in before]


def test_real_ops_claims_lose_every_reference_sign_and_nothing_else(real_samples) -> None:
    import re

    data = (real_samples / "epo-ops" / "get_claims.response.xml").read_bytes()
    raw = [r["text"] for r in sorted(parse_ops_claims(data, "c.xml").rows["claims"], key=lambda r: r["claim_no"])]
    signs = [m.group(0) for t in raw for m in re.finditer(r"\(\d{1,5}[a-z]?\)", t)]
    assert len(signs) >= 5
    cleaned = clean_claims(raw)
    assert not any(re.search(r"\(\d", c) for c in cleaned)
    words = lambda ts: [w for t in ts for w in re.sub(r"\(\d+[a-z]?\)|^\d+\.", " ", t).split()]  # noqa: E731
    def bare(ts: list[str]) -> list[str]:
        return [w.strip(",.;:") for w in words(ts) if w.strip(",.;:")]
    assert bare(cleaned) == bare(raw)
