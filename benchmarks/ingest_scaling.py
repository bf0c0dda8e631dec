"""Per-file ingest cost against the size of the warehouse (issue #33): it must not grow.

Ingests `--sizes` (default 40, 300, 1,000, 2,250: a first USPTO build is about 2,250 weekly files) one-document
weekly files, each a real v4 grant of `../shared/real-samples/uspto-xml` with its own publication number,
one after another into ONE warehouse and ledger, through `patentfactory.stages.ingest.ingest_file` with one
set of stores (what `pf ingest uspto` does per weekly file: raw cache, ledger, parse, warehouse parts).
At each size it reports the mean CPU and wall seconds per file over the last `--window` files before it,
and their ratio to the first size's (the baseline, measured in the same run). One-document files make the
per-file costs (part replacement, ledger save) as large a share as they can be.

For reference it also times, at each size, the listing the old part replacement did for every file
(`glob('*/<item>.*.parquet')` over the whole warehouse), now replaced by the item's index.
Last line: `ingest_per_file_growth: <CPU per file at the last size / at the first> ratio` (goal: <= 1.2).
Usage: python benchmarks/ingest_scaling.py [--sizes 40,300,1000,2250] [--window 40]
"""
from __future__ import annotations

import argparse
import io
import logging
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from uspto_parse import seed_documents, unique_copy  # noqa: E402


def one_doc_zip(path: Path, doc: bytes) -> Path:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr(path.with_suffix(".xml").name, doc)
    path.write_bytes(buf.getvalue())
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="40,300,1000,2250")
    ap.add_argument("--window", type=int, default=40)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    logging.disable(logging.INFO)

    from patentfactory.stages.ingest import IngestStats, ingest_file
    from patentfactory.stages.ingest_files import USPTO_PARSER_VERSION, stores_for
    from sources.uspto_bulk import parse_file

    seeds = seed_documents("grants")
    with tempfile.TemporaryDirectory(prefix="pf-ingest-scaling-") as tmp:
        root = Path(tmp)
        files = root / "files"
        files.mkdir()
        stores = stores_for(root / "data")
        stats = IngestStats("uspto_bulk")
        warm = stores_for(root / "warm")  # imports and first-use caches, outside the measurement
        ingest_file(warm, "uspto_bulk", one_doc_zip(files / "ipgwarm.zip", unique_copy(seeds[0], 9_999_999)),
                    parse_file, USPTO_PARSER_VERSION, IngestStats("uspto_bulk"))
        rows, done = [], 0
        for size in sizes:
            cpu = wall = 0.0
            while done < size:
                path = one_doc_zip(files / f"ipg{done:07d}.zip", unique_copy(seeds[done % len(seeds)], done))
                t, c = time.perf_counter(), time.process_time()
                ingest_file(stores, "uspto_bulk", path, parse_file, USPTO_PARSER_VERSION, stats)
                if done >= size - args.window:
                    cpu += time.process_time() - c
                    wall += time.perf_counter() - t
                done += 1
            n = min(args.window, size)
            t = time.perf_counter()
            stores.warehouse.storage.glob(f"*/ipg{size - 1:07d}.zip.*.parquet")
            listing = time.perf_counter() - t
            parts = sum(1 for _ in (root / "data" / "warehouse").glob("*/*.parquet"))
            rows.append((size, parts, cpu / n, wall / n, listing))
        assert stats.failed == 0 and stats.rejects == 0, stats
        assert len(stores.ledger.items("uspto_bulk")) == sizes[-1]
    base_cpu, base_wall = rows[0][2], rows[0][3]
    print(f"{'files':>6s} {'parts':>7s} {'CPU ms/file':>12s} {'vs first':>9s} {'wall ms/file':>13s} {'vs first':>9s}"
          f" {'old listing ms/file':>20s}")
    for size, parts, cpu, wall, listing in rows:
        print(f"{size:6d} {parts:7d} {cpu * 1e3:12.2f} {cpu / base_cpu:9.2f} {wall * 1e3:13.2f} {wall / base_wall:9.2f}"
              f" {listing * 1e3:20.2f}")
    print(f"per-file cost over the last {args.window} files before each size; one warehouse, one ledger; "
          f"{len(seeds)} real grant documents, renumbered")
    print(f"ingest_per_file_growth: {rows[-1][2] / base_cpu:.2f} ratio")


if __name__ == "__main__":
    main()
