"""The ingest ledger: per upstream item what was fetched (bytes, sha256) and whether it was parsed.

A rerun asks `needs_parse` and skips what is done; a parser-version change re-parses what it
affects. Stored as one Parquet file rewritten atomically after each change, or, inside `batch()`,
after every N changes or T seconds: a 66k-document OPS fetch would otherwise rewrite the whole
file 132k times. A kill inside a batch loses at most those rows; their items are simply fetched
again (warehouse parts are named by item, so nothing is duplicated).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

import pyarrow as pa

from schemas import INGEST_LEDGER, validate

from .parquet_io import parquet_bytes, read_parquet_bytes
from .storage import Storage

LEDGER_FILE = "ingest_ledger/ledger.parquet"


def _now(at: datetime | None = None) -> str:
    return (at or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(microsecond=0).isoformat()


class Ledger:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._lock = threading.Lock()
        self._rows: dict[tuple[str, str], dict] = {}
        self._batch: tuple[int, float] | None = None  # (every n changes, every t seconds) inside batch()
        self._pending, self._saved_at = 0, time.monotonic()
        if storage.exists(LEDGER_FILE):
            for row in read_parquet_bytes(storage.read_bytes(LEDGER_FILE)).to_pylist():
                self._rows[(row["source"], row["item"])] = row

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
            self._save()

    def record_parse(self, source: str, item: str, parser_version: str, n_records: int, n_rejects: int) -> None:
        with self._lock:
            row = self._rows.setdefault((source, item), {"source": source, "item": item, "sha256": None,
                                                         "bytes": None, "fetched_at": None})
            row.update(parsed_at=_now(), parser_version=parser_version, n_records=n_records, n_rejects=n_rejects)
            self._save()

    def record_not_found(self, source: str, item: str, at: datetime | None = None) -> None:
        """The upstream answered 404 for `item` (at `at`, default now); bytes fetched before stay recorded."""
        with self._lock:
            row = self._rows.setdefault((source, item), {"source": source, "item": item})
            row["not_found_at"] = _now(at)
            self._save()

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
                    self._save()

    def _save(self) -> None:
        if self._batch is not None:
            self._pending += 1
            every, seconds = self._batch
            if self._pending < every and time.monotonic() - self._saved_at < seconds:
                return
        self._write()
        self._pending, self._saved_at = 0, time.monotonic()

    def _write(self) -> None:
        rows = [self._rows[k] for k in sorted(self._rows)]
        table = validate(pa.Table.from_pylist(rows, schema=INGEST_LEDGER.schema), INGEST_LEDGER)
        self.storage.write_bytes(LEDGER_FILE, parquet_bytes(table).data)
