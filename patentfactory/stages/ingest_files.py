"""Stage functions: the plain-Python steps that flows wrap as tasks and the CLI calls directly.

Each stage takes paths/URLs and returns small summaries (never DataFrames), so tasks can pass
them between processes.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict
from datetime import date
from pathlib import Path

from common import progress as bars

from .ingest import IngestStats, Stores, bar_label, ingest_file, ingest_files
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage

log = logging.getLogger(__name__)
# uspto-2: one application key, IPC forms, formula tokens (issue 31); 3: PATDOC v2.4, non-patents skipped (issue 37)
USPTO_PARSER_VERSION = "uspto-3"
# 2: publications.cited_by_count; 3: app keys, empty citations rejected; 4: kept-raw fields, PCT `W`, family sizes
LENS_PARSER_VERSION = "lens-4"


def stores_for(data_dir: str | Path) -> Stores:
    root = Storage(data_dir)
    return Stores.at(root.sub("warehouse"), root.sub("raw"))


def list_uspto(base_url: str, start: date, end: date, api_key: str | None = None,
               products: tuple[str, ...] = ("PTGRXML", "APPXML")) -> list[dict]:
    """The weekly files of each ODP product in the range (plain dicts, so tasks can pass them)."""
    from sources.odp_bulk import list_product_files, odp_client

    client = odp_client(base_url, api_key)
    return [asdict(f) for product in products for f in list_product_files(client, product, start, end)]


def fetch_uspto_file(data_dir: str | Path, base_url: str, bulk_file: dict, api_key: str | None = None,
                     ledger: Ledger | None = None) -> Path | None:
    """Download one weekly file; None (nothing fetched) when the ledger has it parsed (same size, same parser)."""
    from sources.odp_bulk import BulkFile, fetch_bulk_file, odp_client

    bf = BulkFile(**bulk_file)
    done = (ledger or stores_for(data_dir).ledger).get("uspto_bulk", bf.name)
    if done and done.get("parsed_at") and done.get("parser_version") == USPTO_PARSER_VERSION \
            and done.get("bytes") == bf.size:
        return None
    return fetch_bulk_file(odp_client(base_url, api_key), bf, Path(data_dir) / "downloads" / "uspto")


def ingest_uspto_file(data_dir: str | Path, base_url: str, bulk_file: dict, api_key: str | None = None,
                      stores: Stores | None = None) -> dict:
    """One weekly file: skip when the ledger has it parsed (same size, same parser), else fetch + parse."""
    from sources.uspto_bulk import parse_file

    stores, stats = stores or stores_for(data_dir), IngestStats("uspto_bulk")
    path = fetch_uspto_file(data_dir, base_url, bulk_file, api_key, stores.ledger)
    if path is None:
        stats.files, stats.skipped = 1, 1
        bars.advance(bar_label("uspto_bulk"))
        return asdict(stats)
    ingest_file(stores, "uspto_bulk", path, parse_file, USPTO_PARSER_VERSION, stats)
    return asdict(stats)


def merge_stats(source: str, parts: list[dict]) -> dict:
    total = IngestStats(source)
    for p in parts:
        total.merge(p)
    return asdict(total)


def ingest_uspto(data_dir: str | Path, base_url: str, start: date, end: date, api_key: str | None = None,
                 products: tuple[str, ...] = ("PTGRXML", "APPXML"),
                 progress: Callable[[str], None] | None = None) -> dict:
    """List weekly files on the ODP bulk API, download what is missing, parse what is new."""
    parts, files = [], list_uspto(base_url, start, end, api_key, products)
    stores = stores_for(data_dir)  # one ledger read for the run, not one per file
    bars.expect(bar_label("uspto_bulk"), len(files))
    for f in files:
        if progress:
            progress(f["name"])
        parts.append(ingest_uspto_file(data_dir, base_url, f, api_key, stores))
    return merge_stats("uspto_bulk", parts)


def ingest_lens(data_dir: str | Path, files: list[str | Path],
                progress: Callable[[str], None] | None = None) -> dict:
    """Lens CSV / JSONL exports (format by suffix) into the warehouse."""
    from sources.lens import iter_lens_jsonl, parse_lens_csv

    def parse(path: Path):
        if path.suffix.lower() in (".jsonl", ".json"):
            yield from iter_lens_jsonl(path, path.name)  # streamed: memory bounded by a batch
        else:
            yield parse_lens_csv(path, path.name)

    stats = ingest_files(stores_for(data_dir), "lens", [Path(f) for f in files], parse, LENS_PARSER_VERSION,
                         progress)
    return asdict(stats)
