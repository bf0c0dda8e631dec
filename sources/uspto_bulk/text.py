"""Faithful text from USPTO XML: inline markup flattened, entities mapped, tables as a visible placeholder.

Sub/superscripts and chemistry stay as their text (`H<sub>2</sub>O` -> `H2O`); tables become
`[TABLE]`; images vanish; unknown named entities stay visible as `&name;` rather than being
replaced by U+FFFD or dropped.
"""
from __future__ import annotations

import html.entities
import re
from collections.abc import Iterable

from lxml import etree

from .safexml import local_name

TABLE = "[TABLE]"
TABLE_TAGS = frozenset({"table", "tables", "table-cwu", "TABLE", "TABLE-US", "CWU-TABLE"})
DROP_TAGS = frozenset({"img", "image", "EMI", "mathematica-file", "CHEMCDX", "CHEMMOL", "CHEMMOL-US"})

# ISO 8879 Greek (isogrk1) names used by the 2001-2004 USPTO DTDs but absent from HTML5.
_ISO_GREEK = dict(zip(
    "agr bgr ggr dgr egr zgr eegr thgr igr kgr lgr mgr ngr xgr ogr pgr rgr sgr tgr ugr phgr khgr psgr ohgr".split(),
    "αβγδεζηθικλμνξοπρστυφχψω"))
_ISO_GREEK.update({k[0].upper() + k[1:]: v.upper() for k, v in _ISO_GREEK.items()})
_ISO_GREEK.update({"sfgr": "ς", "EEgr": "Η", "THgr": "Θ", "PHgr": "Φ", "KHgr": "Χ", "PSgr": "Ψ", "OHgr": "Ω"})
INLINE_PARENTS = frozenset({"dependent-claim-reference", "claim-ref", "CLREF"})
_WS = re.compile(r"[ \t\r\f\v\u00a0]+")


def entity_text(name: str) -> str:
    """Character(s) for a named entity the DTD would have defined; unknown names stay visible."""
    value = html.entities.html5.get(name + ";")
    if value is None:
        value = _ISO_GREEK.get(name)
    return value if value is not None else f"&{name};"


def _walk(el: etree._Element, out: list[str], drop: frozenset[str], breaks: frozenset[str]) -> None:
    if isinstance(el, etree._Entity):
        out.append(entity_text(el.name))
        return
    name = local_name(el.tag)
    if not name:  # comment or processing instruction: no text of its own
        return
    if name in TABLE_TAGS:
        out.append(f" {TABLE} ")
        return
    if name in drop or name in DROP_TAGS:
        return
    parent = el.getparent()
    brk = name in breaks and (parent is None or local_name(parent.tag) not in INLINE_PARENTS)
    if brk:
        out.append("\n")
    if el.text and not isinstance(el, etree._Entity):
        out.append(el.text)
    for child in el:
        _walk(child, out, drop, breaks)
        if child.tail:
            out.append(child.tail)
    if brk:
        out.append("\n")


_PLAIN = re.compile(r"^[^\s\u00a0]+(?: [^\s\u00a0]+)*$")


def clean(text: str) -> str:
    """Collapse runs of blanks, strip each line, drop empty lines."""
    if _PLAIN.match(text):  # the common case: one line, single spaces, nothing to collapse
        return text
    lines = (_WS.sub(" ", line).strip() for line in text.replace("\r", "\n").split("\n"))
    return "\n".join(line for line in lines if line)


def flatten(el: etree._Element | None, drop: Iterable[str] = (), breaks: Iterable[str] = ()) -> str:
    """Visible text of an element in document order; `breaks` tags start new lines (list items, claim parts)."""
    if el is None:
        return ""
    if len(el) == 0 and not isinstance(el, etree._Entity) and isinstance(el.tag, str):
        name = local_name(el.tag)  # leaf fast path (ids, dates, codes): same result as the walk
        if name in TABLE_TAGS:
            return TABLE
        return "" if name in DROP_TAGS or name in drop else clean(el.text or "")
    out: list[str] = []
    _walk(el, out, frozenset(drop), frozenset(breaks) | {"br", "li"})
    return clean("".join(out))


def flatten_or_none(el: etree._Element | None, drop: Iterable[str] = ()) -> str | None:
    text = flatten(el, drop)
    return text or None


def joined(elements: Iterable[etree._Element], drop: Iterable[str] = (), sep: str = "\n") -> str | None:
    """Non-empty flattened texts joined by `sep` (abstract paragraphs), or None."""
    parts = [t for t in (flatten(e, drop) for e in elements) if t]
    return sep.join(parts) if parts else None


def paragraphs(container: etree._Element | None, para_tags: Iterable[str], heading_tags: Iterable[str],
               drop: Iterable[str] = (), labels: dict[str, str] | None = None) -> list[tuple[str | None, str]]:
    """(heading, text) per paragraph in document order; the heading is the nearest one above.

    Containers (`description-of-drawings`, `section`, `BRFSUM`, ...) are walked into; `labels` name
    containers that have no heading of their own (2001-2004 section elements). A table standing
    between paragraphs becomes a `[TABLE]` paragraph.
    """
    paras, heads, dropped = frozenset(para_tags), frozenset(heading_tags), frozenset(drop)
    out: list[tuple[str | None, str]] = []
    heading: str | None = None

    def visit(el: etree._Element) -> None:
        nonlocal heading
        for child in el:
            name = local_name(child.tag)
            if not name or name in DROP_TAGS or name in dropped:
                continue
            if name in heads:
                heading = flatten(child, dropped) or heading
            elif name in TABLE_TAGS:
                out.append((heading, TABLE))
            elif name in paras or (child.text or "").strip():
                text = flatten(child, dropped)
                if text:
                    out.append((heading, text))
            else:
                if labels and name in labels:
                    heading = labels[name]
                visit(child)

    if container is not None:
        visit(container)
    return out
