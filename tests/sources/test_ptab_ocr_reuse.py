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


def test_ocr_page_texts_are_kept_on_disk_by_pdf_digest_and_tesseract_setting(tmp_path):
    """A new process (a fresh memo) re-ingesting the same bytes reads tesseract's page texts from
    `<data>/cache/ocr` and gets the same decision text; another tesseract version or dpi misses."""
    from patentfactory.store.ocr_cache import cached_ocr, ocr_setting
    from patentfactory.store.storage import Storage
    from sources.ptab_pdf import ocr_page, parse_decision_pdf, tesseract_version

    data = (SAMPLE_PDFS / SCANNED).read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    cache = Storage(tmp_path / "cache" / "ocr")
    calls: list[tuple[int, int]] = []

    def tesseract(pdf: bytes, index: int, dpi: int) -> str:
        calls.append((index, dpi))
        return ocr_page(pdf, index, dpi)

    first = parse_decision_pdf(data, ocr=cached_ocr(cache, sha, tesseract))
    pages = len(calls)
    assert first.origin == "ocr" and pages >= 1
    folder = ocr_setting(300)
    assert tesseract_version() in folder and len(cache.glob(f"{folder}/{sha}-p*.txt")) == pages

    again = parse_decision_pdf(data, ocr=cached_ocr(cache, sha, tesseract))
    assert len(calls) == pages, "the second read must not call tesseract"
    assert again == first == parse_decision_pdf(data)

    parse_decision_pdf(data, ocr=cached_ocr(cache, sha, tesseract, version="0.0.0-other"))
    assert len(calls) == 2 * pages, "another tesseract version misses"
    parse_decision_pdf(data, dpi=200, ocr=cached_ocr(cache, sha, tesseract))
    assert len(calls) == 3 * pages and {d for _, d in calls[-pages:]} == {200}, "another dpi misses"


def test_ingest_reads_ocr_through_the_data_dirs_cache(tmp_path, monkeypatch):
    """`read_pdf`'s route: `<data>/raw`'s parent holds `cache/ocr`; a fresh memo reads the disk cache."""
    from patentfactory.stages.ingest_files import stores_for

    monkeypatch.setattr(ingest_ptab, "_OCR_READS", {})
    data = (SAMPLE_PDFS / SCANNED).read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    cache = stores_for(tmp_path).cache.storage.parent().sub("cache", "ocr")
    assert cache.root == str((tmp_path / "cache" / "ocr").resolve())
    first = ingest_ptab.read_decision_text(sha, data, cache)
    written = cache.glob("*/*.txt")
    assert written and all(sha in w for w in written)
    monkeypatch.setattr(ingest_ptab, "_OCR_READS", {})
    assert ingest_ptab.read_decision_text(sha, data, cache) == first
