"""Per-file ingest cost against the size of the warehouse (issue #33): it must not grow.

Ingests `--sizes` (default 40, 300, 1,000, 2,250: a first USPTO build is about 2,250 weekly files) one-document
weekly files, each a real v4 grant of `../shared/real-samples/uspto-xml` with its own publication number,
one after another into ONE warehouse and ledger, through `patentfactory.stages.ingest.ingest_file` with one
set of stores (what `pf ingest uspto` does per weekly file: raw cache, ledger, parse, warehouse parts).
At each size the last `--window` files before it are measured, alternating in groups of 10 with as
many files into a fresh, empty warehouse (the baseline, measured under the same load at the same moment: the
machine is shared, so its speed drifts). Reported per size: CPU ms per file into the grown warehouse, into the
empty one, and their ratio; the growth is that ratio at the last size over the first. One-document files make
the per-file costs (part replacement, ledger save) as large a share as they can be.

For reference it also times, at each size, the listing the old part replacement did for every file
(`glob('*/<item>.*.parquet')` over the whole warehouse), now replaced by the item's index.
Last line: `ingest_per_file_growth: <(grown/empty) at the last size / at the first> ratio` (goal: <= 1.2).
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
        rows, done, probe = [], 0, 10_000_000

        def one(st, n: int) -> float:
            path = one_doc_zip(files / f"ipg{n:08d}.zip", unique_copy(seeds[n % len(seeds)], n))
            c = time.process_time()
            ingest_file(st, "uspto_bulk", path, parse_file, USPTO_PARSER_VERSION, stats)
            return time.process_time() - c

        for size in sizes:
            while done < size - args.window:  # the measured window ends at `size` files
                one(stores, done)
                done += 1
            grown = empty = 0.0
            fresh = stores_for(root / f"fresh{size}")
            for group in range(0, args.window, 10):  # alternate: the same load for both
                for _ in range(10):
                    grown += one(stores, done)
                    done += 1
                for _ in range(10):
                    empty += one(fresh, probe)
                    probe += 1
            t = time.perf_counter()
            stores.warehouse.storage.glob(f"*/ipg{done - 1:08d}.zip.*.parquet")
            listing = time.perf_counter() - t
            parts = sum(1 for _ in (root / "data" / "warehouse").glob("*/*.parquet"))
            rows.append((done, parts, grown / args.window, empty / args.window, listing))
        assert stats.failed == 0 and stats.rejects == 0, stats
        assert len(stores.ledger.items("uspto_bulk")) == done
    base = rows[0][2] / rows[0][3]
    print(f"{'files':>6s} {'parts':>7s} {'CPU ms/file':>12s} {'empty wh':>9s} {'ratio':>6s} {'vs first':>9s}"
          f" {'old listing ms/file':>20s}")
    for size, parts, grown, empty, listing in rows:
        print(f"{size:6d} {parts:7d} {grown * 1e3:12.2f} {empty * 1e3:9.2f} {grown / empty:6.2f} "
              f"{grown / empty / base:9.2f} {listing * 1e3:20.2f}")
    print(f"per-file CPU over {args.window} files at each size, alternating in tens with files into an empty "
          f"warehouse; one warehouse, one ledger; {len(seeds)} real grant documents, renumbered")
    print(f"ingest_per_file_growth: {rows[-1][2] / rows[-1][3] / base:.2f} ratio")


if __name__ == "__main__":
    main()
