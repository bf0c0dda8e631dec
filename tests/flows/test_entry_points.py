"""Flows and commands run as their deployments and users run them, told nothing: what they read is the settings.

`pf build patenteb` and the `build-patenteb` flow, neither told a profile, build the same version: the profile
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


@pytest.mark.parametrize("name", ["build_ipbench", "build_pap2pat", "build_patenteb", "build_pilot"])
def test_a_build_deployment_reads_the_settings_data_dir(name: str, tmp_path: Path, monkeypatch):
    """Run as its deployment runs it (no parameter): the warehouse it looks in is PF_PATHS__DATA_DIR's."""
    import importlib

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PF_PATHS__DATA_DIR", str(tmp_path / "settings-data"))
    state = getattr(importlib.import_module(f"flows.{name}"), name)(return_state=True)
    assert state.is_failed() and str(tmp_path / "settings-data" / "warehouse") in state.message, state.message
    assert not (tmp_path / "data").exists()


def test_the_evaluate_deployment_reads_the_settings_publish_root(tmp_path: Path, monkeypatch):
    from flows.evaluate import evaluate
    from patentfactory.errors import PFError

    monkeypatch.setenv("PF_PATHS__PUBLISHED_ROOT", str(tmp_path / "settings-pub"))
    with pytest.raises(PFError, match="no published version") as err:
        evaluate(dataset="pilot")
    assert str(tmp_path / "settings-pub") in str(err.value), err.value
