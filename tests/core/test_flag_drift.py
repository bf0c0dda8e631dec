"""The drift gate on flags: the share of publications keeping a field raw instead of costing the record."""
from __future__ import annotations

import polars as pl

from patentfactory.config import DriftThresholds
from patentfactory.store.drift import compare_coverage

TH = DriftThresholds()


def test_flag_share_rise_blocks_and_a_flag_gone_does_not():
    """`flags` coverage counts publications keeping a field raw; their share of all publications (the sum over
    `source`) may rise by `flag_rate_rise` at most. A version that predates flags gives nothing to compare."""
    from patentfactory.store.drift import coverage_of

    pubs = pl.DataFrame({"pub_id": list("abcd"), "source": ["lens"] * 4, "pub_date": [None] * 4,
                         "ipc3": [None] * 4, "flags": [[], ["app_id"], None, ["app_id", "priority", "app_id"]]},
                        schema_overrides={"pub_date": pl.Date, "ipc3": pl.String})
    new = coverage_of(pubs.lazy())
    assert new["flags"] == {"app_id": 2, "priority": 1}
    old = {"source": {"lens": 100}, "flags": {"app_id": 1}}
    drifts = {d.column: d for d in compare_coverage(old, new, TH)}
    assert drifts["flags=app_id"].blocked and (drifts["flags=app_id"].before, drifts["flags=app_id"].after) == (
        0.01, 0.5)
    assert drifts["flags=priority"].setting == "PF_QUALITY__FLAG_RATE_RISE"
    assert not [d for d in compare_coverage(new, {"source": {"lens": 4}, "flags": {}}, TH) if d.blocked]
    assert not [d for d in compare_coverage({"source": {"lens": 4}}, new, TH) if "flags" in d.column]
    assert not [d for d in compare_coverage(old, new, DriftThresholds(flag_rate_rise=0.6)) if d.blocked]
