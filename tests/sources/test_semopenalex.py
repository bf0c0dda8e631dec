"""SemOpenAlex: renderer in the real vocabulary, and the real SPARQL client against a local oxigraph server."""
from __future__ import annotations

import hashlib
import json
import socket
import threading
import urllib.parse
import urllib.request
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyoxigraph as ox
import pytest

from patentfactory.sim.generator import WorldSpec, build_world
from patentfactory.sim.generator.renderers import render
from patentfactory.sim.upstream.sparql import sparql_replica
from sources.semopenalex import SemOpenAlexClient, SparqlError, normalise_licence, parse_sparql_results

pytestmark = pytest.mark.services

FIXTURES = Path(__file__).parent / "fixtures" / "sparql"
SAMPLE_WORK = "W2015191210"


@pytest.fixture(scope="module")
def world():
    return build_world(WorldSpec(scale=300, seed=11))


@pytest.fixture(scope="module")
def rendered(world, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("soa_render")
    return render(world, out, ("semopenalex",))["semopenalex"][0]


@pytest.fixture(scope="module")
def endpoint(rendered, real_samples, tmp_path_factory):
    """`oxigraph serve` on 127.0.0.1 with the generated quads and the real sample; always stopped."""
    trig = real_samples / "sparql" / "semopenalex-data-sample.trig"
    with sparql_replica([rendered, trig], tmp_path_factory.mktemp("oxistore") / "store", timeout=60) as url:
        yield url


# ---------- renderer ----------

def test_renderer_is_deterministic_and_uses_real_vocabulary(world, rendered, tmp_path):
    again = render(world, tmp_path, ("semopenalex",))["semopenalex"][0]
    assert hashlib.sha256(again.read_bytes()).digest() == hashlib.sha256(rendered.read_bytes()).digest()
    store = ox.Store()
    store.load(path=str(rendered), format=ox.RdfFormat.N_QUADS)
    works = {str(r["w"].value) for r in store.query(
        "SELECT ?w WHERE { GRAPH ?g { ?w a <https://semopenalex.org/class/Work> } }")}
    assert len(works) == len(world.papers) > 0
    paper = world.papers[0]
    wid = f"<https://semopenalex.org/work/{paper['work_id']}>"
    q = f"""SELECT ?doi ?date ?lic WHERE {{ GRAPH ?g {{ {wid} <http://purl.org/spar/datacite/doi> ?doi ;
          <http://purl.org/dc/terms/date> ?date ; <https://semopenalex.org/property/hasLocation> ?l .
          ?l <http://purl.org/dc/terms/license> ?lic }} }}"""
    row = next(iter(store.query(q)))
    assert row["doi"].value == f"https://doi.org/{paper['doi']}"
    assert row["date"].value == date.fromordinal(date(1970, 1, 1).toordinal() + paper["pub_date"]).isoformat()
    assert normalise_licence(row["lic"].value) == paper["license"]
    alts = {r["n"].value for r in store.query(
        f"SELECT ?n WHERE {{ GRAPH ?g {{ <https://semopenalex.org/author/{paper['authors'][0]['id']}> "
        "<https://dbpedia.org/ontology/alternativeName> ?n } }")}
    assert set(paper["authors"][0]["alt_names"]) <= alts | {paper["authors"][0]["name"]}


# ---------- client against the local endpoint ----------

def test_conformance_real_sample_work_found_by_author_names(endpoint, tmp_path):
    client = SemOpenAlexClient(endpoint, cache_dir=tmp_path, timeout_s=10, backoff_s=0.01)
    found = client.fetch_authors(["Tim Berners-Lee", "Christian Bizer", "Tom Heath", "Nobody Atall"])
    assert found == {"Christian Bizer": ["A247353998"], "Tim Berners-Lee": ["A2308609296"],
                     "Tom Heath": ["A2558543881"]}
    res = client.fetch_works(a for ids in found.values() for a in ids)
    [row] = [r for r in res.rows["papers"] if r["work_id"] == SAMPLE_WORK]
    assert row["title"] == "Linked Data - The Story So Far"
    assert row["doi"] == "10.4018/jswis.2009081901"
    assert row["pub_date"] == date(2009, 7, 1)
    assert row["license"] == "public-domain"
    assert [a["name"] for a in row["authors"]] == ["Christian Bizer", "Tom Heath", "Tim Berners-Lee"]
    assert row["abstract"].startswith("The term “Linked Data”")
    assert client.oa_urls[SAMPLE_WORK].endswith("linked-data.pdf")
    assert res.to_arrow()["papers"].num_rows == 1 and not res.rejects


def test_generated_papers_found_by_alias_with_coauthors(world, endpoint, tmp_path):
    client = SemOpenAlexClient(endpoint, cache_dir=tmp_path, batch_size=7, timeout_s=10, backoff_s=0.01)
    papers = world.papers[:12]
    names = {p["authors"][0]["alt_names"][0] for p in papers}
    res = client.fetch_papers_by_names(names)
    by_id = {r["work_id"]: r for r in res.rows["papers"]}
    for p in papers:
        row = by_id[p["work_id"]]
        assert row["doi"] == p["doi"] and row["title"] == p["title"]
        assert [a["id"] for a in row["authors"]] == [a["id"] for a in p["authors"]]
        for got, want in zip(row["authors"], p["authors"]):
            assert set(want["alt_names"]) | {want["name"]} <= set(got["alt_names"]) | {got["name"]}
    assert not res.rejects
    queries = client.stats["queries"]
    again = SemOpenAlexClient(endpoint, cache_dir=tmp_path, batch_size=7).fetch_papers_by_names(names)
    assert again.rows["papers"] == res.rows["papers"]
    assert queries > 0


def test_cache_means_no_second_round_trip(endpoint, tmp_path):
    first = SemOpenAlexClient(endpoint, cache_dir=tmp_path)
    first.fetch_papers_by_names(["Tom Heath"])
    second = SemOpenAlexClient(endpoint, cache_dir=tmp_path)
    second.fetch_papers_by_names(["Tom Heath"])
    assert first.stats["queries"] == 2 and second.stats["queries"] == 0 and second.stats["cache_hits"] == 2
    assert len(list(tmp_path.glob("*.json"))) == 2


class _EmptyOnBigBatches(BaseHTTPRequestHandler):
    """Answers an empty result to works queries over more than one author (a timeout in disguise)."""
    upstream = ""

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        query = urllib.parse.parse_qs(body.decode())["query"][0]
        if "?seed" in query and query.count("<https://semopenalex.org/author/") > 1:
            payload = json.dumps({"head": {"vars": []}, "results": {"bindings": []}}).encode()
        else:
            req = urllib.request.Request(self.upstream, data=body, headers={
                "Content-Type": self.headers["Content-Type"], "Accept": "application/sparql-results+json"})
            with urllib.request.urlopen(req, timeout=10) as resp:
                payload = resp.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:
        pass


def test_empty_answer_is_retried_with_smaller_batches(world, endpoint, tmp_path):
    _EmptyOnBigBatches.upstream = endpoint
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmptyOnBigBatches)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        proxy = f"http://127.0.0.1:{server.server_address[1]}/query"
        client = SemOpenAlexClient(proxy, cache_dir=tmp_path, batch_size=4, retries=1, backoff_s=0.01)
        ids = sorted({a["id"] for p in world.papers[:5] for a in p["authors"]})
        res = client.fetch_works(ids)
        assert client.stats["splits"] > 0 and client.stats["retries"] > 0
        assert {p["work_id"] for p in world.papers[:5]} <= {r["work_id"] for r in res.rows["papers"]}
        assert not res.rejects
        assert not any(json.loads(f.read_bytes())["results"]["bindings"] == [] for f in tmp_path.glob("*.json"))
    finally:
        server.shutdown()
        server.server_close()


def test_silent_endpoint_times_out_with_a_clear_error():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        client = SemOpenAlexClient(f"http://127.0.0.1:{listener.getsockname()[1]}/sparql", timeout_s=1, retries=1,
                                   backoff_s=0.01)
        with pytest.raises(SparqlError, match="TimeoutError: timed out"):  # the client's timeout, not a hang
            client.fetch_authors(["Tom Heath"])
        assert client.stats["retries"] == 1 and client.stats["queries"] == 2


# ---------- recorded results ----------

def test_parse_recorded_results_fixture():
    res = parse_sparql_results((FIXTURES / "works_small.json").read_bytes(), "works_small.json")
    [row] = res.rows["papers"]
    assert row["work_id"] == "W100" and row["doi"] == "10.1234/abc.1" and row["pub_date"] == date(2019, 3, 1)
    assert row["license"] == "public-domain"
    assert row["authors"] == [{"id": "A1", "name": "Michael Becker", "alt_names": []},
                              {"id": "A2", "name": "Jörg Lange", "alt_names": ["J. Lange", "Jorg Lange"]}]
    assert [r["locator"] for r in res.rejects] == ["binding 3"]
    assert res.to_arrow()["papers"].num_rows == 1


@pytest.mark.parametrize("data", [b"<html>504 Gateway Time-out</html>", b'{"results": {"bindings": 3}}', b""])
def test_malformed_results_become_rejects(data):
    res = parse_sparql_results(data, "bad.json")
    assert res.count("papers") == 0 and len(res.rejects) == 1 and res.rejects[0]["locator"] == "document"


def test_licence_normalisation():
    assert normalise_licence("pd") == "public-domain"
    assert normalise_licence("CC-BY") == "cc-by"
    assert normalise_licence("https://creativecommons.org/licenses/by/4.0/") == "cc-by"
    assert normalise_licence("https://creativecommons.org/publicdomain/zero/1.0/") == "cc0"
    assert normalise_licence(None) is None
