"""EPO OPS 3.2 XML -> canonical records (publications, citations, reported_families, claims, descriptions).

OPS answers in three namespaces: `ops` (envelope, family members), `exchange` (DOCDB biblio) and
`fulltext` (claims/description). One document id appears in several formats; DOCDB wins because
the warehouse keys are DOCDB-style, epodoc is the fallback. Parsing loads no DTD, resolves no
entity and never touches the network: the bytes come from the raw cache. A response that is not
XML, or a document without an id, becomes a reject; the rest of the response still parses.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import date

from lxml import etree

from common.ipc_symbols import normalise_ipc
from common.patent_ids import PatentIdError, app_id, parse_pub_id, pub_id

from ..records import ParseResult

log = logging.getLogger(__name__)
SOURCE = "epo_ops"
NS = {"ops": "http://ops.epo.org", "ex": "http://www.epo.org/exchange", "ft": "http://www.epo.org/fulltext"}
PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)

_CC_SUFFIX = re.compile(r"\s*\[([A-Z]{2})\]\s*$")
_CLAIM_NO = re.compile(r"^\s*\(?(\d{1,4})\s*[.)]\s*(?=\S)")
_CLAIM_REF = re.compile(r"\bclaims?\s+(\d+(?:\s*(?:,|or|and|to|through|-|–)\s*(?:claims?\s+)?\d+)*)", re.I)
_ANY_PRECEDING = re.compile(r"\b(?:any|one)\b[^.;:]{0,30}\b(?:preceding|previous|foregoing|above)\s+claims?", re.I)
_PREAMBLE = re.compile(r"^\s*(?:what is claimed is|we claim|i claim|claims?)\s*:?\s*$", re.I)
_PARA_NO = re.compile(r"^\s*\[\d{1,5}\]\s*")
_WS = re.compile(r"[ \t\u00a0]+")
CITED_BY = {"examiner": "examiner", "applicant": "applicant"}


# ---------- shared converters (also used by sources.lens) ----------

def unique(values: list) -> list:
    """Order-preserving dedup (first = main/inventive symbol stays first)."""
    seen: set = set()
    return [v for v in values if v is not None and not (v in seen or seen.add(v))]


def yyyymmdd(text: str | None) -> date | None:
    """OPS dates are 'YYYYMMDD'; anything else is unknown (None), never a guess."""
    t = (text or "").strip()
    if len(t) == 8 and t.isdigit():
        try:
            return date(int(t[:4]), int(t[4:6]), int(t[6:]))
        except ValueError:
            return None
    return None


def clean_text(text: str | None) -> str:
    """Collapse spaces inside lines, drop blank lines, keep line breaks (claim elements)."""
    lines = (_WS.sub(" ", line).strip() for line in (text or "").splitlines())
    return "\n".join(line for line in lines if line)


def claim_dependencies(text: str, claim_no: int) -> list[int]:
    """Claim numbers referred to ('claim 2 or 3', 'claims 1 to 4', 'any preceding claim'), all < claim_no."""
    refs: set[int] = set()
    for m in _CLAIM_REF.finditer(text):
        refs.update(int(n) for n in re.findall(r"\d+", m.group(1)))
        for a, b in re.findall(r"(\d+)\s*(?:to|through|-|–)\s*(?:claims?\s+)?(\d+)", m.group(1)):
            refs.update(range(int(a), int(b) + 1))
    if not refs and _ANY_PRECEDING.search(text):  # 'any preceding claim 7 to 9' keeps 7-9 only
        refs.update(range(1, claim_no))
    return sorted(r for r in refs if 0 < r < claim_no)


def claim_rows(pid: str, texts: list[str]) -> list[dict]:
    """Claim-text pieces in document order -> `claims` rows.

    A piece that starts with its number ('1. A device', '2 . The device') opens a claim; an unnumbered
    piece continues the open claim, or opens the next one when none is numbered at all.
    """
    texts = [t for t in texts if t and not _PREAMBLE.match(t)]
    numbered = any(_CLAIM_NO.match(t) for t in texts)
    claims: list[tuple[int, list[str]]] = []
    for piece in texts:
        m = _CLAIM_NO.match(piece)
        if m or not numbered or not claims:
            no = int(m.group(1)) if m else len(claims) + 1
            claims.append((no, [piece[m.end():] if m else piece]))
        else:
            claims[-1][1].append(piece)
    rows, seen = [], set()
    for no, parts in claims:
        text = clean_text("\n".join(parts))
        if not text or no in seen:
            continue
        seen.add(no)
        deps = claim_dependencies(text, no)
        rows.append({"pub_id": pid, "claim_no": no, "text": text, "depends_on": deps, "is_independent": not deps})
    return rows


def split_name(raw: str) -> dict:
    """'HERRALA SAMI [FI]' / 'Herrala, Sami, ' -> name, first, last, country (first/last only when comma-separated)."""
    text = " ".join((raw or "").split())
    m = _CC_SUFFIX.search(text)
    country = m.group(1) if m else None
    text = _CC_SUFFIX.sub("", text).strip().strip(",").strip()
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) >= 2:
        return {"name": f"{parts[1]} {parts[0]}", "first": parts[1], "last": parts[0], "country": country}
    return {"name": text, "first": None, "last": None, "country": country}


# ---------- XML plumbing ----------

def read_xml(data: bytes, source_file: str, result: ParseResult) -> etree._Element | None:
    """Parse safely; malformed XML becomes one reject for the whole response."""
    try:
        return etree.fromstring(data, PARSER)
    except etree.XMLSyntaxError as exc:
        result.reject(SOURCE, source_file, "document", exc, data)
        return None


def _t(el: etree._Element | None, path: str) -> str | None:
    if el is None:
        return None
    found = el.find(path, NS)
    text = "".join(found.itertext()).strip() if found is not None else ""
    return text or None


def _doc_id(ref: etree._Element | None, kind: str = "docdb", ns: str = "ex") -> etree._Element | None:
    if ref is None:
        return None
    return ref.find(f"{ns}:document-id[@document-id-type='{kind}']", NS)


def _key(cc: str | None, number: str | None, trusted: bool) -> str | None:
    """app_id or None. A DOCDB/epodoc US number is the USPTO's only when it names the series code (12 digits,
    year first, since 2011). The older `serial + yy` form ('94268010' for 12/942,680) names none: it keys as
    `US-DOCDB94268010`, which never passes for a USPTO number, yet still joins the OPS records that share it
    (a priority claimed by an EP and a JP member)."""
    if not (cc and number):
        return None
    try:
        key = app_id(cc, number)
    except PatentIdError:
        return None
    digits = number.strip().upper().removeprefix("US")
    if key.startswith("US-") and not trusted and not re.fullmatch(r"(?:19|20)\d{10}", digits):
        return f"US-DOCDB{key[3:]}" if key[3:].isdigit() else None
    return key


def ops_app_id(ref: etree._Element | None) -> tuple[str | None, str | None]:
    """application-reference / priority-claim -> (application key, date): the office's original number first
    (OPS gives `12942680` beside the DOCDB `94268010`), then DOCDB, then epodoc; the key is
    `common.patent_ids.app_id`, the one every source writes."""
    docdb, epodoc, original = _doc_id(ref), _doc_id(ref, "epodoc"), _doc_id(ref, "original")
    epodoc_no = _t(epodoc, "ex:doc-number") or ""
    cc = _t(docdb, "ex:country") or _t(original, "ex:country") or (epodoc_no[:2] if epodoc_no[:2].isalpha() else None)
    when = _t(docdb, "ex:date") or _t(epodoc, "ex:date") or _t(original, "ex:date")
    key = (_key(_t(original, "ex:country") or cc, _t(original, "ex:doc-number"), True)
           or _key(cc, _t(docdb, "ex:doc-number"), False) or _key(cc, epodoc_no, False))
    return key, when


def _priority(claim: etree._Element) -> dict | None:
    key, when = ops_app_id(claim)
    if key is None:
        return None
    cc, number = key.split("-", 1)
    return {"country": cc, "number": number, "date": yyyymmdd(when)}


def _ref_pub_id(ref: etree._Element | None) -> str | None:
    """DOCDB id of a publication/patcit reference; epodoc ('US2003060222') when no DOCDB form."""
    docdb = _doc_id(ref)
    if docdb is not None and _t(docdb, "ex:country") and _t(docdb, "ex:doc-number"):
        return pub_id(_t(docdb, "ex:country") or "", _t(docdb, "ex:doc-number") or "", _t(docdb, "ex:kind"))
    epodoc = _doc_id(ref, "epodoc")
    if epodoc is not None and _t(epodoc, "ex:doc-number"):
        cc, num, kind = parse_pub_id(_t(epodoc, "ex:doc-number") or "")
        return f"{cc}-{num}-{kind}"
    return None


def _parties(bib: etree._Element, group: str, tag: str) -> list[dict]:
    """Prefer data-format docdb, then epodoc, then original; one entry per distinct name."""
    people = bib.findall(f"ex:parties/ex:{group}/ex:{tag}", NS)
    for fmt in ("docdb", "epodoc", "original"):
        chosen = [p for p in people if p.get("data-format") == fmt]
        if chosen:
            break
    out, seen = [], set()
    for p in chosen:
        person = split_name(_t(p, f"ex:{tag}-name/ex:name") or "")
        person["country"] = person["country"] or _t(p, "ex:residence/ex:country")
        key = " ".join(sorted(person["name"].casefold().replace(",", " ").split()))
        if person["name"] and key not in seen:
            seen.add(key)
            out.append(person)
    return out


def _cpc(bib: etree._Element) -> list[str]:
    out = []
    for pc in bib.findall("ex:patent-classifications/ex:patent-classification", NS):
        scheme = pc.xpath("string(ex:classification-scheme/@scheme)", namespaces=NS)
        if scheme and not scheme.upper().startswith("CPC"):
            continue
        parts = [_t(pc, f"ex:{p}") or "" for p in ("section", "class", "subclass", "main-group", "subgroup")]
        out.append(normalise_ipc(f"{parts[0]}{parts[1]}{parts[2]}{parts[3]}/{parts[4]}"))
    return unique(out)


def _pick_lang(elements: list[etree._Element], prefer: str = "en") -> etree._Element | None:
    """The element in `prefer` (case-insensitive: OPS fulltext says 'EN'), else the first one."""
    match = [el for el in elements if (el.get("lang") or "").lower() == prefer.lower()]
    return (match or elements or [None])[0]


def _citations(pid: str, bib: etree._Element) -> list[dict]:
    rows = []
    for seq, cit in enumerate(bib.findall("ex:references-cited/ex:citation", NS), start=1):
        cited, npl = None, None
        patcit = cit.find("ex:patcit", NS)
        if patcit is not None:
            try:
                cited = _ref_pub_id(patcit)
            except PatentIdError:
                cited = None
            npl = None if cited else " ".join(patcit.itertext()).strip() or None
        else:
            npl = _t(cit, "ex:nplcit/ex:text") or _t(cit, "ex:nplcit")
        by = CITED_BY.get((cit.get("cited-by") or "").lower(), "other")
        rows.append({"citing_pub_id": pid, "seq": seq, "cited_pub_id": cited, "cited_npl": npl,
                     "category": _t(cit, "ex:category"), "cited_by": by})
    return rows


def _biblio_row(doc: etree._Element, source_file: str, index: int) -> dict:
    """One exchange-document -> a `publications` row (raises PatentIdError/ValueError when unusable)."""
    bib = doc.find("ex:bibliographic-data", NS)
    if bib is None:
        raise ValueError("exchange-document without bibliographic-data")
    cc, num, kind = doc.get("country"), doc.get("doc-number"), doc.get("kind")
    docdb = _doc_id(bib.find("ex:publication-reference", NS))
    if not (cc and num):
        cc, num, kind = _t(docdb, "ex:country"), _t(docdb, "ex:doc-number"), _t(docdb, "ex:kind")
    pid = pub_id(cc or "", num or "", kind)
    app_ref = bib.find("ex:application-reference", NS)
    app, app_date = ops_app_id(app_ref)
    title = _pick_lang(bib.findall("ex:invention-title", NS))
    lang = (title.get("lang") if title is not None else None) or "en"
    abstract = _pick_lang(doc.findall("ex:abstract", NS), lang.lower())
    ipc = unique([normalise_ipc(_t(c, "ex:text")) for c in bib.findall(
        "ex:classifications-ipcr/ex:classification-ipcr", NS)])
    applicants = [{"name": p["name"], "country": p["country"], "kind": "applicant"}
                  for p in _parties(bib, "applicants", "applicant")]
    return {
        "pub_id": pid, "country": pid.split("-")[0], "doc_number": pid.split("-")[1], "kind": kind,
        "pub_date": yyyymmdd(_t(docdb, "ex:date")), "app_id": app,
        "app_date": yyyymmdd(app_date),
        "title": " ".join("".join(title.itertext()).split()) if title is not None else None,
        "abstract": "\n".join(clean_text(" ".join(p.itertext())) for p in abstract.findall("ex:p", NS))
        if abstract is not None else None,
        "lang": lang.lower(), "ipc": ipc, "ipc3": ipc[0][:3] if ipc else None, "cpc": _cpc(bib),
        "inventors": _parties(bib, "inventors", "inventor"), "applicants": applicants,
        "priorities": [p for p in map(_priority, bib.findall("ex:priority-claims/ex:priority-claim", NS)) if p],
        "related": None, "doc_type": None, "source": SOURCE, "source_file": source_file,
        "raw": f"{source_file}#{index}",
    }


def family_row(pid: str, family_id: str | None, kind: str = "simple") -> dict | None:
    """A `reported_families` row for an OPS family id ('0' or empty: none; OPS search pages may say 0)."""
    fid = (family_id or "").strip()
    if not fid or fid == "0":
        return None
    return {"source": SOURCE, "family_kind": kind, "family_id": fid, "pub_id": pid}


def _doc_pub_id(doc: etree._Element) -> str:
    """DOCDB id of an exchange-document from its attributes, else its publication-reference."""
    cc, num, kind = doc.get("country"), doc.get("doc-number"), doc.get("kind")
    if cc and num:
        return pub_id(cc, num, kind)
    return _ref_pub_id(doc.find("ex:bibliographic-data/ex:publication-reference", NS)) or pub_id("", "", None)


def biblio_documents(root: etree._Element, source_file: str, result: ParseResult) -> None:
    """Every exchange-document under `root` -> publications + citations + its DOCDB family id (simple family).

    An abstract-only document (the `abstract` endpoint) gives its family id only: the biblio response
    carries the same abstract with the rest of the record."""
    for i, doc in enumerate(root.iterfind(".//ex:exchange-document", NS)):
        if doc.get("status"):  # e.g. status="not found"
            result.reject(SOURCE, source_file, f"exchange-document[{i}]", f"status {doc.get('status')}",
                          etree.tostring(doc))
            continue
        try:
            fam = family_row(_doc_pub_id(doc), doc.get("family-id"))
            row = _biblio_row(doc, source_file, i) if doc.find("ex:bibliographic-data", NS) is not None \
                or doc.find("ex:abstract", NS) is None else None
        except (PatentIdError, ValueError) as exc:
            result.reject(SOURCE, source_file, f"exchange-document[{i}]", exc, etree.tostring(doc))
            continue
        if fam and fam not in result.rows["reported_families"]:  # OPS may send a document in two languages
            result.add("reported_families", fam)
        if row is None:
            continue
        result.add("publications", row)
        for cit in _citations(row["pub_id"], doc.find("ex:bibliographic-data", NS)):
            result.add("citations", cit)


def parse_with(handle: Callable[[etree._Element, str, ParseResult], None], data: bytes,
               source_file: str) -> ParseResult:
    """Parse the XML safely and hand its root to `handle`; malformed XML is the one reject."""
    result = ParseResult()
    root = read_xml(data, source_file, result)
    if root is not None:
        handle(root, source_file, result)
    return result


def parse_ops_biblio(data: bytes, source_file: str) -> ParseResult:
    """published-data biblio response -> publications + citations + reported_families (one reject per bad doc)."""
    return parse_with(biblio_documents, data, source_file)


def _fulltext_docs(data: bytes, source_file: str, part: str,
                   lang: str) -> tuple[list[tuple[str, etree._Element]], ParseResult]:
    """(pub_id, the `part` element in `lang`) per fulltext document; a document without either is a reject."""
    result = ParseResult()
    root = read_xml(data, source_file, result)
    pairs = []
    for i, doc in enumerate([] if root is None else root.iterfind(".//ft:fulltext-document", NS)):
        ref = doc.find("ft:bibliographic-data/ft:publication-reference/ft:document-id", NS)
        chosen = _pick_lang(doc.findall(f"ft:{part}", NS), lang)
        try:
            if ref is None or chosen is None:
                raise ValueError(f"fulltext document without a publication id or {part}")
            pairs.append((pub_id(_t(ref, "ft:country") or "", _t(ref, "ft:doc-number") or "",
                                 _t(ref, "ft:kind")), chosen))
        except (PatentIdError, ValueError) as exc:
            result.reject(SOURCE, source_file, f"fulltext-document[{i}]", exc, etree.tostring(doc))
    return pairs, result


def parse_ops_claims(data: bytes, source_file: str, lang: str = "en") -> ParseResult:
    """Claims fulltext -> `claims` rows in `lang` (first language given when `lang` is absent).

    The claims table is keyed (pub_id, claim_no), so one language per publication is kept."""
    pairs, result = _fulltext_docs(data, source_file, "claims", lang)
    for pid, claims in pairs:
        texts = ["".join(ct.itertext()) for ct in claims.iterfind(".//ft:claim-text", NS)]
        for row in claim_rows(pid, texts):
            result.add("claims", row)
    return result


def _is_heading(text: str) -> bool:
    return bool(text) and len(text) <= 80 and len(text.split()) <= 8 and not text.endswith((".", ":", ";"))


def parse_ops_description(data: bytes, source_file: str, lang: str = "en") -> ParseResult:
    """Description fulltext -> `descriptions` rows; short unnumbered lines are headings, '[0001]' markers dropped."""
    pairs, result = _fulltext_docs(data, source_file, "description", lang)
    for pid, desc in pairs:
        heading, para_no = None, 0
        for p in desc.iterfind(".//ft:p", NS):
            raw = " ".join("".join(p.itertext()).split())
            if not _PARA_NO.match(raw) and _is_heading(raw):
                heading = raw
                continue
            text = _PARA_NO.sub("", raw).strip()
            if text:
                result.add("descriptions", {"pub_id": pid, "para_no": para_no, "heading": heading, "text": text})
                para_no += 1
    return result


def parse_ops(data: bytes, source_file: str) -> ParseResult:
    """Any recorded OPS response (`pf parse ops FILE`, the ingest): see `responses.parse_response`."""
    from .responses import parse_response

    return parse_response(data, source_file)


_SEARCH_HIT = re.compile(rb"<country>(\w+)</country>\s*<doc-number>(\w+)</doc-number>\s*<kind>(\w+)</kind>")


def parse_search_hits(page: bytes) -> list[tuple[str, str, str]]:
    """(country, number, kind) of each publication-reference in a published-data search page."""
    return [(cc.decode(), num.decode(), kind.decode()) for cc, num, kind in _SEARCH_HIT.findall(page)]
