"""PatenTEB parameters and the shared build context: selected families, splits, citation pairs, negatives.

Everything every task needs is computed once here. The runner (`build_patenteb`) owns `collect`: the
family selection is a lazy plan collected once, because truncation (tokenizer) and negative mining
(BM25 / dense search) are Python steps over the collected families.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

import numpy as np
import polars as pl

from transforms.citations import family_citation_edges
from transforms.inventors import assign_inventor_ids, family_people
from transforms.ipc import IN, MIXED, OUT, add_domain_relation, assign_family_ipc3
from transforms.negatives import (
    GROUPS, RELATIONS, SOURCES, CandidateFilter, CandidateSearcher, Encoder, citation_network,
)
from transforms.segments import (
    drop_empty_markers, drop_selected_drawing, has_empty_marker, remove_fragment, segment_abstracts,
)
from transforms.selection import (
    TokenCounter, assemble_family_texts, choose_representatives, count_whitespace_tokens, flag_family_filters,
    family_first_claims, first_claims, join_parts, keep_large_domains, reported_citations, simple_members,
    truncate_texts,
)
from transforms.splits import split_families, stable_hash

log = logging.getLogger(__name__)

BM25_THREADS = 1  # bm25s retrieval threads (a machine setting, not a build parameter: output is the same)
TEXT_VARIANTS = ("full_text", "text_no_title", "text_no_problem", "text_no_effect")


@dataclass(frozen=True)
class PatenTEBParams:
    """Every PatenTEB threshold (SPEC defaults); `as_dict` goes into the manifest and the version hash."""

    seed: int = 0
    min_year: int = 1980
    max_family_size: int = 50
    min_times_cited: int = 1
    min_families_per_ipc3: int = 100
    max_tokens: int = 8192
    separator: str = "\n\n"
    preferred_lang: str = "en"
    split_fractions: tuple[float, float, float] = (0.8, 0.1, 0.1)
    max_positives_per_query: int = 100
    max_triplets_per_query: int = 10
    negative_depth: int = 100
    negative_max_depth: int = 1000
    negative_sources: tuple[str, ...] = ("bm25", "dense")
    negative_splits: tuple[str, ...] = ("train", "val", "test")  # val and test are triplets too (SPEC)
    network_hops: int = 1
    max_train_rows: int = 150_000
    min_rows_per_stratum: int = 10
    para_positive_share: float = 0.14
    bloom_cutoff: date = date(2023, 6, 20)
    bloom_window_years: int = 5
    bloom_decile: float = 0.1
    cluster_ipc_min_size: int = 200
    cluster_ipc_max_size: int = 1000
    cluster_inventor_min_size: int = 100
    cluster_inventor_max_size: int = 1000
    cluster_families_from: str = "all"  # the paper's pools (47,230 / 86,834) exceed its test split
    # the paper builds every task from structurally complete families (a segmented abstract): on by default;
    # off keeps the families without one in the tasks that read no segment (the sample profile; the card counts both)
    complete_families_only: bool = True

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["bloom_cutoff"] = self.bloom_cutoff.isoformat()
        return out


@dataclass
class PatenTEBContext:
    """Collected inputs of every task builder (eager frames) plus the stats they add to."""

    params: PatenTEBParams
    families: pl.DataFrame
    pairs: pl.DataFrame
    edges: pl.DataFrame
    network: pl.DataFrame
    citing_dates: pl.DataFrame
    negatives: pl.DataFrame
    stats: dict[str, Any] = field(default_factory=dict)
    train_queries: pl.DataFrame | None = None  # retrieval train (q_family, group) kept before mining; None: all
    inventor_ids: pl.DataFrame | None = None  # (family_id, inventor_id, name_key) of every selected family

    def split_families(self, split: str) -> pl.DataFrame:
        return self.families.filter(pl.col("split") == split)


def _member_facts(publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """Per family: filing date (earliest member application date) and full IPC set (clusters label)."""
    pubs = publications.select("pub_id", "app_date", "pub_date", "ipc")
    members = simple_members(families).join(pubs, on="pub_id")
    symbols = members.select("family_id", "ipc").explode("ipc").with_columns(
        pl.col("ipc").str.replace_all(r"\s+", " ").str.strip_chars())
    full = symbols.drop_nulls("ipc").group_by("family_id").agg(pl.col("ipc").unique().sort().alias("ipc_full"))
    dates = members.group_by("family_id").agg(
        pl.coalesce(pl.col("app_date").min(), pl.col("pub_date").min()).alias("filing_date"))
    return dates.join(full, on="family_id", how="left")


def _text_variants(lf: pl.LazyFrame, separator: str) -> pl.LazyFrame:
    """Family text and the fragment-free targets of the asymmetric tasks (parts joined by `separator`)."""
    cut = drop_selected_drawing(pl.col("abstract"))
    abstract = pl.when(has_empty_marker(cut)).then(drop_empty_markers(cut)).otherwise(cut)
    return lf.with_columns(
        join_parts([pl.col("title"), abstract, pl.col("claim1")], separator).alias("full_text"),
        join_parts([abstract, pl.col("claim1")], separator).alias("text_no_title"),
        join_parts([pl.col("title"), remove_fragment(abstract, pl.col("problem")), pl.col("claim1")],
                   separator).alias("text_no_problem"),
        join_parts([pl.col("title"), remove_fragment(abstract, pl.col("effect")), pl.col("claim1")],
                   separator).alias("text_no_effect"),
    )


def family_people_rows(publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """(family_id, inventor, applicant) over every member of a simple family: the inventor-id evidence."""
    members = simple_members(families).join(publications.select("pub_id", "inventors", "applicants"), on="pub_id")
    name = pl.coalesce(pl.col("inv").struct.field("name"), pl.concat_str(
        [pl.col("inv").struct.field("first"), pl.col("inv").struct.field("last")], separator=" "))
    inventors = members.select("family_id", pl.col("inventors").alias("inv")).explode("inv").select(
        "family_id", name.alias("inventor"), pl.lit(None, pl.String).alias("applicant"))
    applicants = members.select("family_id", pl.col("applicants").alias("app")).explode("app").select(
        "family_id", pl.lit(None, pl.String).alias("inventor"), pl.col("app").struct.field("name").alias("applicant"))
    present = pl.col("inventor").is_not_null() | pl.col("applicant").is_not_null()
    return pl.concat([inventors, applicants]).filter(present)


def plan_family_selection(
    publications: pl.LazyFrame, claims: pl.LazyFrame, families: pl.LazyFrame, edges: pl.LazyFrame,
    params: PatenTEBParams,
) -> tuple[pl.LazyFrame, pl.LazyFrame, pl.LazyFrame]:
    """(filter flags per family, selected families with ids, domains, texts and segments, the completeness
    counts), all lazy. The counts (`candidates` with a text, `complete` among them) are taken before the
    completeness filter, so the card can state both readings whichever one built the version."""
    reps = choose_representatives(publications, families, params.min_year, params.preferred_lang)
    flags = flag_family_filters(families, edges, reps, params.max_family_size, params.min_times_cited,
                                reported_citations(publications, families))
    eligible = flags.filter(pl.col("year_ok") & pl.col("size_ok") & pl.col("cited_ok")).select("family_id")
    texts = assemble_family_texts(reps.join(eligible, on="family_id"), publications, claims, params.separator,
                                  families, params.preferred_lang)
    candidates = (
        texts.join(assign_family_ipc3(publications, families), on="family_id")
        .join(_member_facts(publications, families), on="family_id", how="left")
        .pipe(segment_abstracts, "abstract")
        .pipe(_text_variants, params.separator)
        .filter(pl.col("full_text").str.len_chars() > 0)
    )
    counts = candidates.select(pl.len().alias("candidates"),
                               pl.col("seg_pattern").is_not_null().sum().alias("complete"))
    selected = (
        candidates.filter(pl.col("seg_pattern").is_not_null() if params.complete_families_only else pl.lit(True))
        .pipe(keep_large_domains, params.min_families_per_ipc3)
        .drop("inventors", "ipc", "abstract", "claim1")  # parts live on in the text variants
    )
    return flags, selected, counts


def completeness_stats(counts: pl.DataFrame, selected: int, applied: bool) -> dict[str, Any]:
    """The paper's completeness filter in numbers: eligible families with a text, how many of them have a
    segmented abstract (`complete`), how many the filter drops or would drop, and whether it was applied."""
    candidates, complete = (int(v) for v in counts.row(0))
    return {"applied": applied, "candidates": candidates, "complete": complete,
            "incomplete": candidates - complete, "selected": selected}


def _truncate_variants(fams: pl.DataFrame, params: PatenTEBParams, count_tokens: TokenCounter,
                       stats: dict[str, Any]) -> pl.DataFrame:
    truncated: dict[str, int] = {}
    for column in TEXT_VARIANTS:
        fams, truncated[column] = truncate_texts(fams, column, count_tokens, params.max_tokens)
    stats["truncated_texts"] = truncated["full_text"]
    stats["truncated_by_variant"] = truncated
    return fams


def build_pairs(fams: pl.DataFrame, edges: pl.DataFrame, stats: dict[str, Any]) -> pl.DataFrame:
    """Both directions of every family citation edge, with relation; cross-split pairs dropped (counted)."""
    split = fams.select("family_id", "split")
    both = pl.concat([
        edges.select(pl.col("citing_family").alias("q_family"), pl.col("cited_family").alias("t_family")),
        edges.select(pl.col("cited_family").alias("q_family"), pl.col("citing_family").alias("t_family")),
    ]).unique()
    pairs = (
        add_domain_relation(both.lazy(), fams.lazy(), "q_family", "t_family")
        .join(split.lazy().rename({"family_id": "q_family", "split": "q_split"}), on="q_family")
        .join(split.lazy().rename({"family_id": "t_family", "split": "split"}), on="t_family")
        .collect()
    )
    crossing = pairs.filter(pl.col("q_split") != pl.col("split"))
    stats["cross_split_pairs_dropped"] = crossing.height // 2
    return pairs.filter(pl.col("q_split") == pl.col("split")).drop("q_split").sort("q_family", "t_family")


def cap_positives(pairs: pl.DataFrame, max_per_query: int, seed: int) -> pl.DataFrame:
    """At most `max_per_query` positives per (query, group), picked by seeded hash order."""
    return (
        pairs.with_columns(stable_hash(pl.concat_str(["q_family", "t_family"], separator="|"), seed).alias("_h"))
        .sort("q_family", "relation_group", "_h", "t_family")
        .with_columns(pl.int_range(pl.len()).over("q_family", "relation_group").alias("pos_idx"))
        .filter(pl.col("pos_idx") < max_per_query)
        .drop("_h")
    )


def plan_train_queries(pairs: pl.DataFrame, fams: pl.DataFrame, params: PatenTEBParams) -> pl.DataFrame:
    """(q_family, group) train queries whose retrieval rows are published: all, unless the cap must bite.

    Every positive is a row, so where a group's train positives alone exceed `max_train_rows` whole queries
    are kept before mining by `cap_train_rows`' rule at query level: a proportional quota of positives per
    query IPC3 (never below the stratum minimum, at least one query), queries in seeded hash order. Mining
    effort is then bounded by the cap, not by the world; `cap_train_rows` still trims the triplet surplus.
    """
    queries = (pairs.filter(pl.col("split") == "train").group_by("q_family", pl.col("relation_group").alias("group"))
               .agg(pl.len().cast(pl.Int64).alias("_n")).join(fams.select(pl.col("family_id").alias("q_family"), "ipc3"), on="q_family"))
    total = pl.col("_n").sum().over("group")
    stratum = pl.col("_n").sum().over("group", "ipc3")
    quota = pl.max_horizontal(pl.min_horizontal(stratum, params.min_rows_per_stratum),
                              (stratum * params.max_train_rows / total).floor())
    order = ["_h", "q_family"]
    taken = pl.col("_n").cum_sum().over("group", "ipc3", order_by=order)
    first = pl.int_range(pl.len()).over("group", "ipc3", order_by=order) == 0
    keep = (total <= params.max_train_rows) | (taken <= quota) | first
    return (queries.with_columns(stable_hash(pl.col("q_family"), params.seed).alias("_h"))
            .filter(keep).select("q_family", "group").sort("q_family", "group"))


def _depth_levels(depth: int, max_depth: int, corpus_size: int) -> list[int]:
    """Search depths of the passes: `depth`, then 10x deeper while short, up to `max_depth` (or the corpus)."""
    levels = [depth]
    while levels[-1] < min(corpus_size, max_depth):
        levels.append(min(max(levels[-1] * 10, levels[-1] + 1), max_depth, corpus_size))
    return levels


def _mine_split(corpus: pl.DataFrame, queries: pl.DataFrame, network: pl.DataFrame, fams: pl.DataFrame,
                params: PatenTEBParams, encode: Encoder | None, chunk: int = 1000) -> pl.DataFrame:
    """Index the split once, search each query chunk once at the deepest level, filter it as it streams.

    Same-class text dominates the top hits, so OUT and PART_MIX candidates often sit further down: a
    (query, group) short of negatives at `negative_depth` takes them from 10x deeper (up to
    `negative_max_depth`); hits stay corpus positions until the kept negatives are named.
    """
    searcher = CandidateSearcher(corpus, params.negative_sources, encode, n_threads=BM25_THREADS)
    rules = CandidateFilter(searcher.ids, fams, network)
    depths = _depth_levels(params.negative_depth, params.negative_max_depth, corpus.height)
    coded = queries.select(pl.Series("q", searcher.positions(queries.get_column("q_family").to_list()),
                                     dtype=pl.Int32),
                           pl.col("group").replace_strict(GROUPS, list(range(len(GROUPS))), return_dtype=pl.Int8)
                           .alias("g"))
    rows = np.unique(coded.get_column("q").to_numpy())
    found = []
    for start in range(0, rows.size, chunk):
        part = rows[start:start + chunk]
        hits = searcher.search_positions(part, depths[-1])
        found.append(rules.select(hits, coded.filter(pl.col("q").is_in(part)), params.max_triplets_per_query,
                                  depths))
    kept = pl.concat(found) if found else pl.DataFrame(schema={"q": pl.Int32, "g": pl.Int8, "neg": pl.Int32,
                                                               "src": pl.Int8, "rel": pl.Int8, "rank": pl.Int64})
    ids = pl.Series(searcher.ids, dtype=pl.String)
    return pl.DataFrame({
        "q_family": ids.gather(kept.get_column("q")), "group": pl.Series(GROUPS).gather(kept.get_column("g")),
        "neg_family": ids.gather(kept.get_column("neg")),
        "source": pl.Series(SOURCES).gather(kept.get_column("src")),
        "relation": pl.Series(RELATIONS).gather(kept.get_column("rel")),
        "rank": kept.get_column("rank").cast(pl.Int64),
    })


def mine_negatives(ctx_fams: pl.DataFrame, pairs: pl.DataFrame, network: pl.DataFrame,
                   params: PatenTEBParams, encode: Encoder | None,
                   train_queries: pl.DataFrame | None = None) -> pl.DataFrame:
    """Hard negatives per (query, group) for the splits that get triplets (train by default).

    `train_queries` (q_family, group), when given, limits train mining to the queries that get published.
    """
    frames = []
    for split in params.negative_splits:
        corpus = ctx_fams.filter(pl.col("split") == split).select("family_id", pl.col("full_text").alias("text"))
        queries = (pairs.filter(pl.col("split") == split)
                   .select("q_family", pl.col("relation_group").alias("group")).unique().sort("q_family", "group"))
        if split == "train" and train_queries is not None:
            queries = queries.join(train_queries, on=["q_family", "group"], how="semi")
        if corpus.height == 0 or queries.height == 0:
            continue
        kept = _mine_split(corpus, queries, network, ctx_fams, params, encode)
        frames.append(kept.with_columns(pl.lit(split).alias("split")))
    schema = {"q_family": pl.String, "group": pl.String, "neg_family": pl.String, "source": pl.String,
              "relation": pl.String, "rank": pl.Int64, "split": pl.String}
    out = pl.concat(frames, how="vertical_relaxed") if frames else pl.DataFrame(schema=schema)
    return out.sort("split", "q_family", "group", "rank")


def _citing_dates(citations: pl.LazyFrame, publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """(cited_family, citing_key, citing_date): forward citations with their earliest date (class_bloom)."""
    members = simple_members(families)
    return (
        citations.drop_nulls("cited_pub_id").select("citing_pub_id", "cited_pub_id")
        .join(members.rename({"pub_id": "cited_pub_id", "family_id": "cited_family"}), on="cited_pub_id")
        .join(members.rename({"pub_id": "citing_pub_id"}), on="citing_pub_id", how="left")
        .join(publications.select(pl.col("pub_id").alias("citing_pub_id"), pl.col("pub_date")), on="citing_pub_id")
        .with_columns(pl.coalesce("family_id", "citing_pub_id").alias("citing_key"))
        .filter(pl.col("citing_key") != pl.col("cited_family"))
        .group_by("cited_family", "citing_key").agg(pl.col("pub_date").min().alias("citing_date"))
    )


def _texts_without_claim(fams: pl.DataFrame, publications: pl.LazyFrame, claims: pl.LazyFrame,
                         families: pl.LazyFrame, preferred_lang: str) -> dict[str, int]:
    """Selected families whose text has no first claim (no member has claims), and how many of them took
    their first claim from a member other than the representative."""
    reps = fams.lazy().select("family_id", "pub_id")
    claim1 = family_first_claims(reps, families, publications, claims, preferred_lang).collect()
    own = set(first_claims(claims).join(reps, on="pub_id").select("pub_id").collect()["pub_id"].to_list())
    borrowed = sum(1 for p in fams["pub_id"].to_list() if p not in own)
    missing = int(claim1["claim1"].null_count())
    return {"families": missing, "claim_from_another_member": borrowed - missing}


def prepare_context(
    publications: pl.LazyFrame, claims: pl.LazyFrame, citations: pl.LazyFrame, families: pl.LazyFrame,
    params: PatenTEBParams, encode: Encoder | None = None, count_tokens: TokenCounter | None = None,
) -> PatenTEBContext:
    """Select, split and link families; mine negatives; record the selection funnel in stats."""
    stats: dict[str, Any] = {}
    edges_lf = family_citation_edges(citations, families, "simple")
    flags_lf, selected_lf, counts_lf = plan_family_selection(publications, claims, families, edges_lf, params)
    flags = flags_lf.collect()
    stats["funnel"] = {
        "simple_families": flags.height,
        "year_ok": int(flags["year_ok"].sum()), "size_ok": int(flags["size_ok"].sum()),
        "cited_ok": int(flags["cited_ok"].sum()),
        "cited_only_by_source_count": int((flags["cited_ok"] & (flags["n_cited_by"] == 0)).sum()),
        "eligible": int((flags["year_ok"] & flags["size_ok"] & flags["cited_ok"]).sum()),
    }
    selected, counts = pl.collect_all([selected_lf, counts_lf])  # one pass over the shared candidates
    fams = _truncate_variants(selected, params, count_tokens or count_whitespace_tokens, stats)
    splits = split_families(fams.lazy().select("family_id", "ipc3"), params.seed, params.split_fractions).collect()
    fams = fams.join(splits.select("family_id", "split"), on="family_id").sort("family_id")
    stats["selected_families"] = fams.height
    stats["domains"] = fams.get_column("ipc3").n_unique()
    stats["segmented_families"] = int(fams.get_column("seg_pattern").is_not_null().sum())
    stats["completeness"] = completeness_stats(counts, fams.height, params.complete_families_only)
    stats["texts_without_claim"] = _texts_without_claim(fams, publications, claims, families, params.preferred_lang)
    stats["families_by_split"] = {s: int(n) for s, n in fams.group_by("split").len().iter_rows()}
    ids = fams.select("family_id")
    edges = (edges_lf.collect().join(ids.rename({"family_id": "citing_family"}), on="citing_family", how="semi")
             .join(ids.rename({"family_id": "cited_family"}), on="cited_family", how="semi"))
    network = citation_network(edges_lf, params.network_hops).collect()
    pairs = cap_positives(build_pairs(fams, edges, stats), params.max_positives_per_query, params.seed)
    train_queries = plan_train_queries(pairs, fams, params)
    negatives = mine_negatives(fams, pairs, network, params, encode, train_queries)
    stats["negatives"] = {src: int(negatives.filter(pl.col("source") == src).height) for src in ("bm25", "dense")}
    citing = _citing_dates(citations, publications, families).collect()
    people = family_people_rows(publications, families).join(ids.lazy(), on="family_id", how="semi").collect()
    inventor_ids, stats["inventors"] = assign_inventor_ids(family_people(people))
    log.info("patenteb: %d families in %d domains, %d positive pairs", fams.height, stats["domains"], pairs.height)
    return PatenTEBContext(params, fams, pairs, edges, network, citing, negatives, stats, train_queries, inventor_ids)


__all__ = ["IN", "MIXED", "OUT", "PatenTEBContext", "PatenTEBParams", "prepare_context"]
