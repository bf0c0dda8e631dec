"""Flow `build-pap2pat`: SemOpenAlex candidates for the warehouse's US applications -> verified Pap2Pat version."""
from __future__ import annotations

from datetime import date
from pathlib import Path

from prefect import flow

from flows.build_patenteb import verify_task
from flows.observe import log_counts, published_counts, read_manifest
from flows.outcomes import expected_outcomes, is_outcome, outcome_state
from flows.preflight import missing_inputs
from flows.runtime import stage_limits
from flows.tasks import task
from patentfactory.config import ArxivSettings, GrobidSettings, LLMSettings, Settings
from patentfactory.stages.build_pap2pat import Pap2PatParams, ingest_semopenalex, publish_pap2pat
from patentfactory.store.publish_options import PublishOptions
from transforms.tasks.pap2pat import SplitParams


@task(name="ingest-semopenalex", retries=2, retry_delay_seconds=60)
def ingest_task(data_dir: str, endpoint: str, params: Pap2PatParams, fulltext_via: str | None,
                sparql_concurrency: int, grobid: GrobidSettings, arxiv: ArxivSettings,
                parsed_cache: Path | None = None) -> dict:
    """Network task (retried); answers are cached by query hash, so a retry resends only what failed."""
    stats = ingest_semopenalex(data_dir, endpoint, params, fulltext_via=fulltext_via,
                               sparql_concurrency=sparql_concurrency, grobid=grobid, arxiv=arxiv,
                               parsed_cache=parsed_cache)
    log_counts("ingest-semopenalex", records_in=stats["names"], records_out=stats["papers"], rejected=stats["rejects"],
               unit="inventor names -> papers", queries=stats["queries"], cache_hits=stats["cache_hits"])
    return stats


@task(name="publish-pap2pat")
@expected_outcomes
def publish_task(data_dir: str, out: str, params: Pap2PatParams, ingest: dict, json_out: bool,
                 publish_options: PublishOptions, llm: LLMSettings) -> dict:
    pub = publish_pap2pat(data_dir, out, params, ingest, json_out=json_out, publish_options=publish_options, llm=llm)
    manifest = read_manifest(out, pub.dataset, pub.version)
    stats = manifest.get("stats", {}).get("build", {})
    published_counts("build-pap2pat", manifest, records_in=stats.get("applications"), records_out=stats.get("pairs"),
                     rejected=None, unit="applications -> pairs", splits=stats.get("splits"))
    return {"dataset": pub.dataset, "version": pub.version, "path": pub.path, "created": pub.created}


@flow(name="build-pap2pat")
def build_pap2pat(data_dir: str | None = None, out: str | None = None, endpoint: str | None = None,
                  seed: int = 1337, app_from: str = "2005-01-01", app_to: str = "2024-04-30", json_out: bool = False,
                  allow_drop: bool = False, allow_drift: bool = False, fulltext_via: str | None = None) -> dict:
    """`fulltext_via`: base URL of a mirror serving the papers' full texts; unset: PF_UPSTREAMS__FULLTEXT_VIA,
    else Europe PMC and the PDF links. `endpoint` unset: PF_UPSTREAMS__SPARQL_ENDPOINT."""
    settings = Settings.load()
    data_dir, out = settings.roots(data_dir, out)
    endpoint = endpoint or settings.upstreams.sparql_endpoint
    fulltext_via = fulltext_via or settings.upstreams.fulltext_via
    if (missing := missing_inputs(data_dir, "build-pap2pat", ("publications",))) is not None:
        return missing
    params = Pap2PatParams(app_from=date.fromisoformat(app_from), app_to=date.fromisoformat(app_to),
                           split=SplitParams(seed=seed))
    with stage_limits(settings):
        ingest = ingest_task(data_dir, endpoint, params, fulltext_via, settings.sparql_concurrency, settings.grobid,
                             settings.arxiv, settings.paths.parsed_cache)
        pub = publish_task(data_dir, out, params, ingest, json_out,
                           PublishOptions.from_settings(settings, allow_drop, allow_drift), settings.llm)
    if is_outcome(pub):
        return outcome_state(pub)
    return verify_task(out, pub["dataset"], pub["version"]) | {"created": pub["created"], "ingest": ingest}
