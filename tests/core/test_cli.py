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


HEAVY = ("polars", "pyarrow", "pandas", "prefect", "torch", "sources", "schemas")  # what a refusal must not load


def test_a_refused_command_fails_before_the_data_libraries_load(tmp_path: Path):
    """A bad date, a reversed range, a missing file, a folder or an unknown profile: one error line, exit 2, and
    none of polars, pyarrow, pandas, Prefect, torch or the parsers imported (they cost a refusal 0.4 s of CPU)."""
    refused = {"ptab": ["ingest", "ptab", "--from", "2024-13-01", "--data-dir", str(tmp_path / "d")],
               "uspto": ["ingest", "uspto", "--from", "2024-03-01", "--to", "2024-01-01", "--data-dir", str(tmp_path)],
               "missing": ["parse", "ops", str(tmp_path / "none.xml"), "--out", str(tmp_path / "o.parquet")],
               "folder": ["parse", "uspto", str(tmp_path), "--out", str(tmp_path / "o.parquet")],
               "profile": ["run", "--profile", "huge", "--data-dir", str(tmp_path / "d"), "--out", str(tmp_path)]}
    code = ("import sys\nfrom patentfactory.cli.main import app\ntry:\n    app(prog_name='pf')\nexcept SystemExit as e:\n"
            f"    print('loaded:', [m for m in {HEAVY!r} if m in sys.modules]); sys.exit(e.code)")
    for name, args in refused.items():
        proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2 and proc.stderr.count("error:") == 1, (name, proc.stderr[-1500:])
        assert "loaded: []" in proc.stdout, (name, proc.stdout)
    assert not (tmp_path / "d").exists() and not (tmp_path / "o.parquet").exists()
