"""USPTO Open Data Portal PTAB appeals: decision search client and record parser.

`POST /api/v1/patent/appeals/decisions/search` with header `X-API-KEY` (env `USPTO_ODP_API_KEY`),
paged with offset/limit until the reported `count` is reached. Each `patentAppealDataBag` record
becomes one `ptab_decisions` row; the raw record is kept beside the typed columns. A record
missing a required field is a reject, the page goes on.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from common.patent_ids import PatentIdError, app_id

from .http import HttpClient, HttpError, RetryPolicy
from .records import ParseResult

log = logging.getLogger(__name__)
SOURCE = "ptab_odp"
SEARCH_PATH = "/api/v1/patent/appeals/decisions/search"
DATE_FIELD = "decisionData.decisionIssueDate"


def ptab_client(base_url: str, api_key: str | None) -> HttpClient:
    """One request at a time, >= 5 s after a 429, as ODP asks."""
    return HttpClient(base_url, headers={"X-API-KEY": api_key} if api_key else {},
                      retry=RetryPolicy(min_after_429=5.0), min_interval=0.2)


def search_body(start: date, end: date, offset: int, limit: int, query: str = "*:*") -> dict:
    return {"q": query, "rangeFilters": [{"field": DATE_FIELD, "valueFrom": start.isoformat(),
                                          "valueTo": end.isoformat()}],
            "sort": [{"field": DATE_FIELD, "order": "asc"}], "pagination": {"offset": offset, "limit": limit}}


def fetch_decision_pages(client: HttpClient, start: date, end: date, limit: int = 100,
                         max_records: int | None = None) -> Iterator[tuple[int, bytes]]:
    """Yield (offset, raw page bytes) until the API's `count` is exhausted (or an empty page)."""
    offset = 0
    while True:
        resp = client.post(SEARCH_PATH, json=search_body(start, end, offset, limit))
        if resp.status_code == 404:  # ODP answers 404 for "no matching records"
            return
        if resp.status_code != 200:
            raise HttpError(f"PTAB search at offset {offset}: HTTP {resp.status_code}", resp.status_code)
        yield offset, resp.content
        try:
            page = _obj(json.loads(resp.content), "page")
            got = len(page.get("patentAppealDataBag") or [])
            total = int(page.get("count") or 0)
        except (ValueError, TypeError, RecursionError) as exc:  # paging cannot go on without count
            raise HttpError(f"PTAB search at offset {offset}: unreadable page ({type(exc).__name__}: {exc})"[:300],
                            resp.status_code) from None
        offset += got
        if got == 0 or offset >= total or (max_records is not None and offset >= max_records):
            return


def _obj(value: object, name: str) -> dict:
    """A JSON object (or {} for null); any other type is a TypeError naming the field."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"{name} is {type(value).__name__}, expected an object")
    return value


def _text(value: object, name: str, ids: bool = False) -> str | None:
    """A string (or None); integers too when `ids` (an id sent as a number keeps its digits)."""
    if value is None or isinstance(value, str):
        return value
    if ids and isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise TypeError(f"{name} is {type(value).__name__}, expected a string")


def _required(rec: dict, *path: str) -> str:
    """The non-empty string (or integer id) at `path`; KeyError when absent, TypeError when mistyped."""
    cur: dict = rec
    for depth, key in enumerate(path[:-1], start=1):
        cur = _obj(cur.get(key), ".".join(path[:depth]))
    value = _text(cur.get(path[-1]), ".".join(path), ids=True)
    if not value:
        raise KeyError(f"missing field {'.'.join(path)}")
    return value


def _list(value: object, name: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError(f"{name} is {type(value).__name__}, expected a list")
    return [t for t in (_text(v, name, ids=True) for v in value) if t is not None]


def parse_decision_record(rec: object) -> dict:
    """One `patentAppealDataBag` record -> a `ptab_decisions` row.

    Raises KeyError (missing field), TypeError (a field of the wrong JSON type) or ValueError.
    """
    rec = _obj(rec, "record")
    decision = _obj(rec.get("decisionData"), "decisionData")
    document = _obj(rec.get("documentData"), "documentData")
    app_no = _required(rec, "appellantData", "applicationNumberText")
    text = _text(document.get("documentOCRText"), "documentData.documentOCRText")
    _text(document.get("fileDownloadURI"), "documentData.fileDownloadURI")  # the PDF step reads these two
    size = document.get("documentSizeQuantity")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
        raise TypeError(f"documentData.documentSizeQuantity is {size!r}, expected a byte count")
    return {
        "decision_id": _required(rec, "documentData", "documentIdentifier"),
        "appeal_number": _required(rec, "appealNumber"),
        "app_id": app_id("US", app_no),
        "decision_date": date.fromisoformat(_required(rec, "decisionData", "decisionIssueDate")[:10]),
        "decision_type": _text(decision.get("decisionTypeCategory"), "decisionData.decisionTypeCategory"),
        "outcome": _text(decision.get("appealOutcomeCategory"), "decisionData.appealOutcomeCategory"),
        "issue_types": _list(decision.get("issueTypeBag"), "decisionData.issueTypeBag"),
        "statutes": _list(decision.get("statuteAndRuleBag"), "decisionData.statuteAndRuleBag"),
        "text": text,
        "text_origin": "api" if text else None,
        "pdf_sha256": None,
        "raw": json.dumps(rec, ensure_ascii=False, separators=(",", ":")),
    }


def parse_search_page(data: bytes, source_file: str) -> ParseResult:
    """A search response body -> ptab_decisions rows + rejects (bad JSON, records missing fields)."""
    result = ParseResult()
    try:
        page = _obj(json.loads(data), "page")
        records = page["patentAppealDataBag"]
        if not isinstance(records, list):
            raise TypeError("patentAppealDataBag is not a list")
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        result.reject(SOURCE, source_file, "page", exc, data)
        return result
    seen: dict[str, int] = {}
    for i, rec in enumerate(records):
        try:
            row = parse_decision_record(rec)
            if row["decision_id"] in seen:
                raise ValueError(f"duplicate decision {row['decision_id']} (first at record={seen[row['decision_id']]})")
            seen[row["decision_id"]] = i
            result.add("ptab_decisions", row)
        except (KeyError, ValueError, TypeError, PatentIdError) as exc:
            result.reject(SOURCE, source_file, f"record={i}", exc, json.dumps(rec)[:2048])
    return result


def parse_ptab_file(path: str | Path) -> ParseResult:
    path = Path(path)
    return parse_search_page(path.read_bytes(), path.name)
