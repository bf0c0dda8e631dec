"""EPO OPS 3.2 as the replica serves it: OAuth2 token endpoint and the REST paths over world files.

World layout: `<world>/ops/<rest path>.xml`, e.g.
`ops/published-data/publication/docdb/EP.2400812.A1/biblio.xml` and
`ops/family/publication/docdb/EP.2400812.A1.xml` (served for `.../EP.2400812.A1` and `.../biblio`).
"""
from __future__ import annotations

import base64
import hashlib
import itertools
import re
import threading
from xml.sax.saxutils import escape

from .server import Request, Response, route

GREEN = "idle (images=green:200, inpadoc=green:60, other=green:1000, retrieval=green:200, search=green:30)"
_tokens: set[str] = set()
_counter = itertools.count(1)
_lock = threading.Lock()
_PUB_DATE = re.compile(rb'<publication-reference>\s*<document-id document-id-type="docdb">.*?<date>(\d{8})</date>',
                       re.S)
_PD = re.compile(r'pd\s+within\s+"(\d{8})\s+(\d{8})"')


def _xml(body: bytes, status: int = 200) -> Response:
    return Response(status, body, {"Content-Type": "application/xml", "X-Throttling-Control": GREEN})


def _fault(status: int, code: str, message: str) -> Response:
    body = (f'<?xml version="1.0" encoding="UTF-8"?><fault xmlns="http://ops.epo.org"><code>{code}</code>'
            f"<message>{message}</message></fault>").encode()
    return _xml(body, status)


@route("POST", r"/3\.2/auth/accesstoken")
def accesstoken(req: Request) -> Response:
    auth = req.headers.get("Authorization", "")
    if not auth.startswith("Basic ") or b"grant_type=client_credentials" not in req.body:
        return Response.json({"error": "invalid_client"}, 401)
    key = base64.b64decode(auth[6:]).split(b":", 1)[0]
    with _lock:
        token = hashlib.sha256(key + str(next(_counter)).encode()).hexdigest()[:28]
        _tokens.add(token)
    return Response.json({"access_token": token, "token_type": "BearerToken", "expires_in": "1199",
                          "status": "approved"})


def revoke_tokens() -> None:
    """Expire every issued token (tests use it to exercise the refresh on 401)."""
    with _lock:
        _tokens.clear()


def _authorised(req: Request) -> bool:
    auth = req.headers.get("Authorization", "")
    return auth.startswith("Bearer ") and auth[7:] in _tokens


_FAMILY_ID = re.compile(rb'<exchange-document [^>]*family-id="(\d+)"')
_EXCHANGE_DOC = re.compile(rb"<exchange-document[\s>].*?</exchange-document>", re.S)


def _hit(biblio: bytes, name: str, with_biblio: bool) -> str:
    """One search-result entry: a publication-reference (with the document's DOCDB family-id), or with
    `/biblio` the document's exchange-document, as OPS sends them."""
    if with_biblio:
        doc = _EXCHANGE_DOC.search(biblio)
        return f"<exchange-documents>{doc.group(0).decode() if doc else ''}</exchange-documents>"
    fam = _FAMILY_ID.search(biblio)
    cc, num, kind = name.split(".")
    return (f'<ops:publication-reference system="ops.epo.org" family-id="{fam.group(1).decode() if fam else 0}">'
            f'<document-id document-id-type="docdb"><country>{cc}</country><doc-number>{num}</doc-number>'
            f"<kind>{kind}</kind></document-id></ops:publication-reference>")


@route("GET", r"/3\.2/rest-services/published-data/search(?P<biblio>/biblio)?")
def search(req: Request) -> Response:
    """published-data/search (publication references) and search/biblio (exchange-documents), Range-paged."""
    if not _authorised(req):
        return _fault(401, "CLIENT.InvalidAccessToken", "invalid or expired access token")
    folder = req.world / "ops" / "published-data" / "publication" / "docdb"
    m = _PD.search(req.arg("q", "") or "")
    hits = []
    for biblio in sorted(folder.glob("*/biblio.xml")) if folder.is_dir() else []:
        data = biblio.read_bytes()
        day = _PUB_DATE.search(data)
        if m and (not day or not (m.group(1) <= day.group(1).decode() <= m.group(2))):
            continue
        hits.append((biblio.parent.name, data))
    lo, hi = (int(x) for x in (req.arg("Range", "1-25") or "1-25").split("-"))
    refs = "".join(_hit(data, name, bool(req.params.get("biblio"))) for name, data in hits[lo - 1:hi])
    body = ('<?xml version="1.0" encoding="UTF-8"?><ops:world-patent-data xmlns="http://www.epo.org/exchange" '
            'xmlns:ops="http://ops.epo.org"><ops:biblio-search total-result-count="%d"><ops:query>%s</ops:query>'
            '<ops:range begin="%d" end="%d"/><ops:search-result>%s</ops:search-result></ops:biblio-search>'
            "</ops:world-patent-data>") % (len(hits), escape(req.arg("q", "") or ""), lo, min(hi, len(hits)), refs)
    return _xml(body.encode())


@route("GET", r"/3\.2/rest-services/(?P<rest>(published-data|family)/.+)")
def rest(req: Request) -> Response:
    if not _authorised(req):
        return _fault(401, "CLIENT.InvalidAccessToken", "invalid or expired access token")
    rest_path = req.params["rest"]
    candidates = [rest_path + ".xml"]
    if rest_path.startswith("family/"):
        candidates.append(re.sub(r"/biblio$", "", rest_path) + ".xml")
    for rel in candidates:
        path = (req.world / "ops" / rel).resolve()
        if (req.world / "ops").resolve() in path.parents and path.is_file():
            return _xml(path.read_bytes())
    return _fault(404, "SERVER.EntityNotFound", "No results found")
