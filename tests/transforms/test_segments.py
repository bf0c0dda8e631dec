"""Abstract segmentation: each of the seven patterns, first match wins, cleaning rules, fragment removal."""
from __future__ import annotations

import polars as pl
import pytest

from transforms.segments import (
    PATTERNS, drop_empty_markers, has_empty_marker, normalise_spacing, remove_fragment, segment_abstracts,
)


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
    assert out == ["Title SOLUTION: wrap.", "keep me", "x"]


# --- fragment removal takes the section marker with it (no marker cue left in a target) ---

SEVEN = [  # one abstract per SPEC pattern, (pattern, abstract, fragments the asymmetric tasks remove)
    (1, "PROBLEM TO BE SOLVED: To cut costs.\nSOLUTION: A widget is used. EFFECT: Cheaper parts. Later text.",
     ("problem", "effect")),
    (2, "PROBLEM: heat loss. SOLUTION: an insulation layer. EFFECT: warmer pipes.", ("problem", "effect")),
    (3, "PURPOSE: To improve yield. CONSTITUTION: A sieve is provided.", ("problem",)),
    (4, "[Problem] noise in amplifiers [Solution] a shielded coil [Effect] quiet output.", ("problem", "effect")),
    (5, "FIELD: chemistry, pharmacology. SUBSTANCE: a compound of formula I. EFFECT: analgesic. USE: drug.",
     ("effect",)),
    (6, "A loader. SOLUTION: a lever arm. EFFECT: faster loading. Second sentence.", ("problem", "effect")),
    (7, "Known pumps leak. SOLUTION: a double seal.", ("problem",)),
]
MARKER_OF = {"problem": r"PROBLEM( TO BE SOLVED)?:|PURPOSE:|\[(?i:problem)\]", "effect": r"EFFECT:|\[(?i:effect)\]"}


def _removed(texts: list[str], fragments: list[str | None]) -> list[str]:
    df = pl.DataFrame({"t": texts, "f": fragments}, schema={"t": pl.String, "f": pl.String})
    return df.select(remove_fragment(pl.col("t"), pl.col("f")).alias("r"))["r"].to_list()


def _has_empty(texts: list[str]) -> list[bool]:
    return pl.DataFrame({"t": texts}).select(has_empty_marker(pl.col("t")))["t"].to_list()


@pytest.mark.parametrize(("pattern", "text", "fragments"), SEVEN)
def test_removing_a_fragment_removes_its_marker_on_every_pattern(pattern: int, text: str, fragments: tuple) -> None:
    row = _segment(text)
    assert row["seg_pattern"] == pattern
    for name in fragments:
        fragment = row[name]
        [target] = _removed([text], [fragment])
        assert fragment not in target, (pattern, name)
        assert not pl.Series([target]).str.contains(MARKER_OF[name]).item(), (pattern, name, target)
        assert _has_empty([target]) == [False], (pattern, name, target)
        kept = "solution" if row["solution"] else "substance"
        assert row[kept] in target, "the rest of the abstract stays"


def test_empty_and_dangling_markers_are_removed() -> None:
    texts = ["Title PROBLEM: SOLUTION: wrap.", "[problem] [solution] a coil", "A pump. EFFECT:", "SOLUTION: x. EFFECT: .",
             "FIELD: SUBSTANCE: EFFECT: USE: drug.", "A plain text about use: of a SOLUTION in water."]
    out = pl.DataFrame({"t": texts}).select(drop_empty_markers(pl.col("t")))["t"].to_list()
    assert out == ["Title SOLUTION: wrap.", "[solution] a coil", "A pump.", "SOLUTION: x.", "USE: drug.",
                   "A plain text about use: of a SOLUTION in water."]
    assert _has_empty(texts) == [True, True, True, True, True, False]
    assert _has_empty(out) == [False] * len(out)


# JPO English abstracts (Patent Abstracts of Japan) as Lens and Espacenet carry them: no space before a label
# after a sentence end, a copyright line, the selected-drawing reference, labels in brackets in newer ones.
JPO_STYLE = [
    "PROBLEM TO BE SOLVED: To provide a method for producing a carbon dioxide adsorption sintered body which does "
    "not generate carbon dioxide during production.SOLUTION: Coal ash whose ignition loss is adjusted is mixed "
    "with a calcium source and sintered by microwave heating. SELECTED DRAWING: Figure 1 COPYRIGHT: (C)2021,JPO&INPIT",
    "PROBLEM TO BE SOLVED: To provide novel engineered forms of a monoclonal antibody that bind complement protein "
    "factor B.SOLUTION: Humaneered anti-factor B antibodies are derived from murine antibody 1379. "
    "COPYRIGHT: (C)2011,JPO&INPIT",
    "PURPOSE: To prevent the deformation of a lead frame. CONSTITUTION: A reinforcing tape is stuck to the inner "
    "leads before molding. COPYRIGHT: (C)1994,JPO&Japio",
    "[Problem] To reduce the noise of a fan motor. [Solution] A fan motor includes a rotor with skewed magnets. "
    "[Effect] The cogging torque is lowered. [Selected drawing] Figure 2",
]


def _targets(abstracts: list[str], fragment: str) -> list[str]:
    from transforms.segments import drop_selected_drawing

    seg = pl.LazyFrame({"abstract": abstracts}).pipe(segment_abstracts).collect()
    out = seg.select(remove_fragment(drop_selected_drawing(pl.col("abstract")), pl.col(fragment)).alias("r"))
    return [t for t, f in zip(out["r"].to_list(), seg[fragment].to_list()) if f is not None]


def test_jpo_style_abstracts_leave_no_marker_cue() -> None:
    problems = _targets(JPO_STYLE, "problem")
    assert len(problems) == 4
    assert not any(pl.Series(problems).str.contains(MARKER_OF["problem"]))
    assert problems[0].startswith("SOLUTION: Coal ash") and "SELECTED" not in problems[0]
    assert problems[3] == "[Solution] A fan motor includes a rotor with skewed magnets. [Effect] The cogging torque " \
                          "is lowered."
    effects = _targets(JPO_STYLE, "effect")
    assert effects == ["[Problem] To reduce the noise of a fan motor. [Solution] A fan motor includes a rotor with "
                       "skewed magnets."]
    assert _has_empty(problems + effects) == [False] * 5


def test_real_lens_abstracts_pass_through_unchanged(real_samples) -> None:
    """The real Lens export (CN/US/RO/WO) has no labelled abstract: nothing segments, nothing is removed."""
    from sources.lens import parse_lens_jsonl

    pubs = parse_lens_jsonl(real_samples / "lens" / "lens_api_biopoly.jsonl", "lens.jsonl").rows["publications"]
    abstracts = [p["abstract"] for p in pubs if p.get("abstract")]
    assert len(abstracts) >= 8
    seg = pl.LazyFrame({"abstract": abstracts}).pipe(segment_abstracts).collect()
    assert seg["seg_pattern"].null_count() == len(abstracts)
    norm = pl.DataFrame({"t": abstracts}).select(normalise_spacing(pl.col("t")))["t"].to_list()
    assert _removed(abstracts, [None] * len(abstracts)) == norm
    assert pl.DataFrame({"t": norm}).select(drop_empty_markers(pl.col("t")))["t"].to_list() == norm
    assert _has_empty(abstracts) == [False] * len(abstracts)
