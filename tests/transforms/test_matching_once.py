"""The matcher run once (`pairs_and_funnel`, `collect_ranked_stage`: the scored candidates collected, the ranking run
on that frame) gives the pairs, the funnel and the stages that the lazy funnel gives, in every competitor/distinct
mode; evidence floats equal to the last bits parallel sums leave (the build publishes them to 9 digits)."""
from __future__ import annotations

import pytest
from polars.testing import assert_frame_equal

from patentfactory.sim.generator import WorldSpec, build_world
from tests.transforms.test_matching import _papers, _patents
from transforms.matching import (MatchParams, collect_ranked_stage, funnel_counts, match_pairs, match_stages,
                                 pairs_and_funnel)

pytestmark = pytest.mark.services  # as tests/transforms/test_matching.py, whose world helpers it reuses


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    world = build_world(WorldSpec(scale=400, seed=5))
    return _patents(world).lazy(), _papers(world, tmp_path_factory.mktemp("soa")).lazy()


@pytest.mark.parametrize("params", [MatchParams(), MatchParams(competitors="dated", distinct="pooled")],
                         ids=["default", "dated-pooled"])
def test_one_run_equals_the_lazy_funnel(frames, params):
    patents, papers = frames
    pairs, funnel = pairs_and_funnel(patents, papers, params)
    assert funnel == funnel_counts(match_stages(patents, papers, params))
    assert funnel["licensed"] == pairs.height > 0 and funnel["candidates"] > funnel["licensed"]
    assert_frame_equal(pairs, match_pairs(patents, papers, params).collect(), rel_tol=1e-12)
    lazy = match_stages(patents, papers, params)
    for stage in ("term_overlap", "distinct", "one_to_one"):
        keys = ["pub_id", "work_id"]
        assert_frame_equal(collect_ranked_stage(patents, papers, stage, params).sort(keys),
                           lazy[stage].collect().sort(keys), rel_tol=1e-12)
