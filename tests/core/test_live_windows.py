"""The live nightly's inputs lose nothing late (issue 32): PTAB and USPTO windows re-read a look-back and
the ledger dedupes; Lens deliveries are ordered by delivery time, never by file name."""
from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path

import polars as pl

from flows.nightly import SAMPLE_WORLD
from patentfactory.config import Settings
from patentfactory.stages.ingest_files import ingest_lens, stores_for
from patentfactory.stages.windows import new_lens_exports, window
from patentfactory.store.lens_items import export_name
from patentfactory.store.ledger import Ledger
from patentfactory.store.publish import deliveries_section
from patentfactory.store.storage import Storage


def _ledger_with(tmp_path: Path, source: str, item: str) -> Ledger:
    ledger = Ledger(Storage(tmp_path / "warehouse"))
    ledger.record_fetch(source, item, "0" * 64, 10)
    ledger.record_parse(source, item, "v1", 1, 0)
    return ledger


def test_ptab_window_reads_back_the_look_back_period(tmp_path: Path, monkeypatch):
    ledger = _ledger_with(tmp_path, "ptab_odp", "search_2006-01-01_2026-11-25_0000000.json")
    today = date(2026, 11, 26)
    monkeypatch.delenv("PF_PTAB_LOOKBACK_DAYS", raising=False)
    w = window(ledger, "ptab_odp", today, None, Settings.load().lookback_days("ptab_odp"))
    assert (w.start, w.end, w.first_run) == (date(2026, 10, 27), today, False)  # 2026-11-26 - 30 days
    assert "30 days of look-back" in w.describe()
    monkeypatch.setenv("PF_PTAB_LOOKBACK_DAYS", "45")
    assert window(ledger, "ptab_odp", today, None, Settings.load().lookback_days("ptab_odp")).start == date(2026, 10, 12)
    assert window(ledger, "ptab_odp", today, None, 0).start == today, "no look-back: the old behaviour"
    assert window(ledger, "ptab_odp", today, date(2026, 11, 20), 30).start == date(2026, 11, 20), "never before PF_SINCE"
    first = window(Ledger(Storage(tmp_path / "empty")), "ptab_odp", today)
    assert first.first_run and first.start == date(2006, 1, 1)


def test_uspto_window_reads_back_two_weeks_by_default(tmp_path: Path):
    ledger = _ledger_with(tmp_path, "uspto_bulk", "ipg261117.zip")
    assert window(ledger, "uspto_bulk", date(2026, 11, 25)).start == date(2026, 11, 4)  # 11-18 - 14 days


def _export(path: Path, records: list[dict], mtime: float) -> None:
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records), encoding="utf-8")
    os.utime(path, (mtime, mtime))


def test_a_later_delivery_wins_whatever_its_name(tmp_path: Path):
    """`lens-export-2026-11-25.jsonl` (a corrected re-delivery) sorts before `lens-export.jsonl` by name; it was
    delivered later, so its rows are the ones the warehouse gives, and the card names it as the newest."""
    lines = (SAMPLE_WORLD / "lens" / "lens-export.jsonl").read_text(encoding="utf-8").splitlines()[:20]
    old = [json.loads(ln) for ln in lines]
    fixed = json.loads(json.dumps(old))
    for rec in fixed:
        for t in rec["biblio"]["invention_title"]:
            t["text"] = "Corrected " + t["text"]
    drop, data = tmp_path / "drop", tmp_path / "data"
    drop.mkdir()
    _export(drop / "lens-export.jsonl", old, 1_764_000_000)                 # delivered first
    _export(drop / "lens-export-2026-11-25.jsonl", fixed, 1_764_086_400)    # a day later
    ledger = Ledger(Storage(data / "warehouse"))
    paths = new_lens_exports(str(drop), ledger, data / "downloads" / "lens")
    assert [export_name(p.name) for p in paths] == ["lens-export.jsonl", "lens-export-2026-11-25.jsonl"]
    assert [p.name.split("_")[1] for p in paths] == ["20251124T160000Z", "20251125T160000Z"]
    ingest_lens(data, paths)
    titles = stores_for(data).warehouse.frame("publications").filter(
        pl.col("source") == "lens")["title"].to_list()
    assert len(titles) == len(old) and all(t.startswith("Corrected ") for t in titles), titles[:3]
    section = deliveries_section(Ledger(Storage(data / "warehouse")).snapshot())
    assert "Newest: `lens-export-2026-11-25.jsonl` (2025-11-25 16:00:00 UTC)" in section
    again = new_lens_exports(str(drop), Ledger(Storage(data / "warehouse")), data / "downloads" / "lens")
    assert again == [], "the ledger has both deliveries' bytes"
