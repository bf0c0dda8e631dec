"""Grow a generated world by one night's worth of new upstream items, in the real formats.

A live nightly's incremental path needs "something new upstream" to test against: one new USPTO weekly file,
one new PTAB decision (record + PDF) and one new Lens export, all dated `day`. The world is rebuilt from its
`world.json` (same scale and seed => same world) and the generator's own renderers write the items, so the
bytes are what the parsers see from the real services. Same world + same day => byte-identical additions.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

from .numbering import day as day_number
from .renderers._xml import write_zip
from .renderers.lens import dumps, record as lens_record
from .renderers.ptab import caption_lines, compose, cover_lines, decision_pdf, record as ptab_record
from .renderers.uspto import document
from .generate import spec_from_json
from .world import World, build_world


@dataclass(frozen=True)
class Additions:
    weekly_file: Path
    ptab_record: Path
    ptab_pdf: Path
    lens_export: Path


def load_world(world_dir: Path) -> World:
    doc = json.loads((Path(world_dir) / "world.json").read_text(encoding="utf-8"))
    return build_world(spec_from_json(doc))


def _unrendered_grants(world: World, n: int) -> list[int]:
    """The newest US grants before the render window: real documents the served world does not have yet."""
    pubs, (lo, _hi) = world.pubs, world.spec.window
    sel = np.flatnonzero((pubs["cc"] == "US") & (pubs["kind"] != "A1") & (pubs["date"] < lo))
    return [int(p) for p in sel[np.argsort(pubs["date"][sel], kind="stable")][-n:]]


def add_weekly_file(world: World, out: Path, on: date, n_docs: int = 3) -> Path:
    stem = f"ipg{on:%y%m%d}"
    payload = "".join(document(world, p) for p in _unrendered_grants(world, n_docs)).encode("utf-8")
    return write_zip(out / "uspto" / "PTGRXML" / f"{stem}.zip", f"{stem}.xml", payload, day_number(on.isoformat()))


def add_ptab_decision(world: World, out: Path, on: date) -> tuple[Path, Path]:
    """A new decision on an existing appeal's application, issued `on` (new decision id and appeal number)."""
    base = sorted(world.ptab, key=lambda x: x["decision_id"])[0]
    tag = hashlib.sha256(f"{base['decision_id']}:{on}".encode()).hexdigest()
    a = {**base, "decision_id": tag[:16], "appeal_number": f"{on.year}{int(tag[16:22], 16) % 1000000:06d}",
         "decision_date": day_number(on.isoformat())}
    doc = compose(world, a)
    cover = cover_lines(world, a, ptab_record(world, a, 0, "")) if a["standard_cover"] else []
    data = decision_pdf(cover, caption_lines(a), doc, a, False)
    rec = ptab_record(world, a, len(data), ("\n".join(cover or caption_lines(a)))[:600] + " ...")
    pdf = out / "ptab" / "pdfs" / f"{rec['documentData']['documentIdentifier']}.pdf"
    pdf.write_bytes(data)
    path = out / "ptab" / "records" / f"added-{on}.json"
    path.write_text(json.dumps(rec, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return path, pdf


def add_lens_export(world: World, out: Path, on: date, n_records: int = 3) -> Path:
    """A small export of the grants the new weekly file carries (what a team's next Lens query returns)."""
    path = out / "lens" / f"lens-export-{on}.jsonl"
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for p in _unrendered_grants(world, n_records):
            fh.write(dumps(lens_record(world, p, world.members(int(world.pubs["inv"][p])))))
    return path


def add_night(world_dir: Path, on: date) -> Additions:
    """One new weekly file, one new PTAB decision and one new Lens export, dated `on`, into `world_dir`."""
    world, out = load_world(world_dir), Path(world_dir)
    rec, pdf = add_ptab_decision(world, out, on)
    return Additions(add_weekly_file(world, out, on), rec, pdf, add_lens_export(world, out, on))
