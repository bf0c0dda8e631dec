"""Full text of an open-access paper: PubMed Central JATS through Europe PMC, else the open-access PDF.

As the Pap2Pat paper does: a work with a PMCID is read from its JATS (`sources.jats`, Europe PMC's
`/{PMCID}/fullTextXML`, the PMC OA subset); otherwise the best open-access PDF URL that SemOpenAlex gives
is downloaded and parsed. The PDF route is GROBID when a GROBID URL is given (`PF_GROBID__URL`): the PDF goes
to its `/api/processFulltextDocument` and the TEI becomes the sections (`sources.grobid`), as the paper's own
pipeline did; without one, or when GROBID gives no usable TEI for a PDF, pdfplumber with font-based heading
levels (`sources.paper_pdf`). `FullText.source` names the route per paper: 'jats', 'grobid' or 'pdf'; a 'pdf'
paper's `route` says where its headings came from: 'pdf-outline' (the PDF's bookmarks) or 'pdf-layout'. A work with
neither, or whose text cannot be had (404, not a PDF, no headed body), stays abstract-only with the reason
kept for the card. Bytes are cached on disk by PMCID / work id, so a rerun downloads nothing; what pdfplumber made
of a PDF is cached too (`parsed-pdf/<route version>/<sha256>.json`: sections and route, or why it failed), so a
rerun does not read the pages again (~1-10 CPU s a paper). The route version hashes this package's code and the
pdfplumber/pdfminer versions: any change to the rules reads every PDF again, and no stale sections are served.
`via` points both at the offline replica (patentfactory/sim/upstream/routes_papers.py): Europe PMC at
`<via>/europepmc/webservices/rest`, and any PDF URL `https://host/path` at `<via>/oa/host/path`.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from .grobid import FULLTEXT_PATH, TeiError, parse_tei
from .http import HttpClient, HttpError, RetryPolicy
from .jats import JatsError, parse_jats
from .paper_pdf import PdfError, read_pdf

log = logging.getLogger(__name__)
EUROPEPMC = "https://www.ebi.ac.uk/europepmc/webservices/rest"


@dataclass(frozen=True)
class FullText:
    """Sections of one paper and the route they came by: 'jats', 'grobid' (PDF through GROBID's TEI), 'pdf' (PDF
    through pdfplumber; `route` 'pdf-outline' or 'pdf-layout': headings from the PDF's outline or its type), or
    None (abstract-only, `why`)."""
    sections: list[dict] | None
    source: str | None
    why: str = ""
    route: str | None = None


class FullTextClient:
    def __init__(self, via: str | None = None, *, europepmc: str = EUROPEPMC, cache_dir: Path | None = None,
                 min_interval: float = 0.1, attempts: int = 3, grobid: str | None = None,
                 grobid_timeout: float = 300.0, parsed_dir: Path | None = None) -> None:
        """`cache_dir`: downloads (JATS, PDFs, TEI) and, unless `parsed_dir` is given, the parsed PDFs; `parsed_dir`:
        the parsed PDFs only (keyed by the PDF's sha256, so it may be shared by clients of other cache dirs)."""
        self.via = via.rstrip("/") if via else None
        base = f"{self.via}/europepmc/webservices/rest" if self.via else europepmc
        self.http = HttpClient(base, min_interval=0.0 if self.via else min_interval,
                               retry=RetryPolicy(attempts=attempts))
        self.grobid = HttpClient(grobid, timeout=(10.0, grobid_timeout), retry=RetryPolicy(attempts=attempts)) \
            if grobid else None
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.parsed_dir = Path(parsed_dir) if parsed_dir else self.cache_dir
        self.stats: Counter = Counter()

    def _cached(self, name: str, fetch, root: Path | None = None) -> bytes | None:
        """`name` under `root` (default `cache_dir`) if it is there, else `fetch()` kept there; no root: fetched."""
        root = root or self.cache_dir
        path = root / name if root else None
        if path is not None and path.exists():
            self.stats["cache_hits"] += 1
            return path.read_bytes()
        data = fetch()
        if data is not None and path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
            tmp.write_bytes(data)
            tmp.replace(path)  # whole or absent: a killed run leaves no half file to be read as cached
        return data

    def _get(self, url: str) -> bytes | None:
        self.stats["requests"] += 1
        try:
            resp = self.http.get(url)
        except HttpError as exc:
            log.warning("full text: %s", exc)
            return None
        return resp.content if resp.status_code == 200 else None

    def jats(self, pmcid: str) -> bytes | None:
        pmcid = pmcid.upper() if pmcid.upper().startswith("PMC") else f"PMC{pmcid}"
        return self._cached(f"{pmcid}.nxml", lambda: self._get(f"{pmcid}/fullTextXML"))

    def pdf_url(self, url: str) -> str:
        if not self.via:
            return url
        parts = urlsplit(url)
        return f"{self.via}/oa/{parts.netloc}{parts.path}"

    def pdf(self, work_id: str, url: str) -> bytes | None:
        return self._cached(f"{work_id}.pdf", lambda: self._get(self.pdf_url(url)))

    def tei(self, work_id: str, pdf: bytes) -> bytes | None:
        """GROBID's TEI for the PDF (cached beside it), None when GROBID fails or extracts nothing (HTTP 204)."""
        def post() -> bytes | None:
            self.stats["grobid_requests"] += 1
            try:
                resp = self.grobid.post(FULLTEXT_PATH, files={"input": (f"{work_id}.pdf", pdf, "application/pdf")},
                                        data={"consolidateHeader": "0", "consolidateCitations": "0"})
            except HttpError as exc:
                log.warning("grobid: %s", exc)
                return None
            return resp.content if resp.status_code == 200 and resp.content.strip() else None
        return self._cached(f"{work_id}.tei.xml", post)

    def parse_pdf(self, work_id: str, data: bytes) -> FullText:
        """GROBID's TEI when a GROBID URL is set and it gives a headed body, else pdfplumber; PdfError if neither."""
        if self.grobid is not None:
            tei = self.tei(work_id, data)
            try:
                if tei is not None:
                    return FullText(parse_tei(tei), "grobid")
                why = "no TEI"
            except TeiError as exc:
                why = str(exc)
            self.stats["grobid_fallbacks"] += 1
            log.warning("grobid gave no body for %s (%s): pdfplumber instead", work_id, why)
        return self._read_pdf(data)

    def _read_pdf(self, data: bytes) -> FullText:
        """pdfplumber's sections of the PDF, from the parsed cache when this route version read these bytes before;
        PdfError (again) when it found no headed body."""
        def parse() -> bytes:
            try:
                got = read_pdf(data)
                kept = {"sections": got.sections, "route": got.route}
            except PdfError as exc:
                kept = {"error": str(exc)}
            return json.dumps(kept, ensure_ascii=False).encode("utf-8")

        name = f"parsed-pdf/{pdf_route_version()}/{hashlib.sha256(data).hexdigest()}.json"
        kept = json.loads(self._cached(name, parse, self.parsed_dir))
        if "error" in kept:
            raise PdfError(kept["error"])
        return FullText(kept["sections"], "pdf", route=kept["route"])

    def fetch(self, work_id: str, pmcid: str | None, pdf_url: str | None) -> FullText:
        """JATS when there is a PMCID and Europe PMC has the article, else the PDF, else abstract-only."""
        why: list[str] = []
        tries = [("jats", lambda: self.jats(pmcid or ""), lambda d: FullText(parse_jats(d), "jats"), JatsError,
                  "no JATS at Europe PMC", b"<")] if pmcid else []
        if pdf_url:
            tries.append(("pdf", lambda: self.pdf(work_id, pdf_url), lambda d: self.parse_pdf(work_id, d), PdfError,
                          "open-access PDF not available", b"%PDF"))
        for source, get, parse, error, absent, magic in tries:
            data = get()
            if data is None:
                why.append(absent)
            elif not data.lstrip().startswith(magic):
                why.append(f"the {source} URL did not give {source.upper()}")
            else:
                try:
                    return parse(data)
                except error as exc:
                    why.append(f"{source.upper()} unreadable: {exc}")
        return FullText(None, None, "; ".join(why) or "no PMCID and no open-access PDF URL")


@lru_cache(maxsize=1)
def pdf_route_version() -> str:
    """What pdfplumber's route makes of a PDF depends on: this package's modules (the rules) and the versions of
    pdfplumber and pdfminer. 16 hex digits of their hash name the parsed cache's folder."""
    import pdfminer
    import pdfplumber

    digest = hashlib.sha256(f"{pdfplumber.__version__} {pdfminer.__version__}".encode())
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.name.encode() + b"\0" + module.read_bytes())
    return digest.hexdigest()[:16]
