"""Faithful text from USPTO XML: inline markup flattened, entities mapped, non-text elements as visible placeholders.

Sub/superscripts stay as their text (`H<sub>2</sub>O` -> `H2O`); tables become `[TABLE]`, chemical structures
(`<chemistry>`, `<chemistry-cwu>`, `<CHEM-US>`) `[CHEMISTRY]`, formulas (`<maths>`, `<math-cwu>`, `<MATH-US>`) their
MathML as LaTeX (`$...$`, through `sources.formulas`) or `[MATH]` where there is no MathML (an image only) or pandoc
cannot read it; images vanish; unknown named entities stay visible as `&name;` rather than being replaced by U+FFFD
or dropped. So "a compound of formula <chemistry/> and" reads "a compound of formula [CHEMISTRY] and".

LaTeX comes from one pandoc batch per document: while `formula_batch()` is open, a formula is a marker
(`FORMULA_OPEN` index `FORMULA_CLOSE`) in the text, and `resolve_formulas` puts the LaTeX in at the end.
"""
from __future__ import annotations

import html.entities
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from lxml import etree

from sources.formulas import CHEMISTRY, MATH, mathml_to_latex_many

from .safexml import local_name

TABLE = "[TABLE]"
TABLE_TAGS = frozenset({"table", "tables", "table-cwu", "TABLE", "TABLE-US", "CWU-TABLE"})
CHEMISTRY_TAGS = frozenset({"chemistry", "us-chemistry", "chemistry-cwu", "CHEM-US", "CHEM-CWU"})
MATH_TAGS = frozenset({"maths", "us-math", "math-cwu", "MATH-US", "MATH-CWU", "math"})  # `math`: bare MathML
PLACEHOLDER_TAGS = TABLE_TAGS | CHEMISTRY_TAGS | MATH_TAGS  # each becomes one visible token, never nothing
FORMULA_OPEN, FORMULA_CLOSE = "\ue002", "\ue003"
_FORMULA = re.compile(f"{FORMULA_OPEN}(\\d+){FORMULA_CLOSE}")
_batch = threading.local()
DROP_TAGS = frozenset({"img", "image", "EMI", "mathematica-file", "CHEMCDX", "CHEMMOL", "CHEMMOL-US"})

# ISO 8879 Greek (isogrk1) names used by the 2001-2004 USPTO DTDs but absent from HTML5.
_ISO_GREEK = dict(zip(
    "agr bgr ggr dgr egr zgr eegr thgr igr kgr lgr mgr ngr xgr ogr pgr rgr sgr tgr ugr phgr khgr psgr ohgr".split(),
    "αβγδεζηθικλμνξοπρστυφχψω"))
_ISO_GREEK.update({k[0].upper() + k[1:]: v.upper() for k, v in _ISO_GREEK.items()})
_ISO_GREEK.update({"sfgr": "ς", "EEgr": "Η", "THgr": "Θ", "PHgr": "Φ", "KHgr": "Χ", "PSgr": "Ψ", "OHgr": "Ω"})
INLINE_PARENTS = frozenset({"dependent-claim-reference", "claim-ref", "CLREF"})
BASE_BREAKS = frozenset({"br", "li"})
# A run of blanks that is not already one space (a bare `[...]+` would rewrite every single space).
_WS = re.compile(r"[ \t\r\f\v\u00a0]{2,}|[\t\r\f\v\u00a0]")


def entity_text(name: str) -> str:
    """Character(s) for a named entity the DTD would have defined; unknown names stay visible."""
    value = html.entities.html5.get(name + ";")
    if value is None:
        value = _ISO_GREEK.get(name)
    return value if value is not None else f"&{name};"


def _mathml(el: etree._Element, name: str) -> etree._Element | None:
    if name == "math":
        return el
    return next(el.iter("{*}math"), None)


def placeholder(el: etree._Element, name: str) -> str:
    """The visible token of a non-text element: `[TABLE]`, `[CHEMISTRY]`, a formula's LaTeX or `[MATH]`."""
    if name in TABLE_TAGS:
        return TABLE
    if name in CHEMISTRY_TAGS:
        return CHEMISTRY
    mathml = _mathml(el, name)
    if mathml is None:
        return MATH
    source = etree.tostring(mathml, encoding=str, with_tail=False)
    pending = getattr(_batch, "formulas", None)
    if pending is None:  # no batch open: convert this one now
        return _latex_or_math(mathml_to_latex_many([source])[0])
    pending.append(source)
    return f"{FORMULA_OPEN}{len(pending) - 1}{FORMULA_CLOSE}"


def _latex_or_math(latex: str | None) -> str:
    return "$" + " ".join(latex.split()) + "$" if latex else MATH  # one line: the text keeps its line breaks


@contextmanager
def formula_batch(into: list[str] | None = None) -> Iterator[list[str]]:
    """Collect formulas (markers in the text) into `into` or a new list, for one pandoc batch later; the
    previous collector comes back on exit, so each caller's list only gets its own documents' formulas."""
    previous = getattr(_batch, "formulas", None)
    _batch.formulas = [] if into is None else into
    try:
        yield _batch.formulas
    finally:
        _batch.formulas = previous


def resolve_formulas(formulas: list[str], texts: Iterable[str]) -> dict[str, str]:
    """{text with markers: text with LaTeX} for the texts that hold markers (one pandoc call for all)."""
    latex = [_latex_or_math(x) for x in mathml_to_latex_many(formulas)] if formulas else []
    out = {}
    for text in texts:
        if FORMULA_OPEN in text:
            out[text] = _FORMULA.sub(lambda m: latex[int(m.group(1))] if int(m.group(1)) < len(latex)
                                     else m.group(0), text)
    return out


class Marks:
    """Which elements of some subtrees of a document hold markup that flattening must walk.

    Special markup: entities, tables, dropped and line-breaking elements (the base sets plus the `drop`
    and `breaks` the caller will flatten with). `holders` are the elements with special markup below
    them; below any other element there are only text, inline elements, comments and PIs, whose
    visible text is exactly libxml2's `tostring(method="text")`. Elements outside the scanned subtrees,
    or flattened with other tags, are simply walked.
    """

    def __init__(self, subtrees: Iterable[etree._Element | None], drop: Iterable[str] = (),
                 breaks: Iterable[str] = ()) -> None:
        self.tags = frozenset(drop) | frozenset(breaks)
        self._breaks = self.tags | BASE_BREAKS
        match = (etree.Entity, *(f"{{*}}{name}" for name in sorted(PLACEHOLDER_TAGS | DROP_TAGS | self._breaks)))
        self.roots = {top for top in subtrees if top is not None}
        self.holders: set[etree._Element] = set()
        for top in self.roots:
            for el in top.iter(*match):
                for up in el.iterancestors():
                    if up in self.holders:  # and so are all of its ancestors
                        break
                    self.holders.add(up)

    def applies(self, el: etree._Element, parent: etree._Element | None, drop: frozenset[str],
                breaks: frozenset[str]) -> bool:
        """True if `el` (child of `parent`) lies in a scanned subtree and the marks cover `drop`/`breaks`."""
        if not (drop <= self.tags and breaks <= self._breaks):
            return False
        if el in self.roots:
            return True
        while parent is not None:
            if parent in self.roots:
                return True
            parent = parent.getparent()
        return False


def _walk(el: etree._Element, out: list[str], drop: frozenset[str], breaks: frozenset[str], parent: str,
          holders: set[etree._Element] | None) -> None:
    tag = el.tag
    if not isinstance(tag, str):
        if isinstance(el, etree._Entity):
            out.append(entity_text(el.name))
        return  # a comment or processing instruction has no text of its own
    name = tag.rsplit("}", 1)[-1] if "}" in tag else tag
    if name in PLACEHOLDER_TAGS:
        out.append(f" {placeholder(el, name)} ")  # the token stands for the element: images, file names, CWU numbers
        return
    if name in drop or name in DROP_TAGS:
        return
    brk = name in breaks and parent not in INLINE_PARENTS
    if brk:
        out.append("\n")
    if holders is not None and el not in holders:  # nothing special below: libxml2 has the text
        out.append(el.text or "" if len(el) == 0 else
                   etree.tostring(el, method="text", encoding=str, with_tail=False))
    else:
        if el.text:
            out.append(el.text)
        for child in el:
            _walk(child, out, drop, breaks, name, holders)
            if child.tail:
                out.append(child.tail)
    if brk:
        out.append("\n")


_PLAIN = re.compile(r"^[^\s\u00a0]+(?: [^\s\u00a0]+)*$")
# Whitespace that str.strip/str.split know but _WS does not collapse (U+001C-1F, U+0085, U+2000-200A, ...).
_OTHER_SPACE = tuple(c for c in map(chr, range(0x3001)) if c.isspace() and c not in " \t\n\r\f\v\u00a0")
_ASCII_OTHER_SPACE = tuple(c for c in _OTHER_SPACE if c.isascii())
_ASCII_BLANKS = bytes(c for c in range(128) if chr(c).isspace() and c != 0x20)


def single_spaced(text: str) -> bool:
    """True if the only blanks in `text` are single spaces between words (a fast, exact test, else False)."""
    if text.isascii():
        raw = text.encode("ascii")
        return (len(raw.translate(None, _ASCII_BLANKS)) == len(raw) and b"  " not in raw
                and raw[:1] != b" " and raw[-1:] != b" ")
    # isprintable() is False for every blank but " " (and for a few other characters, which then
    # take the longer way through clean)
    return text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " "


def clean(text: str) -> str:
    """Collapse runs of blanks, strip each line, drop empty lines."""
    if single_spaced(text):  # the common case: one line, single spaces, nothing to collapse
        return text
    if text.endswith("\n") and _PLAIN.match(text):  # one plain line, then a newline (`$` matches before it)
        return text[:-1]
    text = text.replace("\r", "\n")
    if not any(map(text.__contains__, _ASCII_OTHER_SPACE if text.isascii() else _OTHER_SPACE)):
        # only the blanks _WS collapses: str.split does the same, in C (a line that is already
        # single-spaced is kept as it is: checking it costs less than splitting it)
        return "\n".join([line if single_spaced(line) else " ".join(line.split())
                           for line in text.split("\n") if line and not line.isspace()])
    # _WS never matches a newline, so one substitution over all lines is the same as one per line
    return "\n".join([stripped for line in _WS.sub(" ", text).split("\n") if (stripped := line.strip())])


def flatten(el: etree._Element | None, drop: Iterable[str] = (), breaks: Iterable[str] = (),
            marks: Marks | None = None) -> str:
    """Visible text of an element in document order; `breaks` tags start new lines (list items, claim parts).

    `marks` (built once per document with the same or wider `drop`/`breaks`) lets unmarked subtrees
    be serialised in one libxml2 call instead of walked; the text is the same either way.
    """
    if el is None:
        return ""
    tag = el.tag
    if not isinstance(tag, str):  # entity, comment or PI
        out: list[str] = []
        _walk(el, out, frozenset(drop), frozenset(breaks), "", None)
        return clean("".join(out))
    if len(el) == 0:  # leaf fast path (ids, dates, codes): same result as the walk
        name = tag.rsplit("}", 1)[-1] if "}" in tag else tag
        if name in PLACEHOLDER_TAGS:
            return placeholder(el, name)
        if name in DROP_TAGS or name in drop:
            return ""
        text = el.text
        return clean(text) if text else ""
    drop, breaks = frozenset(drop), BASE_BREAKS.union(breaks) if breaks else BASE_BREAKS
    parent = el.getparent()
    if marks is not None and not marks.applies(el, parent, drop, breaks):
        marks = None
    out = []
    _walk(el, out, drop, breaks, "" if parent is None else local_name(parent.tag),
          None if marks is None else marks.holders)
    return clean("".join(out))


_LEAF_SPECIAL = PLACEHOLDER_TAGS | DROP_TAGS
_TEXT = etree.tostring


def text_or_none(el: etree._Element) -> str | None:
    """`flatten(el) or None`, with the common case (a leaf holding a code, date or name) inline."""
    if len(el) == 0:
        tag = el.tag
        if isinstance(tag, str) and "}" not in tag and tag not in _LEAF_SPECIAL:
            text = el.text
            if not text:
                return None
            return text if text.isalnum() else clean(text) or None
    return flatten(el) or None


def flatten_or_none(el: etree._Element | None, drop: Iterable[str] = ()) -> str | None:
    text = flatten(el, drop)
    return text or None


def joined(elements: Iterable[etree._Element], drop: Iterable[str] = (), sep: str = "\n",
           marks: Marks | None = None) -> str | None:
    """Non-empty flattened texts joined by `sep` (abstract paragraphs), or None."""
    parts = [t for t in (flatten(e, drop, marks=marks) for e in elements) if t]
    return sep.join(parts) if parts else None


def paragraphs(container: etree._Element | None, para_tags: Iterable[str], heading_tags: Iterable[str],
               drop: Iterable[str] = (), labels: dict[str, str] | None = None,
               marks: Marks | None = None) -> list[tuple[str | None, str | None]]:
    """(heading, text) per paragraph in document order; the heading is the nearest one above.

    Containers (`description-of-drawings`, `section`, `BRFSUM`, ...) are walked into; `labels` name
    containers that have no heading of their own (2001-2004 section elements). A table standing
    between paragraphs becomes a `[TABLE]` paragraph (a formula or a chemical structure: its token). A
    heading element with no paragraph of its own (a parent heading such as EXAMPLES right above
    `Example 1`, or one at the very end) is kept as a row `(heading, None)` in its place, so the outline
    survives.
    """
    paras, heads, dropped = frozenset(para_tags), frozenset(heading_tags), frozenset(drop)
    out: list[tuple[str | None, str | None]] = []
    heading: str | None = None
    pending = False  # `heading` came from a heading element and no paragraph has followed it yet
    raw: list[int] = []  # rows of `out` whose text is not cleaned yet
    # With marks covering the container, a paragraph with nothing special below it is one libxml2 call
    # (what `flatten` would do, without its per-call checks: the hot loop of an application's parse).
    holders = (marks.holders if marks is not None and container is not None
               and marks.applies(container, container.getparent(), dropped, BASE_BREAKS) else None)
    # paragraph tags whose text, when nothing special lies below, is libxml2's text serialisation
    plain = frozenset() if holders is None else paras - DROP_TAGS - dropped - heads - PLACEHOLDER_TAGS - BASE_BREAKS

    def visit(el: etree._Element) -> None:
        nonlocal heading, pending
        for child in el:
            name = child.tag
            if name in plain and child not in holders:  # the common paragraph; cleaned below, all at once
                text = child.text if len(child) == 0 else _TEXT(child, method="text", encoding=str,
                                                                with_tail=False)
                if text and not text.isspace():  # clean(text) is empty exactly when this fails
                    raw.append(len(out))
                    out.append((heading, text))
                    pending = False
                continue
            if not isinstance(name, str):  # comment, PI or entity
                continue
            if "}" in name:
                name = name.rsplit("}", 1)[-1]
            if name in DROP_TAGS or name in dropped:
                continue
            if name in heads:
                title = flatten(child, dropped, marks=marks)
                if title:
                    if pending:
                        out.append((heading, None))
                    heading, pending = title, True
            elif name in PLACEHOLDER_TAGS:
                out.append((heading, placeholder(child, name)))
                pending = False
            elif name in paras or (child.text or "").strip():
                text = flatten(child, dropped, marks=marks)
                if text:
                    out.append((heading, text))
                    pending = False
            else:
                if labels and name in labels:
                    if pending:
                        out.append((heading, None))
                    heading, pending = labels[name], False
                visit(child)

    if container is not None:
        visit(container)
        if pending:
            out.append((heading, None))
    if raw and not _all_single_spaced([out[i][1] for i in raw]):
        for i in raw:
            out[i] = (out[i][0], clean(out[i][1]))
    return out


def _all_single_spaced(texts: list[str]) -> bool:
    """True if every text passes `single_spaced` (one check over all of them; False may be conservative)."""
    joined = "|".join(texts)  # a blank next to a separator is a text's leading or trailing blank
    return single_spaced(joined) and " |" not in joined and "| " not in joined
