"""Small helpers for string-template XML (fast, escaped) and deterministic zip members."""
from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape as _escape

from ..numbering import compact, iso

CITIES = {"US": ("San Jose", "CA"), "GB": ("Cambridge", ""), "CA": ("Toronto", "ON"), "AU": ("Sydney", ""),
          "DE": ("München", ""), "AT": ("Graz", ""), "CH": ("Zürich", ""), "FR": ("Grenoble", ""),
          "BE": ("Leuven", ""), "ES": ("Madrid", ""), "PT": ("Porto", ""), "BR": ("São Paulo", ""),
          "JP": ("Tokyo", ""), "CN": ("Shenzhen", ""), "TW": ("Hsinchu", ""), "KR": ("Suwon-si", "")}
ATTR = {'"': "&quot;"}


def esc(text: str) -> str:
    """Escape text content (& < >)."""
    return _escape(text)


def attr(text: str) -> str:
    """Escape an attribute value in double quotes."""
    return _escape(text, ATTR)


def ymd(days: int) -> str:
    return compact(days)


def dash(days: int) -> str:
    return iso(days)


def write_zip(path: Path, member: str, payload: bytes, days: int) -> Path:
    """A zip with one deflated member and a fixed timestamp (the file's own date): byte-identical reruns."""
    path.parent.mkdir(parents=True, exist_ok=True)
    y, m, d = (int(x) for x in iso(days).split("-"))
    stamp = max((y, m, d), (1980, 1, 1))  # the zip format has no dates before 1980 (weekly files start in 1976)
    info = zipfile.ZipInfo(member, date_time=(*stamp, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    info.create_system = 3
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(info, payload, compress_type=zipfile.ZIP_DEFLATED, compresslevel=6)
    return path


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path
