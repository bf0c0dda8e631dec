"""Incremental windows for the live nightly, read from the ingest ledger (no separate cursor file).

Each source's window starts where its last successful ingest ended: USPTO at the data date of the newest
parsed weekly file (the name carries it, e.g. ipg240102.zip), PTAB at the end of the newest parsed search
window; the first run starts at `PF_SINCE` or the SPEC's default for that source. OPS documents and
SemOpenAlex look-ups need no window: each document / query is cached under its ledger item, so a rerun
asks only for what is new. Lens exports are keyed by sha256: a file whose bytes the ledger has is skipped.
"""
from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path, PurePosixPath

from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage

log = logging.getLogger(__name__)
# SPEC: USPTO full text from 2005, PTAB decisions from 2006 (the ODP appeals API's start).
DEFAULT_SINCE = {"uspto_bulk": date(2005, 1, 1), "ptab_odp": date(2006, 1, 1)}
LENS_SUFFIXES = (".jsonl", ".json", ".csv")
_WEEKLY = re.compile(r"(\d{6})(?:_[a-z]+\d*)?\.zip$")
_PTAB_ITEM = re.compile(r"search_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})_\d+\.json$")


@dataclass(frozen=True)
class Window:
    source: str
    start: date
    end: date
    first_run: bool

    def describe(self) -> str:
        kind = "first run" if self.first_run else "since the last ingest"
        return f"{self.source}: {self.start}..{self.end} ({kind})"


def weekly_file_date(name: str) -> date | None:
    """The data date in a USPTO weekly file name (ipgYYMMDD.zip, ipaYYMMDD.zip), None if there is none."""
    m = _WEEKLY.search(name)
    if not m:
        return None
    yy, mm, dd = int(m.group(1)[:2]), int(m.group(1)[2:4]), int(m.group(1)[4:])
    try:
        return date(2000 + yy if yy < 70 else 1900 + yy, mm, dd)
    except ValueError:
        return None


def _last_end(ledger: Ledger, source: str) -> date | None:
    ends: list[date] = []
    for row in ledger.items(source):
        if not row.get("parsed_at"):
            continue
        if source == "uspto_bulk":
            d = weekly_file_date(row["item"])
        else:
            m = _PTAB_ITEM.match(row["item"])
            d = date.fromisoformat(m.group(2)) if m else None
        if d is not None:
            ends.append(d)
    return max(ends) if ends else None


def window(ledger: Ledger, source: str, today: date, since: date | None = None) -> Window:
    """The next window of `source` (uspto_bulk | ptab_odp): from the last parsed end (+1 day) to today."""
    last = _last_end(ledger, source)
    if last is None:
        return Window(source, since or DEFAULT_SINCE[source], today, True)
    return Window(source, min(last + timedelta(days=1), today), today, False)


@dataclass(frozen=True)
class DropFile:
    rel: str
    size: int
    sha256: str | None  # None when only listed (plan), not read


def lens_drop(location: str) -> Storage:
    return Storage(location)


def list_lens_drop(location: str) -> list[DropFile]:
    """Export files in the drop (local folder or s3:// prefix), sizes from the listing, nothing read."""
    drop = lens_drop(location)
    names = sorted(n for n in drop.glob("**/*") if n.lower().endswith(LENS_SUFFIXES))
    return [DropFile(n, drop.size(n), None) for n in names]


def export_name(item: str) -> str:
    """The drop's file name of a ledger item `<stem>.<sha12><suffix>` (the copy's name, see new_lens_exports)."""
    stem, _, rest = item.rpartition(".")
    return f"{stem.rpartition('.')[0]}.{rest}" if "." in stem else item


def ingested_lens_hashes(ledger: Ledger) -> set[str]:
    return {r["sha256"] for r in ledger.items("lens") if r.get("parsed_at") and r.get("sha256")}


def new_lens_exports(location: str, ledger: Ledger, dest: Path) -> list[Path]:
    """The drop's files whose sha256 the ledger has not parsed, copied to `dest` (local) for the parser."""
    drop, seen, fresh = lens_drop(location), ingested_lens_hashes(ledger), []
    for f in list_lens_drop(location):
        data = drop.read_bytes(f.rel)
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        flat = PurePosixPath(f.rel.replace("/", "__"))
        path = dest / f"{flat.stem}.{digest[:12]}{flat.suffix}"  # ledger item: one per content
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        fresh.append(path)
    log.info("lens drop %s: %d new export file(s)", location, len(fresh))
    return fresh
