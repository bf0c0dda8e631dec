"""Replica routes for papers' full texts: Europe PMC's `fullTextXML` (JATS) and open-access PDF links.

`GET /europepmc/webservices/rest/PMC…/fullTextXML` answers the world's `papers/jats/PMC….nxml` as
`application/xml`, 404 for an article it does not hold, as the real service does. A work's open-access
PDF URL (any host) is fetched through `/oa/<host>/<path>`: the full-text client maps an absolute URL there
when it runs against the replica, and the world's `papers/pdf/<file>` answers as `application/pdf`.
"""
from __future__ import annotations

import re

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
