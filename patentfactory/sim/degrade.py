"""Degraded copies of a world, shaped like real upstream regressions, to rehearse the quality gate.

Real exports go wrong quietly: a field comes back empty for most records, a classification scheme loses
a section, a text column is cut to a fixed width. `degrade_world` copies a world folder and rewrites its
Lens exports (JSONL and CSV) in their own format with one such change; the choice of record is a hash of
its id, so the same call gives the same bytes.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path

DEGRADATIONS = ("empty_abstracts", "drop_ipc_section", "truncate_titles")


def _picked(key: str, rate: float) -> bool:
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < rate


def _jsonl_record(kind: str, rec: dict, rate: float, section: str, width: int) -> dict:
    biblio = rec.get("biblio", {})
    if kind == "empty_abstracts" and _picked(str(rec.get("lens_id")), rate):
        rec["abstract"] = [{**a, "text": ""} for a in rec.get("abstract") or []]
    elif kind == "drop_ipc_section":
        for scheme in ("classifications_ipcr", "classifications_cpc"):
            block = biblio.get(scheme) or {}
            block["classifications"] = [c for c in block.get("classifications", [])
                                        if not str(c.get("symbol", "")).startswith(section)]
    elif kind == "truncate_titles":
        biblio["invention_title"] = [{**t, "text": t.get("text", "")[:width]} for t in biblio.get("invention_title", [])]
    return rec


def _csv_row(kind: str, row: dict, rate: float, section: str, width: int) -> dict:
    def col(*names: str) -> str | None:
        return next((n for n in names if n in row), None)

    if kind == "empty_abstracts" and (c := col("Abstract")) and _picked(str(row.get(col("Lens ID") or "", "")), rate):
        row[c] = ""
    elif kind == "drop_ipc_section":
        for c in [k for k in row if "IPC" in k or "CPC" in k]:
            row[c] = ";;".join(s for s in (row[c] or "").split(";;") if s and not s.strip().startswith(section))
    elif kind == "truncate_titles" and (c := col("Title")):
        row[c] = (row[c] or "")[:width]
    return row


def _rewrite_jsonl(path: Path, edit: Callable[[dict], dict]) -> None:
    lines = [json.dumps(edit(json.loads(line)), ensure_ascii=False, separators=(",", ":"))
             for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _rewrite_csv(path: Path, edit: Callable[[dict], dict]) -> None:
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames or [], [edit(r) for r in reader]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields)
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


def degrade_world(world: Path, out: Path, kind: str, rate: float = 0.8, section: str = "H", width: int = 10) -> Path:
    """Copy `world` to `out` with one degradation applied to its Lens exports; returns `out`.

    kind: `empty_abstracts` (abstract text emptied in `rate` of the records), `drop_ipc_section` (every IPC
    and CPC symbol of `section` removed), `truncate_titles` (titles cut to `width` characters).
    """
    if kind not in DEGRADATIONS:
        raise ValueError(f"unknown degradation {kind!r}; one of {', '.join(DEGRADATIONS)}")
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(world, out)
    for path in sorted((out / "lens").glob("*.jsonl")):
        _rewrite_jsonl(path, lambda rec: _jsonl_record(kind, rec, rate, section, width))
    for path in sorted((out / "lens").glob("*.csv")):
        _rewrite_csv(path, lambda row: _csv_row(kind, row, rate, section, width))
    return out
