"""USPTO weekly-file parse speed vs a bare lxml pass over the same documents, and peak RSS.

Builds a weekly-style zip of ~TARGET MB of v4 grant XML (documents of the real samples and the
generator, repeated), then in separate child processes:
  bare: split the zip into documents and run lxml.etree.iterparse over each (no mapping);
  full: sources.uspto_bulk.parse_file + arrow conversion of every batch.
Prints MB/s of each, the ratio full/bare (goal >= 0.7) and each child's peak RSS at two file sizes
(goal: flat in file size). Last line: `uspto_parse_vs_lxml: <ratio> ratio`.
Usage: python benchmarks/uspto_parse.py [--mb 200]
"""
from __future__ import annotations

import argparse
import io
import multiprocessing as mp
import resource
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _seed_documents() -> list[bytes]:
    from patentfactory.generator import generate_world
    from sources.uspto_bulk import iter_documents

    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-world-"))
    generate_world(tmp, 400, 3)
    docs = [d.data for z in sorted((tmp / "uspto").rglob("*.zip")) for d in iter_documents(z)]
    shared = REPO.parent / "shared" / "real-samples" / "uspto-xml"
    for f in sorted(shared.glob("ipg*.xml")) + sorted(shared.glob("grant_*.xml")):
        docs += [d.data for d in iter_documents(f)]
    return docs


def build_weekly_zip(path: Path, target_mb: int, docs: list[bytes]) -> int:
    size, i = 0, 0
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf, zf.open("ipg990105.xml", "w") as fh:
        while size < target_mb << 20:
            doc = docs[i % len(docs)]
            fh.write(doc if doc.endswith(b"\n") else doc + b"\n")
            size += len(doc)
            i += 1
    return size


def _bare(path: str, q: mp.Queue) -> None:
    from lxml import etree

    from sources.uspto_bulk import iter_documents

    t, n = time.perf_counter(), 0
    for doc in iter_documents(path):
        for _event, elem in etree.iterparse(io.BytesIO(doc.data), load_dtd=False, resolve_entities=False,
                                             no_network=True):
            elem.clear()
        n += 1
    q.put((time.perf_counter() - t, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def _full(path: str, q: mp.Queue) -> None:
    from sources.uspto_bulk import parse_file

    t, n = time.perf_counter(), 0
    for batch in parse_file(path):
        n += len(batch.rows.get("publications", [])) + len(batch.rejects)
        batch.to_arrow()
    q.put((time.perf_counter() - t, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def _child(fn, path: Path) -> tuple[float, int, int]:
    q: mp.Queue = mp.get_context("spawn").Queue()
    p = mp.get_context("spawn").Process(target=fn, args=(str(path), q))
    p.start()
    res = q.get()
    p.join()
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=200, help="uncompressed XML size of the big file")
    args = ap.parse_args()
    docs = _seed_documents()
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-"))
    small, big = tmp / "small.zip", tmp / "big.zip"
    small_bytes = build_weekly_zip(small, max(1, args.mb // 8), docs)
    big_bytes = build_weekly_zip(big, args.mb, docs)
    bare_t, bare_n, bare_rss = _child(_bare, big)
    full_t, full_n, full_rss = _child(_full, big)
    _, _, full_rss_small = _child(_full, small)
    mb = big_bytes / 1e6
    print(f"file: {mb:.0f} MB XML, {bare_n} documents (parsed {full_n})")
    print(f"bare lxml iterparse: {mb / bare_t:.1f} MB/s, peak RSS {bare_rss / 1024:.0f} MB")
    print(f"full parse:          {mb / full_t:.1f} MB/s, peak RSS {full_rss / 1024:.0f} MB")
    print(f"full parse peak RSS on {small_bytes / 1e6:.0f} MB vs {mb:.0f} MB: {full_rss_small / 1024:.0f} MB vs "
          f"{full_rss / 1024:.0f} MB (growth {full_rss / max(full_rss_small, 1):.2f}x for {mb / (small_bytes / 1e6):.0f}x data)")
    print(f"uspto_parse_vs_lxml: {bare_t / full_t:.2f} ratio")


if __name__ == "__main__":
    main()
