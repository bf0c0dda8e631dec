"""Full texts of the world's open-access papers, in the two forms Pap2Pat reads: PMC JATS and a PDF.

Which form a work has is fixed by its id (deterministic): about half of the open works are in PubMed
Central (a PMCID in SemOpenAlex, the article as JATS 1.2 `.nxml` the way Europe PMC's `fullTextXML` serves
it: DOCTYPE without the DTD, MathML with a `<tex-math>` alternative, a MathML-only display formula, a
`<chemistry>` image), about a third only have the open-access PDF (two-column-free, numbered headings in
larger bold type, as journals set them), and the rest neither: their PDF link answers 404 and they stay
abstract-only. Papers of an invention speak about its words (`text_long.paper_body`).
"""
from __future__ import annotations

import hashlib
import io
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from ..text_long import paper_body
from . import register

if TYPE_CHECKING:
    from ..world import World

OPEN = {"cc-by", "cc0", "public-domain", "cc-by-nc"}
EPOCH = date(1970, 1, 1)
LICENCE_URL = {"cc-by": "http://creativecommons.org/licenses/by/4.0/",
               "cc0": "http://creativecommons.org/publicdomain/zero/1.0/",
               "public-domain": "http://creativecommons.org/publicdomain/mark/1.0/",
               "cc-by-nc": "http://creativecommons.org/licenses/by-nc/4.0/"}
MML = 'xmlns:mml="http://www.w3.org/1998/Math/MathML"'
FORMULA_MML = ("<mml:math id=\"M{n}\"><mml:mi>Q</mml:mi><mml:mo>=</mml:mo><mml:mi>k</mml:mi>"
               "<mml:msup><mml:mi>T</mml:mi><mml:mn>2</mml:mn></mml:msup></mml:math>")
FORMULA_TEX = "\\documentclass[12pt]{minimal}\\begin{document}$$Q = k T^{2}$$\\end{document}"


def fulltext_form(work_id: str, licence: str | None) -> str:
    """'jats', 'pdf' or 'none' for a work (by a hash of its id; only open licences have a full text)."""
    if licence not in OPEN:
        return "none"
    u = int(hashlib.sha256(work_id.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "jats" if u < 0.5 else "pdf" if u < 0.85 else "none"


def pmcid(work_id: str) -> str:
    return f"PMC{int(work_id.lstrip('W')) % 9_000_000 + 1_000_000}"


def body_of(world: World, paper: dict) -> list[dict]:
    inv = paper.get("inv")
    words = world.text(inv).words if inv is not None else None
    return paper_body(int(paper.get("text_seed") or 0), words, int(paper.get("cls") or 0))


def _sec(sec: dict, n: str, with_math: bool) -> str:
    paras = [f"<p>{escape(p)}</p>" for p in sec["paragraphs"]]
    if with_math and sec["title"] == "Results":
        paras.append("<p>The throughput follows <inline-formula><alternatives><tex-math id=\"M1\"><![CDATA["
                     f"{FORMULA_TEX}]]></tex-math>{FORMULA_MML.format(n=1)}<inline-graphic xlink:href=\"eq1.gif\"/>"
                     "</alternatives></inline-formula> over the tested range.</p>")
        paras.append(f"<disp-formula id=\"Equ1\">{FORMULA_MML.format(n=2)}</disp-formula>")
        paras.append("<p>The coating was prepared from <chemistry><graphic xlink:href=\"chem1.gif\"/></chemistry> "
                     "as supplied.</p>")
    subs = "".join(_sec(s, f"{n}.{k}", False) for k, s in enumerate(sec["subsections"], 1))
    return f"<sec id=\"Sec{n.replace('.', '_')}\"><title>{escape(sec['title'])}</title>{''.join(paras)}{subs}</sec>"


def jats(world: World, paper: dict) -> bytes:
    """The article as PMC OA JATS 1.2 (`fullTextXML`): no XML declaration, DTD named but not included."""
    day = EPOCH + timedelta(days=int(paper["pub_date"]))
    names = "".join(
        f"<contrib contrib-type=\"author\"><name><surname>{escape(a['name'].rsplit(' ', 1)[-1])}</surname>"
        f"<given-names>{escape(a['name'].rsplit(' ', 1)[0])}</given-names></name></contrib>" for a in paper["authors"])
    body = "".join(_sec(s, str(k), True) for k, s in enumerate(body_of(world, paper), 1))
    lic = paper["license"]
    doc = ('<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD with MathML3 '
           'v1.2 20190208//EN" "JATS-archive-oasis-article1-mathml3.dtd">\n'
           f'<article xmlns:xlink="http://www.w3.org/1999/xlink" {MML} article-type="research-article">'
           f'<front><journal-meta><journal-title-group><journal-title>Journal of Applied Research</journal-title>'
           f'</journal-title-group></journal-meta><article-meta>'
           f'<article-id pub-id-type="pmc">{pmcid(paper["work_id"])[3:]}</article-id>'
           f'<article-id pub-id-type="doi">{escape(paper["doi"])}</article-id>'
           f'<title-group><article-title>{escape(paper["title"])}</article-title></title-group>'
           f'<contrib-group>{names}</contrib-group>'
           f'<pub-date pub-type="epub"><day>{day.day}</day><month>{day.month}</month><year>{day.year}</year></pub-date>'
           f'<permissions><license license-type="open-access" xlink:href="{LICENCE_URL[lic]}"><license-p>This article '
           f'is distributed under an open licence.</license-p></license></permissions>'
           f'<abstract><p>{escape(paper.get("abstract") or "")}</p></abstract></article-meta></front>'
           f'<body>{body}</body><back><ack><p>We thank the workshop.</p></ack><ref-list><ref id="CR1">'
           f'<mixed-citation>A. Author, Earlier work, 2001.</mixed-citation></ref></ref-list></back></article>')
    return doc.encode("utf-8")


def pdf(world: World, paper: dict) -> bytes:
    """A journal-style PDF: title 16 pt bold, authors, 'Abstract', numbered headings 12/11 pt bold, body 10 pt with
    indented paragraphs (a paragraph may run across a page break)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    W, H, M = 595.0, 842.0, 60.0
    blocks: list[tuple[str, str, float]] = [("Times-Bold", paper["title"], 16),
                                            ("Times-Roman", ", ".join(a["name"] for a in paper["authors"]), 11),
                                            ("Times-Bold", "Abstract", 12),
                                            ("Times-Roman", paper.get("abstract") or "", 10)]
    for k, sec in enumerate(body_of(world, paper), 1):
        blocks.append(("Times-Bold", f"{k} {sec['title']}", 12))
        blocks += [("Times-Roman", p, 10) for p in sec["paragraphs"]]
        for j, sub in enumerate(sec["subsections"], 1):
            blocks.append(("Times-Bold", f"{k}.{j} {sub['title']}", 11))
            blocks += [("Times-Roman", p, 10) for p in sub["paragraphs"]]
    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(W, H), invariant=1, pageCompression=1)
    y = H - M
    for font, text, size in blocks:
        indent = 12.0 if font == "Times-Roman" and size == 10 else 0.0  # a body paragraph's first line is indented
        lines, cur = [], ""
        for word in text.split():
            trial = f"{cur} {word}".strip()
            if stringWidth(trial, font, size) <= W - 2 * M - (indent if not lines else 0.0):
                cur = trial
            else:
                lines.append(cur)
                cur = word
        lines.append(cur)
        y -= size * 0.8
        for k, line in enumerate(lines):
            if y < M:
                c.showPage()
                y = H - M
            c.setFont(font, size)
            c.drawString(M + (indent if k == 0 else 0.0), y, line)
            y -= size * 1.25
    c.showPage()
    c.save()
    return buf.getvalue()


@register("papers")
def render_fulltexts(world: World, out: Path) -> list[Path]:
    """`<out>/papers/jats/PMC….nxml` and `<out>/papers/pdf/W….pdf` for the works that have them."""
    written = []
    for paper in sorted(world.papers, key=lambda p: p["work_id"]):
        form = fulltext_form(paper["work_id"], paper["license"])
        if form == "jats":
            path = out / "papers" / "jats" / f"{pmcid(paper['work_id'])}.nxml"
            data = jats(world, paper)
        elif form == "pdf":
            path = out / "papers" / "pdf" / f"{paper['work_id']}.pdf"
            data = pdf(world, paper)
        else:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written
