"""ODP PTAB appeals decisions search as the replica serves it, over `<world>/ptab/records/*.json`.

Each file holds one `patentAppealDataBag` record. GET (query params) and POST (JSON body with
`rangeFilters` and `pagination`) both work; the date range filters `decisionData.decisionIssueDate`.
"""
from __future__ import annotations

import json
import uuid

from .routes_core import file_response
from .server import Request, Response, route


def _records(req: Request) -> list[dict]:
    folder = req.world / "ptab" / "records"
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))] if folder.is_dir() else []


def _query(req: Request) -> tuple[str, str, int, int]:
    if req.method == "POST" and req.body:
        body = json.loads(req.body)
        rng = (body.get("rangeFilters") or [{}])[0]
        page = body.get("pagination") or {}
        return (rng.get("valueFrom", "0000"), rng.get("valueTo", "9999"), int(page.get("offset", 0)),
                int(page.get("limit", 25)))
    lo, _, hi = (req.arg("rangeFilters", "") or "").partition(" ")[2].partition(":")
    return lo or "0000", hi or "9999", int(req.arg("offset", "0")), int(req.arg("limit", "25"))


@route("(GET|POST)", r"/api/v1/patent/appeals/decisions/search")
def search(req: Request) -> Response:
    if not req.headers.get("X-API-KEY") and not req.headers.get("x-api-key"):
        return Response.json({"code": 403, "message": "Forbidden", "detailedMessage": "missing X-API-KEY"}, 403)
    lo, hi, offset, limit = _query(req)
    hits = [r for r in _records(req)
            if lo <= (r.get("decisionData") or {}).get("decisionIssueDate", "") <= hi]
    hits.sort(key=lambda r: (r["decisionData"]["decisionIssueDate"], r.get("appealNumber", "")))
    if not hits:
        return Response.json({"code": 404, "error": "Not Found", "errorDetails": "No matching records found"}, 404)
    return Response.json({"count": len(hits), "requestIdentifier": str(uuid.UUID(int=offset)),
                          "patentAppealDataBag": hits[offset:offset + limit]})


@route("GET", r"/api/v1/patent/ptab-files/(?P<rel>.+)")
def ptab_file(req: Request) -> Response:
    """Decision PDFs as ODP serves them (`documentData.fileDownloadURI`), from `<world>/ptab/pdfs/`.

    Only the file name matters (the folder part of the URI is year/appeal number); Range is honoured.
    """
    if not req.headers.get("X-API-KEY") and not req.headers.get("x-api-key"):
        return Response.json({"code": 403, "message": "Forbidden", "detailedMessage": "missing X-API-KEY"}, 403)
    name = req.params["rel"].rsplit("/", 1)[-1]
    return file_response(req, f"ptab/pdfs/{name}")
