"""An open-access paper PDF -> Pap2Pat `sections`, with pdfplumber and font-based heading levels.

The fallback when no GROBID is configured (`sources.grobid` is the paper's route). The PDF's lines, in
reading order and with their type, come from `sources.pdf_lines` (columns, small caps, running heads).

Two routes find the headings (`read_pdf` names the one taken). `pdf-outline`: where the PDF has an outline
(bookmarks: hyperref LaTeX, Word, most publishers) whose entries are, for two or more and at least 60 % of
them, lines of the text (`sources.pdf_outline`), the headings and their levels are the outline's; a layout
"References" line it leaves out still ends the body, and layout headings numbered below its deepest level
under an entry's number are kept. `pdf-layout` otherwise (no outline, an outline of pages or of a title
alone): the rules below. Either way the paragraphs between heading lines are the sections' bodies.

The body size and font are those of most characters of the full lines before the reference list (pages
of references, set smaller, would otherwise decide it). Not body text: running heads and feet (the same
line on three pages or more), table rows (three or more cells apart, or mostly numbers) with the bold
header lines above them and the lines between them, captions
("Table 2:", "Figure 3." and the lines that continue them; a sentence such as "Table 1 presents …" stays),
and small type (below the body size) that sits at the foot of a column (footnotes), comes in short lines
(text inside figures) or fills a narrow margin column beside the text (PLOS's citation and licence notes).

A heading is a short line, not a caption, a sentence, a question of six words or more, a label ("Input: G",
"Theorem 2.3 (Heine-Borel)")
or a line of a paragraph set in larger type (a datasheet), set larger than the body, or bold at about body
size (bold from the font name: `Bold`, `Semibold`, `Medium`, `.B`, `-Bd`, TeX's `CMBX`/`CMB`, Libertine's
`TB`), or in a face other than the body's (its optical size aside) standing on its own line, or numbered
("2.1 Node Types", "III. RESULTS", IEEE's italic "A. Title" after a roman section, a Word author's "V.I.II",
an appendix's "B.2") in the sequence of the
paper's numbered headings (one number may be missing where the line is in its own face; the first item of a
list under its "…:" line is no heading), or numbered at body size in plain capitals or italics and standing
alone, in a sequence of such lines (II. after I., 4.2. after 4.1., A. after a roman section); a numbered
subsection may also run in at the start of a paragraph ("2.1. Closeness centrality. The farness of …", not
cut at "Fig."), and in a paper of unnumbered sections so may a bold lead ("Data analysis. All data …";
where sections are numbered such a lead labels a paragraph, as GROBID keeps it). A heading wrapped over two
lines of one style is one heading, and so is an "APPENDIX" line with the title under it ("APPENDIX: MEAN
ADMISSION DELAY"). A line whose words stand in separate cells ("Matrix C   Matrix D": a figure's labels, a
table's header) is no heading unless numbered; "References" is never a table's header. A minor heading may be
set smaller than the body in a bold face of its own, straight above body text (Annals), and a numbered one
in typewriter set larger than the body ("3.1. readData", JSS). A line set in a heading style the paper's own
pages show (`sources.pdf_styles`: a font and size no fixed rule names, ASBMB's capitals below the body size,
Oxford's coded bold italic at body size, whose short lines stand apart over a paragraph two times or more) and
standing so is a heading, and small type straight under one is its section's text (a methods section set
small), not a footnote. No heading: a date
("3 November 2014"), a first number on the title page that starts no numbering ("10 Kings College Road"), a
line set over another (a second text layer), a contents page's entries (numbered lines that come again on
later pages). In a numbered paper
an unnumbered line after the first page set larger than every numbered heading is text in a figure. Its
level is the depth of its number when it has one, else the rank of its style (size, then bold, then caps)
among the heading styles, a style whose headings come straight under another's (and never over them) ranking
below it whatever its size; of two faces of one style, the one whose headings come straight under the other's
ranks lower (PLOS: "Results", sans, over "Physiological parameters", serif), and an unnumbered heading straight
above one set alike holds it (CHI: "Introduction" over "HCI and smartphones"). Text before the first heading
(title, authors; a second author's block beside the first, set like it and higher than that line) and the
Abstract section are front matter (the abstract comes from the metadata); the
reference list is back matter, but an appendix after it ("Appendix …", "A Details") is kept. Body lines
join into paragraphs at a larger vertical gap or an indented line after a full stop; a word hyphenated
across lines is rejoined, and the hyphen kept when the joined form is not a word of the paper but the compound
is, or the first part is a word of it and the second no suffix: "state-of-the-art", "fine-grained", not
"interac-tions", "appear-ing".
"""
from __future__ import annotations

import itertools
import re
import statistics
from collections import Counter
from dataclasses import dataclass

from .pdf_lines import BOLD, DIGITS, Line, PdfError, read_lines  # noqa: F401 (PdfError is raised from here too)
from .pdf_lines import same_column as _same_column
from .pdf_outline import Entry, match_outline, points_at, read_outline, sections_of
from .pdf_styles import Style, heading_styles, style_of

_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+(\S.*)$")
_ROMAN = re.compile(r"^([IVX]{1,5})\.\s+(\S.*)$")
_ROMAN_DOTTED = re.compile(r"^([IVX]{1,5}(?:\.[IVX]{1,5})+)\.?\s+(\S.*)$")  # "V.I.II Model Implementation"
_LETTERED = re.compile(r"^([A-H](?:\.\d+)*)\.?\s+([A-Z]\S*.*)$")
# "Table 2:", "Figure 3.", "Scheme 1.", "Table 1 Patient …" are captions; "Table 1 presents …" is a sentence
_CAPTION = re.compile(r"^(?i:fig(?:ure)?|table|algorithm|listing|scheme|chart)\s*\.?\s*(?:[A-Z]?\d+[a-z]?|[IVX]{1,5}\b)"
                      r"(\s*[.:|]|\s*$|\s+[A-Z(\d])")  # "TABLE II" as well as "Table 2"
_SYMBOL_FONT = re.compile(r"mono|courier|cmtt|sftt|cmmi|cmsy|cmex|msbm|msam|symbol|math", re.I)
_TYPEWRITER = re.compile(r"mono|courier|cmtt|sftt", re.I)
_ITALIC = re.compile(r"ital|obli|slant|^cmsl|\.i$|-it$", re.I)  # TeX's slanted CMSL reads as italic
_BACK = re.compile(r"^(references|bibliography|works cited|literature cited|references and notes)$", re.I)
_FRONT = re.compile(r"^(abstract|contents|table of contents|ccs concepts|index terms|keywords|key words)$", re.I)
_APPENDIX = re.compile(r"^(appendix|appendices|supplementa)", re.I)
_APPENDIX_LABEL = re.compile(r"^(appendix|appendices)(\s+[A-Z0-9]{1,2})?$", re.I)  # "APPENDIX" alone above its title
_DATE = re.compile(r"^\d{1,2}\s+(january|february|march|april|may|june|july|august|september|october|november|"
                   r"december)\s+\d{4}$", re.I)
_ENTRY = re.compile(r"^[A-Z][\w'’\-]+(?: [A-Z][\w'’\-]+)?, (?:[A-Z]\.(?:-[A-Z]\.)? ?)+")  # "Harris, A. W. & …"
_FIRST = re.compile(r"^(introduction|background|overview|motivation)$", re.I)
_NUMBERISH = re.compile(r"^[\d.,%±+\-–−()*/<>=]+$")
_SUFFIX = re.compile(r"^(ing|ed|ion|tion|sion|ment|ly|ness|able|ible|ity|ive|al|ance|ence|er|ers|es|ous|ure|ate|ated|"
                     r"ating|ist|ism|ize|ise|ized|ful|less|ship|ward|wise)s?$", re.I)
_ABBR = "".join(f"(?<!{a})" for a in ("Fig", "Figs", "Eq", "Eqs", "al", "vs", "Ref", "No"))  # "(Fig. 2)" ends no title
_RUN_IN = re.compile(rf"^([^\W\d_].{{1,100}}?){_ABBR}\.\s+(\S.*)$")
_OPEN_END = frozenset("a an the of in on for to with and or by from at as is are was were that which than".split())
_TOC = re.compile(r"^\d+(\.\d+)*\.?\s+.*\D\s\d{1,3}$")
_TOC_ANY = re.compile(r"^[A-Z].*[^\d\s]\s+\d{1,3}$")  # an unnumbered entry of a table of contents
# a theorem-like block's label: a word, its number, a name in brackets ("Theorem 2.3 (Heine-Borel)")
_THEOREM = re.compile(r"^[^\W\d_]+\s+\d+(?:\.\d+)*\.?\s*\(.+\)[.:]?$")


def _body_style(lines: list[Line]) -> tuple[float, str]:
    """Size and font of most characters of the full lines before the reference list."""
    end = next((k for k, ln in enumerate(lines) if _BACK.match(ln.text.strip()) and k > len(lines) // 3), len(lines))
    body = [ln for ln in lines[:end] if len(ln.text) >= 40] or lines
    sizes, fonts = Counter(), Counter()
    for ln in body:
        sizes[ln.size] += len(ln.text)
        fonts[ln.font] += len(ln.text)
    return sizes.most_common(1)[0][0], fonts.most_common(1)[0][0]


def _not_body(lines: list[Line], body: float, body_font: str) -> tuple[set[int], set[int]]:
    """Indexes of table rows, captions (with their continuation lines), footnotes and text inside figures, and
    of the lines set as headings in a style the paper shows (`sources.pdf_styles`): a line of such a style, and
    the small type straight under it (a section set small), are not footnotes."""
    out = _tables_and_captions(lines)
    styles, learned = heading_styles(lines, out, body, body_font)
    return out | _small_type(lines, body, styles), learned


def _tables_and_captions(lines: list[Line]) -> set[int]:
    """Indexes of table rows (with their header lines) and captions (with the lines that continue them)."""
    out: set[int] = set()
    k = 0
    while k < len(lines):
        ln = lines[k]
        words = ln.text.split()
        numbers = sum(bool(_NUMBERISH.match(w)) for w in words)
        if ln.cells >= 3 or (numbers >= 3 and numbers >= 0.6 * len(words)):
            out.add(k)
        if _CAPTION.match(ln.text):
            out.add(k)
            j = k + 1
            while j < len(lines) and _same_column(lines[j - 1], lines[j]) and lines[j].size == ln.size \
                    and 0 <= lines[j].top - lines[j - 1].bottom < 0.6 * ln.size and not lines[j - 1].text.endswith("."):
                out.add(j)
                j += 1
            k = j
            continue
        k += 1
    # a table's header and spanning lines: a line between two table rows, or a bold one straight above one
    rows = {k for k in out if lines[k].cells >= 3}

    def near(a: Line, b: Line) -> bool:
        return _same_column(a, b) and -b.size < b.top - a.bottom < a.size  # cells of one row may stagger

    for k in range(len(lines) - 2, 0, -1):  # bottom up, so that a header's lines above a header line join it
        a, ln, b = lines[k - 1], lines[k], lines[k + 1]
        if (k + 1 in rows or (k + 1 in out and b.bold)) and near(ln, b) and not _BACK.match(ln.text.strip()) \
                and (ln.bold or (k - 1 in rows and near(a, ln))):  # "References" above entries set apart
            out.add(k)
    return out


def _small_type(lines: list[Line], body: float, styles: set[Style]) -> set[int]:
    """Blocks of consecutive lines below the body size in one column that are footnotes, text inside figures
    or a margin column's notes; not a heading style's lines, nor a block straight under one."""
    out: set[int] = set()
    cols: dict[int, set[tuple[float, float]]] = {}
    for ln in lines:
        cols.setdefault(ln.page, set()).add((ln.col_x0, ln.col_x1))
    widest: dict[int, float] = {}  # the widest column of a page, the full width of rows above its columns left out
    for page, spans in cols.items():
        full = (min(a for a, _ in spans), max(b for _, b in spans))
        widest[page] = max(b - a for a, b in (spans - {full} or spans))
    k = 0
    while k < len(lines):
        if lines[k].size >= body - 0.9 or style_of(lines[k]) in styles:
            k += 1
            continue
        j = k + 1
        while j < len(lines) and _same_column(lines[j - 1], lines[j]) and lines[j].size < body - 0.9 \
                and style_of(lines[j]) not in styles:
            j += 1
        block = lines[k:j]
        width = max(1.0, block[0].col_x1 - block[0].col_x0)
        # a section set small (ASBMB's methods) may run to a column's foot straight under its heading
        under_heading = k > 0 and style_of(lines[k - 1]) in styles and _same_column(lines[k - 1], lines[k])
        at_foot = not under_heading and block[0].top > 0.55 * block[0].page_h and not any(
            _same_column(block[-1], ln) and ln.size >= body - 0.9 for ln in lines[j:j + 40] if ln.top > block[-1].top)
        short = statistics.median(ln.x1 - ln.x0 for ln in block) < 0.5 * width
        margin = width < 0.6 * widest.get(block[0].page, width)  # a journal's margin column beside the text
        if margin:
            out.update(range(k, j))
        elif at_foot or short:  # a bold line there may be a heading set small (REVTeX's "I. INTRODUCTION"),
            # and "REFERENCES" set in small capitals above the small-type entries still ends the body
            out.update(n for n in range(k, j) if not (lines[n].bold and len(lines[n].text.split()) <= 14)
                       and not _BACK.match(lines[n].text.strip()))
        k = j
    return out


def _number(text: str, letters: bool) -> tuple[str, str] | None:
    """(number, title) of a numbered heading: "2.1 Node Types", "III. RESULTS", after references "A Details"."""
    if _DATE.match(text):
        return None  # "3 November 2014": a received/accepted date in a journal's margin
    for pat in (_NUMBERED, _ROMAN, _ROMAN_DOTTED) + ((_LETTERED,) if letters else ()):
        m = pat.match(text)
        first = m.group(2)[:1] if m else ""
        if m and (first.isupper() or (not first.isascii() and first.isalpha())  # "3.3 β-multiplier analysis"
                  or re.match(r"-[A-Za-z]", m.group(2))):  # "V. -iDP for …": a symbol without a Unicode map lost
            return m.group(1), m.group(2)
    return None


def _depth(number: str) -> int:
    return 1 if re.fullmatch(r"[IVX]+", number) else number.count(".") + 1


def _follows(prev: str | None, number: str) -> bool:
    """`number` may come next after `prev` in a paper's section numbering (1 -> 1.1, 2; 2.3 -> 2.4, 3, 2.3.1;
    III -> A -> B, IEEE's lettered subsections)."""
    if re.fullmatch(r"[A-H]", number) and prev is not None:
        return number == "A" if re.fullmatch(r"[IVX]+", prev) else len(prev) == 1 and ord(number) == ord(prev) + 1
    if not number[0].isdigit():
        return True
    parts = [int(p) for p in number.split(".")]
    if prev is None or not prev[0].isdigit():
        return parts[0] <= 1 and all(p <= 1 for p in parts[1:])
    old = [int(p) for p in prev.split(".")]
    if len(parts) > len(old):
        return parts[:len(old)] == old and all(p <= 1 for p in parts[len(old):])
    return parts[:-1] == old[:len(parts) - 1] and parts[-1] == old[len(parts) - 1] + 1


def _skips_one(prev: str | None, number: str) -> bool:
    """`number` comes two after `prev` at its level (3.1 -> 3.3): the heading between was not read (a formula set
    on its line)."""
    if prev is None or not (prev[0].isdigit() and number[0].isdigit()):
        return False
    old, new = [int(p) for p in prev.split(".")], [int(p) for p in number.split(".")]
    return len(old) == len(new) and old[:-1] == new[:-1] and new[-1] == old[-1] + 2


def _before(number: str, last: str | None) -> bool:
    """`number` goes back in the numbering (2.1 after 3.2), as a list item or table cell does."""
    if last is None or not (number[0].isdigit() and last[0].isdigit()):
        return False
    return [int(p) for p in number.split(".")] <= [int(p) for p in last.split(".")]


_ROMAN_VALUE = {"I": 1, "V": 5, "X": 10}


def _roman(number: str) -> int:
    values = [_ROMAN_VALUE[ch] for ch in number]
    return sum(-v if v < w else v for v, w in zip(values, values[1:] + [0]))


def _kind(number: str) -> str:
    if re.fullmatch(r"[IVX]+(\.[IVX]+)+", number):
        return "dotted"  # "V.I", "V.I.II": a Word author's subsections of V numbered in roman numerals
    return "arabic" if number[0].isdigit() else "roman" if re.fullmatch(r"[IVX]+", number) else "letter"


def _arabic(number: str) -> str:
    return ".".join(str(_roman(part)) for part in number.split("."))


def _succeeds(a: tuple[str, int] | None, b: str, between: set[str]) -> bool:
    """`b` comes straight after `a` (the previous candidate of its kind; `between` the kinds of the candidates
    between them): II after I, A after a roman section (B after A within it), 4.2 after 4.1."""
    kind = _kind(b)
    if kind == "dotted":  # V.I after a roman section, V.I.I after V.I, V.I.II after V.I.I
        return "roman" in between if a is None else _follows(_arabic(a[0]), _arabic(b))
    if kind == "letter":
        if "." in b:  # "B.2", an appendix's subsection: B.1 -> B.2, A.4 -> B.1
            if a is None or "." not in a[0]:
                return False
            (la, ra), (lb, rb) = a[0].split(".", 1), b.split(".", 1)
            return (la == lb and _follows(ra, rb)) or (ord(lb) == ord(la) + 1 and set(rb) <= {"1", "."})
        if b == "A":
            return "roman" in between
        return a is not None and len(a[0]) == 1 and _kind(a[0]) == "letter" and "roman" not in between \
            and ord(b) == ord(a[0]) + 1
    if a is None:
        return kind == "roman" and b == "I"
    if kind == "roman":
        return _roman(b) == _roman(a[0]) + 1
    return _follows(a[0], b)


def _caps(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 4 and sum(ch.isupper() for ch in letters) >= 0.8 * len(letters)


def _sequence_heads(lines: list[Line], skip: set[int], body: float, body_font: str) -> set[int]:
    """Numbered headings set at body size in plain capitals or italics, not bold ("II. RELATED AREA",
    "4.1. Step 1 (…)", IEEE's italic "A. Storage of …"): a short numbered line standing alone (a gap or a
    sentence's end above, its own face, a gap or an indent below) whose number continues, or is continued by,
    that of another such line. A numbered list item in the body face, or one line alone, stays text."""
    found: list[tuple[int, str]] = []
    for k, ln in enumerate(lines):
        text = ln.text.strip()
        num = None if k in skip else _number(text, True)
        if num is None or not body - 1.3 <= ln.size <= body + 0.4 or len(text.split()) > 12 \
                or text.endswith((".", ":", ",", ";")) or re.search(r"[a-z]{2}[.?!] [A-Z]", text) \
                or (_kind(num[0]) == "roman" and not text.startswith(num[0] + ".")):
            continue
        italic = bool(_ITALIC.search(ln.font)) and not _ITALIC.search(body_font)
        if not (_caps(num[1]) or italic):
            continue
        prev = lines[k - 1] if k else None
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        # a list's items stand under the line that announces them (":") and straight on top of each other
        above = prev is None or not _same_column(prev, ln) or ln.top - prev.bottom > 0.5 * ln.size \
            or prev.text.rstrip().endswith((".", "?", "!"))
        below = nxt is None or not _same_column(ln, nxt) or nxt.top - ln.bottom > 0.5 * ln.size \
            or (not _number(nxt.text.strip(), True) and (
                nxt.font != ln.font or nxt.x0 > ln.col_x0 + 6
                or (len(nxt.text.split()) <= 8 and not nxt.text.rstrip().endswith(".") and _continues(ln, nxt))))
        if above and below:
            found.append((k, num[0]))
    out: set[int] = set()
    last: dict[str, tuple[str, int]] = {}  # kind -> (number, position in `found`) of its last candidate
    for n, (k, number) in enumerate(found):
        kind = _kind(number)
        before = last.get(kind)
        between = {_kind(x) for _, x in found[before[1] + 1:n]} if before else {_kind(x) for _, x in found[:n]}
        if _succeeds(before, number, between):
            out.add(k)
            if before is not None:
                out.add(found[before[1]][0])
        last[kind] = (number, n)
    return out


def _contents(lines: list[Line]) -> set[int]:
    """A table of contents without page numbers (a report's first pages): three or more numbered lines of one page
    that come again, in any case, as lines of later pages; the later lines are the headings."""
    def key(ln: Line) -> str:
        return " ".join(ln.text.casefold().split())

    later: dict[str, int] = {}
    for ln in lines:
        later[key(ln)] = max(later.get(key(ln), -1), ln.page)
    found = [k for k, ln in enumerate(lines) if _number(ln.text.strip(), False) and later[key(ln)] > ln.page]
    pages = Counter(lines[k].page for k in found)
    return {k for k in found if pages[lines[k].page] >= 3}


def _continues(a: Line, b: Line) -> bool:
    """`b` is the next line of `a`'s block: same column, size and face, no more than a line's gap."""
    return _same_column(a, b) and a.size == b.size and a.font == b.font and 0 <= b.top - a.bottom < 0.6 * a.size


def _centred(ln: Line) -> bool:
    """The line is set in the middle of its column, away from its left edge (a centred heading's lines)."""
    width = ln.col_x1 - ln.col_x0
    return ln.x0 > ln.col_x0 + 0.05 * width and abs((ln.x0 + ln.x1) - (ln.col_x0 + ln.col_x1)) < 0.05 * width


def _wide(ln: Line) -> bool:
    return ln.x1 - ln.x0 >= 0.85 * (ln.col_x1 - ln.col_x0)


def _family(font: str) -> str:
    """A font's family without its weight and style: Syntax-Bold -> syntax, NimbusRomNo9L-Medi -> nimbusromno9l."""
    return re.split(r"[-,]", font, maxsplit=1)[0].lower()


def _face(font: str) -> str:
    """A font's face without its optical size (SFRM0900 is SFRM1000's face, CMR9 CMR10's); a name holding several
    numbers is a typesetter's code (Emerald's AdvPS405B6 body, AdvPS405B8 headings): its digits tell faces apart."""
    return DIGITS.sub("", font) if len(DIGITS.findall(font)) == 1 else font


def _code_title(ln: Line, body: float) -> bool:
    """A numbered title set larger than the body in typewriter: a function's name as a section (JSS
    "3.1. readData"), a heading though in a code face and lower case."""
    return bool(_TYPEWRITER.search(ln.font)) and ln.size > body + 0.4 and _NUMBERED.match(ln.text.strip()) is not None


def _overlaps(a: Line, b: Line | None) -> bool:
    """`b` is set over `a` (a second text layer: an edit pasted over the page), not above or below it."""
    return b is not None and _same_column(a, b) and min(a.x1, b.x1) > max(a.x0, b.x0) \
        and min(a.bottom, b.bottom) - max(a.top, b.top) > 0.2 * min(a.size, b.size)


def _is_heading(ln: Line, prev: Line | None, body: float, body_font: str, after_head: bool = False,
                nxt: Line | None = None, learned: bool = False) -> bool:
    """`learned`: the line stands as the headings of a style the paper shows do (`sources.pdf_styles`)."""
    text = ln.text.strip()
    words = text.split()
    if _overlaps(ln, prev) or _overlaps(ln, nxt):
        return False
    if len(words) > (20 if _NUMBERED.match(text) else 14) or len(text) < 3 or _CAPTION.match(text) \
            or not (text[0].isupper() or text[0].isdigit()) or not re.search(r"[A-Za-z]{3}", text) \
            or (_SYMBOL_FONT.search(ln.font) and not _code_title(ln, body)):
        return False  # code or formulas
    if text.endswith((",", ";")) or (text.endswith(".") and not re.fullmatch(r"[\dIVX.]+\.?", words[0])) \
            or not any(ch.isalpha() for ch in text):
        return False
    # a heading's first line may break off where it wraps ("CAVITY TRANSFER FUNCTION AND" / "BACKGROUND NOISE"):
    # set larger, bold or in a learned heading style, with a short line of its type under it
    wraps = (learned or ln.bold or ln.size > body + 0.4) and nxt is not None and _continues(ln, nxt) \
        and _style(ln) == _style(nxt) and len(nxt.text.split()) <= 8 and not nxt.text.rstrip().endswith(".")
    if ((text.endswith("-") or words[-1].lower() in _OPEN_END) and not wraps) \
            or (re.search(r"[a-z]{2}(?<!\bvs)[.?!] [A-Z]", text) and not _APPENDIX.match(text)) \
            or ((m := _NUMBERED.match(text)) and m.group(2)[:1].islower() and not _code_title(ln, body)):
        return False  # running text: a line that breaks off, or holds a sentence's end
    if re.match(r"^[A-Za-z]+:\s", text):
        return False  # a label leading its value: an algorithm's "Input: G, k", a form's "Note: …"
    if _THEOREM.match(text):
        return False  # a theorem's, an example's or an exercise's label in lecture notes or a book, not a section
    if text.endswith("?") and len(words) >= 6 and not _NUMBERED.match(text):
        return False  # a question set bold (a datasheet's, a form's) leads its answer
    if ln.cells >= 2 and not _NUMBERED.match(text) and not _number(text, True) and not _APPENDIX.match(text):
        return False  # words in separate cells: a table's header or a figure's labels ("Matrix C   Matrix D")
    if ln.size > body + 0.4:
        # after the title page, a line of a paragraph set in larger type (a datasheet, a box) is no heading
        if ln.page == 0:
            return True
        wrapped = nxt is not None and _continues(ln, nxt) and not (_caps(text) and _caps(nxt.text)) and (
            _wide(ln) or ((nxt.text.startswith("(") or nxt.text[:1].islower()) and not _NUMBERED.match(text)))
        return not (text.endswith(":") or wrapped or (prev is not None and _continues(prev, ln) and _wide(prev)))
    standalone = after_head or prev is None or not _same_column(prev, ln) or ln.top - prev.bottom > 0.5 * ln.size \
        or prev.text.rstrip().endswith((".", ":", "?", "!"))
    if learned:
        return True  # set in a heading style the paper's own pages show, and standing as its headings do
    if ln.size < body - 1.3:
        # a minor heading set small in a bold face of its own (Annals: sans over a serif body), straight above
        # body text or its own second line; a box's title over small text is none
        return ln.bold and ln.size >= body - 2.6 and standalone and _family(ln.font) != _family(body_font) \
            and ":" not in text and nxt is not None and _same_column(ln, nxt) and 0 <= nxt.top - ln.bottom < ln.size \
            and (nxt.size >= body - 0.4 or (_continues(ln, nxt) and nxt.bold))
    short = ln.x1 - ln.x0 < 0.85 * max(1.0, ln.col_x1 - ln.col_x0)
    if ln.bold:
        return standalone
    caps = sum(ch.isupper() for ch in text) >= 0.8 * sum(ch.isalpha() for ch in text) and len(text) >= 4
    face = _face(ln.font) != _face(body_font)
    return standalone and short and (caps or (face and not _ITALIC.search(ln.font)))


def _style(ln: Line) -> tuple[float, bool, bool]:
    """What ranks unnumbered headings: size, then bold, then ALL CAPS over mixed case."""
    letters = [ch for ch in ln.text if ch.isalpha()]
    return ln.size, ln.bold, sum(ch.isupper() for ch in letters) >= 0.8 * len(letters)


def _vocabulary(lines: list[Line]) -> set[str]:
    """The paper's words and hyphenated compounds (lower case), leaving out the halves of words hyphenated across
    lines."""
    out: set[str] = set()
    broken = False
    for ln in lines:
        words = re.findall(r"\w+(?:-\w+)*", ln.text)
        ends = ln.text.endswith("-")
        for w in words[1 if broken else 0:len(words) - 1 if ends else len(words)]:
            out.update([w.lower(), *w.lower().split("-")])  # "self-care" and its parts
        broken = ends
    return out


def _join(parts: list[str], vocab: set[str]) -> str:
    out = ""
    for p in parts:
        if out.endswith("-") and p[:1].islower():
            head = re.findall(r"[\w]+$", out[:-1])
            tail = re.match(r"[\w]+", p)
            joined = (head[0] if head else "") + (tail.group(0) if tail else "")
            keep = bool(head and tail) and joined.lower() not in vocab and (
                "-" in p.split()[0] or f"{head[0]}-{tail.group(0)}".lower() in vocab
                or (len(head[0]) >= 3 and head[0].lower() in vocab and len(tail.group(0)) >= 3
                    and not _SUFFIX.match(tail.group(0))))
            out = out + p if keep else out[:-1] + p
        else:
            out = f"{out} {p}" if out else p
    return out


def _unheaded_references(lines: list[Line], skip: set[int], body: float) -> int | None:
    """The first line of a reference list set without a heading (AASTeX's draft): in the last two thirds, in
    type smaller than the body, five entries ("Surname, I. …") in the next fifteen lines, all of that size."""
    for k in range(len(lines) // 3, len(lines)):
        ln = lines[k]
        if k in skip or ln.size > body - 0.4 or not _ENTRY.match(ln.text):
            continue
        run = list(itertools.takewhile(lambda j: lines[j].size == ln.size, range(k, min(k + 15, len(lines)))))
        if sum(bool(_ENTRY.match(lines[j].text)) for j in run) >= 5:
            return k
    return None


def _layout_heads(lines: list[Line], skip: set[int], body: float, body_font: str,
                  learned: frozenset[int] | set[int] = frozenset()
                  ) -> tuple[dict[int, tuple[int | None, str]], dict[int, str]]:
    """The layout rules: line index -> (level from the number or None, title) of each heading, and the text after
    each run-in heading on its line. Adds the lines a heading takes beyond its first to `skip`."""
    toc_pages = Counter(ln.page for ln in lines if _TOC.match(ln.text))
    in_sequence = _sequence_heads(lines, skip, body, body_font)

    heads: dict[int, tuple[int | None, str]] = {}  # line index -> (level from the number or None, title)
    run_in: dict[int, str] = {}  # line index of a run-in heading -> the text after it on its line
    last_number: str | None = None
    after_refs = False
    prev: Line | None = None
    prev_k = -1
    for k, ln in enumerate(lines):
        if k in skip or (toc_pages[ln.page] >= 3 and (_TOC.match(ln.text) or _TOC_ANY.match(ln.text))):
            continue
        text = ln.text.strip()
        # after a roman-numbered heading, "A. Title" in its own face is a lettered subsection (IEEE)
        lettered = not after_refs and last_number is not None and not last_number[0].isdigit()
        num = _number(text, after_refs or lettered)
        if num is None and _code_title(ln, body):
            num = _NUMBERED.match(text).groups()  # "3.1. readData"
        if num and last_number is None and ln.page == 0 and not _follows(None, num[0]):
            num = None  # "10 Kings College Road" in an author block: the first section number is 1, I or A
        if num and lettered and _LETTERED.match(text) and not _ROMAN.match(text) \
                and (ln.font == body_font or not _follows(last_number, num[0])):
            num = None
        nxt = lines[k + 1] if k + 1 < len(lines) else None
        styled = _is_heading(ln, prev, body, body_font, prev_k in heads, nxt, k in learned) \
            or (_BACK.match(text) is not None and k > len(lines) // 3)  # "References" however it is set
        plain = False
        if num and not styled and len(text.split()) <= 12 and (_follows(last_number, num[0]) or (
                ln.font != body_font and _skips_one(last_number, num[0]))) \
                and not text.endswith(".") and ln.size >= body - 1.3 \
                and ln.x1 - ln.x0 < (0.8 if ln.font == body_font else 0.95) * (ln.col_x1 - ln.col_x0) \
                and not (prev is not None and _same_column(prev, ln)
                         and prev.text.rstrip().endswith(":") and ln.top - prev.bottom < 0.5 * ln.size):
            styled = plain = True  # a numbered heading set in the body face (continues the numbering), not the
            # first item of a list under the line that announces it ("…assumptions:")
        elif num and not styled and k in in_sequence:
            styled = plain = True  # in capitals or italics, in a sequence of such lines
        starts = prev is None or not _same_column(prev, ln) or prev.text.rstrip().endswith((".", ":", "?", "!")) \
            or ln.top - prev.bottom > 0.5 * ln.size or prev_k in heads  # the line starts a paragraph
        dotted = _NUMBERED.match(text) if not styled and ln.size >= body - 1.3 else None  # "2.8. k-shell …"
        lead = _RUN_IN.match(dotted.group(2)) if dotted and "." in dotted.group(1) else None
        if lead and starts and (_follows(last_number, dotted.group(1))
                                or ((ln.lead or BOLD.search(ln.font)) and not _before(dotted.group(1), last_number))):
            heads[k], run_in[k], last_number = (_depth(dotted.group(1)), lead.group(1)), lead.group(2), dotted.group(1)
            prev, prev_k = ln, k  # "2.1. Closeness centrality. The farness of …": a run-in subsection heading
            continue
        if not styled and not num and ln.lead.endswith(".") and ln.lead[:1].isalpha() and text.startswith(ln.lead) \
                and not re.search(r"\b(figs?|eqs?|refs?|al|tabs?|nos?|vs|cf|e\.g|i\.e)\.$", ln.lead, re.I) \
                and not re.search(r"\d", ln.lead.split()[0]) \
                and 2 <= len(ln.lead.split()) <= 10 and ln.size >= body - 1.3 and starts:
            heads[k], run_in[k] = (None, ln.lead.rstrip(". ")), text[len(ln.lead):].strip()
            prev, prev_k = ln, k  # "Data analysis. All data analyses …": a bold run-in paragraph heading
            continue
        if styled:
            if num and (plain or num[0][0].isalpha() or _follows(last_number, num[0])
                        or not _before(num[0], last_number)):
                heads[k] = (_depth(num[0]) + (lettered and _LETTERED.match(text) is not None
                                              and not _ROMAN.match(text)), num[1])
                last_number = num[0]
            elif num:
                continue  # "1 Results" after "3.2": a list item or a table line
            else:
                heads[k] = (None, text)
            j = k  # a heading wrapped over two or three lines
            while j - k < 2 and j + 1 < len(lines) and j + 1 not in skip and _continues(lines[j], lines[j + 1]) \
                    and _style(lines[j]) == _style(lines[j + 1]) and not lines[j].text.strip().endswith((".", ":")) \
                    and (lines[j].x1 - lines[j].x0 >= 0.6 * (ln.col_x1 - ln.col_x0)
                         or (_centred(lines[j]) and _caps(text) and not _APPENDIX_LABEL.match(text))) \
                    and not _number(lines[j + 1].text, True) and len(lines[j + 1].text.split()) <= 8:
                j += 1
                heads[k] = (heads[k][0], f"{heads[k][1]} {lines[j].text.strip()}")
                skip.add(j)
            if _BACK.match(heads[k][1]):
                after_refs = True
        prev, prev_k = ln, k
    # "APPENDIX" on its own line straight above its title: one heading, "APPENDIX: MEAN ADMISSION DELAY"
    for k in [k for k in sorted(heads) if _APPENDIX_LABEL.match(heads[k][1]) and k not in run_in]:
        j = next((j for j in range(k + 1, len(lines)) if j not in skip), None)
        if j in heads and j not in run_in and not _APPENDIX.match(heads[j][1]):
            heads[k] = (heads[k][0], f"{heads[k][1]}: {heads.pop(j)[1]}")
            skip.add(j)
    # a bold run-in lead is a heading in a paper of unnumbered sections (Nature's Online Methods); where the
    # sections are numbered it labels a paragraph (LaTeX's \paragraph), which GROBID keeps in the text
    if sum(v[0] is not None for v in heads.values()) >= 2:
        for k in [k for k in run_in if heads[k][0] is None]:
            del heads[k], run_in[k]
        # there, an unnumbered line after the title page set larger than every numbered heading is text in a
        # figure ("Model Example" in a diagram) or a box's title, not a section
        largest = max(lines[k].size for k, v in heads.items() if v[0] is not None)
        heads = {k: v for k, v in heads.items() if v[0] is not None or lines[k].page == 0
                 or lines[k].size <= largest + 0.5 or _BACK.match(v[1]) or _APPENDIX.match(v[1])}
    if not any(_BACK.match(v[1]) for v in heads.values()) and (k := _unheaded_references(lines, skip, body)):
        heads[k] = (None, "References")
    # the title, authors, a journal's banner: headings on the first page above its first body line
    first_body = next((k for k, ln in enumerate(lines) if k not in skip and k not in heads and len(ln.text) >= 40
                       and ln.size == body and ln.font == body_font), len(lines))
    def front(k: int, v: tuple[int | None, str]) -> bool:
        return lines[k].page == 0 and v[0] is None and not _FRONT.match(v[1]) and not _FIRST.match(v[1])

    above = {(lines[k].font, lines[k].size) for k, v in heads.items() if k <= first_body and front(k, v)}
    # and a second author's block in the right column, read after the left column's text: set like the first
    # author's lines, and higher on the page than the first body line
    top_body = lines[first_body].top if first_body < len(lines) and lines[first_body].page == 0 else 0.0
    heads = {k: v for k, v in heads.items() if not front(k, v) or (k > first_body and not (
        lines[k].top < top_body and (lines[k].font, lines[k].size) in above))}
    if not heads:
        raise PdfError("no headed body text found")
    # the title: the largest heading style, on the first page only
    top = max(lines[k].size for k in heads)
    titles = [k for k in heads if lines[k].size == top and heads[k][0] is None]
    if titles and all(lines[k].page == 0 for k in titles) and len(titles) < len(heads):
        heads = {k: v for k, v in heads.items() if k not in titles}
    return heads, run_in


def _sections(lines: list[Line], heads: dict[int, tuple[int | None, str]], run_in: dict[int, str], skip: set[int],
              start: int, body: float, trusted: bool = False) -> list[dict]:
    """The section tree: each heading's body is the paragraphs between it and the next heading; the front and
    back matter (Abstract, References) are left out. `trusted` heads (the outline's) are sections even inside
    the reference list; a layout heading there must be an appendix's."""
    vocab = _vocabulary(lines)
    order = sorted(heads)
    # two faces of one size and weight ("Results" in a sans, "Physiological parameters" in a serif): the face of
    # a heading that comes straight under one in the other face (no body line between) is the lower level
    parents, children = set(), set()
    for a, b in zip(order, order[1:]):
        if heads[a][0] is None and heads[b][0] is None and _style(lines[a]) == _style(lines[b]) \
                and lines[a].font != lines[b].font and all(j in skip for j in range(a + 1, b)):
            parents.add((_style(lines[a]), lines[a].font))
            children.add((_style(lines[b]), lines[b].font))
    lower = children - parents

    def style(ln: Line) -> tuple[float, bool, bool, bool]:
        return *_style(ln), (_style(ln), ln.font) not in lower

    styles = sorted({style(lines[k]) for k in order if k >= start and not (k in run_in and heads[k][0] is None)},
                    reverse=True)
    # a style whose headings come straight under another's (no body line between), never the other way round,
    # ranks below it whatever its size (ASBMB: "EXPERIMENTAL PROCEDURES" in 7.5 pt capitals over "Sample
    # Collection" in 8.5 pt italics)
    stacked = {(style(lines[a]), style(lines[b])) for a, b in zip(order, order[1:]) if a >= start
               and heads[a][0] is None and heads[b][0] is None and a not in run_in and b not in run_in
               and style(lines[a]) != style(lines[b]) and all(j in skip for j in range(a + 1, b))}
    for upper, under in sorted(stacked):
        if (under, upper) not in stacked and upper in styles and under in styles \
                and styles.index(under) < styles.index(upper):
            styles.remove(under)
            styles.insert(styles.index(upper) + 1, under)
    numbered_level: dict[tuple[float, bool, bool, bool], int] = {}
    for k in order:
        if heads[k][0] is not None:
            numbered_level.setdefault(style(lines[k]), heads[k][0])
    rank = {s: numbered_level.get(s, n + 1) for n, s in enumerate(styles)}

    gaps = [b.top - a.bottom for a, b in zip(lines, lines[1:]) if _same_column(a, b) and 0 <= b.top - a.bottom < 20
            and a.size == body == b.size]
    gap = statistics.median(gaps) if gaps else 2.0
    roots: list[dict] = []
    stack: list[tuple[int, dict, bool]] = []
    cur: dict | None = None
    para: list[str] = []
    skipping = True
    in_refs = False
    refs_style: tuple[str, float] | None = None  # how "References" is set: a heading so set after it is a section
    prev = None
    last_head: int | None = None

    def flush() -> None:
        if cur is not None and para:
            cur["paragraphs"].append(_join(para, vocab))
        para.clear()

    for k, ln in enumerate(lines):
        if k < start or k in skip:
            continue
        text = ln.text.strip()
        if k in heads:
            level, title = heads[k]
            if in_refs and not (trusted or _APPENDIX.match(title) or (level and _LETTERED.match(text))
                                or (style_of(ln) == refs_style and ln.size > body + 0.4)):
                continue  # a reference entry that looks like a heading; one set as "References" is a section
            flush()
            if _BACK.match(title) or _FRONT.match(title):
                skipping, cur, in_refs = True, None, in_refs or bool(_BACK.match(title))
                refs_style = style_of(ln) if _BACK.match(title) else refs_style
                continue
            skipping = in_refs = False
            if level is None and k in run_in:  # a run-in paragraph heading: under the heading it follows
                level = next((lv for lv, _, runs in reversed(stack) if not runs), 0) + 1
            level = level or rank.get(style(ln), 1)
            if heads[k][0] is None and stack and cur is not None and not cur["paragraphs"] \
                    and not cur["subsections"] and stack[-1][0] == level and last_head is not None \
                    and heads[last_head][0] is None and style(lines[last_head]) == style(ln) \
                    and _same_column(lines[last_head], ln) and 0 <= ln.top - lines[last_head].bottom < 2 * ln.size:
                level += 1  # "Introduction" straight above "HCI and smartphones", set alike: a part and its first
                # section, not an empty section
            last_head = k
            cur = {"title": title, "paragraphs": [], "subsections": []}
            while stack and stack[-1][0] >= level:
                stack.pop()
            (stack[-1][1]["subsections"] if stack else roots).append(cur)
            stack.append((level, cur, k in run_in and heads[k][0] is None))
            if k in run_in:
                para.append(run_in[k])
            prev = ln
            continue
        if skipping or cur is None:
            continue
        if para and prev is not None and ((_same_column(ln, prev) and ln.top - prev.bottom > gap + 3)
                                          or (ln.x0 > ln.col_x0 + 6 and para[-1].endswith((".", ":", "?", "!")))):
            flush()
        para.append(text)
        prev = ln
    flush()
    sections = [s for s in roots if s["paragraphs"] or s["subsections"]]
    if not sections:
        raise PdfError("no headed body text found")
    return sections


def _outline_heads(entries: list[Entry], lines: list[Line], skip: set[int], body: float, body_font: str,
                   learned: set[int]) -> tuple[dict[int, tuple[int | None, str]], dict[int, str]] | None:
    """Headings from the PDF's outline, each at its line (`sources.pdf_outline`), or None when the outline is not
    the paper's sections: fewer than two entries, or under 60 % of them, found as lines of the text (an outline
    of pages, of another document, a title alone). A layout "References" line the outline leaves out still ends
    the body, and a layout heading numbered deeper than the outline goes (under the entry whose number it
    continues) is kept; nothing else of the layout rules is."""
    found = match_outline(entries, lines)
    if len(found) < 2 or len(found) < 0.6 * len(entries):
        return None
    heads: dict[int, tuple[int | None, str]] = {}
    run_in: dict[int, str] = {}
    first = found[0]
    page0 = [ln.size for ln in lines if ln.page == 0]
    if lines[first.index].page == 0 and lines[first.index].size >= max(page0) and lines[first.index].size > body + 2 \
            and len(found) > 2:
        found = found[1:]  # the paper's title, an entry beside the sections rather than over them
    for m in found:
        heads[m.index] = (m.level, m.title)
        skip.discard(m.index)
        skip.update(range(m.index + 1, m.index + m.span))
        if m.rest:
            run_in[m.index] = m.rest
    deepest = max(m.level for m in found)
    taken = {k for m in found for k in range(m.index, m.index + m.span)}
    try:
        layout, layout_run_in = _layout_heads(lines, set(skip), body, body_font, learned)
    except PdfError:
        layout, layout_run_in = {}, {}  # the type marks no heading at all: the outline's are all there are
    numbers = {m.index: num[0] for m in found if (num := _number(lines[m.index].text.strip(), True))}
    for k, (level, title) in layout.items():
        if k in taken or k < min(heads):
            continue
        if _BACK.match(title):
            heads[k] = (1, title)
            continue
        num = _number(lines[k].text.strip(), True) if level is not None and level > deepest else None
        above = max((j for j in numbers if j < k), default=None)
        if num and above is not None and num[0].startswith(numbers[above] + "."):
            heads[k] = (level, title)
            if k in layout_run_in:
                run_in[k] = layout_run_in[k]
    return heads, run_in


@dataclass(frozen=True)
class PdfText:
    """A paper PDF's sections and the route that found its headings: 'pdf-outline' (the PDF's bookmarks) or
    'pdf-layout' (the type and numbering rules)."""
    sections: list[dict]
    route: str


def read_pdf(data: bytes, outline: bool = True) -> PdfText:
    """PDF bytes -> body sections `{title, paragraphs, subsections}` and their route (see the module doc);
    PdfError when there is no headed body text. `outline=False` passes over the PDF's outline (the layout rules
    alone, as for a PDF without one)."""
    entries = sections_of(read_outline(data)) if outline else []
    lines = read_lines(data, keep=lambda ln: points_at(entries, ln))
    body, body_font = _body_style(lines)
    skip, learned = _not_body(lines, body, body_font)
    skip |= _contents(lines)
    from_outline = _outline_heads(entries, lines, skip, body, body_font, learned)
    if from_outline is not None:
        heads, run_in = from_outline
        try:
            return PdfText(_sections(lines, heads, run_in, skip, min(heads), body, trusted=True), "pdf-outline")
        except PdfError:
            pass  # the outline's sections hold no text: the layout rules decide
    heads, run_in = _layout_heads(lines, skip, body, body_font, learned)
    order = sorted(heads)
    start = next((k for k in order if _FRONT.match(heads[k][1]) or heads[k][0] is not None
                  or _FIRST.match(heads[k][1])), order[0])
    return PdfText(_sections(lines, heads, run_in, skip, start, body), "pdf-layout")


def parse_pdf(data: bytes) -> list[dict]:
    """PDF bytes -> body sections `{title, paragraphs, subsections}` (see the module doc); PdfError when none."""
    return read_pdf(data).sections
