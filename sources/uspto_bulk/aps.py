"""APS fixed-field text grants (the "Green Book" layout, 1976-2001).

A patent is a run of records; a record starts with a 4-character name alone on a line (`PATN`,
`INVT`, `ASSG`, `PRIR`, `RLAP`, `CLAS`, `UREF`, `FREF`, `OREF`, `ABST`, `BSUM`, `DRWD`, `DETD`,
`CLMS`, `DCLM`, ...). Field lines carry a 4-character tag (`WKU `, `APN `, `TTL `, `PAR `) and the
value from column 6; lines starting with blanks continue the previous field. There are no kind
codes, so kinds follow the pre-2001 USPTO scheme from the number prefix (A, S, E, P, H).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .convert import (
    app_fields, aps_patent_number, country_of, doc_type_of, int_or_none, read_ipc, safe_app_number, safe_pub_id,
    yyyymmdd_or_none,
)
from .model import Citation, Claim, Doc, party, person, refs_in_text

RECORDS = frozenset("PATN INVT ASSG PRIR REIS RLAP CLAS UREF FREF OREF LREP PCTA ABST GOVT PARN BSUM DRWD DETD "
                    "CLMS DCLM".split())
TEXT_RECORDS = {"GOVT": "Government interest", "PARN": "Parent case text", "BSUM": "Brief summary",
                "DRWD": "Drawing description", "DETD": "Detailed description"}
PARA_TAGS = frozenset({"PAR", "PAL", "PA0", "PA1", "PA2", "PA3", "PA4", "PA5", "PA6", "PA7", "PA8", "PA9", "EQU"})
KIND_BY_TYPE = {"design": "S", "reissue": "E", "plant": "P", "sir": "H", "utility": "A"}
RLAP_CODES = {"71": "continuation", "72": "continuation-in-part", "73": "division"}


@dataclass
class Record:
    name: str
    fields: list[tuple[str, str]] = field(default_factory=list)

    def get(self, tag: str) -> str | None:
        return next((v for t, v in self.fields if t == tag), None)

    def all(self, tag: str) -> list[str]:
        return [v for t, v in self.fields if t == tag]


class APSFormatError(ValueError):
    """Text that is not an APS patent record."""


def read_records(text: str) -> list[Record]:
    """Lines -> records of (tag, value); continuation lines are appended to the previous value."""
    records: list[Record] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        tag, value = line[:4].strip(), line[4:].strip()
        if tag in RECORDS and not value:
            records.append(Record(tag))
        elif not tag and records and records[-1].fields:
            t, v = records[-1].fields[-1]
            records[-1].fields[-1] = (t, f"{v} {value}")
        elif records and tag:
            records[-1].fields.append((tag, value))
        else:
            raise APSFormatError(f"field line before any record: {line[:40]!r}")
    if not records or records[0].name != "PATN":
        raise APSFormatError("APS document does not start with a PATN record")
    return records


def split_name(raw: str | None) -> tuple[str | None, str | None]:
    """APS names are `Last; First Middle` -> (first, last)."""
    if not raw:
        return None, None
    last, _, first = raw.partition(";")
    return first.strip() or None, last.strip() or None


def _people(records: list[Record]) -> tuple[list[dict], list[dict]]:
    inventors, owners = [], []
    for rec in records:
        cc = country_of(rec.get("CNT"), rec.get("STA"))
        if rec.name == "INVT":
            first, last = split_name(rec.get("NAM"))
            inventors.append(person(None, first, last, cc))
        elif rec.name == "ASSG":
            owners.append(party(rec.get("NAM"), cc, "assignee"))
    return inventors, owners


def _citations(records: list[Record]) -> list[Citation]:
    out = []
    for rec in records:
        if rec.name == "UREF":
            out.append(Citation(cited_pub_id=safe_pub_id("US", rec.get("PNO"), None), cited_by="other"))
        elif rec.name == "FREF":
            cc = country_of(rec.get("CNT"))
            cited = safe_pub_id(cc, rec.get("PNO"), None) if cc else None
            out.append(Citation(cited_pub_id=cited, cited_by="other",
                                cited_npl=None if cited else f"{rec.get('CNT') or ''} {rec.get('PNO') or ''}".strip()))
        elif rec.name == "OREF":
            out.extend(Citation(cited_npl=v, cited_by="other") for v in rec.all("PAL") + rec.all("PAR"))
    return out


def _claims(records: list[Record]) -> list[Claim]:
    """`NUM` opens a claim; its `PAR`/`PA1..` lines follow. Dependencies come from the wording."""
    claims: list[Claim] = []
    for rec in records:
        if rec.name not in ("CLMS", "DCLM"):
            continue
        for tag, value in rec.fields:
            if tag == "NUM":
                claims.append(Claim(int_or_none(value), ""))
            elif tag in PARA_TAGS:
                if not claims:
                    claims.append(Claim(1 if rec.name == "DCLM" else None, ""))
                claims[-1].text = f"{claims[-1].text}\n{value}".strip()
    for claim in claims:
        claim.text = re.sub(r"^\s*\d+\s*\.\s*", "", claim.text)
        claim.refs = refs_in_text(claim.text, claim.number)
    return claims


def _paragraphs(records: list[Record]) -> list[tuple[str | None, str]]:
    out: list[tuple[str | None, str]] = []
    for rec in records:
        if rec.name not in TEXT_RECORDS:
            continue
        heading = TEXT_RECORDS[rec.name]
        for tag, value in rec.fields:
            if tag == "PAC":
                heading = value
            elif tag in PARA_TAGS:
                out.append((heading, value))
            elif tag == "TBL":
                out.append((heading, "[TABLE]"))
    return out


def _ipc(records: list[Record], unread: list[str]) -> list[str]:
    return [s for rec in records if rec.name == "CLAS" for s in (read_ipc(v, unread) for v in rec.all("ICL")) if s]


def parse_aps(text: str) -> Doc:
    """One APS patent (text from its PATN line to the next) -> Doc."""
    records = read_records(text)
    patn = records[0]
    number = aps_patent_number(patn.get("WKU"))
    if not number:
        raise APSFormatError("PATN record has no WKU (patent number)")
    doc_type = doc_type_of(number)
    series, apn = (patn.get("SRC") or "").strip(), (patn.get("APN") or "").strip()
    series = "29" if series == "D" else series  # pre-1992 design series letter
    app = (series.zfill(2) if series.isdigit() else "") + (apn[:6] if len(apn) == 7 else apn)
    doc = Doc(country="US", doc_number=number, kind=KIND_BY_TYPE.get(doc_type), doc_type=doc_type,
              pub_date=yyyymmdd_or_none(patn.get("ISD")), app_date=yyyymmdd_or_none(patn.get("APD")),
              title=patn.get("TTL"), app_id=f"US-{safe_app_number('US', app)}" if app else None)
    doc.abstract = "\n".join(v for r in records if r.name == "ABST" for t, v in r.fields if t in PARA_TAGS) or None
    doc.ipc = _ipc(records, doc.ipc_unread)
    doc.inventors, doc.applicants = _people(records)
    for rec in records:
        if rec.name == "PRIR":
            cc = country_of(rec.get("CNT"))
            doc.priorities.append({**app_fields(cc, cc, rec.get("APN")),
                                   "date": yyyymmdd_or_none(rec.get("APD"))})
        elif rec.name == "RLAP":
            doc.related.append({"relation": RLAP_CODES.get(rec.get("COD") or "", f"rlap-{rec.get('COD')}"),
                                **app_fields("US", "US", rec.get("APN")),
                                "date": yyyymmdd_or_none(rec.get("APD"))})
    doc.citations = _citations(records)
    doc.claims = _claims(records)
    doc.paragraphs = _paragraphs(records)
    return doc
