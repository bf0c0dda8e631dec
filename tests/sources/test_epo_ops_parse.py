"""EPO OPS XML parsing: conformance on the recorded OPS 3.2 responses, plus synthetic edge cases."""
from __future__ import annotations

from datetime import date
import re
from pathlib import Path

import pytest

from sources.epo_ops.parse import (claim_dependencies, claim_rows, normalise_ipc, parse_ops,
                                   parse_ops_biblio, parse_ops_claims, parse_ops_description, split_name)
from sources.epo_ops.responses import parse_family_members, parse_ops_family
from common.patent_ids import app_id, normalise_app_id

OPS = "epo-ops"


def _read(real_samples: Path, name: str) -> bytes:
    return (real_samples / OPS / name).read_bytes()


@pytest.fixture(scope="module")
def biblio(real_samples: Path):
    return parse_ops_biblio(_read(real_samples, "get_biblio.response.xml"), "get_biblio.response.xml")


def test_biblio_ids_dates_title(biblio):
    assert biblio.rejects == []
    (pub,) = biblio.rows["publications"]
    assert (pub["pub_id"], pub["country"], pub["doc_number"], pub["kind"]) == ("EP-2400812-A1", "EP", "2400812", "A1")
    assert pub["pub_date"] == date(2011, 12, 28)
    assert pub["app_id"] == "EP-10167109" and pub["app_date"] == date(2010, 6, 24)
    assert pub["title"] == "BLUETOOTH NETWORKING" and pub["lang"] == "en"
    assert pub["abstract"].startswith("An apparatus enabling establishment of a Bluetooth mesh network")
    assert pub["source"] == "epo_ops" and pub["raw"] == "get_biblio.response.xml#0"


def test_biblio_classes_parties_priorities(biblio):
    (pub,) = biblio.rows["publications"]
    assert pub["ipc"] == ["H04W 84/20"] and pub["ipc3"] == "H04"
    assert pub["cpc"] == ["H04W 84/20", "H04W 88/04"]  # 4 entries, 2 distinct symbols
    # only epodoc + original formats here: epodoc wins, the original duplicates are not added
    assert pub["inventors"] == [{"name": n, "first": None, "last": None, "country": "FI"}
                                for n in ("HERRALA SAMI", "KYLMAENEN JARI", "NIEMI JAAKKO")]
    assert pub["applicants"] == [{"name": "9SOLUTIONS OY", "country": "FI", "kind": "applicant"}]
    # epodoc EP20100167109 becomes the DOCDB form used by the family response
    assert pub["priorities"] == [{"country": "EP", "number": "10167109", "date": date(2010, 6, 24)}]


def test_biblio_citations(biblio):
    cits = biblio.rows["citations"]
    assert [c["seq"] for c in cits] == [1, 2, 3, 4, 5, 6]
    assert cits[0]["cited_pub_id"] == "WO-2002054790-A2" and cits[0]["category"] == "A"
    assert cits[5]["cited_pub_id"] == "EP-1542377-A2" and cits[5]["category"] == "Y"
    assert {c["cited_by"] for c in cits} == {"examiner"}
    biblio.to_arrow()


def test_family_sample(real_samples: Path):
    result = parse_ops_family(_read(real_samples, "get_family.response.xml"), "get_family.response.xml")
    rows = result.rows["reported_families"]
    members = ["EP-2400812-A1", "EP-2400812-B1", "CA-2744162-A1", "US-20120057518-A1", "US-9648662-B2"]
    for kind in ("simple", "extended"):  # DOCDB family of each member; the INPADOC family named by its smallest
        assert [r["pub_id"] for r in rows if r["family_kind"] == kind] == members, kind
    assert {r["family_id"] for r in rows} == {"43088294"} and {r["source"] for r in rows} == {"epo_ops"}
    result.to_arrow()


def test_family_members_priorities(real_samples: Path):
    members, result = parse_family_members(_read(real_samples, "family_input.xml"))
    assert result.rejects == []
    assert [m["pub_id"] for m in members] == ["EP-1000000-A1", "EP-1000000-B1", "AT-232441-T", "DE-69905327-D1",
                                              "NL-1010536-C2", "US-6093011-A"]
    assert {m["family_id"] for m in members} == {"19768124"}
    assert all(m["priorities"] == [{"country": "NL", "number": "1010536", "date": date(1998, 11, 12)}]
               for m in members)
    # DOCDB writes 09/206,856 (filed 1998) as serial + year, '20685698': no series code, so a marked key rather
    # than the wrong USPTO-looking 'US-20685698' (issue 31)
    assert members[-1]["app_id"] == "US-DOCDB20685698" and members[0]["app_id"] == "EP-99203729"


def _us_variant(real_samples: Path, app_ref: str, priority: str) -> dict:
    """The recorded biblio with its application-reference and priority claim swapped for a US document's, as OPS
    writes one (DOCDB serial + yy, epodoc, original); the rest of the response stays byte for byte."""
    text = _read(real_samples, "get_biblio.response.xml").decode()
    text = re.sub(r"<application-reference .*?</application-reference>", app_ref, text, count=1, flags=re.S)
    text = re.sub(r"<priority-claim .*?</priority-claim>", priority, text, count=1, flags=re.S)
    result = parse_ops_biblio(text.encode(), "us-variant.xml")
    assert result.rejects == []
    return result.rows["publications"][0]


def test_us_application_key_is_the_original_number_not_docdb(real_samples: Path):
    """OPS biblio of US 2012/0057518 A1: DOCDB '94268010', original '12942680' -> US-12942680, the key the USPTO
    parser and the PTAB write, so OPS rows join them on application (issue 31)."""

    app_ref = """<application-reference doc-id="342104949">
  <document-id document-id-type="docdb"><country>US</country><doc-number>94268010</doc-number><kind>A</kind>
    <date>20101111</date></document-id>
  <document-id document-id-type="epodoc"><doc-number>US20100942680</doc-number><date>20101111</date></document-id>
  <document-id document-id-type="original"><doc-number>12942680</doc-number></document-id>
</application-reference>"""
    prio = """<priority-claim sequence="1" kind="national">
  <document-id document-id-type="docdb"><country>US</country><doc-number>201562130600</doc-number><kind>P</kind>
    <date>20150306</date></document-id>
  <document-id document-id-type="epodoc"><doc-number>US201562130600P</doc-number><date>20150306</date></document-id>
</priority-claim>"""
    pub = _us_variant(real_samples, app_ref, prio)
    assert pub["app_id"] == app_id("US", "12/942,680") == "US-12942680" and pub["app_date"] == date(2010, 11, 11)
    assert pub["priorities"][0] == {"country": "US", "number": "62130600", "date": date(2015, 3, 6)}
    no_original = re.sub(r'<document-id document-id-type="original">.*?</document-id>', "", app_ref, flags=re.S)
    assert _us_variant(real_samples, no_original, prio)["app_id"] == "US-DOCDB94268010", "no series code"


def test_claims_sample(real_samples: Path):
    result = parse_ops_claims(_read(real_samples, "get_claims.response.xml"), "get_claims.response.xml")
    claims = result.rows["claims"]
    assert len(claims) == 15 and [c["claim_no"] for c in claims] == list(range(1, 16))
    assert {c["pub_id"] for c in claims} == {"EP-2400812-A1"}
    assert claims[0]["text"].startswith("A communication device (100) comprising:\na first Bluetooth transceiver")
    assert claims[0]["is_independent"] and claims[14]["is_independent"]
    assert claims[3]["depends_on"] == [2, 3]          # 'The device of claim 2 or 3'
    assert claims[9]["depends_on"] == [7, 8, 9]       # 'any preceding claim 7 to 9'
    assert claims[4]["depends_on"] == [1, 2, 3, 4]    # 'any preceding claim'
    result.to_arrow()


def test_description_sample(real_samples: Path):
    result = parse_ops_description(_read(real_samples, "get_description.response.xml"), "d.xml")
    paras = result.rows["descriptions"]
    assert paras[0] == {"pub_id": "EP-2400812-A1", "para_no": 0, "heading": "Field",
                        "text": "The invention relates to the field of wireless networking and, particularly, "
                                "to implementation of a Bluetooth network."}
    assert paras[1]["heading"] == "Background" and paras[1]["text"].startswith("Bluetooth uses a radio technology")
    assert [p["para_no"] for p in paras] == list(range(len(paras)))
    assert not any(p["text"].startswith("[") for p in paras)
    result.to_arrow()


def test_dispatch_all_samples(real_samples: Path):
    expect = {"get_biblio.response.xml": "publications", "get_family.response.xml": "reported_families",
              "family_input.xml": "reported_families", "get_legal.response.xml": "reported_families",
              "get_claims.response.xml": "claims", "get_description.response.xml": "descriptions"}
    for name, table in expect.items():
        result = parse_ops(_read(real_samples, name), name)
        assert result.rejects == [] and result.count(table) > 0, name


def test_malformed_xml_is_a_reject():
    result = parse_ops_biblio(b"<ops:world-patent-data><exchange-documents>", "truncated.xml")
    assert not result.rows and result.rejects[0]["locator"] == "document"
    assert result.rejects[0]["error_class"] == "XMLSyntaxError"


def test_document_without_id_is_a_reject_others_parse():
    xml = (b'<ops:world-patent-data xmlns="http://www.epo.org/exchange" xmlns:ops="http://ops.epo.org">'
           b'<exchange-documents><exchange-document><bibliographic-data/></exchange-document>'
           b'<exchange-document country="EP" doc-number="0001000" kind="B1"><bibliographic-data>'
           b'<invention-title lang="de">TITEL</invention-title></bibliographic-data></exchange-document>'
           b'</exchange-documents></ops:world-patent-data>')
    result = parse_ops_biblio(xml, "two.xml")
    assert [r["locator"] for r in result.rejects] == ["exchange-document[0]"]
    (pub,) = result.rows["publications"]
    assert pub["pub_id"] == "EP-1000-B1" and pub["title"] == "TITEL" and pub["lang"] == "de"


def test_entities_are_not_resolved(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET")
    xml = (f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret}">]>'
           '<ops:world-patent-data xmlns="http://www.epo.org/exchange" xmlns:ops="http://ops.epo.org">'
           '<exchange-documents><exchange-document country="EP" doc-number="1" kind="A1"><bibliographic-data>'
           '<invention-title lang="en">T &x;</invention-title></bibliographic-data></exchange-document>'
           '</exchange-documents></ops:world-patent-data>').encode()
    (pub,) = parse_ops_biblio(xml, "xxe.xml").rows["publications"]
    assert "TOPSECRET" not in pub["title"]


def test_converters():
    assert normalise_ipc("H04W  84/    20            A I") == "H04W 84/20"
    assert normalise_ipc("H04L0029060000") == "H04L 29/06"
    assert normalise_ipc("G06F12/0246") == "G06F 12/0246" and normalise_ipc("A61K 9/0") == "A61K 9/00"
    assert normalise_ipc("junk") is None
    assert normalise_app_id("EP20100167109") == "EP-10167109"  # epodoc EP: CC + YYYY + 7 digits; DOCDB yy + 6
    assert normalise_app_id("US201113167395") == "US-13167395"  # year-prefixed US: the USPTO form
    assert split_name("Herrala, Sami, ") == {"name": "Sami Herrala", "first": "Sami", "last": "Herrala",
                                             "country": None}
    assert split_name("NIEMI JAAKKO [FI]\n")["country"] == "FI"
    assert claim_dependencies("The method of claims 1 to 3 or claim 5", 6) == [1, 2, 3, 5]
    rows = claim_rows("X-1-A", ["What is claimed is:", "1. A thing.", "2. The thing of claim 1,", "wherein it is."])
    assert [(r["claim_no"], r["text"], r["depends_on"]) for r in rows] == [
        (1, "A thing.", []), (2, "The thing of claim 1,\nwherein it is.", [1])]


def test_ops_office_number_with_letters_is_kept(real_samples: Path):
    """A real OPS response naming a Croatian publication `HR P20251003 T1` (DOCDB: country, a number with a
    letter, kind): the record is kept under that id, not rejected for an 'unknown letter prefix'."""
    data = _read(real_samples, "get_biblio.response.xml")
    data = data.replace(b'country="EP" doc-number="2400812" kind="A1"', b'country="HR" doc-number="P20251003" kind="T1"')
    data = re.sub(rb"(<publication-reference>\s*<document-id document-id-type=\"docdb\">\s*)<country>EP</country>\s*"
                  rb"<doc-number>2400812</doc-number>\s*<kind>A1</kind>",
                  rb"\1<country>HR</country><doc-number>P20251003</doc-number><kind>T1</kind>", data)
    result = parse_ops(data, "hr.xml")
    assert result.rejects == [] and [p["pub_id"] for p in result.rows["publications"]] == ["HR-P20251003-T1"]
    assert result.rows["publications"][0]["doc_number"] == "P20251003"


def test_ops_family_sizes(real_samples: Path):
    """The INPADOC family response says its size (`total-result-count`); a whole listing also gives each DOCDB
    family's size (its members in the listing)."""
    result = parse_ops_family(_read(real_samples, "get_family.response.xml"), "get_family.response.xml")
    total = int(re.search(rb'total-result-count="(\d+)"', _read(real_samples, "get_family.response.xml")).group(1))
    rows = result.rows["reported_families"]
    extended = [r for r in rows if r["family_kind"] == "extended"]
    assert len(extended) == total and {r["family_size"] for r in extended} == {total}
    simple = [r for r in rows if r["family_kind"] == "simple"]
    for r in simple:
        assert r["family_size"] == sum(1 for s in simple if s["family_id"] == r["family_id"])
