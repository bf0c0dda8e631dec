"""Flow `ingest-lens`: Lens CSV/JSONL exports into the warehouse."""
from __future__ import annotations

from prefect import flow

from flows.tasks import task
from patentfactory import stages

from .observe import ingest_counts
from .runtime import stage_limits


@task(name="ingest-lens-files")
def ingest_lens_task(data_dir: str, files: list[str]) -> dict:
    stats = stages.ingest_lens(data_dir, files)
    ingest_counts("ingest-lens-files", stats)
    return stats


@flow(name="ingest-lens")
def ingest_lens(files: list[str], data_dir: str | None = None) -> dict:
    from patentfactory.config import Settings

    settings = Settings.load()
    with stage_limits(settings):
        return ingest_lens_task(settings.roots(data_dir, None)[0], files)
