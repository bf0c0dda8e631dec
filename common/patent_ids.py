"""The one patent-number normaliser used at every join.

Canonical forms: publication `CC-NUMBER-KIND` (DOCDB-like), application `CC-NUMBER` (the application key).
Numbers are strings: letter prefixes (D, RE, PP, H, T, AI, ...) are kept, zero padding after the prefix is
stripped, separators removed. US pre-grant publications `2011/0002889` become `20110002889` (the 4-digit year
stays, the serial keeps its 7 digits); WO publications `WO 99/12345` and `WO2004/012345` become year + 6 digits.

Application key (`app_id`), one for every source: US is the USPTO form, series code + 6-digit serial
(`62/130,600`, Lens/DOCDB `201562130600` -> `US-62130600`); a PCT application is `WO-` + receiving office + 4-digit
year + 6-digit serial (`PCT/US04/12345`, DOCDB `US2004012345`, epodoc `WO2004US12345` -> `WO-US2004012345`); an EP
application is the DOCDB `yy` + 6 digits (epodoc `EP20100167109` and original `10167109.3` -> `EP-10167109`).
A PCT application written under its receiving office with kind `W` (DOCDB, Lens: `US 2006/0000980 W`,
`US 9912817 W`) is that PCT application (`app_id(cc, number, "W")` -> `WO-US2006000980`, `WO-US1999012817`).
A publication number of an office whose numbers hold letters (`IN 1442CH2015 A`, `AU PO505497 D0`,
`HR P20251003 T1`) is a usable id as the office writes it: outside US, WO and JP (whose numbering is known here)
a number written as one run of letters and digits that the strict rules do not read is kept as written.
A trailing publication date after the kind (`EP 0259054 B9 20031217`, corrected publications) is dropped.
Text that cannot be read raises PatentIdError (never another exception, never a guessed id).
"""
from __future__ import annotations

import re

import polars as pl

_SEP = re.compile(r"[\s,./\-_]")
_PUB = re.compile(r"^(?P<cc>[A-Z]{2})(?P<num>(?:RE|PP|RX|AI|D|H|T|X|S|I|M)?\d+)(?P<kind>[A-Z]\d?)?$")
_US_PGPUB = re.compile(r"^(?P<year>(19|20)\d{2})(?P<serial>\d{6,7})$")
# compiled once: a weekly grant file normalises tens of thousands of cited numbers
_NUMBER = re.compile(r"^([A-Z]*)(\d+)([A-Z]*)$")
_CC = re.compile(r"[A-Z]{2}")
# US document-number prefixes (design, reissue, plant, SIR, defensive publication, addition of improvement,
# reexamination): a bare 'RE38,123' is a US reissue, not a number from Reunion
US_PREFIXES = ("RE", "PP", "RX", "AI", "D", "H", "T", "X")  # X: the 1790-1836 X-patents
# letters a number may start with: the US prefixes, JP era letters (S Showa, H Heisei), TW I (invention), M (utility)
NUMBER_PREFIXES = US_PREFIXES + ("S", "I", "M")
_BARE_KINDS = frozenset("A B1 B2 E E1 E2 S S1 P P1 P2 P3 P4 H I4 I5".split())
_US_BARE = re.compile(r"^(RE|PP|RX|AI|D|H|T)[\s,.\-]*(\d[\d\s,.]*?)[\s.\-]*([A-Z]\d?)?$")
# 'WO 2004/012345 A1', 'WO99/12345', 'WO 02/054790': year / serial with an optional kind
_WO_SLASH = re.compile(r"^WO[\s.\-]*(\d{2}|\d{4})\s*/\s*(\d{1,6})[\s.\-]*([A-Z]\d?)?$")
_SLASH_PUB = re.compile(r"^(US)[\s.\-]*(\d{4})/(\d{6,7})[\s.\-]*([A-Z]\d?)?$")
# PCT application: 'PCT/US2004/012345', 'PCT/US04/12345', 'PCTUS2004012345', DOCDB 'US2004012345' (country WO),
# epodoc 'WO2004US12345'
_PCT = re.compile(r"^(?:PCT|WO)?[\s/\-]*([A-Z]{2})[\s/\-]*((?:19|20)\d{2}|\d{2})[\s/\-]*(\d{1,6})$")
_PCT_EPODOC = re.compile(r"^(?:WO)?((?:19|20)\d{2})([A-Z]{2})(\d{1,6})$")
_CC_IN_NUMBER = re.compile(r"^[A-Z]{2}[\s\-]*(?=(?:RE|PP|RX|AI|D|H|T|X|S|I|M)?\d)")
_CHECK_DIGIT = re.compile(r"^(.*\d)\s*\.\s*[\dX]$")  # EP '10167109.3', CN '201110089928.X', DE '...345.6'
_JP_PATENT_MARK = re.compile(r"\s*\(P\)$")
_KIND_THEN_DATE = re.compile(r"^(.*\s[A-Z]\d?)\s+(?:19|20)\d{6}$")  # 'EP 0259054 B9 20031217'
_DOCDB_SPACED = re.compile(r"^([A-Z]{2})[\s.\-]+([A-Z0-9]*\d[A-Z0-9]*)[\s.\-]+([A-Z]\d?)$")
_OFFICE_NUMBER = re.compile(r"^[A-Z0-9]*\d[A-Z0-9]*$")
# kept as written only when written as one run of letters and digits: 'G8513103.2' (a DE utility model with its check
# digit), 'A-10-100907' (JP: the kind before the number) or 'SU 518345' (another country's number) are not numbers
_OFFICE_SPELLING = re.compile(r"[A-Z0-9]+")
# offices whose number forms are known here (JP: era letters H/S; letters elsewhere are a kind written before the
# number, 'JP A2002147320'): nothing is kept as written
STRICT_OFFICES = ("US", "WO", "JP")
MAX_NUMBER_CHARS = 24
MIN_OFFICE_DIGITS = 4  # an office number kept as written has a serial ('0A', 'H04L' are not numbers)


class PatentIdError(ValueError):
    """Text that cannot be read as a patent number."""


def _year4(yy: str) -> str:
    """'99' -> '1999', '04' -> '2004' (PCT/WO numbering began in 1978); 4 digits stay."""
    return yy if len(yy) == 4 else f"{19 if int(yy) >= 78 else 20}{yy}"


def normalise_number(number: str, country: str = "") -> str:
    """Strip separators and zero padding, keep letter prefixes; US pre-grant pubs keep year + 7 digits."""
    raw = str(number).strip().upper()
    cc = country.upper()
    if raw.isascii() and raw.isdigit():  # the common case: digits only (no separator, no prefix)
        prefix, digits = "", raw
    else:
        if cc == "WO" and "/" in raw:
            m = re.fullmatch(r"(\d{2}|\d{4})\s*/\s*(\d{1,6})", raw)
            if not m:
                raise PatentIdError(f"not a WO publication number: {number!r}")
            return f"{_year4(m.group(1))}{int(m.group(2)):06d}"
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
        if prefix and prefix not in NUMBER_PREFIXES:
            raise PatentIdError(f"unknown letter prefix {prefix!r} in number {number!r}")
    if not prefix and cc in ("US", "") and "/" in str(number):
        m = re.fullmatch(r"\s*((?:19|20)\d{2})\s*/\s*(\d[\d\s,]*)", str(number))
        if not m:
            raise PatentIdError(f"not a US publication number: {number!r}")
        return f"{m.group(1)}{int(_SEP.sub('', m.group(2))):07d}"
    if not prefix and cc == "US" and len(digits) in (10, 11) and _US_PGPUB.match(digits):
        return digits[:4] + digits[4:].zfill(7)  # DOCDB US2003060222 == USPTO 20030060222
    if cc == "WO" and not prefix and len(digits) >= 7:
        if len(digits) in (7, 8):  # old WO YYnnnnn(n) -> YYYYnnnnnn, as epodoc writes it
            return f"{_year4(digits[:2])}{digits[2:].zfill(6)}"
        return digits  # WO2015123456: year + serial, padding is meaningful
    stripped = digits.lstrip("0") or "0"
    return prefix + stripped


def office_number(number: str, country: str) -> str:
    """`normalise_number`, or for an office outside STRICT_OFFICES a letters-and-digits number as written
    (one run of letters and digits): `IN 1442CH2015`, `AU PO505497`, `HR P20251003` are DOCDB numbers of their office;
    a number with other marks (`G8513103.2`: a check digit) stays unreadable."""
    try:
        return normalise_number(number, country)
    except PatentIdError:
        text = str(number).strip().upper()
        raw = _SEP.sub("", text)
        if country.upper() in STRICT_OFFICES or not (raw.isascii() and _OFFICE_NUMBER.fullmatch(raw)) \
                or not _OFFICE_SPELLING.fullmatch(text) \
                or len(raw) > MAX_NUMBER_CHARS or sum(c.isdigit() for c in raw) < MIN_OFFICE_DIGITS:
            raise
        return raw


def pub_id(country: str, number: str, kind: str | None) -> str:
    """DOCDB-style publication id; kind may be empty (then the id ends with '-')."""
    cc = (country or "").strip().upper()
    if not _CC.fullmatch(cc):
        raise PatentIdError(f"bad country code {country!r} for number {number!r}")
    k = (kind or "").strip().upper()
    if k and not re.fullmatch(r"[A-Z]\d?", k):
        raise PatentIdError(f"bad kind code {kind!r} for number {number!r}")
    # the country repeated in the number: USPTO citations write <country>WO</country><doc-number>WO 2013/003625
    text = str(number).strip().upper()
    num = _CC_IN_NUMBER.sub("", text, count=1) if text[:2] == cc else number
    return f"{cc}-{office_number(num, cc)}-{k}"


def _us_app(raw: str, original: str) -> str:
    """US application digits -> series code + 6-digit serial (the USPTO form)."""
    if "/" in original:  # '62/130,600', '9/123,456'
        series, serial = (re.sub(r"\D", "", part) for part in original.split("/", 1))
        if not (series and serial and len(series) <= 2 and len(serial) <= 6):
            raise PatentIdError(f"not a US application number: {original!r}")
        return series.zfill(2) + serial.zfill(6)
    if raw.isdigit():
        if len(raw) == 12 and raw.startswith(("19", "20")):
            return raw[4:]  # Lens and DOCDB (since 2011) put the filing year in front: 201562130600
        if len(raw) == 7:
            return raw.zfill(8)  # a series code that lost its leading zero (9123456 = 09/123,456)
    return raw


def _pct_app(raw: str) -> str | None:
    """Any PCT application spelling -> office + 4-digit year + 6-digit serial, or None when it is not one."""
    compact = re.sub(r"[\s,.\-_]", "", raw)
    m = _PCT_EPODOC.fullmatch(compact)
    if m:
        year, office, serial = m.groups()
        return f"{office}{year}{int(serial):06d}"
    m = _PCT.fullmatch(raw) or _PCT.fullmatch(compact)
    if not m:
        return None
    office, year, serial = m.groups()
    if len(year) == 2 and (len(serial) == 6 and serial[0] != "0" or int(year) in range(4, 78)):
        return None  # a 2-digit year is pre-2004 numbering (5-digit serials)
    return f"{office}{_year4(year)}{int(serial):06d}"


def pct_app_id(office: str, number: str) -> str:
    """A PCT application as DOCDB and Lens write it, under the receiving office with kind `W`: the digits are a
    4-digit year + 6 or 7-digit serial (`2006/0000980`, `2011 0040981`) or, before 2004, a 2-digit year + 5-digit
    serial (`9912817`) -> `WO-` + office + year + 6-digit serial."""
    cc = (office or "").strip().upper()
    digits = re.sub(r"[\s/,.\-]", "", str(number or ""))
    m = re.fullmatch(r"((?:19|20)\d{2})(\d{6,7})", digits) or re.fullmatch(r"(\d{2})(\d{5})", digits)
    if not _CC.fullmatch(cc) or not m or int(m.group(2)) >= 1_000_000:
        raise PatentIdError(f"not a PCT application number: {office!r} {number!r} W")
    return f"WO-{cc}{_year4(m.group(1))}{int(m.group(2)):06d}"


def app_id(country: str, number: str, kind: str | None = None) -> str:
    """The application key `CC-NUMBER` every source writes and every join compares (forms: module docstring).

    `kind`: the application kind where the source gives one; `W` under a national office is a PCT application."""
    if (kind or "").strip().upper() == "W" and (country or "").strip().upper() not in ("WO", "PCT"):
        return pct_app_id(country, number)
    cc = (country or "").strip().upper()
    original = str(number if number is not None else "").strip().upper()
    if cc == "PCT" or original.startswith("PCT"):
        cc = "WO"
    if not _CC.fullmatch(cc) or not original:
        raise PatentIdError(f"bad application number {country!r} {number!r}")
    if cc == "WO":
        pct = _pct_app(original)
        if pct is not None:
            return f"WO-{pct}"
        if not re.match(r"^DM[\s/\-]*\d", original):
            raise PatentIdError(f"not a PCT application number: {number!r}")
        # other WIPO numbers keep their own form: a Hague design registration 'DM/074 086' -> WO-DM074086
    if cc == "JP":  # the JPO marks a patent application '2000-179474 (P)' (pap v1.5 priorities): not the number
        original = _JP_PATENT_MARK.sub("", original)
    if cc != "US":
        m = _CHECK_DIGIT.match(original)
        if m:  # the check digit after the dot is not part of the number (DOCDB drops it)
            original = m.group(1)
    raw = _SEP.sub("", original)
    if raw.startswith(cc) and len(raw) > len(cc) and raw[len(cc)].isdigit():
        raw = raw[len(cc):]
    if not raw or not raw.isascii() or not raw.isalnum():
        raise PatentIdError(f"not an application number: {country!r} {number!r}")
    if cc == "US":
        raw = _us_app(raw, original)
    elif cc == "EP" and re.fullmatch(r"(?:19|20)\d{2}0\d{6}", raw):
        raw = raw[2:4] + raw[5:]  # epodoc EP20100167109 -> DOCDB 10167109
    return f"{cc}-{raw}"


def normalise_app_id(text: str, country: str = "") -> str:
    """A whole application number ('US 62/130,600', 'PCT/US2004/012345', 'EP10167109.3', 'US-14643719') -> key;
    `country` is used when the text carries none."""
    t = str(text).strip().upper()
    if t.startswith("PCT"):
        return app_id("WO", t)
    m = re.fullmatch(r"([A-Z]{2})[\s\-]*([0-9A-Z].*)", t)
    if m:
        return app_id(m.group(1), m.group(2))
    if not country:
        raise PatentIdError(f"application number without a country: {text!r}")
    return app_id(country, t)


def _key_or_none(country: str, number: str) -> str | None:
    try:
        return app_id(country, number)
    except PatentIdError:
        return None


def app_key_expr(country: pl.Expr, number: pl.Expr) -> pl.Expr:
    """`app_id` over two string columns (null where unreadable): the Python rule itself, run once per distinct
    (country, number) pair of a batch, so an expression can never drift from it."""
    def keys(s: pl.Series) -> pl.Series:
        joined = s.struct.field("c").fill_null("") + "\x1f" + s.struct.field("n").fill_null("")
        mapping = {u: _key_or_none(*u.split("\x1f", 1)) for u in joined.unique().to_list()}
        return joined.replace_strict(mapping, return_dtype=pl.String)
    return pl.struct(country.cast(pl.String).alias("c"), number.cast(pl.String).alias("n")) \
        .map_batches(keys, return_dtype=pl.String)


def app_join_key(app: str) -> str:
    """A stored `CC-NUMBER` -> the key (identity on keys written by this module; mends older stored forms)."""
    cc, _, number = str(app).partition("-")
    return app_id(cc, number)


# Older warehouses hold Lens US ids with the filing year in front ("US-201514863446"); the key drops it.
_US_YEAR_APP = r"^US-(?:19|20)\d{2}(\d{8})$"


def app_join_key_expr(col: str = "app_id") -> pl.Expr:
    """`app_join_key` as a cheap polars expression over stored ids (safe in scan predicates)."""
    return pl.col(col).str.replace(_US_YEAR_APP, "US-${1}")


def _bare_us(t: str) -> tuple[str, str, str] | None:
    """'RE38,123', 'D512345', 'PP12345P3', 'H1234' (no country) -> US ids; None when not such a form."""
    m = _US_BARE.fullmatch(t)
    if not m:
        return None
    prefix, digits, kind = m.groups()
    digits = re.sub(r"\D", "", digits)
    if kind and kind not in _BARE_KINDS or digits.startswith("0") and len(prefix + digits) < 7:
        return None  # 'H04L' is an IPC subclass, not SIR H4 kind L: only padded or plain numbers, US kinds
    return "US", prefix + (digits.lstrip("0") or "0"), kind or ""


def parse_pub_id(text: str) -> tuple[str, str, str]:
    """Read any common form ('US10000000B2', 'US 10,000,000 B2', 'US-10000000-B2', 'EP.2400812.A1',
    'US2011/0002889 A1', 'US20110002889A1', 'WO 99/12345', 'WO2004/012345 A1', 'RE38,123', 'D512345')
    into (country, number, kind); PatentIdError for anything else (a PCT application number included)."""
    t = str(text).strip().upper()
    dated = _KIND_THEN_DATE.match(t)
    if dated:  # a corrected publication's date after its kind: 'EP 0259054 B9 20031217'
        t = dated.group(1)
    try:
        if re.fullmatch(r"[A-Z]{2}-[A-Z0-9]+-[A-Z0-9]*", t):
            cc, num, kind = t.split("-")
            if kind and not re.fullmatch(r"[A-Z]\d?", kind):
                raise PatentIdError(f"bad kind code in {text!r}")
            return cc, office_number(num, cc), kind
        if t.startswith("PCT"):
            raise PatentIdError(f"a PCT application number, not a publication: {text!r}")
        bare = _bare_us(t)
        if bare:
            return bare
        m = _WO_SLASH.match(t)
        if m:
            year, serial, kind = m.groups()
            return "WO", f"{_year4(year)}{int(serial):06d}", kind or ""
        if t.startswith("WO") and "/" in t:
            raise PatentIdError(f"not a WO publication number: {text!r}")
        m = _SLASH_PUB.match(t)
        if m:
            cc, year, serial, kind = m.groups()
            return cc, f"{year}{int(serial):07d}", kind or ""
        compact = _SEP.sub("", t)
        m = _PUB.match(compact)
        if not m:
            spaced = _DOCDB_SPACED.match(t)  # 'IN 1442CH2015 A': country, office number, kind apart
            if spaced and spaced.group(1) not in STRICT_OFFICES:
                cc, num, kind = spaced.groups()
                return cc, office_number(num, cc), kind
            raise PatentIdError(f"not a publication number: {text!r}")
        cc, num, kind = m.group("cc"), m.group("num"), m.group("kind") or ""
        return cc, normalise_number(num, cc), kind
    except PatentIdError:
        raise
    except (ValueError, TypeError, IndexError) as exc:  # never an unexplained crash on odd text
        raise PatentIdError(f"not a publication number: {text!r} ({exc})") from exc


def normalise_pub_id(text: str) -> str:
    """Any accepted form -> `CC-NUMBER-KIND` (idempotent)."""
    cc, num, kind = parse_pub_id(text)
    return f"{cc}-{num}-{kind}"
