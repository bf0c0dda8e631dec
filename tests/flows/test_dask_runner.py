"""`ingest-uspto` on a local Dask cluster (2 worker processes) gives the same warehouse as the thread runner.

The parse tasks run in other processes than the flow (pickled tasks, their own Prefect clients) while the
flow stays the ledger's one writer; the result, every warehouse table and the ledger, must match the
default runner's row for row. The `ConfiguredTaskRunner` placeholder must resolve PF_* settings per run.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import pytest

from flows.ingest_uspto import ingest_uspto
from flows.runtime import ConfiguredTaskRunner, task_runner
from patentfactory.config import Settings
from patentfactory.sim.generator import WorldSpec, generate_world
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from patentfactory.sim.upstream import Replica
from patentfactory.store.warehouse import Warehouse

pytestmark = [pytest.mark.slow, pytest.mark.services]
TABLES = ("publications", "claims", "descriptions", "citations", "rejects")


def _warehouse(data: Path) -> dict[str, pl.DataFrame]:
    wh = Warehouse(Storage(data / "warehouse"))
    out = {}
    for table in TABLES:
        df = wh.frame(table)
        out[table] = df.sort(df.columns) if df.height else df
    return out


def _ledger(data: Path) -> list[dict]:
    keep = ("source", "item", "sha256", "bytes", "parser_version", "n_records", "n_rejects")
    return [{k: r[k] for k in keep} | {"parsed": bool(r["parsed_at"])}
            for r in Ledger(Storage(data / "warehouse")).items()]


def test_runner_follows_settings(monkeypatch):
    from prefect.task_runners import ThreadPoolTaskRunner
    from prefect_dask import DaskTaskRunner

    assert isinstance(ConfiguredTaskRunner().duplicate(), ThreadPoolTaskRunner)
    monkeypatch.setenv("PF_TASK_RUNNER", "dask")
    monkeypatch.setenv("PF_DASK_WORKERS", "3")
    runner = ConfiguredTaskRunner().duplicate()
    assert isinstance(runner, DaskTaskRunner) and runner.cluster_kwargs["n_workers"] == 3
    monkeypatch.setenv("PF_DASK_ADDRESS", "tcp://10.0.0.5:8786")
    assert ConfiguredTaskRunner().duplicate().address == "tcp://10.0.0.5:8786"


def test_dask_ingest_matches_thread_runner(tmp_path: Path):
    world = tmp_path / "world"
    generate_world(world, 150, 5, WorldSpec(150, 5, renderers=("uspto",), render_from="2020-01-01"))
    dask = task_runner(Settings(task_runner="dask", dask_workers=2, dask_processes=True))
    with Replica(world) as rep:
        args = (rep.base_url, date(2000, 1, 1), date(2100, 1, 1))
        threads = ingest_uspto(str(tmp_path / "threads"), *args)
        on_dask = ingest_uspto.with_options(task_runner=dask)(str(tmp_path / "dask"), *args)
        again = ingest_uspto.with_options(task_runner=dask)(str(tmp_path / "dask"), *args)
    assert threads["files"] > 2 and threads["records"]["publications"] > 0, threads
    assert on_dask == threads
    left, right = _warehouse(tmp_path / "threads"), _warehouse(tmp_path / "dask")
    for table in TABLES:
        assert left[table].equals(right[table]), table
    assert _ledger(tmp_path / "dask") == _ledger(tmp_path / "threads")
    assert all(r["parsed"] for r in _ledger(tmp_path / "dask"))
    assert again["skipped"] == again["files"] == threads["files"], "the flow's ledger writes are complete"
