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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from common import progress
from common.ptab_cover import strip_cover

log = logging.getLogger(__name__)
MIN_CHARS = 20
OCR_DPI = 300
OCR_LANG = "eng"
OcrPage = Callable[[bytes, int, int], str]  # (PDF bytes, page index, dpi) -> tesseract's text of that page
MAX_PAGES = 1000          # a decision is rarely over 200 pages; more is a reject, not hours of work
MAX_OCR_PAGES = 200       # pages without a text layer that we OCR (about 2 s each)
MAX_STREAM_BYTES = 128 << 20  # one Flate stream inflating past this is a decompression bomb
_STREAM = re.compile(rb"stream\r?\n")
# running heads: "Appeal 2015-002471", "Appeal2015-002471", "Application 12/891, 102" (a scan's text layer),
# "Appeal 2007-0220" (BPAI numbers)
HEADER = re.compile(r"^(Appeal(?: No\.)? ?\d{4}-\d{4,6}|Application(?: No\.)? ?\d{2}/ ?\d{3}, ?\d{3})\s*$")
NOTE_START = re.compile(r"^\d{1,3} ?(?=[A-Z\"“(\[])")  # a footnote's number, then its text: "3 The", "1 \"For"
CLAUSE_END = re.compile(r"(?:[.:;]|; (?:and|or))[\"”’')\]]*\s*$")  # a claim element ends "...; and"
# a line ending in a citation's abbreviation goes on ("See 37 C.F.R." / "§ 41.50(a)")
ABBREVIATED = re.compile(r"(?:\b(?:[A-Z]\.){2,}|\b(?:v|No|Nos|Cir|Fed|Id|al|e\.g|i\.e|See|Br|Ans|Act|Spec|Reply|Final|App|Supp)\.)\s*$")
Y_TOLERANCE = 5
X_TOLERANCE_RATIO = 0.15
GLUED_NOTE = re.compile(r"(?<=[A-Z]{2})\d{1,2}$")
ENUMERATOR = re.compile(r"^(?:[IVX]{1,5}|\d{1,2}|[A-Za-z])[.)]\s+|^\([a-z0-9ivx]{1,4}\)\s+")
PAGE_NO = re.compile(r"^\s*(?:Page )?\d{1,3}\s*$")
# a margin line number: "5 The ...", "10 puter ..."; not "35 U.S.C. § 103" opening a line
MARGIN_NO = re.compile(r"^(?:5|10|15|20|25|30|35|40|45|50) (?=[A-Za-z(\"'])(?!U\.? ?S\.? ?C)")
MARGIN_RUN = 3  # numbered lines a text needs before "5 US 2004/..." (a footnote) is read as a margin number
HYPHEN = re.compile(r"([A-Za-z])-\n([a-z])")


@dataclass(frozen=True)
class PageText:
    """One page's raw text and where it came from (`pdf` text layer or `ocr`)."""
    number: int
    text: str
    origin: str
    notes: str = ""  # the page's footnotes (text layer only), also the tail of `text`; cleaning moves them


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


def _layer_text(page) -> tuple[str, str]:  # noqa: ANN001 - pdfplumber Page
    """(page text, its footnotes): text layer lines with a blank line at each paragraph break as the page's own
    layout shows it, the footnotes at the page foot after them. Words up to `Y_TOLERANCE` apart vertically are one
    line (a scanned table row's raised word, a heading's misaligned word); a space is a gap of X_TOLERANCE_RATIO of
    the font size (a fixed 3 pt glued every word of a 7 pt cover form: "APPLICATIONNO.FILINGDATE", so the cover
    went unrecognised)."""
    lines = page.extract_text_lines(return_chars=False, y_tolerance=Y_TOLERANCE, x_tolerance_ratio=X_TOLERANCE_RATIO)
    body, notes = split_notes(lines, page.height)
    text = "\n".join(layer_lines(body))
    note_text = "\n\n".join(notes)
    return (f"{text}\n\n{note_text}" if note_text else text), note_text


def split_notes(lines: list[dict], height: float) -> tuple[list[dict], list[str]]:
    """(body lines, footnotes): the footnotes are the page foot from the first line in the lower half of the page
    that opens with a note number ("3 The Examiner ...") after a gap wider than the page's usual line gap; each
    note runs to the next numbered line. A page number below them stays with the body (strip_layout drops it)."""
    if len(lines) < 3:
        return lines, []
    h = _line_height(lines)
    usual = _usual_gap(lines)
    tail = len(lines) - 1 if PAGE_NO.match(lines[-1]["text"]) else len(lines)
    start = next((i for i in range(1, tail) if lines[i]["top"] > height / 2 and NOTE_START.match(lines[i]["text"])
                  and _clearly_wider(lines[i]["top"] - lines[i - 1]["bottom"], usual, h)), None)
    if start is None:
        return lines, []
    notes: list[list[str]] = []
    for ln in lines[start:tail]:
        if NOTE_START.match(ln["text"]) or not notes:
            notes.append([])
        notes[-1].append(ln["text"])
    return lines[:start] + lines[tail:], ["\n".join(n) for n in notes]


def _line_height(lines: list[dict]) -> float:
    heights = sorted(max(ln["bottom"] - ln["top"], 1.0) for ln in lines)
    return heights[len(heights) // 2]


def _clearly_wider(gap: float, usual: float, h: float) -> bool:
    """A gap that is a break: over 0.6 line heights and half a line more than the `usual` gap it is set against."""
    return gap > max(0.6 * h, usual + 0.5 * h)


def _usual_gap(lines: list[dict]) -> float:
    gaps = sorted(b["top"] - a["bottom"] for a, b in zip(lines, lines[1:]))
    return max(gaps[len(gaps) // 2], 0.0) if gaps else 0.0


def layer_lines(lines: list[dict]) -> list[str]:
    """Line texts with "" at paragraph breaks; "" first when the page's first body line (after the running head)
    opens a paragraph, so a paragraph carried over from the page before goes on. Board decisions are double-spaced
    with indented first lines, so vertical space alone is weak evidence. A line opens a paragraph when:
    - the gap above it is clearly wider than the line gaps around it (> 0.6 line heights and half a line more
      than the narrower of the gaps above and below it: not every line of a double-spaced page, and the
      spacing of the text it is in, not the page's, when a single-spaced claim fills most of a page), or its
      line pitch jumps past the pitch of the lines around it (the blank line between a claim's elements);
    - it starts right of the line before it (a block quote's first line, a centred heading), or is indented from
      the line after it (a first line; after a heading, a block quote or a one-line paragraph at its indent too),
      or comes back to the left margin
      from an indented block (the text after a block quote);
    - the line before ends a sentence or clause (". : ;") well short of the block's right edge: the line's first
      word would have fitted there, so the writer broke the line (a one-line paragraph, a claim element).
    Margin line numbers ("5 The ...") shift a line's start, so they are no evidence either way."""
    if not lines:
        return []
    h = _line_height(lines)
    usual = _usual_gap(lines)
    head = 0
    while head < min(len(lines) - 1, 3) and HEADER.match(lines[head]["text"].strip()):
        head += 1
    numbered = margin_numbered([ln["text"] for ln in lines])
    out = [ln["text"] for ln in lines[:head]]
    end = len(lines) - 1 if len(lines) > head + 1 and PAGE_NO.match(lines[-1]["text"]) else len(lines)
    opened = [False] * len(lines)
    for i in range(head, end):
        opened[i] = _opens(lines, i, head, h, usual, numbered, opened) if i > head else \
            _opens_first(lines, i, h, numbered)
        if opened[i]:
            out.append("")
        out.append(lines[i]["text"])
    if end - 1 > head and _ends_short(lines, end - 1, head, h):
        out.append("")  # the page's last paragraph ends here, not on the next page
    return out + [ln["text"] for ln in lines[end:]]


def margin_numbered(texts: list[str]) -> list[bool]:
    """Which lines open with a margin line number: a number before a lower-case word ("5 puter") always, one
    before a capital ("5 The", "5 US 2004/...": a footnote's too) only where MARGIN_RUN lines or more have one."""
    hits = [bool(MARGIN_NO.match(t)) for t in texts]
    run = sum(hits) >= MARGIN_RUN
    return [hit and (run or bool(re.match(r"^\d+ [a-z]", t))) for hit, t in zip(hits, texts)]


def _opens_first(lines: list[dict], i: int, h: float, numbered: list[bool]) -> bool:
    """The page's first body line opens a paragraph only by its own indent (or a heading's centring): the gap
    above it is the running head's."""
    nxt = lines[i + 1] if i + 1 < len(lines) else None
    return nxt is not None and not (numbered[i] or numbered[i + 1]) and lines[i]["x0"] - nxt["x0"] > 1.5 * h


def _opens(lines: list[dict], i: int, first: int, h: float, usual: float, numbered: list[bool],
           opened: list[bool]) -> bool:
    """Whether body line `i` (after body line `first`) opens a paragraph (the rules in layer_lines); `opened`
    says which lines before it did."""
    prev, ln = lines[i - 1], lines[i]
    nxt = lines[i + 1] if i + 1 < len(lines) else None
    near = [lines[j]["top"] - lines[j - 1]["bottom"] for j in (i - 1, i + 1)
            if first < j < len(lines)]
    if _clearly_wider(ln["top"] - prev["bottom"], min(near) if near else usual, h):
        return True
    pitch = ln["top"] - prev["top"]
    around = [lines[j]["top"] - lines[j - 1]["top"] for j in (i - 1, i + 1) if first < j < len(lines)]
    if around and pitch > 1.25 * min(around) and pitch - min(around) > 0.3 * h:
        return True
    if numbered[i - 1] or numbered[i] or _hanging(prev, ln, h):
        return False
    if ln["x0"] - prev["x0"] > 1.5 * h:
        return True
    if nxt is not None and not numbered[i + 1] and ln["x0"] - nxt["x0"] > 1.5 * h \
            and (abs(ln["x0"] - prev["x0"]) > 0.5 * h or opened[i - 1]):  # after a one-line paragraph too
        return True
    if i - 2 >= first and not opened[i - 1] and prev["x0"] - ln["x0"] > 1.5 * h \
            and abs(prev["x0"] - lines[i - 2]["x0"]) < 0.5 * h:  # back from the inside of an indented block
        return True
    return _short_before(lines, i, first, h)


def _ends_short(lines: list[dict], i: int, first: int, h: float) -> bool:
    """The page's last body line `i` ends a sentence well short of the block's right edge (a five-letter word
    would have fitted): the paragraph ends on this page."""
    last = lines[i]
    if not CLAUSE_END.search(last["text"]) or ABBREVIATED.search(last["text"]):
        return False
    right = max(ln["x1"] for ln in lines[max(first, i - 4):i + 1])
    return right - last["x1"] > 6 * (last["x1"] - last["x0"]) / max(len(last["text"]), 1) + h


def _hanging(prev: dict, ln: dict, h: float) -> bool:
    """`ln` goes on from an enumerated line ("II. Claims 1-12 stand rejected ...") at the indent of its text: a
    hanging indent, not a new block."""
    m = ENUMERATOR.match(prev["text"])
    if not m or ln["x0"] <= prev["x0"]:
        return False
    char = (prev["x1"] - prev["x0"]) / max(len(prev["text"]), 1)
    return ln["x0"] - prev["x0"] <= len(m.group(0)) * char + h


def _short_before(lines: list[dict], i: int, first: int, h: float) -> bool:
    """The line before `i` ends a sentence or clause and line `i`'s first word would have fitted after it."""
    prev, word = lines[i - 1], lines[i]["text"].split()[0]
    if not CLAUSE_END.search(prev["text"]) or ABBREVIATED.search(prev["text"]) or word.startswith("§"):
        return False
    right = max(ln["x1"] for ln in lines[max(first, i - 4):i + 3])
    char = (prev["x1"] - prev["x0"]) / max(len(prev["text"]), 1)
    return right - prev["x1"] > (len(word) + 1) * char + h


def ocr_page(data: bytes, index: int, dpi: int) -> str:
    """One page rendered and read by tesseract (single-threaded: its OpenMP threads slow small pages 4x)."""
    import os

    import pypdfium2 as pdfium
    import pytesseract
    pdf = pdfium.PdfDocument(data)
    try:
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        image = pdf[index].render(scale=dpi / 72, grayscale=True).to_pil()
        return pytesseract.image_to_string(image, lang=OCR_LANG)
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


def tesseract_version() -> str:
    """The tesseract binary's version (OCR output depends on it and on its language data)."""
    import pytesseract
    return str(pytesseract.get_tesseract_version())


def extract_pages(data: bytes, min_chars: int = MIN_CHARS, dpi: int = OCR_DPI,
                  ocr: OcrPage = ocr_page) -> list[PageText]:
    """Per-page text: the text layer where it has >= `min_chars` characters, OCR (`ocr`) otherwise."""
    import pdfplumber
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise PdfUnreadable("corrupt: not a PDF (no %PDF header)")
    check_streams(data)
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            if len(pdf.pages) > MAX_PAGES:
                raise PdfUnreadable(f"too many pages: {len(pdf.pages)} (cap {MAX_PAGES})")
            layers = [_layer_text(p) for p in pdf.pages]
    except PdfUnreadable:
        raise
    except Exception as exc:  # noqa: BLE001 - pdfminer raises many types for bad files
        kind = "encrypted" if b"/Encrypt" in data or "password" in repr(exc).lower() else "corrupt"
        raise PdfUnreadable(f"{kind}: {type(exc).__name__}: {exc}"[:300]) from None
    if not layers:
        raise PdfUnreadable("zero pages")
    scans = sum(len(t.strip()) < min_chars for t, _ in layers)
    if scans > MAX_OCR_PAGES:
        raise PdfUnreadable(f"too many pages without text: {scans} would need OCR (cap {MAX_OCR_PAGES})")
    pages = []
    progress.expect("PDF pages", len(layers))
    for i, (text, notes) in enumerate(layers):
        pages.append(_page_text(data, i, text, notes, min_chars, dpi, ocr))
        progress.advance("PDF pages")
    return pages


def _page_text(data: bytes, i: int, layer: str, notes: str, min_chars: int, dpi: int, ocr: OcrPage) -> PageText:
    """Page `i` from its text layer when that has `min_chars` characters, else from OCR."""
    if len(layer.strip()) >= min_chars:
        return PageText(i + 1, layer, "pdf", notes)
    try:
        return PageText(i + 1, ocr(data, i, dpi), "ocr")
    except Exception as exc:  # noqa: BLE001 - tesseract/pdfium failures are a reject, not a crash
        raise PdfUnreadable(f"ocr failed on page {i + 1}: {type(exc).__name__}: {exc}"[:300]) from None


def decision_origin(pages: list[PageText]) -> str:
    origins = {p.origin for p in pages}
    return origins.pop() if len(origins) == 1 else "mixed"


def strip_layout(text: str, keep_break: bool = False) -> str:
    """Remove running headers (first lines of a page) and the page number (last line of a page). With
    `keep_break` a blank line before the first body line stays: the text layer's mark that the page opens a
    paragraph (layer_lines), and so does a blank line after the last (the page's paragraph ends there); OCR
    text has no such marks, its page always goes on from the last."""
    lines = text.splitlines() + ([""] if keep_break and text.endswith("\n") else [])
    head = 0
    while head < min(len(lines), 4) and (not lines[head].strip() or HEADER.match(lines[head].strip())):
        head += 1
    opens = keep_break and head > 0 and not lines[head - 1].strip()
    lines = ([""] if opens else []) + lines[head:]
    ends = False
    while lines and (not lines[-1].strip() or PAGE_NO.match(lines[-1])):
        ends |= not lines[-1].strip()
        lines.pop()
    return "\n".join(lines + ([""] if keep_break and ends and lines else []))


_MARKED_END = re.compile(r"(?<=[.:;,)\"”])\d{1,2}$")
_ENUMERATED = re.compile(r"^(?:\d{1,2}|[IVX]{1,5}|[A-H])\.\s+(?=[A-Z])")  # "4. Appellant's arguments", "II. Obviousness"


def _is_heading(line: str, nxt: str) -> bool:
    s = _MARKED_END.sub("", _ENUMERATED.sub("", line.strip()))  # "Boswell.1": a sentence's end and its note
    if not s or len(s) > 60:
        return False
    if s.isupper() and any(c.isalpha() for c in s):
        return True
    return s[-1] not in ".:;,)" and s[0].isupper() and bool(nxt.strip()) and nxt.strip()[0].isupper() \
        and s.split()[-1] not in ("and", "or", "the", "of")


def to_paragraphs(text: str) -> list[str]:
    """Lines -> paragraphs: hyphenation joined, margin numbers dropped, headings kept as their own."""
    raw = [ln.rstrip() for ln in text.splitlines() if not PAGE_NO.match(ln)]
    kept = [MARGIN_NO.sub("", ln) if num else ln for ln, num in zip(raw, margin_numbered(raw))]
    lines = HYPHEN.sub(r"\1\2", "\n".join(kept)).splitlines()  # after margin numbers: "com-\n5 puter"
    paras, cur = [], []
    for i, ln in enumerate(lines):
        nxt = next((x for x in lines[i + 1:i + 3] if x.strip()), "")  # past a paragraph break
        if not ln.strip() or _is_heading(ln, nxt):
            if cur:
                paras.append(" ".join(cur))
            cur = []
            if ln.strip():
                paras.append(_unmarked(ln.strip()))
            continue
        cur.append(ln.strip())
    if cur:
        paras.append(" ".join(cur))
    return [re.sub(r"\s+", " ", p) for p in paras if _english(p)]


def _unmarked(heading: str) -> str:
    """A capitals heading without the footnote number glued to its last word ("STATEMENT OF THE CASE1")."""
    return GLUED_NOTE.sub("", heading) if heading.isupper() else heading


def _english(par: str) -> bool:
    """Mostly Latin letters: drops non-English (e.g. CJK abstracts of cited art) and OCR garbage."""
    letters = [c for c in par if c.isalpha()]
    return bool(letters) and sum(c.isascii() for c in letters) / len(letters) >= 0.8


def clean_pages(pages: list[PageText]) -> str:
    """Pages -> layout-free text (paragraphs separated by blank lines); the cover page is still in. A page's
    footnotes go in at the first paragraph break after the page's text, so a paragraph carried over to the next
    page is not cut by them."""
    lines: list[str] = []
    held: list[str] = []
    for p in pages:
        notes = f"\n\n{p.notes}" if p.notes else ""
        body = p.text[:len(p.text) - len(notes)] if notes and p.text.endswith(notes) else p.text
        page = strip_layout(unicodedata.normalize("NFKC", body), keep_break=p.origin == "pdf").split("\n")
        if held:
            at = next((k for k, ln in enumerate(page) if not ln.strip()), len(page))
            if at < len(page):
                page[at:at] = ["", *held]
                held = []
        lines += page
        if p.notes:
            held += ["", *unicodedata.normalize("NFKC", p.notes).split("\n")]
        if held and not page[-1].strip():  # the page's last paragraph ends on it: its notes go in after it
            lines += [*held[1:], ""]
            held = []
    lines += held
    return "\n\n".join(to_paragraphs("\n".join(lines)))  # U+FFFD stays


def parse_decision_pdf(data: bytes, min_chars: int = MIN_CHARS, dpi: int = OCR_DPI,
                       ocr: OcrPage = ocr_page) -> DecisionText:
    """PDF bytes -> DecisionText (reject reason set instead of raising); `ocr` reads a page without a text
    layer (tesseract by default; the ingest stage passes one that keeps its texts in a disk cache)."""
    try:
        pages = extract_pages(data, min_chars, dpi, ocr)
    except PdfUnreadable as exc:
        log.warning("decision PDF rejected: %s", exc)
        return DecisionText(reject=str(exc))
    layout = clean_pages(pages)
    text, has_cover = strip_cover(layout)
    bad = fffd_pages(p.text for p in pages)
    if not text.strip():
        return DecisionText(origin=decision_origin(pages), pages=pages, reject="no text after cleaning", fffd_pages=bad)
    return DecisionText(text, layout, decision_origin(pages), pages, has_cover, fffd_pages=bad)
