"""A Dask worker process killed mid-run (as the OOM killer or a lost node would) costs only its tasks.

`ingest-uspto` runs on a local cluster of 2 worker processes (behind nannies, as `dask worker` runs them);
as soon as a parse task is running on a worker, that worker's process gets SIGKILL. The scheduler reruns its
tasks elsewhere, the flow finishes with every weekly file parsed, and the warehouse, the ledger and the
IPBench version published from it are byte for byte those of an undisturbed thread-runner run.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from flows.ingest_uspto import ingest_uspto
from flows.runtime import api_url, task_runner
from patentfactory.config import Settings
from patentfactory.sim.generator import WorldSpec, generate_world
from patentfactory.sim.upstream import Replica
from patentfactory.stages.build_ipbench import build_and_publish_ipbench
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse

pytestmark = [pytest.mark.slow, pytest.mark.services]
TABLES = ("publications", "claims", "descriptions", "citations", "rejects")


def _kill_first_busy_worker(client, killed: list) -> None:
    """SIGKILL the process of the first worker seen running a task (after it had a moment to start)."""
    deadline = time.monotonic() + 300
    while not killed and time.monotonic() < deadline:
        for addr, keys in client.processing().items():
            if keys:
                pid = client.run(os.getpid, workers=[addr])[addr]
                time.sleep(0.3)
                os.kill(pid, signal.SIGKILL)
                killed.append((addr, keys))
                return
        time.sleep(0.05)


def _tables(data: Path) -> dict[str, pl.DataFrame]:
    wh = Warehouse(Storage(data / "warehouse"))
    return {t: (lambda df: df.sort(df.columns) if df.height else df)(wh.frame(t)) for t in TABLES}


def _ledger(data: Path) -> list[tuple]:
    return [(r["source"], r["item"], r["sha256"], r["parser_version"], r["n_records"], bool(r["parsed_at"]))
            for r in Ledger(Storage(data / "warehouse")).items()]


def _published(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


def test_killed_worker_costs_only_its_tasks(tmp_path: Path):
    from distributed import Client, LocalCluster

    world = tmp_path / "world"
    generate_world(world, 200, 5, WorldSpec(200, 5, renderers=("uspto",), render_from="2019-01-01"))
    n_files = len(list(world.rglob("*.zip")))
    with Replica(world) as rep:
        args = (rep.base_url, date(2000, 1, 1), date(2100, 1, 1))
        calm = ingest_uspto(str(tmp_path / "calm"), *args)
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          env={"PREFECT_API_URL": api_url()}) as cluster, Client(cluster) as client:
            killed: list = []
            killer = threading.Thread(target=_kill_first_busy_worker, args=(client, killed), daemon=True)
            killer.start()
            dask = task_runner(Settings(task_runner="dask", dask_address=cluster.scheduler_address))
            hit = ingest_uspto.with_options(task_runner=dask)(str(tmp_path / "hit"), *args)
            killer.join(timeout=1)
    assert killed, "no worker was killed: the run finished before any task was seen running"
    assert hit == calm and hit["files"] == n_files and hit["failed"] == 0, hit
    calm_tables, hit_tables = _tables(tmp_path / "calm"), _tables(tmp_path / "hit")
    for table in TABLES:
        assert hit_tables[table].equals(calm_tables[table]), table
    assert _ledger(tmp_path / "hit") == _ledger(tmp_path / "calm")
    for run in ("calm", "hit"):
        build_and_publish_ipbench(tmp_path / run, str(tmp_path / run / "published"), seed=3)
    calm_pub, hit_pub = _published(tmp_path / "calm" / "published"), _published(tmp_path / "hit" / "published")
    assert calm_pub and hit_pub == calm_pub
