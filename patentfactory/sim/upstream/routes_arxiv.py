"""Replica route for arXiv's OAI-PMH interface: `GET /oai2?verb=GetRecord&identifier=oai:arXiv.org:<id>&
metadataPrefix=arXivRaw` (or `arXiv`), the licence lookup of Pap2Pat (sources/arxiv_oai.py).

The world's `arxiv/records/<id>.json` (old-style ids with '/' as '_') holds a paper's metadata ({id, title,
authors, categories, license, abstract, versions: [{version, date, size}]}); the answer is the OAI-PMH envelope
arXiv sends, with `<license>` left out when the record has none. As the real interface: an id the world lacks is
OAI error `idDoesNotExist`, another verb `badVerb`, another format `cannotDisseminateFormat`, all with HTTP 200.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from xml.sax.saxutils import escape, quoteattr

from .server import Request, Response, route

OAI_NS = "http://www.openarchives.org/OAI/2.0/"
FORMATS = {"arXivRaw": "http://arxiv.org/OAI/arXivRaw/", "arXiv": "http://arxiv.org/OAI/arXiv/"}
_SCHEMA = ("http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd")


def _envelope(req: Request, body: str) -> Response:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    attrs = "".join(f" {k}={quoteattr(v[0])}" for k, v in sorted(req.query.items()) if v)
    xml = (f'<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="{OAI_NS}" '
           f'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="{_SCHEMA}">\n'
           f"<responseDate>{now}</responseDate>\n<request{attrs}>http://export.arxiv.org/oai2</request>\n"
           f"{body}\n</OAI-PMH>\n")
    return Response(200, xml.encode(), {"Content-Type": "text/xml; charset=utf-8"})


def _error(req: Request, code: str, text: str) -> Response:
    return _envelope(req, f'<error code="{code}">{escape(text)}</error>')


def _metadata(rec: dict, fmt: str) -> str:
    tag = lambda name, value: f"<{name}>{escape(str(value))}</{name}>" if value else ""  # noqa: E731
    versions = "".join(f'<version version="{escape(v["version"])}"><date>{escape(v["date"])}</date>'
                       f'{tag("size", v.get("size"))}</version>' for v in rec.get("versions", []))
    if fmt == "arXivRaw":
        authors = tag("authors", ", ".join(rec.get("authors", [])))
        inner = (tag("id", rec["id"]) + tag("submitter", rec.get("submitter")) + versions
                 + tag("title", rec.get("title")) + authors + tag("categories", rec.get("categories"))
                 + tag("license", rec.get("license")) + tag("abstract", rec.get("abstract")))
    else:
        people = "".join(f"<author>{tag('keyname', a.rsplit(' ', 1)[-1])}{tag('forenames', a.rsplit(' ', 1)[0])}"
                         "</author>" for a in rec.get("authors", []))
        inner = (tag("id", rec["id"]) + tag("created", (rec.get("created") or "")) + tag("title", rec.get("title"))
                 + f"<authors>{people}</authors>" + tag("categories", rec.get("categories"))
                 + tag("license", rec.get("license")) + tag("abstract", rec.get("abstract")))
    return f'<{fmt} xmlns="{FORMATS[fmt]}">{inner}</{fmt}>'


@route("GET", r"/oai2")
def arxiv_oai(req: Request) -> Response:
    verb, ident, fmt = req.arg("verb"), req.arg("identifier") or "", req.arg("metadataPrefix")
    if verb != "GetRecord":
        return _error(req, "badVerb", f"Illegal verb {verb!r} (this replica answers GetRecord)")
    if fmt not in FORMATS:
        return _error(req, "cannotDisseminateFormat", f"Bad metadataPrefix {fmt!r}")
    aid = ident.removeprefix("oai:arXiv.org:")
    path = (req.world / "arxiv" / "records" / (aid.replace("/", "_") + ".json")).resolve()
    if not aid or aid == ident or (req.world / "arxiv" / "records").resolve() not in path.parents \
            or not path.is_file():
        return _error(req, "idDoesNotExist", f"{ident} has the structure of a valid identifier but it maps to no "
                      "known item" if aid != ident else f"Malformed identifier {ident!r}")
    rec = json.loads(path.read_text(encoding="utf-8"))
    stamp = (rec.get("datestamp") or "2020-01-01")
    header = (f"<header><identifier>oai:arXiv.org:{escape(rec['id'])}</identifier><datestamp>{escape(stamp)}"
              f"</datestamp>{''.join(f'<setSpec>{escape(s)}</setSpec>' for s in rec.get('sets', []))}</header>")
    return _envelope(req, f"<GetRecord><record>{header}<metadata>{_metadata(rec, fmt)}</metadata></record></GetRecord>")
