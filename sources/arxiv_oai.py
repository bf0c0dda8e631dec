"""arXiv licences through arXiv's OAI-PMH interface, the lookup the Pap2Pat authors make (their step_04).

A matched paper whose SemOpenAlex location carries no licence but whose open-access PDF is on arXiv gets the
licence arXiv records for it: `GET <oai>?verb=GetRecord&identifier=oai:arXiv.org:<id>&metadataPrefix=arXivRaw`
answers an OAI-PMH envelope whose `<arXivRaw>` (namespace http://arxiv.org/OAI/arXivRaw/) holds `<license>` with
the licence URL (absent when the submitter chose none); an unknown id answers OAI error `idDoesNotExist` with
HTTP 200. Licence URLs become the `papers` table's ids ('cc-by', 'cc0', ..., 'arxiv-nonexclusive'). Answers are
cached on disk per id, so a rerun asks nothing twice.
"""
from __future__ import annotations

import logging
import re
from collections import Counter
from pathlib import Path

from lxml import etree

from .http import HttpClient, HttpError, RetryPolicy
from .semopenalex import normalise_licence

log = logging.getLogger(__name__)
OAI_URL = "https://export.arxiv.org/oai2"
NS = {"oai": "http://www.openarchives.org/OAI/2.0/", "raw": "http://arxiv.org/OAI/arXivRaw/",
      "arxiv": "http://arxiv.org/OAI/arXiv/"}
# new-style ids (0704.0001, 2101.12345) and old-style ones (hep-th/9901001, math.AG/0601001), version dropped
_ID = re.compile(r"arxiv\.org/(?:pdf|abs)/((?:\d{4}\.\d{4,5})|(?:[a-z-]+(?:\.[a-z]{2})?/\d{7}))(?:v\d+)?",
                 re.IGNORECASE)
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


class OaiError(RuntimeError):
    """An OAI-PMH error other than an unknown id (bad verb, bad argument, format not offered)."""


def arxiv_id(url: str | None) -> str | None:
    """'https://arxiv.org/pdf/2101.12345v2' -> '2101.12345'; None for a URL that is not an arXiv paper."""
    m = _ID.search(url or "")
    return m.group(1) if m else None


def licence_id(url: str | None) -> str | None:
    """An arXiv licence URL as the `papers` table names licences ('http://creativecommons.org/licenses/by/4.0/' ->
    'cc-by'); arXiv's own non-exclusive distribution licence -> 'arxiv-nonexclusive'."""
    if not url:
        return None
    if "arxiv.org/licenses/nonexclusive-distrib" in url.lower():
        return "arxiv-nonexclusive"
    return normalise_licence(url.strip().rstrip("/") if "creativecommons" not in url else url.strip())


def parse_record(xml: bytes) -> dict | None:
    """One GetRecord answer -> {'id', 'license' (URL or None), 'title'}; None for `idDoesNotExist`."""
    root = etree.fromstring(xml, _PARSER)
    err = root.find("oai:error", NS)
    if err is not None:
        if err.get("code") == "idDoesNotExist":
            return None
        raise OaiError(f"{err.get('code')}: {(err.text or '').strip()}")
    meta = root.find("oai:GetRecord/oai:record/oai:metadata", NS)
    if meta is None or not len(meta):
        raise OaiError("GetRecord without metadata")
    rec = meta[0]
    ns = rec.nsmap.get(None) or ""
    text = lambda tag: (rec.findtext(f"{{{ns}}}{tag}") or "").strip() or None  # noqa: E731
    return {"id": text("id"), "license": text("license"), "title": text("title")}


class ArxivLicenceClient:
    """Licences of arXiv papers from the OAI-PMH interface at `oai_url` (arXiv asks for >= 3 s between calls)."""

    def __init__(self, oai_url: str = OAI_URL, *, cache_dir: Path | None = None, min_interval: float = 3.0,
                 attempts: int = 3) -> None:
        self.oai_url = oai_url.rstrip("/")
        self.http = HttpClient(self.oai_url, min_interval=min_interval, retry=RetryPolicy(attempts=attempts))
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.stats: Counter = Counter()

    def _record(self, aid: str) -> bytes | None:
        path = self.cache_dir / (aid.replace("/", "_") + ".xml") if self.cache_dir else None
        if path is not None and path.exists():
            self.stats["cache_hits"] += 1
            return path.read_bytes()
        self.stats["requests"] += 1
        try:
            resp = self.http.get(self.oai_url, params={"verb": "GetRecord", "identifier": f"oai:arXiv.org:{aid}",
                                                       "metadataPrefix": "arXivRaw"})
        except HttpError as exc:
            log.warning("arXiv licence of %s: %s", aid, exc)
            return None
        if resp.status_code != 200:
            log.warning("arXiv licence of %s: HTTP %s", aid, resp.status_code)
            return None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(resp.content)
        return resp.content

    def licence(self, aid: str) -> str | None:
        """The licence id arXiv records for paper `aid` (None: no licence given, unknown id, or no answer)."""
        data = self._record(aid)
        if data is None:
            return None
        try:
            rec = parse_record(data)
        except (OaiError, etree.XMLSyntaxError) as exc:
            log.warning("arXiv licence of %s: %s", aid, exc)
            self.stats["errors"] += 1
            return None
        found = licence_id(rec["license"]) if rec else None
        self.stats["found" if found else "none"] += 1
        return found
