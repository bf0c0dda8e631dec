"""Pap2Pat splits: the paper's sizes at the paper's pool, proportions elsewhere, nc-test by date, seeded."""
from __future__ import annotations

from datetime import date

import polars as pl

from transforms.tasks.pap2pat import SplitParams, no_pair_member_in_two_splits, split_pairs, split_sizes


def _pairs(n: int, n_nc: int) -> pl.DataFrame:
    return pl.DataFrame({"pair_id": [f"W{k}-US{k}" for k in range(n)],
                         "patent_pub_date": [date(2024, 3, 1)] * n_nc + [date(2020, 5, 5)] * (n - n_nc)})


def test_paper_sizes_reproduced_at_full_scale():
    out = split_pairs(_pairs(1813, 71))
    assert dict(out.group_by("split").len().iter_rows()) == {"train": 1000, "val": 242, "test": 500, "nc-test": 71}
    assert out["pair_id"].is_unique().all() and out.height == 1813


def test_seeded_deterministic_and_dated():
    a, b = split_pairs(_pairs(300, 20)), split_pairs(_pairs(300, 20).reverse())
    assert a.equals(b)
    c = split_pairs(_pairs(300, 20), SplitParams(seed=7))
    assert not a.equals(c) and a.filter(pl.col("split") == "nc-test")["pair_id"].to_list() == \
        c.filter(pl.col("split") == "nc-test")["pair_id"].to_list()
    assert set(a.filter(pl.col("split") == "nc-test")["pair_id"]) == {f"W{k}-US{k}" for k in range(20)}
    assert split_sizes(280, (1000, 242, 500)) == (161, 39, 80)


def test_leakage_check_names_the_member():
    frames = {"pairs": {"train": pl.DataFrame({"pub_id": ["P1"], "work_id": ["W1"]}),
                        "test": pl.DataFrame({"pub_id": ["P1"], "work_id": ["W2"]})}}
    assert no_pair_member_in_two_splits(frames) == ["pub_id P1 in test and train"]
