"""The CLI's contract for bad input: one line, a hint, a non-zero exit, nothing half-written."""
from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from patentfactory.cli.main import app
from patentfactory.store.publish import Release, publish
from patentfactory.store.storage import Storage

runner = CliRunner()


def test_scale_that_is_not_a_number(tmp_path: Path):
    res = runner.invoke(app, ["generate", "--scale", "lots", "--out", str(tmp_path / "w")])
    assert res.exit_code == 2
    assert "--scale must be 'sample' or a positive integer, got 'lots'" in res.output
    assert "hint:" in res.output
    assert not (tmp_path / "w").exists()


def test_inspect_missing_dataset_is_one_clear_line(tmp_path: Path):
    res = runner.invoke(app, ["inspect", str(tmp_path / "nothing")])
    assert res.exit_code == 2
    assert "no published version of 'nothing'" in res.output and "Traceback" not in res.output


def test_inspect_verifies_and_flags_tampering(tmp_path: Path):
    df = pl.DataFrame({"text": ["a", "b", "c", "d"], "label": ["x", "y", "x", "y"]})
    pub = publish(Storage(tmp_path), Release("toy", {"cls": {"train": df[:2], "test": df[2:]}}, {}, []),
                  day=date(2026, 1, 2))
    ok = runner.invoke(app, ["inspect", f"{tmp_path}/toy"])
    assert ok.exit_code == 0 and "verified 2 files" in ok.output
    (tmp_path / "toy" / pub.version / "cls" / "test.parquet").write_bytes(b"garbage")
    bad = runner.invoke(app, ["inspect", f"{tmp_path}/toy/{pub.version}"])
    assert bad.exit_code == 1 and "sha256 mismatch" in bad.output


def test_unknown_command_exits_non_zero():
    res = runner.invoke(app, ["build", "nosuchdataset"])
    assert res.exit_code != 0


def test_console_script_runs_as_a_process(tmp_path: Path):
    pf = Path(sys.executable).with_name("pf")
    proc = subprocess.run([str(pf), "generate", "--scale", "-3", "--out", str(tmp_path)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2 and "positive integer" in proc.stderr
