"""USPTO weekly-file parse speed on real application and grant documents: vs a bare lxml pass and vs the peer.

For each kind (v4 applications `ipa*.xml`, v4 grants `ipg*.xml`/`grant_*.xml` of
`../shared/real-samples/uspto-xml`) builds a weekly-style zip of ~`--mb` MB repeating the real
documents, each copy with its own publication number (as in a real weekly file), and runs in
separate child processes, alternating, `--repeat` rounds:
  bare: split the zip into documents and run lxml.etree.iterparse over each (nothing extracted);
  full: sources.uspto_bulk.parse_file + Arrow conversion of every batch (what `pf parse uspto` does
        before writing Parquet);
  peer: PatentsView-DB's parser (`updater/xml_to_sql/parser.py`: its own file splitter,
        `process_publication_document` with `resources/pgp_xml_map_v4_3-5.json`; rows kept in
        memory, no pandas, no SQL) over the
        same documents, uncompressed (it reads unzipped files), when `--peer DIR` (or
        PF_BENCH_PEER) names a checkout of github.com/PatentsView/PatentsView-DB. Its imports that
        only serve SQL loading and multiprocessing (pandas, billiard, its `lib` config) are stubbed;
        its DTD is not loaded (offline), which if anything makes it faster. Its grant map
        (`resources/patent_parser.json`) holds only government interest, related-application text
        and CPC, so grants are timed with the full pgpubs map read at the grant paths
        (`us-bibliographic-data-application` -> `-grant`): the same tables and fields per document.
Ratios are taken per round (same load on the shared machine for all three) and the median round is
reported. Peak RSS of the full parse is shown at `--mb` and 2x`--mb` (goal: flat in file size; both files go past
the first 500-document batch, which is what bounds memory).
Goals (issue #20): full/bare >= 0.5 and full/peer >= 2 for both kinds. Ratios are of wall time; the same
ratios of CPU time are printed too (on a machine shared with other work they are the steadier ones).
Last lines: `uspto_parse_vs_peer: <the smaller of the two kinds' median ratios> ratio` (with a peer), then
`uspto_parse_vs_lxml: <the smaller of the two kinds' median ratios> ratio`.
Usage: python benchmarks/uspto_parse.py [--mb 40] [--repeat 3] [--peer DIR]
"""
from __future__ import annotations

import argparse
import io
import json
import multiprocessing as mp
import os
import re
import resource
import statistics
import sys
import tempfile
import time
import types
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SAMPLES = REPO.parent / "shared" / "real-samples" / "uspto-xml"
KINDS = {"applications": ("ipa*.xml",), "grants": ("ipg*.xml", "grant_*.xml")}
PEER_MAP = "resources/pgp_xml_map_v4_3-5.json"


def seed_documents(kind: str) -> list[bytes]:
    from sources.uspto_bulk import iter_documents

    files = [f for pattern in KINDS[kind] for f in sorted(SAMPLES.glob(pattern))]
    return [d.data for f in files for d in iter_documents(f)]


_PUB_NUMBER = re.compile(rb"(<publication-reference\b.*?<doc-number>)([^<]*)(</doc-number>)", re.S)


def unique_copy(doc: bytes, i: int) -> bytes:
    """Copy `i` of a document with its own publication number, as in a real weekly file (a repeated
    number would make every copy a duplicate-publication reject instead of rows)."""
    def number(m: re.Match) -> bytes:
        old = m.group(2).decode()
        new = f"{old[:4]}{i:07d}" if len(old) == 11 and old.isdigit() else f"{old[:1] if not old[:1].isdigit() else ''}9{i:07d}"
        return m.group(1) + new.encode() + m.group(3)
    return _PUB_NUMBER.sub(number, doc, count=1)


def build_weekly(path: Path, target_mb: int, docs: list[bytes]) -> int:
    """`path`.zip (what the project reads) and `path`.xml (the same bytes unzipped, for the peer)."""
    size, i = 0, 0
    with zipfile.ZipFile(path.with_suffix(".zip"), "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf, \
            zf.open(path.with_suffix(".xml").name, "w") as fh, open(path.with_suffix(".xml"), "wb") as raw:
        while size < target_mb << 20:
            doc = unique_copy(docs[i % len(docs)], i)
            doc = doc if doc.endswith(b"\n") else doc + b"\n"
            fh.write(doc)
            raw.write(doc)
            size += len(doc)
            i += 1
    return size


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _done(q: mp.Queue, t: float, cpu: float, n: int) -> None:
    q.put((time.perf_counter() - t, _cpu() - cpu, n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def _bare(path: str, q: mp.Queue, _peer: str | None, _kind: str) -> None:
    from lxml import etree

    from sources.uspto_bulk import iter_documents

    t, cpu, n = time.perf_counter(), _cpu(), 0
    for doc in iter_documents(path):
        for _event, elem in etree.iterparse(io.BytesIO(doc.data), load_dtd=False, resolve_entities=False,
                                             no_network=True):
            elem.clear()
        n += 1
    _done(q, t, cpu, n)


def _full(path: str, q: mp.Queue, _peer: str | None, _kind: str) -> None:
    from sources.uspto_bulk import parse_file

    t, cpu, n, rejects = time.perf_counter(), _cpu(), 0, 0
    for batch in parse_file(path):
        n += len(batch.rows.get("publications", [])) + len(batch.rejects)
        rejects += len(batch.rejects)
        batch.to_arrow()
    if rejects:
        print(f"full parse: {rejects} rejects (the benchmark file should have none)", flush=True)
    _done(q, t, cpu, n)


def _import_peer(checkout: str) -> types.ModuleType:
    """PatentsView-DB's parser module from a checkout, with its SQL/config/multiprocessing imports stubbed."""
    for name in ("pandas", "billiard", "lib", "lib.configuration", "lib.utilities"):
        stub = types.ModuleType(name)
        stub.__path__ = []  # type: ignore[attr-defined]
        stub.get_current_config = stub.download_xml_files = stub.log_writer = None  # type: ignore[attr-defined]
        sys.modules.setdefault(name, stub)
    if "sqlalchemy" not in sys.modules:
        try:
            import sqlalchemy  # noqa: F401
        except ImportError:
            sys.modules["sqlalchemy"] = types.SimpleNamespace(create_engine=None)  # type: ignore[assignment]
    sys.path.insert(0, checkout)
    from updater.xml_to_sql import parser  # type: ignore[import-not-found]

    return parser


def _peer(path: str, q: mp.Queue, checkout: str | None, kind: str) -> None:
    from lxml import etree

    peer = _import_peer(str(checkout))
    xml_map_text = (Path(str(checkout)) / PEER_MAP).read_text()
    if kind == "grants":
        xml_map_text = xml_map_text.replace("us-bibliographic-data-application", "us-bibliographic-data-grant")
    xml_map = json.loads(xml_map_text)
    tables: dict[str, list] = {}
    t, cpu, n = time.perf_counter(), _cpu(), 0
    for current_xml in peer.extract_document(str(Path(path).with_suffix(".xml"))):  # as its parse loop does
        if not current_xml:
            continue
        doc = etree.XML(current_xml.encode("utf-8"), parser=etree.XMLParser(load_dtd=False, no_network=True))
        if doc.tag == "sequence-cwu":
            continue
        for table_name, rows in peer.process_publication_document(doc, xml_map):
            tables.setdefault(table_name, []).extend(rows)
        n += 1
    _done(q, t, cpu, n)


def _child(fn, path: Path, peer: str | None, kind: str) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, documents, peak RSS kB) of `fn` over `path` in a fresh process."""
    ctx = mp.get_context("spawn")
    q: mp.Queue = ctx.Queue()
    p = ctx.Process(target=fn, args=(str(path), q, peer, kind))
    p.start()
    res = q.get()
    p.join()
    return res


def run_kind(kind: str, tmp: Path, mb: int, repeat: int, peer: str | None) -> tuple[float, float | None]:
    docs = seed_documents(kind)
    big, double = tmp / f"{kind}-big.zip", tmp / f"{kind}-double.zip"
    big_bytes = build_weekly(big, mb, docs)
    runs: dict[str, list[tuple[float, float, int, int]]] = {"bare": [], "full": [], "peer": []}
    fns = {"bare": _bare, "full": _full, "peer": _peer}
    for _ in range(max(1, repeat)):
        for name in ("bare", "full", "peer") if peer else ("bare", "full"):
            runs[name].append(_child(fns[name], big, peer, kind))
    double_bytes = build_weekly(double, 2 * mb, docs)  # both past the first 500-document batch
    rss_double = _child(_full, double, peer, kind)[3]
    double.with_suffix(".xml").unlink()
    mbs = big_bytes / 1e6
    med = statistics.median
    print(f"{kind}: {mbs:.0f} MB XML, {runs['bare'][0][2]} documents ({len(docs)} real ones repeated), "
          f"{len(runs['bare'])} rounds, median shown")
    for name, rs in runs.items():
        if rs:
            print(f"  {name:4}: {mbs / med(r[0] for r in rs):6.1f} MB/s ({med(r[1] for r in rs):.2f} s CPU, "
                  f"{rs[0][2]} docs), peak RSS {max(r[3] for r in rs) / 1024:.0f} MB")
    ratio = med(b[0] / f[0] for b, f in zip(runs["bare"], runs["full"]))
    print(f"  full/bare (CPU time): {med(b[1] / f[1] for b, f in zip(runs['bare'], runs['full'])):.2f} ratio")
    vs_peer = None
    if runs["peer"]:
        print(f"  full/peer (CPU time): {med(p[1] / f[1] for p, f in zip(runs['peer'], runs['full'])):.2f} ratio")
        vs_peer = med(p[0] / f[0] for p, f in zip(runs["peer"], runs["full"]))
        print(f"  {kind}_vs_peer: {vs_peer:.2f} ratio")
    else:
        print("  vs peer: not timed (give --peer DIR, a PatentsView-DB checkout); issue #20 measured it at "
              "11.3-16.3 MB/s vs bare lxml 71-98 MB/s (0.17) on applications")
    print(f"  full peak RSS {mbs:.0f} MB vs {double_bytes / 1e6:.0f} MB file: "
          f"{max(r[3] for r in runs['full']) / 1024:.0f} MB vs {rss_double / 1024:.0f} MB")
    print(f"  {kind}_vs_lxml: {ratio:.2f} ratio")
    return ratio, vs_peer


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=40, help="uncompressed XML size of the big file of each kind")
    ap.add_argument("--repeat", type=int, default=3, help="alternating bare/full/peer rounds; the median counts")
    ap.add_argument("--peer", default=os.environ.get("PF_BENCH_PEER"),
                    help="checkout of PatentsView/PatentsView-DB to time its parser on the same files")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-"))
    results = [run_kind(kind, tmp, args.mb, args.repeat, args.peer) for kind in KINDS]
    if args.peer:
        print(f"uspto_parse_vs_peer: {min(vs_peer for _, vs_peer in results if vs_peer is not None):.2f} ratio")
    print(f"uspto_parse_vs_lxml: {min(ratio for ratio, _ in results):.2f} ratio")


if __name__ == "__main__":
    main()
