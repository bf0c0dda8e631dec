"""A stage over its memory budget stops with one line naming it and the setting, before the OS would kill it."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from patentfactory.stages.memory import GB, MemoryBudgetExceeded, MemoryLimits, memory_budget, rss_bytes

pytestmark = pytest.mark.services


def test_growing_stage_is_stopped_with_the_setting_named():
    budget = (rss_bytes() + 200 * (1 << 20)) / GB
    held = []
    with pytest.raises(MemoryBudgetExceeded) as err:
        with memory_budget("build-toy", MemoryLimits(budget_gb=budget, check_s=0.01)):
            for _ in range(400):  # up to 4 GB in 10 MB steps, touched so they are resident
                held.append(bytearray(10 << 20))
                held[-1][::4096] = b"x" * len(held[-1][::4096])
    held.clear()
    assert "stage build-toy stopped at" in err.value.message and "PF_MEMORY_BUDGET_GB" in err.value.hint


def test_within_budget_the_block_runs_and_reports_its_peak():
    with memory_budget("build-toy", MemoryLimits(budget_gb=64, check_s=0.01)) as seen:
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


def test_the_entry_points_limits_hold_inside_its_block_and_its_task_threads():
    """What a flow or command sets reaches a decorated stage, in its thread and in threads started with a copy of
    its context (Prefect's task threads); outside the block the defaults are back."""
    from concurrent.futures import ThreadPoolExecutor
    from contextvars import copy_context

    from patentfactory.stages.memory import current_limits, memory_limits, within_budget

    @within_budget("build-toy")
    def stage() -> MemoryLimits:
        return current_limits()

    tight = MemoryLimits(budget_gb=0.01, check_s=0.01)
    with memory_limits(tight):
        with pytest.raises(MemoryBudgetExceeded, match="stage build-toy stopped at"):
            stage()
        with ThreadPoolExecutor(1) as pool:
            in_thread = pool.submit(copy_context().run, current_limits).result()
        assert in_thread == tight
    assert stage() == MemoryLimits() == MemoryLimits(budget_gb=None, check_s=0.5)


def test_a_flow_holds_its_stages_to_its_settings(tmp_path, monkeypatch):
    """`ingest-lens` with PF_MEMORY_BUDGET_GB below the process's size: its stage (in a task) is stopped."""
    from pathlib import Path

    from flows.ingest_lens import ingest_lens

    export = Path(__file__).resolve().parents[2] / "data" / "sample" / "lens" / "lens-export.jsonl"
    monkeypatch.setenv("PF_MEMORY_BUDGET_GB", "0.01")
    with pytest.raises(MemoryBudgetExceeded, match="stage ingest-file stopped at"):
        ingest_lens([str(export)], data_dir=str(tmp_path))
