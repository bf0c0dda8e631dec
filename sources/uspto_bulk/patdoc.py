"""`PATDOC` v2.4/v2.5 grants (ST.32 SGML-derived XML, 2001-2004).

Tags are WIPO ST.32 numeric codes (`B110` number, `B130` kind, `B140` date, `B210` application,
`B511` main IPC, `B540` title, `B561`/`B562` patent/other citations, `B721` inventors, `B731`
assignees); text sits in `PDAT` leaves. v2.4 (every 2001 weekly file) has the same elements but is
not well-formed XML as shipped: `sgml.patdoc_as_xml` mends it first. Its claims carry no `CLREF`, so
dependencies are read from the claim text ("as in claim 1"). Conformance: the real 2001 slice in
`real-samples/volume/uspto/grants_2001_sample.xml` (v2.4) and a v2.5 fixture.
"""
from __future__ import annotations


from lxml import etree

from .convert import (
    app_fields, country_of, doc_type_of, read_ipc, safe_app_number, safe_pub_id, strip_claim_number,
    upper_or_none, claim_number_of,
    yyyymmdd_or_none,
)
from .model import Citation, Claim, Doc, Field, FieldTable, extract, nodes, party, person, refs_in_text
from .text import flatten, joined, paragraphs

PUB_FIELDS = FieldTable(
    Field("number", "SDOBI/B100/B110/DNUM/PDAT"),
    Field("kind", "SDOBI/B100/B130/PDAT", upper_or_none),
    Field("date", "SDOBI/B100/B140/DATE/PDAT", yyyymmdd_or_none),
    Field("country", "SDOBI/B100/B190/PDAT", upper_or_none),
    Field("app_number", "SDOBI/B200/B210/DNUM/PDAT"),
    Field("app_date", "SDOBI/B200/B220/DATE/PDAT", yyyymmdd_or_none),
    Field("title", "SDOBI/B500/B540/STEXT"),
)
PRIORITY_FIELDS = FieldTable(
    Field("number", "B310/DNUM/PDAT"),
    Field("date", "B320/DATE/PDAT", yyyymmdd_or_none),
    Field("country", "B330/CTRY/PDAT", upper_or_none),
)
PARTY_FIELDS = FieldTable(
    Field("first", "NAM/FNM"),
    Field("last", "NAM/SNM"),
    Field("org", "NAM/ONM"),
    Field("country", "ADR/CTRY/PDAT"),
    Field("state", "ADR/STATE/PDAT"),
)
CITED_DOC = FieldTable(
    Field("number", "DOC/DNUM/PDAT"),
    Field("kind", "DOC/KIND/PDAT", upper_or_none),
    Field("country", "DOC/CTRY/PDAT", upper_or_none),
)
RELATED_DOC = FieldTable(
    Field("number", "DOC/DNUM/PDAT"),
    Field("date", "DOC/DATE/PDAT", yyyymmdd_or_none),
    Field("country", "DOC/CTRY/PDAT", upper_or_none),
)
# B600 related US documents: tag of the relation group -> relation name
RELATIONS = {"B610": "addition", "B620": "division", "B631": "continuation", "B632": "continuation-in-part",
             "B633": "continuing-reissue", "B640": "reissue", "B641US": "reissue", "B645": "reexamination",
             "B660": "substitution", "B680US": "provisional", "B680": "provisional"}


def patdoc_people(root: etree._Element) -> tuple[list[dict], list[dict]]:
    inventors = []
    for el in nodes(root, "SDOBI/B700/B720/B721/PARTY-US|SDOBI/B700/B720/B721/PARTY-NON-US"):
        v = extract(el, PARTY_FIELDS)
        inventors.append(person(None, v["first"], v["last"], country_of(v["country"], v["state"])))
    owners = []
    for el in nodes(root, "SDOBI/B700/B730/B731/PARTY-US|SDOBI/B700/B730/B731/PARTY-NON-US"):
        v = extract(el, PARTY_FIELDS)
        name = v["org"] or person(None, v["first"], v["last"], None)["name"]
        owners.append(party(name, country_of(v["country"], v["state"]), "assignee"))
    return inventors, owners


def patdoc_citations(root: etree._Element) -> list[Citation]:
    """`B561` patent citations and `B562` other citations, in document order."""
    out = []
    for el in nodes(root, "SDOBI/B500/B560/B561|SDOBI/B500/B560/B562"):
        by = "examiner" if el.find("CITED-BY-EXAMINER") is not None else (
            "other" if el.find("CITED-BY-OTHER") is not None else None)
        if el.tag == "B561":
            v = extract(el.find("PCIT"), CITED_DOC)
            cited = safe_pub_id(v["country"] or "US", v["number"], v["kind"])
            out.append(Citation(cited_pub_id=cited, cited_by=by,
                                cited_npl=None if cited else " ".join(x for x in v.values() if x) or None))
        else:
            out.append(Citation(cited_npl=flatten(el.find("NCIT")) or None, cited_by=by))
    return out


def patdoc_related(root: etree._Element) -> list[dict]:
    out = []
    for el in nodes(root, "SDOBI/B600//*"):
        relation = RELATIONS.get(el.tag)
        if relation is None:
            continue
        holders = nodes(el, ".//PDOC") or [el]
        for holder in holders:
            v = extract(holder, RELATED_DOC)
            if v["number"]:
                out.append({"relation": relation, **app_fields(v["country"] or "US", v["country"], v["number"]),
                            "date": v["date"]})
    return out


def patdoc_claims(root: etree._Element) -> list[Claim]:
    out = []
    for el in nodes(root, "SDOCL/CL/CLM"):
        number = claim_number_of(el.get("ID"))
        text = strip_claim_number(flatten(el, breaks={"PARA"}))
        refs = [r for r in (claim_number_of(r.get("ID")) for r in el.iter("CLREF")) if r]
        out.append(Claim(number, text, refs or refs_in_text(text, number)))  # v2.4: no CLREF, refs in the text
    return out


def parse_patdoc(root: etree._Element) -> Doc:
    """A PATDOC v2.x grant -> Doc."""
    v = extract(root, PUB_FIELDS)
    if not v["number"]:
        raise ValueError("PATDOC has no B110 document number")
    number = v["number"]
    doc = Doc(country=v["country"] or "US", doc_number=number, kind=v["kind"], pub_date=v["date"],
              app_date=v["app_date"], title=v["title"], doc_type=doc_type_of(number),
              app_id=f"US-{safe_app_number('US', v['app_number'])}" if v["app_number"] else None)
    doc.abstract = joined(nodes(root, "SDOAB//PARA"))
    # fixed-field IPC ('B32B  302' = B32B 3/02): read the text as written, blanks included (flatten collapses them)
    ipc = [read_ipc("".join(e.itertext()), doc.ipc_unread)
           for e in nodes(root, "SDOBI/B500/B510/B511|SDOBI/B500/B510/B512")]
    doc.ipc = [s for s in ipc if s]
    doc.inventors, doc.applicants = patdoc_people(root)
    for el in nodes(root, "SDOBI/B300"):
        p = extract(el, PRIORITY_FIELDS)
        doc.priorities.append({**app_fields(p["country"], p["country"], p["number"]),
                               "date": p["date"]})
    doc.related = patdoc_related(root)
    doc.citations = patdoc_citations(root)
    doc.claims = patdoc_claims(root)
    doc.paragraphs = paragraphs(root.find("SDODE"), {"PARA"}, {"H"})
    return doc
