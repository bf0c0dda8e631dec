"""The one IPC symbol normaliser: any source spelling -> `H04L 29/06` (main group unpadded,
subgroup at least two digits). Used by every parser so joins on IPC agree across sources.

Eras and forms it reads (all give one symbol for one group):
- slash forms: OPS `H04W  84/    20   A I`, v4/pap `A61B005/00`, `C12N001/20`, Lens `H04L29/06`;
- DOCDB padded: `H04W0084200000` (main group 4 digits, subgroup 6 left-aligned);
- fixed-field (APS `ICL`, PATDOC `B511`/`B512`): subclass, main group right-aligned in 3 columns, subgroup:
  `B32B  302` (3/02), `H04L 2906` (29/06), `C07D48704` (487/04); also with the blanks collapsed by text
  extraction (`B32B 302`): a subgroup has at least two digits, so the main group gives way.
Subgroup digits after the first two are decimals (`/105` lies between `/10` and `/11`), so trailing zeros
past two digits carry nothing: `/020` is `/02`, as DOCDB's right-padding already assumes.
"""
from __future__ import annotations

import re

# slash forms: 'H04W  84/ 20 A I', 'C12N001/20'
_SLASH = re.compile(r"^\s*([A-HY])\s*(\d{2})\s*([A-Z])\s*0*(\d{1,4})\s*/\s*(\d{1,6})(?!\d)")
_PADDED = re.compile(r"^\s*([A-HY]\d{2}[A-Z])(\d{4})(\d{6})")  # OPS/DOCDB 'H04W0084200000'
_FIXED = re.compile(r"^([A-H]\d{2}[A-Z])( {0,2})(\d{3,9})$")  # fixed-field 'H04L 2906', 'B32B  302'
_SUBCLASS = re.compile(r"[A-H]\d{2}[A-Z]")


def _symbol(subclass: str, main: str, subgroup: str) -> str | None:
    sub = subgroup if len(subgroup) > 1 else subgroup.zfill(2)
    while len(sub) > 2 and sub.endswith("0"):
        sub = sub[:-1]
    if not main or int(main) == 0:
        return None
    return f"{subclass} {int(main)}/{sub}"


def _fixed(subclass: str, blanks: int, digits: str) -> str | None:
    """Main group in 3 right-aligned columns; where the blanks were collapsed, the subgroup keeps 2 digits."""
    width = 3 - blanks
    while width > 1 and len(digits) - width < 2:
        width -= 1
    if len(digits) - width < 2:
        return None
    return _symbol(subclass, digits[:width], digits[width:])


def normalise_ipc(value: str | None) -> str | None:
    """'H04W  84/    20   A I', 'H04W0084200000', 'C07C39/04', 'C12N001/20', 'H04L 2906', 'B32B  302' ->
    'H04W 84/20' style; a bare subclass stays as it is; anything unreadable is None (never a guess)."""
    text = (value or "").strip().upper()
    if not text:
        return None
    m = _SLASH.match(text)
    if m:
        section, cls, sub, main, group = m.groups()
        return _symbol(f"{section}{cls}{sub}", main, group)
    m = _PADDED.match(text)
    if m:
        return _symbol(m.group(1), m.group(2), m.group(3).rstrip("0").ljust(2, "0"))  # left-aligned
    m = _FIXED.match(text)
    if m:
        return _fixed(m.group(1), len(m.group(2)), m.group(3))
    return text if _SUBCLASS.fullmatch(text) else None
