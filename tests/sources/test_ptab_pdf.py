"""PTAB decision PDFs: text layer vs OCR, cleaning, and unreadable PDFs as rejects (never crashes)."""
from __future__ import annotations

import io
import re
from pathlib import Path

import polars as pl
import pytest
from reportlab.pdfgen import canvas

from patentfactory.sim.generator.renderers import render
from patentfactory.sim.generator.world import WorldSpec, build_world
from sources import ptab_pdf
from sources.ptab_pdf import PageText, clean_pages, parse_decision_pdf, to_paragraphs
from transforms.opinions import _tokens


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ptabworld")
    render(build_world(WorldSpec(200, 5)), out, ("ptab",))
    return out


@pytest.fixture(scope="module")
def truth(world: Path) -> pl.DataFrame:
    return pl.read_parquet(world / "truth" / "ptab_opinions.parquet")


def _pdf(world: Path, doc: str) -> bytes:
    return (world / "ptab" / "pdfs" / f"{doc}.pdf").read_bytes()


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s)


def test_renderer_is_deterministic_and_one_in_four_is_a_scan(world: Path, truth: pl.DataFrame, tmp_path: Path):
    render(build_world(WorldSpec(200, 5)), tmp_path, ("ptab",))
    for pdf in (world / "ptab" / "pdfs").glob("*.pdf"):
        assert (tmp_path / "ptab" / "pdfs" / pdf.name).read_bytes() == pdf.read_bytes()
    assert truth["image_only"].sum() == len(truth) // 4 + (len(truth) % 4 > 1)


def test_text_layer_pdf_is_cleaned_exactly(world: Path, truth: pl.DataFrame):
    for row in truth.filter(~pl.col("image_only")).iter_rows(named=True):
        res = parse_decision_pdf(_pdf(world, row["document_identifier"]))
        assert res.reject is None and res.origin == "pdf" and res.has_cover
        assert {p.origin for p in res.pages} == {"pdf"}
        text = _norm(res.text)
        for sent in row["sentences"]:  # hyphenation, margin numbers, headers and page numbers all gone
            assert sent in text, sent
        assert "FIRST NAMED INVENTOR" not in res.text and "EXAMINER\n" not in res.text
        assert "FIRST NAMED INVENTOR" in res.layout_text
        assert res.fffd_pages == 0 and "\ufffd" not in res.text  # none in these layers: nothing hidden
        app = re.search(r"Application (\d\d/\d{3},\d{3})", res.text).group(1)
        assert res.text.count(f"Application {app}") == 1, "running headers removed, caption kept"
        assert not re.search(r"^\d{1,3}$", res.text, re.M), "no page-number lines"


def test_image_only_pdf_is_ocred(world: Path, truth: pl.DataFrame):
    row = truth.filter(pl.col("image_only")).row(0, named=True)
    data = _pdf(world, row["document_identifier"])
    import pdfplumber
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert all(not page.chars for page in pdf.pages), "a scan has no text layer"
    res = parse_decision_pdf(data)
    assert res.reject is None and res.origin == "ocr" and res.has_cover
    got = [_tokens(s) for s in res.text.split(". ")]
    found = sum(any(len(_tokens(s) & g) / len(_tokens(s)) > 0.8 for g in got) for s in row["sentences"])
    assert found >= 0.9 * len(row["sentences"])
    assert "STATEMENT OF THE CASE" in res.text and "ANALYSIS" in res.text


def _encrypted() -> bytes:
    buf = io.BytesIO()
    c = canvas.Canvas(buf, encrypt="secret-password")
    c.drawString(72, 700, "DECISION ON APPEAL text that is encrypted")
    c.showPage()
    c.save()
    return buf.getvalue()


ZERO_PAGES = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
              b"trailer<</Root 1 0 R>>\n%%EOF\n")


@pytest.mark.parametrize("data,reason", [
    (_encrypted(), "encrypted"), (b"%PDF-1.4\n\x00\x01garbage" * 10, "corrupt"), (b"<html>not a pdf</html>", "corrupt"),
    (ZERO_PAGES, "zero pages"), (b"", "corrupt")])
def test_unreadable_pdfs_are_rejects(data: bytes, reason: str):
    res = parse_decision_pdf(data)
    assert res.reject is not None and res.reject.startswith(reason) and res.text == ""


def _mixed_pdf() -> bytes:
    from PIL import Image, ImageDraw
    img = Image.new("L", (850, 1100), 255)
    ImageDraw.Draw(img).text((100, 100), "SCANNED PAGE", fill=0)
    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    c.drawString(72, 700, "DECISION ON APPEAL. Appellant appeals from the rejection of claims 1-3.")
    c.showPage()
    from reportlab.lib.utils import ImageReader
    c.drawImage(ImageReader(img), 0, 0, 612, 792)
    c.showPage()
    c.save()
    return buf.getvalue()


def test_mixed_origin_and_ocr_failure_is_a_reject(monkeypatch):
    res = parse_decision_pdf(_mixed_pdf())
    assert res.origin == "mixed" and [p.origin for p in res.pages] == ["pdf", "ocr"]

    def boom(*a, **k):
        raise RuntimeError("tesseract crashed")
    import pytesseract
    monkeypatch.setattr(pytesseract, "image_to_string", boom)
    bad = parse_decision_pdf(_mixed_pdf())
    assert bad.reject and bad.reject.startswith("ocr failed on page 2")


def test_cleaning_rules_on_lines():
    page = PageText(3, "Appeal 2020-000149\nApplication 13/378,156\n\nThe Examiner finds that the re-\n"
                       "ference teaches a com-\n5 puter. See Final Act. 3.\n\nANALYSIS\nWe agree.\n7", "pdf")
    text = clean_pages([page])
    assert text == ("The Examiner finds that the reference teaches a computer. See Final Act. 3.\n\nANALYSIS\n\n"
                    "We agree.")
    assert to_paragraphs("Rejection under 35 U.S.C. \u00a7 103\nThe Examiner finds x.") == [
        "Rejection under 35 U.S.C. \u00a7 103", "The Examiner finds x."]
    assert to_paragraphs("\u6587\u732e\u306b\u3088\u308b\u3068\u3053\u308d\n\nEnglish text.") == ["English text."]
    assert ptab_pdf.decision_origin([PageText(1, "", "ocr")]) == "ocr"


def test_replacement_character_stays_and_its_pages_are_counted():
    """A text layer that maps a glyph to U+FFFD: the character stays in the page and the decision text (a reader
    sees where the layer failed; it used to be deleted), and the parse result counts the pages holding it."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("DejaVu", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    buf = io.BytesIO()
    c = canvas.Canvas(buf, invariant=1)
    lines = ["Appeal 2020-001234", "DECISION ON APPEAL", "", "The claimed compound {} melts at 120 C.",
             "Appellant argues the examiner erred in rejecting claims 1 to 5 as obvious over the cited art."]
    for glyph in ("\ufffd", "A", "\ufffd\ufffd"):
        c.setFont("DejaVu", 11)
        for k, line in enumerate(lines):
            c.drawString(72, 750 - 20 * k, line.format(glyph))
        c.showPage()
    c.save()
    res = parse_decision_pdf(buf.getvalue(), min_chars=10)
    assert res.reject is None and res.fffd_pages == 2 == ptab_pdf.fffd_pages(p.text for p in res.pages)
    assert "compound \ufffd melts" in res.text and "compound \ufffd\ufffd melts" in res.layout_text
    assert "compound A melts" in res.text
