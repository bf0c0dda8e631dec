"""Flow `evaluate`: score a published dataset version with the baselines and write its report.

Wiring only: the task wraps `patentfactory.evaluation`; the report also becomes a Prefect artifact.
"""
from __future__ import annotations

from prefect import flow
from prefect.artifacts import create_markdown_artifact

from flows.tasks import task
from patentfactory.evaluation import evaluate_dataset, write_report
from patentfactory.evaluation.report import render_report, summary_of
from patentfactory.store.storage import Storage

from .observe import log_counts


@task(name="evaluate-dataset")
def evaluate_task(dataset: str, root: str, version: str | None, max_queries: int | None,
                  data_dir: str | None = None, embeddings: str | None = None) -> dict:
    """Score, write scores.parquet/report.md/scores.png, publish the report as an artifact; small summary out."""
    storage = Storage(root)
    result = evaluate_dataset(storage, dataset, version, max_queries=max_queries, data_dir=data_dir,
                              embeddings=embeddings)
    paths = write_report(storage, result)
    scored = {s.task for s in result.scores}
    log_counts("evaluate-dataset", records_in=len(scored) + len(result.skipped), records_out=len(scored),
               rejected=len(result.skipped), unit="tasks", dataset=dataset, version=result.version,
               scores=len(result.scores))
    create_markdown_artifact(key=f"{dataset}-eval", description=f"{dataset} {result.version} baselines",
                             markdown=render_report(result))
    return {**summary_of(result), "scores": paths.scores, "report": paths.report}


@flow(name="evaluate")
def evaluate(dataset: str, root: str | None = None, version: str | None = None,
             max_queries: int | None = None, data_dir: str | None = None) -> dict:
    """Evaluate one published version (default LATEST) of `dataset` under `root` (unset: the publish root of
    the settings, PF_PATHS__PUBLISHED_ROOT or <PF_PATHS__DATA_DIR>/published). `data_dir`: whose embedding cache
    PatenTEB's encoder reads and fills (unset: PF_PATHS__DATA_DIR; PF_PATHS__EMBEDDING_CACHE, when set, wins), as
    `pf eval` does."""
    from patentfactory.config import Settings

    settings = Settings.load()
    data_dir, root = settings.roots(data_dir, root)
    return evaluate_task(dataset, root, version, max_queries, data_dir, settings.paths.embedding_cache)
