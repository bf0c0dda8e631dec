"""Generic ingest of local upstream files: raw cache -> ledger -> parse -> warehouse parts.

Each source supplies a parse function (path -> batches of ParseResult) and a parser version.
A file parsed before from the same bytes by the same parser version is skipped; a file whose
parse fails part-way is reported in `rejects` and left not-done in the ledger, so the next run
retries it. Parts are named after the item, so a re-parse replaces instead of duplicating.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from schemas import REJECTS
from sources.records import ParseResult

from common import progress as bars
from patentfactory.store.ledger import Ledger
from patentfactory.store.rawcache import RawCache
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
from patentfactory.stages.memory import within_budget

log = logging.getLogger(__name__)
ParseFn = Callable[[Path], Iterable[ParseResult]]


def _bump(counts: dict[str, int], key: str, n: int = 1) -> None:
    counts[key] = counts.get(key, 0) + n


@dataclass
class IngestStats:
    """`skipped`: files already ingested; `not_patents`: documents of a file that are no patent (a weekly file's
    sequence listings), by kind; `flags`: records that kept a secondary field raw, by field (`publications.flags`)."""

    source: str
    files: int = 0
    skipped: int = 0
    failed: int = 0
    records: dict[str, int] = field(default_factory=dict)
    rejects: int = 0
    unreadable: list[str] = field(default_factory=list)  # files that failed or gave rejects only
    not_patents: dict[str, int] = field(default_factory=dict)
    flags: dict[str, int] = field(default_factory=dict)

    def add(self, table: str, n: int) -> None:
        _bump(self.records, table, n)

    def see(self, result: ParseResult) -> ParseResult:
        """Count a batch's skipped documents and flagged records (rows and rejects are counted where written)."""
        for kind, n in result.skipped.items():
            _bump(self.not_patents, kind, n)
        for row in result.rows.get("publications", ()):
            for flag in row.get("flags") or ():
                _bump(self.flags, flag)
        return result

    def merge(self, part: dict) -> None:
        """Add another file's stats (`asdict` form; parts written before these counts existed add none)."""
        self.files += part["files"]
        self.skipped += part["skipped"]
        self.failed += part["failed"]
        self.rejects += part["rejects"]
        self.unreadable += part.get("unreadable", [])
        for table, n in part["records"].items():
            self.add(table, n)
        for key, into in (("not_patents", self.not_patents), ("flags", self.flags)):
            for name, n in (part.get(key) or {}).items():
                _bump(into, name, n)

    def notes(self) -> list[str]:
        """What a reader of the counts should look at besides rejects: documents skipped and fields kept raw."""
        out = []
        if self.not_patents:
            out.append("not patents, skipped: " + ", ".join(f"{k} {v:,}" for k, v in sorted(self.not_patents.items())))
        if self.flags:
            out.append("records keeping a field raw (publications.flags): "
                       + ", ".join(f"{k} {v:,}" for k, v in sorted(self.flags.items())))
        return out


@dataclass
class Stores:
    """The three stores an ingest touches, all under one data root (local or S3)."""

    warehouse: Warehouse
    ledger: Ledger
    cache: RawCache

    @classmethod
    def at(cls, warehouse: Storage, raw: Storage) -> "Stores":
        return cls(Warehouse(warehouse), Ledger(warehouse), RawCache(raw))


def bar_label(source: str) -> str:
    """The progress bar a source's files count on."""
    return {"uspto_bulk": "weekly files", "lens": "Lens exports"}.get(source, f"{source} files")


def ingest_file(stores: Stores, source: str, path: Path, parse: ParseFn, parser_version: str,
                stats: IngestStats) -> None:
    """Raw cache, warehouse parts and ledger row of one upstream file (one `<source> files` bar step)."""
    try:
        _ingest_file(stores, source, path, parse, parser_version, stats)
    finally:
        bars.advance(bar_label(source))


@within_budget("ingest-file")
def _ingest_file(stores: Stores, source: str, path: Path, parse: ParseFn, parser_version: str,
                 stats: IngestStats) -> None:
    item = path.name
    stats.files += 1
    try:
        raw = stores.cache.put_file(source, path)
    except OSError as exc:  # an unreadable file is one failed file, like an unparsable one
        _record_failure(stores, source, item, OSError(f"cannot read {path}: {exc}"), stats, 0)
        return
    stores.ledger.record_fetch(source, item, raw.sha256, raw.bytes)
    if not stores.ledger.needs_parse(source, item, raw.sha256, parser_version):
        stats.skipped += 1
        done = stores.ledger.get(source, item) or {}
        if done.get("n_rejects") and not done.get("n_records"):
            stats.unreadable.append(f"{item}: {done['n_rejects']} reject(s), no record (ingested before)")
        log.info("%s: %s already parsed (sha256 %s…), skipped", source, item, raw.sha256[:12])
        return
    stores.warehouse.drop_item(item)
    n_rec = n_rej = n_rows = 0
    try:
        for i, result in enumerate(parse(path)):
            stats.see(result)
            tables = result.to_arrow()
            stores.warehouse.write_item_parts(item, f"{i:05d}", tables)
            for table, arrow in tables.items():
                if table == "rejects":
                    n_rej += arrow.num_rows
                else:
                    stats.add(table, arrow.num_rows)
                    n_rows += arrow.num_rows
                    n_rec += arrow.num_rows if table == "publications" else 0
    except Exception as exc:  # noqa: BLE001 - any failure of one file is recorded, the run goes on
        _record_failure(stores, source, item, exc, stats, n_rej)
        return
    stats.rejects += n_rej
    if n_rej and not n_rows:
        stats.unreadable.append(f"{item}: {n_rej} reject(s), no record")
    stores.ledger.record_parse(source, item, parser_version, n_rec, n_rej)
    log.info("%s: %s -> %d publications, %d rejects", source, item, n_rec, n_rej)


def _record_failure(stores: Stores, source: str, item: str, exc: Exception, stats: IngestStats, n_rej: int) -> None:
    """A file that could not be read or parsed: one `file` reject, counted, left un-parsed in the ledger."""
    stats.failed += 1
    stats.unreadable.append(f"{item}: {exc}")
    log.warning("%s: %s failed: %s", source, item, exc)
    bad = ParseResult()
    bad.reject(source, item, "file", exc)
    stores.warehouse.write_item_parts(item, "failed", {"rejects": REJECTS.from_pylist(bad.rejects)})
    stats.rejects += n_rej + 1


def ingest_files(stores: Stores, source: str, paths: Iterable[Path], parse: ParseFn, parser_version: str,
                 progress: Callable[[str], None] | None = None) -> IngestStats:
    stats = IngestStats(source)
    paths = list(paths)
    bars.expect(bar_label(source), len(paths))
    for path in paths:
        if progress:
            progress(path.name)
        ingest_file(stores, source, Path(path), parse, parser_version, stats)
    return stats
