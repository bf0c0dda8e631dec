"""Progress bars: on a terminal, the real stages count their work on one bar per kind (weekly files through
the replica's download path, PDF pages, Lens exports); off a terminal nothing is drawn and nothing is counted."""
from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from rich.console import Console

from common import progress
from patentfactory.config import Settings
from patentfactory.sim.generator import WorldSpec
from patentfactory.sim.upstream import Replica
from patentfactory.stages.ingest_files import ingest_lens, ingest_uspto
from sources.ptab_pdf import parse_decision_pdf

pytestmark = pytest.mark.services

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"


def _terminal() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=True, width=100), buf


def test_weekly_files_and_downloads_count_on_bars(tmp_path: Path, shared_world):
    world = shared_world(60, 5, WorldSpec(60, 5, renderers=("uspto",)))
    zips = sorted(world.rglob("*.zip"))
    console, buf = _terminal()
    with Replica(world) as rep, progress.bars(console) as drawn:
        assert drawn
        ingest_uspto(tmp_path / "data", rep.base_url, date(2000, 1, 1), date(2100, 1, 1))
        seen = progress.counts()
    assert seen["weekly files"] == (len(zips), len(zips))
    assert seen["downloads"] == (sum(z.stat().st_size for z in zips),) * 2
    assert "weekly files" in buf.getvalue()
    assert progress.counts() == {}, "bars are cleared when the command ends"


def test_pdf_pages_and_lens_exports(tmp_path: Path):
    import pdfplumber

    pdf = sorted((SAMPLE / "ptab" / "pdfs").glob("*.pdf"))[0]
    with pdfplumber.open(pdf) as doc:
        n_pages = len(doc.pages)
    exports = sorted((SAMPLE / "lens").glob("lens-export.*"))
    with progress.bars(_terminal()[0]):
        decision = parse_decision_pdf(pdf.read_bytes())
        ingest_lens(tmp_path / "data", exports)
        seen = progress.counts()
    assert not decision.reject and len(decision.pages) == n_pages
    assert seen["PDF pages"] == (n_pages, n_pages)
    assert seen["Lens exports"] == (len(exports), len(exports))


def test_nothing_drawn_off_a_terminal(tmp_path: Path, monkeypatch):
    buf = io.StringIO()
    with progress.bars(Console(file=buf)) as drawn:
        assert not drawn
        parse_decision_pdf(sorted((SAMPLE / "ptab" / "pdfs").glob("*.pdf"))[0].read_bytes())
        assert progress.counts() == {}
    monkeypatch.setenv("PF_PROGRESS", "0")
    with progress.bars(_terminal()[0], Settings.load().progress) as drawn:
        assert not drawn
    assert buf.getvalue() == ""
