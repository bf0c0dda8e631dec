"""Safe XML parsing for USPTO documents: no DTD loaded, no entity expanded, no network.

USPTO DOCTYPEs point at external DTDs we never fetch, so named character entities (`&lsqb;`,
`&trade;`) stay unexpanded `Entity` nodes that `text.flatten` maps to characters. Documents whose
internal subset declares text or external parsed entities (the shape of billion-laughs and XXE
attacks) are refused before parsing; only unparsed `NDATA` image entities, as in real 2001-2004
files, are accepted. The parser is configured safely as well, as a second line of defence.
"""
from __future__ import annotations

import re
import threading

from lxml import etree

_ENTITY_DECL = re.compile(rb"<!ENTITY\s+(%\s*)?([^\s>]+)\s+(.*?)>", re.S)
_SUBSET = re.compile(rb"<!DOCTYPE[^\[>]*\[(.*?)\]\s*>", re.S)
_local = threading.local()


class UnsafeXMLError(ValueError):
    """A document declares entities that could expand (billion laughs) or read files/URLs (XXE)."""


def safe_parser() -> etree.XMLParser:
    """One parser per thread (lxml parsers must not be shared across threads)."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=False,
                                 dtd_validation=False, attribute_defaults=False, remove_blank_text=False)
        _local.parser = parser
    return parser


def check_entity_declarations(data: bytes) -> None:
    """Refuse internal-subset entity declarations other than NDATA (unparsed) ones."""
    head = data[:1 << 20]
    m = _SUBSET.search(head)
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
    return etree.fromstring(data, safe_parser())


def local_name(tag: object) -> str:
    """Tag without namespace; '' for comments, PIs and entities."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1]
