"""Abstract segmentation (problem / solution / effect / substance / field) for PatenTEB.

Many Asian-office abstracts (JPO, via their English translations) carry labelled sections. The PatenTEB
paper reads them with seven patterns tried in order, first match wins; we do the same with vectorised
regexes (polars' Rust engine: no look-around, so every pattern is a single anchored `extract_groups`).

Rules applied on top of the patterns:
- everything after `SELECTED DRAWING` is dropped before matching (it is a figure reference, not text);
- an effect is cut at its first sentence end (later sentences are usually USE:/ADVANTAGE boilerplate);
- a FIELD with several comma-separated values keeps the last one (the most specific).

`remove_fragment` rebuilds an asymmetric-task target without its query fragment, matching on
whitespace-normalised text so that line breaks inside the abstract do not defeat the match. The section
marker in front of the fragment goes with it, and `drop_empty_markers` removes any marker left with no
text (`PROBLEM: SOLUTION:`, `[problem] [solution]`, a trailing `EFFECT:`): a model must not be able to match
query and target on an empty marker alone.
"""
from __future__ import annotations

from dataclasses import dataclass

import polars as pl

SEGMENTS: tuple[str, ...] = ("problem", "solution", "effect", "substance", "field")

# Section markers of the seven patterns plus the JPO boilerplate labels that follow them (USE:, ADVANTAGE:).
_LABELS = "PROBLEM TO BE SOLVED|PROBLEM|SOLUTION|PURPOSE|CONSTITUTION|EFFECT|FIELD|SUBSTANCE|USE|ADVANTAGE"
MARKER = rf"(?:(?:{_LABELS})\s*:|\[(?i:{_LABELS.lower()})\])"
_EMPTY_TAIL = r"[\s.,;:]*"  # what may follow a marker that still has no text of its own

# Optional trailing effect section for the problem/solution patterns: the lazy solution stops at it.
_EFFECT_TAIL = r"\s*(?:(?:EFFECT:|\[effect\])\s*(?P<effect>.*))?$"


@dataclass(frozen=True)
class SegmentPattern:
    """One labelled-abstract layout; `regex` names its segments with named groups."""

    number: int
    description: str
    regex: str

    @property
    def segments(self) -> tuple[str, ...]:
        return tuple(s for s in SEGMENTS if f"?P<{s}>" in self.regex)


PATTERNS: tuple[SegmentPattern, ...] = (
    SegmentPattern(1, "PROBLEM TO BE SOLVED: ... SOLUTION:",
                   r"(?s)^.*?PROBLEM TO BE SOLVED:\s*(?P<problem>.*?)\s*SOLUTION:\s*(?P<solution>.*?)" + _EFFECT_TAIL),
    SegmentPattern(2, "PROBLEM: ... SOLUTION:",
                   r"(?s)^.*?PROBLEM:\s*(?P<problem>.*?)\s*SOLUTION:\s*(?P<solution>.*?)" + _EFFECT_TAIL),
    SegmentPattern(3, "PURPOSE: ... CONSTITUTION:",
                   r"(?s)^.*?PURPOSE:\s*(?P<problem>.*?)\s*CONSTITUTION:\s*(?P<solution>.*?)" + _EFFECT_TAIL),
    SegmentPattern(4, "[problem] ... [solution]",
                   r"(?s)^.*?(?i:\[problem\])\s*(?P<problem>.*?)\s*(?i:\[solution\])\s*(?P<solution>.*?)"
                   r"\s*(?:(?:EFFECT:|(?i:\[effect\]))\s*(?P<effect>.*))?$"),
    SegmentPattern(5, "FIELD: ... SUBSTANCE: ... EFFECT:",
                   r"(?s)^.*?FIELD:\s*(?P<field>.*?)\s*SUBSTANCE:\s*(?P<substance>.*?)\s*EFFECT:\s*(?P<effect>.*)$"),
    SegmentPattern(6, "SOLUTION: ... EFFECT:",
                   r"(?s)^(?P<problem>.*?)\s*SOLUTION:\s*(?P<solution>.*?)\s*EFFECT:\s*(?P<effect>.*)$"),
    SegmentPattern(7, "lone SOLUTION: (before = problem, after = solution)",
                   r"(?s)^(?P<problem>.*?)\s*SOLUTION:\s*(?P<solution>.*)$"),
)


def drop_selected_drawing(text: pl.Expr) -> pl.Expr:
    """Cut `SELECTED DRAWING: ...` / `[Selected drawing] ...` (the figure reference) off an abstract."""
    return text.str.replace(r"(?s)\s*\[?(?i:selected drawing).*$", "")


def normalise_spacing(text: pl.Expr) -> pl.Expr:
    """Collapse whitespace runs to one space and strip: the form fragments are matched in."""
    return text.str.replace_all(r"\s+", " ").str.strip_chars()


def truncate_first_sentence(text: pl.Expr) -> pl.Expr:
    """Keep text up to the first sentence end (., ! or ? followed by space or end)."""
    first = text.str.extract(r"(?s)^(.*?[.!?])(?:\s|$)", 1)
    return pl.coalesce(first, text)


def keep_last_field_value(text: pl.Expr) -> pl.Expr:
    """`FIELD: chemistry, pharmacology.` -> `pharmacology` (the most specific value)."""
    return text.str.split(",").list.last().str.strip_chars(" \t\n.;")


def _clean(segment: pl.Expr) -> pl.Expr:
    """Whitespace-normalise a segment; empty becomes null so that tasks can filter on presence."""
    cleaned = normalise_spacing(segment)
    return pl.when(cleaned.str.len_chars() > 0).then(cleaned).otherwise(None)


def segment_abstracts(lf: pl.LazyFrame, column: str = "abstract") -> pl.LazyFrame:
    """Add `seg_pattern` (1-7, null when none matches) and one column per segment.

    The pattern number is decided first (first match wins) and every segment is then taken from that
    pattern only, so a later pattern can never fill a segment the winning pattern does not define.
    """
    text = drop_selected_drawing(pl.col(column))
    pattern_no: pl.Expr = pl.lit(None, dtype=pl.Int8)
    for pattern in reversed(PATTERNS):
        pattern_no = pl.when(text.str.contains(pattern.regex)).then(pl.lit(pattern.number, pl.Int8)).otherwise(
            pattern_no)
    out = lf.with_columns(pattern_no.alias("seg_pattern"))
    columns = []
    for segment in SEGMENTS:
        expr: pl.Expr = pl.lit(None, dtype=pl.String)
        for pattern in PATTERNS:
            if segment in pattern.segments:
                value = text.str.extract_groups(pattern.regex).struct.field(segment)
                expr = pl.when(pl.col("seg_pattern") == pattern.number).then(value).otherwise(expr)
        columns.append(_clean(expr).alias(segment))
    out = out.with_columns(columns)
    return out.with_columns(
        _clean(truncate_first_sentence(pl.col("effect"))).alias("effect"),
        _clean(keep_last_field_value(pl.col("field"))).alias("field"),
    )


def drop_empty_markers(text: pl.Expr) -> pl.Expr:
    """Remove every section marker that has no text of its own: one followed by another marker or by the end.

    Chains (`PROBLEM: SOLUTION: EFFECT:`) shrink by one marker per pass; three passes cover the longest
    layout (FIELD / SUBSTANCE / EFFECT / USE), the trailing rule then removes what is left at the end.
    """
    out = text
    for _ in range(3):
        out = out.str.replace_all(rf"{MARKER}{_EMPTY_TAIL}({MARKER})", "$1")
    for _ in range(2):
        out = out.str.replace(rf"\s*{MARKER}{_EMPTY_TAIL}$", "")
    return normalise_spacing(out)


def has_empty_marker(text: pl.Expr) -> pl.Expr:
    """Does `text` hold a marker with no text of its own (the cue `drop_empty_markers` removes)?"""
    return text.str.contains(rf"{MARKER}{_EMPTY_TAIL}(?:{MARKER}|$)")


def remove_fragment(text: pl.Expr, fragment: pl.Expr) -> pl.Expr:
    """`text` without (every occurrence of) `fragment` and its section marker, both compared whitespace-normalised.

    The marker right before an occurrence (`PROBLEM TO BE SOLVED:`, `[effect]`, ...) is removed with it,
    then any marker left empty. A missing or empty fragment leaves the (normalised) text unchanged. The
    result is normalised too, so removing a fragment never leaves double spaces behind.
    """
    norm_text = normalise_spacing(text)
    norm_fragment = normalise_spacing(fragment)
    parts = norm_text.str.split(norm_fragment).list.eval(pl.element().str.replace(rf"\s*{MARKER}\s*$", ""))
    removed = drop_empty_markers(parts.list.join(" "))
    usable = norm_fragment.is_not_null() & (norm_fragment.str.len_chars() > 0)
    return pl.when(usable).then(removed).otherwise(norm_text)
