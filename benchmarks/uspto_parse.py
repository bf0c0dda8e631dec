"""USPTO weekly-file parse speed vs a bare lxml pass over the same documents, and peak RSS.

Builds a weekly-style zip of ~TARGET MB of v4 grant XML (documents of the real samples and the
generator, repeated), then in separate child processes:
  bare: split the zip into documents and run lxml.etree.iterparse over each (no mapping);
  full: sources.uspto_bulk.parse_file + arrow conversion of every batch.
Prints MB/s of each, the ratio full/bare (goal >= 0.7) and each child's peak RSS at two file sizes
(goal: flat in file size). Bare and full runs alternate `--repeat` times and the best run of each
counts, so a load spike on a shared machine does not decide the ratio; the CPU-time ratio is printed
too. Last line: `uspto_parse_vs_lxml: <ratio> ratio` (best wall-clock times).
Usage: python benchmarks/uspto_parse.py [--mb 200] [--repeat 3]
"""
from __future__ import annotations

import argparse
import io
import multiprocessing as mp
import re
import resource
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _seed_documents() -> list[bytes]:
    from patentfactory.sim.generator import generate_world
    from sources.uspto_bulk import iter_documents

    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-world-"))
    generate_world(tmp, 400, 3)
    docs = [d.data for z in sorted((tmp / "uspto").rglob("*.zip")) for d in iter_documents(z)]
    shared = REPO.parent / "shared" / "real-samples" / "uspto-xml"
    for f in sorted(shared.glob("ipg*.xml")) + sorted(shared.glob("grant_*.xml")):
        docs += [d.data for d in iter_documents(f)]
    return docs


_PUB_NUMBER = re.compile(rb"(<publication-reference\b.*?<doc-number>)([^<]*)(</doc-number>)", re.S)


def unique_copy(doc: bytes, i: int) -> bytes:
    """Copy `i` of a document with its own publication number, as in a real weekly file (a repeated
    number would make every copy a duplicate-publication reject instead of rows)."""
    def number(m: re.Match) -> bytes:
        old = m.group(2).decode()
        new = f"{old[:4]}{i:07d}" if len(old) == 11 and old.isdigit() else f"{old[:1] if not old[:1].isdigit() else ''}9{i:07d}"
        return m.group(1) + new.encode() + m.group(3)
    return _PUB_NUMBER.sub(number, doc, count=1)


def build_weekly_zip(path: Path, target_mb: int, docs: list[bytes]) -> int:
    size, i = 0, 0
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf, zf.open("ipg990105.xml", "w") as fh:
        while size < target_mb << 20:
            doc = unique_copy(docs[i % len(docs)], i)
            fh.write(doc if doc.endswith(b"\n") else doc + b"\n")
            size += len(doc)
            i += 1
    return size


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _bare(path: str, q: mp.Queue) -> None:
    from lxml import etree

    from sources.uspto_bulk import iter_documents

    t, cpu, n = time.perf_counter(), _cpu(), 0
    for doc in iter_documents(path):
        for _event, elem in etree.iterparse(io.BytesIO(doc.data), load_dtd=False, resolve_entities=False,
                                             no_network=True):
            elem.clear()
        n += 1
    q.put((time.perf_counter() - t, _cpu() - cpu, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def _full(path: str, q: mp.Queue) -> None:
    from sources.uspto_bulk import parse_file

    t, cpu, n, rejects = time.perf_counter(), _cpu(), 0, 0
    for batch in parse_file(path):
        n += len(batch.rows.get("publications", [])) + len(batch.rejects)
        rejects += len(batch.rejects)
        batch.to_arrow()
    if rejects:
        print(f"full parse: {rejects} rejects (the benchmark file should have none)", flush=True)
    q.put((time.perf_counter() - t, _cpu() - cpu, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def _child(fn, path: Path) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, documents, peak RSS kB) of `fn` over `path` in a fresh process."""
    q: mp.Queue = mp.get_context("spawn").Queue()
    p = mp.get_context("spawn").Process(target=fn, args=(str(path), q))
    p.start()
    res = q.get()
    p.join()
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=200, help="uncompressed XML size of the big file")
    ap.add_argument("--repeat", type=int, default=3, help="alternating bare/full runs; the best of each counts")
    args = ap.parse_args()
    docs = _seed_documents()
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-"))
    small, big = tmp / "small.zip", tmp / "big.zip"
    small_bytes = build_weekly_zip(small, max(1, args.mb // 4), docs)  # still several 500-document batches
    big_bytes = build_weekly_zip(big, args.mb, docs)
    bares: list[tuple[float, float, int, int]] = []
    fulls: list[tuple[float, float, int, int]] = []
    for _ in range(max(1, args.repeat)):
        bares.append(_child(_bare, big))
        fulls.append(_child(_full, big))
    bare_t, bare_cpu = min(r[0] for r in bares), min(r[1] for r in bares)
    full_t, full_cpu = min(r[0] for r in fulls), min(r[1] for r in fulls)
    bare_n, bare_rss = bares[0][2], max(r[3] for r in bares)
    full_n, full_rss = fulls[0][2], max(r[3] for r in fulls)
    full_rss_small = _child(_full, small)[3]
    mb = big_bytes / 1e6
    print(f"file: {mb:.0f} MB XML, {bare_n} documents (parsed {full_n}), best of {len(bares)} runs each")
    print(f"bare lxml iterparse: {mb / bare_t:.1f} MB/s ({bare_cpu:.2f} s CPU), peak RSS {bare_rss / 1024:.0f} MB")
    print(f"full parse:          {mb / full_t:.1f} MB/s ({full_cpu:.2f} s CPU), peak RSS {full_rss / 1024:.0f} MB")
    print(f"uspto_parse_vs_lxml (CPU time): {bare_cpu / full_cpu:.2f} ratio")
    print(f"full parse peak RSS on {small_bytes / 1e6:.0f} MB vs {mb:.0f} MB: {full_rss_small / 1024:.0f} MB vs "
          f"{full_rss / 1024:.0f} MB (growth {full_rss / max(full_rss_small, 1):.2f}x for {mb / (small_bytes / 1e6):.0f}x data)")
    print(f"uspto_parse_vs_lxml: {bare_t / full_t:.2f} ratio")


if __name__ == "__main__":
    main()
