"""Family reconstruction from rendered Lens records against the generator's ground truth.

Pairwise precision/recall: every pair of publications we put in one family must be in one true
family (precision) and every true same-family pair must be found (recall).
"""
from __future__ import annotations


import polars as pl
import pytest

from patentfactory.sim.generator import WorldSpec, generate_world
from sources.lens import parse_lens_jsonl
from transforms.families import build_families

pytestmark = pytest.mark.services


def _pairs(df: pl.DataFrame, fam: str) -> set[tuple[str, str]]:
    joined = df.join(df, on=fam, suffix="_b").filter(pl.col("pub_id") < pl.col("pub_id_b"))
    return set(zip(joined["pub_id"].to_list(), joined["pub_id_b"].to_list()))


@pytest.fixture(scope="module")
def reconstructed(tmp_path_factory) -> tuple[pl.DataFrame, pl.DataFrame]:
    world = tmp_path_factory.mktemp("world")
    generate_world(world, 600, 21, WorldSpec(600, 21, renderers=("lens",), shared_priority_rate=0.15))
    pubs = pl.DataFrame(parse_lens_jsonl(world / "lens" / "lens-export.jsonl", "lens").to_arrow()["publications"])
    return build_families(pubs.lazy()).collect(), pl.read_parquet(world / "truth" / "families.parquet")


@pytest.mark.parametrize("kind,truth_col", [("simple", "simple_family_id"), ("extended", "extended_family_id")])
def test_precision_and_recall_are_one(reconstructed, kind, truth_col):
    ours, truth = reconstructed
    ours = ours.filter(pl.col("family_kind") == kind)
    assert set(ours["pub_id"]) == set(truth["pub_id"]), "every rendered publication gets a family"
    found, true = _pairs(ours, "family_id"), _pairs(truth, truth_col)
    assert true, "the world must have multi-member families"
    precision = len(found & true) / len(found)
    recall = len(found & true) / len(true)
    assert (precision, recall) == (1.0, 1.0), (kind, precision, recall)


def test_extended_families_merge_some_simple_ones(reconstructed):
    ours, _ = reconstructed
    n = ours.group_by("family_kind").agg(pl.col("family_id").n_unique()).sort("family_kind")
    simple = n.filter(pl.col("family_kind") == "simple")["family_id"][0]
    extended = n.filter(pl.col("family_kind") == "extended")["family_id"][0]
    assert extended < simple
