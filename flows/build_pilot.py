"""Flow `build-pilot`: PILOT-Bench from the warehouse's PTAB decisions, published and verified."""
from __future__ import annotations

from prefect import flow

from flows.tasks import task
from patentfactory.stages.build_pilot import build_and_publish_pilot
from patentfactory.store.publish_options import PublishOptions

from .build_patenteb import verify_task
from .observe import published_counts, read_manifest
from .outcomes import expected_outcomes, is_outcome, outcome_state
from .preflight import missing_inputs
from .runtime import stage_limits
from patentfactory.config import LLMSettings, Settings


@task(name="build-and-publish-pilot")
@expected_outcomes
def build_pilot_task(data_dir: str, out: str, seed: int, truth: str | None, publish_options: PublishOptions,
                     llm: LLMSettings) -> dict:
    pub = build_and_publish_pilot(data_dir, out, seed=seed, truth=truth, publish_options=publish_options, llm=llm)
    manifest = read_manifest(out, pub.dataset, pub.version)
    stats = manifest["stats"]
    published_counts("build-pilot", manifest, records_in=stats["filters"]["input"],
                     records_out=stats["cases"], rejected=stats["filters"]["input"] - stats["cases"], unit="cases",
                     filters=stats["filters"])
    return {"dataset": pub.dataset, "version": pub.version, "path": pub.path, "created": pub.created}


@flow(name="build-pilot")
def build_pilot(data_dir: str | None = None, out: str | None = None, seed: int = 1337, truth: str | None = None,
                allow_drop: bool = False, allow_drift: bool = False) -> dict:
    """`truth`: the generator's `truth/ptab_opinions.parquet` (offline worlds) for the splitter's agreement."""
    settings = Settings.load()
    data_dir, out = settings.roots(data_dir, out)
    if (missing := missing_inputs(data_dir, "build-pilot", ("ptab_decisions",))) is not None:
        return missing
    with stage_limits(settings):
        pub = build_pilot_task(data_dir, out, seed, truth, PublishOptions.from_settings(settings, allow_drop,
                                                                                       allow_drift), settings.llm)
    if is_outcome(pub):
        return outcome_state(pub)
    return verify_task(out, pub["dataset"], pub["version"]) | {"created": pub["created"]}
