"""arXiv licence lookup (the Pap2Pat authors' step_04): the OAI-PMH client against the replica route, and the
build step that turns arXiv licences into licensed pairs on the released Pap2Pat metadata."""
from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from patentfactory.sim.upstream import Replica
from sources.arxiv_oai import ArxivLicenceClient, OaiError, arxiv_id, licence_id, parse_record

pytestmark = pytest.mark.services
FIXTURES = Path(__file__).parent / "fixtures" / "arxiv"
CC_BY = "http://creativecommons.org/licenses/by/4.0/"
NONEXCLUSIVE = "http://arxiv.org/licenses/nonexclusive-distrib/1.0/"


def _record(world: Path, aid: str, licence: str | None) -> None:
    folder = world / "arxiv" / "records"
    folder.mkdir(parents=True, exist_ok=True)
    rec = {"id": aid, "title": f"Paper {aid}", "authors": ["Ada Lovelace", "Charles Babbage"], "categories": "cs.LG",
           "versions": [{"version": "v1", "date": "Mon, 12 Jun 2017 17:57:34 GMT", "size": "120kb"}],
           "abstract": "An abstract.", **({"license": licence} if licence else {})}
    (folder / f"{aid.replace('/', '_')}.json").write_text(json.dumps(rec), encoding="utf-8")


def test_recorded_shapes_parse():
    rec = parse_record((FIXTURES / "getrecord_arxivraw.xml").read_bytes())
    assert rec == {"id": "1706.03762", "license": NONEXCLUSIVE, "title": "Attention Is All You Need"}
    assert parse_record((FIXTURES / "iddoesnotexist.xml").read_bytes()) is None
    bad = (FIXTURES / "iddoesnotexist.xml").read_bytes().replace(b"idDoesNotExist", b"badArgument")
    with pytest.raises(OaiError, match="badArgument"):
        parse_record(bad)
    assert licence_id(rec["license"]) == "arxiv-nonexclusive" and licence_id(CC_BY) == "cc-by"
    assert licence_id("http://creativecommons.org/publicdomain/zero/1.0/") == "cc0"
    assert arxiv_id("https://arxiv.org/pdf/2101.12345v2") == "2101.12345"
    assert arxiv_id("http://arxiv.org/pdf/hep-th/9901001v1") == "hep-th/9901001"
    assert arxiv_id("https://europepmc.org/articles/PMC1/pdf") is None


def test_client_against_replica_route(tmp_path):
    _record(tmp_path, "2101.12345", CC_BY)
    _record(tmp_path, "hep-th/9901001", NONEXCLUSIVE)
    _record(tmp_path, "2202.00001", None)
    with Replica(tmp_path) as rep:
        client = ArxivLicenceClient(f"{rep.base_url}/oai2", cache_dir=tmp_path / "cache", min_interval=0.0)
        got = {a: client.licence(a) for a in ("2101.12345", "hep-th/9901001", "2202.00001", "9999.99999")}
        assert got == {"2101.12345": "cc-by", "hep-th/9901001": "arxiv-nonexclusive", "2202.00001": None,
                       "9999.99999": None}
        raw = client.http.get(f"{rep.base_url}/oai2", params={"verb": "GetRecord", "metadataPrefix": "arXivRaw",
                                                               "identifier": "oai:arXiv.org:2101.12345"}).content
        assert parse_record(raw)["license"] == CC_BY and b'<arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/">' in raw
        bad = client.http.get(f"{rep.base_url}/oai2", params={"verb": "ListRecords"}).content
        with pytest.raises(OaiError, match="badVerb"):
            parse_record(bad)
        assert client.stats["requests"] == 4 and client.licence("2101.12345") == "cc-by"
        assert client.stats["cache_hits"] == 1  # asked once per id


def test_licence_lookup_turns_matched_arxiv_papers_into_licensed_pairs(tmp_path, real_samples):
    """The 40 released pairs with no SemOpenAlex licence: nothing is licensed; with their PDFs on arXiv, the
    pairs whose arXiv record says CC-BY are, the non-exclusive and licence-less ones stay out."""
    from patentfactory.stages.build_pap2pat import Pap2PatParams, add_arxiv_licences
    from sources.pap2pat_release import paper_rows, patent_rows, read_release
    from transforms.matching import funnel_counts, match_stages

    pairs = read_release(real_samples / "volume" / "pap2pat", outlines=False)
    apps = pl.DataFrame(patent_rows(pairs))
    rows = paper_rows(pairs, licence=None)
    ids = {r["work_id"]: f"2101.{k:05d}" for k, r in enumerate(rows)}
    for k, (work, aid) in enumerate(sorted(ids.items())):
        _record(tmp_path, aid, [CC_BY, NONEXCLUSIVE, None][k % 3])
    oa_urls = {w: f"https://arxiv.org/pdf/{a}v1" for w, a in ids.items()}
    params = Pap2PatParams()
    before = funnel_counts(match_stages(apps.lazy(), pl.DataFrame(rows).lazy(), params.match))
    with Replica(tmp_path) as rep:
        client = ArxivLicenceClient(f"{rep.base_url}/oai2", min_interval=0.0)
        stats = add_arxiv_licences(apps, rows, oa_urls, client, params)
    after = funnel_counts(match_stages(apps.lazy(), pl.DataFrame(rows).lazy(), params.match))
    cc_by = {w for k, (w, _) in enumerate(sorted(ids.items())) if k % 3 == 0}
    assert before["one_to_one"] == after["one_to_one"] == stats["asked"] == 38 and before["licensed"] == 0
    assert stats["open"] == after["licensed"] == len(cc_by & {r["work_id"] for r in rows if r["license"] == "cc-by"})
    assert 0 < stats["open"] < stats["found"] < stats["asked"]
    assert {r["license"] for r in rows} == {"cc-by", "arxiv-nonexclusive", None}
