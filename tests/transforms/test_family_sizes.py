"""The reported-size check: each status on a small warehouse whose families are known by construction."""
from __future__ import annotations

import polars as pl

from transforms.family_sizes import check_reported_sizes, size_status


def _families(groups: dict[str, list[str]], kind: str = "simple") -> pl.LazyFrame:
    return pl.LazyFrame([{"family_id": f, "pub_id": p, "family_kind": kind} for f, ps in groups.items() for p in ps])


def _reported(rows: list[tuple[str, str, int | None]], kind: str = "simple") -> pl.LazyFrame:
    return pl.LazyFrame([{"source": "lens", "family_kind": kind, "family_id": f, "pub_id": p, "family_size": n}
                         for f, p, n in rows], schema_overrides={"family_size": pl.Int32})


def test_each_status() -> None:
    ours = _families({"S:1": ["A", "B"], "S:2": ["C"], "S:3": ["D", "E", "F"], "S:4": ["G"], "S:5": ["H"]})
    reported = _reported([
        ("A", "A", 2), ("A", "B", 2),  # listed whole, ours the same: match
        ("C", "C", 2), ("C", "X", 2),  # X not in the warehouse: incomplete
        ("D", "D", 2),                 # size only, ours bigger: mismatch
        ("G", "G", 2), ("G", "H", 2),  # listed whole but we split them: mismatch
        ("Y", "Y", 1),                 # nothing of it here: absent
        ("H", "H", None),              # no size: not checked
        ("F", "F", 5),                 # size only, ours smaller: members may be missing, incomplete
    ])
    status = dict(size_status(reported, ours).select("family_id", "status").iter_rows())
    assert status == {"A": "match", "C": "incomplete", "D": "mismatch", "G": "mismatch", "Y": "absent",
                      "F": "incomplete"}
    check = check_reported_sizes(reported, ours)
    assert check == {"lens simple": {"reported": 6, "match": 1, "mismatch": 2, "incomplete": 2, "absent": 1,
                                     "mismatch_examples": ["D", "G"]}}


def test_no_sizes_no_check() -> None:
    old = pl.LazyFrame({"source": ["lens"], "family_kind": ["simple"], "family_id": ["A"], "pub_id": ["A"]})
    assert check_reported_sizes(old, _families({"S:1": ["A"]})) == {}


def test_card_counts_the_check() -> None:
    from patentfactory.stages.patenteb_card import departures
    from transforms.tasks.patenteb import PatenTEBParams

    ours = _families({"S:1": ["A", "B"], "S:3": ["D", "E"]})
    check = check_reported_sizes(_reported([("A", "A", 2), ("A", "B", 2), ("D", "D", 1)]), ours)
    text = departures({"reported_family_sizes": check}, PatenTEBParams(), "full", None)
    assert "lens simple: 1 match, 1 mismatch (e.g. D), 0 not checkable (members outside the warehouse), 0 absent, " \
           "of 2 reported" in text
    assert "(0 families checked)" in departures({}, PatenTEBParams(), "full", None)
