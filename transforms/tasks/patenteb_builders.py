"""Row builders for the PatenTEB task kinds, over a prepared `PatenTEBContext`.

Each builder returns {split: frame} with the task's published fields, the ids each row was built from
(`ID_COLUMNS` of its kind: family ids and representative publication ids) and private `_`-prefixed columns
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


def _record_labels(ctx: PatenTEBContext, task: str, df: pl.DataFrame) -> None:
    """Rows per label and split of a classification task as built (the card states classes a split lacks)."""
    counts = df.group_by("split", "label").len().sort("split", "label")
    ctx.stats.setdefault("class_labels", {})[task] = {
        split: {label: int(n) for _s, label, n in counts.filter(pl.col("split") == split).iter_rows()}
        for split in sorted(set(counts["split"].to_list()))}


def _texts(ctx: PatenTEBContext, column: str, alias: str, key: str, pub: str | None = None) -> pl.DataFrame:
    cols = [pl.col("family_id").alias(key), pl.col(column).alias(alias)]
    return ctx.families.select(*cols, *([pl.col("pub_id").alias(pub)] if pub else []))


def _retrieval_rows(counts: pl.DataFrame, max_triplets: int) -> pl.DataFrame:
    """(split, q_family, j, pos_idx, neg j) per published triplet of the queries that have a negative.

    Train: at most `max_triplets` triplets per query, positives and negatives cycled (the paper's limit).
    Val / test: one triplet per positive (each query keeps all its capped positives for the qrels),
    its negatives cycled. A query without any negative publishes nothing (counted by the caller).
    """
    n_rows = (pl.when(pl.col("split") == "train")
              .then(pl.min_horizontal(pl.max_horizontal("n_pos", "n_trip"), pl.lit(max_triplets)))
              .otherwise(pl.col("n_pos")))
    return (counts.filter(pl.col("n_trip") > 0).with_columns(pl.int_ranges(0, n_rows).alias("j")).explode("j")
            .with_columns((pl.col("j") % pl.col("n_pos")).alias("pos_idx"),
                          (pl.col("j") % pl.col("n_trip")).alias("neg_j")))


def build_retrieval(ctx: PatenTEBContext, group: str, splits: tuple[str, ...]) -> Splits:
    """Triplets (q_text, pos_text, neg_text) with their family and publication ids, one relation group.

    Every split gets triplets (SPEC: val and test are triplets too); see `_retrieval_rows` for how
    positives and negatives pair up. Queries with no negative under the mining rules are dropped and
    counted in `ctx.stats["retrieval_without_negative"]`. Train keeps only `ctx.train_queries` (all of
    them unless the group's train table could pass the cap).
    """
    pos = ctx.pairs.filter(pl.col("relation_group") == group).select("split", "q_family", "t_family", "pos_idx")
    if ctx.train_queries is not None:  # whole queries chosen before mining where the train cap can bite
        chosen = ctx.train_queries.filter(pl.col("group") == group).get_column("q_family")
        pos = pos.filter((pl.col("split") != "train") | pl.col("q_family").is_in(chosen.implode()))
    negs = ctx.negatives.filter(pl.col("group") == group).select(
        "split", "q_family", pl.col("rank").alias("j"), "neg_family", pl.col("source").alias("_source"))
    counts = pos.group_by("split", "q_family").agg(pl.len().alias("n_pos")).join(
        negs.group_by("split", "q_family").agg(pl.len().alias("n_trip")), on=["split", "q_family"], how="left"
    ).with_columns(pl.col("n_trip").fill_null(0))
    lost = counts.filter(pl.col("n_trip") == 0).group_by("split").agg(
        pl.len().alias("queries"), pl.col("n_pos").sum().alias("positives"))
    ctx.stats.setdefault("retrieval_without_negative", {})[group] = {
        s: {"queries": int(q), "positives": int(p)} for s, q, p in lost.sort("split").iter_rows()}
    over = counts.filter((pl.col("split") == "train") & (pl.col("n_trip") > 0)).select(
        (pl.col("n_pos").cast(pl.Int64) - ctx.params.max_triplets_per_query).clip(lower_bound=0).sum()).item()
    ctx.stats.setdefault("train_positives_past_triplet_cap", {})[group] = int(over or 0)
    rows = (
        _retrieval_rows(counts, ctx.params.max_triplets_per_query)
        .join(pos, on=["split", "q_family", "pos_idx"])
        .join(negs.rename({"j": "neg_j"}), on=["split", "q_family", "neg_j"])
        .join(_texts(ctx, "full_text", "q_text", "q_family", "q_pub_id"), on="q_family")
        .join(_texts(ctx, "full_text", "pos_text", "t_family", "pos_pub_id"), on="t_family")
        .join(_texts(ctx, "full_text", "neg_text", "neg_family", "neg_pub_id"), on="neg_family")
        .join(ctx.families.select(pl.col("family_id").alias("q_family"), pl.col("ipc3").alias("_stratum")),
              on="q_family")
    )
    return _by_split(rows.select("split", "q_text", "pos_text", "neg_text", pl.col("q_family").alias("query_id"),
                                 pl.col("t_family").alias("pos_id"), pl.col("neg_family").alias("neg_id"),
                                 "q_pub_id", "pos_pub_id", "neg_pub_id", "_stratum", "_source"), splits)


def build_asymmetric(ctx: PatenTEBContext, query: str, target: str, fields: tuple[str, str],
                     splits: tuple[str, ...]) -> Splits:
    """One row per family having both the query fragment and the fragment-free target."""
    df = ctx.families.filter(pl.col(query).is_not_null() & pl.col(target).is_not_null()
                             & (pl.col(query).str.strip_chars().str.len_chars() > 0)
                             & (pl.col(target).str.len_chars() > 0))
    return _by_split(df.select("split", pl.col(query).alias(fields[0]), pl.col(target).alias(fields[1]),
                               pl.col("family_id").alias("query_id"), pl.col("family_id").alias("doc_id"),
                               "pub_id", pl.col("ipc3").alias("_stratum")), splits)


def build_text2ipc3(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    df = ctx.families.select("split", pl.col("full_text").alias("text"), pl.col("ipc3").alias("label"),
                             "family_id", "pub_id", pl.col("ipc3").alias("_stratum"))
    _record_labels(ctx, "class_text2ipc3", df)
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
        "split", pl.col("full_text").alias("text"), "label", "family_id", "pub_id",
        pl.concat_str(["ipc3", "label"]).alias("_stratum"))
    _record_labels(ctx, "class_bloom", df)
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
    return _by_split(rows.select("split", "q_text", "t_text", "label", pl.col("q_family").alias("query_id"),
                                 pl.col("t_family").alias("target_id"), "_stratum"), splits)


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
        out[split] = rows.select("text1", "text2", pl.col("label").cast(pl.Int64), pl.col("a").alias("id1"),
                                 pl.col("b").alias("id2"), "_stratum")
    return out


def _cluster_pool(ctx: PatenTEBContext) -> pl.DataFrame:
    """Every selected family (the paper's pools exceed its test split), or only test under the old setting."""
    if ctx.params.cluster_families_from == "all":
        return ctx.families
    return ctx.split_families("test")


def _in_bounds(size: pl.Expr, min_size: int, max_size: int) -> pl.Expr:
    return size.is_between(min_size, max_size)


def _cluster_rows(ctx: PatenTEBContext, task: str, pool: pl.DataFrame, chosen: pl.DataFrame, min_size: int,
                  max_size: int) -> pl.DataFrame:
    """(text, label, family_id, pub_id) of clusters sized `min_size`..`max_size`; others dropped whole, counted.

    `chosen` holds (family_id, label), one label per family. The paper keeps clusters of 200–1000 (IPC) or
    100–1000 (inventor) and drops the rest; nothing is cut down to size.
    """
    sizes = chosen.group_by("label").len()
    keep = sizes.filter(_in_bounds(pl.col("len"), min_size, max_size)).select("label")
    rows = chosen.join(keep, on="label", how="semi").join(
        pool.select("family_id", "pub_id", "split", pl.col("full_text").alias("text")), on="family_id")
    ctx.stats.setdefault("clusters", {})[task] = {
        "pool_families": pool.height, "bounds": [min_size, max_size], "clusters": keep.height,
        "dropped_small": sizes.filter(pl.col("len") < min_size).height,
        "dropped_large": sizes.filter(pl.col("len") > max_size).height,
        "families": rows.height, "families_in_test_split": rows.filter(pl.col("split") == "test").height,
    }
    return rows.select("text", "label", "family_id", "pub_id", pl.col("label").alias("_stratum"))


def build_clusters_ipc(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    """Clusters of families with an identical full IPC set (label = the set, `; `-joined)."""
    p = ctx.params
    pool = _cluster_pool(ctx)
    chosen = pool.filter(pl.col("ipc_full").list.len() > 0).select(
        "family_id", pl.col("ipc_full").list.join("; ").alias("label"))
    rows = _cluster_rows(ctx, "clusters_ext_full_ipc", pool, chosen, p.cluster_ipc_min_size, p.cluster_ipc_max_size)
    return {s: rows for s in splits}


def choose_inventor_clusters(ids: pl.DataFrame, min_size: int, max_size: int) -> pl.DataFrame:
    """(family_id, label): each family joins its largest in-bounds inventor (ties: smallest id), until stable.

    A family with several inventors belongs to one cluster only; a cluster that falls below `min_size`
    once its families chose elsewhere stops being a choice and its families choose again.
    """
    allowed = ids.select("family_id", "inventor_id")
    while True:
        sizes = allowed.group_by("inventor_id").len()
        allowed = allowed.join(sizes.filter(_in_bounds(pl.col("len"), min_size, max_size)),
                               on="inventor_id").drop("len")
        chosen = (allowed.join(sizes, on="inventor_id")
                  .sort(["family_id", "len", "inventor_id"], descending=[False, True, False])
                  .group_by("family_id", maintain_order=True).first().select("family_id", "inventor_id"))
        final = chosen.group_by("inventor_id").len()
        small = final.filter(pl.col("len") < min_size)
        if small.height == 0:
            return chosen.rename({"inventor_id": "label"}).sort("family_id")
        allowed = allowed.join(small.select("inventor_id"), on="inventor_id", how="anti")


def build_clusters_inventor(ctx: PatenTEBContext, splits: tuple[str, ...]) -> Splits:
    """Clusters of families sharing an inventor id (`transforms.inventors`: a name alone never joins two)."""
    p = ctx.params
    pool = _cluster_pool(ctx)
    ids = (ctx.inventor_ids if ctx.inventor_ids is not None else pl.DataFrame(
        schema={"family_id": pl.String, "inventor_id": pl.String})).join(pool.select("family_id"), on="family_id")
    chosen = choose_inventor_clusters(ids, p.cluster_inventor_min_size, p.cluster_inventor_max_size)
    rows = _cluster_rows(ctx, "clusters_inventor", pool, chosen, p.cluster_inventor_min_size,
                         p.cluster_inventor_max_size)
    raw = ids.group_by("inventor_id").len()  # the inventors' own sizes, before each family chose one
    ctx.stats["clusters"]["clusters_inventor"].update(
        inventor_ids=raw.height, dropped_small=raw.filter(pl.col("len") < p.cluster_inventor_min_size).height,
        dropped_large=raw.filter(pl.col("len") > p.cluster_inventor_max_size).height)
    return {s: rows for s in splits}
