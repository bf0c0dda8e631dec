"""Flow `ingest-ptab`: ODP PTAB decisions (records + decision PDFs, OCR where needed) into the warehouse.

Same shape as `ingest-uspto`: the search pages and the PDF downloads stay in the flow's thread, one request
after another (ODP asks for one at a time; a decision the ledger has read is not downloaded again). The
downloaded PDFs are read (text layer, tesseract for scans: the expensive part) in batches of
`PF_PTAB_BATCH` decisions, each batch a task on the configured runner (threads, or Dask workers). A batch
writes its decisions' own warehouse parts and returns its ledger rows; the flow alone writes the ledger.
"""
from __future__ import annotations

from dataclasses import asdict
from datetime import date
from pathlib import Path

from prefect import flow

from flows.tasks import task
from patentfactory import stages
from patentfactory.config import Settings
from patentfactory.stages.ingest_ptab import (PtabIngestStats, fetch_pdf, merge_ptab_stats, ptab_downloads,
                                              read_pdf, search_decisions)
from patentfactory.stages.memory import MemoryLimits, current_limits, memory_budget

from .ingest_uspto import _staged_stores, record_ledger_task
from .observe import log_counts
from .runtime import ConfiguredTaskRunner, stage_limits


def _log(name: str, stats: dict) -> None:
    log_counts(name, records_in=stats["records"] + stats["rejects"], records_out=stats["records"],
               rejected=stats["rejects"], unit="decisions", pages=stats["pages"], pdfs=stats["pdfs"],
               skipped=stats["skipped"], origins=stats["origins"])


@task(name="read-ptab-pdfs", task_run_name="read-ptab-pdfs-{first}")
def read_batch_task(data_dir: str, batch: list[tuple[dict, str]], first: str, limits: MemoryLimits) -> dict:
    """Read one batch of downloaded decision PDFs; returns its stats and its (unsaved) ledger rows.
    `limits`: the flow's memory limits (the task may run in a Dask worker's process)."""
    stores, stats = _staged_stores(data_dir), PtabIngestStats()
    with memory_budget("ingest-ptab", limits):
        for row, path in batch:
            read_pdf(stores, row, Path(path), stats)
    ledger = [stores.ledger.get("ptab_pdf", row["decision_id"]) for row, _ in batch]
    return {"stats": asdict(stats), "ledger": [r for r in ledger if r]}


def ingest_ptab_decisions(data_dir: str, base_url: str, start: date, end: date, api_key: str | None,
                          batch_size: int) -> dict:
    """The fan-out body, for any flow (this one, the nightly): runs on the calling flow's task runner.
    `batch_size`: decision PDFs per read task (the flow's PF_PTAB_BATCH, or its own parameter)."""
    from sources.ptab import ptab_client

    stores, client, stats = stages.stores_for(data_dir), ptab_client(base_url, api_key), PtabIngestStats()
    futures, batch = [], []
    for row in search_decisions(stores, client, start, end, stats):
        path = fetch_pdf(stores, client, row, ptab_downloads(data_dir), stats)
        if path is not None:
            batch.append((row, str(path)))
        if len(batch) >= batch_size:
            futures.append(read_batch_task.submit(data_dir, batch, batch[0][0]["decision_id"], current_limits()))
            batch = []
    if batch:
        futures.append(read_batch_task.submit(data_dir, batch, batch[0][0]["decision_id"], current_limits()))
    results = [fut.result(raise_on_failure=False) for fut in futures]
    done = [r for r in results if isinstance(r, dict)]
    record_ledger_task(data_dir, [row for d in done for row in d["ledger"]])
    for r in results:
        if isinstance(r, BaseException):
            raise r  # the first failed batch, once the finished ones are recorded
    total = merge_ptab_stats([asdict(stats)] + [d["stats"] for d in done])
    _log("ingest-ptab", total)
    return total


@task(name="ingest-ptab-range", retries=2, retry_delay_seconds=30)
def ingest_ptab_task(data_dir: str, base_url: str, start: date, end: date, api_key: str | None) -> dict:
    """Plain sequential ingest in one task (no fan-out), for callers that want a single task."""
    from patentfactory.stages.ingest_ptab import ingest_ptab

    stats = ingest_ptab(data_dir, base_url, start, end, api_key)
    _log("ingest-ptab-range", stats)
    return stats


@flow(name="ingest-ptab", task_runner=ConfiguredTaskRunner())
def ingest_ptab(data_dir: str | None = None, base_url: str | None = None,
                start: date = date(2006, 1, 1), end: date = date(2100, 1, 1), batch_size: int | None = None) -> dict:
    """`data_dir` / `base_url` unset: PF_PATHS__DATA_DIR / PF_UPSTREAMS__ODP_BASE_URL."""
    settings = Settings.load()
    if start > end:
        raise ValueError(f"start {start} is after end {end}: swap them")
    with stage_limits(settings):
        return ingest_ptab_decisions(settings.roots(data_dir, None)[0], base_url or settings.upstreams.odp_base_url,
                                     start, end, settings.odp_api_key(), batch_size or settings.ptab_batch)
