"""Disk cache of tesseract's page texts, so re-ingesting the same PDF bytes never runs OCR again.

OCR is most of a scanned decision's read (~0.8 CPU s a page) and the per-process memo in
stages/ingest_ptab.py is lost with the process (each `pf run` and each deployment flow run is a new one).
A page's text is kept as `<data>/cache/ocr/<setting>/<pdf sha256>-p<page>.txt`, where `<setting>` names the
tesseract version, language and dpi: tesseract's output depends on those and on nothing else we pass it, so a
hit is the text tesseract would return, and another version or setting misses. Only raw page text is kept:
the cleaning that follows runs on every read, so a change to it never meets stale text.
"""
from __future__ import annotations

from functools import lru_cache

from sources.ptab_pdf import OCR_LANG, OcrPage, ocr_page, tesseract_version

from .storage import Storage


@lru_cache(maxsize=1)
def _version() -> str:
    return tesseract_version()


def ocr_setting(dpi: int, version: str | None = None, lang: str = OCR_LANG) -> str:
    """The cache folder's name: what tesseract's output depends on."""
    return f"tesseract-{version or _version()}-{lang}-{dpi}dpi"


def cached_ocr(cache: Storage, sha256: str, ocr: OcrPage = ocr_page, version: str | None = None) -> OcrPage:
    """`ocr` for the PDF whose bytes hash to `sha256`, reading each page's text from `cache` when it is there
    and writing it there after tesseract read it. A text is written whole (`write_text`), so a killed run
    leaves no half page."""
    def read(data: bytes, index: int, dpi: int) -> str:
        rel = f"{ocr_setting(dpi, version)}/{sha256}-p{index + 1}.txt"
        if cache.exists(rel):
            return cache.read_text(rel)
        text = ocr(data, index, dpi)
        cache.write_text(rel, text)
        return text
    return read
