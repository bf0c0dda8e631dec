"""Patent-CR end to end: generated world -> OPS replica -> flow `build-patentcr` -> verified version vs truth."""
from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from prefect.states import Failed

from flows.build_patentcr import build_patentcr, retry_unless_stopped
from patentfactory.errors import SourceStopped
from patentfactory.stages.build_patentcr import FIELDS, PatentCRParams, fetch_claim_revisions, ops_client_for
from patentfactory.sim.generator import WorldSpec, generate_world
from patentfactory.store.inspect import inspect_version
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage
from patentfactory.sim.upstream import Replica
from transforms.claim_revision import recovered_pairs

pytestmark = pytest.mark.services

# OPS documents only for H1 2024, publications packed into 2016-2024 so the range has grants of every month.
SPEC = WorldSpec(scale=1, seed=1, start="2016-01-01", end="2024-12-31", render_from="2024-01-01",
                 render_to="2024-06-30", renderers=("ops",))
# The replica's `pd within` filter reads a `date-publ` attribute the OPS renderer does not write, so the
# date clause would match nothing; the build filters dates itself from each grant's biblio.
CQL = "pn=EP"
DOCS = "ops/published-data/publication/docdb"


def _truth_in_range(world: Path) -> pl.DataFrame:
    truth = pl.read_parquet(world / "truth" / "claim_revisions.parquet")
    return truth.filter(pl.col("pub_date_after").is_between(pl.date(2024, 1, 1), pl.date(2024, 6, 30)))


def _break_world(world: Path, truth: pl.DataFrame) -> tuple[str, str]:
    """Delete one A1's claims (-> 404, no application) and strip English from one B1's claims."""
    a1 = truth.filter(pl.col("kind_before") == "A1").sort("ep_number")["ep_number"].to_list()
    gone, german = a1[0].split("-")[1], a1[1].split("-")[1]
    assert not (world / DOCS / f"EP.{gone}.A2").exists()
    (world / DOCS / f"EP.{gone}.A1" / "claims.xml").unlink()
    path = world / DOCS / f"EP.{german}.B1" / "claims.xml"
    path.write_text(re.sub(r'<claims lang="EN">.*?</claims>', "", path.read_text(encoding="utf-8"), flags=re.S),
                    encoding="utf-8")
    return f"EP-{gone}", f"EP-{german}"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> tuple[Path, pl.DataFrame, tuple[str, str]]:
    path = tmp_path_factory.mktemp("world")
    generate_world(path, 4000, 11, SPEC)
    truth = _truth_in_range(path)
    assert truth.height >= 10 and truth["pub_date_after"].dt.month().n_unique() >= 4
    return path, truth, _break_world(path, truth)


def test_flow_publishes_pairs_matching_truth(world, tmp_path: Path) -> None:
    path, truth, (gone, german) = world
    data, out = tmp_path / "data", tmp_path / "published"
    with Replica(path) as rep:
        result = build_patentcr(data_dir=str(data), out=str(out), ops_url=rep.base_url + "/3.2", cql_template=CQL,
                                window_days=200)
    rep_ = inspect_version(Storage(out), "patentcr", result["version"])
    assert rep_.ok, rep_.problems
    assert {f["path"] for f in rep_.manifest["files"]} == {"claim_revision/train.parquet", "claim_revision/test.parquet"}
    vdir = out / "patentcr" / result["version"] / "claim_revision"
    train, test = pl.read_parquet(vdir / "train.parquet"), pl.read_parquet(vdir / "test.parquet")
    assert tuple(train.columns) == FIELDS == tuple(test.columns)
    assert set(test["pub_date_after"].dt.month()) == {6} and 6 not in set(train["pub_date_after"].dt.month())
    built = pl.concat([train, test])
    assert built["ep_number"].is_unique().all() and gone not in built["ep_number"] and german not in built["ep_number"]
    assert (built["kind_after"] == "B1").all() and set(built["kind_before"]) <= {"A1", "A2"}
    assert (built["ipc"].list.len() > 0).all()
    differing = truth.filter(pl.col("claims_before") != pl.col("claims_after"))
    recovered = recovered_pairs(built.lazy(), differing.lazy()).collect()
    assert recovered.height == built.height == differing.height - 2, "every true pair except the two broken ones"
    stats = result["stats"]
    assert stats["dropped"]["no_application"] == 1 and stats["dropped"]["not_english"] == 1
    assert stats["ops_404"] >= 2 and f"EP.{gone.split('-')[1]}.A1/claims" in stats["ops_404_items"]
    manifest = json.loads((out / "patentcr" / result["version"] / "manifest.json").read_text())
    assert manifest["stats"]["dropped"] == stats["dropped"]
    card = (out / "patentcr" / result["version"] / "README.md").read_text()
    assert "OPS 404" in card and "no_application" in card and "not_english" in card
    assert "asked again only after 30 days" in card and "PF_OPS_404_RECHECK_DAYS" in card
    assert "## Departures from the paper" in card and "## Reproducing the paper" in card
    assert f"- **Size**: {built.height} pairs (the paper: 22,606" in card
    assert "pairs differ only in numbering or reference signs" in card
    fetched = Ledger(Storage(data / "warehouse")).items("epo_ops")
    assert any(r["item"].endswith(".B1/claims") and r["sha256"] for r in fetched)
    gone_item = next(r for r in fetched if r["item"] == f"EP.{gone.split('-')[1]}.A1/claims")
    assert gone_item["not_found_at"] and not gone_item["sha256"], "the 404 is in the ledger"
    from patentfactory.store.warehouse import Warehouse

    reported = Warehouse(Storage(data / "warehouse")).frame("reported_families")
    grants = reported.filter(pl.col("pub_id").is_in([f"{e}-B1" for e in built["ep_number"]]))
    assert grants.height == built.height and set(grants["family_kind"]) == {"simple"}, "each grant's DOCDB family-id"


def test_month_split_parameter_and_rerun_is_identical(world, tmp_path: Path) -> None:
    path, _, _ = world
    data, out = tmp_path / "data", tmp_path / "published"
    params = PatentCRParams(cql_template=CQL, window_days=200, test_months=(5, 6))
    from patentfactory.stages.build_patentcr import publish_patentcr

    with Replica(path) as rep:
        client = ops_client_for(rep.base_url + "/3.2")
        first = publish_patentcr(data, str(out), fetch_claim_revisions(data, client, params), params)
        second = publish_patentcr(data, str(out), fetch_claim_revisions(data, client, params), params)
    assert second.version == first.version and second.created is False
    test = pl.read_parquet(out / "patentcr" / first.version / "claim_revision" / "test.parquet")
    assert set(test["pub_date_after"].dt.month()) <= {5, 6} and test.height > 0


def test_ops_stop_is_not_retried_and_the_rerun_resumes_from_the_cache(world, tmp_path: Path) -> None:
    """Black throttling mid-way: a clean stop at once, the flow Deferred (no 60 s retries spending quota); the
    rerun asks OPS only for what it had not fetched and gives the same pairs as an uninterrupted run."""
    path, truth, _ = world
    params = PatentCRParams(cql_template=CQL, window_days=200)
    third = truth.sort("ep_number")["ep_number"][2].split("-")[1]
    black = f"black@/3.2/rest-services/published-data/publication/docdb/EP.{third}.B1/claims*1"
    data, out = tmp_path / "data", tmp_path / "published"
    with Replica(path, faults=black) as rep:
        state = build_patentcr(data_dir=str(data), out=str(out), ops_url=rep.base_url + "/3.2", cql_template=CQL,
                               window_days=200, return_state=True)  # an expected stop: a named state, no raise
        assert state.is_completed() and state.name == "Deferred", state
        assert re.search(r"OPS asked to stop after \d+ of \d+ grants", state.message), state.message
    stopped = Failed(data=SourceStopped("OPS asked to stop"))  # were the stop raised, it would not be retried either
    assert not retry_unless_stopped(None, None, stopped), "the stop would be retried"  # checked, not timed
    fetched = {r["item"] for r in Ledger(Storage(data / "warehouse")).items("epo_ops") if r["sha256"]}
    assert fetched and f"EP.{third}.B1/claims" not in fetched
    assert not (out / "patentcr").exists() or not any((out / "patentcr").glob("*/manifest.json"))
    with Replica(path) as rep:
        resumed = fetch_claim_revisions(data, ops_client_for(rep.base_url + "/3.2"), params)
        fresh = fetch_claim_revisions(tmp_path / "fresh", ops_client_for(rep.base_url + "/3.2"), params)
    assert resumed["cached_items"] == len(fetched) and fresh["cached_items"] == 0
    assert resumed["ops_404_known"] > 0 == fresh["ops_404_known"], "the 404s of the stopped run were not asked again"
    per_run = ("cached_items", "ops_404_known")
    assert {k: v for k, v in resumed.items() if k not in per_run} == \
        {k: v for k, v in fresh.items() if k not in per_run}
    from patentfactory.store.warehouse import Warehouse

    def pairs(root: Path) -> pl.DataFrame:
        return Warehouse(Storage(root / "warehouse")).frame("claim_revisions").sort("ep_number")
    assert pairs(data).equals(pairs(tmp_path / "fresh"))


def test_fan_out_over_grants_gives_the_serial_result(world, tmp_path: Path) -> None:
    """Four grants at a time through one shared client: the same counts, pairs and family ids as one at a time
    (rows in grant order, whatever order the answers came in), and the same published bytes."""
    from patentfactory.stages.build_patentcr import publish_patentcr
    from patentfactory.store.warehouse import Warehouse

    path, _, _ = world
    params = PatentCRParams(cql_template=CQL, window_days=200)
    runs = {}
    with Replica(path) as rep:
        for n in (1, 4):
            data = tmp_path / f"c{n}"
            stats = fetch_claim_revisions(data, ops_client_for(rep.base_url + "/3.2"), params, concurrency=n)
            pub = publish_patentcr(data, str(data / "out"), stats, params)
            wh = Warehouse(Storage(data / "warehouse"))
            runs[n] = (stats, wh.frame("claim_revisions"), wh.frame("reported_families"),
                       {p.name: p.read_bytes() for p in (data / "out" / "patentcr" / pub.version).rglob("*.parquet")})
    assert runs[1][0]["pairs"] > 5 and runs[1][0]["ops_404"] > 0
    assert runs[4][0] == runs[1][0]
    assert runs[4][1].equals(runs[1][1]) and runs[4][2].equals(runs[1][2])
    assert runs[4][3] == runs[1][3]
