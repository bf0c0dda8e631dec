"""`pf build patenteb` and the `build-patenteb` flow, neither told a profile, build the same version: the profile
of PF_PROFILE (issue 43: the command built `full`, the flow `sample`)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from flows.build_patenteb import build_patenteb
from flows.nightly import SAMPLE_WORLD
from patentfactory.cli.main import app

pytestmark = pytest.mark.services


def test_command_and_flow_build_the_same_profile(tmp_path: Path, monkeypatch):
    data, pub = tmp_path / "data", tmp_path / "pub"
    monkeypatch.setenv("PF_PATHS__DATA_DIR", str(data))
    monkeypatch.setenv("PF_PATHS__PUBLISHED_ROOT", str(pub))
    monkeypatch.setenv("PF_PROFILE", "sample")
    export = tmp_path / "lens-export.jsonl"
    shutil.copy(SAMPLE_WORLD / "lens" / "lens-export.jsonl", export)
    assert CliRunner().invoke(app, ["ingest", "lens", str(export)]).exit_code == 0
    res = CliRunner().invoke(app, ["build", "patenteb"])
    assert res.exit_code == 0, res.output
    by_command = (pub / "patenteb" / "LATEST").read_text().strip()
    manifest = json.loads((pub / "patenteb" / by_command / "manifest.json").read_text())
    assert manifest["config"]["profile"] == "sample"
    by_flow = build_patenteb()
    assert by_flow["version"] == by_command and by_flow["created"] is False, "the same inputs, the same build"
