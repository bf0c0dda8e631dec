"""The GROBID route: real GROBID TEI (s2orc-doc2json's recording for N18-3011) becomes the sections tree, and the
full-text client posts a real PDF to the replica's GROBID endpoint, which answers the recorded TEI."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patentfactory.config import Settings
from patentfactory.sim.upstream import Replica
from sources.grobid import TeiError, parse_tei
from sources.paper_fulltext import FullTextClient
from transforms.outlines import iter_sections

N18_HEADINGS = [(1, "Introduction"), (1, "Structure of The Literature Graph"), (2, "Node Types"), (2, "Edge Types"),
                (1, "Extracting Metadata"), (1, "Entity Extraction and Linking"), (2, "Approaches"),
                (2, "Entity Extraction Models"), (2, "Knowledge Bases"), (2, "Entity Linking Models"),
                (1, "Other Research Problems"), (1, "Conclusion and Future Work")]


def _titles(sections: list[dict]) -> list[tuple[int, str]]:
    return [(d, s["title"]) for d, s in iter_sections(sections)]


def _paragraphs(sections: list[dict]) -> list[str]:
    return [p for _, s in iter_sections(sections) for p in s["paragraphs"]]


@pytest.fixture(scope="module")
def tei(real_samples: Path) -> bytes:
    return (real_samples / "paper-pdf" / "N18-3011.tei.xml").read_bytes()


def test_real_tei_gives_headings_levels_paragraphs_and_formulas(tei: bytes):
    sections = parse_tei(tei)
    assert _titles(sections) == N18_HEADINGS  # the 12 `<head n=…>`; "2.1" nests under "2"
    paras = _paragraphs(sections)
    assert len(paras) == 69 and all(p == p.strip() and "  " not in p for p in paras)
    assert paras[0].startswith("The goal of this work is to facilitate algorithmic discovery")
    formulas = [p for p in paras if p.startswith("$$")]
    assert len(formulas) == 3 and formulas[2] == "$$f.m/ D OEv m.name I avg.v m.lc ; v m.rc /;$$"
    text = " ".join(paras)
    assert "The ScienceParse libraries can be found" not in text  # footnote `<note place="foot">`
    assert "semi-supervised end-to-end entity and relation extraction" not in text  # the references (`<back>`)
    assert "(Etzioni, 2011)" in text  # citation markers stay as text


def test_tei_annex_kept_headless_div_continues_dollar_escaped(tei: bytes):
    """An appendix (`<back><div type="annex">`) is a section; a div without head continues the last section."""
    ns = 'xmlns="http://www.tei-c.org/ns/1.0"'
    edited = tei.replace(b"<back>", f'<back><div type="annex"><div {ns}><head n="A">Annotation guide</head>'
                                    f"<p>Annotators were paid $15 an hour.</p></div></div>".encode(), 1)
    edited = edited.replace(b"</body>", f"<div {ns}><p>A paragraph after a figure.</p></div></body>".encode(), 1)
    sections = parse_tei(edited)
    assert _titles(sections) == [*N18_HEADINGS, (1, "Annotation guide")]
    assert sections[-1]["paragraphs"] == ["Annotators were paid \\$15 an hour."]
    conclusion = next(s for s in sections if s["title"] == "Conclusion and Future Work")
    assert conclusion["paragraphs"][-1] == "A paragraph after a figure."


def test_tei_errors_are_typed():
    with pytest.raises(TeiError):
        parse_tei(b"<TEI xmlns='http://www.tei-c.org/ns/1.0'><text><body/></text></TEI>")
    with pytest.raises(TeiError):
        parse_tei(b"<article/>")
    with pytest.raises(TeiError):
        parse_tei(b"<TEI><unclosed")


def test_grobid_url_setting(monkeypatch):
    monkeypatch.setenv("PF_GROBID__URL", "http://grobid:8070")
    assert Settings.load().grobid.url == "http://grobid:8070"


@pytest.mark.services
def test_client_sends_pdfs_to_grobid_and_falls_back_to_pdfplumber(real_samples: Path, tmp_path: Path):
    """End to end through the replica: N18-3011.pdf has a recorded TEI (route 'grobid'); CERMINE's test2.pdf has
    none, GROBID answers 204 and the PDF is parsed with pdfplumber (route 'pdf'). The TEI is cached."""
    src = real_samples / "paper-pdf"
    world = tmp_path / "world"
    (world / "papers" / "pdf").mkdir(parents=True)
    (world / "papers" / "grobid").mkdir()
    shutil.copy(src / "N18-3011.pdf", world / "papers" / "pdf" / "N18-3011.pdf")
    shutil.copy(src / "N18-3011.tei.xml", world / "papers" / "grobid" / "N18-3011.tei.xml")
    shutil.copy(src / "cermine-test2.pdf", world / "papers" / "pdf" / "cermine-test2.pdf")
    url = "https://aclanthology.org/{}.pdf"
    with Replica(world) as rep:
        client = FullTextClient(rep.base_url, grobid=rep.base_url, cache_dir=tmp_path / "cache")
        got = client.fetch("W1", None, url.format("N18-3011"))
        assert got.source == "grobid" and _titles(got.sections) == N18_HEADINGS
        assert got.sections == parse_tei((src / "N18-3011.tei.xml").read_bytes())
        other = client.fetch("W2", None, url.format("cermine-test2"))
        assert other.source == "pdf" and other.sections[0]["title"] == "Introduction"
        assert client.stats["grobid_requests"] == 2 and client.stats["grobid_fallbacks"] == 1
        again = FullTextClient(rep.base_url, grobid=rep.base_url, cache_dir=tmp_path / "cache")
        assert again.fetch("W1", None, url.format("N18-3011")).source == "grobid"
        assert again.stats["grobid_requests"] == 0 and again.stats["requests"] == 0  # PDF and TEI from the cache
        plain = FullTextClient(rep.base_url).fetch("W1", None, url.format("N18-3011"))
        assert plain.source == "pdf"  # no GROBID URL: pdfplumber
