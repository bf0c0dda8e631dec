"""The released Pap2Pat dataset (boschresearch/Pap2Pat, `Pap2Pat/data/<W…-US…>/`) read as records.

Each pair folder holds `patent.json` (inventors as printed, title, filing date, abstract, sections with the
released outlines, claims), `paper.json` (authors, title, date, abstract, sections) and the markdown files.
`read_release` turns a folder of such pairs into the rows our matcher and outline code read: patents as
`publications`-like rows (inventors as {name}), papers as `papers`-like rows (authors without SemOpenAlex ids or
alternative names, which the release does not carry; licence `cc-by`, since every released pair is licensed).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

OUTLINE_LEVELS = ("long", "medium", "short", "empty")


@dataclass
class ReleasedPair:
    pair_id: str
    work_id: str
    pub_id: str
    patent: dict
    paper: dict
    outlines: dict[str, str] = field(default_factory=dict)


def _date(text: str | None) -> date | None:
    return date.fromisoformat(text[:10]) if text else None


def list_pairs(folder: str | Path) -> list[Path]:
    """Pair folders (those with a patent.json and a paper.json), sorted by name."""
    return sorted(p for p in Path(folder).iterdir() if (p / "patent.json").is_file() and (p / "paper.json").is_file())


def read_pair(path: Path, outlines: bool = True) -> ReleasedPair:
    patent = json.loads((path / "patent.json").read_text(encoding="utf-8"))
    paper = json.loads((path / "paper.json").read_text(encoding="utf-8"))
    work_id, _, pub_id = path.name.partition("-")
    texts = {lv: (path / f"patent_outline_{lv}.md").read_text(encoding="utf-8") for lv in OUTLINE_LEVELS
             if outlines and (path / f"patent_outline_{lv}.md").is_file()}
    return ReleasedPair(path.name, work_id, pub_id, patent, paper, texts)


def read_release(folder: str | Path, limit: int | None = None, outlines: bool = True) -> list[ReleasedPair]:
    """Every released pair under `folder` (the first `limit` when given)."""
    return [read_pair(p, outlines) for p in list_pairs(folder)[:limit]]


def patent_rows(pairs: list[ReleasedPair]) -> list[dict]:
    """(pub_id, app_date, title, abstract, inventors[{name, first, last}]) per released patent."""
    return [{"pub_id": p.pub_id, "app_date": _date(p.patent.get("date")), "title": p.patent.get("title") or "",
             "abstract": p.patent.get("abstract") or "",
             "inventors": [{"name": n, "first": None, "last": None} for n in p.patent.get("authors") or []]}
            for p in pairs]


def paper_rows(pairs: list[ReleasedPair], licence: str = "cc-by") -> list[dict]:
    """(work_id, pub_date, title, abstract, license, authors[{id, name, alt_names}]) per released paper."""
    return [{"work_id": p.work_id, "pub_date": _date(p.paper.get("date")), "title": p.paper.get("title") or "",
             "abstract": p.paper.get("abstract") or "", "license": licence,
             "authors": [{"id": f"{p.work_id}/a{k}", "name": n, "alt_names": []}
                         for k, n in enumerate(p.paper.get("authors") or [])]}
            for p in pairs]
