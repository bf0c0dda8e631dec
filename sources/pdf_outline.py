"""A paper PDF's outline (bookmarks) matched to its text lines: the headings as the authors gave them.

hyperref LaTeX, Word's "create bookmarks" and most publishers write an outline whose entries name the sections,
their levels and where they start (page and height). `read_outline` reads it with pdfminer (the document
catalog pdfplumber opens); `match_outline` finds each entry's line in the body, in document order: on the page
the entry points to (nearest its height first, then the next and the previous page), else anywhere after the
previous match (a destination can be wrong: appendix anchors named like sections' point at the first pages).
A line matches when it reads as the entry once both are compared on their letters and digits alone (case,
spaces, punctuation and ligatures aside), with or without the number ("3.1Encoding module" is "3.1 Encoding
Module", "Introduction" is "1. INTRODUCTION"), allowing a glyph or two lost on either side (ratio >= 0.9) and
a title wrapped over up to three lines; a numbered subsection may run in at the start of a paragraph ("4.1.1
Preprocessing the Input. We say …"), and a short entry may name the start of its line ("Appendix A" for
"Appendix A. Synoptic Report Template"). A line in brackets ("(Appendix A).") is a reference, never a heading.
Entries that are not sections are dropped before matching: a sole first top entry holding the others (the
paper's title), Figure/Table entries, the entries under "Abstract". Whether the matches are enough to trust
the outline is `sources.paper_pdf`'s call.
"""
from __future__ import annotations

import io
import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher

from .pdf_lines import Line

# a section number ahead of the title: 3.1, 3.1., IV., III-A, A., A.2, "Appendix B"; glued or spaced
_LEAD_NUMBER = re.compile(r"^\s*(?:(?i:appendix|anhang)\s+[A-Z0-9]{1,2}\b[.:\-–]?\s*|\d+(?:\.\d+)*\.?\s*"
                          r"|(?:[IVX]{1,5}|[A-Z])(?:[.\-][A-Z0-9]{1,3})*(?:\.\s*|\s+))(?=\S)")
_NOT_SECTION = re.compile(r"^(fig(ure)?|table|tab|plate|scheme|chart)\s*\.?\s*[A-Z]?\d", re.I)
_APPENDIX_LABEL = re.compile(r"^\s*(?i:appendix|anhang)\s+[A-Z0-9]{1,2}\b")
_ABSTRACT = re.compile(r"^\W*(abstract|summary)\W*$", re.I)
_RUN_IN_END = re.compile(r"^([)\]]*)\s*[.:]\s+\S")  # what follows a run-in title on its line: ". We say …"


@dataclass(frozen=True)
class Entry:
    """One outline entry: its depth (1 = top), title, and where it points (page index; `top` in pdfplumber's
    coordinates, from the page's top edge; None where the outline does not say)."""
    level: int
    title: str
    page: int | None
    top: float | None


def _name(obj: object) -> object:
    """A named destination's key as the catalog stores it (a PSLiteral's name, bytes or str)."""
    return getattr(obj, "name", obj)


def _destination(doc, dest: object, action: object) -> list | None:  # noqa: ANN001 - pdfminer PDFDocument
    from pdfminer.pdftypes import resolve1

    if dest is None and action is not None:
        action = resolve1(action)
        if isinstance(action, dict) and _name(action.get("S")) == "GoTo":
            dest = action.get("D")
    dest = resolve1(dest)
    if isinstance(dest, (bytes, str)) or hasattr(dest, "name"):
        key = _name(dest)
        try:
            dest = resolve1(doc.get_dest(key))
        except Exception:  # noqa: BLE001 - a dangling name: the entry points nowhere
            dest = None
    if isinstance(dest, dict):
        dest = resolve1(dest.get("D"))
    return dest if isinstance(dest, list) and dest else None


def read_outline(data: bytes) -> list[Entry]:
    """The PDF's outline entries in document order (empty when it has none or it cannot be read)."""
    import pdfplumber
    from pdfminer.pdftypes import resolve1

    entries: list[Entry] = []
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = {p.page_obj.pageid: (n, float(p.height)) for n, p in enumerate(pdf.pages)}
            for level, title, dest, action, _ in pdf.doc.get_outlines():
                target = _destination(pdf.doc, dest, action)
                page, top = None, None
                if target is not None:
                    ref = target[0]
                    at = pages.get(getattr(ref, "objid", None)) or (
                        (ref, pages_h) if isinstance(ref, int) and (pages_h := _height(pdf, ref)) else None)
                    if at is not None:
                        page = at[0]
                        kind = _name(resolve1(target[1])) if len(target) > 1 else None
                        y = resolve1(target[3]) if kind == "XYZ" and len(target) > 3 else \
                            resolve1(target[2]) if kind in ("FitH", "FitBH") and len(target) > 2 else None
                        top = at[1] - float(y) if isinstance(y, (int, float)) else None
                entries.append(Entry(level, " ".join(str(title).split()), page, top))
    except Exception:  # noqa: BLE001 - no outline (PDFNoOutlines), or a broken one: the layout rules decide
        return []
    return entries


def _height(pdf, index: int) -> float | None:  # noqa: ANN001 - pdfplumber PDF
    """A page given by its index (a remote-style destination), its height; None when out of range."""
    return float(pdf.pages[index].height) if 0 <= index < len(pdf.pages) else None


def sections_of(entries: list[Entry]) -> list[Entry]:
    """The entries that may be sections, levels from 1: the sole first top entry holding the others (the title)
    left out, as are Figure/Table entries and what sits under an Abstract entry."""
    if not entries:
        return []
    top = min(e.level for e in entries)
    if len(entries) > 1 and entries[0].level == top and sum(e.level == top for e in entries) == 1:
        entries = entries[1:]
    out: list[Entry] = []
    abstract: int | None = None
    for e in entries:
        if abstract is not None and e.level > abstract:
            continue
        abstract = e.level if _ABSTRACT.match(e.title) else None
        if e.title and not _NOT_SECTION.match(e.title):
            out.append(e)
    if not out:
        return []
    top = min(e.level for e in out)
    return [Entry(e.level - top + 1, e.title, e.page, e.top) for e in out]


def _letters(text: str) -> str:
    """Letters and digits only, case folded, ligatures and accents undone: what two renderings of a title share."""
    t = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text))
    return "".join(ch for ch in t.casefold() if ch.isalnum())


def _untitled(text: str, label: bool = True) -> str:
    """The title without its leading section number (and without an "Appendix A" label unless `label` is False:
    a title shows it, as the layout rules keep it)."""
    if not label and _APPENDIX_LABEL.match(text):
        return text.strip()
    return _LEAD_NUMBER.sub("", text.strip(), count=1)


def _alike(a: str, b: str, exact: bool) -> bool:
    if not a or not b:
        return False
    if a == b or exact:
        return a == b
    return min(len(a), len(b)) >= 6 and SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.9


def _same(entry: str, text: str, exact: bool = True) -> bool:
    """The line text reads as the entry: letters and digits alike, with or without the number on either side."""
    return _alike(_letters(entry), _letters(text), exact) \
        or _alike(_letters(_untitled(entry)), _letters(_untitled(text)), exact)


def _opens(entry: str, text: str, exact: bool) -> bool:
    """`text` (a title's first line) is how the entry begins, with or without the number on either side (a glyph
    lost on either side allowed unless `exact`)."""
    if re.fullmatch(r"\s*(\d+(\.\d+)*|[IVX]{1,5}|[A-Z])\.?\s*", text):  # the number on a line of its own
        return _letters(entry).startswith(_letters(text))
    head = [h for h in (_letters(text), _letters(_untitled(text))) if len(h) >= 3]
    return any(_alike(_letters(e)[:len(h)], h, exact) for e in (entry, _untitled(entry)) for h in head)


def _starts(entry: str, text: str) -> int | None:
    """Where the entry's title ends in `text`, when `text` runs on after it (". We say …"): a run-in heading."""
    want = _letters(_untitled(entry))
    if len(want) < 4:
        return None
    body = _untitled(text)
    cut = len(text) - len(body)
    got = ""
    for n, ch in enumerate(body):
        got += _letters(ch)
        if len(got) >= len(want):
            if got == want and (end := _RUN_IN_END.match(body[n + 1:])):
                return cut + n + 1 + len(end.group(1))  # "FIDD using CN(1). In our …": the bracket closes the title
            return None
    return None


@dataclass(frozen=True)
class Match:
    """An entry found in the lines: its first line's index, how many lines its title takes, its level, the
    title to show, and the text after a run-in title on its last line ("" when the heading stands alone)."""
    index: int
    span: int
    level: int
    title: str
    rest: str = ""


def _candidate(entry: Entry, lines: list[Line], k: int, exact: bool) -> Match | None:
    text = ""
    for span in range(1, 4):
        j = k + span - 1
        if j >= len(lines) or (span > 1 and (lines[j].page != lines[k].page or lines[j].top < lines[j - 1].top - 1)):
            return None
        text = _wrap(text, lines[j].text.strip(), entry.title)
        if _same(entry.title, text, exact):
            return Match(k, span, entry.level, _title(entry.title, text))
        if span == 1 and (cut := _starts(entry.title, text)) is not None:
            return Match(k, 1, entry.level, _title(entry.title, text[:cut].rstrip(" .:")), text[cut:].lstrip(" .:"))
        if (span == 1 and not _opens(entry.title, text, exact)) or len(_letters(text)) >= len(_letters(entry.title)):
            return None  # a wrapped title's first line begins it
    return None


def _wrap(text: str, more: str, entry: str) -> str:
    """A title's next line joined on: a word broken at the line's end is one word where the outline writes it so
    ("pro-" + "jection"), a compound otherwise."""
    if not text:
        return more
    if text.endswith("-") and more[:1].islower():
        head, tail = text[:-1].split()[-1:] or [""], more.split()[0]
        return text[:-1] + more if f"{head[0]}{tail}".lower() in entry.lower() else text + more
    return f"{text} {more}"


def _title(entry: str, text: str) -> str:
    """The heading's title, number left off: the page's words, or the outline's where the page lost glyphs the
    outline has (a symbol without a Unicode map) and the outline is plain text (no TeX left in it)."""
    page, outline = _untitled(text, label=False), _untitled(entry, label=False)
    if len(_letters(outline)) > len(_letters(page)) and not re.search(r"[\\{}]", outline):
        return outline
    return page or text


def _at_spot(entry: Entry, lines: list[Line], on: list[int]) -> Match | None:
    """The line the entry points at, when it begins with the entry's words and goes on ("Appendix A" pointing at
    "Appendix A. Synoptic Report Template"): the whole line is the heading."""
    if entry.top is None or not on:
        return None
    k = min((k for k in on if lines[k].top >= entry.top - 4), key=lambda k: lines[k].top, default=None)
    if k is None or lines[k].top - entry.top > 40 or len(lines[k].text.split()) > 14:
        return None
    text = lines[k].text.strip()
    if _letters(text).startswith(_letters(entry.title)) and len(_letters(entry.title)) >= 4 \
            and not text.endswith((".", ",", ";")):
        return Match(k, 1, entry.level, _untitled(text, label=False) or text)
    return None


def points_at(entries: list[Entry], line: Line) -> bool:
    """An entry points at this line: its page, near its height, and the line reads as the entry's title."""
    return any(e.page == line.page and (e.top is None or abs(line.top - e.top) <= 60) and _same(e.title, line.text)
               for e in entries)


def match_outline(entries: list[Entry], lines: list[Line]) -> list[Match]:
    """Each entry's line, in document order; entries found nowhere are left out. A line in brackets ("(Appendix
    A).") is a reference to a section, not its heading."""
    out: list[Match] = []
    after = 0  # the first line a next match may take
    for entry in entries:
        if entry.page is None:
            groups = [list(range(after, len(lines)))]
        else:
            groups = [[k for k in range(after, len(lines)) if lines[k].page == page]
                      for page in (entry.page, entry.page + 1, entry.page - 1)]
            # a destination that points before the previous match (an appendix's anchor named like a section's):
            # anywhere after it
            groups.append([k for k in range(after, len(lines)) if abs(lines[k].page - entry.page) > 1])
            if entry.top is not None:  # nearest the height it points at; lines well above it last
                groups[0].sort(key=lambda k: abs(lines[k].top - entry.top) if lines[k].top >= entry.top - 40
                               else 1e4 + lines[k].top)
        found = None
        for n, group in enumerate(groups):
            group = [k for k in group if not lines[k].text.lstrip().startswith(("(", "["))]
            found = next((m for exact in (True, False) for k in group
                          if (m := _candidate(entry, lines, k, exact)) is not None), None)
            if found is None and n == 0 and entry.page is not None:
                found = _at_spot(entry, lines, group)
            if found is not None:
                break
        if found is not None:
            out.append(found)
            after = found.index + found.span
    return out
