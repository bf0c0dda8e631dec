"""`nightly/production` as a team runs it, black-box: `pf upstream serve` (a separate process, serving a small
generated world) stands in for the real services through the live settings only; the deployment is registered on
a local Prefect server and run three times by `prefect deployment run` + a process worker:
1. every dataset publishes and verifies; 2. nothing new upstream: only listings, no new version, LATEST kept;
3. one new weekly file, PTAB decision and Lens export appear upstream: exactly those are fetched and parsed.

The three nights run once for the module (`production`); the live night's own figures (the plan, what the first
night fetched, what the quiet second night skipped) are read from the same two nights' flow-run results, read back
through the API (the flow result is persisted, task results are not, so nothing is cached between nights). They
were a second pair of whole live nights in-process before (tests/flows/test_nightly_live.py), ~3 min of the suite.
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from uuid import UUID

import pytest

from patentfactory.sim.generator.additions import add_night
from patentfactory.sim.upstream.process import served
from patentfactory.sim.upstream.sparql import sparql_replica
from patentfactory.store.inspect import inspect_version
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from tests.flows.deployments import DEPLOYMENTS, POOL, prefect_cli

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.services, pytest.mark.xdist_group(DEPLOYMENTS)]
DATASETS = ("patenteb", "patentcr", "ipbench", "pilot", "pap2pat")
# The flow's result is kept (read back by the tests), task results are not: no task is served from a cache.
KEEP_FLOW_RESULT = {"PREFECT_RESULTS_PERSIST_BY_DEFAULT": "true", "PREFECT_TASKS_DEFAULT_PERSIST_RESULT": "false"}


@dataclass
class Night:
    result: dict  # what the flow returned, read back from the API
    log: str  # the worker's output and the run's logs
    fetched: dict[tuple[str, str], str]  # _fetched after the night
    latest: dict[str, str]  # every dataset's LATEST after the night


@dataclass
class Production:
    world: Path
    data: Path
    out: Path
    plan: list[dict]  # `nightly(sources="live", plan_only=True)` before the first night, in-process
    zips_before: int  # weekly files upstream before the first night
    plan_downloaded: bool  # whether the plan left data/downloads behind
    nights: list[Night]
    lens_rows_after_second: list[dict]
    added: object  # add_night's additions, upstream before the third night


def _flow_result(env: dict, run_id: str) -> dict:
    """The flow's return value, from the API the deployment ran on (the session's, or tests/flows/deployments.py's
    own where a developer's server is set)."""
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings({PREFECT_API_URL: env["PREFECT_API_URL"]}), get_client(sync_client=True) as client:
        return client.read_flow_run(UUID(run_id)).state.result()


def _night(env: dict, data: Path, out: Path) -> Night:
    run_out = prefect_cli(env, "deployment", "run", "nightly/production", "--param", "profile=sample",
                          "--param", "seed=7")
    match = re.search(r"UUID:\s*([0-9a-f-]{36})", run_out)
    assert match, run_out
    worker = prefect_cli(env, "worker", "start", "--pool", POOL, "--run-once", timeout=900)
    state = prefect_cli(env, "flow-run", "inspect", match.group(1))
    assert "COMPLETED" in state, worker[-3000:]
    log = worker + prefect_cli(env, "flow-run", "logs", match.group(1))
    return Night(_flow_result(env, match.group(1)), log, _fetched(data / "warehouse"),
                 {n: (out / n / "LATEST").read_text() for n in DATASETS})


def _fetched(ledger_root: Path) -> dict[tuple[str, str], str]:
    """fetched_at of the night's items (weekly files, Lens exports, PTAB PDFs); OPS/PTAB searches are listings."""
    return {(r["source"], r["item"]): r["fetched_at"] for r in Ledger(Storage(ledger_root)).items()
            if r["source"] in ("uspto_bulk", "lens", "ptab_pdf")}


@pytest.fixture(scope="module")
def production(deployment_api, tmp_path_factory) -> Production:
    """The sample world (a copy, grown before the third night) served in a separate process; three nights."""
    from flows.nightly import SAMPLE_WORLD, nightly

    tmp = tmp_path_factory.mktemp("production")
    world, data, out, drop = tmp / "world", tmp / "data", tmp / "published", tmp / "lens-drop"
    shutil.copytree(SAMPLE_WORLD, world)
    drop.mkdir()
    shutil.copy(world / "lens" / "lens-export.jsonl", drop)
    with served(world, tmp / "upstream.log") as url, \
            sparql_replica(sorted((world / "semopenalex").glob("*.nq"))) as sparql:
        live = {"PF_UPSTREAMS__ODP_BASE_URL": url, "PF_UPSTREAMS__OPS_BASE_URL": url + "/3.2",
                "PF_UPSTREAMS__SPARQL_ENDPOINT": sparql, "PF_UPSTREAMS__FULLTEXT_VIA": url,
                "PF_UPSTREAMS__LENS_EXPORTS": str(drop),
                "USPTO_ODP_API_KEY": "k", "EPO_OPS_KEY": "k", "EPO_OPS_SECRET": "s",
                "PF_PATHS__DATA_DIR": str(data), "PF_PATHS__PUBLISHED_ROOT": str(out)}
        env = {**deployment_api, **live, **KEEP_FLOW_RESULT,
               "PREFECT_LOGGING_LEVEL": "INFO"}  # the summary lines are INFO logs (tests/conftest.py quiets them)
        with pytest.MonkeyPatch.context() as mp:  # the plan, in this process, on the same settings
            for key, value in live.items():
                mp.setenv(key, value)
            plan = nightly(data_dir=str(data), out=str(out), sources="live", plan_only=True)["plan"]
        zips, plan_downloaded = len(list((world / "uspto").rglob("*.zip"))), (data / "downloads").exists()
        prefect_cli(env, "--no-prompt", "deploy", "--name", "nightly/production")
        nights = [_night(env, data, out), _night(env, data, out)]
        lens_rows = Ledger(Storage(data / "warehouse")).items("lens")
        added = add_night(world, date.today())
        shutil.copy(added.lens_export, drop)
        nights.append(_night(env, data, out))
    return Production(world, data, out, plan, zips, plan_downloaded, nights, lens_rows, added)


@pytest.mark.long_run(minutes=5)  # the three nights (the module's fixture)
def test_production_nightly_three_nights(production):
    data, out = production.data, production.out
    first, second, third = production.nights
    for name, version in first.latest.items():
        assert inspect_version(Storage(out), name, version.strip()).ok, name
    assert sum(s == "uspto_bulk" for s, _ in first.fetched) == production.zips_before

    assert second.fetched == first.fetched, "a quiet night fetches listings only"
    assert second.latest == first.latest
    assert all(f"{n}: nothing new" in second.log for n in DATASETS), second.log[-3000:]

    added = production.added
    new = {k for k in third.fetched if k not in first.fetched}
    changed = {k for k in first.fetched if third.fetched[k] != first.fetched[k]}
    ledger = Ledger(Storage(data / "warehouse"))
    assert {s for s, _ in new if s != "ptab_odp"} == {"uspto_bulk", "ptab_pdf", "lens"}
    assert [i for s, i in new if s == "uspto_bulk"] == [added.weekly_file.name]
    assert [i for s, i in new if s == "ptab_pdf"] == [added.ptab_pdf.stem]
    assert len([i for s, i in new if s == "lens"]) == 1
    assert not {k for k in changed if k[0] in ("uspto_bulk", "lens", "ptab_pdf")}, changed
    for s, i in new:
        row = ledger.get(s, i)
        assert row["parsed_at"] and row["n_records"], (s, i, row)
    assert ledger.get("uspto_bulk", added.weekly_file.name)["n_records"] == 3


@pytest.mark.long_run(minutes=0)  # reads the same nights
def test_live_nightly_publishes_then_a_quiet_night_publishes_nothing_new(production):
    """The live night's figures (formerly two in-process nights of tests/flows/test_nightly_live.py)."""
    out = production.out
    by_source = {p["source"]: p for p in production.plan}
    assert by_source["uspto_bulk"]["items"] == production.zips_before > 0
    assert by_source["lens"]["items"] == 1 and "one request at a time" in by_source["uspto_bulk"]["limit"]
    assert not production.plan_downloaded, "a plan downloads nothing"

    first, second = production.nights[0].result, production.nights[1].result
    assert first["uspto"]["files"] == by_source["uspto_bulk"]["items"] and first["uspto"]["failed"] == 0
    assert first["lens"]["files"] == 1 and first["ptab"]["records"] > 0
    for name in DATASETS:
        assert first[name] and inspect_version(Storage(out), name, first[name]["version"]).ok, name
    texts = first["pap2pat"]["ingest"]["fulltext"]  # through PF_UPSTREAMS__FULLTEXT_VIA, never the internet
    assert texts["jats"] > 0 and texts["pdf"] > 0, texts
    latest = {n: production.nights[0].latest[n] for n in ("patenteb", "pilot")}

    # the look-back lists the last weeks again; the ledger skips them: nothing downloaded or parsed
    assert second["uspto"]["files"] == second["uspto"]["skipped"] and second["uspto"]["records"] == {}
    assert second["lens"]["files"] == 0, "only listings: no new items"
    assert second["ptab"]["pdfs"] == 0
    assert all(line.endswith("stays LATEST") for line in second["summary"]), second["summary"]
    assert {n: production.nights[1].latest[n] for n in latest} == latest
    rows = production.lens_rows_after_second
    assert len(rows) == 1 and rows[0]["parsed_at"]
