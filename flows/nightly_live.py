"""The live half of `nightly` (sources=live): the services named by the settings, incrementally.

Nothing is generated and no replica started. Each source's window comes from the ledger
(patentfactory/stages/windows.py); a source whose credential is missing stops before any request with one
line naming the variable, and the others go on. A source that stays unreachable after its task's retries
is deferred with the reason: the datasets build from what the warehouse holds, so a night with nothing new
publishes identical versions (a no-op; LATEST unchanged) and nothing published is touched.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from prefect import get_run_logger

from flows.tasks import task
from patentfactory.config import Settings
from patentfactory.datasets import NAMES, REGISTRY
from patentfactory.stages.plan import missing_credential, plan_dicts, plan_live
from patentfactory.stages.windows import new_lens_exports, window
from patentfactory.store.ledger import Ledger
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage

from .build_pap2pat import build_pap2pat
from .build_patentcr import build_patentcr
from .ingest_lens import ingest_lens_task
from .ingest_ptab import ingest_ptab_decisions
from .ingest_uspto import ingest_weekly_files



@task(name="plan-live-night")
def plan_task(data_dir: str) -> list[dict]:
    """Listings only: per source what would be fetched and the limit bounding it."""
    plans = plan_dicts(plan_live(Settings.load(), data_dir, date.today()))
    for p in plans:
        get_run_logger().info("plan %s", p["line"])
    return plans


@task(name="list-lens-drop", retries=2, retry_delay_seconds=30)
def lens_drop_task(data_dir: str, location: str) -> list[str]:
    ledger = Ledger(Storage(data_dir).sub("warehouse"))
    return [str(p) for p in new_lens_exports(location, ledger, Path(data_dir) / "downloads" / "lens")]


def _stopped(source: str, why: str, deferred: dict[str, str]) -> None:
    get_run_logger().warning("%s stopped: %s", source, why)
    deferred[f"source:{source}"] = why


def _guarded(source: str, settings: Settings, deferred: dict[str, str], step: Callable[[], dict]) -> dict | None:
    """Run one source's ingest unless a credential is missing; after its retries, defer it with the reason."""
    why = missing_credential(settings, source)
    if why:
        _stopped(source, why, deferred)
        return None
    try:
        return step()
    except Exception as exc:  # noqa: BLE001 - an unreachable source defers itself, the others go on
        _stopped(source, f"unreachable after retries: {exc}", deferred)
        return None


def ingest_live(settings: Settings, data_dir: str, out: str, seed: int, outcome: Callable, failed: dict[str, str],
                deferred: dict[str, str], options: PublishOptions = PublishOptions()) -> dict:
    """Ingest every live source's new items, then Patent-CR (OPS) and Pap2Pat (SPARQL) as in replica mode.
    `settings`: the night's (its upstreams, credentials, windows and PTAB batch)."""
    today = date.today()
    ledger = Ledger(Storage(data_dir).sub("warehouse"))
    odp, key = settings.upstreams.odp_base_url, settings.odp_api_key()
    wu, wp = (window(ledger, src, today, settings.since, settings.lookback_days(src)) for src in ("uspto_bulk", "ptab_odp"))
    get_run_logger().info("live windows: %s; %s", wu.describe(), wp.describe())
    uspto = _guarded("uspto_bulk", settings, deferred,
                     lambda: ingest_weekly_files(data_dir, odp, wu.start, wu.end, key))
    lens = _guarded("lens", settings, deferred, lambda: ingest_lens_task(
        data_dir, lens_drop_task(data_dir, settings.upstreams.lens_exports or "")))
    ptab = _guarded("ptab_odp", settings, deferred, lambda: ingest_ptab_decisions(data_dir, odp, wp.start, wp.end, key,
                                                                             settings.ptab_batch))
    patentcr = None
    if (why := missing_credential(settings, "ops")) is not None:
        deferred["patentcr"] = why
        get_run_logger().warning("patentcr deferred: %s", why)
    else:
        patentcr = outcome("patentcr", build_patentcr(data_dir=data_dir, out=out, ops_url=settings.upstreams.ops_base_url,
                                                      **options.overrides(), return_state=True), failed, deferred)
    pap2pat = outcome("pap2pat", build_pap2pat(data_dir=data_dir, out=out, endpoint=settings.upstreams.sparql_endpoint,
                                               seed=seed, **options.overrides(),
                                               fulltext_via=settings.upstreams.fulltext_via,
                                               return_state=True), failed, deferred)
    return {"uspto": uspto, "lens": lens, "ptab": ptab, "patentcr": patentcr, "pap2pat": pap2pat,
            "windows": {w.source: [str(w.start), str(w.end)] for w in (wu, wp)}, "faults_injected": {}}


def defer_stopped(failed: dict[str, str], deferred: dict[str, str]) -> None:
    """Move a failed dataset to `deferred` when a source it needs was stopped this night (live mode only)."""
    for name in list(failed):
        # a dataset that cannot be built while a live source it needs (its registry entry) was stopped (missing
        # credential, unreachable) is deferred with that reason, not failed
        needs = REGISTRY[name].needs if name in REGISTRY else ()
        stops = [deferred[f"source:{src}"] for src in needs if f"source:{src}" in deferred]
        if stops:
            deferred[name] = f"{stops[0]} (then: {failed.pop(name)})"
            get_run_logger().warning("%s deferred: %s", name, deferred[name])


def summary_lines(result: dict) -> list[str]:
    """One line per dataset, what an on-call engineer reads first: published, nothing new (same version,
    LATEST unchanged), skipped (with why), deferred, blocked or failed; then one line per stopped source."""
    lines = []
    for name in NAMES:
        pub = result.get(name)
        if pub is None:
            for status in ("failed", "blocked", "deferred", "skipped"):
                why = result.get(status, {}).get(name)
                if why:
                    lines.append(f"{name}: {status} ({why})")
                    break
            else:
                lines.append(f"{name}: skipped (nothing to publish)")
        elif pub.get("created", True):
            lines.append(f"{name}: published {pub['version']}")
        else:
            lines.append(f"{name}: nothing new; {pub['version']} stays LATEST")
    for key, why in sorted(result.get("deferred", {}).items()):
        if key.startswith("source:"):
            lines.append(f"source {key.removeprefix('source:')}: stopped ({why})")
    return lines


EXIT_CODES = {"Completed": 0, "Failed": 1, "Blocked": 3, "Deferred": 4}


def night_status(result: dict) -> str:
    """The night in one word, worst first: Failed, Blocked, Deferred, else Completed."""
    if result.get("failed"):
        return "Failed"
    if result.get("blocked"):
        return "Blocked"
    if result.get("deferred"):
        return "Deferred"
    return "Completed"


def verdict(result: dict):  # noqa: ANN201 - the flow's final State
    """The flow's final state: a named Completed / Failed state carrying the result, so the Prefect UI and
    `prefect flow-run ls` tell a blocked or deferred night from a clean one (`pf run` exits by EXIT_CODES)."""
    from prefect.states import Completed, Failed

    status = night_status(result)
    result["status"] = status
    message = "; ".join(line for line in result["summary"] if not line.split(": ", 1)[1].startswith(
        ("published", "nothing new", "skipped")))
    if status == "Failed":
        return Failed(message=f"nightly: {message}", data=result)
    return Completed(name=status, message=message or "every dataset published or had nothing new", data=result)
