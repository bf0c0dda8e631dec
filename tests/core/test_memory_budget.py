"""A stage over its memory budget stops with one line naming it and the setting, before the OS would kill it."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from patentfactory.config import Settings
from patentfactory.stages.memory import GB, MemoryBudgetExceeded, memory_budget, rss_bytes

pytestmark = pytest.mark.services


def test_growing_stage_is_stopped_with_the_setting_named():
    budget = (rss_bytes() + 200 * (1 << 20)) / GB
    held = []
    with pytest.raises(MemoryBudgetExceeded) as err:
        with memory_budget("build-toy", Settings(memory_budget_gb=budget, memory_check_s=0.01)):
            for _ in range(400):  # up to 4 GB in 10 MB steps, touched so they are resident
                held.append(bytearray(10 << 20))
                held[-1][::4096] = b"x" * len(held[-1][::4096])
    held.clear()
    assert "stage build-toy stopped at" in err.value.message and "PF_MEMORY_BUDGET_GB" in err.value.hint


def test_within_budget_the_block_runs_and_reports_its_peak():
    with memory_budget("build-toy", Settings(memory_budget_gb=64, memory_check_s=0.01)) as seen:
        data = bytearray(50 << 20)
        data[::4096] = b"y" * len(data[::4096])
    assert seen["peak"] >= 50 << 20


def test_cli_prints_one_line_and_exits_non_zero(tmp_path, monkeypatch):
    """A real stage command under a budget below the process's size: refused at its start, one line."""
    from patentfactory.cli.main import app

    monkeypatch.setenv("PF_MEMORY_BUDGET_GB", "0.01")
    res = CliRunner().invoke(app, ["ingest", "semopenalex", "--data-dir", str(tmp_path), "--endpoint",
                                   "http://127.0.0.1:9/sparql"])
    assert res.exit_code != 0
    assert "stage ingest-semopenalex stopped at" in res.output and "PF_MEMORY_BUDGET_GB" in res.output, res.output
