"""Inventor and author names folded to comparable keys, and the rules that say two spellings are one person.

Folding (`fold_name`): transliteration (text-unidecode: 'Kozubı́k' -> 'kozubik', ø -> o, ł -> l, æ -> ae,
ß -> ss), lower case, apostrophes dropped ('O’Brien' = "O'Brien" = 'OBrien'), hyphens, dots and commas as spaces.
`compare_key` also folds the German transcriptions ae/oe/ue to a/o/u, so 'Müller' (-> 'muller') and 'Mueller'
meet. Two folded names are one person (`same_person`) when they are equal, or equal without their spaces
('Dao-Xiu Zhou' / 'Daoxiu Zhou'), or when their last names agree and their first names agree or one is the
other's initial (middle initials on both sides must agree as far as the shorter goes: 'Johnny Chung Yin Ho' /
'Johnny C. Ho'), or when one is the other with first and last name swapped ('Wei Chen' / 'Chen Wei'), or when the
first names are equal and one's last name is a later name of the other (compound surnames: 'Caroline Pot Kreis' /
'Caroline Pot').

Without alternative names (the released Pap2Pat metadata has none) each name is also compared in the spellings
`name_variants` lists: hyphenated given names joined ('Han-Jae' = 'Hanjae', 'Shin-I' = 'Shini'), surname particles
joined to the surname ('van der Ende', 'Di Martino'), family name first ('WU Mei-ling', 'Cho H'), and a leading
given name or initial left out ('Md Anisur Rahman', 'H. Ekkehard Neuhaus').
"""
from __future__ import annotations

import re
from functools import lru_cache

import polars as pl
from text_unidecode import unidecode

_APOSTROPHES = re.compile(r"['’‘`´ʼ]")
_SEPARATORS = re.compile(r"[-‐‑–—_.,;/]+")
_NOT_WORD = re.compile(r"[^a-z0-9 ]+")
_TRANSCRIPTIONS = (("ae", "a"), ("oe", "o"), ("ue", "u"))
_HYPHEN = re.compile(r"(?<=\w)[-‐‑–](?=\w)")
PARTICLES = frozenset({"van", "von", "der", "den", "de", "di", "da", "del", "della", "le", "la", "du", "dos", "das",
                       "ter", "ten", "ben", "bin", "al", "el"})


@lru_cache(maxsize=500_000)
def fold_name(name: str | None) -> str:
    """'Jörg-Peter  O’Brien.' -> 'jorg peter obrien'."""
    text = unidecode(name or "").lower()
    text = _SEPARATORS.sub(" ", _APOSTROPHES.sub("", text))
    return " ".join(_NOT_WORD.sub("", text).split())


def compare_key(folded: str) -> str:
    """A folded name with ae/oe/ue read as a/o/u (both spellings of an umlaut give the same key)."""
    for pair, single in _TRANSCRIPTIONS:
        folded = folded.replace(pair, single)
    return folded


def fold_names(expr: pl.Expr) -> pl.Expr:
    """`fold_name` then `compare_key` over a string column (each distinct name folded once, cached)."""
    return expr.map_elements(lambda s: compare_key(fold_name(s)), return_dtype=pl.String, skip_nulls=True)


def _join_particles(tokens: list[str]) -> list[str]:
    """'bryan van der ende' -> ['bryan', 'vanderende'] (a particle never starts a name)."""
    out: list[str] = []
    carry = ""
    for k, tok in enumerate(tokens):
        if k > 0 and k < len(tokens) - 1 and tok in PARTICLES:
            carry += tok
        else:
            out.append(carry + tok)
            carry = ""
    return out


@lru_cache(maxsize=500_000)
def name_variants(name: str | None) -> tuple[str, ...]:
    """Comparable keys of one printed name: as folded first, then the other spellings of the same person.

    'WU Mei-ling' -> ('wu mei ling', 'wu meiling', 'mei ling wu', 'meiling wu', ...); keys as `compare_key`."""
    plain = fold_name(name).split()
    joined = fold_name(_HYPHEN.sub("", unidecode(name or ""))).split()
    forms = [plain, joined, _join_particles(plain), _join_particles(joined)]
    forms += [f[::-1] for f in (plain, joined) if len(f) == 2]  # family name printed first
    forms += [f[1:] for f in (joined, _join_particles(joined)) if len(f) >= 3]  # a leading given name left out
    keys = dict.fromkeys(compare_key(" ".join(f)) for f in forms if f)
    return tuple(keys)


def variant_keys(expr: pl.Expr) -> pl.Expr:
    """`name_variants` over a string column, as a list column (each distinct name once)."""
    return expr.map_elements(lambda s: list(name_variants(s)), return_dtype=pl.List(pl.String), skip_nulls=True)


def name_parts(frame: pl.LazyFrame, col: str) -> pl.LazyFrame:
    """Adds first token, last token and middle initials of a folded name column."""
    toks = pl.col(col).str.split(" ")
    return frame.with_columns(
        toks.list.first().alias("first_tok"), toks.list.last().alias("last_tok"),
        toks.list.slice(1, toks.list.len() - 2).list.eval(pl.element().str.slice(0, 1)).list.join("").alias("mid"))


def _initial_ok(a: pl.Expr, b: pl.Expr, initials_only: bool = False) -> pl.Expr:
    """First names agree: equal, or one is a single letter that starts the other (`initials_only`: same initial,
    as when one side's aliases include the 'Y. Kubo' form SemOpenAlex lists as an alternative name)."""
    if initials_only:
        return a.str.slice(0, 1) == b.str.slice(0, 1)
    return (a == b) | ((a.str.len_chars() == 1) & b.str.starts_with(a)) | (
        (b.str.len_chars() == 1) & a.str.starts_with(b))


def same_person(inventors: pl.LazyFrame, aliases: pl.LazyFrame, fuzzy: bool = True,
                allow_middle_drop: bool = True, initials_only: bool = False) -> pl.LazyFrame:
    """Inventor x alias rows that name one person: (inventors' columns, aliases' columns with suffix _a, exact).

    Both frames carry key, first_tok, last_tok, mid (`name_parts`). `fuzzy=False` keeps equal keys only (the
    paper's exact-alias rule) plus, with `allow_middle_drop`, middle initials missing or cut short on one side;
    `initials_only` lets first names agree on their initial (for metadata without alternative names, e.g. the
    release's)."""
    exact = pl.col("key") == pl.col("key_a")
    mids = (pl.col("mid") == pl.col("mid_a")) | (
        (pl.col("mid").str.starts_with(pl.col("mid_a")) | pl.col("mid_a").str.starts_with(pl.col("mid")))
        if allow_middle_drop else pl.lit(False))
    if not fuzzy:
        same_first = pl.col("first_tok") == pl.col("first_tok_a")
        by_last = inventors.join(aliases, on="last_tok", suffix="_a").filter(exact | (same_first & mids))
        return by_last.with_columns(pl.col("last_tok").alias("last_tok_a"), exact.alias("exact"))
    squashed = pl.col("key").str.replace_all(" ", "") == pl.col("key_a").str.replace_all(" ", "")
    by_last = (inventors.join(aliases, on="last_tok", suffix="_a")
               .filter(exact | squashed
                       | (_initial_ok(pl.col("first_tok"), pl.col("first_tok_a"), initials_only) & mids))
               .with_columns(pl.col("last_tok").alias("last_tok_a")))
    later = lambda a, b: pl.col(b).str.split(" ").list.slice(1).list.contains(pl.col(a))  # noqa: E731
    compound = (inventors.join(aliases, on="first_tok", suffix="_a")
                .filter((pl.col("last_tok") != pl.col("last_tok_a")) & (pl.col("first_tok").str.len_chars() > 1)
                        & (later("last_tok_a", "key") | later("last_tok", "key_a")))
                .with_columns(pl.col("first_tok").alias("first_tok_a")))
    swapped = (inventors.join(aliases, left_on=["first_tok", "last_tok"], right_on=["last_tok", "first_tok"],
                              suffix="_a")
               .filter(pl.col("first_tok") != pl.col("last_tok"))
               .with_columns(pl.col("last_tok").alias("first_tok_a"), pl.col("first_tok").alias("last_tok_a")))
    cols = by_last.collect_schema().names()
    return pl.concat([by_last.select(cols), swapped.select(cols), compound.select(cols)]).with_columns(
        exact.alias("exact"))
