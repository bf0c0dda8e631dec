"""An open-access paper PDF -> Pap2Pat `sections`, with pdfplumber and font-based heading levels.

The paper parsed PDFs with Grobid and set heading levels from fonts; this parser does the same without
a service: words come from pdfplumber with their font size and name; a page whose words leave the middle
free is read as two columns (left, then right); words become lines. The body size is the most common
character size. A heading is a short line set larger than the body or in bold, that does not read like
a sentence or a caption; its level is the depth of its number ("2.1 Node Types" -> 2) when it has one,
else the rank of its font size among the heading sizes (largest = 1). Text before the first heading
(title, authors) and the Abstract section are front matter (the abstract comes from the metadata);
References / Bibliography and what follows are back matter. Body lines join into paragraphs at a larger
vertical gap or an indented line after a full stop; a word hyphenated across lines is rejoined.
"""
from __future__ import annotations

import io
import re
import statistics
from collections import Counter
from dataclasses import dataclass

_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(\S.*)$")
_CAPTION = re.compile(r"^(fig(ure)?|table|algorithm|eq(uation)?)\s*\.?\s*\d", re.I)
_BACK = re.compile(r"^(references|bibliography|works cited|literature cited)$", re.I)
_FRONT = re.compile(r"^abstract$", re.I)
_CID = re.compile(r"\(cid:\d+\)")
_DIGITS = re.compile(r"\d+")
_BOLD = re.compile(r"bold|medi|semibold|heavy|black|[-,]b$", re.I)


class PdfError(ValueError):
    """The bytes are not a PDF with a text layer."""


@dataclass
class Line:
    text: str
    size: float
    bold: bool
    x0: float
    top: float
    bottom: float
    page: int
    col_x0: float


def _rows(words: list[dict]) -> list[list[dict]]:
    rows: list[list[dict]] = []
    for w in sorted(words, key=lambda w: (round(w["top"]), w["x0"])):
        if rows and abs(rows[-1][0]["top"] - w["top"]) <= 2.5:
            rows[-1].append(w)
        else:
            rows.append([w])
    return [sorted(r, key=lambda w: w["x0"]) for r in rows]


def _line(row: list[dict], page: int, col_x0: float) -> Line:
    chars: Counter = Counter()
    for w in row:
        chars[(round(w["size"], 1), bool(_BOLD.search(w["fontname"])))] += len(w["text"])
    (size, _), _ = chars.most_common(1)[0]
    bold = all(b for (_, b) in chars)  # a run-in bold lead ("Papers. We obtain …") is body text
    text = _CID.sub("", " ".join(w["text"] for w in row)).strip()
    return Line(text, size if len(chars) == 1 else min(s for s, _ in chars), bold, row[0]["x0"],
                min(w["top"] for w in row), max(w["bottom"] for w in row), page, col_x0)


def _spans(row: list[dict], mid: float) -> bool:
    """A row runs across the middle: a word crosses it, or the words either side are closer than a gutter."""
    if any(w["x0"] < mid - 2 and w["x1"] > mid + 2 for w in row):
        return True
    left = [w for w in row if w["x1"] <= mid + 2]
    right = [w for w in row if w["x0"] >= mid - 2]
    return bool(left and right) and right[0]["x0"] - left[-1]["x1"] < 8


def _page_lines(words: list[dict], page: int, width: float) -> list[Line]:
    """Lines of one page in reading order: spanning rows on top, then the left column, then the right one."""
    mid = width / 2
    rows = _rows(words)
    one_sided = [not _spans(r, mid) for r in rows]
    both = [o and any(w["x0"] >= mid - 2 for w in r) and any(w["x1"] <= mid + 2 for w in r)
            for r, o in zip(rows, one_sided)]
    # the columns start at the first row from which nearly every row keeps to one side (a full-width title,
    # author block or abstract may sit above them)
    first = next((k for k in range(len(rows)) if sum(both[k:]) >= 5
                  and sum(one_sided[k:]) >= 0.85 * (len(rows) - k)), None)
    if first is None:
        x0 = min(w["x0"] for w in words)
        return [_line(r, page, x0) for r in rows]
    out = [_line(r, page, min(w["x0"] for w in r)) for r in rows[:first]]
    body = [w for r, o in zip(rows[first:], one_sided[first:]) if o for w in r]
    for col in ([w for w in body if w["x1"] <= mid + 2], [w for w in body if w["x0"] >= mid - 2]):
        if col:
            x0 = min(w["x0"] for w in col)
            out += [_line(r, page, x0) for r in _rows(col)]
    return out


def read_lines(data: bytes) -> list[Line]:
    """Every text line of the PDF in reading order (columns detected per page)."""
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
            words = page.extract_words(x_tolerance=1.5, y_tolerance=2.5, extra_attrs=["size", "fontname"])
            if words:
                lines += _page_lines(words, n, float(page.width))
    # running heads and feet: the same line (digits aside) on three pages or more
    pages_of: dict[str, set[int]] = {}
    for ln in lines:
        pages_of.setdefault(_DIGITS.sub("", ln.text), set()).add(ln.page)
    lines = [ln for ln in lines if ln.text and len(pages_of[_DIGITS.sub("", ln.text)]) < 3]
    if not lines:
        raise PdfError("the PDF has no text layer")
    return lines


def _is_heading(line: Line, body: float) -> bool:
    text = line.text.strip()
    if not (line.size > body + 0.4 or line.bold) or line.size < body - 0.6:
        return False
    if len(text.split()) > 12 or len(text) < 3 or _CAPTION.match(text) or text.endswith((".", ",", ";", ":")):
        return _NUMBERED.match(text) is not None and len(text.split()) <= 12 and not text.endswith((",", ";"))
    return text[0].isupper() or text[0].isdigit()


def _join(parts: list[str]) -> str:
    out = ""
    for p in parts:
        if out.endswith("-") and p[:1].islower():
            out = out[:-1] + p
        else:
            out = f"{out} {p}" if out else p
    return out


def parse_pdf(data: bytes) -> list[dict]:
    """PDF bytes -> body sections `{title, paragraphs, subsections}` (see the module doc); PdfError when none."""
    lines = read_lines(data)
    sizes = Counter()
    for ln in lines:
        sizes[ln.size] += len(ln.text)
    body = sizes.most_common(1)[0][0]
    heads = [ln for ln in lines if _is_heading(ln, body)]
    start = next((k for k, h in enumerate(heads) if _FRONT.match(h.text) or _NUMBERED.match(h.text)), 0)
    heads = heads[start:]
    numbered = {h.size: m.group(1).count(".") + 1 for h in heads if (m := _NUMBERED.match(h.text))}
    rank = {s: numbered.get(s, k + 1) for k, s in enumerate(sorted({h.size for h in heads}, reverse=True))}
    gaps = [b.top - a.bottom for a, b in zip(lines, lines[1:]) if a.page == b.page and 0 <= b.top - a.bottom < 20
            and a.size == body == b.size]
    gap = statistics.median(gaps) if gaps else 2.0
    roots: list[dict] = []
    stack: list[tuple[int, dict]] = []
    cur: dict | None = None
    para: list[str] = []
    skipping = True
    prev: Line | None = None

    def flush() -> None:
        if cur is not None and para:
            cur["paragraphs"].append(_join(para))
        para.clear()

    for ln in lines:
        text = ln.text.strip()
        if ln in heads:
            flush()
            m = _NUMBERED.match(text)
            title = m.group(2) if m else text
            if _BACK.match(title):
                break
            skipping = bool(_FRONT.match(title))
            if skipping:
                cur = None
                continue
            level = m.group(1).count(".") + 1 if m else rank.get(ln.size, 1)
            cur = {"title": title, "paragraphs": [], "subsections": []}
            while stack and stack[-1][0] >= level:
                stack.pop()
            (stack[-1][1]["subsections"] if stack else roots).append(cur)
            stack.append((level, cur))
            prev = ln
            continue
        if skipping or cur is None or _CAPTION.match(text):
            continue
        same_column = ln.page == prev.page and ln.col_x0 == prev.col_x0 if prev is not None else False
        if para and ((same_column and ln.top - prev.bottom > gap + 3)
                     or (ln.x0 > ln.col_x0 + 6 and para[-1].endswith((".", ":", "?", "!")))):
            flush()
        para.append(text)
        prev = ln
    flush()
    sections = [s for s in roots if s["paragraphs"] or s["subsections"]]
    if not sections:
        raise PdfError("no headed body text found")
    return sections
