"""The PDF route on real Board decision PDFs (fixtures/ptab_pdf_real, USPTO public-domain decisions): paragraph
breaks against the hand truth in benchmarks/fixtures/ptab_pdf_paragraphs.json, written from the pages' word
positions. A rule that cuts every line of a double-spaced page would give about one paragraph per text line (176
lines on 7_45's pages 2-8, 47 paragraphs); one that only breaks at wide gaps would merge a page's paragraphs."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from sources.ptab_pdf import parse_decision_pdf
from transforms.ptab_labels import outcome_from_order, verdict_passage

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures" / "ptab_pdf_real"
TRUTH = {f["path"]: f for f in json.loads((ROOT / "benchmarks" / "fixtures" / "ptab_pdf_paragraphs.json")
                                         .read_text())["files"]}


def _words(s: str) -> list[str]:
    return re.sub(r"[^0-9a-z]+", " ", s.lower()).split()


def _opens(par: str, key: str) -> bool:
    return _words(par)[:len(_words(key))] == _words(key)


def _span(paras: list[str], first: str, last: str) -> list[str]:
    lo = next(i for i, p in enumerate(paras) if _opens(p, first))
    return paras[lo:next(i for i, p in enumerate(paras) if i >= lo and _opens(p, last)) + 1]


def _starts(span: list[str], keys: list[str]) -> Counter:
    """The truth key each route paragraph opens (the longest that fits), None where it opens none."""
    return Counter(max((k for k in keys if _opens(p, k)), key=len, default=None) for p in span)


@pytest.fixture(scope="module")
def decision_7_45():
    return parse_decision_pdf((FIXTURES / "7_45.pdf").read_bytes())


def test_a_born_digital_decision_keeps_every_paragraph(decision_7_45):
    truth = TRUTH["ptab-raw-pdf/7_45.pdf"]
    assert decision_7_45.reject is None and decision_7_45.origin == "pdf" and decision_7_45.has_cover
    span = _span(decision_7_45.text.split("\n\n"), truth["paragraphs"][0], truth["paragraphs"][-1])
    assert _starts(span, truth["paragraphs"]) == Counter(truth["paragraphs"])  # every break, and no other
    assert len(span) == 47
    lines = sum(len([ln for ln in p.text.splitlines() if ln.strip()]) for p in decision_7_45.pages[1:])
    assert lines > 3 * len(span), "a rule cutting every line would give a paragraph per line"
    assert [p for p in span if p in truth["headings"]] == truth["headings"]


def test_the_page_layout_is_gone_and_pages_join_mid_paragraph(decision_7_45):
    text = decision_7_45.text
    assert "Appeal 2014-009238" in text and text.count("Appeal 2014-009238") == 1, "running heads dropped"
    assert not re.search(r"^\d{1,3}$", text, re.M), "no page numbers"
    # page 4 ends mid-sentence ("... the artificial turf" / "surface to level ..."): one paragraph
    assert any("continuously engage and act on the infill material of an artificial turf surface" in p
               for p in text.split("\n\n"))
    # page 5 opens a paragraph with an indented first line, right after a full line on page 4
    assert "\n\nClaims 12–15 are rejected under 35 U.S.C. § 103(a)" in text


def test_the_verdict_is_read_from_the_decision(decision_7_45):
    passage, where = verdict_passage(decision_7_45.text)
    assert where == "order" and outcome_from_order(passage) == "reversed"


def test_a_scan_text_layer_with_footnotes_and_a_claim():
    """Pages 3-4 of a scanned decision (Paper Capture text layer, images removed): running head without a space,
    a claim's single-spaced elements, footnotes under a paragraph carried to the next page."""
    res = parse_decision_pdf((FIXTURES / "7_40_pages3-4.pdf").read_bytes())
    assert res.reject is None and res.origin == "pdf"
    keys = TRUTH["ptab-raw-pdf/7_40.pdf"]["paragraphs"]
    keys = keys[keys.index("STATEMENT OF CASE"):keys.index("In order to understand the scope") + 1]
    paras = res.text.split("\n\n")
    assert "Appeal2015-002471" not in res.text and "Application 12/685,910" not in res.text
    assert _starts(paras[:-1], keys) == Counter(keys[:-1]) and _opens(paras[-1], keys[-1])
    one_line = [p for p in paras if p in ("a barrier layer;", "a cap layer on the barrier layer;")]
    assert len(one_line) == 2, "one-line claim elements are paragraphs of their own"
    element = next(p for p in paras if p.startswith("a gate contact in the gate recess"))
    assert element.endswith("as grown sheet resistance of the barrier layer; and"), "not cut by the page's notes"
    assert "35 U.S.C. §§ 6(b)." in res.text, "'35 U.S.C.' opening a line is not a margin line number"
    assert "5 US 2004/0224529 Al, pub. Nov. 11, 2004." in paras, "a footnote keeps its number"
