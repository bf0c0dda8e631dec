"""The one IPC symbol normaliser: any source spelling -> `H04L 29/06` (main group unpadded,
subgroup at least two digits). Used by every parser so joins on IPC agree across sources."""
from __future__ import annotations

import re

# slash forms: 'H04W  84/ 20 A I', 'C12N001/20'
_SLASH = re.compile(r"^\s*([A-HY])\s*(\d{2})\s*([A-Z])\s*0*(\d{1,4})\s*/\s*(\d{1,6})")
_PADDED = re.compile(r"^\s*([A-HY]\d{2}[A-Z])(\d{4})(\d{6})")  # OPS/DOCDB 'H04W0084200000'
_FIXED = re.compile(r"^([A-H]\d{2}[A-Z])(.{3})(\d{2,6})\s*$")  # fixed-field 'H04L 2906', 'G06F  1730'
_SUBCLASS = re.compile(r"[A-H]\d{2}[A-Z]")


def normalise_ipc(value: str | None) -> str | None:
    """'H04W  84/    20   A I', 'H04W0084200000', 'C07C39/04', 'C12N001/20', 'H04L 2906' -> 'H04W 84/20' style;
    a bare subclass stays as it is; anything unreadable is None (never a guess)."""
    text = (value or "").strip().upper()
    if not text:
        return None
    m = _SLASH.match(text)
    if m:
        section, cls, sub, main, group = m.groups()
        return f"{section}{cls}{sub} {int(main)}/{group.zfill(2)}"
    m = _PADDED.match(text)
    if m:
        return f"{m.group(1)} {int(m.group(2))}/{m.group(3).rstrip('0').ljust(2, '0')}"
    m = _FIXED.match(text.replace("/", " "))
    if m and m.group(2).strip().isdigit():
        return f"{m.group(1)} {int(m.group(2))}/{m.group(3)}"
    return text if _SUBCLASS.fullmatch(text) else None
