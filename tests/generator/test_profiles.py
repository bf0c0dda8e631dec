"""`pf generate --profile real`: a world in the real sources' proportions (REAL_RATIOS), checked on its truth."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from typer.testing import CliRunner

from patentfactory.cli.main import app
from patentfactory.sim.generator import generate_world
from patentfactory.sim.generator.profiles import REAL_RATIOS, profile_spec, ratios


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
    assert res.exit_code != 0 and "--profile must be one of test, real" in res.output
