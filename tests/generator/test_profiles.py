"""`pf generate --profile real`: a world in the real sources' proportions (REAL_RATIOS), checked on its truth."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from patentfactory.cli.main import app
from patentfactory.sim.generator import generate_world
from patentfactory.sim.generator.profiles import REAL_RATIOS, profile_spec, ratios

pytestmark = pytest.mark.services


def test_real_profile_keeps_the_real_ratios(tmp_path: Path):
    spec = replace(profile_spec("real", 4000, 7), renderers=("ptab",))  # ratios need the truth only (+ PDFs)
    generate_world(tmp_path, 4000, 7, spec)
    got = ratios(tmp_path)
    default = ratios_of_default(tmp_path / "default")
    for key, (target, tolerance, _) in REAL_RATIOS.items():
        assert abs(got[key] - target) <= tolerance * target, (key, got[key], target)
    assert default["ptab_decisions_per_us_application"] > 5 * got["ptab_decisions_per_us_application"]


def ratios_of_default(out: Path) -> dict[str, float]:
    generate_world(out, 4000, 7, replace(profile_spec("real", 4000, 7), ptab_rate=0.05, renderers=("ptab",)))
    return ratios(out)


def test_cli_rejects_an_unknown_profile(tmp_path: Path):
    res = CliRunner().invoke(app, ["generate", "--scale", "10", "--profile", "huge", "--out", str(tmp_path)])
    assert res.exit_code != 0 and "--profile must be one of test, real, sample" in res.output


def test_sample_profile_fills_every_benchmark_window(tmp_path: Path):
    """The embedded world's profile: >= 2 EP grants in each month of Patent-CR's window (June = test),
    product lines with identical full IPC sets, and a world.json that rebuilds the same world."""
    import json

    import polars as pl

    from patentfactory.sim.generator.additions import load_world
    from patentfactory.sim.generator.world import WorldSpec, build_world

    spec = replace(profile_spec("sample", 300, 1337), renderers=("lens",))
    generate_world(tmp_path, 300, 1337, spec)
    pubs = pl.read_parquet(tmp_path / "truth" / "publications.parquet")
    grants = pubs.filter((pl.col("country") == "EP") & (pl.col("kind") == "B1")
                         & pl.col("pub_date").is_between(pl.date(2024, 1, 1), pl.date(2024, 6, 30)))
    per_month = dict(grants.group_by(pl.col("pub_date").dt.month()).len().iter_rows())
    assert set(per_month) == set(range(1, 7)) and min(per_month.values()) >= 1, per_month
    assert sum(per_month.values()) >= 10
    assert (grants["pub_date"].dt.weekday() == 3).all(), "EP grants publish on Wednesdays"
    default = build_world(WorldSpec(300, 1337))
    sample = load_world(tmp_path)
    assert json.loads((tmp_path / "world.json").read_text())["spec"]["portfolio_rate"] == spec.portfolio_rate
    assert sample.spec == spec and set(sample.pubs["pub_id"].tolist()) == set(pubs["pub_id"].to_list())
    assert in_identical_ipc_groups(sample.inv["ipc"]) > 3 * in_identical_ipc_groups(default.inv["ipc"])
    assert (sample.inv["seed"] == default.inv["seed"]).all(), "enrichments draw from their own generators"


def in_identical_ipc_groups(ipcs: list[list[str]], min_size: int = 3) -> int:
    """Inventions whose full IPC set is shared by at least `min_size` inventions."""
    from collections import Counter

    sizes = Counter(tuple(sorted(x)) for x in ipcs)
    return sum(n for n in sizes.values() if n >= min_size)
