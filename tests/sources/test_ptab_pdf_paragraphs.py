"""Paragraph breaks from a decision PDF's text layer on the Board's page layout: double-spaced body, first lines
indented half an inch, centred headings, single-spaced indented block quotes. The words are real decisions' (the
labelled real set); the pages are laid out here with reportlab the way the Board's word processor lays them out.
Real decision PDFs are in test_ptab_pdf_real.py; the line rules are pinned here on hand-placed lines."""
from __future__ import annotations

import io
import re

import pytest
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas

from sources.ptab_pdf import PageText, clean_pages, layer_lines, parse_decision_pdf
from transforms.opinion_reference import REFERENCE_DIR, load_real

FONT, SIZE = "Times-Roman", 12
LEFT, WIDTH, TOP, BOTTOM = 72, 468, 720, 72


def _paragraphs(name: str) -> list[tuple[str, str]]:
    """(kind, text) of a real decision's passage: its headings (centred), sub-headings (flush left) and
    paragraphs."""
    text = load_real(REFERENCE_DIR / "ptab_real" / f"{name}.txt")["text"]
    return [("heading" if p.isupper() and len(p) < 60 else "subheading" if len(p) < 60 and p[-1] not in ".:?\"”"
             else "body", p) for p in text.split("\n\n")]


def _render(blocks: list[tuple[str, str]], spacing: float = 2.0) -> bytes:
    """Pages as the Board sets them: `spacing` x 12 pt leading, 0.5" first-line indent, centred headings, block
    quotes single-spaced and indented 1" on both sides."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(612, 792))
    c.setFont(FONT, SIZE)
    y = TOP

    def line(text: str, x: float, lead: float) -> None:
        nonlocal y
        if y < BOTTOM:
            c.showPage()
            c.setFont(FONT, SIZE)
            y = TOP
        c.drawString(x, y, text)
        y -= lead

    for kind, text in blocks:
        if kind == "heading":
            line(text, LEFT + (WIDTH - c.stringWidth(text, FONT, SIZE)) / 2, SIZE * spacing)
        elif kind == "subheading":  # flush left, on its own line
            line(text, LEFT, SIZE * spacing)
        elif kind == "quote":
            for ln in simpleSplit(text, FONT, SIZE, WIDTH - 144):
                line(ln, LEFT + 72, SIZE * 1.2)
            y -= SIZE * (spacing - 1.2)
        else:
            first, *rest = simpleSplit(text, FONT, SIZE, WIDTH - 36)
            line(first, LEFT + 36, SIZE * spacing)
            for ln in simpleSplit(" ".join(rest), FONT, SIZE, WIDTH) if rest else []:
                line(ln, LEFT, SIZE * spacing)
    c.save()
    return buf.getvalue()


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


@pytest.mark.parametrize("name, spacing", [("r01-bpai-2006-2396", 2.0), ("r31-bpai-1995-2698", 2.0),
                                           ("r27-bpai-2007-2606", 2.0), ("r27-bpai-2007-2606", 1.5),
                                           ("r31-bpai-1995-2698", 1.2)])
def test_double_spaced_pages_keep_their_paragraphs(name, spacing):
    blocks = _paragraphs(name)
    res = parse_decision_pdf(_render(blocks, spacing))
    assert res.reject is None
    assert [_norm(p) for p in res.text.split("\n\n")] == [_norm(t) for _, t in blocks]


def test_a_block_quote_is_its_own_paragraph_and_the_text_after_it_too():
    blocks = [("heading", "ANALYSIS"), ("body", "Appellants argue that Claim 2 specifies that the plate is located on "
                                                "the lower portion of the disk. Appellants submit as follows:"),
              ("quote", "That is, the lower surface of cavity 11 of KELLER is not a lower portion of a disk, as "
                        "specified in Appellants' claim 2. In this regard a surface is not a portion; a surface is "
                        "only a two- dimensional aspect of something."),
              ("body", "Br. 23. We are not persuaded. Keller's cavity is in the lower half of the disk as the "
                       "Examiner finds, and the claim does not require more than that.")]
    res = parse_decision_pdf(_render(blocks))
    assert [_norm(p) for p in res.text.split("\n\n")] == [_norm(t) for _, t in blocks]


def test_the_rule_reads_the_pages_own_spacing():
    at = lambda x, top: {"x0": x, "x1": 540, "top": top, "bottom": top + 10, "text": f"{x}/{top}"}  # noqa: E731
    double = [at(72, 0), at(72, 24), at(108, 48), at(72, 72)]  # every gap 14 pt: only the indent breaks
    assert layer_lines(double) == ["72/0", "72/24", "", "108/48", "72/72"]
    single = [at(72, 0), at(72, 12), at(72, 36), at(72, 48)]  # single spacing, one wider gap
    assert layer_lines(single) == ["72/0", "72/12", "", "72/36", "72/48"]


def _at(x: float, top: float, text: str, x1: float = 540) -> dict:
    return {"x0": x, "x1": x1, "top": top, "bottom": top + 12, "text": text}


def test_a_short_line_ending_a_sentence_ends_its_paragraph_but_a_citation_does_not():
    lines = [_at(108, 0, "We AFFIRM.", 170), _at(108, 24, "The claims are directed to a transistor and a"),
             _at(72, 48, "method. See 37 C.F.R.", 200), _at(72, 72, "§ 41.50(b) applies here and the Examiner is"),
             _at(72, 96, "right.", 110)]
    assert layer_lines(lines) == ["We AFFIRM.", "", "The claims are directed to a transistor and a",
                                  "method. See 37 C.F.R.", "§ 41.50(b) applies here and the Examiner is", "right.", ""]


def test_a_hanging_indent_goes_on_and_the_next_item_opens():
    lines = [_at(72, 0, "The rejections are:"), _at(136, 24, "I. Claim 3 stands rejected under 35 U.S.C. § 112,", 500),
             _at(162, 48, "second paragraph, as indefinite.", 330),
             _at(131, 72, "II. Claims 1-12 stand rejected under 35 U.S.C. § 102(b)", 510),
             _at(162, 96, "as anticipated by Hennigan.", 320)]
    out = layer_lines(lines)
    assert out[out.index("I. Claim 3 stands rejected under 35 U.S.C. § 112,") + 1] == "second paragraph, as indefinite."
    assert out[out.index("II. Claims 1-12 stand rejected under 35 U.S.C. § 102(b)") - 1] == ""
    assert out[-2:] == ["as anticipated by Hennigan.", ""], "a short last line ends the page's paragraph"


def test_footnotes_wait_for_the_paragraph_carried_to_the_next_page():
    pages = [PageText(1, "Appeal 2015-002471\n\nThe Examiner rejects claim 1 under 35 U.S.C. § 102(b) as "
                         "anticipated by\n2\n\n1 US 2002/016012 Al.",
                      "pdf", "1 US 2002/016012 Al."),
             PageText(2, "Appeal2015-002471\nNihei. We agree.\n\nAFFIRMED\n3", "pdf")]
    assert clean_pages(pages).split("\n\n") == [
        "The Examiner rejects claim 1 under 35 U.S.C. § 102(b) as anticipated by Nihei. We agree.",
                                                 "1 US 2002/016012 Al.", "AFFIRMED"]
