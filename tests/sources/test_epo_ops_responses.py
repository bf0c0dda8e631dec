"""Every OPS response type the client asks for is recognised and read (`pf parse ops`, the ingest): real
recorded samples where they exist, the replica's real-format answers otherwise. Family ids are kept."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from patentfactory.sim.generator import WorldSpec
from patentfactory.sim.upstream import Replica
from sources.epo_ops.client import OpsClient
from sources.epo_ops.parse import parse_ops
from sources.http import RetryPolicy

pytestmark = pytest.mark.services

OPS = "epo-ops"


def _families(result) -> set[tuple[str, str, str]]:
    return {(r["family_kind"], r["family_id"], r["pub_id"]) for r in result.rows.get("reported_families", [])}


def test_real_biblio_keeps_its_docdb_family_id(real_samples: Path):
    result = parse_ops((real_samples / OPS / "get_biblio.response.xml").read_bytes(), "biblio.xml")
    assert _families(result) == {("simple", "43088294", "EP-2400812-A1")}
    assert result.count("publications") == 1 and not result.rejects
    result.to_arrow()


def test_real_family_responses_give_docdb_and_inpadoc_families(real_samples: Path):
    # (the legal sample says 5 members but holds 1)
    for name, n in (("get_family.response.xml", 5), ("family_input.xml", 6), ("get_legal.response.xml", 1)):
        result = parse_ops((real_samples / OPS / name).read_bytes(), name)
        fams = _families(result)
        assert not result.rejects and len(fams) == 2 * n, name
        assert {k for k, _, _ in fams} == {"simple", "extended"} and len({f for _, f, _ in fams}) == 1, name


def _envelope(inner: bytes) -> bytes:
    return (b'<?xml version="1.0" encoding="UTF-8"?><ops:world-patent-data xmlns="http://www.epo.org/exchange" '
            b'xmlns:ops="http://ops.epo.org"><ops:biblio-search total-result-count="1"><ops:query syntax="CQL">'
            b'pn=EP2400812</ops:query><ops:range begin="1" end="1"/><ops:search-result>' + inner
            + b"</ops:search-result></ops:biblio-search></ops:world-patent-data>")


def test_biblio_search_of_a_real_exchange_document_is_read(real_samples: Path):
    """search/biblio: a real exchange-document inside a biblio-search envelope (was 'unknown OPS response type')."""
    real = (real_samples / OPS / "get_biblio.response.xml").read_bytes()
    doc = real[real.index(b"<exchange-documents>"):real.index(b"</exchange-documents>") + 21]
    result = parse_ops(_envelope(doc), "search_biblio.xml")
    assert not result.rejects and [p["pub_id"] for p in result.rows["publications"]] == ["EP-2400812-A1"]
    assert _families(result) == {("simple", "43088294", "EP-2400812-A1")}
    plain = parse_ops(_envelope(b'<ops:publication-reference system="ops.epo.org" family-id="43088294">'
                                b'<document-id document-id-type="docdb"><country>EP</country><doc-number>2400812'
                                b"</doc-number><kind>A1</kind></document-id></ops:publication-reference>"), "s.xml")
    assert not plain.rejects and _families(plain) == {("simple", "43088294", "EP-2400812-A1")}


def test_family_with_biblio_gives_publications_too(real_samples: Path):
    """family/…/biblio embeds each member's exchange-document next to its references."""
    fam = (real_samples / OPS / "get_family.response.xml").read_bytes()
    real = (real_samples / OPS / "get_biblio.response.xml").read_bytes()
    doc = real[real.index(b"<exchange-document "):real.index(b"</exchange-document>") + 20]
    first = fam.index(b"</ops:family-member>")
    result = parse_ops(fam[:first] + doc + fam[first:], "family_biblio.xml")
    assert not result.rejects and [p["pub_id"] for p in result.rows["publications"]] == ["EP-2400812-A1"]
    assert len(_families(result)) == 10


def test_fault_and_unknown_bodies_are_one_reject_each():
    fault = (b'<?xml version="1.0" encoding="UTF-8"?><fault xmlns="http://ops.epo.org"><code>SERVER.EntityNotFound'
             b"</code><message>No results found</message></fault>")
    result = parse_ops(fault, "f.xml")
    assert [r["message"] for r in result.rejects] == ["OPS fault SERVER.EntityNotFound: No results found"]
    other = parse_ops(b"<root><x/></root>", "o.xml")
    assert len(other.rejects) == 1 and "unknown OPS response type" in other.rejects[0]["message"]


@pytest.fixture(scope="module")
def ops_world(shared_world) -> Path:
    return shared_world(120, 5, WorldSpec(120, 5, renderers=("ops",)))


def test_every_request_the_client_makes_parses_from_the_replica(ops_world: Path):
    docs = sorted(p.name for p in (ops_world / "ops" / "published-data" / "publication" / "docdb").iterdir())
    doc = docs[0]
    with Replica(ops_world) as rep:
        ops = OpsClient("k", "s", rep.base_url + "/3.2", sleep=lambda _s: None, retry=RetryPolicy(attempts=2))
        bodies = {"biblio": ops.published(doc, "biblio"), "claims": ops.published(doc, "claims"),
                  "family": ops.family(doc, biblio=False), "family_biblio": ops.family(doc),
                  "search": next(iter(ops.search_pages("pn=EP", page=5, limit=5))),
                  "search_biblio": ops.get("published-data/search/biblio", {"q": "pn=EP", "Range": "1-5"}).content}
    expect = {"biblio": "publications", "claims": "claims", "family": "reported_families",
              "family_biblio": "reported_families", "search": "reported_families", "search_biblio": "publications"}
    for name, table in expect.items():
        result = parse_ops(bodies[name], f"{name}.xml")
        assert not result.rejects and result.count(table) > 0, (name, result.rejects[:1])
        result.to_arrow()
    search = parse_ops(bodies["search_biblio"], "sb.xml")
    assert search.count("publications") == 5 and len(_families(search)) == 5


def test_generated_family_ids_are_the_true_simple_families(ops_world: Path):
    """The generator's OPS family-id is the DOCDB family: one id per true simple family and back."""
    rows = []
    for path in sorted((ops_world / "ops").rglob("*.xml")):
        rows += parse_ops(path.read_bytes(), path.name).rows.get("reported_families", [])
    reported = pl.DataFrame(rows).filter(pl.col("family_kind") == "simple").unique()
    truth = pl.read_parquet(ops_world / "truth" / "families.parquet").select("pub_id", "simple_family_id")
    joined = reported.join(truth, on="pub_id", how="inner")
    assert joined.height == reported.height > 0
    assert joined.group_by("family_id").agg(pl.col("simple_family_id").n_unique())["simple_family_id"].max() == 1
    assert joined.group_by("simple_family_id").agg(pl.col("family_id").n_unique())["family_id"].max() == 1
