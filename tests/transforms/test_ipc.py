"""IPC3 extraction, dominant class and the four domain relations."""
from __future__ import annotations

import polars as pl
import pytest

from transforms.ipc import FULL_MIX, IN, MIXED, OUT, PART_MIX, add_domain_relation, assign_family_ipc3, \
    domain_relation, ipc3_of, relation_group


def test_ipc3_of_normalises_and_rejects_garbage() -> None:
    s = pl.Series(["H04L 29/06", "a61k 9/00", " G06F17/30", "X", None, "9ZZ 1/00"])
    assert pl.select(ipc3_of(pl.lit(s))).to_series().to_list() == ["H04", "A61", "G06", None, None, None]


@pytest.mark.parametrize(("a", "b", "expected"), [
    (["H04", "G06"], ["G06", "H04"], IN),
    (["H04"], ["A61"], OUT),
    (["H04", "G06"], ["H04"], FULL_MIX),
    (["H04"], ["H04", "G06"], FULL_MIX),
    (["H04", "G06"], ["H04", "A61"], PART_MIX),
    (["H04", "H04"], ["H04"], IN),
])
def test_domain_relation(a: list[str], b: list[str], expected: str) -> None:
    df = pl.DataFrame({"a": [a], "b": [b]})
    rel = df.select(domain_relation(pl.col("a"), pl.col("b")).alias("r"))["r"][0]
    assert rel == expected
    group = pl.select(relation_group(pl.lit(rel))).item()
    assert group == (MIXED if expected in (FULL_MIX, PART_MIX) else expected)


def test_domain_relation_is_symmetric_for_in_out_vectorised() -> None:
    df = pl.DataFrame({"a": [["A01"], ["A01", "B01"], ["C07"]], "b": [["A01"], ["B01", "C07"], ["A01"]]})
    fwd = df.select(domain_relation(pl.col("a"), pl.col("b")))
    back = df.select(domain_relation(pl.col("b"), pl.col("a")))
    assert fwd.to_series().to_list() == back.to_series().to_list() == [IN, PART_MIX, OUT]


def _tables():
    pubs = pl.LazyFrame({
        "pub_id": ["P1", "P2", "P3", "P4", "P5"],
        "ipc": [["H04L 1/00", "G06F 1/00"], ["G06F 3/00", "H04W 4/00"], ["G06N 3/00"], ["A61K 9/00"], ["C07D 1/00"]],
    })
    fams = pl.LazyFrame({"family_id": ["F1", "F1", "F1", "F2", "F2"], "pub_id": ["P1", "P2", "P3", "P4", "P5"],
                         "family_kind": ["simple"] * 5})
    return pubs, fams


def test_dominant_ipc3_is_majority_over_members() -> None:
    pubs, fams = _tables()
    out = assign_family_ipc3(pubs, fams).collect()
    assert out.row(0, named=True) == {"family_id": "F1", "ipc3": "G06", "ipc3_set": ["G06", "H04"]}
    # tie (one member each): the class listed first more often, then alphabetical
    assert out.row(1, named=True) == {"family_id": "F2", "ipc3": "A61", "ipc3_set": ["A61", "C07"]}


def test_extended_families_ignored_and_pairs_get_relation() -> None:
    pubs, fams = _tables()
    fams = pl.concat([fams, pl.LazyFrame({"family_id": ["E1"], "pub_id": ["P1"], "family_kind": ["extended"]})])
    sets = assign_family_ipc3(pubs, fams)
    assert sets.collect()["family_id"].to_list() == ["F1", "F2"]
    pairs = pl.LazyFrame({"q_family": ["F1", "F1"], "t_family": ["F2", "F1"]})
    out = add_domain_relation(pairs, sets).collect().sort("t_family")
    assert out["relation"].to_list() == [IN, OUT] and out["relation_group"].to_list() == [IN, OUT]
