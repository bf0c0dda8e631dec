"""PILOT's seeded splits: 80/10/10 per coarse subdecision, and a small set still gets val and test."""
from __future__ import annotations

from datetime import date

import polars as pl

from transforms.tasks.pilot import assign_splits


def _cases(n: int) -> pl.DataFrame:
    return pl.DataFrame({"case_id": [f"2020-{i:06d}" for i in range(n)], "app_id": [f"1{i:07d}" for i in range(n)],
                         "decision_date": [date(2021, 1, 1 + i % 28) for i in range(n)],
                         "subdecision_coarse": ["Affirmed" if i % 3 else "Reversed" for i in range(n)]})


def test_seven_cases_get_every_split_and_the_same_split_each_time():
    out = assign_splits(_cases(7), seed=1)
    counts = dict(out.group_by("split").len().iter_rows())
    assert set(counts) == {"train", "val", "test"} and counts["train"] == 5
    assert out.equals(assign_splits(_cases(7), seed=1))


def test_two_cases_are_left_as_the_hash_puts_them_and_large_sets_keep_their_fractions():
    assert set(assign_splits(_cases(2), seed=1)["split"]) == {"train"}
    counts = dict(assign_splits(_cases(1000), seed=1).group_by("split").len().iter_rows())
    assert 780 <= counts["train"] <= 820 and 80 <= counts["test"] <= 120 and 80 <= counts["val"] <= 120


def test_one_application_stays_in_one_split():
    df = _cases(6).with_columns(pl.lit("10000000").alias("app_id"))
    assert assign_splits(df, seed=3)["split"].n_unique() == 1


def test_alignment_links_a_ptab_application_to_its_lens_publication():
    """The PTAB writes US-14863446; Lens writes the same application as US-201514863446 (year first)."""
    from transforms.tasks.pilot import align_publications

    cases = pl.DataFrame({"case_id": ["c1", "c2"], "app_id": ["US-14863446", "US-11111111"],
                          "decision_date": [date(2019, 5, 1), date(2019, 5, 1)]})
    pubs = pl.DataFrame({"country": ["US", "US", "US"], "app_id": ["US-201514863446", "US-201514863446", "US-200511111111"],
                         "app_date": [date(2015, 9, 23), date(2015, 9, 23), date(2005, 3, 1)],
                         "pub_id": ["US-20170090000-A1", "US-9785570-B2", "US-20060000001-A1"],
                         "pub_date": [date(2017, 3, 30), date(2019, 10, 8), date(2006, 9, 1)]})
    claims = pl.DataFrame({"pub_id": ["US-20170090000-A1"], "claim_no": [1], "text": ["A lamp."],
                           "depends_on": [[]]}, schema_overrides={"depends_on": pl.List(pl.Int64)})
    out = align_publications(cases, pubs, claims).sort("case_id")
    assert out["pub_id"].to_list() == ["US-20170090000-A1", None], "latest before the decision; filed 2005: none"
    assert out["claims"][0].to_list() == [{"claim_no": 1, "text": "A lamp.", "depends_on": []}]
    assert out["app_id"].to_list() == ["US-14863446", "US-11111111"], "the case keeps the PTAB's id"
