"""The pdfplumber route on layouts the two real sample PDFs do not have: a journal's margin column beside the
text (PLOS), roman sections with lettered italic subsections (IEEE), two faces of one size for two heading
levels, and a heading wrapped over two lines. The PDFs are drawn here with reportlab, glyph by glyph where
the layouts put them, so each rule is tested on the font names, sizes and positions a real PDF carries."""
from __future__ import annotations

import io

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from sources.paper_pdf import parse_pdf
from transforms.outlines import iter_sections

SENTENCES = ("Heat stress after anthesis lowers the grain yield of wheat in most regions where it is grown. "
             "The genotypes differ in how much of their photosynthesis and membrane stability they keep. "
             "We measured chlorophyll content, fluorescence and the stability of cell membranes each week. "
             "Leaves were sampled ten days after the treatment and frozen in liquid nitrogen at once. ").split()


def _body(n: int, width: int = 72) -> list[str]:
    """n body lines of about `width` characters, the last one ending a sentence."""
    out, line, k = [], "", 0
    while len(out) < n:
        word = SENTENCES[k % len(SENTENCES)]
        k += 1
        if len(line) + len(word) + 1 > width:
            out.append(line)
            line = ""
        line = f"{line} {word}".strip()
    out[-1] = out[-1].rstrip(".") + "."
    return out


def _pdf(pages: list[list[tuple[float, str, float, str]]], margin: list[list[str]] | None = None) -> bytes:
    """Pages of (x, font, size, text) lines set top down; `margin` lines go in a narrow column at the left."""
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=letter)
    for n, lines in enumerate(pages):
        y = 740.0
        for x, font, size, text in lines:
            c.setFont(font, size)
            c.drawString(x, y, text)
            y -= size * 1.25
        for k, text in enumerate((margin or [[]] * len(pages))[n]):
            c.setFont("Helvetica", 7)
            c.drawString(36, 600 - 10 * k, text)
        c.showPage()
    c.save()
    return buf.getvalue()


def _titles(sections: list[dict]) -> list[tuple[int, str]]:
    return [(level, s["title"]) for level, s in iter_sections(sections, 1)]


def test_margin_column_and_ieee_lettered_subsections():
    """Roman sections in the body face (caps), lettered subsections in italics under them; the notes in the
    margin column (citation, licence, competing interests) are read apart and kept out of the body."""
    body = [(200, "Times-Roman", 10, t) for t in _body(40)]
    notes = ["Citation: Thomason K (2018) Heat", "stress in wheat. PLoS ONE 13(6).", "Editor: A. Zhang, CAS",
             "Received: April 14, 2018", "Copyright: 2018 Thomason et al.", "This is an open access article",
             "distributed under the terms of", "the Creative Commons licence."]
    pages = [[(200, "Times-Bold", 18, "Heat Stress in Wheat"), (200, "Times-Roman", 10, "A. Author and B. Author"),
              (200, "Times-Roman", 10, "I. INTRODUCTION"), *body[:8], (200, "Times-Roman", 10, "II. METHOD"),
              *body[8:12], (200, "Times-Italic", 10, "A. Spatial Cost Aggregation"), *body[12:18],
              (200, "Times-Italic", 10, "B. Temporal Refinement of the Estimates"), *body[18:24]],
             [*body[24:30], (200, "Times-Roman", 10, "III. RESULTS"), *body[30:40],
              (200, "Times-Roman", 10, "REFERENCES"), (200, "Times-Roman", 8, "[1] D. Scharstein, A taxonomy.")]]
    sections = parse_pdf(_pdf(pages, [notes, ["Competing interests: The authors", "have declared that no",
                                              "competing interests exist.", "Funding: The funder had no role",
                                              "in study design or analysis."]]))
    assert _titles(sections) == [(1, "INTRODUCTION"), (1, "METHOD"), (2, "Spatial Cost Aggregation"),
                                 (2, "Temporal Refinement of the Estimates"), (1, "RESULTS")]
    text = " ".join(p for _, s in iter_sections(sections) for p in s["paragraphs"])
    assert "Competing interests" not in text and "funder" not in text and "Copyright" not in text
    assert "Heat stress after anthesis lowers the grain yield" in text and "Scharstein" not in text


def test_two_faces_of_one_size_and_a_wrapped_heading():
    """"Results" in a sans face straight above "Physiological parameters" in a serif face of the same size and
    weight: the serif face is the lower level. A heading that runs over two lines is one heading."""
    body = [(100, "Times-Roman", 10, t) for t in _body(36, 80)]
    pages = [[(100, "Helvetica-Bold", 16, "Heat Stress in Wheat"), (100, "Times-Roman", 10, "A. Author, B. Author"),
              (100, "Helvetica-Bold", 12, "Introduction"), *body[:7], (100, "Helvetica-Bold", 12, "Results"),
              (100, "Times-Bold", 12, "Physiological parameters"), *body[7:14],
              (100, "Times-Bold", 12, "Yield related traits"), *body[14:20],
              (100, "Helvetica-Bold", 12, "Discussion of the Physiological and Metabolic"),
              (100, "Helvetica-Bold", 12, "Responses to Heat"), *body[20:36]]]
    sections = parse_pdf(_pdf(pages))
    assert _titles(sections) == [(1, "Introduction"), (1, "Results"), (2, "Physiological parameters"),
                                 (2, "Yield related traits"),
                                 (1, "Discussion of the Physiological and Metabolic Responses to Heat")]
    assert all("Responses to Heat" not in p for _, s in iter_sections(sections) for p in s["paragraphs"])
