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

from transforms.patent_ids import PatentIdError, app_id

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
        page = resp.json()
        got = len(page.get("patentAppealDataBag") or [])
        offset += got
        total = int(page.get("count") or 0)
        if got == 0 or offset >= total or (max_records is not None and offset >= max_records):
            return


def _required(rec: dict, *path: str) -> object:
    cur: object = rec
    for key in path:
        if not isinstance(cur, dict) or cur.get(key) in (None, ""):
            raise KeyError(f"missing field {'.'.join(path)}")
        cur = cur[key]
    return cur


def _list(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def parse_decision_record(rec: dict) -> dict:
    """One `patentAppealDataBag` record -> a `ptab_decisions` row (raises KeyError/ValueError on bad input)."""
    decision = rec.get("decisionData") or {}
    document = rec.get("documentData") or {}
    app_no = str(_required(rec, "appellantData", "applicationNumberText"))
    text = document.get("documentOCRText")
    return {
        "decision_id": str(_required(rec, "documentData", "documentIdentifier")),
        "appeal_number": str(_required(rec, "appealNumber")),
        "app_id": app_id("US", app_no),
        "decision_date": date.fromisoformat(str(_required(rec, "decisionData", "decisionIssueDate"))[:10]),
        "decision_type": decision.get("decisionTypeCategory"),
        "outcome": decision.get("appealOutcomeCategory"),
        "issue_types": _list(decision.get("issueTypeBag")),
        "statutes": _list(decision.get("statuteAndRuleBag")),
        "text": text,
        "text_origin": "api" if text else None,
        "pdf_sha256": None,
        "raw": json.dumps(rec, ensure_ascii=False, separators=(",", ":")),
    }


def parse_search_page(data: bytes, source_file: str) -> ParseResult:
    """A search response body -> ptab_decisions rows + rejects (bad JSON, records missing fields)."""
    result = ParseResult()
    try:
        page = json.loads(data)
        records = page["patentAppealDataBag"]
        if not isinstance(records, list):
            raise TypeError("patentAppealDataBag is not a list")
    except (ValueError, KeyError, TypeError) as exc:
        result.reject(SOURCE, source_file, "page", exc, data)
        return result
    for i, rec in enumerate(records):
        try:
            result.add("ptab_decisions", parse_decision_record(rec))
        except (KeyError, ValueError, TypeError, PatentIdError) as exc:
            result.reject(SOURCE, source_file, f"record={i}", exc, json.dumps(rec)[:2048])
    return result


def parse_ptab_file(path: str | Path) -> ParseResult:
    path = Path(path)
    return parse_search_page(path.read_bytes(), path.name)
