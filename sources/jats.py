"""PubMed Central JATS / NLM full text (`.nxml`, Europe PMC `fullTextXML`) -> Pap2Pat `sections`.

The files name a DTD they do not ship, so they are parsed without loading it (numeric character
references only). `<body>` becomes the section tree `{title, paragraphs, subsections}` of the golden
`paper.json`: each `<sec>` a section, its `<p>` its paragraphs, nested `<sec>` its subsections; text
directly in `<body>` before the first `<sec>` goes into a leading section titled "Main text". Figures,
tables, graphics and supplementary material are left out. Formulas become LaTeX as the paper does:
an `<alternatives>` holding a `<tex-math>` gives that LaTeX (its `\\documentclass … \\begin{document}`
wrapper removed), else the MathML goes through pandoc (`sources.formulas`, one process per article);
a formula with neither, or one pandoc cannot read, becomes the `MATH` placeholder, `<chemistry>` without
MathML the `CHEMISTRY` placeholder: never silent deletion. Inline formulas are written `$…$`, display
formulas `$$…$$`, so a literal `$` in the text is written `\\$`; a one-row MathML table around a display
formula is unwrapped (`sources.formulas.unwrap_table`). A section left without text (a "Supporting
Information" holding only files) is dropped.
"""
from __future__ import annotations

import re
from collections import Counter

from lxml import etree

from common.sections import prune

from .formulas import CHEMISTRY, MATH, escape_dollars, mathml_to_latex_many, unwrap_table

SKIP = frozenset({"fig", "table-wrap", "graphic", "inline-graphic", "supplementary-material", "media",
                  "fn-group", "object-id", "label"})
_SPACE = re.compile(r"\s+")
_TEX_DOC = re.compile(r"\\begin\{document\}(.*)\\end\{document\}", re.S)
_TEX_DELIM = re.compile(r"^\s*(\$\$?|\\\[|\\\()(.*?)(\$\$?|\\\]|\\\))\s*$", re.S)


class JatsError(ValueError):
    """The bytes are not a JATS/NLM article with a body."""


def local_name(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def xml_root(data: bytes, name: str, error: type[ValueError]) -> etree._Element:
    """The root element, which must be `<name>`, parsed without DTD, network or entities; `error` otherwise."""
    parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False, huge_tree=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise error(f"not well-formed XML: {exc}") from exc
    if local_name(root) != name:
        raise error(f"root element is <{local_name(root)}>, not <{name}>")
    return root


def _parse(data: bytes) -> etree._Element:
    return xml_root(data, "article", JatsError)


def tex_of(tex: str) -> str:
    """The formula of a `<tex-math>`: the LaTeX document wrapper and `$$`/`\\[` delimiters removed."""
    m = _TEX_DOC.search(tex)
    body = (m.group(1) if m else tex).strip()
    d = _TEX_DELIM.match(body)
    return (d.group(2) if d else body).strip()


def _formulas(root: etree._Element) -> dict[etree._Element, str]:
    """Formula element (`inline-formula`, `disp-formula`, `chemistry`) -> its LaTeX or a placeholder."""
    out: dict[etree._Element, str] = {}
    pending: list[tuple[etree._Element, etree._Element]] = []
    for el in root.iter():
        name = local_name(el)
        if name not in ("inline-formula", "disp-formula", "chemistry"):
            continue
        if any(local_name(a) in ("inline-formula", "disp-formula", "chemistry") for a in el.iterancestors()):
            continue
        tex = next((t for t in el.iter() if local_name(t) == "tex-math"), None)
        math = next((m for m in el.iter() if local_name(m) == "math"), None)
        if tex is not None and (tex.text or "").strip():
            out[el] = tex_of(tex.text or "")
        elif math is not None:
            pending.append((el, math))
        else:
            out[el] = CHEMISTRY if name == "chemistry" else MATH
    latex = mathml_to_latex_many([etree.tostring(m, encoding="unicode", with_tail=False) for _, m in pending])
    for (el, _), tex_ in zip(pending, latex):
        out[el] = unwrap_table(tex_) if tex_ else MATH
    return out


def _text(el: etree._Element, formulas: dict[etree._Element, str]) -> str:
    """Text of a paragraph-like element: formulas as LaTeX, skipped elements' text left out, tails kept."""
    parts: list[str] = [escape_dollars(el.text or "")]
    for child in el:
        name = local_name(child)
        if child in formulas:
            parts.append(f"$${formulas[child]}$$" if name == "disp-formula" else f"${formulas[child]}$")
        elif name not in SKIP and isinstance(child.tag, str):
            parts.append(_text(child, formulas))
        parts.append(escape_dollars(child.tail or ""))
    return _SPACE.sub(" ", "".join(parts)).strip()


def _section(sec: etree._Element, formulas: dict[etree._Element, str]) -> dict:
    title_el = next((c for c in sec if local_name(c) == "title"), None)
    paras, subs = [], []
    for child in sec:
        name = local_name(child)
        if name == "sec":
            subs.append(_section(child, formulas))
        elif name in ("p", "disp-formula", "list", "disp-quote", "statement", "def-list"):
            text = _text(child, formulas) if name != "disp-formula" else f"$${formulas.get(child, MATH)}$$"
            if text:
                paras.append(text)
    return {"title": _text(title_el, formulas) if title_el is not None else "", "paragraphs": paras,
            "subsections": subs}


def parse_jats(data: bytes) -> list[dict]:
    """JATS bytes -> body sections (see the module doc); raises JatsError without an article body."""
    root = _parse(data)
    body = next((el for el in root.iter() if local_name(el) == "body"), None)
    if body is None:
        raise JatsError("article without <body> (abstract-only record)")
    formulas = _formulas(body)
    lead = _section(body, formulas)
    sections = prune(lead["subsections"])
    if lead["paragraphs"]:
        sections = [{"title": "Main text", "paragraphs": lead["paragraphs"], "subsections": []}, *sections]
    if not sections:
        raise JatsError("article body holds no text")
    return sections


def formula_counts(data: bytes) -> Counter:
    """How the article's formulas were written: tex (from <tex-math>), mathml (pandoc), placeholder."""
    root = _parse(data)
    out: Counter = Counter()
    for el, tex in _formulas(root).items():
        has_tex = any(local_name(t) == "tex-math" and (t.text or "").strip() for t in el.iter())
        out["placeholder" if tex in (MATH, CHEMISTRY) else "tex" if has_tex else "mathml"] += 1
    return out
