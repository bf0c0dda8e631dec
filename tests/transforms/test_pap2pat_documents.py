"""Pap2Pat documents vs the golden example field by field, plus real USPTO XML through the real parser."""
from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pyarrow as pa
import pytest

from sources.uspto_bulk import parse_file
from transforms.outlines import LEVELS, bullet_count, copied_run, copy_index, iter_sections
from transforms.pap2pat_documents import (DocumentParams, DocumentStats, heading_depth, is_metadata_heading,
                                          levenshtein, limit_depth, paper_document, patent_document, patent_sections)
from transforms.tasks.pap2pat import document_type


@pytest.fixture(scope="module")
def golden(real_samples: Path) -> dict:
    folder = real_samples / "pap2pat"
    return {name: json.loads((folder / f"{name}.json").read_text(encoding="utf-8")) for name in ("patent", "paper")}


def _warehouse_rows(patent: dict) -> tuple[dict, list[tuple[str | None, str]], list[tuple[int, str]]]:
    """The golden patent as the warehouse would hold it: flat (heading, text) rows, claims without numbers,
    plus a cross-reference section the blacklist must remove."""
    rows: list[tuple[str | None, str]] = [(None, p) for p in patent["sections"][0]["paragraphs"]]
    rows.append(("CROSS-REFERENCE TO RELATED APPLICATION", "This application claims priority to Ser. No. 1."))
    for depth, sec in iter_sections(patent["sections"][0]["subsections"]):
        rows += [(sec["title"], p) for p in sec["paragraphs"]]
    claims = [(k + 1, c.split(". ", 1)[1]) for k, c in enumerate(patent["claims"])]
    first, last = zip(*(a.rsplit(" ", 1) for a in patent["authors"]))
    pub = {"country": "US", "doc_number": patent["id"][2:], "title": patent["title"], "abstract": patent["abstract"],
           "app_date": date.fromisoformat(patent["date"][:10]),
           "inventors": [{"name": None, "first": f, "last": la, "country": "US"} for f, la in zip(first, last)]}
    return pub, rows, claims


def _structure(sections: list[dict]) -> list:
    return [(s["title"], s["paragraphs"], _structure(s["subsections"])) for s in sections]


def test_patent_document_matches_golden_field_by_field(golden):
    """With the authors' rule (the default) every section has the golden bullet count; the `ceil` option gives
    ceil(chars / c) per section; either way no bullet holds six words of the patent verbatim."""
    want = golden["patent"]
    stats = DocumentStats()
    got = patent_document(*_warehouse_rows(want), stats=stats)
    assert list(got) == list(want)
    for key in ("id", "authors", "title", "date", "abstract", "claims"):
        assert got[key] == want[key], key
    assert _structure(got["sections"]) == _structure(want["sections"])  # levels rebuilt by rules
    assert stats.metadata_sections_dropped == 1
    for (depth, g), (want_depth, w) in zip(iter_sections(got["sections"]), iter_sections(want["sections"])):
        assert (depth, list(g)) == (want_depth, list(w))
        assert g["num_characters"] == w["num_characters"]
        assert [len(g[f"outline_{k}"]) for k in LEVELS] == [len(w[f"outline_{k}"]) for k in LEVELS]
    ceil = patent_document(*_warehouse_rows(want), DocumentParams(rounding="ceil"))
    index = copy_index([*(p for _, sec in iter_sections(want["sections"]) for p in sec["paragraphs"]), *want["claims"]])
    for _, sec in iter_sections(ceil["sections"]):
        for k, c in LEVELS.items():
            assert len(sec[f"outline_{k}"]) == bullet_count(sum(map(len, sec["paragraphs"])), c, "ceil")
            assert all(copied_run(b, index) is None for b in sec[f"outline_{k}"])


def test_paper_document_equals_golden(golden):
    want = golden["paper"]
    row = {"work_id": want["id"].rsplit("/", 1)[1], "title": want["title"], "abstract": want["abstract"],
           "pub_date": date.fromisoformat(want["date"]), "doi": None, "license": "cc-by",
           "authors": [{"id": f"A{k}", "name": n, "alt_names": []} for k, n in enumerate(want["authors"])],
           "sections": json.dumps(want["sections"])}
    assert paper_document(row) == want
    stats = DocumentStats()
    fallback = paper_document({**row, "sections": None}, stats=stats)
    assert fallback["sections"] == [{"title": "Abstract", "paragraphs": [want["abstract"]], "subsections": []}]
    assert stats.papers_without_fulltext == 1


def test_golden_documents_fit_the_published_arrow_types(golden):
    from patentfactory.stages.build_pap2pat import _plain

    for name, outlines in (("patent", True), ("paper", False)):
        typ = document_type(outlines=outlines, claims=outlines)
        back = pa.Table.from_pylist([{"d": golden[name]}], schema=pa.schema([("d", typ)])).to_pylist()[0]["d"]
        assert json.dumps(_plain(back), indent=4) == json.dumps(golden[name], indent=4)


def test_real_uspto_application_sections(real_samples: Path):
    [res] = list(parse_file(real_samples / "uspto-xml" / "ipa20180000016.xml"))
    pub = res.rows["publications"][0]
    rows = [(d["heading"], d["text"]) for d in res.rows["descriptions"]]
    stats = DocumentStats()
    doc = patent_document(pub, rows, [(c["claim_no"], c["text"]) for c in res.rows["claims"]], stats=stats)
    assert doc["id"] == "US20180000016" and doc["date"] == "2017-06-27 00:00:00"
    assert doc["authors"][:2] == ["Mika AMIYA", "Kazushige FUJIO"]
    assert doc["claims"][0].startswith("1. A light emitting device") and doc["claims"][1].startswith("2. ")
    [root] = doc["sections"]
    top = [s["title"] for s in root["subsections"]]
    assert root["title"] == "DESCRIPTION" and "CROSS-REFERENCE TO RELATED APPLICATION" not in top
    assert stats.dropped_headings == {"CROSS-REFERENCE TO RELATED APPLICATION": 1}
    assert top[:2] == ["BACKGROUND", "SUMMARY"]  # BACKGROUND has no paragraph of its own: kept as a heading row
    assert [s["title"] for s in root["subsections"][0]["subsections"]][:2] == [
        "Technical Field", "Description of Related Art"]
    by_title = {s["title"]: s for s in root["subsections"]}
    assert "Light Emitting Device" in [s["title"] for s in by_title["DETAILED DESCRIPTION"]["subsections"]]
    assert "Comparative Example 1" in [s["title"] for s in by_title["EXAMPLES"]["subsections"]]
    paras = [p for _, s in iter_sections(doc["sections"]) for p in s["paragraphs"]]
    assert len(paras) == len([t for _, t in rows if t]) - 1 and not any("\ufffd" in p for p in paras)


def test_heading_rules_and_blacklist_distance():
    assert levenshtein("kitten", "sitting") == 3 and levenshtein("abc", "abc") == 0
    assert is_metadata_heading("Cross Reference to Related Applications")
    assert is_metadata_heading("STATEMENT OF GOVERNMENT SUPPORT:")
    assert is_metadata_heading("REFERENCE TO A “SEQUENCE LISTING”, A TABLE, OR A COMPUTER PROGRAM LISTING "
                               "APPENDIX SUBMITTED ON COMPACT DISC")
    assert not is_metadata_heading("SUMMARY") and not is_metadata_heading("DETAILED DESCRIPTION")
    assert not is_metadata_heading("FUNDING", DocumentParams(blacklist=("FUNDINGS AND GRANTS",)))
    # content headings that lie within distance < 3 of a blacklisted one stay; papers' back matter goes
    assert is_metadata_heading("Funding") and not is_metadata_heading("Findings")
    assert is_metadata_heading("REFERENCES") and not is_metadata_heading("PREFERENCES")
    assert is_metadata_heading("Competing interests") and is_metadata_heading("Authors' contributions")
    assert heading_depth("Example 1", "EXAMPLES") == heading_depth("EXAMPLE 2", "Examples") == 3
    assert heading_depth("Construction of lktCA Deletion", "DETAILED DESCRIPTION") == 3
    assert heading_depth("SUMMARY", "DETAILED DESCRIPTION") == 2 and heading_depth("Field", None) == 2
    assert heading_depth("2.1 Setup", "Methods") == 3


def test_lost_examples_parent_is_optional():
    rows = [("DETAILED DESCRIPTION", "Body."), ("Example 1", "One."), ("Example 2", "Two.")]
    plain = patent_sections(rows)
    assert [s["title"] for s in plain[0]["subsections"][0]["subsections"]] == ["Example 1", "Example 2"]
    stats = DocumentStats()
    grouped = patent_sections(rows, DocumentParams(group_examples=True), stats)
    assert [s["title"] for s in grouped[0]["subsections"]] == ["DETAILED DESCRIPTION", "EXAMPLES"]
    assert [s["title"] for s in grouped[0]["subsections"][1]["subsections"]] == ["Example 1", "Example 2"]
    assert stats.examples_parents_added == 1


def test_paper_sections_deeper_than_three_fold_into_their_ancestor():
    deep = [{"title": "A", "paragraphs": ["a"], "subsections": [
        {"title": "B", "paragraphs": [], "subsections": [
            {"title": "C", "paragraphs": ["c"], "subsections": [
                {"title": "D", "paragraphs": ["d"], "subsections": []}]}]}]},
            {"title": "Empty", "paragraphs": [" "], "subsections": []}]
    assert limit_depth(deep) == [{"title": "A", "paragraphs": ["a"], "subsections": [
        {"title": "B", "paragraphs": [], "subsections": [
            {"title": "C", "paragraphs": ["c", "**D**", "d"], "subsections": []}]}]}]


def test_blacklist_on_every_heading_of_the_real_uspto_samples(real_samples: Path):
    """Every heading of the recorded USPTO files: the dropped ones are exactly the metadata headings."""
    headings: set[str] = set()
    for path in sorted((real_samples / "uspto-xml").glob("*.xml")):
        for res in parse_file(path):
            headings |= {h for r in res.rows.get("descriptions", []) if (h := r.get("heading"))}
    dropped = {h for h in headings if is_metadata_heading(h)}
    assert len(headings) > 30
    assert dropped and all(re.search(r"(?i)cross|related application|priority|federally|sequence listing", h)
                           for h in dropped), dropped
    kept = headings - dropped
    assert not [h for h in kept if re.search(r"(?i)cross.?reference|federally sponsored|sequence listing", h)], kept
