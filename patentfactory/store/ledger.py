"""The ingest ledger: per upstream item what was fetched (bytes, sha256) and whether it was parsed.

A rerun asks `needs_parse` and skips what is done; a parser-version change re-parses what it
affects. Stored as a compacted base (`ledger.parquet`) plus a log of small appended parts: each save
writes only the rows changed since the last one (`log/<time>-<id>.jsonl`), so a save costs the same at
2,250 rows as at 20, and writers in several processes (parse tasks, Dask workers) never overwrite one
another. Every `COMPACT_AFTER` (128) log parts the writer folds the log into the base. Inside `batch()` a save
happens every N changes or T seconds; a kill inside a batch loses at most those rows: their items are
simply fetched again (warehouse parts are named by item, so nothing is duplicated).
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

import pyarrow as pa

from schemas import INGEST_LEDGER, validate

from .parquet_io import parquet_bytes, read_parquet_bytes
from .storage import Storage

LEDGER_FILE = "ingest_ledger/ledger.parquet"
LOG_DIR = "ingest_ledger/log"
COMPACT_AFTER = 128  # log parts; a compaction rewrites the base once per this many saves


def _now(at: datetime | None = None) -> str:
    return (at or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(microsecond=0).isoformat()


def read_state(storage: Storage) -> tuple[dict[tuple[str, str], dict], list[str]]:
    """(rows by (source, item), the log parts folded in): the base, then the log in name (= time) order.

    The log is listed before the base is read: a compaction by another writer in between has folded
    the parts listed into the base, and a part it deleted meanwhile is skipped."""
    storage.fs.invalidate_cache(storage.path(LOG_DIR))  # S3: other processes' parts, not a cached listing
    names = [n for n in storage.ls(LOG_DIR) if n.endswith(".jsonl")]
    rows: dict[tuple[str, str], dict] = {}
    if storage.exists(LEDGER_FILE):
        for row in read_parquet_bytes(storage.read_bytes(LEDGER_FILE)).to_pylist():
            rows[(row["source"], row["item"])] = row
    strip = storage.fs._strip_protocol
    paths = [strip(storage.path(f"{LOG_DIR}/{name}")) for name in names]
    got = {strip(k): v for k, v in (storage.fs.cat(paths, on_error="omit") if paths else {}).items()}  # S3: concurrent GETs
    for path in paths:
        if path not in got:
            continue
        for line in got[path].decode("utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                rows[(row["source"], row["item"])] = row
    return rows, names


class Ledger:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._lock = threading.Lock()
        self._batch: tuple[int, float] | None = None  # (every n changes, every t seconds) inside batch()
        self._pending, self._saved_at = 0, time.monotonic()
        self._dirty: set[tuple[str, str]] = set()
        self._rows, names = read_state(storage)
        self._log_parts = len(names)

    def get(self, source: str, item: str) -> dict | None:
        row = self._rows.get((source, item))
        return dict(row) if row else None

    def items(self, source: str | None = None) -> list[dict]:
        return [dict(r) for k, r in sorted(self._rows.items()) if source is None or k[0] == source]

    def needs_parse(self, source: str, item: str, sha256: str | None, parser_version: str) -> bool:
        """True unless the item was parsed from the same bytes by the same parser version."""
        row = self._rows.get((source, item))
        if not row or not row.get("parsed_at"):
            return True
        if sha256 is not None and row.get("sha256") != sha256:
            return True
        return row.get("parser_version") != parser_version

    def record_fetch(self, source: str, item: str, sha256: str, nbytes: int) -> None:
        with self._lock:
            old = self._rows.get((source, item), {})
            changed = old.get("sha256") != sha256
            self._rows[(source, item)] = {
                "source": source, "item": item, "sha256": sha256, "bytes": nbytes, "fetched_at": _now(),
                "parsed_at": None if changed else old.get("parsed_at"),
                "parser_version": None if changed else old.get("parser_version"),
                "n_records": None if changed else old.get("n_records"),
                "n_rejects": None if changed else old.get("n_rejects"),
                "not_found_at": None,
            }
            self._save((source, item))

    def record_parse(self, source: str, item: str, parser_version: str, n_records: int, n_rejects: int) -> None:
        with self._lock:
            row = self._rows.setdefault((source, item), {"source": source, "item": item, "sha256": None,
                                                         "bytes": None, "fetched_at": None})
            row.update(parsed_at=_now(), parser_version=parser_version, n_records=n_records, n_rejects=n_rejects)
            self._save((source, item))

    def record_not_found(self, source: str, item: str, at: datetime | None = None) -> None:
        """The upstream answered 404 for `item` (at `at`, default now); bytes fetched before stay recorded."""
        with self._lock:
            row = self._rows.setdefault((source, item), {"source": source, "item": item})
            row["not_found_at"] = _now(at)
            self._save((source, item))

    def known_missing(self, source: str, item: str, recheck_after: timedelta, now: datetime | None = None) -> bool:
        """True while a 404 for `item` is younger than `recheck_after`: do not ask the upstream again yet."""
        row = self._rows.get((source, item))
        if not row or not row.get("not_found_at") or row.get("sha256"):
            return False
        return (now or datetime.now(timezone.utc)) - datetime.fromisoformat(row["not_found_at"]) < recheck_after

    def snapshot(self, sources: list[str] | None = None) -> list[dict]:
        """Input snapshot for a manifest: item + sha256 (+ parser version), timestamps left out; items only
        known as 404s were no input and are left out too."""
        return [{"source": r["source"], "item": r["item"], "sha256": r["sha256"], "parser_version": r["parser_version"]}
                for r in self.items() if (sources is None or r["source"] in sources)
                and not (r.get("not_found_at") and not r.get("sha256") and not r.get("parsed_at"))]

    @contextmanager
    def batch(self, every: int = 500, seconds: float = 30.0) -> Iterator["Ledger"]:
        """Save every `every` changes or `seconds`, and once at the end (also on error)."""
        outer, self._batch = self._batch, (every, seconds)
        try:
            yield self
        finally:
            self._batch = outer
            with self._lock:
                if self._pending:
                    self._flush()

    def compact(self) -> None:
        """Fold the log into the base: read what is on disk (other writers' parts included), write the base,
        delete the parts folded in. The rows held in memory are refreshed from it."""
        with self._lock:
            self._flush(compact=False)
            self._compact()

    def _compact(self) -> None:
        rows, names = read_state(self.storage)
        table = validate(pa.Table.from_pylist([_full(rows[k]) for k in sorted(rows)],
                                              schema=INGEST_LEDGER.schema), INGEST_LEDGER)
        self.storage.write_bytes(LEDGER_FILE, parquet_bytes(table).data)
        for name in names:
            self.storage.rm(f"{LOG_DIR}/{name}")
        self._rows, self._log_parts = rows, 0

    def _save(self, key: tuple[str, str]) -> None:
        self._dirty.add(key)
        if self._batch is not None:
            self._pending += 1
            every, seconds = self._batch
            if self._pending < every and time.monotonic() - self._saved_at < seconds:
                return
        self._flush()

    def _flush(self, compact: bool = True) -> None:
        if self._dirty:
            self._write()
        self._pending, self._saved_at = 0, time.monotonic()
        if compact and self._log_parts >= COMPACT_AFTER:
            self._compact()

    def _write(self) -> None:
        """Append the rows changed since the last save as one log part."""
        rows = [_full(self._rows[k]) for k in sorted(self._dirty)]
        validate(pa.Table.from_pylist(rows, schema=INGEST_LEDGER.schema), INGEST_LEDGER)
        name = f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.jsonl"
        self.storage.write_text(f"{LOG_DIR}/{name}", "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
        self._dirty.clear()
        self._log_parts += 1


def _full(row: dict) -> dict:
    return {name: row.get(name) for name in INGEST_LEDGER.schema.names}
