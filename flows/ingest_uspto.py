"""Flow `ingest-uspto`: weekly ODP bulk files for a date range into the warehouse."""
from __future__ import annotations

from datetime import date

from prefect import flow, task

from patentfactory import stages


@task(name="ingest-uspto-range", retries=2, retry_delay_seconds=30)
def ingest_uspto_task(data_dir: str, base_url: str, start: date, end: date, api_key: str | None) -> dict:
    return stages.ingest_uspto(data_dir, base_url, start, end, api_key)


@flow(name="ingest-uspto")
def ingest_uspto(data_dir: str = "data", base_url: str = "https://api.uspto.gov",
                 start: date = date(2005, 1, 1), end: date = date(2030, 1, 1)) -> dict:
    key = stages.default_settings().uspto_odp_api_key
    return ingest_uspto_task(data_dir, base_url, start, end, key.get_secret_value() if key else None)
