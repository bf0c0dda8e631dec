"""Every command without --data-dir / --out / --root reads PF_PATHS__DATA_DIR and PF_PATHS__PUBLISHED_ROOT
(issue 32: `pf run --live` wrote into ./data whatever the settings said); a value typed on the command line wins."""
from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from flows.nightly import SAMPLE_WORLD
from patentfactory.cli.main import app


def test_ingest_and_build_read_the_settings_roots(tmp_path: Path, monkeypatch):
    cwd, data, pub = tmp_path / "cwd", tmp_path / "elsewhere" / "data", tmp_path / "elsewhere" / "pub"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("PF_PATHS__DATA_DIR", str(data))
    monkeypatch.setenv("PF_PATHS__PUBLISHED_ROOT", str(pub))
    export = tmp_path / "lens-export.jsonl"
    shutil.copy(SAMPLE_WORLD / "lens" / "lens-export.jsonl", export)
    res = CliRunner().invoke(app, ["ingest", "lens", str(export)])
    assert res.exit_code == 0, res.output
    assert (data / "warehouse" / "publications").is_dir() and not (cwd / "data").exists()
    res = CliRunner().invoke(app, ["build", "ipbench", "--max-items", "50"])
    assert res.exit_code == 0, res.output
    assert (pub / "ipbench" / "LATEST").exists() and not (data / "published").exists()
    typed = tmp_path / "typed"
    res = CliRunner().invoke(app, ["build", "ipbench", "--max-items", "50", "--out", str(typed)])
    assert res.exit_code == 0 and (typed / "ipbench" / "LATEST").exists(), res.output
    res = CliRunner().invoke(app, ["inspect", str(pub / "ipbench")])
    assert res.exit_code == 0 and "verified" in res.output, res.output


def test_without_the_published_root_setting_it_is_under_the_data_dir(tmp_path: Path, monkeypatch):
    from patentfactory.config import Settings

    monkeypatch.setenv("PF_PATHS__DATA_DIR", str(tmp_path / "d"))
    monkeypatch.delenv("PF_PATHS__PUBLISHED_ROOT", raising=False)
    assert Settings.load().roots(None, None) == (str(tmp_path / "d"), str(tmp_path / "d" / "published"))
