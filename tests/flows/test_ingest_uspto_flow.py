"""`ingest-uspto` against the replica: one task per weekly file, a truncated zip reported and
left not-done in the ledger, a rerun skipping finished files, a new weekly file the only one parsed."""
from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from flows.ingest_uspto import ingest_uspto
from patentfactory.sim.generator import WorldSpec
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from patentfactory.sim.upstream import Replica
from patentfactory.store.warehouse import Warehouse

pytestmark = pytest.mark.services


def test_weekly_files_ingest_incrementally(tmp_path: Path, shared_world):
    world, data = tmp_path / "world", tmp_path / "data"
    shutil.copytree(shared_world(150, 3, WorldSpec(150, 3, renderers=("uspto",))), world)  # changed below
    grants = sorted((world / "uspto" / "PTGRXML").glob("*.zip"))
    held_back = grants[-1]
    shutil.move(held_back, tmp_path / held_back.name)  # "next week's" file, published later
    bad = grants[0]
    good_bytes = bad.read_bytes()
    bad.write_bytes(good_bytes[: len(good_bytes) // 2])  # a truncated upstream zip
    with Replica(world) as rep:
        first = ingest_uspto(str(data), rep.base_url, date(2000, 1, 1), date(2100, 1, 1))
        assert first["failed"] == 1 and first["records"]["publications"] > 0
        ledger = Ledger(Storage(data / "warehouse"))
        assert ledger.get("uspto_bulk", bad.name)["parsed_at"] is None, "a truncated zip is never marked done"
        rejects = Warehouse(Storage(data / "warehouse")).frame("rejects")
        assert bad.name in rejects["source_file"].to_list()

        bad.write_bytes(good_bytes)  # upstream fixed the file; next week's file appears
        shutil.move(tmp_path / held_back.name, held_back)
        second = ingest_uspto(str(data), rep.base_url, date(2000, 1, 1), date(2100, 1, 1))
    parsed_now = second["files"] - second["skipped"]
    assert parsed_now == 2, second  # the repaired file and the new weekly file, nothing else
    assert second["failed"] == 0
    assert all(r["parsed_at"] for r in Ledger(Storage(data / "warehouse")).items("uspto_bulk"))


def test_the_deployment_without_parameters_reads_the_settings(tmp_path: Path, monkeypatch, shared_world):
    """`ingest-uspto/sample` passes no parameter: its data dir and ODP come from PF_PATHS__DATA_DIR and
    PF_UPSTREAMS__ODP_BASE_URL (issue 43: it wrote to ./data from the live API, and stopped at 2030)."""
    world = shared_world(60, 5, WorldSpec(60, 5, renderers=("uspto",)))
    data, cwd = tmp_path / "elsewhere" / "data", tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("PF_PATHS__DATA_DIR", str(data))
    with Replica(world) as rep:
        monkeypatch.setenv("PF_UPSTREAMS__ODP_BASE_URL", rep.base_url)
        stats = ingest_uspto()
    weekly = sorted(p.name for p in (world / "uspto").rglob("*.zip"))
    assert stats["failed"] == 0 and stats["files"] == len(weekly) > 0 and stats["records"]["publications"] > 0
    assert sorted(r["item"] for r in Ledger(Storage(data / "warehouse")).items("uspto_bulk")) == weekly
    assert not (cwd / "data").exists()
