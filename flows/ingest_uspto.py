"""Flow `ingest-uspto`: list the ODP weekly files of a date range, then one task per weekly file.

Each weekly file is its own task (retried on its own), run one after another: ODP asks for one
request at a time, and the ledger is updated by one writer.
"""
from __future__ import annotations

from datetime import date

from prefect import flow, task

from patentfactory import stages


@task(name="list-uspto-weekly-files", retries=2, retry_delay_seconds=30)
def list_task(base_url: str, start: date, end: date, api_key: str | None) -> list[dict]:
    return stages.list_uspto(base_url, start, end, api_key)


@task(name="ingest-uspto-weekly-file", retries=2, retry_delay_seconds=30, task_run_name="ingest-{bulk_file[name]}")
def ingest_file_task(data_dir: str, base_url: str, bulk_file: dict, api_key: str | None) -> dict:
    return stages.ingest_uspto_file(data_dir, base_url, bulk_file, api_key)


@task(name="ingest-uspto-range")
def ingest_uspto_task(data_dir: str, base_url: str, start: date, end: date, api_key: str | None) -> dict:
    """Plain sequential mapping for callers inside another flow (the nightly)."""
    return stages.ingest_uspto(data_dir, base_url, start, end, api_key)


@flow(name="ingest-uspto")
def ingest_uspto(data_dir: str = "data", base_url: str = "https://api.uspto.gov",
                 start: date = date(2005, 1, 1), end: date = date(2030, 1, 1)) -> dict:
    key = stages.default_settings().odp_api_key()
    files = list_task(base_url, start, end, key)
    parts = [ingest_file_task(data_dir, base_url, f, key) for f in files]
    return stages.merge_stats("uspto_bulk", parts)
