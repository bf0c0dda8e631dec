"""Our families against the sizes the sources report (Lens `Simple/Extended Family Size`, OPS `total-result-count`).

A reported family is checked only where the warehouse can hold all of it: when its listed members are all in the
warehouse and as many as the size says, or (a size without members) when our family of the record is at least that
big. Then our family must have the reported size: `match`, else `mismatch` (ours bigger, or split in several).
A family with members we lack is `incomplete` (the warehouse is a slice of the world; not our error), one whose
members are all unknown is `absent`. Pure: frames in, a dict of counts out.
"""
from __future__ import annotations

import polars as pl

EXAMPLES = 5  # mismatching family ids named per source and kind (what to look at)
STATUSES = ("match", "mismatch", "incomplete", "absent")


def size_status(reported: pl.LazyFrame, families: pl.LazyFrame) -> pl.DataFrame:
    """One row per reported family with a size: source, family_kind, family_id, family_size, listed, known,
    ours (our families its known members fall in), our_size, status."""
    rep = reported.filter(pl.col("family_size").is_not_null()).select(
        "source", "family_kind", "family_id", "pub_id", pl.col("family_size").cast(pl.Int64))
    ours = families.select("family_kind", "pub_id", pl.col("family_id").alias("ours"))
    our_sizes = families.group_by("family_kind", pl.col("family_id").alias("ours")).agg(
        pl.col("pub_id").n_unique().alias("our_size"))
    keyed = rep.join(ours, on=["family_kind", "pub_id"], how="left").join(
        our_sizes, on=["family_kind", "ours"], how="left")
    per = keyed.group_by("source", "family_kind", "family_id").agg(
        pl.col("family_size").first(), pl.col("pub_id").n_unique().alias("listed"),
        pl.col("pub_id").filter(pl.col("ours").is_not_null()).n_unique().alias("known"),
        pl.col("ours").drop_nulls().n_unique().alias("n_ours"), pl.col("our_size").max().alias("our_size"))
    size, listed, known = pl.col("family_size"), pl.col("listed"), pl.col("known")
    whole = pl.when(listed > 1).then((known == listed) & (listed >= size)).otherwise(pl.col("our_size") >= size)
    status = (pl.when(known == 0).then(pl.lit("absent"))
              .when(pl.col("n_ours") > 1).then(pl.when(known == listed).then(pl.lit("mismatch"))
                                                .otherwise(pl.lit("incomplete")))
              .when(pl.col("our_size") > size).then(pl.lit("mismatch"))
              .when(~whole).then(pl.lit("incomplete"))
              .when(pl.col("our_size") == size).then(pl.lit("match"))
              .otherwise(pl.lit("mismatch")))
    return per.with_columns(status.alias("status")).sort("source", "family_kind", "family_id").collect()


def check_reported_sizes(reported: pl.LazyFrame, families: pl.LazyFrame) -> dict[str, dict]:
    """`{"<source> <kind>": {"reported": n, "match": n, "mismatch": n, "incomplete": n, "absent": n,
    "mismatch_examples": [family ids]}}`; empty when no source reported a size."""
    if "family_size" not in reported.collect_schema().names():
        return {}
    table = size_status(reported, families)
    out: dict[str, dict] = {}
    for (source, kind), group in table.group_by("source", "family_kind", maintain_order=True):
        counts = dict(group.group_by("status").len().iter_rows())
        out[f"{source} {kind}"] = {
            "reported": group.height, **{s: int(counts.get(s, 0)) for s in STATUSES},
            "mismatch_examples": group.filter(pl.col("status") == "mismatch")["family_id"].head(EXAMPLES).to_list()}
    return dict(sorted(out.items()))
