"""`pf ingest ops` through the replica: numbers in any form, 404s recorded (rechecked after a period), rerun
skips, stop resumes."""
from __future__ import annotations

import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from typer.testing import CliRunner

from patentfactory.stages.build_patentcr import PatentCRStats, fetch_item, ops_client_for
from patentfactory.stages.ingest_files import stores_for
from patentfactory.store.ledger import Ledger
from patentfactory.cli.main import app
from patentfactory.sim.generator import WorldSpec
from patentfactory.stages.ingest_ops import OpsIngestStats, Recheck, ingest_ops, read_numbers
from patentfactory.store.storage import Storage
from patentfactory.sim.upstream import Replica
from patentfactory.store.warehouse import Warehouse

pytestmark = pytest.mark.services


def test_numbers_file_and_rerun(tmp_path: Path, monkeypatch, shared_world):
    world, data = shared_world(120, 5, WorldSpec(120, 5, renderers=("ops",))), tmp_path / "data"
    docs = sorted(p.name for p in (world / "ops" / "published-data" / "publication" / "docdb").iterdir())[:3]
    lines = [d.replace(".", "") for d in docs] + ["EP9999999A1", "not a number"]
    (tmp_path / "numbers.txt").write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("EPO_OPS_KEY", "k")
    monkeypatch.setenv("EPO_OPS_SECRET", "s")
    runner = CliRunner()
    with Replica(world) as rep:
        res = runner.invoke(app, ["ingest", "ops", "--numbers", str(tmp_path / "numbers.txt"), "--data-dir",
                                  str(data), "--base-url", rep.base_url + "/3.2"])
        assert res.exit_code == 0, res.output
        assert "skipped 1 unreadable numbers" in res.output
        wh = Warehouse(Storage(data / "warehouse"))
        assert set(wh.frame("publications")["pub_id"]) == {d.replace(".", "-") for d in docs}
        assert wh.frame("claims").height > 0
        assert "EP.9999999.A1/biblio" in wh.frame("rejects")["source_file"].to_list()
        again = ingest_ops(data, ops_client_for(rep.base_url + "/3.2", "k", "s"), read_numbers(
            "\n".join(lines), OpsIngestStats()))
        assert again["fetched"] == 0 and again["skipped"] == 8, again
    with Replica(world, faults="black@/3.2/rest-services*1") as rep:
        stopped = ingest_ops(tmp_path / "data2", ops_client_for(rep.base_url + "/3.2", "k", "s"), ["EP.1.A1"])
        assert stopped["stopped"] and "resume later" in stopped["stopped"]


def test_needs_exactly_one_input(tmp_path: Path):
    res = CliRunner().invoke(app, ["ingest", "ops", "--data-dir", str(tmp_path)])
    assert res.exit_code == 2 and "exactly one of --numbers FILE or --query CQL" in res.output


def _real_sample_world(root: Path, real_samples: Path) -> Path:
    """The replica's OPS tree with the real recorded responses for EP2400812A1 only (copied at test time)."""
    docdir = root / "ops" / "published-data" / "publication" / "docdb" / "EP.2400812.A1"
    docdir.mkdir(parents=True)
    for name in ("biblio", "claims"):
        shutil.copy(real_samples / "epo-ops" / f"get_{name}.response.xml", docdir / f"{name}.xml")
    return root


def test_a_404_is_recorded_and_asked_again_only_after_the_recheck_period(tmp_path: Path, real_samples: Path):
    world, data = _real_sample_world(tmp_path / "world", real_samples), tmp_path / "data"
    docs = ["EP.2400812.A1", "EP.9999999.A1"]
    t0 = datetime(2026, 1, 7, 2, 0, tzinfo=timezone.utc)
    with Replica(world) as rep:
        def night(days: float) -> tuple[dict, int]:
            client = ops_client_for(rep.base_url + "/3.2", "k", "s")
            stats = ingest_ops(data, client, docs, recheck=Recheck(30, lambda: t0 + timedelta(days=days)))
            return stats, client.requests

        first, asked = night(0)
        assert (first["fetched"], first["not_found"], asked) == (2, 2, 4)
        ledger = Ledger(Storage(data / "warehouse"))
        assert ledger.get("epo_ops", "EP.9999999.A1/claims")["not_found_at"] == "2026-01-07T02:00:00+00:00"
        assert "EP.9999999.A1/biblio" not in {r["item"] for r in ledger.snapshot()}, "a 404 was no input"
        second, asked = night(29.9)  # nothing is asked: the found ones are parsed, the missing ones recorded
        assert (second["skipped"], second["known_missing"], second["not_found"], asked) == (4, 2, 0, 0)
        third, asked = night(30)  # the period is over: the missing ones are asked again, and still missing
        assert (third["known_missing"], third["not_found"], asked) == (0, 2, 2)
        assert Ledger(Storage(data / "warehouse")).get("epo_ops", "EP.9999999.A1/biblio")["not_found_at"].startswith(
            "2026-02-06")
        shutil.copytree(world / "ops/published-data/publication/docdb/EP.2400812.A1",
                        world / "ops/published-data/publication/docdb/EP.9999999.A1")
        fourth, asked = night(45)  # inside the new period: still not asked, though it now exists
        assert (fourth["known_missing"], asked) == (2, 0)
        fifth, asked = night(61)  # after it: fetched, parsed, and no longer marked missing
        assert (fifth["fetched"], fifth["not_found"], asked) == (2, 0, 2)
        assert Ledger(Storage(data / "warehouse")).get("epo_ops", "EP.9999999.A1/biblio")["not_found_at"] is None


def test_patentcr_fetch_remembers_a_missing_application(tmp_path: Path, real_samples: Path):
    """Patent-CR asks for the A2 when the A1 is missing: the 404 is asked once per recheck period, not per night."""
    world, data = _real_sample_world(tmp_path / "world", real_samples), tmp_path / "data"
    t0 = datetime(2026, 1, 7, tzinfo=timezone.utc)
    with Replica(world) as rep:
        for days, known, asked in ((0, 0, 1), (1, 1, 0), (31, 0, 1)):
            client, stats = ops_client_for(rep.base_url + "/3.2", "k", "s"), PatentCRStats()
            got = fetch_item(client, stores_for(data), "EP.2400812.A2", "claims", stats,
                             Recheck(30, lambda d=days: t0 + timedelta(days=d)))
            assert got is None and stats.ops_404 == 1 and (stats.ops_404_known, client.requests) == (known, asked)
