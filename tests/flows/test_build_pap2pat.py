"""Pap2Pat end to end: generated world -> USPTO replica + local oxigraph SemOpenAlex -> flow `build-pap2pat`
-> verified version, pairs scored against the generator's truth; cache reuse and bad endpoints."""
from __future__ import annotations

import json
import re
import shutil
import socket
from datetime import date
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from flows.build_pap2pat import build_pap2pat
from patentfactory.stages.build_pap2pat import fetch_candidate_papers, ingest_semopenalex, publish_pap2pat
from patentfactory.cli.main import app
from patentfactory.sim.generator import WorldSpec, generate_world
from patentfactory.store.inspect import inspect_version
from patentfactory.stages.ingest_files import ingest_uspto, stores_for
from patentfactory.store.storage import Storage
from patentfactory.sim.upstream import Replica
from patentfactory.sim.upstream.sparql import sparql_replica
from sources.semopenalex import SemOpenAlexClient
from transforms.outlines import LEVELS, copied_run, copy_index, iter_sections

pytestmark = pytest.mark.services

SPEC = WorldSpec(scale=1, seed=1, start="2005-01-01", end="2024-12-31", render_from="2005-01-01",
                 renderers=("uspto", "semopenalex", "papers"))
OPEN = ("cc-by", "cc0", "public-domain")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> tuple[Path, Path]:
    """World + warehouse with its US applications ingested through the ODP replica (shared by the tests)."""
    root = tmp_path_factory.mktemp("pap2pat")
    generate_world(root / "world", 3000, 11, SPEC)
    with Replica(root / "world") as rep:
        stats = ingest_uspto(root / "data", rep.base_url, date(2005, 1, 1), date(2100, 1, 1), "key", ("APPXML",))
    assert stats["failed"] == 0 and stats["records"]["descriptions"] > 0
    return root / "world", root / "data"


@pytest.fixture(scope="module")
def papers_replica(world):
    """The HTTP replica serving the papers' full texts (Europe PMC JATS and the open-access PDFs)."""
    with Replica(world[0]) as rep:
        yield rep.base_url


@pytest.fixture(scope="module")
def endpoint(world, tmp_path_factory):
    """`oxigraph serve` with the world's SemOpenAlex quads (the same replica `pf run` uses)."""
    quads = world[0] / "semopenalex" / "works.nq"
    with sparql_replica([quads], tmp_path_factory.mktemp("oxistore") / "store", timeout=60) as url:
        yield url


def _truth(world: Path) -> tuple[set, set]:
    """True pairs with the application filed in range: all of them, and those with an open licence."""
    pairs = pl.read_parquet(world / "truth" / "paper_pairs.parquet").filter("is_true")
    pairs = pairs.join(pl.read_parquet(world / "truth" / "papers.parquet").select("work_id", "license"), on="work_id")
    pairs = pairs.join(pl.read_parquet(world / "truth" / "publications.parquet").select("pub_id", "app_date"),
                       on="pub_id").filter(pl.col("app_date") <= date(2024, 4, 30))
    every = set(zip(pairs["pub_id"], pairs["work_id"]))
    open_ = pairs.filter(pl.col("license").is_in(OPEN))
    return every, set(zip(open_["pub_id"], open_["work_id"]))


@pytest.fixture(scope="module")
def parsed_cache(tmp_path_factory) -> Path:
    """The flow's PF_PATHS__PARSED_CACHE: a folder of the module's own (not the session's shared one)."""
    return tmp_path_factory.mktemp("parsed-cache")


@pytest.fixture(scope="module")
def flow_build(world, endpoint, papers_replica, parsed_cache, tmp_path_factory) -> tuple[Path, dict]:
    """(published root, result) of the `build-pap2pat` flow on the module's world, built once: asserted by the
    flow test, republished by the rerun test (test_rerun_uses_the_cache_and_publishes_the_same_version)."""
    out = tmp_path_factory.mktemp("pap2pat-flow") / "published"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PF_UPSTREAMS__SPARQL_ENDPOINT", endpoint)
        mp.setenv("PF_UPSTREAMS__FULLTEXT_VIA", papers_replica)
        mp.setenv("PF_PATHS__PARSED_CACHE", str(parsed_cache))
        return out, build_pap2pat(data_dir=str(world[1]), out=str(out), json_out=True)


def test_flow_publishes_pairs_recovered_from_truth(world, flow_build, parsed_cache):
    """The SPARQL endpoint and the full-text mirror as a deployment gets them: from the settings (issue 43: the
    flow ignored PF_UPSTREAMS__FULLTEXT_VIA and every paper stayed abstract-only). The PDFs' parses are kept in
    PF_PATHS__PARSED_CACHE, the downloads beside the data."""
    world_dir, data = world
    out, result = flow_build
    parses = list((parsed_cache / "parsed-pdf").glob("*/*.json"))
    assert parses and result["ingest"]["fulltext"]["pdf"] > 0
    assert list((data / "raw" / "semopenalex" / "fulltext").glob("*.pdf"))
    rep = inspect_version(Storage(out), "pap2pat", result["version"])
    assert rep.ok, rep.problems
    assert result["ingest"]["rejects"] == 0 and result["ingest"]["papers"] > 0
    vdir = out / "pap2pat" / result["version"] / "pairs"
    frames = {p.stem: pl.read_parquet(p) for p in sorted(vdir.glob("*.parquet"))}
    assert {"train", "val", "test"} <= set(frames)
    built = pl.concat(list(frames.values()))
    got = set(zip(built["pub_id"], built["work_id"]))
    every, open_ = _truth(world_dir)
    precision, recall = len(got & every) / len(got), len(got & open_) / len(open_)
    print(f"pap2pat: {len(got)} pairs, precision {precision:.3f}, recall {recall:.3f} of {len(open_)} open true pairs")
    assert precision >= 0.9 and recall >= 0.65
    assert set(built["license"]) <= set(OPEN) and built["pub_id"].is_unique().all()
    assert (built["author_overlap"] >= 0.8).all() and built["day_delta"].is_between(-365, 730).all()
    if "nc-test" in frames:
        assert (frames["nc-test"]["patent_pub_date"] >= date(2024, 1, 1)).all()
    assert (pl.concat([frames[s] for s in ("train", "val", "test")])["patent_pub_date"] < date(2024, 1, 1)).all()
    row = frames["test"].row(0, named=True)
    assert row["patent"]["sections"][0]["title"] == "DESCRIPTION" and row["patent"]["claims"][0].startswith("1. ")
    assert row["outline_empty"].startswith("# DESCRIPTION\n\n## TECHNICAL FIELD\n\n")
    assert row["paper"]["id"] == f"https://semopenalex.org/work/{row['work_id']}" and row["paper_text"]
    folder = out / "pap2pat-json" / result["version"] / row["pair_id"]
    patent = json.loads((folder / "patent.json").read_text())
    assert list(patent) == ["id", "authors", "title", "date", "abstract", "sections", "claims"]
    assert list(patent["sections"][0]) == ["title", "paragraphs", "subsections", "outline_long", "num_characters",
                                           "outline_medium", "outline_short"]
    assert (folder / "patent_outline_long.md").read_text() == row["outline_long"]
    meta = json.loads((out / "pap2pat-json" / result["version"] / "metadata.json").read_text())
    assert sorted(p for ids in meta["splits"].values() for p in ids) == sorted(built["pair_id"])
    card = (out / "pap2pat" / result["version"] / "README.md").read_text()
    assert "nc-test" in card and "Levenshtein" in card
    matching = card.split("## Matching", 1)[1].split("\n## ", 1)[0]  # which rules, and the funnel beside the paper's
    assert "`names=initials`, with name variants" in matching and "`idf=prior`" in matching
    assert "arXiv's OAI-PMH record" in matching and "0 asked" in matching  # the world's papers have no arXiv PDF
    assert f"licensed {len(got)};" in matching and "the paper: dated 930,000" in matching
    _full_texts_and_outlines_hold(built, result["ingest"]["fulltext"], card)


def _full_texts_and_outlines_hold(built: pl.DataFrame, fulltext: dict, card: str) -> None:
    """Over the whole build: papers are full text from JATS or PDF where the world has one, abstract-only
    otherwise and counted; no outline bullet holds 6 patent words verbatim; long > medium > short."""
    assert fulltext["jats"] > 0 and fulltext["pdf"] > 0 and fulltext["abstract_only"] > 0
    assert fulltext["jats"] + fulltext["pdf"] + fulltext["abstract_only"] == fulltext["matched_works"]
    # the world's PDFs carry no outline: every one takes the layout rules, and the card counts the routes
    assert fulltext["pdf_layout"] == fulltext["pdf"] and fulltext["pdf_outline"] == 0
    assert "0 with headings and levels from the PDF's own outline" in card
    assert f"{fulltext['pdf_layout']} from font size, weight and numbering (route `pdf-layout`" in card
    assert built["paper_fulltext"].sum() > 0 and (~built["paper_fulltext"]).sum() > 0
    for row in built.filter("paper_fulltext").iter_rows(named=True):
        titles = [s["title"] for s in row["paper"]["sections"]]
        assert titles[:2] == ["Introduction", "Materials and Methods"], titles
    for row in built.filter(~pl.col("paper_fulltext")).iter_rows(named=True):
        assert [s["title"] for s in row["paper"]["sections"]] == ["Abstract"]
    totals = {k: 0 for k in LEVELS}
    for row in built.iter_rows(named=True):
        patent = row["patent"]
        secs = [s for _, s in iter_sections(patent["sections"])]
        index = copy_index([p for s in secs for p in s["paragraphs"]] + patent["claims"])
        for level in LEVELS:
            bullets = [b for s in secs for b in s[f"outline_{level}"] or []]
            totals[level] += len(bullets)
            assert all(copied_run(b, index) is None for b in bullets), row["pair_id"]
    assert totals["long"] > totals["medium"] > totals["short"] > 0, totals
    departures = card.split("## Departures from the paper", 1)[1].split("\n## ", 1)[0]
    assert f"{fulltext['jats']} papers from PubMed Central JATS" in departures
    assert f"{(~built['paper_fulltext']).sum()} published papers are abstract-only" in departures
    assert "copy the paper" in departures and "127.0.0.1" not in card


def test_rerun_uses_the_cache_and_publishes_the_same_version(world, endpoint, papers_replica, flow_build):
    """The rerun publishes into the flow's root (flow_build: the first publish): the same version, not created."""
    _, data = world
    out, built = flow_build
    first = ingest_semopenalex(data, endpoint, fulltext_via=papers_replica)
    second = ingest_semopenalex(data, endpoint, fulltext_via=papers_replica)
    assert second["queries"] == 0 and second["cache_hits"] > 0 and second["papers"] == first["papers"]
    assert second["fulltext"] == first["fulltext"]  # the same texts (from the cache) and the same card counts
    assert {k: second["fulltext"][k] for k in ("jats", "pdf")} == {k: first["fulltext"][k] for k in ("jats", "pdf")}
    b = publish_pap2pat(data, str(out), ingest=second)
    assert built["version"] == b.version and b.created is False


def test_cli_ingest_reads_the_fulltext_mirror_from_the_settings(world, endpoint, papers_replica, tmp_path,
                                                               monkeypatch):
    """`pf ingest semopenalex` without --fulltext-via: PF_UPSTREAMS__FULLTEXT_VIA, as the flows (issue 43)."""
    data = tmp_path / "data"
    shutil.copytree(world[1], data)
    shutil.rmtree(data / "raw" / "semopenalex" / "fulltext", ignore_errors=True)  # no text from an earlier test
    monkeypatch.setenv("PF_UPSTREAMS__FULLTEXT_VIA", papers_replica)
    res = CliRunner().invoke(app, ["ingest", "semopenalex", "--data-dir", str(data), "--endpoint", endpoint])
    assert res.exit_code == 0, res.output
    jats, pdf = (int(re.search(rf"'{form}': (\d+)", res.output).group(1)) for form in ("jats", "pdf"))
    assert jats > 0 and pdf > 0, res.output


def test_unreachable_endpoint_becomes_rejects(world, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/query"  # closed once the block ends: connection refused
    data = tmp_path / "data"
    shutil.copytree(world[1], data)
    client = SemOpenAlexClient(dead, cache_dir=tmp_path / "cache", timeout_s=2, retries=0)
    stats = ingest_semopenalex(data, dead, client=client)
    assert stats["papers"] == 0 and stats["rejects"] >= 1
    rejects = stores_for(data).warehouse.frame("rejects").filter(pl.col("source") == "semopenalex")
    assert rejects.height == stats["rejects"] and rejects["locator"].str.starts_with("authors ").all()
    assert rejects["error_class"].to_list()[0] == "SparqlError"


def test_malformed_works_answer_becomes_a_reject(endpoint, tmp_path):
    class HtmlWorks(SemOpenAlexClient):
        def _send(self, query: str) -> bytes:
            return b"<html>504 Gateway Time-out</html>" if "?seed" in query else super()._send(query)

    res = fetch_candidate_papers(HtmlWorks(endpoint, retries=0), ["Tom Heath", "Nobody Atall"])
    assert not res.rows.get("papers")
    res = fetch_candidate_papers(HtmlWorks(endpoint, retries=0), sorted(_some_names(endpoint)))
    assert res.rejects and res.rejects[0]["locator"] == "document" and "504" in res.rejects[0]["snippet"]


def _some_names(endpoint: str) -> set[str]:
    body = SemOpenAlexClient(endpoint).run("SELECT ?n WHERE { ?a <http://xmlns.com/foaf/0.1/name> ?n } LIMIT 5")
    return {b["n"]["value"] for b in json.loads(body)["results"]["bindings"]}


def test_cli_parse_sparql_writes_papers_and_rejects(tmp_path):
    fixture = Path(__file__).parents[1] / "sources" / "fixtures" / "sparql" / "works_small.json"
    res = CliRunner().invoke(app, ["parse", "sparql", str(fixture), "--out", str(tmp_path / "papers.parquet")])
    assert res.exit_code == 0, res.output
    assert pl.read_parquet(tmp_path / "papers.parquet")["work_id"].to_list() == ["W100"]
    assert pl.read_parquet(tmp_path / "papers.rejects.parquet").height == 1
    bad = CliRunner().invoke(app, ["build", "pap2pat", "--data-dir", str(tmp_path / "empty"), "--out",
                                   str(tmp_path / "out")])
    assert bad.exit_code == 2 and "pf ingest semopenalex" in bad.output
