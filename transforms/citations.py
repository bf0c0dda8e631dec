"""Family-level citation graph (pure: LazyFrames in, LazyFrames out).

Publication citations (`citations` table) are lifted to families (`families` table, one kind at a
time, `simple` by default as PatenTEB uses): an edge citing_family -> cited_family. A cited id that
does not match a publication exactly (kind missing or different, as epodoc references often are) is
matched on its `CC-NUMBER` part. Self-loops (a family citing itself) and duplicates are removed.
The neighbourhood is the undirected version: negative mining excludes every family linked to the
query by citation in either direction.
"""
from __future__ import annotations

import polars as pl

EDGE_SCHEMA = {"citing_family": pl.String, "cited_family": pl.String}


def _base(pub: pl.Expr) -> pl.Expr:
    """'US-10000000-B2' -> 'US-10000000' (publication number without its kind)."""
    return pub.str.replace(r"-[^-]*$", "")


def _members(families: pl.LazyFrame, family_kind: str) -> pl.LazyFrame:
    return families.filter(pl.col("family_kind") == family_kind).select("pub_id", "family_id")


def family_citation_edges(citations: pl.LazyFrame, families: pl.LazyFrame,
                          family_kind: str = "simple") -> pl.LazyFrame:
    """Distinct (citing_family, cited_family) edges, no self-loops, sorted."""
    members = _members(families, family_kind)
    cites = citations.filter(pl.col("cited_pub_id").is_not_null()).select("citing_pub_id", "cited_pub_id")
    citing = cites.join(members.rename({"pub_id": "citing_pub_id", "family_id": "citing_family"}),
                        on="citing_pub_id", how="inner")
    exact = citing.join(members.rename({"pub_id": "cited_pub_id", "family_id": "cited_family"}),
                        on="cited_pub_id", how="left")
    matched = exact.filter(pl.col("cited_family").is_not_null())
    by_base = members.select(_base(pl.col("pub_id")).alias("cited_base"), pl.col("family_id").alias("cited_family")) \
        .unique()
    loose = exact.filter(pl.col("cited_family").is_null()).drop("cited_family") \
        .with_columns(_base(pl.col("cited_pub_id")).alias("cited_base")) \
        .join(by_base, on="cited_base", how="inner")
    edges = pl.concat([matched.select("citing_family", "cited_family"),
                       loose.select("citing_family", "cited_family")])
    return edges.filter(pl.col("citing_family") != pl.col("cited_family")).unique() \
        .cast(EDGE_SCHEMA).sort("citing_family", "cited_family")


def citation_neighbourhood(edges: pl.LazyFrame) -> pl.LazyFrame:
    """(family_id, neighbour_id) for every family linked by citation in either direction (symmetric)."""
    forward = edges.select(pl.col("citing_family").alias("family_id"), pl.col("cited_family").alias("neighbour_id"))
    backward = edges.select(pl.col("cited_family").alias("family_id"), pl.col("citing_family").alias("neighbour_id"))
    return pl.concat([forward, backward]).filter(pl.col("family_id") != pl.col("neighbour_id")).unique() \
        .sort("family_id", "neighbour_id")


def citation_neighbour_sets(edges: pl.LazyFrame) -> pl.LazyFrame:
    """(family_id, neighbours: sorted list) — the same neighbourhood, one row per family with any link."""
    return citation_neighbourhood(edges).group_by("family_id") \
        .agg(pl.col("neighbour_id").sort().alias("neighbours")).sort("family_id")


def exclude_neighbours(candidates: pl.LazyFrame, edges: pl.LazyFrame,
                       query_col: str = "query_family", candidate_col: str = "candidate_family") -> pl.LazyFrame:
    """Drop (query, candidate) pairs where the candidate is the query's family or cites/is cited by it."""
    hood = citation_neighbourhood(edges).rename({"family_id": query_col, "neighbour_id": candidate_col})
    return candidates.filter(pl.col(query_col) != pl.col(candidate_col)) \
        .join(hood, on=[query_col, candidate_col], how="anti")
