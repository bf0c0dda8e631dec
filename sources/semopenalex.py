"""SemOpenAlex over SPARQL: authors by name (and alternative names) -> their works, as `papers` rows.

The client talks to https://semopenalex.org/sparql by default (any SPARQL 1.1 endpoint by argument)
through SPARQLWrapper, in small batched `VALUES` queries with an explicit timeout. Public SPARQL
endpoints sometimes answer an *empty* result when a query times out server side, so an empty
answer to a query that must return rows (works of authors we just found) is treated as suspect:
retried, then split into smaller batches down to single authors, and finally recorded as a reject.
Every non-empty answer (and every empty author lookup, where "no such name" is a real answer) is cached
on disk by the hash of (endpoint, query), so a rerun sends nothing.
`parse_sparql_results` turns a recorded SPARQL JSON results document of the works query into
`papers` rows; malformed documents or bindings become rejects, never crashes.
"""
from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from SPARQLWrapper import JSON, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import EndPointInternalError, EndPointNotFound

from .records import ParseResult

log = logging.getLogger(__name__)
SOURCE = "semopenalex"
DEFAULT_ENDPOINT = "https://semopenalex.org/sparql"
AUTHOR_NS = "https://semopenalex.org/author/"
WORK_NS = "https://semopenalex.org/work/"
PREFIXES = """PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX foaf: <http://xmlns.com/foaf/0.1/>
PREFIX soa: <https://semopenalex.org/property/>
PREFIX dbo: <https://dbpedia.org/ontology/>
PREFIX datacite: <http://purl.org/spar/datacite/>
PREFIX fabio: <http://purl.org/spar/fabio/>
"""
AUTHORS_QUERY = PREFIXES + """SELECT ?q ?author WHERE {{
  VALUES ?q {{ {values} }}
  {{ ?author foaf:name ?q }} UNION {{ ?author dbo:alternativeName ?q }}
}}"""
WORKS_QUERY = PREFIXES + """SELECT ?work ?title ?abstract ?date ?doi ?license ?oa_url ?pmcid ?author ?author_name
       ?alt_name ?position WHERE {{
  VALUES ?seed {{ {values} }}
  ?work dcterms:creator ?seed ; dcterms:title ?title ; dcterms:creator ?author .
  ?author foaf:name ?author_name .
  OPTIONAL {{ ?work dcterms:abstract ?abstract }}
  OPTIONAL {{ ?work dcterms:date ?date }}
  OPTIONAL {{ ?work datacite:doi ?doi }}
  OPTIONAL {{ ?work soa:hasLocation ?loc . ?loc dcterms:license ?license }}
  OPTIONAL {{ ?work soa:hasBestOaLocation ?best .
             OPTIONAL {{ ?best soa:pdfUrl ?pdf }} OPTIONAL {{ ?best fabio:hasURL ?url }}
             BIND(COALESCE(?pdf, ?url) AS ?oa_url) }}
  OPTIONAL {{ ?work fabio:hasPubMedCentralId ?pmcid }}
  OPTIONAL {{ ?author dbo:alternativeName ?alt_name }}
  OPTIONAL {{ ?work soa:hasAuthorPosition ?ap . ?ap soa:hasAuthor ?author ; soa:position ?position }}
}}"""
# SemOpenAlex / OpenAlex licence strings -> canonical ids of the `papers` table
LICENCES = {"pd": "public-domain", "public-domain": "public-domain", "cc0": "cc0", "cc-by": "cc-by",
            "cc-by-sa": "cc-by-sa", "cc-by-nc": "cc-by-nc", "cc-by-nd": "cc-by-nd", "cc-by-nc-sa": "cc-by-nc-sa",
            "cc-by-nc-nd": "cc-by-nc-nd"}
OPEN_FIRST = ("cc0", "public-domain", "cc-by", "cc-by-sa", "cc-by-nd", "cc-by-nc", "cc-by-nc-sa", "cc-by-nc-nd")
POSITION_RANK = {"first": 0, "middle": 1, "last": 2}
RETRYABLE = (EndPointInternalError, EndPointNotFound, TimeoutError, OSError)


class SparqlError(RuntimeError):
    """A query failed after its retries (network, timeout, server error)."""


def _literal(text: str) -> str:
    """A SPARQL string literal (quotes and backslashes escaped)."""
    esc = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return f'"{esc}"'


def _batches(items: Sequence[str], size: int) -> Iterator[list[str]]:
    for k in range(0, len(items), max(1, size)):
        yield list(items[k:k + size])


def normalise_licence(value: str | None) -> str | None:
    """'pd' -> 'public-domain', 'CC-BY' -> 'cc-by'; unknown strings kept lower-cased."""
    if not value:
        return None
    key = value.strip().lower().rsplit("/", 1)[-1] if "creativecommons" not in value else value.lower()
    if "creativecommons.org/publicdomain" in key:
        return "cc0" if "zero" in key else "public-domain"
    if "creativecommons.org/licenses/" in key:
        key = "cc-" + key.split("/licenses/")[1].split("/")[0]
    return LICENCES.get(key, key)


def _doi(value: str | None) -> str | None:
    if not value:
        return None
    low = value.strip().lower()
    for prefix in ("https://doi.org/", "http://doi.org/", "http://dx.doi.org/", "doi:"):
        low = low.removeprefix(prefix)
    return low or None


def _pmcid(value: str | None) -> str | None:
    """'PMC5815332' from 'PMC5815332', '5815332' or a PMC article URL; None when there is none."""
    if not value:
        return None
    tail = value.strip().rstrip("/").rsplit("/", 1)[-1].upper()
    digits = tail.removeprefix("PMC")
    return f"PMC{digits}" if digits.isdigit() else None


def _value(binding: dict, var: str) -> str | None:
    cell = binding.get(var)
    return cell.get("value") if isinstance(cell, dict) else None


@dataclass
class _Work:
    title: str
    abstract: str | None = None
    pub_date: date | None = None
    doi: str | None = None
    licences: set[str] = field(default_factory=set)
    oa_url: str | None = None
    pmcid: str | None = None
    authors: dict[str, dict] = field(default_factory=dict)


def _absorb(works: dict[str, _Work], b: dict) -> None:
    """Fold one binding (work x author x alternative name x licence) into its work."""
    work_uri, title = _value(b, "work"), _value(b, "title")
    if not work_uri or not work_uri.startswith(WORK_NS) or title is None:
        raise ValueError("binding without a SemOpenAlex work IRI or title")
    w = works.setdefault(work_uri[len(WORK_NS):], _Work(title=title))
    w.abstract = w.abstract or _value(b, "abstract")
    raw_date = _value(b, "date")
    if raw_date and w.pub_date is None:
        w.pub_date = date.fromisoformat(raw_date[:10])
    w.doi = w.doi or _doi(_value(b, "doi"))
    w.oa_url = w.oa_url or _value(b, "oa_url")
    w.pmcid = w.pmcid or _pmcid(_value(b, "pmcid"))
    lic = normalise_licence(_value(b, "license"))
    if lic:
        w.licences.add(lic)
    author_uri = _value(b, "author")
    if author_uri:
        aid = author_uri.rsplit("/", 1)[-1]
        a = w.authors.setdefault(aid, {"id": aid, "name": _value(b, "author_name"), "alt_names": set(),
                                       "rank": POSITION_RANK.get(_value(b, "position") or "", 1)})
        alt = _value(b, "alt_name")
        if alt:
            a["alt_names"].add(alt)


def _row(work_id: str, w: _Work) -> dict:
    licence = next((lic for lic in OPEN_FIRST if lic in w.licences), min(w.licences) if w.licences else None)
    authors = sorted(w.authors.values(), key=lambda a: (a["rank"], a["id"]))
    return {"work_id": work_id, "doi": w.doi, "title": w.title, "abstract": w.abstract, "pub_date": w.pub_date,
            "authors": [{"id": a["id"], "name": a["name"], "alt_names": sorted(a["alt_names"])} for a in authors],
            "license": licence, "sections": None}


def parse_sparql_results(data: bytes, source_file: str = "", oa_urls: dict[str, str] | None = None,
                         pmcids: dict[str, str] | None = None) -> ParseResult:
    """SPARQL JSON results of the works query -> `papers` rows (one per work); bad bindings -> rejects.

    `oa_urls` / `pmcids`, when given, are filled with work id -> best open-access URL / PubMed Central id
    (not `papers` columns: the full-text step reads them)."""
    out = ParseResult()
    try:
        doc = json.loads(data)
        bindings = doc["results"]["bindings"]
        if not isinstance(bindings, list):
            raise TypeError("results.bindings is not a list")
    except (ValueError, KeyError, TypeError) as exc:
        out.reject(SOURCE, source_file, "document", exc, data)
        return out
    works: dict[str, _Work] = {}
    for k, b in enumerate(bindings):
        try:
            _absorb(works, b if isinstance(b, dict) else {})
        except (ValueError, TypeError, AttributeError) as exc:
            out.reject(SOURCE, source_file, f"binding {k}", exc, json.dumps(b)[:2048])
    for work_id in sorted(works):
        out.add("papers", _row(work_id, works[work_id]))
        if oa_urls is not None and works[work_id].oa_url:
            oa_urls[work_id] = works[work_id].oa_url
        if pmcids is not None and works[work_id].pmcid:
            pmcids[work_id] = works[work_id].pmcid
    return out


def service_name(endpoint: str) -> str:
    """Which service an endpoint is, for cache keys: its host, or `replica` for any loopback port
    (the offline replica starts on a free port every run, and its answers must still be reused)."""
    host = urllib.parse.urlsplit(endpoint).hostname or endpoint
    return "replica" if host in ("127.0.0.1", "localhost", "::1") else host


class SemOpenAlexClient:
    """Batched, cached, timeout-aware SPARQL client for SemOpenAlex (or a replica of it)."""

    def __init__(self, endpoint: str = DEFAULT_ENDPOINT, *, cache_dir: Path | None = None, timeout_s: float = 60.0,
                 batch_size: int = 25, retries: int = 2, backoff_s: float = 1.0,
                 user_agent: str = "patentfactory/0.1 (+https://github.com/patentfactory)") -> None:
        self.endpoint, self.timeout_s, self.batch_size = endpoint, timeout_s, batch_size
        self.retries, self.backoff_s, self.user_agent = retries, backoff_s, user_agent
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.stats: dict[str, int] = defaultdict(int)
        self.oa_urls: dict[str, str] = {}
        self.pmcids: dict[str, str] = {}
        self._lock = threading.Lock()  # steps may run in threads (stages.build_pap2pat): exact counters

    def _count(self, key: str) -> None:
        with self._lock:
            self.stats[key] += 1

    # ---------- transport ----------
    def _cache_path(self, query: str) -> Path | None:
        if self.cache_dir is None:
            return None
        digest = hashlib.sha256(f"{service_name(self.endpoint)}\n{query}".encode()).hexdigest()
        return self.cache_dir / f"{digest}.json"

    def _send(self, query: str) -> bytes:
        """One HTTP round trip (POST, JSON results, explicit timeout)."""
        sparql = SPARQLWrapper(self.endpoint, agent=self.user_agent)
        sparql.setMethod(POST)
        sparql.setReturnFormat(JSON)
        sparql.setTimeout(int(max(1, self.timeout_s)))
        sparql.setQuery(query)
        self._count("queries")
        return sparql.query().response.read()

    def run(self, query: str, expect_rows: bool = False) -> bytes:
        """Answer of `query` (from cache if present); retries errors and, when `expect_rows`, empty answers.

        Returns the last answer even if it stayed empty; raises SparqlError when every attempt failed."""
        path = self._cache_path(query)
        if path is not None and path.exists():
            self._count("cache_hits")
            return path.read_bytes()
        body, error = b"", None
        for attempt in range(self.retries + 1):
            if attempt:
                self._count("retries")
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                body, error = self._send(query), None
            except RETRYABLE as exc:
                error = exc
                log.warning("semopenalex query failed (attempt %d): %s", attempt + 1, exc)
                continue
            if not expect_rows or _n_bindings(body) != 0:
                break
            log.warning("semopenalex: empty answer where rows are expected (attempt %d)", attempt + 1)
        if error is not None:
            raise SparqlError(f"{self.endpoint}: {type(error).__name__}: {error}") from error
        # an empty answer is cached only where emptiness is a real answer (no author by that name)
        if path is not None and (_n_bindings(body) > 0 or (not expect_rows and _n_bindings(body) == 0)):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
        return body

    # ---------- queries ----------
    def fetch_authors(self, names: Iterable[str]) -> dict[str, list[str]]:
        """Exact name or alternative name -> SemOpenAlex author ids (names without a hit are absent)."""
        wanted = sorted({n.strip() for n in names if n and n.strip()})
        found: dict[str, set[str]] = defaultdict(set)
        for batch in _batches(wanted, self.batch_size):
            body = self.run(AUTHORS_QUERY.format(values=" ".join(_literal(n) for n in batch)))
            for b in json.loads(body).get("results", {}).get("bindings", []):
                q, author = _value(b, "q"), _value(b, "author")
                if q and author and author.startswith(AUTHOR_NS):
                    found[q].add(author[len(AUTHOR_NS):])
        log.info("semopenalex: %d of %d names found", len(found), len(wanted))
        return {q: sorted(ids) for q, ids in sorted(found.items())}

    def fetch_works(self, author_ids: Iterable[str]) -> ParseResult:
        """Works (with co-authors, aliases, licence, DOI, date) of the given author ids, deduplicated."""
        ids = sorted(set(author_ids))
        out = ParseResult()
        for batch in _batches(ids, self.batch_size):
            out.extend(self._works_batch(batch))
        return _dedupe_papers(out)

    def _works_batch(self, batch: list[str]) -> ParseResult:
        """One batch; an answer that stays empty is split in halves (timeouts hide as empty answers)."""
        query = WORKS_QUERY.format(values=" ".join(f"<{AUTHOR_NS}{a}>" for a in batch))
        body = self.run(query, expect_rows=True)
        if _n_bindings(body) == 0:
            if len(batch) > 1:
                self._count("splits")
                half = len(batch) // 2
                out = self._works_batch(batch[:half])
                out.extend(self._works_batch(batch[half:]))
                return out
            out = ParseResult()
            out.reject(SOURCE, self.endpoint, f"author {batch[0]}", "empty answer where works were expected", body)
            return out
        return parse_sparql_results(body, self.endpoint, self.oa_urls, self.pmcids)

    def fetch_papers_by_names(self, names: Iterable[str]) -> ParseResult:
        """Names -> authors -> works: the whole candidate pull for a set of inventor name variants."""
        found = self.fetch_authors(names)
        return self.fetch_works(a for ids in found.values() for a in ids)

    def describe(self, release: str | None = None) -> dict:
        """What the manifest records about this source: endpoint, release, traffic counters."""
        return {"endpoint": self.endpoint, "release": release, **dict(self.stats)}


def _n_bindings(body: bytes) -> int:
    """Number of result rows; -1 for a body that is not a SPARQL JSON results document."""
    try:
        return len(json.loads(body)["results"]["bindings"])
    except (ValueError, KeyError, TypeError):
        return -1


def _dedupe_papers(result: ParseResult) -> ParseResult:
    """A work found through several batches appears once (first occurrence wins; rows are identical)."""
    seen: set[str] = set()
    out = ParseResult(rejects=list(result.rejects))
    for row in result.rows.get("papers", []):
        if row["work_id"] not in seen:
            seen.add(row["work_id"])
            out.add("papers", row)
    return out
