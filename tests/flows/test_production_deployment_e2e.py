"""`nightly/production` as a team runs it, black-box: `pf upstream serve` (a separate process, serving a small
generated world) stands in for the real services through the live settings only; the deployment is registered on
a local Prefect server and run three times by `prefect deployment run` + a process worker:
1. every dataset publishes and verifies; 2. nothing new upstream: only listings, no new version, LATEST kept;
3. one new weekly file, PTAB decision and Lens export appear upstream: exactly those are fetched and parsed."""
from __future__ import annotations

import re
import shutil
from datetime import date
from pathlib import Path

import pytest

from patentfactory.sim.generator.additions import add_night
from patentfactory.sim.upstream.sparql import sparql_replica
from patentfactory.store.inspect import inspect_version
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from tests.flows.deployments import DEPLOYMENTS, POOL, prefect_cli
from tests.flows.test_nightly_live import served_world  # noqa: F401 - the fixture is reused

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.services, pytest.mark.long_run(minutes=5),
              pytest.mark.xdist_group(DEPLOYMENTS)]
DATASETS = ("patenteb", "patentcr", "ipbench", "pilot", "pap2pat")


def _night(env: dict) -> str:
    run_out = prefect_cli(env, "deployment", "run", "nightly/production", "--param", "profile=sample",
                          "--param", "seed=7")
    match = re.search(r"UUID:\s*([0-9a-f-]{36})", run_out)
    assert match, run_out
    worker = prefect_cli(env, "worker", "start", "--pool", POOL, "--run-once", timeout=900)
    state = prefect_cli(env, "flow-run", "inspect", match.group(1))
    assert "COMPLETED" in state, worker[-3000:]
    return worker + prefect_cli(env, "flow-run", "logs", match.group(1))


def _fetched(ledger_root: Path) -> dict[tuple[str, str], str]:
    """fetched_at of the night's items (weekly files, Lens exports, PTAB PDFs); OPS/PTAB searches are listings."""
    return {(r["source"], r["item"]): r["fetched_at"] for r in Ledger(Storage(ledger_root)).items()
            if r["source"] in ("uspto_bulk", "lens", "ptab_pdf")}


def test_production_nightly_three_nights(deployment_api, served_world, tmp_path: Path):  # noqa: F811
    world, url = served_world
    data, out, drop = tmp_path / "data", tmp_path / "published", tmp_path / "lens-drop"
    drop.mkdir()
    shutil.copy(world / "lens" / "lens-export.jsonl", drop)
    with sparql_replica(sorted((world / "semopenalex").glob("*.nq"))) as sparql:
        env = {**deployment_api, "PF_UPSTREAMS__ODP_BASE_URL": url, "PF_UPSTREAMS__OPS_BASE_URL": url + "/3.2",
               "PF_UPSTREAMS__SPARQL_ENDPOINT": sparql, "PF_UPSTREAMS__FULLTEXT_VIA": url, "PF_UPSTREAMS__LENS_EXPORTS": str(drop),
               "USPTO_ODP_API_KEY": "k", "EPO_OPS_KEY": "k", "EPO_OPS_SECRET": "s",
               "PF_PATHS__DATA_DIR": str(data), "PF_PATHS__PUBLISHED_ROOT": str(out),
               "PREFECT_LOGGING_LEVEL": "INFO"}  # the summary lines are INFO logs (tests/conftest.py quiets them)
        prefect_cli(env, "--no-prompt", "deploy", "--name", "nightly/production")

        _night(env)
        latest = {n: (out / n / "LATEST").read_text() for n in DATASETS}
        for name, version in latest.items():
            assert inspect_version(Storage(out), name, version.strip()).ok, name
        first = _fetched(data / "warehouse")
        assert sum(s == "uspto_bulk" for s, _ in first) == len(list((world / "uspto").rglob("*.zip")))

        log = _night(env)
        assert _fetched(data / "warehouse") == first, "a quiet night fetches listings only"
        assert {n: (out / n / "LATEST").read_text() for n in DATASETS} == latest
        assert all(f"{n}: nothing new" in log for n in DATASETS), log[-3000:]

        added = add_night(world, date.today())
        shutil.copy(added.lens_export, drop)
        _night(env)
        third = _fetched(data / "warehouse")
        new = {k for k in third if k not in first}
        changed = {k for k in first if third[k] != first[k]}
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
