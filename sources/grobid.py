"""GROBID's full-text TEI (`/api/processFulltextDocument`) -> Pap2Pat `sections`, as the paper read its PDFs.

GROBID writes the body as a flat run of `<div>`s, each opened by a `<head n="2.1">`; the depth of `n` gives
the level ("2.1" -> 2), a head without a number is level 1, and the divs nest by level into
`{title, paragraphs, subsections}` like the JATS route. A `<div>` without a head continues the previous
section (GROBID starts one after a figure or a page break); text before the first head becomes "Main text".
`<p>` gives a paragraph with its citation and figure markers as text; `<formula>` a display formula `$$…$$`
(its MathML through pandoc where GROBID gave MathML, else its text, the label dropped). Footnotes
(`<note>`), figures and tables (`<figure>`) and the whole `<back>` (references, acknowledgement) are
not body text; annexes (`<div type="annex">`, appendices after the references) are kept as sections.
"""
from __future__ import annotations

import re

from lxml import etree

from common.sections import prune

from .formulas import MATH, escape_dollars, mathml_to_latex_many
from .jats import local_name, xml_root

TEI = "{http://www.tei-c.org/ns/1.0}"
FULLTEXT_PATH = "api/processFulltextDocument"
_SPACE = re.compile(r"\s+")
_SKIP = frozenset({"note", "figure", "label", "table", "graphic"})


class TeiError(ValueError):
    """The bytes are not GROBID TEI with a headed body."""


def _text(el: etree._Element) -> str:
    """An element's text (a literal `$` escaped: formulas are `$$…$$`), notes and figures left out, tails kept."""
    parts = [escape_dollars(el.text or "")]
    for child in el:
        if local_name(child) not in _SKIP and isinstance(child.tag, str):
            parts.append(_text(child))
        parts.append(escape_dollars(child.tail or ""))
    return _SPACE.sub(" ", "".join(parts)).strip()


def _level(head: etree._Element) -> int:
    n = (head.get("n") or "").strip().rstrip(".")
    return n.count(".") + 1 if re.fullmatch(r"[\dA-Z]+(\.\d+)*", n) else 1


def _formulas(root: etree._Element) -> dict[etree._Element, str]:
    """Each `<formula>` -> LaTeX (pandoc on its MathML) or its text; never empty."""
    out: dict[etree._Element, str] = {}
    pending = []
    for f in root.iter(f"{TEI}formula"):
        math = next((m for m in f.iter() if local_name(m) == "math"), None)
        if math is not None:
            pending.append((f, etree.tostring(math, encoding="unicode", with_tail=False)))
        else:
            out[f] = _text(f) or MATH
    for (f, _), tex in zip(pending, mathml_to_latex_many([m for _, m in pending])):
        out[f] = tex or MATH
    return out


def _divs(root: etree._Element) -> list[etree._Element]:
    text = root.find(f".//{TEI}text")
    if text is None:
        raise TeiError("TEI without <text>")
    body = text.find(f"{TEI}body")
    back = text.find(f"{TEI}back")
    divs = list(body.iterchildren(f"{TEI}div")) if body is not None else []
    if back is not None:
        for annex in back.iterchildren(f"{TEI}div"):
            if annex.get("type") == "annex":
                divs += list(annex.iterchildren(f"{TEI}div")) or [annex]
    return divs


def parse_tei(data: bytes) -> list[dict]:
    """GROBID TEI bytes -> body sections (see the module doc); TeiError when there is no body text."""
    root = xml_root(data, "TEI", TeiError)
    formulas = _formulas(root)
    roots: list[dict] = []
    stack: list[tuple[int, dict]] = []
    cur: dict | None = None
    for div in _divs(root):
        for child in div:
            name = local_name(child)
            if name == "head":
                level = _level(child)
                cur = {"title": _text(child), "paragraphs": [], "subsections": []}
                while stack and stack[-1][0] >= level:
                    stack.pop()
                (stack[-1][1]["subsections"] if stack else roots).append(cur)
                stack.append((level, cur))
                continue
            if name == "p":
                text = _text(child)
            elif name == "formula":
                text = f"$${formulas[child]}$$"
            else:
                continue
            if not text:
                continue
            if cur is None:
                cur = {"title": "Main text", "paragraphs": [], "subsections": []}
                roots.append(cur)
                stack.append((1, cur))
            cur["paragraphs"].append(text)
    sections = prune(roots)
    if not sections:
        raise TeiError("TEI body holds no text")
    return sections
