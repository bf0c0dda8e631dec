"""The cover sheet of a PTAB decision (form PTOL-90A and its bibliographic fields): recognised and removed.

Pure text, used where the text is extracted (sources/ptab_pdf.py) and where a decision's text is read again
(transforms/tasks/pilot.py), so both cut at the same place.
"""
from __future__ import annotations

import re

_BIB_LINE = re.compile(r"^(APPLICATION NO\.|FILING DATE|FIRST NAMED INVENTOR|ATTORNEY DOCKET|CONFIRMATION NO\.|"
                      r"EXAMINER|ART UNIT|PAPER NUMBER|NOTIFICATION DATE|DELIVERY MODE|P\.O\. Box|Address:)", re.I)
COVER_MARKERS = ("APPLICATION NO.", "FIRST NAMED INVENTOR")
CAPTION = re.compile(r"BEFORE THE PATENT TRIAL AND APPEAL BOARD|BOARD OF PATENT APPEALS", re.I)


def strip_cover(text: str) -> tuple[str, bool]:
    """(text without cover, had a standard cover): the PTOL-90A cover form and its bibliographic fields
    (everything before the Board caption) are dropped when the form is there."""
    has_cover = all(m in text[:3000].upper() for m in COVER_MARKERS)
    if not has_cover:
        return text, False
    m = CAPTION.search(text)
    if m:
        start = text.rfind("\n", 0, m.start()) + 1
        return text[start:], True
    return "\n".join(ln for ln in text.splitlines() if not _BIB_LINE.match(ln.strip())), True
