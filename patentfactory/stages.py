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

from .config import Settings
from .ingest import IngestStats, Stores, ingest_file, ingest_files
from .storage import Storage

log = logging.getLogger(__name__)
USPTO_PARSER_VERSION = "uspto-1"
LENS_PARSER_VERSION = "lens-1"


def stores_for(data_dir: str | Path) -> Stores:
    root = Storage(data_dir)
    return Stores.at(root.sub("warehouse"), root.sub("raw"))


def ingest_uspto(data_dir: str | Path, base_url: str, start: date, end: date, api_key: str | None = None,
                 products: tuple[str, ...] = ("PTGRXML", "APPXML"),
                 progress: Callable[[str], None] | None = None) -> dict:
    """List weekly files on the ODP bulk API, download what is missing, parse what is new."""
    from sources.odp_bulk import fetch_bulk_file, list_product_files, odp_client
    from sources.uspto_bulk import parse_file

    stores = stores_for(data_dir)
    client = odp_client(base_url, api_key)
    stats = IngestStats("uspto_bulk")
    downloads = Path(data_dir) / "downloads" / "uspto"
    for product in products:
        for bf in list_product_files(client, product, start, end):
            done = stores.ledger.get("uspto_bulk", bf.name)
            if done and done.get("parsed_at") and done.get("parser_version") == USPTO_PARSER_VERSION \
                    and done.get("bytes") == bf.size:
                stats.files += 1
                stats.skipped += 1
                continue
            if progress:
                progress(bf.name)
            path = fetch_bulk_file(client, bf, downloads)
            ingest_file(stores, "uspto_bulk", path, parse_file, USPTO_PARSER_VERSION, stats)
    return asdict(stats)


def ingest_lens(data_dir: str | Path, files: list[str | Path],
                progress: Callable[[str], None] | None = None) -> dict:
    """Lens CSV / JSONL exports (format by suffix) into the warehouse."""
    from sources.lens import parse_lens_csv, parse_lens_jsonl

    def parse(path: Path):
        fn = parse_lens_jsonl if path.suffix.lower() in (".jsonl", ".json") else parse_lens_csv
        yield fn(path, path.name)

    stats = ingest_files(stores_for(data_dir), "lens", [Path(f) for f in files], parse, LENS_PARSER_VERSION,
                         progress)
    return asdict(stats)


def default_settings() -> Settings:
    return Settings.load()
