"""Safe XML parsing for USPTO documents: no DTD loaded, no entity expanded, no network.

USPTO DOCTYPEs point at external DTDs we never fetch, so named character entities (`&lsqb;`,
`&trade;`) stay unexpanded `Entity` nodes that `text.flatten` maps to characters. Documents whose
internal subset declares text or external parsed entities (the shape of billion-laughs and XXE
attacks) are refused before parsing; only unparsed `NDATA` image entities, as in real 2001-2004
files, are accepted. The parser is configured safely as well, as a second line of defence.
"""
from __future__ import annotations

import logging
import re
import threading

from lxml import etree

_ENTITY_DECL = re.compile(rb"<!ENTITY\s+(%\s*)?([^\s>]+)\s+(.*?)>", re.S)
_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[(.*?)\]\s*>", re.S)
_OPEN_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[")
_DECLARED = re.compile(rb"^\s*<\?xml[^>]*?\bencoding\s*=\s*[\"']([A-Za-z0-9._\-]+)[\"']")
_SINGLE_BYTE = frozenset({b"iso-8859-1", b"iso8859-1", b"latin-1", b"latin1", b"l1", b"windows-1252", b"cp1252",
                          b"us-ascii", b"ascii"})
_local = threading.local()
log = logging.getLogger(__name__)


class UnsafeXMLError(ValueError):
    """A document declares entities that could expand (billion laughs) or read files/URLs (XXE)."""


def safe_parser(encoding: str | None = None) -> etree.XMLParser:
    """One parser per thread and `encoding` override (lxml parsers must not be shared across threads)."""
    parsers = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    parser = parsers.get(encoding)
    if parser is None:
        parser = parsers[encoding] = etree.XMLParser(
            resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False, dtd_validation=False,
            attribute_defaults=False, remove_blank_text=False, encoding=encoding)
    return parser


def mislabelled_utf8(data: bytes) -> str | None:
    """The declared encoding if it names a single-byte one but the bytes are UTF-8 with non-ASCII text.

    Files re-encoded on the way (or hand-edited) keep a stale `encoding="ISO-8859-1"`; read as declared,
    every accented letter would become two (`Wídget` -> `WÃ\xadget`). Latin-1 text that happens to be
    valid multi-byte UTF-8 is vanishingly rare, so valid UTF-8 wins.
    """
    m = _DECLARED.match(data[:200])
    if not m or m.group(1).lower() not in _SINGLE_BYTE or data.isascii():
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return m.group(1).decode("ascii")


def check_entity_declarations(data: bytes) -> None:
    """Refuse internal-subset entity declarations other than NDATA (unparsed) ones."""
    head = data[:1 << 20]
    m = _SUBSET.search(head)
    if not m and _OPEN_SUBSET.search(head):  # an internal subset still open after 1 MB: read all of it
        m = _SUBSET.search(data)
    if not m:
        if b"<!ENTITY" in head:
            raise UnsafeXMLError("entity declaration outside a well-formed DOCTYPE internal subset: refused")
        return
    for decl in _ENTITY_DECL.finditer(m.group(1)):
        is_param, name, body = decl.group(1), decl.group(2).decode("ascii", "replace"), decl.group(3)
        if is_param:
            raise UnsafeXMLError(f"parameter entity %{name} declared in the internal subset: refused")
        if b"NDATA" not in body:
            kind = "external" if re.match(rb"\s*(SYSTEM|PUBLIC)\b", body) else "internal text"
            raise UnsafeXMLError(f"{kind} entity &{name}; declared in the internal subset: expansion refused")


def parse_xml(data: bytes) -> etree._Element:
    """Root element of one document, parsed without DTD, entity expansion or network access."""
    check_entity_declarations(data)
    declared = mislabelled_utf8(data)
    if declared:
        log.warning("document declares %s but its bytes are UTF-8: read as UTF-8", declared)
        return etree.fromstring(data, safe_parser("utf-8"))
    return etree.fromstring(data, safe_parser())


def local_name(tag: object) -> str:
    """Tag without namespace; '' for comments, PIs and entities."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]
