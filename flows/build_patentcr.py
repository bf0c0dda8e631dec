"""Flow `build-patentcr`: EP claim revisions from OPS (live or the replica) -> verified Patent-CR version."""
from __future__ import annotations

from datetime import date

from prefect import flow
from prefect.states import State

from flows.build_patenteb import verify_task
from flows.observe import log_counts, published_counts, read_manifest
from flows.outcomes import expected_outcomes, is_outcome, outcome_state
from flows.runtime import stage_limits
from flows.tasks import task
from patentfactory.errors import SourceStopped
from patentfactory.stages.build_patentcr import (PatentCRParams, fetch_claim_revisions, ops_client_from_settings,
                                            publish_patentcr)
from patentfactory.store.publish_options import PublishOptions


def _params(start: str, end: str, test_months: list[int], cql_template: str | None, window_days: int) -> PatentCRParams:
    base = PatentCRParams(start=date.fromisoformat(start), end=date.fromisoformat(end),
                          test_months=tuple(test_months), window_days=window_days)
    return PatentCRParams(**{**base.__dict__, "cql_template": cql_template}) if cql_template else base


def retry_unless_stopped(task: object, task_run: object, state: State) -> bool:
    """Retry network failures, but not OPS saying stop (black/quota): retrying then only spends quota."""
    return not isinstance(state.result(raise_on_failure=False), SourceStopped)


@task(name="fetch-claim-revisions", retries=2, retry_delay_seconds=60, retry_condition_fn=retry_unless_stopped)
@expected_outcomes
def fetch_task(data_dir: str, ops_url: str | None, params: PatentCRParams) -> dict:
    """Network task (retried): credentials come from the environment via Settings, never from parameters."""
    from patentfactory.config import Settings

    from patentfactory.stages.ingest_ops import Recheck

    settings = Settings.load()
    stats = fetch_claim_revisions(data_dir, ops_client_from_settings(settings, ops_url), params,
                                  Recheck(settings.ops_404_recheck_days), settings.ops_concurrency)
    log_counts("fetch-claim-revisions", records_in=stats["grants"], records_out=stats["pairs"],
               rejected=sum(stats["dropped"].values()), unit="grants -> pairs", search_hits=stats["search_hits"],
               not_b1=stats["not_b1"], out_of_range=stats["out_of_range"], ops_404=stats["ops_404"],
               dropped=stats["dropped"])
    return stats


@task(name="publish-patentcr")
@expected_outcomes
def publish_task(data_dir: str, out: str, stats: dict, params: PatentCRParams, publish_options: PublishOptions) -> dict:
    pub = publish_patentcr(data_dir, out, stats, params, publish_options=publish_options)
    published_counts("publish-patentcr", read_manifest(out, pub.dataset, pub.version), records_in=stats["pairs"],
                     records_out=stats["pairs"], rejected=0, unit="pairs")
    return {"dataset": pub.dataset, "version": pub.version, "path": pub.path, "created": pub.created}


@flow(name="build-patentcr")
def build_patentcr(data_dir: str | None = None, out: str | None = None, ops_url: str | None = None,
                   start: str = "2024-01-01", end: str = "2024-06-30", test_months: list[int] | None = None,
                   cql_template: str | None = None, window_days: int = 7, allow_drop: bool = False, allow_drift: bool = False) -> dict:
    from patentfactory.config import Settings

    settings = Settings.load()
    data_dir, out = settings.roots(data_dir, out)  # unset: PF_PATHS__DATA_DIR / PF_PATHS__PUBLISHED_ROOT
    params = _params(start, end, test_months or [6], cql_template, window_days)
    stats = fetch_task(data_dir, ops_url, params)
    if is_outcome(stats):  # OPS said stop: deferred, the next run resumes
        return outcome_state(stats)
    with stage_limits(settings):
        pub = publish_task(data_dir, out, stats, params,
                           PublishOptions.from_settings(settings, allow_drop, allow_drift))
    if is_outcome(pub):
        return outcome_state(pub)
    return verify_task(out, pub["dataset"], pub["version"]) | {"created": pub["created"], "stats": stats}
