"""`patent-application-publication` pap v1.5/v1.6: US pre-grant publications 2001-2004.

All bibliographic data is under `subdoc-bibliographic-information`; the country is implicit (US);
description sections (`summary-of-invention`, `detailed-description`, ...) often carry no heading
of their own, so their names label the paragraphs until a real `heading` appears; paragraphs
start with a `<number>[0001]</number>` that we drop.
"""
from __future__ import annotations


from lxml import etree

from .convert import (
    app_fields, country_of, read_ipc, safe_app_number, str_or_none, strip_claim_number, upper_or_none,
    claim_number_of,
    yyyymmdd_or_none,
)
from .model import Claim, Doc, Field, FieldTable, extract, first_text, nodes, party, person
from .text import flatten, joined, paragraphs

BIB = "subdoc-bibliographic-information"
PUB_FIELDS = FieldTable(
    Field("number", f"{BIB}/document-id/doc-number"),
    Field("kind", f"{BIB}/document-id/kind-code", upper_or_none),
    Field("date", f"{BIB}/document-id/document-date", yyyymmdd_or_none),
    Field("app_number", f"{BIB}/domestic-filing-data/application-number/doc-number"),
    Field("app_date", f"{BIB}/domestic-filing-data/filing-date", yyyymmdd_or_none),
    Field("title", f"{BIB}/technical-information/title-of-invention"),
)
PRIORITY_FIELDS = FieldTable(
    Field("country", "country-code", upper_or_none),
    Field("number", "priority-application-number/doc-number"),
    Field("date", "filing-date", yyyymmdd_or_none),
)
PERSON_FIELDS = FieldTable(
    Field("first", "name/given-name"),
    Field("middle", "name/middle-name"),
    Field("last", "name/family-name"),
    Field("org", "organization-name|name/organization-name"),
    Field("country", "residence/residence-non-us/country-code|residence/residence-us/country-code"),
    Field("state", "residence/residence-us/state|residence/residence-non-us/state"),
)
PARENT_FIELDS = FieldTable(
    Field("number", "document-id/doc-number"),
    Field("country", "document-id/country-code", upper_or_none),
    Field("date", "document-id/document-date", yyyymmdd_or_none),
)
SECTION_LABELS = {
    "cross-reference-to-related-applications": "Cross-reference to related applications",
    "federal-research-statement": "Federal research statement",
    "background-of-invention": "Background of the invention",
    "summary-of-invention": "Summary of the invention",
    "brief-description-of-drawings": "Brief description of drawings",
    "detailed-description": "Detailed description",
}
IPC = (f"{BIB}/technical-information/classification-ipc/classification-ipc-primary/ipc|"
       f"{BIB}/technical-information/classification-ipc/classification-ipc-secondary/ipc")


def pap_people(root: etree._Element) -> tuple[list[dict], list[dict]]:
    inventors = []
    for el in nodes(root, f"{BIB}/inventors/first-named-inventor|{BIB}/inventors/inventor"):
        v = extract(el, PERSON_FIELDS)
        first = " ".join(p for p in (v["first"], v["middle"]) if p) or None
        inventors.append(person(None, first, v["last"], country_of(v["country"], v["state"]) or
                                ("US" if first_text(el, "residence/residence-us") else None)))
    owners = []
    for el in nodes(root, f"{BIB}/assignee"):
        v = extract(el, PERSON_FIELDS)
        name = v["org"] or person(None, v["first"], v["last"], None)["name"]
        owners.append(party(name, country_of(v["country"], v["state"]), "assignee"))
    return inventors, owners


def pap_related(root: etree._Element) -> list[dict]:
    """`continuity-data`: continuation-of, continuation-in-part-of, division-of, ...-of-provisional."""
    out = []
    for el in nodes(root, f"{BIB}/continuity-data//*[substring(local-name(), string-length(local-name()) - 2) = '-of']"
                          f"|{BIB}/continuity-data/non-provisional-of-provisional"):
        relation = "provisional" if "provisional" in el.tag else el.tag.removesuffix("-of")
        for holder in nodes(el, "parent-child/parent") or nodes(el, "document-id/..")[:1]:
            v = extract(holder, PARENT_FIELDS)
            if v["number"]:
                out.append({"relation": relation, **app_fields(v["country"] or "US", v["country"], v["number"]),
                            "date": v["date"]})
    return out


def pap_claims(root: etree._Element) -> list[Claim]:
    out = []
    for el in nodes(root, "subdoc-claims/claim"):
        refs = [claim_number_of(r.get("depends_on")) for r in el.iter("dependent-claim-reference")]
        text = strip_claim_number(flatten(el, breaks={"claim-text"}))
        out.append(Claim(claim_number_of(el.get("id")), text, [r for r in refs if r]))
    return out


def parse_pap(root: etree._Element) -> Doc:
    """A pap v1.x application publication -> Doc."""
    v = extract(root, PUB_FIELDS)
    if not v["number"]:
        raise ValueError("subdoc-bibliographic-information has no document-id/doc-number")
    doc = Doc(country="US", doc_number=v["number"], kind=v["kind"], pub_date=v["date"], app_date=v["app_date"],
              title=v["title"], doc_type="application",
              app_id=f"US-{safe_app_number('US', v['app_number'])}" if v["app_number"] else None)
    doc.abstract = joined(nodes(root, "subdoc-abstract/paragraph"), drop={"number"})
    doc.ipc = [read_ipc(flatten(el), doc.ipc_unread) or "" for el in nodes(root, IPC)]
    doc.inventors, doc.applicants = pap_people(root)
    for el in nodes(root, f"{BIB}/foreign-priority-data"):
        p = extract(el, PRIORITY_FIELDS)
        doc.priorities.append({**app_fields(p["country"], p["country"], p["number"]),
                               "date": p["date"]})
    doc.related = pap_related(root)
    doc.claims = pap_claims(root)
    doc.paragraphs = paragraphs(root.find("subdoc-description"), {"paragraph"}, {"heading"},
                                drop={"number"}, labels=SECTION_LABELS)
    doc.title = str_or_none(doc.title)
    return doc
