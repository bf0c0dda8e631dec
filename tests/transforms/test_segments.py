"""Abstract segmentation: each of the seven patterns, first match wins, cleaning rules, fragment removal."""
from __future__ import annotations

import polars as pl
import pytest

from transforms.segments import PATTERNS, remove_fragment, segment_abstracts


def _segment(text: str | None) -> dict:
    return pl.LazyFrame({"abstract": [text]}, schema={"abstract": pl.String}).pipe(segment_abstracts).collect().row(
        0, named=True)


@pytest.mark.parametrize(("text", "pattern", "expected"), [
    ("PROBLEM TO BE SOLVED: To cut costs.\nSOLUTION: A widget is used.", 1,
     {"problem": "To cut costs.", "solution": "A widget is used."}),
    ("PROBLEM: heat loss. SOLUTION: an insulation layer.", 2,
     {"problem": "heat loss.", "solution": "an insulation layer."}),
    ("PURPOSE: To improve yield. CONSTITUTION: A sieve is provided.", 3,
     {"problem": "To improve yield.", "solution": "A sieve is provided."}),
    ("[Problem] noise in amplifiers [Solution] a shielded coil", 4,
     {"problem": "noise in amplifiers", "solution": "a shielded coil"}),
    ("FIELD: chemistry, pharmacology. SUBSTANCE: a compound of formula I. EFFECT: analgesic. USE: drug.", 5,
     {"field": "pharmacology", "substance": "a compound of formula I.", "effect": "analgesic."}),
    ("A loader. SOLUTION: a lever arm. EFFECT: faster loading. Second sentence.", 6,
     {"problem": "A loader.", "solution": "a lever arm.", "effect": "faster loading."}),
    ("Known pumps leak. SOLUTION: a double seal.", 7,
     {"problem": "Known pumps leak.", "solution": "a double seal."}),
])
def test_each_pattern(text: str, pattern: int, expected: dict) -> None:
    row = _segment(text)
    assert row["seg_pattern"] == pattern
    for key in ("problem", "solution", "effect", "substance", "field"):
        assert row[key] == expected.get(key), key


def test_seven_patterns_declared_in_spec_order() -> None:
    assert [p.number for p in PATTERNS] == [1, 2, 3, 4, 5, 6, 7]


def test_first_match_wins_over_later_patterns() -> None:
    # contains SOLUTION: and EFFECT: (patterns 6/7) but pattern 1 comes first
    row = _segment("PROBLEM TO BE SOLVED: rust. SOLUTION: paint. EFFECT: lasts longer. Really.")
    assert row["seg_pattern"] == 1
    assert (row["problem"], row["solution"], row["effect"]) == ("rust.", "paint.", "lasts longer.")


def test_selected_drawing_dropped() -> None:
    row = _segment("PROBLEM: glare. SOLUTION: a polariser film.  SELECTED DRAWING: Figure 1 SOLUTION: nope")
    assert row["solution"] == "a polariser film."
    assert "SELECTED" not in (row["solution"] or "")


def test_no_pattern_gives_nulls() -> None:
    for text in ("A plain abstract about a solution to rust.", None, ""):
        row = _segment(text)
        assert row["seg_pattern"] is None and row["problem"] is None and row["solution"] is None


def test_empty_segment_becomes_null() -> None:
    row = _segment("SOLUTION: only a solution here.")
    assert row["seg_pattern"] == 7 and row["problem"] is None and row["solution"] == "only a solution here."


def test_effect_without_sentence_end_kept_whole_and_field_single_value() -> None:
    row = _segment("FIELD: metallurgy. SUBSTANCE: alloy X. EFFECT: high strength")
    assert row["effect"] == "high strength" and row["field"] == "metallurgy"


def test_remove_fragment_normalised_matching() -> None:
    df = pl.DataFrame({"t": ["Title\n\nPROBLEM: heat\n  loss in pipes. SOLUTION: wrap.", "keep me", "x"],
                       "f": ["heat loss in pipes.", "absent", None]})
    out = df.select(remove_fragment(pl.col("t"), pl.col("f")).alias("r"))["r"].to_list()
    assert out == ["Title PROBLEM: SOLUTION: wrap.", "keep me", "x"]
