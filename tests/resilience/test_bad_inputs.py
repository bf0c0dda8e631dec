"""Bad-input corpus through every parser: each bad input is one clear reject (or a typed error naming
the file), the batch never crashes, memory stays bounded, and the good records next to it still parse."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import polars as pl
import pytest

from patentfactory.stages.ingest import Stores, ingest_files
from patentfactory.stages.ingest_ops import ingest_ops
from patentfactory.store.storage import Storage
from sources.lens import parse_lens_csv
from sources.odp_bulk import ListingError, parse_product_listing
from sources.epo_ops.parse import parse_ops
from sources.ptab import parse_search_page
from sources.ptab_pdf import parse_decision_pdf
from sources.uspto_bulk import ArchiveError, iter_documents, parse_file

from . import make_bad_inputs as bad
from .memory import peak_growth_mb

pytestmark = pytest.mark.services

CORPUS = bad.CORPUS


@pytest.fixture()
def canary(tmp_path: Path) -> Path:
    """A local file an external entity points at; its content must never reach a record or reject."""
    path = tmp_path / "canary.txt"
    path.write_text(bad.SECRET_MARK)
    return path


def test_committed_corpus_matches_its_generator():
    for name, build in bad.TEXT_CASES.items():
        assert (CORPUS / name).read_bytes() == build(), f"{name}: rerun python -m tests.resilience.make_bad_inputs"


# ---------- USPTO: splitter + parser ----------

def test_uspto_hostile_documents_each_one_reject_good_ones_parse(tmp_path: Path, canary: Path):
    cases = bad.uspto_documents(canary)
    path = tmp_path / "ipg180619.xml"
    path.write_bytes(bad.uspto_hostile_xml(canary))
    results = []
    growth = peak_growth_mb(lambda: results.extend(parse_file(path)))
    pubs = [p["pub_id"] for r in results for p in r.rows.get("publications", [])]
    rejects = [rej for r in results for rej in r.rejects]
    assert pubs == ["US-10000001-B2", "US-10000002-B2", "US-10000003-B2"]
    bad_idx = [i for i, (case, _) in enumerate(cases) if case != "good"]
    assert [int(r["locator"].split("=")[1].split("@")[0]) for r in rejects] == bad_idx
    assert all(r["source_file"] == "ipg180619.xml" and r["message"] for r in rejects)
    by_case = {cases[i][0]: r for i, r in zip(bad_idx, rejects)}
    assert by_case["billion_laughs"]["error_class"] == "UnsafeXMLError"
    assert by_case["external_entity"]["error_class"] == "UnsafeXMLError"
    assert by_case["parameter_entity"]["error_class"] == "UnsafeXMLError"
    assert "depth" in by_case["deep_nesting"]["message"].lower()
    assert "encoding" in by_case["unknown_encoding"]["message"].lower()
    blob = json.dumps([r.rows for r in results], default=str) + json.dumps(rejects)
    assert bad.SECRET_MARK not in blob
    for r in results:
        r.to_arrow()  # every row and reject fits its table contract
    assert growth < 64, f"parsing a 43 kB hostile file grew RSS by {growth:.0f} MB"


def test_uspto_committed_corpus_file(tmp_path: Path):
    (result,) = list(parse_file(CORPUS / "uspto_hostile.xml"))
    assert result.count("publications") == 3
    assert len(result.rejects) == sum(case != "good" for case, _ in bad.uspto_documents())


def test_uspto_entity_declared_after_the_first_megabyte_is_still_not_resolved(canary: Path):
    """An internal subset padded past the pre-check's first 1 MB is read whole, and refused."""
    from sources.uspto_bulk import parse_document

    pad = "<!-- " + "p" * (1 << 20) + " -->"
    xxe = bad.grant(10000950, "T &xxe;", pad + f'<!ENTITY xxe SYSTEM "file://{canary}">')
    laughs = bad.grant(10000951, "&lol9;", pad + bad.laughs_subset())
    for data in (xxe, laughs):
        res = {}
        growth = peak_growth_mb(lambda: res.setdefault("r", parse_document(data, "late.xml", 0, 0)))
        assert bad.SECRET_MARK not in json.dumps(res["r"].rows, default=str) + json.dumps(res["r"].rejects)
        title = (res["r"].rows.get("publications") or [{"title": ""}])[0]["title"] or ""
        assert "lollollol" not in title and growth < 64
        assert [r["error_class"] for r in res["r"].rejects] == ["UnsafeXMLError"]


def test_uspto_declared_latin1_but_utf8_bytes_is_not_mojibake():
    from sources.uspto_bulk import parse_document

    data = bad.grant(10000960, "Wídget").replace(b'encoding="UTF-8"', b'encoding="ISO-8859-1"')
    res = parse_document(data, "f.xml", 0, 0)
    assert res.rows["publications"][0]["title"] == "Wídget"
    # real ISO-8859-1 bytes (not valid UTF-8) are still read as declared
    latin = bad.grant(10000961, "Wxdget").replace(b'encoding="UTF-8"', b'encoding="ISO-8859-1"').replace(
        b"Wxdget", "Wídget".encode("latin-1"))
    res = parse_document(latin, "f.xml", 0, 0)
    assert res.rows["publications"][0]["title"] == "Wídget"


def test_weekly_zip_attacks_are_typed_errors_naming_the_file(tmp_path: Path):
    cases = {"ipg240102.zip": (bad.zip_slip, "unsafe member name"),
             "ipg240109.zip": (bad.zip_bomb, "zip bomb"),
             "ipg240116.zip": (bad.zip_truncated, "truncated or corrupt")}
    for name, (build, words) in cases.items():
        path = build(tmp_path / name)
        with pytest.raises(ArchiveError, match=words) as info:
            growth = peak_growth_mb(lambda: list(iter_documents(path)))
        assert name in str(info.value) or "member" in str(info.value)
    growth = peak_growth_mb(lambda: pytest.raises(ArchiveError, lambda: list(iter_documents(
        bad.zip_bomb(tmp_path / "ipg240123.zip", inflated=256 << 20)))))
    assert growth < 64, f"a 256 MB zip bomb grew RSS by {growth:.0f} MB"
    assert not Path("/tmp/pf-evil.xml").exists()


def test_ingest_batch_survives_bad_archives_and_keeps_the_good_ones(tmp_path: Path, canary: Path):
    """The real ingest over a batch: failed files are counted + rejected and left un-parsed in the ledger."""
    good1 = bad.write_zip(tmp_path / "ipg240301.zip", {"ipg240301.xml": bad.grant(10002001) + bad.grant(10002002)})
    hostile = bad.write_zip(tmp_path / "ipg240308.zip", {"ipg240308.xml": bad.uspto_hostile_xml(canary)})
    slip = bad.zip_slip(tmp_path / "ipg240315.zip")
    bomb = bad.zip_bomb(tmp_path / "ipg240322.zip")
    cut = bad.zip_truncated(tmp_path / "ipg240329.zip")
    good2 = bad.write_zip(tmp_path / "ipg240405.zip", {"ipg240405.xml": bad.grant(10002003)})
    stores = Stores.at(Storage(tmp_path / "wh"), Storage(tmp_path / "raw"))
    stats = ingest_files(stores, "uspto_bulk", [good1, hostile, slip, bomb, cut, good2], parse_file, "uspto-1")
    assert stats.files == 6 and stats.failed == 3
    pubs = set(stores.warehouse.frame("publications")["pub_id"])
    assert {"US-10002001-B2", "US-10002002-B2", "US-10002003-B2", "US-10000001-B2"} <= pubs
    rejects = stores.warehouse.frame("rejects")
    failed = rejects.filter(pl.col("locator") == "file")
    assert sorted(failed["source_file"]) == ["ipg240315.zip", "ipg240322.zip", "ipg240329.zip"]
    assert set(failed["error_class"]) == {"UnsafeArchiveError", "TruncatedArchiveError"}
    assert rejects.filter(pl.col("source_file") == "ipg240308.zip").height == 10
    ledger = {r["item"]: r for r in stores.ledger.items("uspto_bulk")}
    assert [k for k, r in sorted(ledger.items()) if r["parsed_at"]] == [
        "ipg240301.zip", "ipg240308.zip", "ipg240405.zip"]
    assert stats.rejects == rejects.height


# ---------- EPO OPS ----------

@pytest.mark.parametrize("case", list(bad.ops_responses()))
def test_ops_response_parses_or_is_one_reject(case: str, canary: Path):
    data = bad.ops_responses(canary)[case]
    holder = {}
    growth = peak_growth_mb(lambda: holder.setdefault("r", parse_ops(data, f"{case}.xml")))
    res = holder["r"]
    assert bad.SECRET_MARK not in json.dumps(res.rows, default=str) + json.dumps(res.rejects)
    if case.startswith("good"):
        assert res.count("publications") == 1 and not res.rejects
    elif case == "external_entity":  # unresolved entity: the document parses without the file's content
        assert res.count("publications") + len(res.rejects) == 1
    else:
        assert res.count("publications") == 0 and len(res.rejects) == 1, res.rejects
        assert res.rejects[0]["source_file"] == f"{case}.xml" and res.rejects[0]["message"]
    res.to_arrow()
    assert growth < 64


class _FakeOps:
    """Stands in for OpsClient: serves the bad-input corpus by document number."""

    def __init__(self, responses: dict[str, bytes]) -> None:
        self.responses = responses

    def published(self, doc: str, endpoint: str) -> bytes | None:
        return self.responses.get(doc)


def test_ops_ingest_goes_on_past_hostile_responses(tmp_path: Path, canary: Path):
    responses = {f"EP.{4000100 + i}.A1": data for i, data in enumerate(bad.ops_responses(canary).values())}
    stats = ingest_ops(tmp_path, _FakeOps(responses), sorted(responses), endpoints=("biblio",))
    stores = Stores.at(Storage(tmp_path / "warehouse"), Storage(tmp_path / "raw"))
    assert stats["fetched"] == len(responses) and stats["stopped"] is None
    pubs = stores.warehouse.frame("publications")
    assert {"EP-4000001-A1", "EP-4000002-A1"} <= set(pubs["pub_id"])
    assert stores.warehouse.frame("rejects").height >= len(responses) - 3
    assert all(r["parsed_at"] for r in stores.ledger.items("epo_ops"))


# ---------- Lens CSV ----------

def test_lens_broken_quoting_costs_only_the_broken_rows():
    res = parse_lens_csv(CORPUS / "lens_broken_quoting.csv", "lens_broken_quoting.csv")
    pubs = [p["pub_id"] for p in res.rows["publications"]]
    assert pubs == [f"US-{10000000 + i}-B2" for i in (1, 2, 4, 5, 6, 7)]
    assert [r["locator"] for r in res.rejects] == ["row 3", "row 8"]
    assert all(r["source_file"] == "lens_broken_quoting.csv" for r in res.rejects)
    assert "broken quoting" in res.rejects[0]["message"]
    res.to_arrow()


@pytest.mark.parametrize("chars", [200_000, 20_000_000])
def test_lens_huge_cell_is_a_reject_and_memory_is_bounded(chars: int):
    data = bad.lens_huge_cell(chars)
    holder = {}
    growth = peak_growth_mb(lambda: holder.setdefault("r", parse_lens_csv(data, "huge.csv")))
    res = holder["r"]
    assert [p["pub_id"] for p in res.rows["publications"]] == ["US-10000001-B2", "US-10000003-B2"]
    assert [r["locator"] for r in res.rejects] == ["row 2"] and len(res.rejects[0]["snippet"]) <= 2048
    assert growth < 8 * len(data) / 1e6 + 32, f"{growth:.0f} MB for a {len(data) / 1e6:.0f} MB file"


def test_lens_runaway_multiline_cell_does_not_swallow_the_rest():
    res = parse_lens_csv(bad.lens_huge_multiline_cell(20_000), "runaway.csv")
    pubs = [p["pub_id"] for p in res.rows["publications"]]
    assert pubs[0] == "US-10000001-B2" and pubs[-1] == "US-10000003-B2"
    assert len(res.rejects) >= 1 and res.rejects[0]["locator"] == "row 2"


# ---------- PTAB decision PDFs ----------

@pytest.mark.parametrize("case", list(bad.pdf_cases()))
def test_pdf_case_is_text_or_a_reject_with_bounded_memory(case: str, caplog):
    data = bad.pdf_cases()[case]
    holder = {}
    with caplog.at_level(logging.ERROR):
        growth = peak_growth_mb(lambda: holder.setdefault("r", parse_decision_pdf(data)))
    res = holder["r"]
    if case == "good":
        assert res.reject is None and "affirmed" in res.layout_text
    else:
        assert res.reject and res.text == "", res
        assert res.reject.split(":")[0] in {"corrupt", "encrypted", "zero pages", "decompression bomb",
                                            "too many pages", "no text after cleaning"}, res.reject
    assert growth < 96, f"{case}: RSS grew {growth:.0f} MB"


# ---------- ODP JSON ----------

def test_ptab_page_with_wrong_types_rejects_each_bad_record():
    res = parse_search_page((CORPUS / "ptab_wrong_types.json").read_bytes(), "ptab_wrong_types.json")
    assert [r["decision_id"] for r in res.rows["ptab_decisions"]] == ["doc-0001", "doc-0002"]
    assert [r["locator"] for r in res.rejects] == [f"record={i}" for i in range(1, len(bad.PTAB_BAD_RECORDS) + 1)]
    assert {r["error_class"] for r in res.rejects} <= {"TypeError", "KeyError", "ValueError"}
    assert all(r["message"] and r["source_file"] == "ptab_wrong_types.json" for r in res.rejects)
    res.to_arrow()


@pytest.mark.parametrize("body", [b"[1, 2]", b'{"patentAppealDataBag": {"a": 1}}', b"not json", b"",
                                  b"[" * 200_000 + b"]" * 200_000, b'{"patentAppealDataBag": [NaN]}'])
def test_ptab_unreadable_page_is_one_reject(body: bytes):
    res = parse_search_page(body, "page.json")
    assert not res.rows.get("ptab_decisions")
    assert len(res.rejects) == 1 and res.rejects[0]["source_file"] == "page.json"


def test_odp_listing_with_wrong_types_keeps_the_good_entries(caplog):
    payload = json.loads((CORPUS / "odp_listing_wrong_types.json").read_bytes())
    with caplog.at_level(logging.WARNING, logger="sources.odp_bulk"):
        files = parse_product_listing(payload, "PTGRXML")
    assert [f.name for f in files] == ["ipg240102.zip", "ipg240206.zip"]
    assert caplog.text.count("skipped") == 5 and "ipg240109.zip" in caplog.text
    for payload in ([1], {"bulkDataProductBag": "x"}, {"bulkDataProductBag": [
            {"productIdentifier": "PTGRXML", "productFileBag": {"fileDataBag": {"a": 1}}}]}):
        with pytest.raises(ListingError, match="PTGRXML"):
            parse_product_listing(payload, "PTGRXML")
