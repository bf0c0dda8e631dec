"""Description headings with no paragraph of their own stay in the `descriptions` rows (issue #19 item 6).

A parent heading right above a sub-heading (BACKGROUND over Technical Field, EXAMPLES over
Examples 1 to 5 over its first sub-heading) has no paragraph; it is kept as a row `(heading, text=None)` in document order, so
section reconstruction downstream can still see the outline.
"""
from __future__ import annotations

from pathlib import Path

from sources.uspto_bulk import iter_documents, parse_document
from transforms.pap2pat_documents import patent_sections


def _rows(path: Path) -> list[tuple[str | None, str | None]]:
    (doc,) = list(iter_documents(path))
    result = parse_document(doc.data, path.name, 0, doc.offset)
    rows = sorted(result.rows["descriptions"], key=lambda r: r["para_no"])
    assert [r["para_no"] for r in rows] == list(range(len(rows)))
    return [(r["heading"], r["text"]) for r in rows]


def test_v4_application_keeps_parent_headings(real_samples: Path) -> None:
    rows = _rows(real_samples / "uspto-xml" / "ipa20180000016.xml")
    headings = [h for h, _ in rows]
    # CROSS-REFERENCE paragraph, then BACKGROUND (no paragraph), then the Technical Field paragraph
    assert rows[1] == ("BACKGROUND", None)
    assert headings[:3] == ["CROSS-REFERENCE TO RELATED APPLICATION", "BACKGROUND", "Technical Field"]
    assert rows[2][1] and rows[0][1]
    examples = headings.index("Examples 1 to 5")  # straight under EXAMPLES' paragraph, above its own sub-heading
    assert rows[examples] == ("Examples 1 to 5", None)
    assert headings[examples - 1] == "EXAMPLES" and rows[examples - 1][1]
    # only headings without text are empty rows; every other row keeps its paragraph text
    empty = [h for h, t in rows if t is None]
    assert len(empty) == len(set(empty)) and "SUMMARY" not in empty


def test_kept_heading_becomes_a_section_parent(real_samples: Path) -> None:
    sections = patent_sections(_rows(real_samples / "uspto-xml" / "ipa20180000016.xml"))
    titles = [s["title"] for s in sections[0]["subsections"]]
    assert "BACKGROUND" in titles
    background = sections[0]["subsections"][titles.index("BACKGROUND")]
    assert background["paragraphs"] == []
    assert [s["title"] for s in background["subsections"]][:2] == ["Technical Field", "Description of Related Art"]


def test_2001_application_keeps_example_headings(real_samples: Path) -> None:
    rows = _rows(real_samples / "uspto-xml" / "pa20010031492.xml")
    assert ("EXAMPLE 1", None) in rows
    at = rows.index(("EXAMPLE 1", None))
    assert rows[at + 1][0] != "EXAMPLE 1" and rows[at + 1][1]
