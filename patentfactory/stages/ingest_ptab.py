"""PILOT-Bench's input: PTAB decisions (ODP search + decision PDFs) into the warehouse.

Search pages from the ODP appeals API (the replica offline) go to the raw cache; each decision's PDF is
downloaded (resumable) into the raw cache, read (text layer or OCR) and written as one `ptab_decisions`
warehouse part per decision, recorded in the ledger so a rerun skips it. An unreadable PDF is a reject row
and a decision row without text (the build counts it). flows/ingest_ptab.py fans the PDF reads out in
batches; `ingest_ptab` runs the same steps in one thread.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import urlparse

from schemas import PTAB_DECISIONS, PTAB_PAGES, REJECTS
from sources.http import HttpClient, HttpError
from sources.ptab import fetch_decision_pages, parse_search_page, ptab_client
from sources.ptab_pdf import DecisionText, parse_decision_pdf

from patentfactory.store.ocr_cache import cached_ocr
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import part_name

from .ingest import Stores
from .ingest_files import stores_for
from .memory import within_budget

log = logging.getLogger(__name__)
SEARCH_SOURCE, PDF_SOURCE = "ptab_odp", "ptab_pdf"
PDF_PARSER_VERSION = "ptab-pdf-3"  # 2: page-level text kept (ptab_pages); 3: U+FFFD kept


@dataclass
class PtabIngestStats:
    pages: int = 0
    records: int = 0
    pdfs: int = 0
    skipped: int = 0
    rejects: int = 0
    origins: dict[str, int] = field(default_factory=dict)


def _reject(stores: Stores, source: str, item: str, reason: str) -> None:
    row = {"source": source, "source_file": item, "locator": "pdf", "error_class": "PdfRejected",
           "message": reason[:500], "snippet": ""}
    stores.warehouse.write_part("rejects", f"{part_name(item)}.pdf", REJECTS.from_pylist([row]))


def fetch_pdf(stores: Stores, client: HttpClient, row: dict, downloads: Path,
              stats: PtabIngestStats) -> Path | None:
    """Download one decision PDF; None when the ledger has it read, or when the download failed (a reject)."""
    doc = json.loads(row["raw"]).get("documentData") or {}
    did, uri = row["decision_id"], doc.get("fileDownloadURI") or ""
    if not stores.ledger.needs_parse(PDF_SOURCE, did, None, PDF_PARSER_VERSION):
        stats.skipped += 1
        return None
    try:
        return client.download(urlparse(uri).path, downloads / f"{part_name(did)}.pdf",
                               doc.get("documentSizeQuantity") or None)
    except (HttpError, OSError, ValueError) as exc:  # not ledgered as parsed: the next run retries
        stats.rejects += 1
        _reject(stores, PDF_SOURCE, did, f"download failed: {exc}")
        return None


_OCR_READS: dict[str, DecisionText] = {}
_OCR_READS_MAX = 64


def read_decision_text(sha256: str, data: bytes, ocr_cache: Storage | None = None) -> DecisionText:
    """`parse_decision_pdf`, keeping the texts that needed OCR per process by the PDF's digest: tesseract is most
    of a decision's read (~0.8 CPU s a page), and a process that reads the same bytes again (a night into another
    data dir, a rehearsal's next night) gets the same text without it. Text-layer reads are cheap: not kept.
    With `ocr_cache` (`<data>/cache/ocr`, store/ocr_cache.py) tesseract's page texts also outlive the process."""
    text = _OCR_READS.get(sha256)
    if text is None:
        text = parse_decision_pdf(data, ocr=cached_ocr(ocr_cache, sha256)) if ocr_cache else parse_decision_pdf(data)
        if text.origin in ("ocr", "mixed"):
            if len(_OCR_READS) >= _OCR_READS_MAX:
                _OCR_READS.pop(next(iter(_OCR_READS)))  # the oldest first
            _OCR_READS[sha256] = text
    return text


def read_pdf(stores: Stores, row: dict, path: Path, stats: PtabIngestStats) -> None:
    """Cache and read one downloaded PDF (text layer or OCR); write its `ptab_decisions` part; ledger it."""
    did = row["decision_id"]
    raw = stores.cache.put_file(PDF_SOURCE, path)
    stores.ledger.record_fetch(PDF_SOURCE, did, raw.sha256, raw.bytes)
    text = read_decision_text(raw.sha256, path.read_bytes(), stores.cache.storage.parent().sub("cache", "ocr"))
    path.unlink(missing_ok=True)
    stats.pdfs += 1
    row = {**row, "pdf_sha256": raw.sha256, "text": text.layout_text or None, "text_origin": text.origin}
    if text.reject:
        stats.rejects += 1
        _reject(stores, PDF_SOURCE, did, text.reject)
        row.update(text=None, text_origin=None)
    else:
        stores.warehouse.delete_part("rejects", f"{part_name(did)}.pdf")
        stats.origins[text.origin or "none"] = stats.origins.get(text.origin or "none", 0) + 1
    stores.warehouse.write_part("ptab_decisions", did, PTAB_DECISIONS.from_pylist([row]))
    if text.pages:
        stores.warehouse.write_part("ptab_pages", did, PTAB_PAGES.from_pylist(
            [{"decision_id": did, "page_no": p.number, "text": p.text, "origin": p.origin} for p in text.pages]))
    stores.ledger.record_parse(PDF_SOURCE, did, PDF_PARSER_VERSION, 1, int(bool(text.reject)))


def search_decisions(stores: Stores, client: HttpClient, start: date, end: date, stats: PtabIngestStats,
                     max_records: int | None = None) -> Iterator[dict]:
    """Each search page into the raw cache and ledger; yields its decision rows (the page is ledgered as
    parsed once the caller has handled all of them)."""
    for offset, page in fetch_decision_pages(client, start, end, max_records=max_records):
        item = f"search_{start}_{end}_{offset:07d}.json"
        raw = stores.cache.put_bytes(SEARCH_SOURCE, page, ".json")
        stores.ledger.record_fetch(SEARCH_SOURCE, item, raw.sha256, raw.bytes)
        result = parse_search_page(page, item)
        stats.pages += 1
        stats.records += result.count("ptab_decisions")
        if result.rejects:
            stats.rejects += len(result.rejects)
            stores.warehouse.write_part("rejects", part_name(item), REJECTS.from_pylist(result.rejects))
        yield from result.rows.get("ptab_decisions", [])
        stores.ledger.record_parse(SEARCH_SOURCE, item, PDF_PARSER_VERSION, result.count("ptab_decisions"),
                                   len(result.rejects))


def ptab_downloads(data_dir: str | Path) -> Path:
    return Path(data_dir) / "downloads" / "ptab"


@within_budget("ingest-ptab")
def ingest_ptab(data_dir: str | Path, base_url: str, start: date, end: date, api_key: str | None = None,
                max_records: int | None = None) -> dict:
    """ODP decisions dated start..end with their PDFs into the warehouse (idempotent), in this thread.

    flows/ingest_ptab.py runs the same steps with the PDF reads fanned out in batches."""
    stores, client, stats = stores_for(data_dir), ptab_client(base_url, api_key), PtabIngestStats()
    for row in search_decisions(stores, client, start, end, stats, max_records):
        path = fetch_pdf(stores, client, row, ptab_downloads(data_dir), stats)
        if path is not None:
            read_pdf(stores, row, path, stats)
    log.info("ptab ingest: %s", stats)
    return asdict(stats)


def merge_ptab_stats(parts: list[dict]) -> dict:
    total = PtabIngestStats()
    for p in parts:
        for key in ("pages", "records", "pdfs", "skipped", "rejects"):
            setattr(total, key, getattr(total, key) + p[key])
        for origin, n in p["origins"].items():
            total.origins[origin] = total.origins.get(origin, 0) + n
    total.origins = dict(sorted(total.origins.items()))
    return asdict(total)
