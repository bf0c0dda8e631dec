"""Which simple families enter PatenTEB, which publication speaks for each, and its text.

Filters (SPEC): publication year >= 1980, cited at least once (family level: citing families in the warehouse,
or the count a source reports), family size <= 50, and
(after domains are known) only IPC3 domains with enough families. One representative publication per
simple family, chosen deterministically: preferred language, has an abstract, has a title, earliest
publication, smallest pub_id. Family text = title + abstract + first claim joined by a separator; the
representative keeps its abstract (a JP member's holds the segment labels), and where it has no claims the
first claim comes from the family member that has them (`family_first_claims`),
truncated to a token budget measured by the caller's tokenizer (a counting function is passed in, so
this module never loads a model).
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence

import polars as pl

log = logging.getLogger(__name__)

TokenCounter = Callable[[Sequence[str]], Sequence[int]]


def count_whitespace_tokens(texts: Sequence[str]) -> list[int]:
    """Default token counter: whitespace-separated words (a model tokenizer is passed in production)."""
    return [len(t.split()) for t in texts]


def tokenizer_token_counter(tokenizer: object) -> TokenCounter:
    """Wrap a Hugging Face tokenizer (e.g. `SentenceTransformer(...).tokenizer`) as a TokenCounter."""

    def count(texts: Sequence[str]) -> list[int]:
        encoded = tokenizer(list(texts), add_special_tokens=False)  # type: ignore[operator]
        return [len(ids) for ids in encoded["input_ids"]]

    return count


def simple_members(families: pl.LazyFrame) -> pl.LazyFrame:
    """(family_id, pub_id) rows of simple families (the PatenTEB unit)."""
    return families.filter(pl.col("family_kind") == "simple").select("family_id", "pub_id").unique()


def _has_text(column: str) -> pl.Expr:
    return pl.col(column).is_not_null() & (pl.col(column).str.strip_chars().str.len_chars() > 0)


def choose_representatives(
    publications: pl.LazyFrame, families: pl.LazyFrame, min_year: int = 1980, preferred_lang: str = "en"
) -> pl.LazyFrame:
    """One publication per simple family among members published in `min_year` or later."""
    candidates = (
        simple_members(families)
        .join(publications.select("pub_id", "pub_date", "lang", "title", "abstract"), on="pub_id")
        .filter(pl.col("pub_date").dt.year() >= min_year)
        .with_columns(
            (pl.col("lang") == preferred_lang).fill_null(False).alias("_lang_ok"),
            _has_text("abstract").alias("_abs_ok"),
            _has_text("title").alias("_title_ok"),
        )
    )
    return (
        candidates.sort(["family_id", "_lang_ok", "_abs_ok", "_title_ok", "pub_date", "pub_id"],
                        descending=[False, True, True, True, False, False], nulls_last=True)
        .group_by("family_id", maintain_order=True)
        .agg(pl.col("pub_id").first())
    )


def reported_citations(publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """(family_id, n_cited_reported): the most citing patents any member's source reports (Lens counts
    citers outside the export too); families whose sources say nothing are absent."""
    if "cited_by_count" not in publications.collect_schema().names():
        return pl.LazyFrame(schema={"family_id": pl.String, "n_cited_reported": pl.Int64})
    return (simple_members(families)
            .join(publications.select("pub_id", "cited_by_count").drop_nulls("cited_by_count"), on="pub_id")
            .group_by("family_id").agg(pl.col("cited_by_count").max().cast(pl.Int64).alias("n_cited_reported")))


def flag_family_filters(
    families: pl.LazyFrame, edges: pl.LazyFrame, representatives: pl.LazyFrame,
    max_family_size: int = 50, min_times_cited: int = 1, reported: pl.LazyFrame | None = None,
) -> pl.LazyFrame:
    """Per simple family: n_members, n_cited_by (citing families in the warehouse), n_cited_reported (the
    sources' own counts, `reported_citations`) and one boolean per SPEC filter.

    "Cited at least once" takes the larger of the two counts: an export (a Lens query result) rarely holds
    the patents that cite it, so the citation graph alone would call most of its families uncited.
    """
    sizes = simple_members(families).group_by("family_id").agg(pl.len().alias("n_members"))
    cited = edges.group_by("cited_family").agg(pl.col("citing_family").n_unique().alias("n_cited_by"))
    if reported is None:
        reported = pl.LazyFrame(schema={"family_id": pl.String, "n_cited_reported": pl.Int64})
    return (
        sizes.join(cited.rename({"cited_family": "family_id"}), on="family_id", how="left")
        .join(reported, on="family_id", how="left")
        .join(representatives.select("family_id", pl.lit(True).alias("year_ok")), on="family_id", how="left")
        .with_columns(
            pl.col("n_cited_by").fill_null(0),
            pl.col("n_cited_reported").fill_null(0),
            pl.col("year_ok").fill_null(False),
            (pl.col("n_members") <= max_family_size).alias("size_ok"),
        )
        .with_columns((pl.max_horizontal("n_cited_by", "n_cited_reported") >= min_times_cited).alias("cited_ok"))
        .sort("family_id")
    )


def first_claims(claims: pl.LazyFrame) -> pl.LazyFrame:
    """(pub_id, claim1): the lowest-numbered claim of each publication."""
    return (
        claims.drop_nulls("text")
        .sort("pub_id", "claim_no")
        .group_by("pub_id", maintain_order=True)
        .agg(pl.col("text").first().alias("claim1"))
    )


def join_parts(parts: Sequence[pl.Expr], separator: str) -> pl.Expr:
    """Join non-empty parts with `separator` (missing parts leave no dangling separator)."""
    cleaned = [pl.when(p.str.strip_chars().str.len_chars() > 0).then(p.str.strip_chars()) for p in parts]
    return pl.concat_list(cleaned).list.drop_nulls().list.join(separator)


def family_first_claims(representatives: pl.LazyFrame, families: pl.LazyFrame, publications: pl.LazyFrame,
                        claims: pl.LazyFrame, preferred_lang: str = "en") -> pl.LazyFrame:
    """(family_id, claim1): the representative's first claim, else that of the family member with claims
    (preferred language, earliest publication, smallest pub_id). A JP/CN representative without claims thus
    no longer leaves the family text without one when another member has claims."""
    firsts = first_claims(claims)
    own = representatives.select("family_id", "pub_id").join(firsts, on="pub_id").select("family_id", "claim1")
    members = (simple_members(families).join(firsts, on="pub_id")
               .join(publications.select("pub_id", "pub_date", "lang"), on="pub_id", how="left")
               .with_columns((pl.col("lang") == preferred_lang).fill_null(False).alias("_lang_ok"))
               .sort(["family_id", "_lang_ok", "pub_date", "pub_id"], descending=[False, True, False, False],
                     nulls_last=True)
               .group_by("family_id", maintain_order=True).agg(pl.col("claim1").first().alias("_member_claim1")))
    return (representatives.select("family_id").join(own, on="family_id", how="left")
            .join(members, on="family_id", how="left")
            .select("family_id", pl.coalesce("claim1", "_member_claim1").alias("claim1")))


def assemble_family_texts(
    representatives: pl.LazyFrame, publications: pl.LazyFrame, claims: pl.LazyFrame, separator: str = "\n\n",
    families: pl.LazyFrame | None = None, preferred_lang: str = "en",
) -> pl.LazyFrame:
    """Representative's title, abstract, first claim and `full_text` = their separator-joined concat; with
    `families`, a representative without claims takes its family's first claim (`family_first_claims`)."""
    pubs = publications.select("pub_id", "title", "abstract", "app_date", "inventors", "ipc")
    claim1 = (first_claims(claims) if families is None else
              family_first_claims(representatives, families, publications, claims, preferred_lang))
    key = "pub_id" if families is None else "family_id"
    return (
        representatives.join(pubs, on="pub_id", how="left")
        .join(claim1, on=key, how="left")
        .with_columns(join_parts([pl.col("title"), pl.col("abstract"), pl.col("claim1")], separator).alias(
            "full_text"))
    )


def keep_large_domains(lf: pl.LazyFrame, min_families: int = 100, domain: str = "ipc3") -> pl.LazyFrame:
    """Keep families whose dominant IPC3 has at least `min_families` families (109 domains in the paper)."""
    return lf.filter(pl.len().over(domain) >= min_families)


def _truncate_one(text: str, count_tokens: TokenCounter, max_tokens: int) -> str:
    """Longest whitespace-boundary prefix of `text` within `max_tokens` (binary search on boundaries)."""
    cuts = [m.start() for m in re.finditer(r"\s+", text)] + [len(text)]
    lo, hi = 0, len(cuts) - 1
    best = 0
    while lo <= hi:
        mid = (lo + hi) // 2
        if count_tokens([text[: cuts[mid]]])[0] <= max_tokens:
            best, lo = cuts[mid], mid + 1
        else:
            hi = mid - 1
    return text[:best].rstrip()


def truncate_texts(
    df: pl.DataFrame, column: str, count_tokens: TokenCounter, max_tokens: int
) -> tuple[pl.DataFrame, int]:
    """Cap `column` at `max_tokens` tokens; returns the frame and how many texts were cut.

    Eager on purpose: counting needs the tokenizer (Python). Only over-long texts take the per-row path.
    """
    texts = df.get_column(column).fill_null("").to_list()
    counts = count_tokens(texts) if texts else []
    long_rows = [i for i, n in enumerate(counts) if n > max_tokens]
    for i in long_rows:
        texts[i] = _truncate_one(texts[i], count_tokens, max_tokens)
    if long_rows:
        log.info("truncated %d of %d %s texts to %d tokens", len(long_rows), len(texts), column, max_tokens)
    nulls = df.get_column(column).is_null()
    values = pl.Series(column, texts, dtype=pl.String)
    return df.with_columns(pl.when(nulls).then(None).otherwise(values).alias(column)), len(long_rows)
