"""Flow `ingest-uspto`: list the ODP weekly files of a date range, then fetch and parse each one.

Fetching stays in the flow's thread, one weekly file after another (ODP asks for one request at a time; a
file the ledger has parsed is not fetched again). Each fetched file is parsed by its own task submitted to
the configured task runner (flows/runtime.py: threads, or Dask workers), so parsing fans out and overlaps
the next download. Parse tasks write their own warehouse parts and their own ledger rows as each file is
done (the ledger takes appended parts, so concurrent writers never overwrite one another): a killed ingest
resumes where it stopped, and the next run neither downloads nor parses the finished files again. Once all
parses are in, the flow folds the ledger's appended parts into its base.
"""
from __future__ import annotations

from dataclasses import asdict
from datetime import date
from pathlib import Path

from prefect import flow

from common import progress
from flows.tasks import task
from patentfactory import stages
from patentfactory.config import Settings
from patentfactory.stages.ingest import IngestStats, Stores, bar_label, ingest_file
from patentfactory.stages.memory import MemoryLimits, current_limits, memory_limits
from patentfactory.store.ledger import Ledger
from patentfactory.store.rawcache import RawCache
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse

from .observe import ingest_counts
from .runtime import ConfiguredTaskRunner, stage_limits

SOURCE = "uspto_bulk"


def _staged_stores(data_dir: str) -> Stores:
    """A task's stores: its ledger rows are appended as each item is done (not held for the flow)."""
    root = Storage(data_dir)
    return Stores(Warehouse(root.sub("warehouse")), Ledger(root.sub("warehouse")), RawCache(root.sub("raw")))


@task(name="list-uspto-weekly-files", retries=2, retry_delay_seconds=30)
def list_task(base_url: str, start: date, end: date, api_key: str | None) -> list[dict]:
    return stages.list_uspto(base_url, start, end, api_key)


@task(name="fetch-uspto-weekly-file", retries=2, retry_delay_seconds=30, task_run_name="fetch-{bulk_file[name]}")
def fetch_file_task(data_dir: str, base_url: str, bulk_file: dict, api_key: str | None) -> str | None:
    """The local path of the downloaded file; None when the ledger has it parsed (same size, same parser)."""
    path = stages.fetch_uspto_file(data_dir, base_url, bulk_file, api_key)
    return None if path is None else str(path)


@task(name="parse-uspto-weekly-file", task_run_name="parse-{path}")
def parse_file_task(data_dir: str, path: str, limits: MemoryLimits) -> dict:
    """Raw cache, warehouse parts and ledger row of one weekly file; returns its stats and its ledger row.
    `limits`: the flow's memory limits (the task may run in a Dask worker's process)."""
    from sources.uspto_bulk import parse_file

    stores, stats = _staged_stores(data_dir), IngestStats(SOURCE)
    with memory_limits(limits):
        ingest_file(stores, SOURCE, Path(path), parse_file, stages.USPTO_PARSER_VERSION, stats)
    out = asdict(stats)
    ingest_counts("parse-uspto-weekly-file", out, file=Path(path).name)
    return {"stats": out, "ledger": stores.ledger.get(SOURCE, Path(path).name)}


@task(name="record-uspto-ledger")
def record_ledger_task(data_dir: str, rows: list[dict]) -> int:
    """The parse tasks recorded their rows as they went; fold the ledger's appended parts into its base."""
    Ledger(Storage(data_dir).sub("warehouse")).compact()
    return len(rows)


def ingest_weekly_files(data_dir: str, base_url: str, start: date, end: date, api_key: str | None) -> dict:
    """The fan-out body, for any flow (this one, the nightly): runs on the calling flow's task runner."""
    files = list_task(base_url, start, end, api_key)
    progress.expect(bar_label(SOURCE), len(files))
    skipped, futures = [], []
    for f in files:
        path = fetch_file_task(data_dir, base_url, f, api_key)
        if path is None:
            progress.advance(bar_label(SOURCE))
            skipped.append(asdict(IngestStats(SOURCE, files=1, skipped=1)))
        else:
            futures.append(parse_file_task.submit(data_dir, path, current_limits()))
    results = [fut.result(raise_on_failure=False) for fut in futures]
    done = [r for r in results if isinstance(r, dict)]
    record_ledger_task(data_dir, [d["ledger"] for d in done if d["ledger"]])
    for r in results:
        if isinstance(r, BaseException):
            raise r  # the first failed parse, once the finished ones are recorded
    total = stages.merge_stats(SOURCE, skipped + [d["stats"] for d in done])
    ingest_counts("ingest-uspto", total, listed=len(files))
    return total


@task(name="ingest-uspto-range")
def ingest_uspto_task(data_dir: str, base_url: str, start: date, end: date, api_key: str | None) -> dict:
    """Plain sequential ingest in one task (no fan-out), for callers that want a single task."""
    stats = stages.ingest_uspto(data_dir, base_url, start, end, api_key)
    ingest_counts("ingest-uspto-range", stats)
    return stats


@flow(name="ingest-uspto", task_runner=ConfiguredTaskRunner())
def ingest_uspto(data_dir: str | None = None, base_url: str | None = None,
                 start: date = date(2005, 1, 1), end: date | None = None) -> dict:
    """`data_dir` / `base_url` unset: PF_PATHS__DATA_DIR / PF_UPSTREAMS__ODP_BASE_URL, read when the run starts
    (as `ingest-ptab`); `end` unset: the day of the run, so the deployment keeps finding the new weeks."""
    settings = Settings.load()
    with stage_limits(settings):
        return ingest_weekly_files(settings.roots(data_dir, None)[0], base_url or settings.upstreams.odp_base_url,
                                   start, end or date.today(), settings.odp_api_key())
