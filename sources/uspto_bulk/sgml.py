"""PATDOC v2.4 (2001 weekly grant files) as well-formed XML.

The 2001 files are SGML written with XML syntax, but not quite XML: the DOCTYPE gives a public id without
the system literal XML requires (`<!DOCTYPE PATDOC PUBLIC "-//USPTO//DTD ST.32 US PATENT GRANT V2.4…//EN" [`),
and elements the DTD declares EMPTY carry no end tag (`<CITED-BY-EXAMINER>`, `<EMI ID=… FILE=…>`,
`<COLSPEC …>`). Both are mended here, in bytes, before the safe XML parser sees the document; a v2.5 or
any well-formed document passes unchanged.
"""
from __future__ import annotations

import re

_PUBLIC_ONLY = re.compile(rb"(<!DOCTYPE\s+[\w.\-]+\s+PUBLIC\s+(?:\"[^\"]*\"|'[^']*'))(\s*[\[>])")
_OPEN_TAG = re.compile(rb"<([A-Za-z][\w.\-]*)((?:\s+[^\s=>/]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*>")
_OPEN_NAME = re.compile(rb"<([A-Za-z][\w.\-]*)[\s>]")
_CLOSE_TAG = re.compile(rb"</([A-Za-z][\w.\-]*)\s*>")


def patdoc_as_xml(data: bytes) -> bytes:
    """Add the missing system literal to a PUBLIC-only DOCTYPE and self-close end-tag-less EMPTY elements."""
    data = _PUBLIC_ONLY.sub(rb'\1 ""\2', data, count=1)
    # an element the DTD declares EMPTY is the only kind never closed (CITED-BY-EXAMINER, EMI, COLSPEC, B597US, ...)
    empty = set(_OPEN_NAME.findall(data)) - set(_CLOSE_TAG.findall(data))
    if not empty:
        return data

    def close(m: re.Match[bytes]) -> bytes:
        return m.group(0)[:-1].rstrip() + b"/>" if m.group(1) in empty else m.group(0)

    return _OPEN_TAG.sub(close, data)
