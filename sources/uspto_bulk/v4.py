"""`us-patent-grant` / `us-patent-application` v4.0-v4.7 (2005-now), all document types.

Bibliographic data sits in `us-bibliographic-data-grant|application`; parties moved from
`parties/applicants` (v4.0-v4.2, applicant-inventors) to `us-parties` (v4.3+, separate
`inventors`); citations from `references-cited/citation` to `us-references-cited/us-citation`.
Both spellings are read by the same tables below.
"""
from __future__ import annotations

import re

from lxml import etree

from .convert import (
    app_fields, cited_by_of, country_of, doc_type_of, int_or_none, ipc_from_parts, lang_or_none, read_ipc,
    report_category, safe_app_number, safe_pub_id, str_or_none, strip_claim_number, upper_or_none,
    yyyymmdd_or_none,
)
from .model import Citation, Claim, Doc, Field, FieldTable, extract, first_children, nodes, party, person
from .paths import Selection
from .text import Marks, flatten, joined, paragraphs, text_or_none

BIB = "us-bibliographic-data-grant|us-bibliographic-data-application"
# One walk over the root's children and one over the bibliographic data find every part read below.
DOCUMENT = Selection(bib=BIB, abstract="abstract", description="description", claims="claims",
                     claim="claims/claim")
BIBLIO = Selection(
    publication="publication-reference", application="application-reference",
    ipcr="classifications-ipcr/classification-ipcr",
    ipc="classification-ipc/main-classification|classification-ipc/further-classification",
    cpc="classifications-cpc/main-cpc/classification-cpc|classifications-cpc/further-cpc/classification-cpc",
    inventors="us-parties/inventors/inventor|parties/inventors/inventor",
    applicants="us-parties/us-applicants/us-applicant|parties/applicants/applicant",
    assignees="assignees/assignee", priorities="priority-claims/priority-claim",
    related="us-related-documents/*",
    citations="us-references-cited/us-citation|references-cited/citation",
)
DOC_ID = FieldTable(
    Field("country", "document-id/country", upper_or_none),
    Field("number", "document-id/doc-number"),
    Field("kind", "document-id/kind", upper_or_none),
    Field("date", "document-id/date", yyyymmdd_or_none),
)
BIB_FIELDS = FieldTable(
    Field("title", "invention-title"),
    Field("appl_type", "application-reference/@appl-type", str_or_none),
)
PARTY_FIELDS = FieldTable(
    Field("orgname", "addressbook/orgname|orgname"),
    Field("name", "addressbook/name|name"),
    Field("first", "addressbook/first-name|first-name"),
    Field("last", "addressbook/last-name|last-name"),
    Field("country", "addressbook/address/country|address/country"),
    Field("state", "addressbook/address/state|address/state"),
    Field("residence", "residence/country"),
)
PRIORITY_FIELDS = FieldTable(
    Field("country", "country", upper_or_none),
    Field("number", "doc-number"),
    Field("date", "date", yyyymmdd_or_none),
)
IPCR_PARTS = ("section", "class", "subclass", "main-group", "subgroup")
IPCR_FIELDS = FieldTable(*(Field(part, part) for part in (*IPCR_PARTS, "symbol-position")))
CLAIM_BREAKS = frozenset({"claim-text"})


def ipcr_symbol(parts: dict) -> str | None:
    return ipc_from_parts(*(parts[p] for p in IPCR_PARTS))


def classifications(bib: dict[str, list], unread: list[str]) -> tuple[list[str], list[str]]:
    """IPC (ipcr: first-position `F` first; older `classification-ipc` text) and CPC (main, then further)."""
    ipcr = [extract(el, IPCR_FIELDS) for el in bib["ipcr"]]
    ipcr.sort(key=lambda parts: parts["symbol-position"] != "F")
    ipc = [ipcr_symbol(parts) for parts in ipcr]
    ipc += [read_ipc(flatten(el), unread) for el in bib["ipc"]]
    cpc = [ipcr_symbol(extract(el, IPCR_FIELDS)) for el in bib["cpc"]]
    return [s for s in ipc if s], [s for s in cpc if s]


def _party_values(el: etree._Element) -> dict:
    v = extract(el, PARTY_FIELDS)
    v["cc"] = country_of(v["country"] or v["residence"], v["state"])
    return v


def parties(bib: dict[str, list]) -> tuple[list[dict], list[dict]]:
    """Inventors (explicit list, else applicant-inventors) and applicants + assignees."""
    applicants = bib["applicants"]
    inventor_els = bib["inventors"] or [a for a in applicants if a.get("app-type") == "applicant-inventor"]
    inventors = []
    for el in inventor_els:
        v = _party_values(el)
        inventors.append(person(v["orgname"] or v["name"], v["first"], v["last"], v["cc"]))
    owners = []
    for el in applicants:
        if el.get("app-type") != "applicant-inventor":
            v = _party_values(el)
            owners.append(party(v["orgname"] or v["name"] or person(None, v["first"], v["last"], None)["name"],
                                v["cc"], "applicant"))
    for el in bib["assignees"]:
        v = _party_values(el)
        owners.append(party(v["orgname"] or v["name"] or person(None, v["first"], v["last"], None)["name"],
                            v["cc"], "assignee"))
    return inventors, owners


def priorities(bib: dict[str, list]) -> list[dict]:
    out = []
    for el in bib["priorities"]:
        v = extract(el, PRIORITY_FIELDS)
        out.append({**app_fields(v["country"], v["country"], v["number"]),
                    "date": v["date"]})
    return out


def relation_name(tag: str) -> str:
    """`us-provisional-application` -> provisional, `continuation-in-part` kept, `us-` dropped."""
    name = tag.removeprefix("us-")
    return "provisional" if name == "provisional-application" else name


def related(bib: dict[str, list]) -> list[dict]:
    out = []
    for rel in bib["related"]:
        for holder in nodes(rel, "relation/parent-doc") or [rel]:
            v = extract(holder, DOC_ID)
            if v["number"]:
                out.append({"relation": relation_name(rel.tag),
                            **app_fields(v["country"] or "US", v["country"], v["number"]), "date": v["date"]})
    return out


_CITATION_PARTS = ("category", "patcit", "nplcit")
_CITED_PARTS = {"country": 0, "doc-number": 1, "kind": 2}


def _cited_id(patcit: etree._Element) -> tuple[str | None, str | None, str | None]:
    """`CITED_ID` of a patcit: the first `document-id/country|doc-number|kind` each, in document order."""
    found: list[etree._Element | None] = [None, None, None]
    for did in patcit:
        if did.tag == "document-id":
            for child in did:
                i = _CITED_PARTS.get(child.tag)  # type: ignore[call-overload]
                if i is not None and found[i] is None:
                    found[i] = child
    country, number, kind = found
    return (None if country is None else upper_or_none(text_or_none(country)),
            None if number is None else str_or_none(text_or_none(number)),
            None if kind is None else upper_or_none(text_or_none(kind)))


def citations(bib: dict[str, list]) -> list[Citation]:
    """Citations in order; the few elements read are found by plain child loops (a grant has dozens, and
    the generic path walk costs more than the reading)."""
    out = []
    for el in bib["citations"]:
        category_el, patcit, nplcit = first_children(el, _CITATION_PARTS)
        category = None if category_el is None else text_or_none(category_el)
        cit = Citation(category=report_category(category), cited_by=cited_by_of(category))
        if patcit is not None:
            country, number, kind = _cited_id(patcit)
            cit.cited_pub_id = safe_pub_id(country, number, kind)
            if cit.cited_pub_id is None:
                cit.cited_npl = " ".join(str(x) for x in (country, number, kind) if x) or None
        else:
            cit.cited_npl = flatten(nplcit) or None
        out.append(cit)
    return out


def ref_number(idref: str | None, ids: dict[str, int | None]) -> int | None:
    if idref in ids:
        return ids[idref]
    m = re.search(r"\d+", idref or "")
    return int(m.group()) if m else None


def claims(els: list[etree._Element], marks: Marks | None = None) -> list[Claim]:
    """Claims with nested claim-text on separate lines; claim-ref idrefs resolved to claim numbers."""
    numbers = [int_or_none(el.get("num")) for el in els]
    ids = {el.get("id"): number for el, number in zip(els, numbers)}
    out = []
    for el, number in zip(els, numbers):
        refs = [ref_number(r.get("idref"), ids) for r in el.iter("claim-ref")]
        text = strip_claim_number(flatten(el, breaks=CLAIM_BREAKS, marks=marks))
        out.append(Claim(number, text, [r for r in refs if r]))
    return out


def _first(found: list[etree._Element]) -> etree._Element | None:
    return found[0] if found else None


def parse_v4(root: etree._Element) -> Doc:
    """A v4.x grant or application -> Doc."""
    parts = DOCUMENT(root)
    if not parts["bib"]:
        raise ValueError(f"<{root.tag}> has no us-bibliographic-data-grant/application element")
    bib = BIBLIO(parts["bib"][0])
    abstract, description = _first(parts["abstract"]), _first(parts["description"])
    marks = Marks([abstract, description, *parts["claims"]], breaks=CLAIM_BREAKS)
    pub = extract(_first(bib["publication"]), DOC_ID)
    app = extract(_first(bib["application"]), DOC_ID)
    fields = extract(parts["bib"][0], BIB_FIELDS)
    if not pub["number"]:
        raise ValueError("publication-reference has no doc-number")
    is_app = root.tag == "us-patent-application"
    app_number = safe_app_number(app["country"], app["number"])
    doc = Doc(country=pub["country"] or upper_or_none(root.get("country")) or "US",
              doc_number=pub["number"], kind=pub["kind"],
              pub_date=pub["date"] or yyyymmdd_or_none(root.get("date-publ")),
              app_date=app["date"], title=fields["title"], lang=lang_or_none(root.get("lang")) or "en",
              app_id=f"{app['country'] or 'US'}-{app_number}" if app_number else None)
    doc.doc_type = doc_type_of(pub["number"], is_app)
    if doc.doc_type == "utility" and fields["appl_type"] in ("design", "plant", "reissue", "sir"):
        doc.doc_type = fields["appl_type"]
    doc.abstract = joined(nodes(abstract, "p"), marks=marks) or (flatten(abstract, marks=marks) or None)
    doc.ipc, doc.cpc = classifications(bib, doc.ipc_unread)
    doc.inventors, doc.applicants = parties(bib)
    doc.priorities, doc.related, doc.citations = priorities(bib), related(bib), citations(bib)
    doc.claims = claims(parts["claim"], marks)
    doc.paragraphs = paragraphs(description, {"p"}, {"heading"}, marks=marks)
    return doc
