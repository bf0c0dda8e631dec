"""Every OPS 3.2 response the client asks for, recognised by its structure and turned into records.

- published-data/publication/…/biblio: exchange-documents -> publications, citations, reported_families
- published-data/publication/…/abstract: exchange-documents with an abstract only -> reported_families
- published-data/publication/…/claims | description: ftxt:fulltext-documents -> claims | descriptions
- family/publication/…[/biblio] (legal or not): ops:patent-family of ops:family-member -> reported_families
  (with /biblio also publications and citations from the embedded exchange-documents)
- published-data/search: ops:biblio-search of ops:publication-reference -> reported_families
- published-data/search/biblio: ops:biblio-search of exchange-documents -> as biblio
- any request, on error: a fault body (code, message) -> one reject naming the OPS code

Family ids: every exchange-document, family member and search hit carries `family-id`, the DOCDB
(simple) family; it is kept as a `simple` reported family. A family response lists one INPADOC
(extended) family, which OPS gives no id of its own: its members are kept as an `extended` family whose
id is the smallest DOCDB family id among them, so any member's response names it alike.
"""
from __future__ import annotations

from collections import Counter

from lxml import etree

from common.patent_ids import PatentIdError

from ..records import ParseResult
from .parse import (NS, SOURCE, _doc_id, _priority, _ref_pub_id, _t, biblio_documents, family_row, ops_app_id,
                    parse_ops_claims, parse_ops_description, parse_with, read_xml, yyyymmdd)


def _member(member: etree._Element) -> dict:
    pid = _ref_pub_id(member.find("ex:publication-reference", NS))
    if not pid:
        raise ValueError("family member without a publication id")
    app = ops_app_id(member.find("ex:application-reference", NS))[0]
    prios = [p for p in map(_priority, member.findall("ex:priority-claim", NS)) if p]
    return {"pub_id": pid, "family_id": member.get("family-id"), "app_id": app, "priorities": prios,
            "pub_date": yyyymmdd(_t(_doc_id(member.find("ex:publication-reference", NS)), "ex:date"))}


def _members(root: etree._Element, source_file: str, result: ParseResult) -> list[dict]:
    members: list[dict] = []
    for i, el in enumerate(root.iterfind(".//ops:family-member", NS)):
        try:
            members.append(_member(el))
        except (PatentIdError, ValueError) as exc:
            result.reject(SOURCE, source_file, f"family-member[{i}]", exc, etree.tostring(el))
    return members


def parse_family_members(data: bytes, source_file: str = "") -> tuple[list[dict], ParseResult]:
    """INPADOC family response -> member dicts (pub_id, family_id, app_id, priorities, pub_date) + rejects."""
    result = ParseResult()
    root = read_xml(data, source_file, result)
    return ([] if root is None else _members(root, source_file, result)), result


def inpadoc_id(family_ids: list[str | None]) -> str | None:
    """The id we give an INPADOC family: its smallest DOCDB family id (numerically), None without any."""
    ids = sorted({f for f in family_ids if f and f.strip("0")}, key=lambda f: (len(f), f))
    return ids[0] if ids else None


def _family(root: etree._Element, source_file: str, result: ParseResult) -> None:
    members = _members(root, source_file, result)
    ext = inpadoc_id([m["family_id"] for m in members])
    total = root.find(".//ops:patent-family", NS)
    size = total.get("total-result-count") if total is not None else None  # the INPADOC family's size, as OPS says
    size = int(size) if size and size.isdigit() else None
    # a whole INPADOC listing holds every member of each DOCDB family in it: those sizes are counts of the listing
    listed = {m["pub_id"]: m["family_id"] for m in members}
    docdb_sizes = Counter(listed.values()) if size == len(listed) else {}
    seen: set[tuple[str, str, str]] = set()
    for m in members:
        simple, extended = family_row(m["pub_id"], m["family_id"]), family_row(m["pub_id"], ext, "extended")
        if extended and size is not None:
            extended["family_size"] = size
        if simple and docdb_sizes:
            simple["family_size"] = docdb_sizes[m["family_id"]]
        for row in (simple, extended):
            key = row and (row["family_kind"], row["family_id"], row["pub_id"])
            if row and key not in seen:
                seen.add(key)
                result.add("reported_families", row)
    biblio_documents(root, source_file, result)  # family/…/biblio embeds each member's exchange-document


def parse_ops_family(data: bytes, source_file: str) -> ParseResult:
    """INPADOC family -> reported_families: each member's DOCDB family (simple) and the INPADOC one (extended)."""
    return parse_with(_family, data, source_file)


def _search(root: etree._Element, source_file: str, result: ParseResult) -> None:
    """Search hits' DOCDB family ids; a search/biblio page's exchange-documents parse as biblio."""
    for i, ref in enumerate(root.iterfind(".//ops:search-result/ops:publication-reference", NS)):
        try:
            row = family_row(_ref_pub_id(ref) or "", ref.get("family-id"))
        except PatentIdError as exc:
            result.reject(SOURCE, source_file, f"publication-reference[{i}]", exc, etree.tostring(ref))
            continue
        if row:
            result.add("reported_families", row)
    biblio_documents(root, source_file, result)


def _fulltext(root: etree._Element, source_file: str, result: ParseResult) -> None:
    data = etree.tostring(root)
    if root.find(".//ft:fulltext-document/ft:claims", NS) is not None:
        result.extend(parse_ops_claims(data, source_file))
    if root.find(".//ft:fulltext-document/ft:description", NS) is not None:
        result.extend(parse_ops_description(data, source_file))


def _fault(root: etree._Element, source_file: str, result: ParseResult) -> None:
    code = " ".join(root.xpath("string(.//*[local-name()='code'])").split())
    message = " ".join(root.xpath("string(.//*[local-name()='message'])").split())
    result.reject(SOURCE, source_file, "document", f"OPS fault {code}: {message}", etree.tostring(root))


_KINDS = ((".//ops:patent-family", _family), (".//ops:biblio-search", _search),
          (".//ex:exchange-document", biblio_documents),
          (".//ft:fulltext-document", _fulltext))


def parse_response(data: bytes, source_file: str) -> ParseResult:
    """Any OPS response -> records; what it is comes from its elements, not from the file name."""
    result = ParseResult()
    root = read_xml(data, source_file, result)
    if root is None:
        return result
    if etree.QName(root).localname == "fault":
        _fault(root, source_file, result)
        return result
    for path, handle in _KINDS:
        if root.find(path, NS) is not None:
            handle(root, source_file, result)
            return result
    result.reject(SOURCE, source_file, "document", f"unknown OPS response type (root <{etree.QName(root).localname}>)",
                  data)
    return result
