"""Row builders for the PatenTEB task kinds, over a prepared `PatenTEBContext`.

Each builder returns {split: frame} with the task's published fields plus private `_`-prefixed columns
(`_stratum` for the stratified train cap, `_source` for negative-source stats) that finalisation drops.
Every row is built from families of one split only: the split is a property of the family.
"""
from __future__ import annotations

import math

import polars as pl

from transforms.ipc import IN
from transforms.splits import stable_hash
from transforms.tasks.patenteb_context import PatenTEBContext

Splits = dict[str, pl.DataFrame]


def _by_split(df: pl.DataFrame, splits: tuple[str, ...]) -> Splits:
    return {s: df.filter(pl.col("split") == s).drop("split") for s in splits}


def _texts(ctx: PatenTEBContext, column: str, alias: str, key: str) -> pl.DataFrame:
    return ctx.families.select(pl.col("family_id").alias(key), pl.col(column).alias(alias))


def build_retrieval(ctx: PatenTEBContext, group: str, splits: tuple[str, ...]) -> Splits:
    """Rows (q_text, pos_text, neg_text) for citation pairs of one relation group.

    Row j of a query pairs positive j mod n_pos with its j-th hard negative (if any): a query keeps all
    its (capped) positives and gets at most `max_triplets_per_query` triplets; neg_text is null elsewhere.
    Train keeps only `ctx.train_queries` (all of them unless the group's train table could pass the cap).
    """
    pos = ctx.pairs.filter(pl.col("relation_group") == group).select("split", "q_family", "t_family", "pos_idx")
    if ctx.train_queries is not None:  # whole queries chosen before mining where the train cap can bite
        chosen = ctx.train_queries.filter(pl.col("group") == group).get_column("q_family")
        pos = pos.filter((pl.col("split") != "train") | pl.col("q_family").is_in(chosen.implode()))
    negs = ctx.negatives.filter(pl.col("group") == group).select(
        "split", "q_family", pl.col("rank").alias("j"), "neg_family", pl.col("source").alias("_source"))
    counts = pos.group_by("split", "q_family").agg(pl.len().alias("n_pos")).join(
        negs.group_by("split", "q_family").agg(pl.len().alias("n_trip")), on=["split", "q_family"], how="left")
    rows = (
        counts.with_columns(pl.col("n_trip").fill_null(0))
        .with_columns(pl.int_ranges(0, pl.max_horizontal("n_pos", "n_trip")).alias("j")).explode("j")
        .with_columns((pl.col("j") % pl.col("n_pos")).alias("pos_idx"))
        .join(pos, on=["split", "q_family", "pos_idx"])
        .join(negs, on=["split", "q_family", "j"], how="left")
        .join(_texts(ctx, "full_text", "q_text", "q_family"), on="q_family")
        .join(_texts(ctx, "full_text", "pos_text", "t_family"), on="t_family")
        .join(_texts(ctx, "full_text", "neg_text", "neg_family"), on="neg_family", how="left")
        .join(ctx.families.select(pl.col("family_id").alias("q_family"), pl.col("ipc3").alias("_stratum")),
              on="q_family")
    )
    return _by_split(rows.select("split", "q_text", "pos_text", "neg_text", "_stratum", "_source"), splits)


def build_asymmetric(ctx: PatenTEBContext, query: str, target: str, fields: tuple[str, str],
                     splits: tuple[str, ...]) -> Splits:
    """One row per family having both the query fragment and the fragment-free target."""
    df = ctx.families.filter(pl.col(query).is_not_null() & pl.col(target).is_not_null()
                             & (pl.col(query).str.strip_chars().str.len_chars() > 0)
                             & (pl.col(target).str.len_chars() > 0))
    return _by_split(df.select("split", pl.col(query).alias(fields[0]), pl.col(target).alias(fields[1]),
                               pl.col("ipc3").alias("_stratum")), splits)


def build_text2ipc3(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    df = ctx.families.select("split", pl.col("full_text").alias("text"), pl.col("ipc3").alias("label"),
                             pl.col("ipc3").alias("_stratum"))
    return _by_split(df, splits)


def _decile(col: str, decile: float, top: bool) -> pl.Expr:
    """Within IPC3: is `col` in the top (or bottom) decile? Ties share the best rank (all tied are in)."""
    cut = (pl.len().over("ipc3") * decile).ceil()
    return pl.col(col).rank("min", descending=top).over("ipc3") <= cut


def label_bloom(ctx: PatenTEBContext) -> pl.DataFrame:
    """(family_id, label): early / late / normal from forward citations at N years and at the cutoff."""
    p = ctx.params
    fams = ctx.families.filter(pl.col("filing_date") < p.bloom_cutoff).select("family_id", "ipc3", "filing_date")
    cites = ctx.citing_dates.rename({"cited_family": "family_id"}).join(fams, on="family_id")
    counts = cites.group_by("family_id").agg(
        (pl.col("citing_date") <= pl.col("filing_date").dt.offset_by(f"{p.bloom_window_years}y")).sum().alias("c5"),
        (pl.col("citing_date") <= p.bloom_cutoff).sum().alias("clife"),
    )
    scored = fams.join(counts, on="family_id", how="left").with_columns(pl.col("c5", "clife").fill_null(0))
    early = (pl.col("c5") > 0) & _decile("c5", p.bloom_decile, top=True)
    late = (pl.col("clife") > 0) & _decile("clife", p.bloom_decile, top=True) & _decile("c5", p.bloom_decile, top=False)
    label = pl.when(early).then(pl.lit("early")).when(late).then(pl.lit("late")).otherwise(pl.lit("normal"))
    return scored.select("family_id", label.alias("label")).sort("family_id")


def build_bloom(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    df = ctx.families.join(label_bloom(ctx), on="family_id").select(
        "split", pl.col("full_text").alias("text"), "label", pl.concat_str(["ipc3", "label"]).alias("_stratum"))
    return _by_split(df, splits)


def build_nli(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    """(q_text, t_text, label): label 1 = query cites target, 0 = target cites query; mutual citations dropped.

    Orientation is a seeded hash coin per edge, so both labels are about equally frequent.
    """
    split = ctx.families.select("family_id", "split")
    edges = ctx.edges.join(ctx.edges.rename({"citing_family": "cited_family", "cited_family": "citing_family"}),
                           on=["citing_family", "cited_family"], how="anti")
    edges = (edges.join(split.rename({"family_id": "citing_family"}), on="citing_family")
             .join(split.rename({"family_id": "cited_family", "split": "_s2"}), on="cited_family")
             .filter(pl.col("split") == pl.col("_s2")))
    flip = (stable_hash(pl.concat_str(["citing_family", "cited_family"], separator="|"), ctx.params.seed) % 2) == 1
    oriented = edges.with_columns(
        pl.when(flip).then("cited_family").otherwise("citing_family").alias("q_family"),
        pl.when(flip).then("citing_family").otherwise("cited_family").alias("t_family"),
        pl.when(flip).then(0).otherwise(1).cast(pl.Int64).alias("label"),
    )
    rows = (oriented.join(_texts(ctx, "full_text", "q_text", "q_family"), on="q_family")
            .join(_texts(ctx, "full_text", "t_text", "t_family"), on="t_family")
            .with_columns(pl.col("label").cast(pl.String).alias("_stratum")))
    return _by_split(rows.select("split", "q_text", "t_text", "label", "_stratum"), splits)


def _para_negatives(seg: pl.DataFrame, network: pl.DataFrame, n_wanted: int, seed: int) -> pl.DataFrame:
    """Up to `n_wanted` (a, b) family pairs of different domains, not citation-linked, hash-ordered."""
    n = seg.height
    if n_wanted <= 0 or n < 2:
        return pl.DataFrame(schema={"a": pl.String, "b": pl.String})
    k = min(n - 1, 2 * math.ceil(n_wanted / n) + 2)
    ordered = seg.with_columns(stable_hash(pl.col("family_id"), seed).alias("_h")).sort("_h", "family_id") \
        .with_row_index("idx")
    lookup = ordered.select(pl.col("idx").alias("pidx"), pl.col("family_id").alias("b"), pl.col("ipc3").alias("b_ipc3"))
    cands = (ordered.select("idx", pl.col("family_id").alias("a"), pl.col("ipc3").alias("a_ipc3"))
             .with_columns(pl.int_ranges(1, k + 1).alias("off")).explode("off")
             .with_columns(((pl.col("idx") + pl.col("off")) % n).alias("pidx"))
             .join(lookup, on="pidx").filter(pl.col("a_ipc3") != pl.col("b_ipc3"))
             .select(pl.min_horizontal("a", "b").alias("a"), pl.max_horizontal("a", "b").alias("b")).unique()
             .join(network.rename({"family_id": "a", "other_family": "b"}), on=["a", "b"], how="anti"))
    return (cands.with_columns(stable_hash(pl.concat_str(["a", "b"], separator="|"), seed).alias("_h"))
            .sort("_h", "a", "b").head(n_wanted).select("a", "b"))


def build_paraphrase(ctx: PatenTEBContext, segment: str, splits: tuple[str, ...]) -> Splits:
    """(text1, text2, label): IN-domain citation pairs sharing the segment (1) and cross-domain pairs (0)."""
    share = ctx.params.para_positive_share
    seg = ctx.families.filter(pl.col(segment).is_not_null()).select("family_id", "split", "ipc3", segment)
    out: Splits = {}
    for split in splits:
        in_split = seg.filter(pl.col("split") == split)
        ids = in_split.select("family_id")
        pos = (ctx.pairs.filter((pl.col("split") == split) & (pl.col("relation") == IN)
                                & (pl.col("q_family") < pl.col("t_family")))
               .join(ids.rename({"family_id": "q_family"}), on="q_family", how="semi")
               .join(ids.rename({"family_id": "t_family"}), on="t_family", how="semi")
               .select(pl.col("q_family").alias("a"), pl.col("t_family").alias("b"), pl.lit(1).alias("label")))
        n_neg = round(pos.height * (1 - share) / share) if share > 0 else 0
        neg = _para_negatives(in_split, ctx.network, n_neg, ctx.params.seed).with_columns(pl.lit(0).alias("label"))
        texts = in_split.select("family_id", segment, "ipc3")
        rows = (pl.concat([pos, neg], how="vertical_relaxed")
                .join(texts.rename({"family_id": "a", segment: "text1", "ipc3": "_stratum"}), on="a")
                .join(texts.rename({"family_id": "b", segment: "text2"}).drop("ipc3"), on="b"))
        out[split] = rows.select("text1", "text2", pl.col("label").cast(pl.Int64), "_stratum")
    return out


def _cluster_pool(ctx: PatenTEBContext) -> pl.DataFrame:
    if ctx.params.cluster_families_from == "all":
        return ctx.families
    return ctx.split_families("test")


def _bounded_clusters(df: pl.DataFrame, min_size: int, max_size: int, seed: int) -> pl.DataFrame:
    """Keep clusters with >= min_size members; larger than max_size are cut to max_size by hash order."""
    return (df.filter(pl.len().over("label") >= min_size)
            .with_columns(stable_hash(pl.col("family_id"), seed).alias("_h"))
            .sort("label", "_h", "family_id")
            .filter(pl.int_range(pl.len()).over("label") < max_size)
            .select("text", "label", pl.col("label").alias("_stratum")))


def build_clusters_ipc(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    """Clusters of families with an identical full IPC set (label = the set, `; `-joined)."""
    p = ctx.params
    df = _cluster_pool(ctx).filter(pl.col("ipc_full").list.len() > 0).select(
        "family_id", pl.col("full_text").alias("text"), pl.col("ipc_full").list.join("; ").alias("label"))
    return {s: _bounded_clusters(df, p.cluster_ipc_min_size, p.cluster_ipc_max_size, p.seed) for s in splits}


def build_clusters_inventor(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    """Clusters of families sharing an inventor; a family joins its inventor with the largest cluster."""
    p = ctx.params
    pool = _cluster_pool(ctx).select("family_id", pl.col("full_text").alias("text"), "inventor_keys")
    exploded = pool.explode("inventor_keys").drop_nulls("inventor_keys").filter(
        pl.col("inventor_keys").str.len_chars() > 0).rename({"inventor_keys": "label"})
    chosen = (exploded.with_columns(pl.len().over("label").alias("_size"))
              .sort(["family_id", "_size", "label"], descending=[False, True, False])
              .group_by("family_id", maintain_order=True).first().drop("_size"))
    return {s: _bounded_clusters(chosen, p.cluster_inventor_min_size, p.cluster_inventor_max_size, p.seed)
            for s in splits}
