"""`pf ingest ops` through the replica: numbers in any form, 404s recorded, rerun skips, stop resumes."""
from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from patentfactory.stages.build_patentcr import ops_client_for
from patentfactory.cli.main import app
from patentfactory.sim.generator import WorldSpec, generate_world
from patentfactory.stages.ingest_ops import OpsIngestStats, ingest_ops, read_numbers
from patentfactory.store.storage import Storage
from patentfactory.sim.upstream import Replica
from patentfactory.store.warehouse import Warehouse


def test_numbers_file_and_rerun(tmp_path: Path, monkeypatch):
    world, data = tmp_path / "world", tmp_path / "data"
    generate_world(world, 120, 5, WorldSpec(120, 5, renderers=("ops",)))
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
