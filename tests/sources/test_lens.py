"""Lens exports: conformance on the real JSONL sample, synthetic CSV in both layouts."""
from __future__ import annotations

import csv
import io
import json
import logging
from datetime import date
from pathlib import Path

import pytest

from schemas import CITATIONS, CLAIMS, PUBLICATIONS, REJECTS, REPORTED_FAMILIES, validate
from sources.lens import (LEGACY_COLUMNS, MODERN_COLUMNS, detect_layout, lens_date, parse_lens_csv,
                          parse_lens_jsonl, priority_entry)

SAMPLE = "lens/lens_api_biopoly.jsonl"


@pytest.fixture(scope="module")
def jsonl(real_samples: Path):
    return parse_lens_jsonl(real_samples / SAMPLE, "lens_api_biopoly.jsonl")


def _pub(result, pid: str) -> dict:
    return next(p for p in result.rows["publications"] if p["pub_id"] == pid)


def test_jsonl_all_records_parse_and_validate(jsonl):
    assert jsonl.rejects == []
    assert jsonl.count("publications") == 10
    tables = jsonl.to_arrow()
    for name, spec in (("publications", PUBLICATIONS), ("citations", CITATIONS), ("claims", CLAIMS),
                       ("reported_families", REPORTED_FAMILIES)):
        validate(tables[name], spec)
    # the BOM does not hide the first record
    assert jsonl.rows["publications"][0]["pub_id"] == "CN-102206141-A"


def test_jsonl_record_without_lens_id(jsonl):
    pub = _pub(jsonl, "US-20160266975-A1")
    assert "lens_id" not in json.loads(pub["raw"])
    assert pub["title"] == "MEMORY DEVICES AND MODULES"
    # Lens writes 14/863,446 as 201514863446: the one application key is the USPTO form (issue 31)
    assert pub["app_id"] == "US-14863446" and pub["app_date"] == date(2015, 9, 23)
    assert pub["ipc"] == ["G06F 11/10", "G06F 3/06", "G06F 12/10"] and pub["ipc3"] == "G06"
    assert [i["name"] for i in pub["inventors"]] == ["HU CHAOHONG", "ZHENG HONGZHONG", "NIU DIMIN"]
    assert pub["priorities"] == [{"country": "US", "number": "14863446", "date": date(2015, 9, 23)},
                                 {"country": "US", "number": "62130600", "date": date(2015, 3, 9)}]


def test_jsonl_biblio_values(jsonl):
    cn = _pub(jsonl, "CN-102206141-A")
    assert cn["title"] == "Molecular distillation separation method of bio-oil" and cn["lang"] == "en"
    assert cn["pub_date"] == date(2011, 10, 5) and cn["doc_type"] == "application"
    assert cn["ipc"][0] == "C07C 39/04" and cn["ipc3"] == "C07"
    assert cn["inventors"][0]["name"] == "SHURONG WANG" and cn["applicants"][0]["name"] == "UNIV ZHEJIANG"
    assert cn["abstract"].startswith("The invention discloses a molecular distillation separation method")
    wo = _pub(jsonl, "WO-2017205695-A1")
    assert wo["cpc"][:2] == ["A61L 27/24", "A61L 27/3804"]
    assert wo["priorities"] == [{"country": "US", "number": "62341960", "date": date(2016, 5, 26)}]  # 62/341,960
    assert json.loads(wo["raw"])["lens_id"] == "124-237-468-990-073"


def test_jsonl_forward_citation_counts(jsonl):
    """`biblio.cited_by.patent_count` as read by hand from the sample; `cited_by: {}` means nobody cites it."""
    counts = {p["pub_id"]: p["cited_by_count"] for p in jsonl.rows["publications"]}
    assert counts["CN-102206141-A"] == 5
    assert counts["WO-2017205695-A1"] == 1
    assert counts["US-20160266975-A1"] == 4  # the record without lens_id
    assert sorted(counts.values()) == [0, 0, 0, 0, 1, 1, 2, 2, 4, 5]


def test_jsonl_citations(jsonl):
    cn = [c for c in jsonl.rows["citations"] if c["citing_pub_id"] == "CN-102206141-A"]
    assert [c["seq"] for c in cn] == [1, 2, 3, 4]
    assert cn[0]["cited_pub_id"] == "CN-101829578-A" and cn[0]["cited_by"] == "examiner"
    assert cn[3]["cited_pub_id"] is None and cn[3]["cited_npl"].startswith("GUO XIUJUAN ET AL.")
    # Lens restarts `sequence` per cited phase; our seq stays unique per document
    us = [c for c in jsonl.rows["citations"] if c["citing_pub_id"] == "US-9785570-B2"]
    assert [c["seq"] for c in us] == list(range(1, 10))
    assert {c["cited_by"] for c in us} == {"examiner", "applicant"}


def test_jsonl_empty_citation_is_a_counted_reject_never_a_row(real_samples: Path):
    """A real record with its citations swapped for what exports also hold: `{"patcit": {}}`, an unreadable patcit,
    an empty nplcit. Each is a reject naming the record and its position; the readable ones keep their seq."""
    lines = (real_samples / SAMPLE).read_bytes().decode("utf-8-sig").splitlines()
    rec = next(json.loads(line) for line in lines if '"US"' in line and "references_cited" in line)
    cites = rec["biblio"]["references_cited"]["citations"]
    good_pat = next(c for c in cites if "patcit" in c)
    rec["biblio"]["references_cited"]["citations"] = [
        good_pat, {"patcit": {}}, {"patcit": {"document_id": {"jurisdiction": "US", "doc_number": "n/a"}}},
        {"nplcit": {"text": "  "}}, {"nplcit": {"text": "SMITH J., Memory, 2012"}}, {"patcit": None}]
    result = parse_lens_jsonl(json.dumps(rec).encode(), "variant.jsonl")
    assert result.count("publications") == 1
    rows = result.rows["citations"]
    assert [c["seq"] for c in rows] == [1, 5] and "null" not in {c["cited_npl"] for c in rows}
    assert rows[1]["cited_npl"] == "SMITH J., Memory, 2012" and rows[0]["cited_pub_id"]
    pid = result.rows["publications"][0]["pub_id"]
    assert [r["locator"] for r in result.rejects] == [f"line 1 {pid} citation {n}" for n in (2, 3, 4, 6)]
    assert {r["error_class"] for r in result.rejects} == {"PatentIdError", "ValueError"}
    validate(result.to_arrow()["rejects"], REJECTS)


def test_jsonl_reported_families(jsonl):
    fam = {(f["family_kind"], f["pub_id"]) for f in jsonl.rows["reported_families"]
           if f["family_id"] == "US-9785570-B2"}
    members = {"US-9785570-B2", "KR-20160110148-A", "KR-102262575-B1", "US-20160266975-A1"}
    assert fam == {(k, m) for k in ("simple", "extended") for m in members}


def test_jsonl_claims(jsonl):
    claims = [c for c in jsonl.rows["claims"] if c["pub_id"] == "US-9785570-B2"]
    assert len(claims) == 20 and [c["claim_no"] for c in claims] == list(range(1, 21))
    assert claims[0]["text"].startswith("A driver module for an operating system, comprising:")
    assert claims[0]["is_independent"] and claims[1]["depends_on"] == [1]


def test_jsonl_bad_line_is_rejected_and_rest_parses(real_samples: Path):
    lines = (real_samples / SAMPLE).read_bytes().splitlines()
    data = b"\n".join([lines[0], b"{not json", b"[1, 2]", lines[1]])
    result = parse_lens_jsonl(data, "broken.jsonl")
    assert result.count("publications") == 2
    assert [r["locator"] for r in result.rejects] == ["line 2", "line 3"]


def _modern_csv(rows: list[list[str]], extra: str = "Sentiment") -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*MODERN_COLUMNS, extra])
    for r in rows:
        writer.writerow(r)
    return buf.getvalue().encode("utf-8-sig")


def _modern_row(**values: str) -> list[str]:
    row = dict.fromkeys(MODERN_COLUMNS, "")
    row.update({k.replace("_", " "): v for k, v in values.items()})
    return [*row.values(), "positive"]


GOOD = _modern_row(Jurisdiction="US", Kind="B2", Display_Key="US 9785570 B2", Publication_Date="2017-10-10",
                   Application_Number="US 201514863446 A", Application_Date="2015-09-23",
                   Priority_Numbers="US 201514863446 A;;US 201562130600 P", Earliest_Priority_Date="2015-03-09",
                   Title="Memory devices and modules", Abstract="An embodiment includes a system.",
                   Applicants="SAMSUNG ELECTRONICS CO LTD", Inventors="HU CHAOHONG;;NIU DIMIN",
                   Owners="SAMSUNG ELECTRONICS CO LTD (2015-11-01)", Document_Type="Granted Patent",
                   Simple_Family_Members="US 2016/0266975 A1;;KR 20160110148 A;;US 9785570 B2",
                   CPC_Classifications="G06F11/1048;;G06F12/0246", IPCR_Classifications="G06F11/10;;G06F12/1009",
                   NPL_Citations="SMITH J., Memory, 2012;;DOE A., ECC, 2013", Cited_by_Patent_Count="7")


def test_csv_modern_layout(caplog):
    bad = _modern_row(Jurisdiction="US", Display_Key="not a number", Title="broken")
    short = GOOD[:10]
    with caplog.at_level(logging.WARNING, logger="sources.lens"):
        result = parse_lens_csv(_modern_csv([GOOD, bad, short]), "export.csv")
    assert len([r for r in caplog.records if "unknown column" in r.getMessage()]) == 1
    assert "Sentiment" in caplog.text
    assert [r["locator"] for r in result.rejects] == ["row 2", "row 3"]
    pub = result.rows["publications"][0]
    assert pub["pub_id"] == "US-9785570-B2" and pub["app_id"] == "US-14863446"
    assert pub["ipc"] == ["G06F 11/10", "G06F 12/1009"] and pub["cpc"] == ["G06F 11/1048", "G06F 12/0246"]
    assert [p["number"] for p in pub["priorities"]] == ["14863446", "62130600"]
    assert [i["name"] for i in pub["inventors"]] == ["HU CHAOHONG", "NIU DIMIN"]
    assert pub["applicants"][1] == {"name": "SAMSUNG ELECTRONICS CO LTD", "country": None, "kind": "owner"}
    assert pub["doc_type"] == "utility" and pub["pub_date"] == date(2017, 10, 10)
    assert pub["cited_by_count"] == 7
    assert json.loads(pub["raw"])["Sentiment"] == "positive"
    assert {f["pub_id"] for f in result.rows["reported_families"] if f["family_kind"] == "simple"} == \
        {"US-9785570-B2", "US-20160266975-A1", "KR-20160110148-A"}
    assert [c["cited_npl"] for c in result.rows["citations"]] == ["SMITH J., Memory, 2012", "DOE A., ECC, 2013"]
    result.to_arrow()


def test_csv_legacy_layout_cp1252_cr_only():
    row = dict.fromkeys(LEGACY_COLUMNS, "")
    row.update({"Jurisdiction": "EP", "Kind": "A1", "Publication Number": "EP 2400812 A1",
                "Publication Date": "28/12/11", "Application Number": "EP 10167109 A",
                "Application Date": "24/06/10", "Title": "Réseau Bluetooth", "Inventors": "Kylmänen, Jari",
                "Priority Numbers": "EP 10167109 A", "Earliest Priority Date": "24/06/10"})
    text = ",".join(LEGACY_COLUMNS) + "\r" + ",".join(f'"{v}"' for v in row.values()) + "\r"
    result = parse_lens_csv(text.encode("cp1252"), "old.csv")
    assert result.rejects == []
    pub = result.rows["publications"][0]
    assert pub["pub_id"] == "EP-2400812-A1" and pub["title"] == "Réseau Bluetooth"
    assert pub["pub_date"] == date(2011, 12, 28) and pub["app_id"] == "EP-10167109"
    assert pub["inventors"][0] == {"name": "Jari Kylmänen", "first": "Jari", "last": "Kylmänen", "country": None}
    assert pub["priorities"] == [{"country": "EP", "number": "10167109", "date": date(2010, 6, 24)}]


def test_csv_unknown_header_is_one_reject():
    result = parse_lens_csv(b"a,b,c\n1,2,3\n", "other.csv")
    assert [r["locator"] for r in result.rejects] == ["header"] and not result.rows


def test_converters():
    assert detect_layout(list(MODERN_COLUMNS)) == "modern" and detect_layout(list(LEGACY_COLUMNS)) == "legacy"
    assert lens_date("2016-09-15") == lens_date("15/09/16") == lens_date("15/09/2016") == date(2016, 9, 15)
    assert lens_date("") is None
    with pytest.raises(ValueError):
        lens_date("next tuesday")
    assert priority_entry("US 62/130,600") == {"country": "US", "number": "62130600", "date": None}
    assert priority_entry("US 201562130600 P") == priority_entry("US 62/130,600")
    assert priority_entry("PCT/US2017/034582") == {"country": "WO", "number": "US2017034582", "date": None}
    assert priority_entry("WO 2017US34582 W") == priority_entry("PCT/US2017/034582")


def test_jsonl_streams_in_batches_equal_to_the_whole_file(real_samples):
    """Ingest streams exports batch by batch (memory bounded by the batch); the union equals one parse."""
    from sources.lens import iter_lens_jsonl

    path = real_samples / "lens" / "lens_api_biopoly.jsonl"
    data = path.read_bytes() + b"{not json}\n"
    batches = list(iter_lens_jsonl(data, "biopoly.jsonl", batch_records=2))
    whole = parse_lens_jsonl(data, "biopoly.jsonl")
    n_lines = len([ln for ln in data.splitlines() if ln.strip()])
    assert len(batches) == -(-n_lines // 2) > 1
    assert [r["pub_id"] for b in batches for r in b.rows["publications"]] == [r["pub_id"] for r in whole.rows["publications"]]
    assert sum(len(b.rejects) for b in batches) == len(whole.rejects) == 1
    assert batches[-1].rejects[0]["locator"] == f"line {n_lines}"
    assert list(iter_lens_jsonl(b"", "empty.jsonl"))[0].rows.get("publications", []) == []
