"""What every format parser fills (a `Doc`) and how a `Doc` becomes canonical rows.

Parsers differ in where things are; the shape of the rows (`schemas.publications`, `claims`,
`descriptions`, `citations`) is decided here once, so all four format families agree.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lxml import etree

from sources.records import ParseResult
from common.patent_ids import PatentIdError, app_id, app_join_key, pub_id

from .convert import str_or_none
from .paths import Paths, select, walk_of, xpath_of
from .text import flatten, text_or_none

log = logging.getLogger(__name__)
SOURCE = "uspto_bulk"
_CHILD_TAG = re.compile(r"^[A-Za-z_][\w.\-]*$")  # a path that is one child step, no `*`, `|` or `@`
_CLAIM_REFS = re.compile(r"\bclaims?\s+(\d+)(?:\s*(?:-|to|through|or|and)\s*(\d+))?", re.I)

Converter = Callable[[Any], Any]


@dataclass(frozen=True)
class Field:
    """One row of a field table: output column, path relative to a context element, converter."""

    column: str
    path: str
    convert: Converter = str_or_none


class FieldTable:
    """Rows of `Field` (simple paths only, see `paths`), compiled into one walk over the context."""

    def __init__(self, *fields: Field) -> None:
        self.fields = fields
        self._walk = Paths([f.path for f in fields])
        self._columns = [(f.column, f.convert) for f in fields]
        # Every path one child tag (an ipcr's parts, a priority's country/number/date): a plain loop
        # over the children finds the same first hits as the walk, with less per-child work.
        self._tags = (tuple(f.path for f in fields)
                      if all(_CHILD_TAG.match(f.path) for f in fields) else None)

    def extract(self, context: etree._Element | None) -> dict[str, Any]:
        """{column: converter(text of the first node at path)}."""
        if context is None:
            return {column: convert(None) for column, convert in self._columns}
        # hit_text below is inlined: this is the hottest line of a parse
        hits = first_children(context, self._tags) if self._tags is not None else self._walk.first(context)
        return {column: convert(hit if hit is None or isinstance(hit, str) else text_or_none(hit))
                for (column, convert), hit in zip(self._columns, hits)}


def first_children(el: etree._Element, tags: tuple[str, ...]) -> list[etree._Element | None]:
    """Per tag, the first child of `el` with exactly that tag (None where none), in one pass."""
    found: list[etree._Element | None] = [None] * len(tags)
    for child in el:
        tag = child.tag
        if tag in tags:
            for i, want in enumerate(tags):
                if want == tag and found[i] is None:
                    found[i] = child
    return found


def hit_text(hit: etree._Element | str | None) -> str | None:
    """An attribute value as given; an element's flattened text or None."""
    if hit is None or isinstance(hit, str):
        return hit
    return text_or_none(hit)


def first_text(context: etree._Element | None, path: str) -> str | None:
    """Flattened text of the first node `path` selects (attributes and strings as given)."""
    if context is None:
        return None
    walk = walk_of(path)
    if walk is not None:
        return hit_text(walk.first(context)[0])
    hits = xpath_of(path)(context)
    if isinstance(hits, str):
        return hits or None
    for hit in hits if isinstance(hits, list) else []:
        if isinstance(hit, str):
            return hit
        return flatten(hit) or None
    return None


def extract(context: etree._Element | None, fields: FieldTable | Sequence[Field]) -> dict[str, Any]:
    """Apply a field table: {column: converter(first text at path)}."""
    table = fields if isinstance(fields, FieldTable) else FieldTable(*fields)
    return table.extract(context)


def nodes(context: etree._Element | None, path: str) -> list[etree._Element]:
    return [] if context is None else select(context, path)


@dataclass
class Claim:
    number: int | None
    text: str
    refs: list[int] = field(default_factory=list)


@dataclass
class Citation:
    cited_pub_id: str | None = None
    cited_npl: str | None = None
    category: str | None = None
    cited_by: str | None = None


@dataclass
class Doc:
    """One parsed document before it becomes rows."""

    country: str
    doc_number: str
    kind: str | None
    pub_date: date | None = None
    app_id: str | None = None
    app_date: date | None = None
    title: str | None = None
    abstract: str | None = None
    lang: str | None = "en"
    ipc: list[str] = field(default_factory=list)
    ipc_unread: list[str] = field(default_factory=list)  # text classifications that did not normalise
    cpc: list[str] = field(default_factory=list)
    inventors: list[dict] = field(default_factory=list)
    applicants: list[dict] = field(default_factory=list)
    priorities: list[dict] = field(default_factory=list)
    related: list[dict] = field(default_factory=list)
    doc_type: str | None = None
    claims: list[Claim] = field(default_factory=list)
    paragraphs: list[tuple[str | None, str | None]] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)

    @property
    def pub_id(self) -> str:
        return pub_id(self.country, self.doc_number, self.kind)


def unique(items: Iterable[str | None]) -> list[str]:
    """Order-preserving de-duplication without empties."""
    seen: dict[str, None] = {}
    for item in items:
        if item:
            seen.setdefault(item, None)
    return list(seen)


def refs_in_text(text: str, below: int | None) -> list[int]:
    """Claim numbers referred to in free text (`claim 3`, `claims 1 to 4`), for formats without claim-ref."""
    out: list[int] = []
    for m in _CLAIM_REFS.finditer(text):
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        out.extend(range(lo, hi + 1) if 0 < hi - lo < 50 else {lo, hi})
    return [n for n in unique(str(n) for n in out) for n in [int(n)] if below is None or n < below]


def claim_rows(pid: str, claims: list[Claim]) -> list[dict]:
    """Claim rows with unique numbers: missing/duplicate numbers take the next free one (logged)."""
    rows, used = [], set()
    for i, claim in enumerate(claims, start=1):
        number = claim.number
        if number is None or number in used or number <= 0:
            fallback = max(used, default=0) + 1
            log.warning("%s: claim %d has number %r; using %d", pid, i, number, fallback)
            number = fallback
        used.add(number)
        refs = [r for r in dict.fromkeys(claim.refs) if r != number]
        rows.append({"pub_id": pid, "claim_no": number, "text": claim.text, "depends_on": refs,
                     "is_independent": not refs})
    return rows


def _readable(check: Callable[[], object]) -> bool:
    try:
        check()
    except PatentIdError:
        return False
    return True


def kept_raw(doc: Doc) -> dict:
    """An application number or priority the normaliser cannot read: out of `app_id` / `priorities`, into
    `app_id_raw` / `priorities_raw` as written, flagged (publications.flags). Only flagged rows get the keys, so a
    readable document's rows are what they always were."""
    out: dict = {}
    if doc.app_id and not _readable(lambda: app_join_key(doc.app_id)):
        out["app_id_raw"], doc.app_id = doc.app_id.split("-", 1)[1], None
    bad = [p for p in doc.priorities  # a priority with no number at all has nothing to keep
           if p.get("number") and not _readable(lambda p=p: app_id(p.get("country") or "", p["number"]))]
    if bad:
        out["priorities_raw"] = [" ".join(x for x in (p.get("country"), p.get("number")) if x) for p in bad]
        doc.priorities = [p for p in doc.priorities if p not in bad]
    if doc.ipc_unread:
        out["classes_raw"] = unique(doc.ipc_unread)
    if out:
        out["flags"] = [f for f, key in (("app_id", "app_id_raw"), ("priority", "priorities_raw"),
                                         ("classification", "classes_raw")) if key in out]
    return out


def publication_row(doc: Doc, pid: str, source_file: str, raw: str) -> dict:
    ipc = unique(doc.ipc)
    kept = kept_raw(doc)
    return {
        "pub_id": pid, "country": doc.country, "doc_number": doc.doc_number, "kind": doc.kind,
        "pub_date": doc.pub_date, "app_id": doc.app_id, "app_date": doc.app_date, "title": doc.title,
        "abstract": doc.abstract, "lang": doc.lang, "ipc": ipc, "ipc3": ipc[0][:3] if ipc else None,
        "cpc": unique(doc.cpc), "inventors": doc.inventors, "applicants": doc.applicants,
        "priorities": doc.priorities, "related": doc.related, "doc_type": doc.doc_type,
        "source": SOURCE, "source_file": source_file, "raw": raw, **kept,
    }


def emit(doc: Doc, result: ParseResult, source_file: str, raw: str) -> str:
    """Add the rows of one document to `result`; returns its pub_id."""
    pid = doc.pub_id
    doc_number = pid.split("-")[1]
    doc.doc_number = doc_number
    result.add("publications", publication_row(doc, pid, source_file, raw))
    rows = result.rows  # whole tables extended at once: an application has ~100 paragraph rows
    if doc.claims:
        rows["claims"].extend(claim_rows(pid, doc.claims))
    if doc.paragraphs:
        rows["descriptions"].extend([{"pub_id": pid, "para_no": i, "heading": heading, "text": text}
                                     for i, (heading, text) in enumerate(doc.paragraphs)])
    if doc.citations:
        rows["citations"].extend([{"citing_pub_id": pid, "seq": seq, "cited_pub_id": cit.cited_pub_id,
                                   "cited_npl": cit.cited_npl, "category": cit.category, "cited_by": cit.cited_by}
                                  for seq, cit in enumerate(doc.citations, start=1)])
    return pid


def person(name: str | None, first: str | None, last: str | None, country: str | None) -> dict:
    full = name or " ".join(p for p in (first, last) if p) or None
    return {"name": full, "first": first, "last": last, "country": country}


def party(name: str | None, country: str | None, kind: str) -> dict:
    return {"name": name, "country": country, "kind": kind}
