"""Flow `ingest-ptab`: ODP PTAB decisions (records + decision PDFs, OCR where needed) into the warehouse."""
from __future__ import annotations

from datetime import date

from prefect import flow, task

from patentfactory import stages

from .observe import log_counts


@task(name="ingest-ptab-range", retries=2, retry_delay_seconds=30)
def ingest_ptab_task(data_dir: str, base_url: str, start: date, end: date, api_key: str | None) -> dict:
    from patentfactory.stages.build_pilot import ingest_ptab

    stats = ingest_ptab(data_dir, base_url, start, end, api_key)
    log_counts("ingest-ptab-range", records_in=stats["records"] + stats["rejects"], records_out=stats["records"],
               rejected=stats["rejects"], unit="decisions", pages=stats["pages"], pdfs=stats["pdfs"],
               skipped=stats["skipped"], origins=stats["origins"])
    return stats


@flow(name="ingest-ptab")
def ingest_ptab(data_dir: str = "data", base_url: str = "https://api.uspto.gov",
                start: date = date(2006, 1, 1), end: date = date(2100, 1, 1)) -> dict:
    return ingest_ptab_task(data_dir, base_url, start, end, stages.default_settings().odp_api_key())
