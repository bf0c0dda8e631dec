"""Flow `build-ipbench`: the data-derived IPBench tasks from the warehouse -> a verified version."""
from __future__ import annotations

from prefect import flow

from flows.build_patenteb import verify_task
from flows.observe import published_counts, read_manifest
from flows.outcomes import expected_outcomes, is_outcome, outcome_state
from flows.preflight import missing_inputs
from flows.runtime import stage_limits
from flows.tasks import task
from patentfactory.config import Settings
from patentfactory.stages.build_ipbench import build_and_publish_ipbench
from patentfactory.store.publish_options import PublishOptions


@task(name="build-and-publish-ipbench")
@expected_outcomes
def build_task(data_dir: str, out: str, seed: int, max_items: int, publish_options: PublishOptions) -> dict:
    pub = build_and_publish_ipbench(data_dir, out, seed=seed, max_items=max_items,
                                    publish_options=publish_options)
    manifest = read_manifest(out, pub.dataset, pub.version)
    stats = manifest["stats"]
    published_counts("build-ipbench", manifest, records_in=stats["english_publications"],
                     records_out=sum(stats["items"].values()), rejected=None, unit="publications -> items",
                     items=stats["items"], empty_tasks=stats["empty_tasks"])
    return {"dataset": pub.dataset, "version": pub.version, "path": pub.path, "created": pub.created}


@flow(name="build-ipbench")
def build_ipbench(data_dir: str | None = None, out: str | None = None, seed: int = 1337, max_items: int = 1000,
                  allow_drop: bool = False, allow_drift: bool = False) -> dict:
    settings = Settings.load()
    data_dir, out = settings.roots(data_dir, out)
    if (missing := missing_inputs(data_dir, "build-ipbench", ("publications",))) is not None:
        return missing
    with stage_limits(settings):
        pub = build_task(data_dir, out, seed, max_items,
                         PublishOptions.from_settings(settings, allow_drop, allow_drift))
    if is_outcome(pub):
        return outcome_state(pub)
    return verify_task(out, pub["dataset"], pub["version"]) | {"created": pub["created"]}
