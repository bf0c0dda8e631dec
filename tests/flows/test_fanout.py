"""Issue 18 fan-outs: the same bytes whether the work runs in one thread or in batches on several workers.

PTAB: the decisions' PDFs (text layer and tesseract scans, plus unreadable ones) read serially by the stage
versus in batches of 2 on a 3-thread runner or 2 Dask worker processes: identical warehouse parts, ledger
and published PILOT files.
"""
from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import pytest
from prefect.task_runners import ThreadPoolTaskRunner

from flows.build_pilot import build_pilot
from flows.ingest_ptab import ingest_ptab
from flows.runtime import task_runner
from patentfactory.config import Settings
from patentfactory import stages
from patentfactory.stages.ingest_ptab import ingest_ptab as ingest_ptab_serial
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from patentfactory.sim.upstream import Replica

from .test_build_pilot import make_world

pytestmark = [pytest.mark.slow, pytest.mark.services]


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file's bytes; a manifest without its `created_at` stamp (the one field a clock writes)."""
    out = {}
    for p in sorted(q for q in root.rglob("*") if q.is_file()):
        data = p.read_bytes()
        if p.name == "manifest.json":
            data = json.dumps({k: v for k, v in json.loads(data).items() if k != "created_at"}).encode()
        out[str(p.relative_to(root))] = data
    return out


def ledger_rows(data: Path) -> list[dict]:
    keep = ("source", "item", "sha256", "bytes", "parser_version", "n_records", "n_rejects")
    return [{k: r[k] for k in keep} for r in Ledger(Storage(data / "warehouse")).items()]


@pytest.fixture(scope="module")
def ptab_serial(tmp_path_factory):
    """What both runners compare against, built once: the world and its replica (up while the module runs),
    `uspto` (USPTO ingested: each fanned run starts from a copy), `serial` (a copy of it with PTAB read by the
    stage in one thread, `one`, and PILOT published, `pub`)."""
    root = tmp_path_factory.mktemp("ptab-fanout")
    world, uspto, serial = root / "world", root / "uspto", root / "serial"
    make_world(world)
    with Replica(world) as rep:
        stages.ingest_uspto(str(uspto), rep.base_url, date(1976, 1, 1), date(2100, 1, 1), "replica-key")
        shutil.copytree(uspto, serial)
        one = ingest_ptab_serial(str(serial), rep.base_url, date(2000, 1, 1), date(2100, 1, 1), "replica-key")
        pub = build_pilot(data_dir=str(serial), out=str(serial / "published"))
        yield SimpleNamespace(base_url=rep.base_url, uspto=uspto, serial=serial, one=one, pub=pub)


@pytest.mark.parametrize("runner", ["threads", "dask"])
def test_ptab_batches_match_serial(ptab_serial, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runner: str):
    """`dask`: the batches run in 2 worker processes of a local cluster (pickled rows and paths)."""
    monkeypatch.setenv("USPTO_ODP_API_KEY", "replica-key")
    serial, fanned, one = ptab_serial.serial, tmp_path / "fanned", ptab_serial.one
    shutil.copytree(ptab_serial.uspto, fanned)
    pool = ThreadPoolTaskRunner(max_workers=3) if runner == "threads" else \
        task_runner(Settings(task_runner="dask", dask_workers=2, dask_processes=True))
    many = ingest_ptab.with_options(task_runner=pool)(data_dir=str(fanned), base_url=ptab_serial.base_url,
                                                      start=date(2000, 1, 1), batch_size=2)
    again = ingest_ptab(data_dir=str(fanned), base_url=ptab_serial.base_url, start=date(2000, 1, 1), batch_size=2)
    assert many["pdfs"] == 9 and many["origins"]["ocr"] == 2 and many["rejects"] == 2, many
    assert many == {**one, "origins": dict(sorted(one["origins"].items()))}
    assert again["skipped"] == 9 and again["pdfs"] == 0, "the flow wrote every batch's ledger rows"
    for table in ("ptab_decisions", "rejects"):
        assert tree_bytes(fanned / "warehouse" / table) == tree_bytes(serial / "warehouse" / table), table
    assert ledger_rows(fanned) == ledger_rows(serial)
    pubs = [ptab_serial.pub, build_pilot(data_dir=str(fanned), out=str(fanned / "published"))]
    assert pubs[0]["version"] == pubs[1]["version"]
    assert tree_bytes(fanned / "published") == tree_bytes(serial / "published")


def test_patenteb_embedding_chunks_match_serial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Dense negatives encoded in chunks of 4 by `embed-texts` tasks on 2 threads publish the bytes of the
    stage's one-process encoding, and every chunk is its own cache part."""
    from flows.build_patenteb import build_patenteb
    from patentfactory.sim.generator import WorldSpec, generate_world
    from patentfactory.stages.build_patenteb import MODEL_PACKAGE, build_and_publish_patenteb

    world, serial, fanned = tmp_path / "world", tmp_path / "serial", tmp_path / "fanned"
    monkeypatch.delenv("PF_PATHS__EMBEDDING_CACHE", raising=False)  # each run encodes into its own data dir
    generate_world(world, 300, 5, WorldSpec(300, 5, renderers=("uspto",), render_from="2005-01-01"))
    with Replica(world) as rep:
        stages.ingest_uspto(str(serial), rep.base_url, date(1976, 1, 1), date(2100, 1, 1), "replica-key")
    shutil.copytree(serial, fanned)  # the same warehouse for both builds, ingested once
    build_and_publish_patenteb(serial, str(serial / "published"), profile="sample")
    monkeypatch.setenv("PF_EMBED_CHUNK", "4")  # sample profile: 50% train, texts fit 2 chunks of 8
    flow = build_patenteb.with_options(task_runner=ThreadPoolTaskRunner(max_workers=2))
    flow(data_dir=str(fanned), out=str(fanned / "published"), profile="sample")
    parts = list((fanned / "cache" / "embeddings" / MODEL_PACKAGE).glob("part-*.parquet"))
    assert len(parts) > 2, "the texts went out in several chunks"
    assert tree_bytes(fanned / "published") == tree_bytes(serial / "published")


def test_semopenalex_steps_in_flight_give_the_serial_answer(tmp_path: Path):
    """Four steps of 5 names in flight at once against the oxigraph replica: the same papers, rejects and
    query count as one step after another."""
    from patentfactory.sim.generator import WorldSpec, generate_world
    from patentfactory.sim.upstream.sparql import sparql_replica
    from patentfactory.stages.build_pap2pat import fetch_candidate_papers, read_applications
    from sources.semopenalex import SemOpenAlexClient
    from transforms.matching import inventor_query_names

    world, data = tmp_path / "world", tmp_path / "data"
    spec = WorldSpec(scale=1, seed=1, start="2005-01-01", end="2024-12-31", render_from="2005-01-01",
                     renderers=("uspto", "semopenalex"))
    generate_world(world, 400, 11, spec)
    with Replica(world) as rep:
        stages.ingest_uspto(data, rep.base_url, date(2005, 1, 1), date(2100, 1, 1), "key", ("APPXML",))
    names = inventor_query_names(read_applications(data).lazy(), 2).collect()["q"].to_list()
    assert len(names) > 20
    with sparql_replica([world / "semopenalex" / "works.nq"], tmp_path / "store", timeout=60) as url:
        runs = [(c := SemOpenAlexClient(url, batch_size=5), fetch_candidate_papers(c, names, step=5, concurrency=n))
                for n in (1, 4)]
    (serial_client, serial), (fanned_client, fanned) = runs
    assert serial.count("papers") > 0
    assert fanned.rows == serial.rows and fanned.rejects == serial.rejects
    assert fanned_client.stats == serial_client.stats
