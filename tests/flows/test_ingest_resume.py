"""A killed `ingest-uspto` resumes where it stopped: the ledger records each weekly file as it is done, so
after a SIGKILL part-way the rerun downloads and parses only the files that were not finished."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from flows.ingest_uspto import ingest_uspto
from patentfactory.sim.generator import WorldSpec, generate_world
from patentfactory.sim.upstream import Replica
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
from tests.resilience.pfrun import pf_env

pytestmark = pytest.mark.services

KILL_AFTER = 3  # weekly files recorded as parsed


def _parsed(data: Path) -> dict[str, str]:
    return {r["item"]: r["parsed_at"] for r in Ledger(Storage(data / "warehouse")).items("uspto_bulk")
            if r["parsed_at"]}


def test_killed_ingest_fetches_and_parses_only_the_rest(tmp_path: Path):
    world, data = tmp_path / "world", tmp_path / "data"
    generate_world(world, 300, 3, WorldSpec(300, 3, renderers=("uspto",)))
    total = len(list(world.rglob("*.zip")))
    code = ("import sys, datetime as d; from flows.ingest_uspto import ingest_uspto; "
            "ingest_uspto(sys.argv[1], sys.argv[2], d.date(2000, 1, 1), d.date(2100, 1, 1))")
    with Replica(world) as rep:
        proc = subprocess.Popen([sys.executable, "-c", code, str(data), rep.base_url], env=pf_env(tmp_path),
                                cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        deadline = time.monotonic() + 300
        while len(_parsed(data)) < KILL_AFTER and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        before = _parsed(data)
        assert KILL_AFTER <= len(before) < total, f"killed with {len(before)} of {total} files done"
        downloads = data / "downloads" / "uspto"
        for f in downloads.rglob("*"):  # what the rerun downloads is then exactly what lies here
            if f.is_file():
                f.unlink()
        again = ingest_uspto(str(data), rep.base_url, date(2000, 1, 1), date(2100, 1, 1))
    fetched = {f.name for f in downloads.rglob("*.zip")}
    assert fetched == {f.name for f in world.rglob("*.zip")} - set(before), "the rerun re-fetched finished files"
    assert again["files"] == total and again["skipped"] == len(before) and again["failed"] == 0, again
    after = _parsed(data)
    assert len(after) == total
    assert {k: after[k] for k in before} == before, "a finished file was parsed again"
    pubs = Warehouse(Storage(data / "warehouse")).frame("publications", dedupe=False)
    assert pubs.height == pubs["pub_id"].n_unique() > 0, "a resumed file duplicated its rows"
