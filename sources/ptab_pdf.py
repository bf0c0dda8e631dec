"""PTAB decision PDFs -> cleaned text, one origin per page (`pdf` text layer or `ocr`).

Pages whose text layer is (nearly) empty are scans: they are rendered with pypdfium2 at 300 dpi and
read with tesseract. The decision's `text_origin` is `pdf`, `ocr` or `mixed`. A PDF that cannot be
read (encrypted, corrupt, no pages) or whose OCR fails becomes a reject reason, never an exception,
so one bad document does not stop an ingest. Cleaning removes what is layout, not opinion: the
PTOL-90A cover page with its bibliographic fields, running headers (Appeal / Application), page
numbers, margin line numbers, line-break hyphenation and non-English paragraphs
(`common.ptab_cover.strip_cover` removes the cover; it is pure text, the build uses it too).
"""
from __future__ import annotations

import io
import logging
import re
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from common import progress
from common.ptab_cover import strip_cover

log = logging.getLogger(__name__)
MIN_CHARS = 20
OCR_DPI = 300
MAX_PAGES = 1000          # a decision is rarely over 200 pages; more is a reject, not hours of work
MAX_OCR_PAGES = 200       # pages without a text layer that we OCR (about 2 s each)
MAX_STREAM_BYTES = 128 << 20  # one Flate stream inflating past this is a decompression bomb
_STREAM = re.compile(rb"stream\r?\n")
HEADER = re.compile(r"^(Appeal(?: No\.)? \d{4}-\d{6}|Application(?: No\.)? \d{2}/\d{3},\d{3})\s*$")
PAGE_NO = re.compile(r"^\s*(?:Page )?\d{1,3}\s*$")
MARGIN_NO = re.compile(r"^(?:5|10|15|20|25|30|35|40|45|50) (?=[A-Za-z(\"'])")
HYPHEN = re.compile(r"([A-Za-z])-\n([a-z])")


@dataclass(frozen=True)
class PageText:
    """One page's raw text and where it came from (`pdf` text layer or `ocr`)."""
    number: int
    text: str
    origin: str


@dataclass
class DecisionText:
    """Cleaned decision text, or a reject reason when the PDF could not be read."""
    text: str = ""
    layout_text: str = ""  # cleaned of layout only, cover page still in (the build filters on it)
    origin: str | None = None
    pages: list[PageText] = field(default_factory=list)
    has_cover: bool = False
    reject: str | None = None
    fffd_pages: int = 0  # pages whose text holds U+FFFD: where the PDF's text layer could not map a glyph


REPLACEMENT = "\ufffd"


def fffd_pages(texts: Iterable[str | None]) -> int:
    """Pages whose text holds U+FFFD. The character is kept in the text (a reader sees where the text layer
    failed); the dataset card counts these pages."""
    return sum(1 for t in texts if t and REPLACEMENT in t)


class PdfUnreadable(Exception):
    """The PDF cannot be turned into text; the message is the reject reason."""


def _layer_text(page) -> str:  # noqa: ANN001 - pdfplumber Page
    """Text layer lines, a blank line at each paragraph break as the page's own layout shows it."""
    return "\n".join(layer_lines(page.extract_text_lines(return_chars=False)))


def layer_lines(lines: list[dict]) -> list[str]:
    """Line texts with "" at paragraph breaks. Board decisions are double-spaced with indented first lines, so
    a gap is a break only when it is clearly wider than the page's usual line gap (> 0.6 line heights and half
    a line more than the median gap: not every line of a double-spaced page). A line that starts right of the
    line before it (a block quote's first line, a centred heading) opens a paragraph, and so does a first line
    indented from the line after it (the paragraph after a heading or a block quote). Margin line numbers
    ("5 The ...") shift a line's start, so they are no evidence either way."""
    if not lines:
        return []
    heights = sorted(max(ln["bottom"] - ln["top"], 1.0) for ln in lines)
    h = heights[len(heights) // 2]
    gaps = sorted(b["top"] - a["bottom"] for a, b in zip(lines, lines[1:]))
    usual = max(gaps[len(gaps) // 2], 0.0) if gaps else 0.0
    numbered = [bool(MARGIN_NO.match(ln["text"])) for ln in lines]
    out = [lines[0]["text"]]
    for i in range(1, len(lines)):
        prev, ln = lines[i - 1], lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        wide = ln["top"] - prev["bottom"] > max(0.6 * h, usual + 0.5 * h)
        right_of_prev = not (numbered[i - 1] or numbered[i]) and ln["x0"] - prev["x0"] > 1.5 * h
        first_line = nxt is not None and not (numbered[i] or numbered[i + 1]) and ln["x0"] - nxt["x0"] > 1.5 * h \
            and abs(ln["x0"] - prev["x0"]) > 0.5 * h
        if wide or right_of_prev or first_line:
            out.append("")
        out.append(ln["text"])
    return out


def _ocr_page(data: bytes, index: int, dpi: int) -> str:
    """One page rendered and read by tesseract (single-threaded: its OpenMP threads slow small pages 4x)."""
    import os

    import pypdfium2 as pdfium
    import pytesseract
    pdf = pdfium.PdfDocument(data)
    try:
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        image = pdf[index].render(scale=dpi / 72, grayscale=True).to_pil()
        return pytesseract.image_to_string(image, lang="eng")
    finally:
        pdf.close()


def check_streams(data: bytes, cap: int = MAX_STREAM_BYTES) -> None:
    """Refuse a PDF with a Flate stream that inflates past `cap` (checked in 1 MB steps, never held whole)."""
    for m in _STREAM.finditer(data):
        inflater, seen, chunk = zlib.decompressobj(), 0, data[m.end():m.end() + (8 << 20)]
        try:
            while chunk and not inflater.eof:
                seen += len(inflater.decompress(chunk, 1 << 20))
                if seen > cap:
                    raise PdfUnreadable(f"decompression bomb: a stream inflates past {cap >> 20} MB")
                chunk = inflater.unconsumed_tail
        except zlib.error:
            continue  # not a Flate stream (or not at this offset): pdfminer decides


def extract_pages(data: bytes, min_chars: int = MIN_CHARS, dpi: int = OCR_DPI) -> list[PageText]:
    """Per-page text: the text layer where it has >= `min_chars` characters, OCR otherwise."""
    import pdfplumber
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise PdfUnreadable("corrupt: not a PDF (no %PDF header)")
    check_streams(data)
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            if len(pdf.pages) > MAX_PAGES:
                raise PdfUnreadable(f"too many pages: {len(pdf.pages)} (cap {MAX_PAGES})")
            layers = [_layer_text(p) or "" for p in pdf.pages]
    except PdfUnreadable:
        raise
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many types for bad files
        kind = "encrypted" if b"/Encrypt" in data or "password" in repr(exc).lower() else "corrupt"
        raise PdfUnreadable(f"{kind}: {type(exc).__name__}: {exc}"[:300]) from None
    if not layers:
        raise PdfUnreadable("zero pages")
    scans = sum(len(t.strip()) < min_chars for t in layers)
    if scans > MAX_OCR_PAGES:
        raise PdfUnreadable(f"too many pages without text: {scans} would need OCR (cap {MAX_OCR_PAGES})")
    pages = []
    progress.expect("PDF pages", len(layers))
    for i, text in enumerate(layers):
        pages.append(_page_text(data, i, text, min_chars, dpi))
        progress.advance("PDF pages")
    return pages


def _page_text(data: bytes, i: int, layer: str, min_chars: int, dpi: int) -> PageText:
    """Page `i` from its text layer when that has `min_chars` characters, else from OCR."""
    if len(layer.strip()) >= min_chars:
        return PageText(i + 1, layer, "pdf")
    try:
        return PageText(i + 1, _ocr_page(data, i, dpi), "ocr")
    except Exception as exc:  # noqa: BLE001 - tesseract/pdfium failures are a reject, not a crash
        raise PdfUnreadable(f"ocr failed on page {i + 1}: {type(exc).__name__}: {exc}"[:300]) from None


def decision_origin(pages: list[PageText]) -> str:
    origins = {p.origin for p in pages}
    return origins.pop() if len(origins) == 1 else "mixed"


def strip_layout(text: str) -> str:
    """Remove running headers (first lines of a page) and the page number (last line of a page)."""
    lines = text.splitlines()
    head = 0
    while head < min(len(lines), 4) and (not lines[head].strip() or HEADER.match(lines[head].strip())):
        head += 1
    lines = lines[head:]
    while lines and (not lines[-1].strip() or PAGE_NO.match(lines[-1])):
        lines.pop()
    return "\n".join(lines)


_ENUMERATED = re.compile(r"^(?:\d{1,2}|[IVX]{1,5}|[A-H])\.\s+(?=[A-Z])")  # "4. Appellant's arguments", "II. Obviousness"


def _is_heading(line: str, nxt: str) -> bool:
    s = _ENUMERATED.sub("", line.strip())
    if not s or len(s) > 60:
        return False
    if s.isupper() and any(c.isalpha() for c in s):
        return True
    return s[-1] not in ".:;,)" and s[0].isupper() and bool(nxt.strip()) and nxt.strip()[0].isupper() \
        and s.split()[-1] not in ("and", "or", "the", "of")


def to_paragraphs(text: str) -> list[str]:
    """Lines -> paragraphs: hyphenation joined, margin numbers dropped, headings kept as their own."""
    kept = [MARGIN_NO.sub("", ln.rstrip()) for ln in text.splitlines() if not PAGE_NO.match(ln)]
    lines = HYPHEN.sub(r"\1\2", "\n".join(kept)).splitlines()  # after margin numbers: "com-\n5 puter"
    paras, cur = [], []
    for i, ln in enumerate(lines):
        nxt = next((x for x in lines[i + 1:i + 3] if x.strip()), "")  # past a paragraph break
        if not ln.strip() or _is_heading(ln, nxt):
            if cur:
                paras.append(" ".join(cur))
            cur = []
            if ln.strip():
                paras.append(ln.strip())
            continue
        cur.append(ln.strip())
    if cur:
        paras.append(" ".join(cur))
    return [re.sub(r"\s+", " ", p) for p in paras if _english(p)]


def _english(par: str) -> bool:
    """Mostly Latin letters: drops non-English (e.g. CJK abstracts of cited art) and OCR garbage."""
    letters = [c for c in par if c.isalpha()]
    return bool(letters) and sum(c.isascii() for c in letters) / len(letters) >= 0.8


def clean_pages(pages: list[PageText]) -> str:
    """Pages -> layout-free text (paragraphs separated by blank lines); the cover page is still in."""
    joined = "\n".join(strip_layout(unicodedata.normalize("NFKC", p.text)) for p in pages)  # U+FFFD stays
    return "\n\n".join(to_paragraphs(joined))


def parse_decision_pdf(data: bytes, min_chars: int = MIN_CHARS, dpi: int = OCR_DPI) -> DecisionText:
    """PDF bytes -> DecisionText (reject reason set instead of raising)."""
    try:
        pages = extract_pages(data, min_chars, dpi)
    except PdfUnreadable as exc:
        log.warning("decision PDF rejected: %s", exc)
        return DecisionText(reject=str(exc))
    layout = clean_pages(pages)
    text, has_cover = strip_cover(layout)
    bad = fffd_pages(p.text for p in pages)
    if not text.strip():
        return DecisionText(origin=decision_origin(pages), pages=pages, reject="no text after cleaning", fffd_pages=bad)
    return DecisionText(text, layout, decision_origin(pages), pages, has_cover, fffd_pages=bad)
