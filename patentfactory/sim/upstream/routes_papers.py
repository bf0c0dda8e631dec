"""Replica routes for papers' full texts: Europe PMC's `fullTextXML` (JATS) and open-access PDF links.

`GET /europepmc/webservices/rest/PMC…/fullTextXML` answers the world's `papers/jats/PMC….nxml` as
`application/xml`, 404 for an article it does not hold, as the real service does. A work's open-access
PDF URL (any host) is fetched through `/oa/<host>/<path>`: the full-text client maps an absolute URL there
when it runs against the replica, and the world's `papers/pdf/<file>` answers as `application/pdf`.
`POST /api/processFulltextDocument` (GROBID, multipart field `input`) answers recorded TEI: the world's
`papers/grobid/<stem>.tei.xml` whose `papers/pdf/<stem>.pdf` has the posted bytes (matched by content, as
GROBID ignores the file name); a PDF without a recording gets 204, GROBID's "no content extracted".
"""
from __future__ import annotations

import hashlib
import re
from email.parser import BytesParser
from email.policy import HTTP

from .server import Request, Response, route

_PMCID = re.compile(r"PMC\d+$")


def _file(req: Request, rel: str, ctype: str) -> Response:
    path = (req.world / rel).resolve()
    if req.world not in path.parents or not path.is_file():
        return Response.error(404, f"not found: {rel}")
    return Response(200, path.read_bytes(), {"Content-Type": ctype})


@route("GET", r"/europepmc/webservices/rest/(?P<pmcid>[^/]+)/fullTextXML")
def europepmc_fulltext(req: Request) -> Response:
    pmcid = req.params["pmcid"].upper()
    if not _PMCID.match(pmcid):
        return Response.error(400, f"not a PMCID: {req.params['pmcid']}")
    return _file(req, f"papers/jats/{pmcid}.nxml", "application/xml")


@route("GET", r"/oa/(?P<host>[^/]+)/(?P<rel>.+)")
def open_access_pdf(req: Request) -> Response:
    name = req.params["rel"].rsplit("/", 1)[-1]
    if not name.endswith(".pdf"):
        return Response.error(404, f"no PDF at {req.params['rel']}")
    return _file(req, f"papers/pdf/{name}", "application/pdf")


def _multipart_field(req: Request, name: str) -> bytes | None:
    ctype = next((v for k, v in req.headers.items() if k.lower() == "content-type"), "")
    if not ctype.startswith("multipart/form-data"):
        return None
    msg = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {ctype}\r\n\r\n".encode() + req.body)
    for part in msg.iter_parts():
        if part.get_param("name", header="content-disposition") == name:
            return part.get_payload(decode=True)
    return None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@route("POST", r"/api/processFulltextDocument")
def grobid_fulltext(req: Request) -> Response:
    pdf = _multipart_field(req, "input")
    if not pdf:
        return Response(400, b"[BAD_INPUT_DATA] no PDF in the multipart field 'input'", {"Content-Type": "text/plain"})
    want = _sha(pdf)
    for tei in sorted((req.world / "papers" / "grobid").glob("*.tei.xml")):
        src = req.world / "papers" / "pdf" / f"{tei.name.removesuffix('.tei.xml')}.pdf"
        if src.is_file() and _sha(src.read_bytes()) == want:
            return Response(200, tei.read_bytes(), {"Content-Type": "application/xml"})
    return Response(204, b"")
