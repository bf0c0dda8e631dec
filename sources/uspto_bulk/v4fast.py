"""The v4 parse in one libxslt pass: what `v4.parse_v4` reads, walked and flattened in C.

A weekly file is tens of thousands of documents, each a few hundred elements of bibliographic data
and a long description. Visiting those elements one by one from Python is most of a parse; here one
XSLT transform (compiled once per thread) walks the document and writes every value `parse_v4` reads, already
flattened the way `text.flatten` joins text (breaks, `[TABLE]`, dropped images), as one string of
records. Python only splits it, cleans the texts (`text.clean`) and converts values with the same
helpers as `v4`, so the `Doc` is the same as `parse_v4`'s.

Documents whose text the stylesheet cannot see the same way take `parse_v4` instead (`None` here):
named entity references (XSLT does not see entity nodes), elements in a namespace whose local name
means something to the flattening (MathML has none), encodings other than UTF-8, and text holding
the separator characters themselves.
"""
from __future__ import annotations

import re
import threading

from lxml import etree

from .convert import (
    app_fields, cited_by_of, country_of, doc_type_of, int_or_none, lang_or_none, read_ipc, report_category,
    safe_app_number, safe_pub_id, str_or_none, strip_claim_number, upper_or_none, yyyymmdd_or_none,
)
from .model import Citation, Claim, Doc, party, person
from .text import (BASE_BREAKS, CHEMISTRY, CHEMISTRY_TAGS, DROP_TAGS, INLINE_PARENTS, MATH, MATH_TAGS, PLACEHOLDER_TAGS,
                   TABLE, TABLE_TAGS, clean, single_spaced)
from .v4 import CLAIM_BREAKS, IPCR_PARTS, ipcr_symbol, ref_number, relation_name

REC, SEP = "\ue000", "\ue001"  # private-use characters; documents holding them are not read here
_SEP_BYTES = tuple(c.encode("utf-8") for c in (REC, SEP))
_SEP_LEAD = b"\xee\x80"  # what U+E000-U+E03F start with in UTF-8: one search, then the exact ones
# `&` of a named entity reference (not one of XML's five) or of a character reference to a separator
_REF = re.compile(rb"&(?!amp;|lt;|gt;|quot;|apos;|#(?![xX]0*[eE]00[01];|0*5734[45];))")
_NS_DECL = re.compile(rb"xmlns(?::[\w.\-]+)?\s*=\s*[\"']([^\"']*)")
_MATHML = b"http://www.w3.org/1998/Math/MathML"
_MATHML_ELEMENT = re.compile(rb"<(?:[\w.\-]+:)?math[\s>/]")  # a formula's LaTeX needs pandoc: `parse_v4` reads it
# placeholder elements the stylesheet writes as their token (no MathML below: those documents are not read here)
_TOKENS = ((TABLE_TAGS, TABLE), (CHEMISTRY_TAGS, CHEMISTRY), (MATH_TAGS - {"math"}, MATH))
_SPECIAL = sorted(PLACEHOLDER_TAGS | DROP_TAGS | BASE_BREAKS | CLAIM_BREAKS | INLINE_PARENTS | {"p", "heading"})
_NS_SPECIAL = tuple(f"{{*}}{name}" for name in _SPECIAL)
# characters str.strip() removes that XML 1.0 allows in text (a "non-blank first text" test)
_XML_SPACE = "".join(f"&#{ord(c)};" for c in map(chr, range(0x3001))
                     if c.isspace() and (c in "\t\n\r" or ord(c) >= 0x20))


def _field(path: str, mode: str = "f") -> str:
    """A separator, then the flattened text of the first node `path` selects (nothing if none)."""
    return f'<xsl:text>{SEP}</xsl:text><xsl:apply-templates select="({path})[1]" mode="{mode}"/>'


def _value(path: str) -> str:
    return f'<xsl:text>{SEP}</xsl:text><xsl:value-of select="{path}"/>'


def _record(kind: str) -> str:
    return f"<xsl:text>{REC}{kind}</xsl:text>"


def _flatten_templates(mode: str, breaks: frozenset[str]) -> str:
    """`text.flatten` as templates: tables -> ` [TABLE] `, dropped tags vanish, breaks on lines of their own
    (not inside inline parents); text is copied and comments/PIs give nothing (XSLT's built-in rules)."""
    drops, brk = "|".join(sorted(DROP_TAGS)), "|".join(sorted(breaks))
    inline = "|".join(f"{parent}/{tag}" for parent in sorted(INLINE_PARENTS) for tag in sorted(breaks))
    tokens = "".join(f'<xsl:template match="{"|".join(sorted(tags))}" mode="{mode}"> {token} </xsl:template>'
                     for tags, token in _TOKENS)
    return (f'{tokens}<xsl:template match="{drops}" mode="{mode}"/>'
            f'<xsl:template match="{brk}" mode="{mode}"><xsl:text>&#10;</xsl:text>'
            f'<xsl:apply-templates mode="{mode}"/><xsl:text>&#10;</xsl:text></xsl:template>'
            f'<xsl:template match="{inline}" mode="{mode}" priority="1"><xsl:apply-templates mode="{mode}"/>'
            f'</xsl:template>')


def _id_fields(prefix: str = "") -> str:
    return "".join(_field(f"{prefix}document-id/{part}") for part in ("country", "doc-number", "kind", "date"))


_DOC_ID = _id_fields()
_PARTY = "".join(_field(path) for path in (
    "addressbook/orgname|orgname", "addressbook/name|name", "addressbook/first-name|first-name",
    "addressbook/last-name|last-name", "addressbook/address/country|address/country",
    "addressbook/address/state|address/state", "residence/country"))
_IPCR = "".join(_field(part) for part in ("section", "class", "subclass", "main-group", "subgroup",
                                          "symbol-position"))
# Description children (`text.paragraphs` with paragraph `p`, heading `heading`): records P (paragraph),
# H (heading), T + token (table, chemical structure, image-only formula); other elements are paragraphs if their
# own first text is not blank, else walked into.
_DESCRIPTION = (
    f'<xsl:template match="p" mode="d">{_record("P")}<xsl:text>{SEP}</xsl:text>'
    f'<xsl:apply-templates mode="f"/></xsl:template>'
    f'<xsl:template match="heading" mode="d">{_record("H")}<xsl:text>{SEP}</xsl:text>'
    f'<xsl:apply-templates mode="f"/></xsl:template>'
    + "".join(f'<xsl:template match="{"|".join(sorted(tags))}" mode="d">{_record("T")}{token}</xsl:template>'
              for tags, token in _TOKENS) +
    f'<xsl:template match="{"|".join(sorted(DROP_TAGS))}" mode="d"/>'
    f'<xsl:template match="*[translate(node()[1][self::text()], \'{_XML_SPACE}\', \'\')]" mode="d" '
    f'priority="-0.25">{_record("P")}<xsl:text>{SEP}</xsl:text><xsl:apply-templates select="." mode="f"/>'
    f'</xsl:template>'
    f'<xsl:template match="text()|comment()|processing-instruction()" mode="d"/>'
)
STYLESHEET = f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="xml" encoding="UTF-8"/>
<xsl:template match="/"><r><xsl:for-each select="*">
<xsl:variable name="bib" select="(us-bibliographic-data-grant|us-bibliographic-data-application)[1]"/>
{_record("D")}{_value("count($bib)")}{_value("count($bib/publication-reference)")}
<xsl:for-each select="$bib">{_id_fields("publication-reference[1]/")}{_id_fields("application-reference[1]/")}
{_field("invention-title")}{_value("(application-reference/@appl-type)[1]")}
<xsl:for-each select="classifications-ipcr/classification-ipcr">{_record("I")}{_IPCR}</xsl:for-each>
<xsl:for-each select="classification-ipc/main-classification|classification-ipc/further-classification">
{_record("i")}<xsl:text>{SEP}</xsl:text><xsl:apply-templates select="." mode="f"/></xsl:for-each>
<xsl:for-each select="classifications-cpc/main-cpc/classification-cpc|
 classifications-cpc/further-cpc/classification-cpc">
{_record("C")}{_IPCR}</xsl:for-each>
<xsl:for-each select="us-parties/inventors/inventor|parties/inventors/inventor">{_record("N")}{_PARTY}</xsl:for-each>
<xsl:for-each select="us-parties/us-applicants/us-applicant|parties/applicants/applicant">
{_record("A")}{_value("@app-type")}{_PARTY}</xsl:for-each>
<xsl:for-each select="assignees/assignee">{_record("S")}{_PARTY}</xsl:for-each>
<xsl:for-each select="priority-claims/priority-claim">{_record("Y")}{_field("country")}{_field("doc-number")}
{_field("date")}</xsl:for-each>
<xsl:for-each select="us-related-documents/*"><xsl:variable name="rel" select="name()"/>
<xsl:for-each select="relation/parent-doc">{_record("L")}<xsl:text>{SEP}</xsl:text><xsl:value-of select="$rel"/>
{_DOC_ID}</xsl:for-each>
<xsl:if test="not(relation/parent-doc)">{_record("L")}<xsl:text>{SEP}</xsl:text><xsl:value-of select="$rel"/>
{_DOC_ID}</xsl:if></xsl:for-each>
<xsl:for-each select="us-references-cited/us-citation|references-cited/citation">{_record("X")}{_field("category")}
{_value("count(patcit)")}<xsl:for-each select="(patcit)[1]">{_field("document-id/country")}
{_field("document-id/doc-number")}{_field("document-id/kind")}</xsl:for-each>
<xsl:if test="not(patcit)">{_field("nplcit")}</xsl:if></xsl:for-each>
</xsl:for-each>
<xsl:for-each select="(abstract)[1]">{_record("B")}<xsl:text>{SEP}</xsl:text><xsl:apply-templates select="." mode="f"/>
<xsl:for-each select="p">{_record("b")}<xsl:text>{SEP}</xsl:text><xsl:apply-templates select="." mode="f"/>
</xsl:for-each></xsl:for-each>
<xsl:for-each select="claims/claim">{_record("K")}{_value("@num")}<xsl:text>{SEP}</xsl:text>
<xsl:if test="@id">=<xsl:value-of select="@id"/></xsl:if>
<xsl:text>{SEP}</xsl:text><xsl:apply-templates select="." mode="c"/>
<xsl:for-each select=".//claim-ref"><xsl:text>{SEP}</xsl:text><xsl:if test="@idref">=<xsl:value-of select="@idref"/>
</xsl:if></xsl:for-each></xsl:for-each>
<xsl:for-each select="(description)[1]">{_record("E")}<xsl:apply-templates mode="d"/></xsl:for-each>
</xsl:for-each></r></xsl:template>
{_flatten_templates("f", BASE_BREAKS)}
{_flatten_templates("c", BASE_BREAKS | CLAIM_BREAKS)}
{_DESCRIPTION}
</xsl:stylesheet>"""
_local = threading.local()


def transform() -> etree.XSLT:
    """The compiled stylesheet, one per thread (as `safexml.safe_parser`: lxml objects stay in their thread)."""
    xslt = getattr(_local, "xslt", None)
    if xslt is None:
        xslt = _local.xslt = etree.XSLT(etree.XML(STYLESHEET))
    return xslt


def readable(data: bytes, root: etree._Element) -> bool:
    """True if the stylesheet sees this document's text exactly as `text.flatten` does."""
    if _REF.search(data) or not data.isascii() and _SEP_LEAD in data and any(sep in data for sep in _SEP_BYTES):
        return False
    if (root.getroottree().docinfo.encoding or "UTF-8").upper() != "UTF-8":
        return False
    if b"math" in data and _MATHML_ELEMENT.search(data):
        return False
    if b"xmlns" in data:  # MathML only, and none of its elements named like the markup flattening reads
        return (all(uri == _MATHML for uri in _NS_DECL.findall(data))
                and not any("}" in el.tag for el in root.iter(*_NS_SPECIAL)))
    return True


def _text(raw: str) -> str | None:
    """`text.text_or_none` of an element whose flattened raw text is `raw`."""
    return raw if raw.isalnum() else clean(raw) or None


def _doc_id(values: list[str]) -> dict:
    country, number, kind, date = map(_text, values)
    return {"country": upper_or_none(country), "number": str_or_none(number), "kind": upper_or_none(kind),
            "date": yyyymmdd_or_none(date)}


def _party_values(values: list[str]) -> dict:
    orgname, name, first, last, country, state, residence = (str_or_none(_text(v)) for v in values)
    return {"orgname": orgname, "name": name, "first": first, "last": last,
            "cc": country_of(country or residence, state)}


def _owner(v: dict, kind: str) -> dict:
    return party(v["orgname"] or v["name"] or person(None, v["first"], v["last"], None)["name"], v["cc"], kind)


_IPCR_ALL = (*IPCR_PARTS, "symbol-position")


def _ipcr_parts(values: list[str]) -> dict:
    return dict(zip(_IPCR_ALL, (str_or_none(_text(v)) for v in values)))


class _Reader:
    """The records of one document, in stylesheet order, gathered per kind."""

    def __init__(self, out: str) -> None:
        self.by_kind: dict[str, list[list[str]]] = {}
        out, _, description = out.partition(REC + "E")
        self.description = description.split(REC)[1:]  # `P|H` + SEP + raw text, or `T`
        records = out.split(REC)
        self.head = records[1].split(SEP)
        by_kind = self.by_kind
        for rec in records[2:]:
            fields = rec.split(SEP)
            by_kind.setdefault(fields[0], []).append(fields[1:])

    def get(self, kind: str) -> list[list[str]]:
        return self.by_kind.get(kind, [])


def _classifications(r: _Reader, unread: list[str]) -> tuple[list[str], list[str]]:
    ipcr = [_ipcr_parts(values) for values in r.get("I")]
    ipcr.sort(key=lambda parts: parts["symbol-position"] != "F")
    ipc = [ipcr_symbol(parts) for parts in ipcr]
    ipc += [read_ipc(clean(values[0]), unread) for values in r.get("i")]
    cpc = [ipcr_symbol(_ipcr_parts(values)) for values in r.get("C")]
    return [s for s in ipc if s], [s for s in cpc if s]


def _parties(r: _Reader) -> tuple[list[dict], list[dict]]:
    applicants = [(values[0], _party_values(values[1:])) for values in r.get("A")]
    inventor_values = ([_party_values(values) for values in r.get("N")]
                       or [v for app_type, v in applicants if app_type == "applicant-inventor"])
    inventors = [person(v["orgname"] or v["name"], v["first"], v["last"], v["cc"]) for v in inventor_values]
    owners = [_owner(v, "applicant") for app_type, v in applicants if app_type != "applicant-inventor"]
    owners += [_owner(_party_values(values), "assignee") for values in r.get("S")]
    return inventors, owners


def _priorities(r: _Reader) -> list[dict]:
    out = []
    for country, number, date in r.get("Y"):
        cc = upper_or_none(_text(country))
        out.append({**app_fields(cc, cc, str_or_none(_text(number))),
                    "date": yyyymmdd_or_none(_text(date))})
    return out


def _related(r: _Reader) -> list[dict]:
    out = []
    for tag, *values in r.get("L"):
        v = _doc_id(values)
        if v["number"]:
            out.append({"relation": relation_name(tag), **app_fields(v["country"] or "US", v["country"], v["number"]),
                        "date": v["date"]})
    return out


_CATEGORIES: dict[str, tuple[str | None, str | None]] = {}  # a closed vocabulary: `cited by examiner`, `X`, ...


def _category(raw: str) -> tuple[str | None, str | None]:
    """(report category, cited_by) of a citation's raw category text."""
    hit = _CATEGORIES.get(raw)
    if hit is None:
        category = _text(raw)
        hit = (report_category(category), cited_by_of(category))
        if len(_CATEGORIES) < 256:
            _CATEGORIES[raw] = hit
    return hit


def _code(raw: str) -> str | None:
    """`upper_or_none` of a leaf's text (a country or kind code)."""
    return raw.upper() if raw.isalnum() else upper_or_none(_text(raw))


def _citations(r: _Reader) -> list[Citation]:
    out = []
    for category, has_patcit, *values in r.get("X"):
        report, cited_by = _category(category)
        cit = Citation(category=report, cited_by=cited_by)
        if has_patcit != "0":
            number = values[1] if values[1].isalnum() else str_or_none(_text(values[1]))
            country, kind = _code(values[0]), _code(values[2])
            cit.cited_pub_id = safe_pub_id(country, number, kind)
            if cit.cited_pub_id is None:
                cit.cited_npl = " ".join(str(x) for x in (country, number, kind) if x) or None
        else:
            cit.cited_npl = clean(values[0]) or None
        out.append(cit)
    return out


def _claims(r: _Reader) -> list[Claim]:
    records = r.get("K")
    numbers = [int_or_none(values[0]) for values in records]
    ids = {values[1][1:] if values[1] else None: number for values, number in zip(records, numbers)}
    out = []
    for (_num, _id, raw, *refs), number in zip(records, numbers):
        found = [ref_number(ref[1:] if ref else None, ids) for ref in refs]
        out.append(Claim(number, strip_claim_number(clean(raw)), [n for n in found if n]))
    return out


def _single_spaced(text: str) -> bool:
    """`text.single_spaced` for text out of an XML document, where \\t, \\n and \\r are the only ASCII blanks
    besides the space (XML 1.0 has no other control characters), so three byte searches replace a copy."""
    if text.isascii():
        return ("\n" not in text and "\t" not in text and "\r" not in text and "  " not in text
                and text[:1] != " " and text[-1:] != " ")
    return single_spaced(text)


def _paragraphs(r: _Reader) -> list[tuple[str | None, str | None]]:
    """`text.paragraphs` over the description records (the same heading and table rules)."""
    out: list[tuple[str | None, str | None]] = []
    heading: str | None = None
    pending = False
    for rec in r.description:
        kind = rec[0]
        if kind == "P":
            text = rec[2:]
            if text and not text.isspace():  # clean(text) is empty exactly when this fails
                out.append((heading, text if _single_spaced(text) else clean(text)))
                pending = False
        elif kind == "H":
            title = clean(rec[2:])
            if title:
                if pending:
                    out.append((heading, None))
                heading, pending = title, True
        else:  # `T` + the placeholder token
            out.append((heading, rec[1:]))
            pending = False
    if pending:
        out.append((heading, None))
    return out


def _abstract(r: _Reader) -> str | None:
    parts = [text for values in r.get("b") if (text := clean(values[0]))]
    if parts:
        return "\n".join(parts)
    whole = r.get("B")
    return (clean(whole[0][0]) or None) if whole else None


def parse_v4_fast(root: etree._Element, data: bytes) -> Doc | None:
    """The `Doc` that `v4.parse_v4(root)` gives, or None where the stylesheet cannot read the document
    (then `parse_v4` reads it, or says why it cannot)."""
    if not readable(data, root):
        return None
    r = _Reader(transform()(root).getroot().text)  # one text node: read, not serialised
    if r.head[1] == "0" or r.head[2] == "0":  # no bibliographic data or publication-reference
        return None
    pub, app = _doc_id(r.head[3:7]), _doc_id(r.head[7:11])
    if not pub["number"]:
        return None
    app_number = safe_app_number(app["country"], app["number"])
    appl_type = str_or_none(r.head[12])
    doc = Doc(country=pub["country"] or upper_or_none(root.get("country")) or "US",
              doc_number=pub["number"], kind=pub["kind"],
              pub_date=pub["date"] or yyyymmdd_or_none(root.get("date-publ")),
              app_date=app["date"], title=str_or_none(_text(r.head[11])),
              lang=lang_or_none(root.get("lang")) or "en",
              app_id=f"{app['country'] or 'US'}-{app_number}" if app_number else None)
    doc.doc_type = doc_type_of(pub["number"], root.tag == "us-patent-application")
    if doc.doc_type == "utility" and appl_type in ("design", "plant", "reissue", "sir"):
        doc.doc_type = appl_type
    doc.abstract = _abstract(r)
    doc.ipc, doc.cpc = _classifications(r, doc.ipc_unread)
    doc.inventors, doc.applicants = _parties(r)
    doc.priorities, doc.related, doc.citations = _priorities(r), _related(r), _citations(r)
    doc.claims = _claims(r)
    doc.paragraphs = _paragraphs(r)
    return doc
