"""A paper PDF's text lines in reading order, with the type they are set in (pdfplumber).

Words come from pdfplumber (upright characters only: a rotated arXiv stamp is not text); a page whose words
leave a gutter free (at the middle, else where a journal's margin column ends; rows across the page under the
columns, a figure and its caption at the foot, left out of that count) is read as two columns (left, then
right), whether or not their baselines line up; a row of text across both below their top (a heading
over text that runs beside a figure) is read in its place between them. A word's size is that of its largest
glyph, so a small-caps word ("SPECTER", set as S + smaller capitals) is one word measured at its cap height; a line's
size and font are those of most of its characters; runs of a row set apart in other type are separate lines
(text wrapped around a figure beside its caption or the next heading); running heads and feet (the same line
on three pages or more, or a page's top line carrying the page's number on two pages or more) are dropped.
`sources.paper_pdf` turns the lines into sections.
"""
from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

_CID = re.compile(r"\(cid:\d+\)")
BOLD = re.compile(r"bold|semibold|demi|medium|medi$|heavy|black|[-,.](b|bd|bx|sb)(i|it|o)?\d*$|^cm(b|bx|ssbx)\d|^sfbx|"
                  r"bd\d*$", re.I)  # "-bi": a bold italic (AdvHelv-bi)
_BOLD_TB = re.compile(r"[a-z]TBI?$")  # Linux Libertine/Biolinum's bold: LinLibertineTB, LinBiolinumTB
DIGITS = re.compile(r"\d+")


class PdfError(ValueError):
    """The bytes are not a PDF with a text layer."""


@dataclass(eq=False)
class Line:
    text: str
    size: float
    bold: bool
    font: str
    x0: float
    x1: float
    top: float
    bottom: float
    page: int
    col_x0: float
    col_x1: float
    page_h: float
    cells: int  # runs of words separated by a wide gap (a table row has several)
    lead: str = ""  # the bold words a line of other type starts with ("Data analysis. All data …")


def same_column(a: Line, b: Line) -> bool:
    """`a` and `b` are lines of one column of one page."""
    return a.page == b.page and a.col_x0 == b.col_x0


def _base_font(name: str) -> str:
    return name.split("+", 1)[-1]


def _word(w: dict) -> dict:
    """pdfplumber word with its chars -> size of its largest glyph, its commonest font, bold."""
    chars = [c for c in w["chars"] if c["text"].strip()] or w["chars"]
    fonts = Counter(_base_font(c["fontname"]) for c in chars)
    font = fonts.most_common(1)[0][0]
    return {"text": w["text"], "x0": w["x0"], "x1": w["x1"], "top": w["top"], "bottom": w["bottom"],
            "size": round(max(c["size"] for c in chars), 1), "font": font,
            "bold": bool(BOLD.search(font) or _BOLD_TB.search(font))}


def _rows(words: list[dict]) -> list[list[dict]]:
    rows: list[list[dict]] = []
    for w in sorted(words, key=lambda w: (round(w["top"]), w["x0"])):
        if rows and abs(rows[-1][0]["top"] - w["top"]) <= 2.5:
            rows[-1].append(w)
        else:
            rows.append([w])
    return [sorted(r, key=lambda w: w["x0"]) for r in rows]


def _line(row: list[dict], page: int, col: tuple[float, float], page_h: float) -> Line:
    chars: Counter = Counter()
    fonts: Counter = Counter()
    for w in row:
        chars[w["size"]] += len(w["text"])
        fonts[w["font"]] += len(w["text"])
    size = chars.most_common(1)[0][0]
    lettered = [w for w in row if any(ch.isalpha() for ch in w["text"])] or row
    bold = all(w["bold"] for w in lettered)  # a run-in bold lead ("Papers. We obtain …") is body text
    gap = max(2.5, 0.9 * size)
    cells = 1 + sum(b["x0"] - a["x1"] > gap for a, b in zip(row, row[1:]))
    text = _CID.sub("", " ".join(w["text"] for w in row)).strip()
    n_bold = next((n for n, w in enumerate(row) if not w["bold"]), len(row))
    lead = _CID.sub("", " ".join(w["text"] for w in row[:n_bold])).strip() if n_bold < len(row) else ""
    return Line(text, size, bold, fonts.most_common(1)[0][0], row[0]["x0"], row[-1]["x1"],
                min(w["top"] for w in row), max(w["bottom"] for w in row), page, col[0], col[1], page_h, cells,
                lead)


def _split(row: list[dict]) -> list[list[dict]]:
    """A row's runs of three words or more, apart by more than a word space and set in other type (size, or weight
    but for a bold lead), are separate lines: text wrapped around a figure beside its caption, a heading beside
    a column's text (JMLR). Table cells, mostly short, stay one row."""
    runs = [[row[0]]]
    for a, b in zip(row, row[1:]):
        if b["x0"] - a["x1"] > 0.8 * max(a["size"], b["size"]):
            runs.append([b])
        else:
            runs[-1].append(b)

    def style(run: list[dict]) -> tuple[float, bool]:
        sizes = Counter()
        for w in run:
            sizes[w["size"]] += len(w["text"])
        return sizes.most_common(1)[0][0], sum(w["bold"] for w in run) > len(run) / 2

    out = [runs[0]]
    for run in runs[1:]:
        (s1, b1), (s2, b2) = style(out[-1]), style(run)
        # a bold lead at the row's start, apart from its text, is a run-in heading ("Paper Topic Classification")
        if len(out[-1]) >= 3 and len(run) >= 3 and (abs(s1 - s2) >= 0.5 or (b1 != b2 and not (b1 and len(out) == 1))):
            out.append(run)
        else:
            out[-1] += run
    return out


def _lines(rows: list[list[dict]], page: int, col: tuple[float, float], page_h: float) -> list[Line]:
    return [_line(part, page, col, page_h) for r in rows for part in _split(r)]


def _spans(row: list[dict], mid: float) -> bool:
    """A row runs across the middle: a word crosses it, or the words either side are closer than a gutter."""
    if any(w["x0"] < mid - 2 and w["x1"] > mid + 2 for w in row):
        return True
    left = [w for w in row if w["x1"] <= mid + 2]
    right = [w for w in row if w["x0"] >= mid - 2]
    return bool(left and right) and right[0]["x0"] - left[-1]["x1"] < 8


def _columns_from(rows: list[list[dict]], x: float, foot: bool = False) -> int | None:
    """First row from which nearly every row keeps to one side of `x`, with five rows or more on each side (a
    full-width title, author block or abstract may sit above the columns); None when `x` splits no columns."""
    one_sided = [not _spans(r, x) for r in rows]
    left = [o and r[-1]["x1"] <= x + 2 for r, o in zip(rows, one_sided)]
    right = [o and r[0]["x0"] >= x - 2 for r, o in zip(rows, one_sided)]
    both = [o and not (a or b) for o, a, b in zip(one_sided, left, right)]
    if not foot:
        return next((k for k in range(len(rows)) if sum(one_sided[k:]) >= 0.85 * (len(rows) - k)
                     and sum(left[k:]) + sum(both[k:]) >= 5 and sum(right[k:]) + sum(both[k:]) >= 5), None)
    # `foot`: the rows under the last one with text on both sides of `x` (a figure and its caption across the
    # page's foot) are left out of the count, where the rows above hold most of the page and five such rows
    end = max((k for k, b in enumerate(both) if b), default=-1) + 1
    return next((k for k in range(end) if sum(one_sided[k:end]) >= 0.85 * (end - k) and sum(both[k:end]) >= 5
                 and end - k >= 0.6 * len(rows)), None)


def _page_lines(words: list[dict], page: int, width: float, height: float) -> list[Line]:
    """Lines of one page in reading order: spanning rows on top, then the left column, then the right one (a
    text row across both below their top divides them).

    The gutter is looked for at the middle first, then elsewhere (a journal's margin column beside the text);
    the columns' lines need not share baselines."""
    rows = _rows(words)
    full = (min(w["x0"] for w in words), max(w["x1"] for w in words))
    mid, first = width / 2, _columns_from(rows, width / 2)
    if first is None:
        first = _columns_from(rows, mid, foot=True)
    if first is None:
        crossing = [0] * (int(width) + 2)  # how many words cross each x
        for w in words:
            for x in range(max(0, int(w["x0"]) + 3), min(len(crossing), int(w["x1"]) - 1)):
                crossing[x] += 1
        for x in sorted(range(int(0.2 * width), int(0.8 * width), 3), key=lambda x: abs(x - width / 2)):
            if crossing[x] <= 0.15 * len(rows) and (first := _columns_from(rows, x)) is not None:
                mid = x
                break
    if first is None:
        return _lines(rows, page, full, height)
    out = _lines(rows[:first], page, full, height)
    body = [w for r in rows[first:] if not _spans(r, mid) for w in r]
    sides = [[w for w in body if w["x1"] <= mid + 2], [w for w in body if w["x0"] >= mid - 2]]
    cols = [(min(w["x0"] for w in side), max(w["x1"] for w in side)) if side else full for side in sides]
    # a row of text across the columns below their start, not smaller than their text and with column text
    # below it (a heading over a page whose text runs beside a figure), divides the page: the columns above
    # it, then the row, then the columns below; other rows that cross the gutter (a table's, a figure's, a
    # formula's, a note at the page's foot) are left out
    last = max((r[0]["top"] for r in rows[first:] if not _spans(r, mid)), default=0.0)
    sizes: Counter = Counter()
    for w in body:
        sizes[w["size"]] += len(w["text"])
    text = sizes.most_common(1)[0][0] if sizes else 0.0  # the columns' text size: a smaller row is a note
    cuts = [r for r in rows[first:] if _spans(r, mid) and _one_run(r) and r[0]["top"] < last
            and max(w["size"] for w in r) >= text - 0.5]
    top = -1.0
    for cut in [*cuts, None]:
        bottom = cut[0]["top"] if cut is not None else float("inf")
        for side, col in zip(sides, cols):
            band = [w for w in side if top < w["top"] < bottom]
            if band:
                out += _lines(_rows(band), page, col, height)
        if cut is not None:
            out.append(_line(cut, page, full, height))
            top = cut[0]["top"]
    return out


def _one_run(row: list[dict]) -> bool:
    """A row of text set as one run of words (a heading, a line of text), not cells or labels apart."""
    words = [w for w in row if any(ch.isalpha() for ch in w["text"])]
    return len(words) >= 2 and all(b["x0"] - a["x1"] <= max(2.5, 0.9 * a["size"]) for a, b in zip(row, row[1:]))


_FOLIO = re.compile(r"^(\d{1,4})\s+\S.*\D$|^\D.*\S\s+(\d{1,4})$")  # "56 Kopp and Armbruster", "… Records 57"


def _folio_heads(lines: list[Line]) -> set[int]:
    """Running heads that differ from page to page (even pages the authors, odd pages the title) but carry the
    page's number: the top line of two pages or more, not bold, whose number less the page's index is the same.
    A short paper has too few pages for the repeated-line rule."""
    offsets: dict[int, list[Line]] = {}
    for page in sorted({ln.page for ln in lines}):
        on = [ln for ln in lines if ln.page == page and ln.text]
        top = min(on, key=lambda ln: ln.top)
        m = _FOLIO.match(top.text)
        if m and not top.bold and top.top < 0.15 * top.page_h:
            offsets.setdefault(int(m.group(1) or m.group(2)) - page, []).append(top)
    return {id(ln) for group in offsets.values() if len(group) >= 2 for ln in group}


def read_lines(data: bytes, keep: Callable[[Line], bool] | None = None) -> list[Line]:
    """Every text line of the PDF in reading order (columns detected per page), running heads/feet removed; a
    line `keep` says is a heading (the outline points at it) stays though its text comes on three pages or more
    (a book's "Exercises" section in every chapter)."""
    import pdfplumber
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfplumber.utils.exceptions import PdfminerException

    try:
        pdf = pdfplumber.open(io.BytesIO(data))
    except (PdfminerException, PDFSyntaxError, ValueError, TypeError) as exc:
        raise PdfError(f"not a readable PDF: {exc}") from exc
    lines: list[Line] = []
    with pdf:
        for n, page in enumerate(pdf.pages):
            upright = page.filter(lambda o: o.get("object_type") != "char" or o.get("upright", True))
            words = [_word(w) for w in upright.extract_words(x_tolerance=1.5, y_tolerance=2.5, return_chars=True)]
            if words:
                lines += _page_lines(words, n, float(page.width), float(page.height))
    pages_of: dict[str, set[int]] = {}
    for ln in lines:
        pages_of.setdefault(DIGITS.sub("", ln.text), set()).add(ln.page)
    folios = _folio_heads(lines)
    lines = [ln for ln in lines if ln.text and id(ln) not in folios and (
        len(pages_of[DIGITS.sub("", ln.text)]) < 3 or (keep is not None and keep(ln)))]
    if not lines:
        raise PdfError("the PDF has no text layer")
    return lines
