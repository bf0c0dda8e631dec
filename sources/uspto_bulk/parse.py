"""Entry points: detect a document's format, parse one document, parse a whole weekly file.

Every document either becomes rows or one reject (`doc=<i>@<offset>`, reason, first 2 kB);
the rest of the file always continues. Whole-file problems (truncated or unsafe archive) raise
`ArchiveError` subclasses so the caller can record the file as failed.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from lxml import etree

from sources.records import ParseResult
from common.patent_ids import PatentIdError

from .aps import APSFormatError, parse_aps
from .model import SOURCE, Doc, emit
from .pap import parse_pap
from .patdoc import parse_patdoc
from .safexml import UnsafeXMLError, parse_xml
from .sgml import patdoc_as_xml
from .split import DEFAULT_LIMITS, Limits, OversizedDocument, iter_documents
from .text import FORMULA_OPEN, formula_batch, resolve_formulas
from .v4 import parse_v4
from .v4fast import parse_v4_fast

log = logging.getLogger(__name__)
BATCH_DOCS = 500

_DOCTYPE = re.compile(rb"<!DOCTYPE\s+([A-Za-z_][\w.\-]*)")
_ROOT = re.compile(rb"<([A-Za-z_][\w.\-]*)[\s>/]")
_V4_VERSION = re.compile(rb'dtd-version="v?(\d)\.?(\d)')
FORMATS: dict[str, str] = {
    "us-patent-grant": "v4", "us-patent-application": "v4",
    "PATDOC": "patdoc", "patent-application-publication": "pap",
}
XML_PARSERS: dict[str, Callable[[etree._Element], Doc]] = {"v4": parse_v4, "patdoc": parse_patdoc, "pap": parse_pap}


class UnknownFormatError(ValueError):
    """A document whose DOCTYPE/root element is none of the USPTO formats we read."""


class NonPatentDocument(UnknownFormatError):
    """A document whose DOCTYPE declares a kind that is no patent (a `sequence-cwu` sequence listing): skipped and
    counted by `kind`, never a reject."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"not a patent document: DOCTYPE {kind!r}")
        self.kind = kind


class DocumentTooLargeError(ValueError):
    """A document over the splitter's per-document cap."""


def _doctype_name(head: bytes) -> str | None:
    m = _DOCTYPE.search(head)
    return m.group(1).decode("ascii") if m else None


def _root_name(head: bytes) -> str | None:
    name = _doctype_name(head)
    if name:
        return name
    body = re.sub(rb"<\?.*?\?>|<!--.*?-->", b"", head, flags=re.S)
    m = _ROOT.search(body)
    return m.group(1).decode("ascii") if m else None


def detect_format(data: bytes) -> str:
    """`v4`, `patdoc`, `pap` or `aps` from the DOCTYPE / root element (or the APS `PATN` record)."""
    head = data[:8192]
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"PATN"):
        return "aps"
    name = _root_name(head) if stripped.startswith(b"<") else None
    fmt = FORMATS.get(name or "")
    if fmt is None and name and _doctype_name(head) == name:
        raise NonPatentDocument(name)  # a declared document type that is no patent: skipped, counted by kind
    if fmt is None:
        seen = f"root/DOCTYPE {name!r}" if name else f"content starting {stripped[:40]!r}"
        raise UnknownFormatError(f"unknown USPTO document format: {seen}; expected one of "
                                 f"{sorted(FORMATS)} or APS text")
    if fmt == "v4":
        m = _V4_VERSION.search(head)
        if m and m.group(1) != b"4":
            log.warning("us-patent document with dtd-version %s.%s: parsed as v4", m.group(1), m.group(2))
    return fmt


def _decode_aps(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # APS is 8-bit text; latin-1 never produces U+FFFD


def to_doc(data: bytes) -> Doc:
    """Bytes of one document -> Doc (raises on anything unreadable)."""
    if isinstance(data, OversizedDocument):
        raise DocumentTooLargeError(f"document of {data.size} bytes exceeds the per-document cap")
    fmt = detect_format(data)
    if fmt == "aps":
        return parse_aps(_decode_aps(data))
    root = parse_xml(patdoc_as_xml(data) if fmt == "patdoc" else data)
    if fmt == "v4":
        doc = _v4_fast(root, data)
        if doc is not None:
            return doc
    return XML_PARSERS[fmt](root)


def _v4_fast(root: etree._Element, data: bytes) -> Doc | None:
    """The one-pass reading, or None: then `parse_v4` reads the document (or says why it cannot), so a
    document the stylesheet reading trips over still gets exactly the rows or reject it always got."""
    try:
        return parse_v4_fast(root, data)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        log.debug("v4 stylesheet reading failed (%s: %s); reading element by element", type(exc).__name__, exc)
        return None


REJECTABLE = (etree.XMLSyntaxError, UnsafeXMLError, UnknownFormatError, DocumentTooLargeError, APSFormatError,
              PatentIdError, ValueError, KeyError, TypeError, AttributeError, IndexError)


def _put_latex(result: ParseResult, formulas: list[str]) -> None:
    """Formula markers in any text column of the rows -> LaTeX (one pandoc batch); `formulas` is emptied."""
    if not formulas:
        return
    texts = [v for rows in result.rows.values() for row in rows for v in row.values()
             if isinstance(v, str) and FORMULA_OPEN in v]
    done = resolve_formulas(formulas, texts)
    for rows in result.rows.values():
        for row in rows:
            for key, value in row.items():
                if isinstance(value, str) and value in done:
                    row[key] = done[value]
    formulas.clear()


def parse_document(data: bytes, source_file: str, doc_index: int, offset: int,
                   formulas: list[str] | None = None) -> ParseResult:
    """One document -> its rows, exactly one reject row saying where and why, or (a non-patent document such as a
    sequence listing) nothing but a count in `skipped` under its DOCTYPE.

    `formulas`: the caller's pending list (parse_file: one pandoc batch per yielded batch); then the rows keep
    their formula markers for the caller to resolve. Without it, the document's LaTeX is put in here."""
    result = ParseResult()
    locator = f"doc={doc_index}@{offset}"
    try:
        with formula_batch(formulas) as pending:
            doc = to_doc(data)
            emit(doc, result, source_file, f"{source_file}#{doc_index}@{offset}")
        if formulas is None and pending:
            _put_latex(result, pending)
    except NonPatentDocument as exc:
        log.debug("%s %s skipped: %s", source_file, locator, exc)
        result = ParseResult()
        result.skip(exc.kind)
    except REJECTABLE as exc:
        log.info("%s %s rejected: %s: %s", source_file, locator, type(exc).__name__, exc)
        result = ParseResult()
        result.reject(SOURCE, source_file, locator, exc, data)
    return result


def _duplicate(result: ParseResult, seen: dict[str, str], source_file: str, locator: str,
               data: bytes) -> ParseResult:
    """A pub_id already seen in this file: the repeat becomes a reject (keys stay unique)."""
    pubs = result.rows.get("publications") or []
    if pubs and pubs[0]["pub_id"] in seen:
        dup = ParseResult()
        dup.reject(SOURCE, source_file, locator,
                   f"duplicate publication {pubs[0]['pub_id']} (first at {seen[pubs[0]['pub_id']]})", data)
        return dup
    if pubs:
        seen[pubs[0]["pub_id"]] = locator
    return result


def parse_file(path: str | Path, batch_docs: int = BATCH_DOCS,
               limits: Limits = DEFAULT_LIMITS, batch_bytes: int | None = None) -> Iterator[ParseResult]:
    """A weekly file -> ParseResults of at most `batch_docs` documents each (memory stays flat).

    With `batch_bytes` a batch also ends once its documents reach that many bytes of XML: memory is then
    bounded below a batch of `batch_docs` too (`pf parse` writes a row group per batch; the warehouse keeps
    `batch_docs` per part, so a weekly file stays a few dozen parts).
    A file without any document yields one reject, never an empty result.
    """
    path = Path(path)
    batch, in_batch, in_bytes, total, seen = ParseResult(), 0, 0, 0, {}
    formulas: list[str] = []  # this file's pending MathML: one pandoc call per yielded batch
    for index, offset, data in iter_documents(path, limits):
        one = parse_document(data, path.name, index, offset, formulas)
        batch.extend(_duplicate(one, seen, path.name, f"doc={index}@{offset}", data))
        in_batch, in_bytes, total = in_batch + 1, in_bytes + len(data), total + 1
        if in_batch >= batch_docs or (batch_bytes is not None and in_bytes >= batch_bytes):
            _put_latex(batch, formulas)
            yield batch
            batch, in_batch, in_bytes = ParseResult(), 0, 0
    if total == 0:
        batch.reject(SOURCE, path.name, "file", "no documents found in file")
    if in_batch or total == 0:
        _put_latex(batch, formulas)
        yield batch
    log.info("%s: %d documents read", path.name, total)
