"""USPTO weekly-file parse speed on real application and grant documents: vs a bare lxml pass and vs the peer.

For each kind (v4 applications `ipa*.xml`, v4 grants `ipg*.xml`/`grant_*.xml` of
`../shared/real-samples/uspto-xml`) builds a weekly-style file of ~`--mb` MB of distinct documents: copies of
the real ones, each with its own publication number (as in a real weekly file) and the words of its text
redrawn from the real documents' words (`redraw_words`: structure and sizes kept), as a zip (what the
project reads) and as the same bytes unzipped (what the peer reads), and runs in separate child
processes, alternating, `--repeat` rounds:
  bare: split the zip into documents and run lxml.etree.iterparse over each (nothing extracted);
  full: sources.uspto_bulk.parse_file + Arrow conversion of every batch (what `pf parse uspto` does
        before writing Parquet), over the zip; `full.xml`: the same over the unzipped file;
  floor.xml: the C part of `full` alone (split, libxml2 parse, the v4 stylesheet; nothing converted), a
        lower bound for any parse on the lxml stack: peer/floor is the most such a parse could reach;
  peer: PatentsView-DB (github.com/PatentsView/PatentsView-DB, a checkout named by `--peer DIR` or
        PF_BENCH_PEER) over the unzipped file, as its weekly pipelines parse each kind:
        applications: `updater/xml_to_sql/parser.py` (its splitter, `process_publication_document`
        with `resources/pgp_xml_map_v4_3-5.json`; rows kept in memory), as issue #20 set it;
        grants: its `granted_patent_parser` DAG's two parses: `updater/xml_to_csv` (`preprocess_xml.
        clean_single_file`, then `parse_patents.get_results` over the whole-file tree: patent, parties,
        citations, classifications, related documents) and `xml_to_sql` with its grant maps
        (`text_parser.json`: claims, description texts; `patent_parser.json`: government interest, CPC).
        `peer-pgpubs-map` (grants, reference only) is what this benchmark timed for grants before: the
        pgpubs map read at the grant paths, which extracts no citations.
        Its imports that serve SQL, DataFrames, config, QA or notifications (pandas, billiard, boto3,
        `lib.configuration`, ...) are stubbed; no DTD is loaded (offline), which if anything makes it faster.
Ratios are taken per round (the same load on the shared machine for all) and the median round is reported:
vs lxml is bare/full (both read the zip), vs peer is peer/full.xml (both read the same unzipped file).
Peak RSS of the full parse is shown at `--mb` and 2x`--mb` (goal: flat in file size; both files go past
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
import shutil
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
PEER_GRANT_MAPS = ("text_parser.json", "patent_parser.json")


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


_WORD = re.compile(rb"(?<![&#\w])[a-z]{4,}(?![\w;])")
_TEXT = re.compile(rb">([^<]+)<")


def redraw_words(doc: bytes, i: int, vocab: dict[int, list[bytes]]) -> bytes:
    """Copy `i` of a document with the lower-case words of its text redrawn (same length, from the real
    documents' own words): the structure and the sizes stay, but no two copies repeat, so Parquet cannot
    compress the copies away (repeats made the write ~17x cheaper than on distinct documents). Codes, numbers,
    names, entities and attributes stay as they are."""
    import random

    rng = random.Random(i)

    def word(m: re.Match) -> bytes:
        pool = vocab.get(len(m.group(0)))
        return rng.choice(pool) if pool else m.group(0)
    return _TEXT.sub(lambda m: b">" + _WORD.sub(word, m.group(1)) + b"<", doc)


def vocabulary(docs: list[bytes]) -> dict[int, list[bytes]]:
    out: dict[int, set[bytes]] = {}
    for doc in docs:
        for text in _TEXT.findall(doc):
            for w in _WORD.findall(text):
                out.setdefault(len(w), set()).add(w)
    return {n: sorted(ws) for n, ws in out.items()}


def build_weekly(path: Path, target_mb: int, docs: list[bytes]) -> int:
    """`path`.zip (what the project reads) and `path`.xml (the same bytes unzipped, for the peer)."""
    size, i, vocab = 0, 0, vocabulary(docs)
    with zipfile.ZipFile(path.with_suffix(".zip"), "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf, \
            zf.open(path.with_suffix(".xml").name, "w") as fh, open(path.with_suffix(".xml"), "wb") as raw:
        while size < target_mb << 20:
            doc = redraw_words(unique_copy(docs[i % len(docs)], i), i, vocab)
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


class _Stub(types.ModuleType):
    """Stands in for a module the peer imports only for SQL, config, cloud or notification work."""

    __path__: list[str] = []

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return None


# The peer's imports that serve loading, config, QA and notifications (not parsing) and are not installed here
# (pandas, billiard, ...) or would read its deployment config: stubbed, so that its own parsing code
# (updater.*, lib.xml_helpers, lib.utilities.id_generator) is what runs.
_PEER_STUBS = ("pandas", "billiard", "boto3", "bs4", "clint", "clint.textui", "elasticsearch", "lib.configuration",
               "lib.notifications", "QA", "QA.xml_to_csv", "QA.xml_to_csv.ParserTest", "QA.xml_to_csv.XMLTest")


def _import_peer(checkout: str) -> types.ModuleType:
    """PatentsView-DB's xml_to_sql parser module from a checkout, its non-parsing imports stubbed."""
    for name in _PEER_STUBS:
        sys.modules.setdefault(name, _Stub(name))
    sys.path.insert(0, checkout)
    from updater.xml_to_sql import parser  # type: ignore[import-not-found]

    return parser


def _peer_rows(parser: types.ModuleType, xml: str, maps: list[dict], tables: dict[str, list]) -> int:
    """Its xml_to_sql loop (`parse_publication_xml` without the DTD and the DataFrames): split, parse, map."""
    from lxml import etree

    n = 0
    for current_xml in parser.extract_document(xml):
        if not current_xml:
            continue
        doc = etree.XML(current_xml.encode("utf-8"), parser=etree.XMLParser(load_dtd=False, no_network=True))
        if doc.tag == "sequence-cwu":
            continue
        for xml_map in maps:
            for table_name, rows in parser.process_publication_document(doc, xml_map):
                tables.setdefault(table_name, []).extend(rows)
        n += 1
    return n


def _peer(path: str, q: mp.Queue, checkout: str | None, kind: str) -> None:
    """Applications: its pgpubs parser (`updater/xml_to_sql/parser.py`, v4 pgpubs map), as issue #20 set it.
    Grants: its weekly grant route (the `granted_patent_parser` DAG): `xml_to_csv` (the file cleaned into one
    document by `preprocess_xml.clean_single_file`, then `parse_patents.get_results` over that tree: patent,
    parties, citations, classifications, related documents) and `xml_to_sql` with its grant maps
    (`text_parser.json`: claims and description texts; `patent_parser.json`: government interest, CPC)."""
    parser = _import_peer(str(checkout))
    root = Path(str(checkout))
    xml = str(Path(path).with_suffix(".xml"))
    tables: dict[str, list] = {}
    sys.stdout = open(os.devnull, "w")  # it prints a line per related document (the writes still cost)
    t, cpu = time.perf_counter(), _cpu()
    if kind == "applications":
        n = _peer_rows(parser, xml, [json.loads((root / PEER_MAP).read_text())], tables)
    else:
        from lib import xml_helpers  # type: ignore[import-not-found]
        from updater.xml_to_csv import parse_patents, preprocess_xml  # type: ignore[import-not-found]

        maps = [json.loads((root / "resources" / name).read_text()) for name in PEER_GRANT_MAPS]
        fields = json.loads((root / "persistent_files" / "field_dict.json").read_text())
        cleaned = str(Path(path).with_suffix(".clean.xml"))
        preprocess_xml.clean_single_file(xml, cleaned)
        results, _errors = parse_patents.get_results(xml_helpers.get_xml(cleaned), fields)
        tables.update(results)
        n = _peer_rows(parser, xml, maps, tables)
    _done(q, t, cpu, n)


def _peer_pgpubs_map(path: str, q: mp.Queue, checkout: str | None, kind: str) -> None:
    """Grants through the pgpubs map read at the grant paths: the grant peer this benchmark timed before it
    timed the grant route (it extracts no citations); printed for comparison only."""
    parser = _import_peer(str(checkout))
    xml_map_text = (Path(str(checkout)) / PEER_MAP).read_text()
    xml_map = json.loads(xml_map_text.replace("us-bibliographic-data-application", "us-bibliographic-data-grant"))
    t, cpu = time.perf_counter(), _cpu()
    n = _peer_rows(parser, str(Path(path).with_suffix(".xml")), [xml_map], {})
    _done(q, t, cpu, n)


def _floor(path: str, q: mp.Queue, _peer: str | None, _kind: str) -> None:
    """The libxml2/libxslt work of `full`, nothing converted: split the unzipped file, parse each document with
    the project's parser settings, run the v4 stylesheet. No parse through lxml can take less CPU than this."""
    from sources.uspto_bulk import iter_documents
    from sources.uspto_bulk.safexml import parse_xml
    from sources.uspto_bulk.v4fast import transform

    t, cpu, n = time.perf_counter(), _cpu(), 0
    xslt = transform()
    for doc in iter_documents(Path(path).with_suffix(".xml")):
        xslt(parse_xml(doc.data))
        n += 1
    _done(q, t, cpu, n)


def _full_xml(path: str, q: mp.Queue, peer: str | None, kind: str) -> None:
    """`_full` over the unzipped file: the same bytes the peer reads."""
    _full(str(Path(path).with_suffix(".xml")), q, peer, kind)


def _child(fn, path: Path, peer: str | None, kind: str) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, documents, peak RSS kB) of `fn` over `path` in a fresh process."""
    ctx = mp.get_context("spawn")
    q: mp.Queue = ctx.Queue()
    p = ctx.Process(target=fn, args=(str(path), q, peer, kind))
    p.start()
    res = q.get()
    p.join()
    return res


RUNS = {"bare": _bare, "full": _full, "full.xml": _full_xml, "floor.xml": _floor, "peer": _peer,
        "peer-pgpubs-map": _peer_pgpubs_map}


def run_kind(kind: str, tmp: Path, mb: int, repeat: int, peer: str | None) -> tuple[float, float | None]:
    docs = seed_documents(kind)
    big, double = tmp / f"{kind}-big.zip", tmp / f"{kind}-double.zip"
    big_bytes = build_weekly(big, mb, docs)
    names = ["bare", "full", "full.xml", "floor.xml"]
    if peer:
        names += ["peer", "peer-pgpubs-map"] if kind == "grants" else ["peer"]
    runs: dict[str, list[tuple[float, float, int, int]]] = {name: [] for name in names}
    for _ in range(max(1, repeat)):
        for name in names:
            runs[name].append(_child(RUNS[name], big, peer, kind))
    double_bytes = build_weekly(double, 2 * mb, docs)  # both past the first 500-document batch
    rss_double = _child(_full, double, peer, kind)[3]
    double.with_suffix(".xml").unlink()
    mbs = big_bytes / 1e6
    med = statistics.median
    print(f"{kind}: {mbs:.0f} MB XML, {runs['bare'][0][2]} documents ({len(docs)} real ones repeated), "
          f"{len(runs['bare'])} rounds, median shown")
    for name, rs in runs.items():
        print(f"  {name:15}: {mbs / med(r[0] for r in rs):6.1f} MB/s ({med(r[1] for r in rs):.2f} s CPU, "
              f"{rs[0][2]} docs), peak RSS {max(r[3] for r in rs) / 1024:.0f} MB")

    def ratio(slow: str, fast: str, field: int = 0) -> float:  # per round, then the median round
        return med(s[field] / f[field] for s, f in zip(runs[slow], runs[fast]))

    print(f"  full/bare (CPU time, both on the .zip): {ratio('bare', 'full', 1):.2f} ratio")
    vs_peer = None
    if peer:
        print(f"  full/peer (CPU time, both on the .xml): {ratio('peer', 'full.xml', 1):.2f} ratio")
        print(f"  floor/peer (CPU time, the most an lxml parse could reach): {ratio('peer', 'floor.xml', 1):.2f} ratio")
        if kind == "grants":
            print(f"  full/peer-pgpubs-map (reference only): {ratio('peer-pgpubs-map', 'full.xml'):.2f} ratio")
        vs_peer = ratio("peer", "full.xml")
        print(f"  {kind}_vs_peer: {vs_peer:.2f} ratio")
    else:
        print("  vs peer: not timed (give --peer DIR, a PatentsView-DB checkout); issue #20 measured it at "
              "11.3-16.3 MB/s vs bare lxml 71-98 MB/s (0.17) on applications")
    print(f"  full peak RSS {mbs:.0f} MB vs {double_bytes / 1e6:.0f} MB file: "
          f"{max(r[3] for r in runs['full']) / 1024:.0f} MB vs {rss_double / 1024:.0f} MB")
    vs_lxml = ratio("bare", "full")
    print(f"  {kind}_vs_lxml: {vs_lxml:.2f} ratio")
    return vs_lxml, vs_peer


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=40, help="uncompressed XML size of the big file of each kind")
    ap.add_argument("--repeat", type=int, default=3, help="alternating bare/full/peer rounds; the median counts")
    ap.add_argument("--peer", default=os.environ.get("PF_BENCH_PEER"),
                    help="checkout of PatentsView/PatentsView-DB to time its parser on the same files")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-"))
    try:
        results = [run_kind(kind, tmp, args.mb, args.repeat, args.peer) for kind in KINDS]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.peer:
        print(f"uspto_parse_vs_peer: {min(vs_peer for _, vs_peer in results if vs_peer is not None):.2f} ratio")
    print(f"uspto_parse_vs_lxml: {min(ratio for ratio, _ in results):.2f} ratio")


if __name__ == "__main__":
    main()
