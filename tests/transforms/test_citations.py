"""Family-level citation edges and neighbourhoods on golden frames."""
from __future__ import annotations

import polars as pl

from transforms.citations import (citation_neighbour_sets, citation_neighbourhood, exclude_neighbours,
                                  family_citation_edges)

FAMILIES = pl.LazyFrame({
    "family_id": ["F1", "F1", "F2", "F3", "F4", "X1", "X2"],
    "pub_id": ["US-1-A1", "US-1-B2", "EP-2-A1", "WO-3-A1", "JP-4-A", "US-1-A1", "EP-2-A1"],
    "family_kind": ["simple"] * 5 + ["extended"] * 2,
})
CITATIONS = pl.LazyFrame({
    "citing_pub_id": ["US-1-B2", "US-1-B2", "US-1-A1", "US-1-B2", "EP-2-A1", "EP-2-A1", "WO-3-A1", "JP-4-A"],
    "seq": [1, 2, 1, 3, 1, 2, 1, 1],
    "cited_pub_id": ["EP-2-A1", "US-1-A1", "EP-2-A1", None, "WO-3-", "ZZ-9-A", None, "EP-2-B1"],
    "cited_npl": [None, None, None, "Some paper", None, None, "Other", None],
    "category": [None] * 8, "cited_by": ["examiner"] * 8,
}, schema_overrides={"seq": pl.Int32})


def test_edges_dedup_no_self_loops_loose_kind_match():
    edges = family_citation_edges(CITATIONS, FAMILIES).collect()
    assert edges.rows() == [("F1", "F2"), ("F2", "F3"), ("F4", "F2")]
    # F1 citing its own member (US-1-A1) is a self-loop; two F1->F2 citations are one edge;
    # 'WO-3-' (no kind) and 'EP-2-B1' (unknown kind) match on CC-NUMBER; ZZ-9-A is unknown and dropped


def test_edges_for_another_family_kind():
    edges = family_citation_edges(CITATIONS, FAMILIES, family_kind="extended").collect()
    assert edges.rows() == [("X1", "X2")]


def test_neighbourhood_is_symmetric():
    edges = family_citation_edges(CITATIONS, FAMILIES)
    hood = citation_neighbourhood(edges).collect()
    assert set(hood.rows()) == {("F1", "F2"), ("F2", "F1"), ("F2", "F3"), ("F3", "F2"), ("F2", "F4"), ("F4", "F2")}
    sets = citation_neighbour_sets(edges).collect()
    assert dict(zip(sets["family_id"], sets["neighbours"].to_list())) == {
        "F1": ["F2"], "F2": ["F1", "F3", "F4"], "F3": ["F2"], "F4": ["F2"]}


def test_exclude_neighbours_drops_own_family_and_linked_both_ways():
    edges = family_citation_edges(CITATIONS, FAMILIES)
    candidates = pl.LazyFrame({"query_family": ["F3", "F3", "F3", "F3"],
                               "candidate_family": ["F3", "F2", "F1", "F4"]})
    kept = exclude_neighbours(candidates, edges).collect()
    # F3 itself and F2 (F2 cites F3) go; F1 and F4 are only linked to F3 through F2, so they stay
    assert sorted(kept["candidate_family"]) == ["F1", "F4"]
