"""Patent-CR cleaning and pairing: EP claims before grant (A1/A2) and after grant (B1).

Pure functions over claim texts and LazyFrames; no I/O. Cleaning makes the two sides comparable
(the model should learn the legal amendment, not numbering or drawing references): leading claim
numbers, reference signs in parentheses such as "(100)" or "(102a, 104)", and whitespace runs
go. Pairing keeps only patents whose both sides exist, are English and differ; everything else is
counted with a reason so the build can report it (never silently dropped).
"""
from __future__ import annotations

import logging
import re
from datetime import date

import polars as pl

log = logging.getLogger(__name__)

_NUMBER = re.compile(r"^\s*\(?\d{1,4}\s*[.)]\s*")  # no look-ahead: polars (Rust) regex shares it
# "(100)", "(102a)", "(110, 112)", "(14')" — digits with optional letter/prime, comma/and separated.
_REF_SIGN = re.compile(r"\s*\((?:\d{1,5}[a-z]?'*)(?:\s*(?:,|and|-)\s*\d{1,5}[a-z]?'*)*\)")
_WS = re.compile(r"\s+")
_ENGLISH = frozenset("the a an of and to in for with wherein comprising which is said claim".split())
_FOREIGN = frozenset("der die das und nach umfassend wobei anspruch le la les et selon dans lequel "
                     "revendication comprenant procédé".split())
REASONS = ("no_grant", "no_application", "not_english", "ops_404", "empty_claims", "unchanged")


def clean_claim(text: str | None) -> str:
    """One claim: drop its leading number and reference signs, collapse whitespace."""
    if not text:
        return ""
    out = _NUMBER.sub("", text, count=1)
    out = _REF_SIGN.sub("", out)
    out = _WS.sub(" ", out).strip()
    return re.sub(r"\s+([,.;:])", r"\1", out)


def clean_claims(texts: list[str] | None) -> list[str]:
    """A claim set in document order; claims that clean to nothing are removed."""
    return [c for c in (clean_claim(t) for t in texts or []) if c]


def looks_english(texts: list[str]) -> bool:
    """Cheap stop-word vote: OPS may hand back only DE/FR claims; those must not pass as English."""
    words = [w.lower() for t in texts for w in re.findall(r"[A-Za-zÀ-ÿ]+", t)[:200]]
    if not words:
        return False
    en = sum(w in _ENGLISH for w in words)
    foreign = sum(w in _FOREIGN for w in words)
    return en > foreign


def pair_reason(before: list[str] | None, after: list[str] | None) -> str | None:
    """None when (before, after) is a usable revision pair, else the reason it is not."""
    if after is None:
        return "no_grant"
    if before is None:
        return "no_application"
    if not before or not after:
        return "empty_claims"
    if not (looks_english(before) and looks_english(after)):
        return "not_english"
    if before == after:
        return "unchanged"
    return None


def pair_claims(revisions: pl.LazyFrame) -> pl.LazyFrame:
    """Clean both sides and keep rows whose cleaned claim sets both exist and differ.

    Input columns: ep_number, kind_before, claims_before, kind_after, claims_after (+ any extra)."""
    cleaned = revisions.with_columns(
        pl.col("claims_before").list.eval(_clean_expr(pl.element())).list.eval(pl.element().filter(pl.element() != "")),
        pl.col("claims_after").list.eval(_clean_expr(pl.element())).list.eval(pl.element().filter(pl.element() != "")),
    )
    return cleaned.filter(
        pl.col("claims_before").list.len().fill_null(0) > 0,
        pl.col("claims_after").list.len().fill_null(0) > 0,
        pl.col("claims_before") != pl.col("claims_after"),
    )


def _clean_expr(col: pl.Expr) -> pl.Expr:
    """`clean_claim` as a vectorised expression (same regexes, no per-row Python)."""
    return (col.str.replace(_NUMBER.pattern, "")
            .str.replace_all(_REF_SIGN.pattern, "")
            .str.replace_all(r"\s+", " ")
            .str.replace_all(r"\s+([,.;:])", "$1")
            .str.strip_chars())


def split_by_month(pairs: pl.LazyFrame, test_months: tuple[int, ...] = (6,),
                   date_col: str = "pub_date_after") -> dict[str, pl.LazyFrame]:
    """SPEC split: grants published in `test_months` -> test, the other months -> train."""
    is_test = pl.col(date_col).dt.month().is_in(list(test_months))
    return {"train": pairs.filter(~is_test), "test": pairs.filter(is_test)}


def in_range(day: date | None, start: date, end: date) -> bool:
    """Inclusive date-range test that treats an unknown date as outside."""
    return day is not None and start <= day <= end


def recovered_pairs(built: pl.LazyFrame, truth: pl.LazyFrame) -> pl.LazyFrame:
    """Truth pairs whose cleaned claims the build reproduced exactly, sorted by ep_number (joins do not keep order)."""
    want = truth.select("ep_number", pl.col("claims_before").list.eval(_clean_expr(pl.element())).alias("tb"),
                        pl.col("claims_after").list.eval(_clean_expr(pl.element())).alias("ta"))
    got = built.select("ep_number", pl.col("claims_before").alias("gb"), pl.col("claims_after").alias("ga"))
    return (want.join(got, on="ep_number", how="inner")
            .filter((pl.col("tb") == pl.col("gb")) & (pl.col("ta") == pl.col("ga"))).select("ep_number")
            .sort("ep_number"))
