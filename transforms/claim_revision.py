"""Patent-CR cleaning and pairing: EP claims before grant (A1/A2) and after grant (B1).

Pure functions over claim texts and LazyFrames; no I/O. The claims are published as issued, as the
paper publishes them (claim numbers and reference signs kept; only whitespace runs collapsed). Cleaning
is a stated option beside them (`*_clean` columns): leading claim numbers and drawing reference signs go,
so a model can be trained on the legal amendment alone. Pairing keeps patents whose both sides exist, are
English and differ as issued; everything else is counted with a reason so the build can report it (never
silently dropped).

A reference sign is a numeral in parentheses, such as "(100)", "(102a, 104)" or "(14')", that follows a
noun phrase (or a method step's verb: "receiving (202) a message") and points into a drawing. Numbers in
parentheses that name a formula, condition, claim, sequence, example or table are text and stay:
"compound of formula (1) wherein", "general formula (2) or (3)", "satisfies condition (4)", "an
enumeration: (1) ...", "R(1)". The rule looks at the word before the parentheses, so it is plain Python
(the polars expressions call it once per claim list).
"""
from __future__ import annotations

import logging
import re
from datetime import date

import polars as pl

log = logging.getLogger(__name__)

_NUMBER = re.compile(r"^\s*\(?\d{1,4}\s*[.)]\s*")
# "(100)", "(102a)", "(110, 112)", "(14')", "(2; 102)": digits with an optional letter/prime, listed
_SIGN = r"\d{1,5}[a-z]?['\u2019]*"
_REF_GROUP = re.compile(rf"\((?:{_SIGN})(?:\s*(?:[,;\-\u2013]|and|or)\s*{_SIGN})*\)")
# what may link a kept group to the next one: "formula (2) or (3)", "(1) to (3)", "(I), (1) and (2)"
_LINK = re.compile(r"^\s*(?:,|or|and|and/or|to|-|\u2013)?\s*$")
_LAST_TOKEN = re.compile(r"(\S+)\s*$")
# words after which a parenthesised number is a label of the text itself, not a drawing reference
PROTECTED = frozenset("""formula formulae formulas formel structure structures compound compounds equation
    equations eq eq. eqn eqn. expression expressions relation relations relationship condition conditions inequality
    inequalities reaction reactions scheme schemes claim claims sequence sequences seq example examples table tables
    no no. nos nos. number numbers id fig fig. figs figs. figure figures embodiment embodiments item items
    group groups""".split())
# function words: a number in parentheses after them is not "after a noun phrase"
_FUNCTION = frozenset("""the a an of in on to or and with by from at as for is are be been was were than per via
    into onto between wherein whereby which that said each any all following general represented defined shown
    according where when if""".split())
_WS = re.compile(r"\s+")
_ENGLISH = frozenset("the a an of and to in for with wherein comprising which is said claim".split())
_FOREIGN = frozenset("der die das und nach umfassend wobei anspruch le la les et selon dans lequel "
                     "revendication comprenant procédé".split())
REASONS = ("no_grant", "no_application", "not_english", "ops_404", "empty_claims", "unchanged")


def _is_reference_sign(before: str) -> bool:
    """True if a parenthesised numeral preceded by `before` (the claim text up to it) is a reference sign."""
    glued = bool(before) and not before[-1].isspace()
    m = _LAST_TOKEN.search(before)
    if not m:
        return False  # the claim starts with it: an enumeration
    token = m.group(1)
    word = token.lower().rstrip(",")
    if glued and not re.fullmatch(r"[a-z]{3,}", token):
        return False  # 'R(1)', 'f(x)(2)', 'H2O(1)': notation, not a sign
    if word.isdigit():  # 'the device of claim 1 (300)': a sign after a claim reference; 'formula 1 (2)': not
        prev = _LAST_TOKEN.search(before[:m.start()].rstrip())
        return bool(prev) and prev.group(1).lower() in ("claim", "claims")
    if not re.search(r"[a-z]$", word) or word in _FUNCTION or word in PROTECTED:
        return False
    return True


def strip_reference_signs(text: str) -> str:
    """Drop reference signs (see module docstring); every other parenthesised number stays."""
    out, last, kept_end = [], 0, None
    for m in _REF_GROUP.finditer(text):
        chained = kept_end is not None and _LINK.match(text[kept_end:m.start()]) is not None
        if not chained and _is_reference_sign(text[:m.start()]):
            out.append(text[last:m.start()].rstrip(" \t"))
            last, kept_end = m.end(), None
        else:
            kept_end = m.end()
    out.append(text[last:])
    return "".join(out)


def clean_claim(text: str | None) -> str:
    """One claim: drop its leading number and reference signs, collapse whitespace."""
    if not text:
        return ""
    out = _NUMBER.sub("", text, count=1)
    out = strip_reference_signs(out)
    out = _WS.sub(" ", out).strip()
    return re.sub(r"\s+([,.;:])", r"\1", out)


def issued_claims(texts: list[str] | None) -> list[str]:
    """A claim set as issued: every claim's text with whitespace runs collapsed; empty claims removed."""
    return [c for c in (_WS.sub(" ", t or "").strip() for t in (texts if texts is not None else [])) if c]


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
    """Keep rows whose claim sets as issued both exist and differ; add the cleaned sets as
    `claims_before_clean` / `claims_after_clean` (the cleaning option; they may be equal).

    Input columns: ep_number, kind_before, claims_before, kind_after, claims_after (+ any extra)."""
    issued = revisions.with_columns(_map_list(pl.col("claims_before"), issued_claims),
                                    _map_list(pl.col("claims_after"), issued_claims))
    return issued.filter(
        pl.col("claims_before").list.len().fill_null(0) > 0,
        pl.col("claims_after").list.len().fill_null(0) > 0,
        pl.col("claims_before") != pl.col("claims_after"),
    ).with_columns(_clean_list(pl.col("claims_before"), drop_empty=True).alias("claims_before_clean"),
                   _clean_list(pl.col("claims_after"), drop_empty=True).alias("claims_after_clean"))


def _map_list(col: pl.Expr, fn) -> pl.Expr:
    return col.map_elements(fn, return_dtype=pl.List(pl.String))


def _clean_list(col: pl.Expr, drop_empty: bool = False) -> pl.Expr:
    """`clean_claim` over a list column, one Python call per claim set (the rule reads words, not patterns)."""
    def clean(texts: list[str | None]) -> list[str]:
        out = [clean_claim(t) for t in texts]
        return [t for t in out if t] if drop_empty else out
    return _map_list(col, clean)


def split_by_month(pairs: pl.LazyFrame, test_months: tuple[int, ...] = (6,),
                   date_col: str = "pub_date_after") -> dict[str, pl.LazyFrame]:
    """SPEC split: grants published in `test_months` -> test, the other months -> train."""
    is_test = pl.col(date_col).dt.month().is_in(list(test_months))
    return {"train": pairs.filter(~is_test), "test": pairs.filter(is_test)}


def in_range(day: date | None, start: date, end: date) -> bool:
    """Inclusive date-range test that treats an unknown date as outside."""
    return day is not None and start <= day <= end


def recovered_pairs(built: pl.LazyFrame, truth: pl.LazyFrame) -> pl.LazyFrame:
    """Truth pairs whose cleaned claims the build's cleaned columns reproduce exactly (numbering and signs
    aside: a source's layout of them is not the point), sorted by ep_number."""
    want = truth.select("ep_number", _clean_list(pl.col("claims_before")).alias("tb"),
                        _clean_list(pl.col("claims_after")).alias("ta"))
    got = built.select("ep_number", pl.col("claims_before_clean").alias("gb"), pl.col("claims_after_clean").alias("ga"))
    return (want.join(got, on="ep_number", how="inner")
            .filter((pl.col("tb") == pl.col("gb")) & (pl.col("ta") == pl.col("ga"))).select("ep_number")
            .sort("ep_number"))
