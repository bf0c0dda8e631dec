"""Heading styles a paper's own pages show, for type the layout rules do not know.

A journal may set its headings in a style no fixed rule names: capitals smaller than the body (ASBMB's
"EXPERIMENTAL PROCEDURES" at 7.5 pt under a 9 pt body), italics at body size in a coded font (Oxford's
subsections), a sans a size below a serif body (a Korean journal's "Study subjects"). What marks them is
how they are used: a font at a size (a style) other than the body's whose lines stand apart (a gap above
wider than the body's line spacing, or straight under another heading; below, a gap or a line ending short
of the column's end), are short titles (a capital first, no sentence end, at most three lines), and are each
followed by a paragraph of running text in another style. The style is a heading style when two or more
distinct lines show this and its other lines are few (a style also used for table cells, figure labels or
paragraphs is not one); type more than 2 pt below the body's is a table's or a figure's, never one. Running
heads (the same text on two pages) are no instances.
"""
from __future__ import annotations

import re
import statistics
from collections import Counter

from .pdf_lines import DIGITS, Line, same_column as _same_column

Style = tuple[str, float]


def style_of(ln: Line) -> Style:
    return ln.font, ln.size


def _titlelike(text: str) -> bool:
    words = text.split()
    return 1 <= len(words) <= 14 and (text[0].isupper() or text[0].isdigit()) \
        and re.search(r"[A-Za-z]{3}", text) is not None and not text.endswith((".", ",", ";")) \
        and not re.search(r"[a-z]{2}[.?!] [A-Z]", text)


def _prose(ln: Line) -> bool:
    """A line of running text: five words or more, most of them words (not a table row's names and numbers)."""
    words = ln.text.split()
    return ln.cells < 3 and len(words) >= 5 and sum(w.strip(".,;:()").isalpha() for w in words) >= 0.6 * len(words)


def line_gap(lines: list[Line], body: float, body_font: str) -> float:
    """The body's usual space between two lines of a paragraph (bottom of one to top of the next)."""
    gaps = [b.top - a.bottom for a, b in zip(lines, lines[1:]) if _same_column(a, b) and a.size == body == b.size
            and a.font == body_font == b.font and 0 <= b.top - a.bottom < 20]
    return statistics.median(gaps) if gaps else 2.0


def _block_end(lines: list[Line], k: int, skip: set[int]) -> int:
    """Index of the last line of the title starting at `k`: up to two more lines of its style straight under it."""
    j = k
    while j + 1 < len(lines) and j - k < 2 and j + 1 not in skip and style_of(lines[j + 1]) == style_of(lines[k]) \
            and _same_column(lines[j], lines[j + 1]) and 0 <= lines[j + 1].top - lines[j].bottom < 0.6 * lines[k].size \
            and lines[j].x1 - lines[j].x0 >= 0.6 * (lines[j].col_x1 - lines[j].col_x0):  # wrapped, not a list
        j += 1
    return j


def heading_styles(lines: list[Line], skip: set[int], body: float, body_font: str) -> tuple[set[Style], set[int]]:
    """The styles this paper sets its headings in, learned from how their lines stand (see the module doc), and
    the lines that stand so in one of them (each title's first); `skip` holds table rows and captions. A line of
    such a style that does not stand apart (a list's item under its "…:" line) is no heading by it."""
    lead = line_gap(lines, body, body_font)
    pages: dict[str, set[int]] = {}
    for ln in lines:
        pages.setdefault(DIGITS.sub("", ln.text.strip()), set()).add(ln.page)
    instances: dict[Style, set[str]] = {}
    first: dict[Style, set[int]] = {}
    covered: Counter = Counter()  # style -> lines inside its instances' titles
    taken: set[int] = set()
    k = 0
    while k < len(lines):
        ln, s = lines[k], style_of(lines[k])
        j = _block_end(lines, k, skip)
        if k in skip or s == (body_font, body) or ln.size < body - 2 or ln.lead \
                or not _titlelike(ln.text.strip()) \
                or len(pages[DIGITS.sub("", ln.text.strip())]) > 1 or j + 2 >= len(lines):
            k += 1
            continue
        prev, nk = (lines[k - 1] if k else None), j + 1  # nk: the first line under the title
        nxt = lines[nk]
        if _same_column(lines[j], nxt) and style_of(nxt) not in (s, (body_font, body)) and not nxt.lead \
                and _titlelike(nxt.text.strip()) and nxt.x1 - nxt.x0 < 0.7 * (nxt.col_x1 - nxt.col_x0):
            # straight above another heading ("EXPERIMENTAL PROCEDURES" over "Sample Collection"): its paragraph
            # comes under that one
            nk = _block_end(lines, j + 1, skip) + 1
            if nk + 1 >= len(lines):
                k += 1
                continue
        nxt, after = lines[nk], lines[nk + 1]
        stacked = prev is not None and _same_column(prev, ln) and style_of(prev) not in (s, (body_font, body)) \
            and not prev.text.rstrip().endswith((".", ",", ";")) \
            and prev.x1 - prev.x0 < 0.7 * (prev.col_x1 - prev.col_x0)  # straight under another heading
        above = prev is None or not _same_column(prev, ln) or ln.top - prev.bottom >= lead + 0.3 * ln.size or stacked
        # below: a gap, or a title that ends short of the column's end (a paragraph's first line in another face
        # runs to it), or one straight under another heading
        below = not _same_column(lines[j], nxt) or nxt.top - lines[j].bottom >= lead + 0.1 * ln.size \
            or nk > j + 1 or stacked or lines[j].x1 - lines[j].x0 < 0.85 * (ln.col_x1 - ln.col_x0)
        # (its first line may open in another face: a run-in head, "General Work Flow of the Analysis—All …")
        paragraph = style_of(nxt) != s and after.size == nxt.size and _same_column(nxt, after) \
            and _prose(nxt) and _prose(after) and not {nk, nk + 1} & skip \
            and max(nxt.x1 - nxt.x0, after.x1 - after.x0) >= 0.85 * (nxt.col_x1 - nxt.col_x0)
        if above and below and paragraph:
            instances.setdefault(s, set()).add(" ".join(lines[n].text for n in range(k, j + 1)))
            covered[s] += j - k + 1
            first.setdefault(s, set()).add(k)
            taken.update(range(k, j + 1))
            k = j + 1
            continue
        k += 1
    # the style's other lines: titles whose place did not show it (a column misread) are few, and lines of
    # running text (no title's shape) fewer still
    others, text = Counter(), Counter()
    for k, ln in enumerate(lines):
        if k not in taken:
            others[style_of(ln)] += 1
            text[style_of(ln)] += not _titlelike(ln.text.strip())
    styles = {s for s, titles in instances.items() if len(titles) >= 2 and others[s] <= covered[s]
              and text[s] <= 0.25 * covered[s]}
    return styles, {k for s in styles for k in first[s]}
