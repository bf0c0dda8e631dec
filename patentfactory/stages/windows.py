"""Incremental windows for the live nightly, read from the ingest ledger (no separate cursor file).

Each source's window starts where its last successful ingest ended: USPTO at the data date of the newest
parsed weekly file (the name carries it, e.g. ipg240102.zip), PTAB at the end of the newest parsed search
window, minus a look-back (PF_PTAB_LOOKBACK_DAYS, default 30; PF_USPTO_LOOKBACK_DAYS, default 14): a decision
posted after the night that covered its date is listed again the next night and fetched then, while what the
ledger already holds (a decision's PDF, a weekly file of the same size) is skipped, so the overlap costs
listings only. The first run starts at `PF_SINCE` or the SPEC's default for that source. OPS documents and
SemOpenAlex look-ups need no window: each document / query is cached under its ledger item, so a rerun
asks only for what is new. Lens exports are keyed by sha256: a file whose bytes the ledger has is skipped.
A Lens delivery is ordered by when it was delivered (the drop's modification time), never by its file name:
its ledger item and warehouse parts are named `lens_<delivered>_<name>.<sha12><suffix>`, so the newest
delivery's rows win for a publication two deliveries carry (a corrected re-delivery replaces the old rows).
"""
from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path, PurePosixPath

from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage

log = logging.getLogger(__name__)
# SPEC: USPTO full text from 2005, PTAB decisions from 2006 (the ODP appeals API's start).
DEFAULT_SINCE = {"uspto_bulk": date(2005, 1, 1), "ptab_odp": date(2006, 1, 1)}
DEFAULT_LOOKBACK_DAYS = {"uspto_bulk": 14, "ptab_odp": 30}  # the settings' defaults (config.Settings)
LENS_SUFFIXES = (".jsonl", ".json", ".csv")
_WEEKLY = re.compile(r"(\d{6})(?:_[a-z]+\d*)?\.zip$")
_PTAB_ITEM = re.compile(r"search_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})_\d+\.json$")


@dataclass(frozen=True)
class Window:
    source: str
    start: date
    end: date
    first_run: bool
    lookback_days: int = 0

    def describe(self) -> str:
        kind = ("first run" if self.first_run else
                f"since the last ingest, {self.lookback_days} days of look-back" if self.lookback_days
                else "since the last ingest")
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


def window(ledger: Ledger, source: str, today: date, since: date | None = None,
           lookback_days: int | None = None) -> Window:
    """The next window of `source` (uspto_bulk | ptab_odp): from the last parsed end (+1 day) minus the
    look-back (default DEFAULT_LOOKBACK_DAYS) to today, never before the first run's start."""
    last = _last_end(ledger, source)
    first = since or DEFAULT_SINCE[source]
    if last is None:
        return Window(source, first, today, True)
    back = DEFAULT_LOOKBACK_DAYS[source] if lookback_days is None else lookback_days
    start = min(last + timedelta(days=1), today) - timedelta(days=back)
    return Window(source, max(start, first), today, False, back)


@dataclass(frozen=True)
class DropFile:
    rel: str
    size: int
    sha256: str | None  # None when only listed (plan), not read
    delivered: float = 0.0  # the drop's modification time (POSIX seconds)

    @property
    def stamp(self) -> str:
        return datetime.fromtimestamp(self.delivered, timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def lens_drop(location: str) -> Storage:
    return Storage(location)


def list_lens_drop(location: str) -> list[DropFile]:
    """Export files in the drop (local folder or s3:// prefix) in delivery order (modification time, then
    name), sizes and times from the listing, nothing read."""
    drop = lens_drop(location)
    names = [n for n in drop.glob("**/*") if n.lower().endswith(LENS_SUFFIXES)]
    files = [DropFile(n, drop.size(n), None, drop.modified(n)) for n in names]
    return sorted(files, key=lambda f: (f.delivered, f.rel))


def ingested_lens_hashes(ledger: Ledger) -> set[str]:
    return {r["sha256"] for r in ledger.items("lens") if r.get("parsed_at") and r.get("sha256")}


def new_lens_exports(location: str, ledger: Ledger, dest: Path) -> list[Path]:
    """The drop's files whose sha256 the ledger has not parsed, copied to `dest` (local) for the parser, in
    delivery order, each named after its delivery time (see the module's note)."""
    drop, seen, fresh = lens_drop(location), ingested_lens_hashes(ledger), []
    for f in list_lens_drop(location):
        data = drop.read_bytes(f.rel)
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        flat = PurePosixPath(f.rel.replace("/", "__"))
        # ledger item, one per content; within one delivery a JSONL export (the API's, with language and
        # families) sorts after the CSV of the same records, so its rows are the ones the warehouse keeps
        rank = "1" if flat.suffix.lower() in (".jsonl", ".json") else "0"
        path = dest / f"lens_{f.stamp}_{flat.stem}.{rank}{digest[:12]}{flat.suffix}"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        fresh.append(path)
    log.info("lens drop %s: %d new export file(s)", location, len(fresh))
    return fresh
