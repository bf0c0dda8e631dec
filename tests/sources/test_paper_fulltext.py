"""Paper full texts: real PMC JATS and real paper PDFs through the parsers, and the real client against the
replica serving the generated world's JATS (Europe PMC `fullTextXML`) and open-access PDFs."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from patentfactory.sim.generator import WorldSpec, build_world
from patentfactory.sim.generator.renderers import render
from patentfactory.sim.generator.renderers.papers import body_of, fulltext_form, jats, pdf, pmcid
from patentfactory.sim.upstream import Replica
from sources.formulas import CHEMISTRY, MATH
from sources.jats import JatsError, formula_counts, parse_jats, tex_of
from sources.paper_fulltext import FullTextClient
from sources.paper_pdf import PdfError, parse_pdf
from transforms.outlines import iter_sections


def _titles(sections: list[dict], depth: int = 1) -> list[tuple[int, str]]:
    return [(d, s["title"]) for d, s in iter_sections(sections, depth)]


def _paragraphs(sections: list[dict]) -> list[str]:
    return [p for _, s in iter_sections(sections) for p in s["paragraphs"]]


JATS_TOP = {  # top-level sections as the README of real-samples/jats lists them
    "pone.0000217.nxml": ["Introduction", "Model and Results", "Discussion", "Methods"],
    "pntd.0002065.nxml": ["Introduction", "Materials and Methods", "Results", "Discussion"],
    "1471-2180-11-174.nxml": ["Background", "Results", "Discussion", "Conclusions", "Appendix A", "Appendix B",
                              "Methods", "Competing interests", "Authors' contributions"],  # + files only: dropped
    "1472-6831-8-11.nxml": ["Background", "Methods", "Results", "Discussion", "Conclusion", "Authors' contributions",
                            "Pre-publication history"],
    "PMC7417471.nxml": ["Introduction", "Graphene-based Nanomaterials (GNMs)", "Electrospun nanofibers containing GNMs",
                        "Properties of electrospun GNMs nanocomposites",
                        "Electrochemical biosensors based electrospun GNMs nanocomposites", "Future outlook"],
}


@pytest.mark.parametrize("name", sorted(JATS_TOP))
def test_real_jats_articles_become_section_trees(real_samples: Path, name: str):
    data = (real_samples / "jats" / name).read_bytes()
    sections = parse_jats(data)
    assert [s["title"] for s in sections] == JATS_TOP[name]
    paras = _paragraphs(sections)
    assert len(paras) >= 10 and all(p and p == p.strip() and "  " not in p for p in paras)
    assert not any("<" in p and "</" in p for p in paras)  # no markup left


def test_real_jats_formulas_tex_alternative_and_placeholders(real_samples: Path):
    mathml = (real_samples / "jats" / "PMC7417471.nxml").read_bytes()
    assert formula_counts(mathml) == {"tex": 4}  # one alternative taken, never all three
    text = " ".join(_paragraphs(parse_jats(mathml)))
    inline = re.findall(r"\$([^$]+)\$", text)
    # the fourth sits in a figure caption, and figures are left out
    assert len(inline) == 3 and not any("documentclass" in f or "begin{document}" in f for f in inline)
    assert "{\\text{T}}_{\\text{g}}" in inline
    images = (real_samples / "jats" / "pone.0000217.nxml").read_bytes()
    assert formula_counts(images) == {"placeholder": 24}  # display formulas that are only images
    assert sum(p.count(f"$${MATH}$$") for p in _paragraphs(parse_jats(images))) == 24
    assert tex_of("\\documentclass[12pt]{minimal}\\begin{document}$$a_{1}$$\\end{document}") == "a_{1}"


def test_real_jats_empty_sections_dropped_and_literal_dollar_escaped(real_samples: Path):
    """A "Supplementary Material" section holding only `<supplementary-material>` files is no section (BMC's;
    Springer's "Supplementary information" in PMC7417471, see JATS_TOP). A `$` in the text is escaped, as inline
    formulas are written `$…$` (the formula itself is not). A one-row MathML table around a display formula is
    unwrapped."""
    data = (real_samples / "jats" / "1471-2180-11-174.nxml").read_bytes()
    assert b"<title>Supplementary Material</title>" in data
    assert all(s["paragraphs"] or s["subsections"] for _, s in iter_sections(parse_jats(data)))
    data = (real_samples / "jats" / "PMC7417471.nxml").read_bytes()
    first = data.index(b"Recently, the demands for highly sensitive")
    table = (b"<disp-formula><mml:math><mml:mtable><mml:mtr><mml:mtd><mml:mi>x</mml:mi><mml:mo>=</mml:mo>"
             b"<mml:mn>1</mml:mn></mml:mtd></mml:mtr></mml:mtable></mml:math></disp-formula> ")
    got = _paragraphs(parse_jats(data[:first] + b"It cost US$ 5 million. " + table + data[first:]))
    assert got[0].startswith("It cost US\\$ 5 million. $$x = 1$$ ")  # the one-row table around it unwrapped
    assert sum(len(re.findall(r"(?<!\\)\$", p)) for p in got) == 10  # 3 inline formulas' and 1 display's


def test_jats_errors_are_typed():
    with pytest.raises(JatsError):
        parse_jats(b"<html>not an article</html>")
    with pytest.raises(JatsError):
        parse_jats(b"<article><front/></article>")
    with pytest.raises(JatsError):
        parse_jats(b"<article><body>unclosed")


PDF_HEADINGS = {
    "N18-3011.pdf": [(1, "Introduction"), (1, "Structure of The Literature Graph"), (2, "Node Types"),
                     (2, "Edge Types"), (1, "Extracting Metadata"), (1, "Entity Extraction and Linking"),
                     (2, "Approaches"), (2, "Entity Extraction Models"), (2, "Knowledge Bases"),
                     (2, "Entity Linking Models"), (1, "Other Research Problems"), (1, "Conclusion and Future Work")],
    "cermine-test2.pdf": [(1, t) for t in ("Introduction", "Methods", "Results", "Experience of Programmes",
                                           "Maintenance", "Improvements", "GP Services", "Quality of Care",
                                           "Labelling the Condition “Heart Failure”", "Medication", "Discussion",
                                           "Acknowledgments")],
}


@pytest.mark.parametrize("name", sorted(PDF_HEADINGS))
def test_real_pdfs_headings_and_levels_from_fonts(real_samples: Path, name: str):
    """The headings the README lists (GROBID's 12 for N18-3011, numbered 1.-11. for CERMINE's), with levels;
    title, authors and abstract are front matter, References back matter."""
    sections = parse_pdf((real_samples / "paper-pdf" / name).read_bytes())
    assert _titles(sections) == PDF_HEADINGS[name]
    text = " ".join(_paragraphs(sections))
    assert len(text) > 15000 and "(cid:" not in text
    assert "Rehabilitation Research and Practice" not in text  # running head of every page
    assert "The goal of this work is to facilitate algorithmic discovery" in text or name != "N18-3011.pdf"


def _shingles(text: str, n: int = 6) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[k:k + n]) for k in range(len(words) - n + 1)}


def test_real_pdf_body_leaves_out_references_footnotes_tables_and_captions(real_samples: Path):
    """N18-3011 against what GROBID put outside its body (reference list, footnotes, tables): at most 1 % of our
    body's 6-word runs are theirs; "Table 2 shows …" sentences stay; real compounds keep their hyphen."""
    from lxml import etree

    tei = etree.fromstring((real_samples / "paper-pdf" / "N18-3011.tei.xml").read_bytes())
    ns = "{http://www.tei-c.org/ns/1.0}"
    outside = " ".join(" ".join(e.itertext()) for e in tei.iter(f"{ns}listBibl", f"{ns}note", f"{ns}figure"))
    body = " ".join(" ".join(p.itertext()) for p in tei.find(f".//{ns}body").iter(f"{ns}p"))
    paras = _paragraphs(parse_pdf((real_samples / "paper-pdf" / "N18-3011.pdf").read_bytes()))
    text = " ".join(paras)
    ours = [_shingles(p) for p in paras]
    foreign = _shingles(outside) - _shingles(body)
    assert sum(len(s & foreign) for s in ours) <= 0.01 * sum(len(s) for s in ours)
    assert "The ScienceParse libraries can be found" not in text  # footnote 2, small type at the column's foot
    assert "Part of the literature graph" not in text  # Figure 1's caption
    assert "Table 2 shows" in text and "Table 3 compares" in text  # sentences, not captions
    assert "citation-based" in text and "hand-engineered" in text and "disambiguate" in text and "disam-" not in text
    assert "(Ammar et al., 2017)" not in text.split("Conclusion")[-1]  # the reference list is not body


def test_pdf_errors_are_typed():
    with pytest.raises(PdfError):
        parse_pdf(b"%PDF-1.4 garbage")
    with pytest.raises(PdfError):
        parse_pdf(b"not a pdf at all")


@pytest.fixture(scope="module")
def world():
    return build_world(WorldSpec(scale=300, seed=11))


@pytest.fixture(scope="module")
def served(world, tmp_path_factory):
    out = tmp_path_factory.mktemp("papers_world")
    render(world, out, ("papers",))
    with Replica(out) as rep:
        yield rep.base_url


def _by_form(world, form: str) -> dict:
    return next(p for p in world.papers
                if fulltext_form(p["work_id"], p["license"]) == form and p.get("inv") is not None)


def test_generated_jats_and_pdf_give_the_paper_body(world):
    """What the generator writes in each real format comes back through the parsers as the paper's body."""
    paper = _by_form(world, "jats")
    want = body_of(world, paper)
    got = parse_jats(jats(world, paper))
    assert _titles(got) == _titles(want)
    results = next(s for s in got if s["title"] == "Results")
    assert results["paragraphs"][:len(want[2]["paragraphs"])] == want[2]["paragraphs"]
    extra = " ".join(results["paragraphs"][len(want[2]["paragraphs"]):])
    assert "$Q = k T^{2}$" in extra and "T^{2}" in extra.split("$$")[1] and CHEMISTRY in extra  # tex, pandoc, image
    paper = _by_form(world, "pdf")
    want = body_of(world, paper)
    got = parse_pdf(pdf(world, paper))
    assert _titles(got) == _titles(want)
    assert _paragraphs(got) == _paragraphs(want)


def test_client_reads_jats_then_pdf_through_the_replica_and_caches(world, served, tmp_path):
    client = FullTextClient(served, cache_dir=tmp_path)
    j, p, n = (_by_form(world, f) for f in ("jats", "pdf", "none"))
    url = "https://repository.example.org/{}.pdf"
    got = client.fetch(j["work_id"], pmcid(j["work_id"]), url.format(j["work_id"]))
    assert got.source == "jats" and _titles(got.sections) == _titles(body_of(world, j))
    got = client.fetch(p["work_id"], None, url.format(p["work_id"]))
    assert got.source == "pdf" and _paragraphs(got.sections) == _paragraphs(body_of(world, p))
    assert got.route == "pdf-layout"  # the world's PDFs have no outline
    missing = client.fetch(n["work_id"], pmcid(n["work_id"]), url.format(n["work_id"]))
    assert missing.sections is None and "no JATS" in missing.why and "PDF not available" in missing.why
    assert client.fetch("W1", None, None).why == "no PMCID and no open-access PDF URL"
    asked = client.stats["requests"]
    again = FullTextClient(served, cache_dir=tmp_path).fetch(j["work_id"], pmcid(j["work_id"]), None)
    assert again.source == "jats" and client.stats["requests"] == asked  # second client: from the cache
    assert client.pdf_url("https://repository.example.org/W9.pdf") == f"{served}/oa/repository.example.org/W9.pdf"


def test_the_parsed_cache_may_sit_apart_from_the_downloads(real_samples: Path, tmp_path):
    """`parsed_dir` (PF_PATHS__PARSED_CACHE): clients of other download caches, or of none (an s3:// data dir),
    read the same bytes' parse from it; nothing parsed is kept beside their downloads."""
    data = (real_samples / "paper-pdf" / "cermine-test2.pdf").read_bytes()
    shared = tmp_path / "parsed"
    first = FullTextClient(cache_dir=tmp_path / "a", parsed_dir=shared).parse_pdf("W1", data)
    for cache_dir in (tmp_path / "b", None):
        client = FullTextClient(cache_dir=cache_dir, parsed_dir=shared)
        again = client.parse_pdf("W1", data)
        assert (again.sections, again.route) == (first.sections, first.route) and client.stats["cache_hits"] == 1
    assert len(list(shared.glob("parsed-pdf/*/*.json"))) == 1
    assert not (tmp_path / "a" / "parsed-pdf").exists() and not (tmp_path / "b").exists()


def test_a_rerun_reads_what_pdfplumber_made_of_a_pdf_from_the_parsed_cache(real_samples: Path, tmp_path):
    """The same bytes under the same route version are not read again: equal sections and route from the cache
    (a JSON round trip), a failed read fails again with its reason; another route version's folder is not read."""
    from sources.paper_fulltext import pdf_route_version

    data = (real_samples / "paper-pdf" / "cermine-test2.pdf").read_bytes()
    first = FullTextClient(cache_dir=tmp_path).parse_pdf("W1", data)
    again_client = FullTextClient(cache_dir=tmp_path)
    again = again_client.parse_pdf("W2", data)  # another work with the same bytes: the same parse
    assert (again.sections, again.route, again.source) == (first.sections, first.route, "pdf")
    assert again_client.stats["cache_hits"] == 1
    (kept,) = (tmp_path / "parsed-pdf").glob("*/*.json")
    assert kept.parent.name == pdf_route_version()
    stale = tmp_path / "parsed-pdf" / "0000000000000000" / kept.name
    stale.parent.mkdir()
    stale.write_text('{"sections": [], "route": "pdf-layout"}')
    kept.unlink()
    third = FullTextClient(cache_dir=tmp_path)
    assert third.parse_pdf("W3", data).sections == first.sections and third.stats["cache_hits"] == 0

    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    page = canvas.Canvas(buf)
    page.drawString(72, 720, "A memo of one line, no headed body.")
    page.save()
    outcomes = []
    for _ in range(2):
        client = FullTextClient(cache_dir=tmp_path / "memo")
        with pytest.raises(PdfError) as failed:
            client.parse_pdf("W4", buf.getvalue())
        outcomes.append((str(failed.value), client.stats["cache_hits"]))
    assert outcomes[0][0] == outcomes[1][0] and [hits for _, hits in outcomes] == [0, 1]
