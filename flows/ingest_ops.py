"""Flow `ingest-ops`: EPO OPS biblio + claims for a list of numbers or a CQL query."""
from __future__ import annotations

from prefect import flow

from flows.tasks import task
from patentfactory.stages.build_patentcr import ops_client_from_settings
from patentfactory.config import Settings
from patentfactory.stages.ingest_ops import Recheck, ingest_ops, search_numbers

from .observe import log_counts
from .runtime import stage_limits


@task(name="ingest-ops-documents", retries=2, retry_delay_seconds=60)
def ingest_ops_task(data_dir: str, base_url: str | None, numbers: list[str] | None, query: str | None) -> dict:
    """Credentials come from the environment via Settings (loaded once here), never from parameters."""
    settings = Settings.load()
    client = ops_client_from_settings(settings, base_url)
    docs = numbers if numbers else search_numbers(client, query or "")
    stats = ingest_ops(data_dir, client, docs, recheck=Recheck(settings.ops_404_recheck_days))
    done = stats["fetched"] + stats["skipped"]
    log_counts("ingest-ops-documents", records_in=done + stats["not_found"], records_out=done,
               rejected=stats["not_found"], unit="document x endpoint items", documents=stats["documents"],
               fetched=stats["fetched"], skipped=stats["skipped"], stopped=stats["stopped"], tables=stats["records"])
    return stats


@flow(name="ingest-ops")
def ingest_ops_flow(data_dir: str | None = None, base_url: str | None = None, numbers: list[str] | None = None,
                    query: str | None = None) -> dict:
    settings = Settings.load()
    with stage_limits(settings):
        return ingest_ops_task(settings.roots(data_dir, None)[0], base_url, numbers, query)
