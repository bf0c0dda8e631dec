"""Named converters for USPTO field quirks, so parsers read as tables and quirks are tested once.

Every id goes through `common.patent_ids` (the one normaliser); these helpers only decide
what to hand it (e.g. dropping the APS check digit) and how to read dates and classifications.
"""
from __future__ import annotations

import logging
import re
from datetime import date

from common.ipc_symbols import normalise_ipc  # noqa: F401  (re-exported)
from common.patent_ids import PatentIdError, app_id, normalise_number, pub_id

log = logging.getLogger(__name__)

_CLAIM_NO = re.compile(r"^\s*\d+\s*\.\s*(?=\S)")
_PREFIXES = (("RE", "reissue"), ("PP", "plant"), ("RX", "reexamination"), ("AI", "addition"),
             ("D", "design"), ("H", "sir"), ("T", "defensive-publication"))
US_STATES = frozenset(
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND "
    "OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR VI GU AS MP".split())


def str_or_none(value: str | None) -> str | None:
    value = (value or "").strip()
    return value or None


def upper_or_none(value: str | None) -> str | None:
    value = str_or_none(value)
    return value.upper() if value else None


def lang_or_none(value: str | None) -> str | None:
    """`EN` -> `en` (ISO 639-1 in lower case)."""
    value = str_or_none(value)
    return value.lower()[:2] if value else None


def yyyymmdd_or_none(value: str | None) -> date | None:
    """`20180619` -> date; month/day `00` (citation dates like `20100800`) or garbage -> None."""
    digits = value if value and value.isascii() and value.isdigit() else re.sub(r"\D", "", value or "")
    if len(digits) != 8:
        return None
    try:
        return date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        return None


def int_or_none(value: str | None) -> int | None:
    digits = value if value and value.isascii() and value.isdigit() else re.sub(r"\D", "", value or "")
    return int(digits) if digits else None


def aps_patent_number(wku: str | None) -> str | None:
    """APS `WKU` is the 7-char number (prefix + zero padded) followed by a check digit: drop it."""
    raw = (wku or "").strip()
    if not raw:
        return None
    return normalise_number(raw[:-1] if len(raw) == 9 else raw, "US")


def design_number(value: str | None) -> str | None:
    """`D0656308` -> `D656308`, `PP012345` -> `PP12345`, `RE038000` -> `RE38000` (prefix kept, padding dropped)."""
    raw = str_or_none(value)
    return normalise_number(raw, "US") if raw else None


def doc_type_of(number: str | None, is_application: bool = False) -> str:
    """Document type from the number prefix: design, plant, reissue, sir, ... else utility."""
    if is_application:
        return "application"
    num = (number or "").upper()
    for prefix, kind in _PREFIXES:
        if num.startswith(prefix) and num[len(prefix):len(prefix) + 1].isdigit():
            return kind
    return "utility"


def read_ipc(raw: str | None, unread: list[str]) -> str | None:
    """A classification written as text, normalised; one that does not normalise is kept as written in `unread`
    (publications.classes_raw, flagged), never dropped without a trace."""
    symbol = normalise_ipc(raw)
    if symbol is None and raw and raw.strip():
        unread.append(" ".join(raw.split()))
    return symbol


def ipc_from_parts(section: str | None, cls: str | None, subclass: str | None,
                   main_group: str | None, subgroup: str | None) -> str | None:
    """Structured `classification-ipcr`/`classification-cpc` parts -> `G01S 7/48`."""
    parts = [str_or_none(p) for p in (section, cls, subclass, main_group, subgroup)]
    if not all(parts[:3]):
        return None
    head = f"{parts[0]}{parts[1]}{parts[2]}".upper()
    if not parts[3]:
        return head
    main, sub = parts[3], parts[4] or "00"
    if main.isascii() and main.isdigit() and sub.isascii() and sub.isdigit():  # the one normaliser: as every text form
        return normalise_ipc(f"{head} {main}/{sub}")
    return f"{head} {int(main) if main.isdigit() else main}/{sub.zfill(2)}"


def cited_by_of(category: str | None) -> str | None:
    """`cited by examiner` -> examiner, `cited by applicant` -> applicant, other phrases -> other."""
    text = (category or "").strip().lower()
    if not text:
        return None
    if "examiner" in text:
        return "examiner"
    if "applicant" in text:
        return "applicant"
    return "other"


def report_category(category: str | None) -> str | None:
    """Search-report categories (X, Y, A, ...) only; US `cited by ...` phrases go to `cited_by`."""
    text = (category or "").strip()
    return text if text and not text.lower().startswith("cited by") else None


def country_of(country: str | None, state: str | None = None) -> str | None:
    """Two-letter country; APS `JPX` -> `JP`; a US state with no country -> `US`."""
    cc = (country or "").strip().upper()
    if len(cc) == 3 and cc.endswith("X"):
        cc = cc[:2]
    if re.fullmatch(r"[A-Z]{2}", cc):
        return cc
    if (state or "").strip().upper() in US_STATES:
        return "US"
    return None


def claim_number_of(claim_id: str | None) -> int | None:
    """The number in a claim id or reference ('CLM-00012', 'c12') -> 12."""
    m = re.search(r"\d+", claim_id or "")
    return int(m.group()) if m else None


def strip_claim_number(text: str) -> str:
    """`1. A method ...` -> `A method ...` (claim_no carries the number)."""
    return _CLAIM_NO.sub("", text, count=1)


def safe_pub_id(country: str | None, number: str | None, kind: str | None) -> str | None:
    """pub_id or None (logged) for numbers the normaliser cannot read, e.g. free-text foreign numbers."""
    if not number:
        return None
    try:
        return pub_id(country or "US", number, kind)
    except PatentIdError as exc:
        log.debug("unreadable cited number %s %s %s: %s", country, number, kind, exc)
        return None


def safe_app_number(country: str | None, number: str | None) -> str | None:
    """Application/priority number without the country, separators removed (via `app_id`)."""
    if not number:
        return None
    try:
        return app_id(country or "US", number).split("-", 1)[1]
    except PatentIdError:
        return number.strip() or None


def app_fields(shown: str | None, country: str | None, number: str | None) -> dict:
    """`country`/`number` of a priority or related application: `shown` as the country, the number via
    `safe_app_number`, except where the key names another office: 'PCT/CH02/00573' filed under US is the PCT
    application WO CH2002000573, so the pair always rebuilds the key."""
    value = safe_app_number(country, number)
    if number and value:
        try:
            key_cc = app_id(country or "US", number).split("-", 1)[0]
        except PatentIdError:
            key_cc = None
        if key_cc and key_cc != (country or "US"):
            shown = key_cc
    return {"country": shown, "number": value}
