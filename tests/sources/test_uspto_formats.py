"""Format families beyond the real samples (APS, PATDOC, plant/reissue/SIR ids), converters and the splitter."""
from __future__ import annotations

import random
import tracemalloc
import zipfile
from datetime import date
from pathlib import Path

import pytest

from sources.records import ParseResult
from sources.uspto_bulk import (
    Limits, UnknownFormatError, detect_format, iter_documents, parse_document, parse_file, split_stream,
)
from sources.uspto_bulk.convert import (
    aps_patent_number, cited_by_of, design_number, normalise_ipc, yyyymmdd_or_none,
)

FIXTURES = Path(__file__).parent / "fixtures" / "uspto"

V4 = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v47-2022-02-17.dtd" [ ]>
<us-patent-grant lang="EN" dtd-version="v4.7 2022-02-17" country="US">
<us-bibliographic-data-grant>
<publication-reference><document-id><country>US</country><doc-number>{num}</doc-number><kind>{kind}</kind>
<date>20230103</date></document-id></publication-reference>
<application-reference appl-type="{appl}"><document-id><country>US</country><doc-number>{app}</doc-number>
<date>20210505</date></document-id></application-reference>
<invention-title>Title of {num}</invention-title>
</us-bibliographic-data-grant>
<abstract><p>Short abstract with H<sub>2</sub>O and x<sup>2</sup>.</p></abstract>
<description><heading>FIELD</heading><p>Text <b>bold</b> and a table <tables><table><tgroup><tbody><row>
<entry>cell</entry></row></tbody></tgroup></table></tables> after.</p></description>
<claims><claim id="CLM-00001" num="00001"><claim-text>1. A thing.</claim-text></claim></claims>
</us-patent-grant>
"""


def _v4(num: str, kind: str, appl: str = "utility", app: str = "17123456") -> bytes:
    return V4.format(num=num, kind=kind, appl=appl, app=app).encode()


def _all(path: Path, **kw) -> ParseResult:
    out = ParseResult()
    for batch in parse_file(path, **kw):
        out.extend(batch)
    return out


@pytest.mark.parametrize(("num", "kind", "appl", "pub_id", "doc_type"), [
    ("PP034567", "P3", "plant", "US-PP34567-P3", "plant"),
    ("RE049000", "E1", "reissue", "US-RE49000-E1", "reissue"),
    ("D0987654", "S1", "design", "US-D987654-S1", "design"),
    ("H0002345", "H1", "sir", "US-H2345-H1", "sir"),
    ("11500000", "B1", "utility", "US-11500000-B1", "utility"),
])
def test_document_types_keep_prefixes(num: str, kind: str, appl: str, pub_id: str, doc_type: str) -> None:
    result = parse_document(_v4(num, kind, appl), "ipg230103.xml", 0, 0)
    (pub,) = result.rows["publications"]
    assert (pub["pub_id"], pub["doc_type"], pub["kind"]) == (pub_id, doc_type, kind)
    assert pub["doc_number"] == pub_id.split("-")[1]
    result.to_arrow()


def test_inline_markup_and_table_placeholder() -> None:
    result = parse_document(_v4("11500000", "B1"), "f.xml", 0, 0)
    assert result.rows["publications"][0]["abstract"] == "Short abstract with H2O and x2."
    (para,) = result.rows["descriptions"]
    assert para == {"pub_id": "US-11500000-B1", "para_no": 0, "heading": "FIELD",
                    "text": "Text bold and a table [TABLE] after."}


def test_aps_fixture() -> None:
    result = _all(FIXTURES / "aps_pftaps19990105.txt")
    assert result.rejects == []
    utility, design = result.rows["publications"]
    assert utility["pub_id"] == "US-5855683-A" and utility["doc_type"] == "utility"
    assert utility["title"] == "Synthetic fastening device with a resilient clip for holding thin panels"
    assert (utility["pub_date"], utility["app_date"], utility["app_id"]) == (
        date(1999, 1, 5), date(1997, 3, 18), "US-08912456")
    assert utility["ipc"] == ["F16B 2/12", "A44B 21/00"] and utility["ipc3"] == "F16"
    assert [i["name"] for i in utility["inventors"]] == ["John Q. Doe", "Hiroshi Tanaka"]
    assert [i["country"] for i in utility["inventors"]] == ["US", "JP"]
    assert utility["applicants"] == [{"name": "Example Fasteners Inc.", "country": "US", "kind": "assignee"}]
    assert utility["priorities"] == [{"country": "JP", "number": "8123456", "date": date(1996, 4, 1)}]
    assert utility["related"][0]["relation"] == "continuation"
    assert utility["abstract"].startswith("A resilient clip holds thin panels") and "legs joined" in utility["abstract"]
    assert design["pub_id"] == "US-D412345-S" and design["doc_type"] == "design" and design["app_id"] == "US-29045678"
    claims = {(c["pub_id"], c["claim_no"]): c for c in result.rows["claims"]}
    assert claims[("US-5855683-A", 1)]["text"].split("\n") == [
        "A clip for holding a panel, comprising:", "a first leg;", "a second leg joined to the first leg by a bend."]
    assert claims[("US-5855683-A", 2)]["depends_on"] == [1]
    assert claims[("US-5855683-A", 3)]["depends_on"] == [1, 2]
    assert claims[("US-D412345-S", 1)]["is_independent"]
    cited = [(c["cited_pub_id"], c["cited_npl"] is not None) for c in result.rows["citations"]]
    assert cited == [("US-4123456-", False), ("US-D345678-", False), ("DE-2345678-", False), (None, True)]
    headings = [(d["heading"], d["text"]) for d in result.rows["descriptions"]]
    assert headings[0] == ("BACKGROUND OF THE INVENTION", "Panels are hard to hold.")
    assert ("SUMMARY OF THE INVENTION", "[TABLE]") in headings
    assert headings[-1] == ("Detailed description", "The clip 10 has legs 12 and 14.")
    result.to_arrow()


def test_patdoc_fixture() -> None:
    data = (FIXTURES / "patdoc_us06715000.xml").read_bytes()
    assert detect_format(data) == "patdoc"
    result = parse_document(data, "pg040406.xml", 0, 0)
    (pub,) = result.rows["publications"]
    assert pub["pub_id"] == "US-6715000-B2" and pub["app_id"] == "US-10032416"
    assert pub["title"] == "Network session with H2O\u2014cooled [relay] nodes"
    assert pub["ipc"] == ["H04L 29/06", "G06F 15/16"] and pub["ipc3"] == "H04"
    assert [i["name"] for i in pub["inventors"]] == ["Akira Yamada", "Ann Lee"]
    assert pub["priorities"] == [{"country": "JP", "number": "2000398765", "date": date(2000, 12, 28)}]
    assert [r["relation"] for r in pub["related"]] == ["continuation", "provisional"]
    claims = result.rows["claims"]
    assert [c["depends_on"] for c in claims] == [[], [1], []]
    assert claims[0]["text"] == "A relay node comprising:\na water cooler; and\na session forwarder."
    cits = result.rows["citations"]
    assert [(c["cited_pub_id"], c["cited_by"]) for c in cits] == [
        ("US-5123456-A", "examiner"), ("KR-20010012345-A1", "other"), (None, "examiner")]
    texts = [d["text"] for d in result.rows["descriptions"]]
    assert "Sessions drop at 40\u00b0 C." in texts and "[TABLE]" in texts and "The node 10 uses CO2 sensors." in texts


def test_detect_format_by_doctype_and_root() -> None:
    assert detect_format(_v4("1", "B1")) == "v4"
    assert detect_format(b'<?xml version="1.0"?>\n<patent-application-publication/>') == "pap"
    assert detect_format(b"PATN\nWKU  039305271\n") == "aps"
    with pytest.raises(UnknownFormatError, match="'us-sequence-listing'"):
        detect_format(b'<?xml version="1.0"?>\n<!DOCTYPE us-sequence-listing SYSTEM "s.dtd">\n<x/>')
    with pytest.raises(UnknownFormatError):
        detect_format(b"just some text")


@pytest.mark.parametrize(("raw", "expected"), [
    ("H04L 29/06", "H04L 29/06"), ("C12N001/20", "C12N 1/20"), ("A61B005/00", "A61B 5/00"),
    ("H04L 2906", "H04L 29/06"), ("F16B  212", "F16B 2/12"), ("", None), ("junk", None),
])
def test_normalise_ipc(raw: str, expected: str | None) -> None:
    assert normalise_ipc(raw) == expected


def test_named_converters() -> None:
    assert yyyymmdd_or_none("20180619") == date(2018, 6, 19)
    assert yyyymmdd_or_none("20100800") is None and yyyymmdd_or_none(None) is None
    assert design_number("D0656308") == "D656308" and design_number("PP012345") == "PP12345"
    assert aps_patent_number("039305271") == "3930527" and aps_patent_number("RE0286716") == "RE28671"
    assert [cited_by_of(c) for c in ("cited by examiner", "cited by applicant", "cited by other", "")] == [
        "examiner", "applicant", "other", None]


def _write_many(path: Path, n: int) -> int:
    size = 0
    with open(path, "wb") as fh:
        for i in range(n):
            noise = random.Random(i).randbytes(2000).hex().encode()  # realistic (low) compressibility
            doc = _v4(str(10_000_000 + i), "B2") + b"<!-- padding " + noise + b" -->\n"
            fh.write(doc)
            size += len(doc)
    return size


def test_splitter_memory_does_not_grow_with_file_size(tmp_path: Path) -> None:
    peaks = []
    for n in (200, 2000):
        path = tmp_path / f"ipg{n}.xml"
        size = _write_many(path, n)
        tracemalloc.start()
        count = sum(1 for _ in iter_documents(path, Limits(chunk_bytes=64 << 10)))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert count == n and size > n * 4000
    assert peaks[1] < 1_000_000, peaks
    assert peaks[1] < peaks[0] * 2, peaks


def test_parse_file_batches_and_zip_streaming(tmp_path: Path) -> None:
    xml = tmp_path / "ipg230103.xml"
    _write_many(xml, 1100)
    archive = tmp_path / "ipg230103.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(xml, "ipg230103.xml")
    batches = list(parse_file(archive, batch_docs=500))
    assert [b.count("publications") for b in batches] == [500, 500, 100]
    assert batches[2].rows["publications"][-1]["pub_id"] == "US-10001099-B2"
    assert batches[0].rows["publications"][0]["raw"] == "ipg230103.zip#0@0"


def test_split_across_tiny_chunks_matches_whole() -> None:
    docs = [_v4(str(10_000_000 + i), "B2") for i in range(5)]
    blob = b"\n".join(docs)
    chunks = [blob[i:i + 7] for i in range(0, len(blob), 7)]
    got = list(split_stream(chunks, Limits(chunk_bytes=7)))
    assert [d.data.strip() for d in got] == [d.strip() for d in docs]
    assert [d.offset for d in got] == [blob.find(d) for d in docs]


def test_xml_declaration_quoted_in_cdata_or_a_comment_does_not_split_the_document() -> None:
    quoted = (b"<p>Example file:<![CDATA[\n<?xml version=\"1.0\"?>\n<a/>]]> and <!--\n<?xml "
              b"version=\"1.0\"?> --> end.</p>")
    docs = [_v4("10000000", "B2"), _v4("10000001", "B2").replace(b"<heading>FIELD</heading>",
                                                                 b"<heading>FIELD</heading>" + quoted),
            _v4("10000002", "B2")]
    blob = b"".join(docs)
    for size in (7, 1 << 20):
        got = list(split_stream([blob[i:i + size] for i in range(0, len(blob), size)], Limits(chunk_bytes=size)))
        assert [d.data for d in got] == docs
    pubs = [parse_document(d.data, "f.xml", d.index, d.offset).rows["publications"][0] for d in got]
    assert [p["pub_id"] for p in pubs] == ["US-10000000-B2", "US-10000001-B2", "US-10000002-B2"]


def test_oversized_document_is_rejected_and_file_continues(tmp_path: Path) -> None:
    big = _v4("10000001", "B2").replace(b"<abstract>", b"<abstract>" + b"y" * 50_000)
    path = tmp_path / "ipg.xml"
    path.write_bytes(_v4("10000000", "B2") + big + _v4("10000002", "B2"))
    result = _all(path, limits=Limits(max_doc_bytes=20_000, chunk_bytes=4096))
    assert [p["pub_id"] for p in result.rows["publications"]] == ["US-10000000-B2", "US-10000002-B2"]
    (rej,) = result.rejects
    assert rej["error_class"] == "DocumentTooLargeError" and rej["locator"].startswith("doc=1@")
    assert int(rej["locator"].split("@")[1]) == len(_v4("10000000", "B2"))


def test_declared_non_patent_is_skipped_but_an_undeclared_unknown_root_is_a_reject() -> None:
    """A DOCTYPE that names no patent format is a kind of document we do not read (counted by kind); a document
    with no DOCTYPE and an unknown root (an HTML error page in a weekly file) says nothing of its kind: a reject."""
    seq = parse_document(b'<?xml version="1.0"?>\n<!DOCTYPE sequence-cwu SYSTEM "s.dtd" [ ]>\n<sequence-cwu/>',
                         "ipg.xml", 3, 120)
    assert (seq.skipped, seq.rejects, dict(seq.rows)) == ({"sequence-cwu": 1}, [], {})
    page = parse_document(b'<?xml version="1.0"?>\n<html><body>503</body></html>', "ipg.xml", 4, 300)
    assert page.skipped == {} and [r["error_class"] for r in page.rejects] == ["UnknownFormatError"]
