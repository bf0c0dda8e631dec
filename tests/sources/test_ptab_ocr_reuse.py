"""A decision PDF that needed OCR is read by tesseract once per process: the same bytes again (a night into another
data dir, a rehearsal's next night) get the same text back; other bytes, and text-layer PDFs, are read afresh."""
from __future__ import annotations

import hashlib
from pathlib import Path

from patentfactory.stages import ingest_ptab

SAMPLE_PDFS = Path(__file__).resolve().parents[2] / "data" / "sample" / "ptab" / "pdfs"
SCANNED, TEXT_LAYER = "07107fc0-74ed-a32a-0710-7fc074eda32a.pdf", "4422b4fb-e699-f963-4422-b4fbe699f963.pdf"


def _read(name: str, data: bytes | None = None):
    data = data if data is not None else (SAMPLE_PDFS / name).read_bytes()
    return ingest_ptab.read_decision_text(hashlib.sha256(data).hexdigest(), data)


def test_ocr_text_is_read_once_per_process_and_only_for_the_same_bytes(monkeypatch):
    parsed: list[int] = []
    real = ingest_ptab.parse_decision_pdf

    def counted(data: bytes):
        parsed.append(len(data))
        return real(data)

    monkeypatch.setattr(ingest_ptab, "parse_decision_pdf", counted)
    monkeypatch.setattr(ingest_ptab, "_OCR_READS", {})
    first, again = _read(SCANNED), _read(SCANNED)
    assert first.origin == "ocr" and first.layout_text and len(parsed) == 1
    assert again.layout_text == first.layout_text and again.pages == first.pages

    assert _read(TEXT_LAYER).origin == "pdf" and _read(TEXT_LAYER).origin == "pdf"
    assert len(parsed) == 3, "text-layer reads are cheap: not kept"

    other = (SAMPLE_PDFS / SCANNED).read_bytes() + b"\n%% another revision\n"
    assert _read(SCANNED, other).origin == "ocr" and len(parsed) == 4
