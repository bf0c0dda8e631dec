"""Flow `nightly`: world -> local replicas (HTTP + SPARQL) -> ingest -> build every dataset -> publish -> verify.

Offline by default: the sample (or a generated) world is served by the local replica under the
real services' paths, so the same clients run as against the live services; only base URLs and
credentials differ (the replica accepts any credentials).
The USPTO weekly files are parsed in parallel on the configured task runner (flows/runtime.py:
threads by default, Dask with PF_TASK_RUNNER=dask); every task logs its counts (flows/observe.py).
`sources=live` (deployment `nightly/production`) runs the same builds on the live services named by the
settings, incrementally (flows/nightly_live.py); each night ends with one line per dataset.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from prefect import flow, get_run_logger
from prefect.states import State

from flows.tasks import task
from patentfactory.config import Settings
from patentfactory.datasets import NAMES
from patentfactory.errors import NothingToPublish, QualityGateBlocked, SourceStopped
from patentfactory.evaluation.report import kept_summary
from patentfactory.sim.upstream import Replica
from patentfactory.sim.upstream.sparql import sparql_replica
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage

from .build_ipbench import build_ipbench
from .build_pap2pat import build_pap2pat
from .build_pilot import build_pilot
from .evaluate import evaluate
from .build_patenteb import build_patenteb
from .build_patentcr import build_patentcr
from .ingest_lens import ingest_lens_task
from .ingest_ptab import ingest_ptab_decisions
from .ingest_uspto import ingest_weekly_files
from .nightly_live import defer_stopped, ingest_live, plan_task, summary_lines, verdict
from .outcomes import OUTCOME_NAMES
from .runtime import ConfiguredTaskRunner, stage_limits

SAMPLE_WORLD = Path(__file__).resolve().parents[1] / "data" / "sample"


@task(name="prepare-world")
def prepare_world(scale: str, seed: int, data_dir: str) -> str:
    if scale == "sample":
        return str(SAMPLE_WORLD)
    from patentfactory.sim.generator import generate_world

    world = Path(data_dir) / "world"
    generate_world(world, int(scale), seed)
    return str(world)


def lens_files(world: str) -> list[str]:
    return [str(p) for p in sorted((Path(world) / "lens").glob("*.jsonl"))]


def _outcome(name: str, state: State, failed: dict[str, str], deferred: dict[str, str],
             blocked: dict[str, str], skipped: dict[str, str] | None = None) -> dict | None:
    """A dataset that cannot be built must not stop the others: its result, or None with the reason kept.

    NothingToPublish (e.g. no pairs matched in a small world) is a skip, kept with its why; SourceStopped
    (OPS said stop) a deferral the next run resumes; QualityGateBlocked (rows lost or a column degraded) a
    block: the previous version stays LATEST until someone looks (or passes allow_drift / allow_drop);
    anything else is a failure. The night's final state says which happened (see `verdict`).
    """
    if state.is_completed() and state.name in OUTCOME_NAMES:  # an expected outcome, as a state (flows/outcomes.py)
        into = {"Skipped": skipped, "Blocked": blocked, "Deferred": deferred}[state.name]
        if into is not None:
            into[name] = state.message
        get_run_logger().warning("%s %s: %s", name, state.name.lower(), state.message)
        return None
    if state.is_completed():
        return state.result()
    exc = state.result(raise_on_failure=False)
    if isinstance(exc, NothingToPublish):
        get_run_logger().warning("%s skipped: %s", name, exc)
        if skipped is not None:
            skipped[name] = exc.message
    elif isinstance(exc, QualityGateBlocked):
        get_run_logger().warning("%s blocked by the quality gate (the previous version stays LATEST): %s", name, exc)
        blocked[name] = str(exc)
    elif isinstance(exc, SourceStopped):
        get_run_logger().warning("%s deferred (the previous version stays LATEST): %s", name, exc)
        deferred[name] = str(exc)
    else:
        get_run_logger().error("%s failed: %s", name, state.message)
        failed[name] = str(exc) if isinstance(exc, BaseException) else str(state.message)
    return None


def _ingest_replica(world: str, data_dir: str, out: str, seed: int, faults: str, outcome: Callable,
                    failed: dict[str, str], deferred: dict[str, str],
                    options: PublishOptions, ptab_batch: int, ops_rate_scale: float = 1.0) -> dict:
    """Replica mode: the world served locally under the real services' paths, the same clients as live.
    `ptab_batch`: decision PDFs per read task (the night's PF_PTAB_BATCH); `ops_rate_scale`: PF_REPLICA__*'s."""
    log = get_run_logger()
    with Replica(world, faults=faults, ops_rate_scale=ops_rate_scale) as rep:
        log.info("upstream replica of %s at %s", world, rep.base_url)
        uspto = ingest_weekly_files(data_dir, rep.base_url, date(1976, 1, 1), date(2100, 1, 1), "replica-key")
        lens = ingest_lens_task(data_dir, lens_files(world))
        patentcr = outcome("patentcr", build_patentcr(data_dir=data_dir, out=out, ops_url=rep.base_url + "/3.2",
                                                      **options.overrides(), return_state=True), failed, deferred)
        ptab = ingest_ptab_decisions(data_dir, rep.base_url, date(2006, 1, 1), date(2100, 1, 1), "replica-key",
                                     ptab_batch)
        injected = {kind: n for kind, n in sorted(rep.faults.injected.items()) if n}
    if faults:
        log.warning("replica faults injected: %s", injected)
    quads = sorted(str(p) for p in (Path(world) / "semopenalex").glob("*.nq"))
    # SemOpenAlex is a SPARQL service: a real triple store stands in; the HTTP replica serves the papers' full texts
    with sparql_replica(quads) as sparql, Replica(world) as papers:
        log.info("SPARQL replica of %s at %s", world, sparql)
        pap2pat = outcome("pap2pat", build_pap2pat(data_dir=data_dir, out=out, endpoint=sparql, seed=seed,
                                                   **options.overrides(), fulltext_via=papers.base_url,
                                                   return_state=True), failed, deferred)
    return {"uspto": uspto, "lens": lens, "ptab": ptab, "patentcr": patentcr, "pap2pat": pap2pat,
            "faults_injected": injected}


def evaluate_night(name: str, out: str, pub: dict, data_dir: str) -> dict:
    """A new version is scored; one the night left LATEST keeps its whole earlier report (same bytes, same
    scores), so a quiet night loads no model. `pf eval` scores any version again on demand."""
    if not pub.get("created", True):
        kept = kept_summary(Storage(out), name, pub["version"])
        if kept is not None:
            get_run_logger().info("eval %s %s: kept the report of an earlier night", name, pub["version"])
            return kept
    return evaluate(dataset=name, root=out, version=pub["version"], data_dir=data_dir)


@flow(name="nightly", task_runner=ConfiguredTaskRunner())
def nightly(scale: str = "sample", data_dir: str | None = None, out: str | None = None, seed: int = 1337,
            faults: str = "", sources: str = "replica", plan_only: bool = False, profile: str | None = None,
            allow_drift: bool = False, allow_drop: bool = False) -> dict | State:
    """`faults`: a fault spec for the HTTP replica (`patentfactory.sim.upstream.faults`, e.g. `503=0.1,seed=7`),
    to rehearse a night of flaky services; what was injected comes back under `faults_injected`.
    `sources=live`: the services of the settings (flows/nightly_live.py), incrementally; `plan_only` (live)
    lists what would be fetched and returns. `profile`: PatenTEB thresholds (unset: PF_PROFILE, else by scale;
    live: full; Settings.patenteb_profile).
    `data_dir`/`out` unset: PF_PATHS__DATA_DIR (default data) / PF_PATHS__PUBLISHED_ROOT (default <data>/published),
    read when the run starts, so a deployment takes them from its worker's environment.
    `allow_drift` / `allow_drop`: publish even where the quality gate sees a column degrade / rows drop (recorded
    in each manifest); a dataset the gate refuses is reported as blocked, the others publish.

    The run ends with one line per dataset (`summary`) and a final state that tells the night apart:
    Completed when every dataset published, had nothing new or was skipped with its why;
    Completed(name="Blocked") / Completed(name="Deferred") when the quality gate refused one / a source was
    stopped; Failed when a dataset failed. The result dict rides on every one of them."""
    settings = Settings.load()
    data_dir, out = settings.roots(data_dir, out)
    if sources not in ("replica", "live"):
        raise ValueError(f"sources must be replica or live, not {sources!r}")
    if profile not in (None, "", "sample", "full"):
        raise ValueError(f"profile must be sample or full, not {profile!r}")
    if plan_only:
        return {"plan": plan_task(data_dir)}
    options = PublishOptions(allow_drop=allow_drop, allow_drift=allow_drift)
    failed: dict[str, str] = {}
    deferred: dict[str, str] = {}
    blocked: dict[str, str] = {}
    skipped: dict[str, str] = {}

    def outcome(name: str, state: State, failed_: dict[str, str], deferred_: dict[str, str]) -> dict | None:
        return _outcome(name, state, failed_, deferred_, blocked, skipped)

    if sources == "live":
        truth, profile = None, settings.patenteb_profile(profile)
        with stage_limits(settings):  # the ingests run here; each build flow sets its own
            ingested = ingest_live(settings, data_dir, out, seed, outcome, failed, deferred, options)
    else:
        world = prepare_world(scale, seed, data_dir)
        truth = str(Path(world) / "truth" / "ptab_opinions.parquet")
        profile = settings.patenteb_profile(profile, scale)
        with stage_limits(settings):
            ingested = _ingest_replica(world, data_dir, out, seed, faults, outcome, failed, deferred, options,
                                       settings.ptab_batch, settings.replica.ops_rate_scale)
    patentcr, pap2pat = ingested["patentcr"], ingested["pap2pat"]
    gate = options.overrides()
    patenteb = outcome("patenteb", build_patenteb(data_dir=data_dir, out=out, seed=seed, profile=profile,
                                                  **gate, return_state=True), failed, deferred)
    ipbench = outcome("ipbench", build_ipbench(data_dir=data_dir, out=out, seed=seed, **gate,
                                               return_state=True), failed, deferred)
    pilot = outcome("pilot", build_pilot(data_dir=data_dir, out=out, seed=seed, return_state=True, **gate,
                                         truth=truth), failed, deferred)
    built = {"patenteb": patenteb, "pilot": pilot, "patentcr": patentcr, "pap2pat": pap2pat, "ipbench": ipbench}
    evals = {name: evaluate_night(name, out, built[name], data_dir) for name in NAMES if built.get(name)}
    defer_stopped(failed, deferred)
    result = {**ingested, "patenteb": patenteb, "ipbench": ipbench, "pilot": pilot, "eval": evals,
              "deferred": deferred, "blocked": blocked, "skipped": skipped, "failed": failed,
              "data_dir": data_dir, "out": out, "profile": profile, **gate}
    result["summary"] = summary_lines(result)
    for line in result["summary"]:
        get_run_logger().info(line)
    return verdict(result)
