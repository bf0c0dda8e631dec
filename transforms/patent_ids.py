"""The one patent-number normaliser used at every join.

Canonical forms: publication `CC-NUMBER-KIND` (DOCDB-like), application `CC-NUMBER`.
Numbers are strings: letter prefixes (D, RE, PP, H, T, ...) are kept, zero padding after the
prefix is stripped, separators removed. US pre-grant publications `2011/0002889` become
`20110002889` (the 4-digit year stays, the serial keeps its 7 digits).
"""
from __future__ import annotations

import re

import polars as pl

_SEP = re.compile(r"[\s,./\-_]")
_PUB = re.compile(r"^(?P<cc>[A-Z]{2})(?P<num>[A-Z]{0,3}\d+)(?P<kind>[A-Z]\d?)?$")
_US_PGPUB = re.compile(r"^(?P<year>(19|20)\d{2})(?P<serial>\d{6,7})$")
# compiled once: a weekly grant file normalises tens of thousands of cited numbers
_NUMBER = re.compile(r"^([A-Z]*)(\d+)([A-Z]*)$")
_CC = re.compile(r"[A-Z]{2}")


class PatentIdError(ValueError):
    """Text that cannot be read as a patent number."""


def normalise_number(number: str, country: str = "") -> str:
    """Strip separators and zero padding, keep letter prefixes; US pre-grant pubs keep year + 7 digits."""
    raw = str(number).strip().upper()
    if raw.isascii() and raw.isdigit():  # the common case: digits only (no separator, no prefix)
        prefix, digits = "", raw
    else:
        if not (raw.isascii() and raw.isalnum()):  # an ASCII letters-and-digits number has no separator
            raw = _SEP.sub("", raw)
        if not raw:
            raise PatentIdError(f"empty patent number {number!r}")
        m = _NUMBER.match(raw)
        if not m:
            raise PatentIdError(f"not a patent number: {number!r}")
        prefix, digits, tail = m.groups()
        if tail:
            raise PatentIdError(f"unexpected trailing letters in number {number!r}")
    cc = country.upper()
    if not prefix and cc in ("US", "") and "/" in str(number):
        year, serial = str(number).strip().split("/", 1)
        return f"{int(year):04d}{int(_SEP.sub('', serial)):07d}"
    if not prefix and cc == "US" and len(digits) in (10, 11) and _US_PGPUB.match(digits):
        return digits[:4] + digits[4:].zfill(7)  # DOCDB US2003060222 == USPTO 20030060222
    if cc == "WO" and not prefix and len(digits) >= 7:
        if len(digits) in (7, 8):  # old WO YYnnnnn(n) -> YYYYnnnnnn, as epodoc writes it
            yy = int(digits[:2])
            return f"{19 if yy >= 78 else 20}{digits[:2]}{digits[2:].zfill(6)}"
        return digits  # WO2015123456: year + serial, padding is meaningful
    stripped = digits.lstrip("0") or "0"
    return prefix + stripped


def pub_id(country: str, number: str, kind: str | None) -> str:
    """DOCDB-style publication id; kind may be empty (then the id ends with '-')."""
    cc = (country or "").strip().upper()
    if not _CC.fullmatch(cc):
        raise PatentIdError(f"bad country code {country!r} for number {number!r}")
    k = (kind or "").strip().upper()
    return f"{cc}-{normalise_number(number, cc)}-{k}"


def app_id(country: str, number: str) -> str:
    """Application id `CC-NUMBER`: separators removed, digits kept as given (US series codes matter)."""
    cc = (country or "").strip().upper()
    raw = _SEP.sub("", str(number).strip().upper())
    if not cc or not raw:
        raise PatentIdError(f"bad application number {country!r} {number!r}")
    if raw.startswith(cc) and len(raw) > len(cc) and raw[len(cc)].isdigit():
        raw = raw[len(cc):]
    return f"{cc}-{raw}"


# Lens (and epodoc) write a US application as year + series + serial ("US-201514863446"); the USPTO and the
# PTAB write series + serial ("US-14863446"). Both name the same application, so joins compare this key.
_US_YEAR_APP = r"^US-(?:19|20)\d{2}(\d{8})$"


def app_join_key(app: str) -> str:
    """`app_id` -> the key two sources agree on: a year-prefixed US number loses its year."""
    return re.sub(_US_YEAR_APP, r"US-\1", app)


def app_join_key_expr(col: str = "app_id") -> pl.Expr:
    """`app_join_key` as a polars expression (for joins on application ids across sources)."""
    return pl.col(col).str.replace(_US_YEAR_APP, "US-${1}")


def parse_pub_id(text: str) -> tuple[str, str, str]:
    """Read any common form ('US10000000B2', 'US 10,000,000 B2', 'US-10000000-B2', 'EP.2400812.A1',
    'US2011/0002889 A1', 'US20110002889A1') into (country, number, kind)."""
    t = str(text).strip().upper()
    if re.fullmatch(r"[A-Z]{2}-[A-Z0-9]+-[A-Z0-9]*", t):
        cc, num, kind = t.split("-")
        return cc, normalise_number(num, cc), kind
    m = re.match(r"^([A-Z]{2})[\s.\-]*(\d{4})/(\d{6,7})[\s.\-]*([A-Z]\d?)?$", t)
    if m:
        cc, year, serial, kind = m.groups()
        return cc, f"{year}{int(serial):07d}", kind or ""
    compact = _SEP.sub("", t)
    m = _PUB.match(compact)
    if not m:
        raise PatentIdError(f"not a publication number: {text!r}")
    cc, num, kind = m.group("cc"), m.group("num"), m.group("kind") or ""
    return cc, normalise_number(num, cc), kind


def normalise_pub_id(text: str) -> str:
    """Any accepted form -> `CC-NUMBER-KIND` (idempotent)."""
    cc, num, kind = parse_pub_id(text)
    return f"{cc}-{num}-{kind}"
