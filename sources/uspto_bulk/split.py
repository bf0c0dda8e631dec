"""Split a USPTO weekly file into its documents, streaming, with memory independent of file size.

A weekly file (`ipgYYMMDD.zip`, `ipaYYMMDD.zip`, the bare `.xml` inside, or an APS `.txt`) is many
documents concatenated. XML documents each start with their own `<?xml ...?>`, or, in the PATDOC
v2.4 grant files of 2001, with their `<!DOCTYPE PATDOC …[ …entities… ]>` and no declaration; APS text
documents start with a `PATN` line. We read the zip member (or file) in chunks and cut at those markers, so
only one document is held at a time. Archives are checked before reading: member names that would
escape a folder (zip-slip) and zip bombs are refused, and a truncated/corrupt archive raises
`TruncatedArchiveError` instead of a bare zipfile/zlib error.
"""
from __future__ import annotations

import logging
import re
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO, NamedTuple

log = logging.getLogger(__name__)

CHUNK_BYTES = 1 << 20
XML_MARKER = b"<?xml "
DOCTYPE_MARKER = b"<!DOCTYPE"
_ELEMENT_START = re.compile(rb"<[A-Za-z_]")
APS_MARKER = b"\nPATN"
DATA_SUFFIXES = (".xml", ".txt", ".sgm", ".sgml")


class ArchiveError(Exception):
    """A weekly archive that cannot be read safely."""


class UnsafeArchiveError(ArchiveError):
    """Zip-slip member names or a zip bomb: refused before any byte is decompressed."""


class TruncatedArchiveError(ArchiveError):
    """The archive ends early or is corrupt (bad central directory, CRC or deflate stream)."""


class OversizedDocument(bytes):
    """The first bytes of a document larger than the per-document cap (the rest was skipped)."""

    size: int = 0


class Document(NamedTuple):
    index: int
    offset: int
    data: bytes


@dataclass(frozen=True)
class Limits:
    """Caps for archives and documents; defaults fit the largest real weekly files with room."""

    max_member_bytes: int = 16 << 30
    max_ratio: float = 200.0
    max_doc_bytes: int = 256 << 20
    chunk_bytes: int = CHUNK_BYTES


DEFAULT_LIMITS = Limits()


def check_member_name(name: str) -> None:
    """Refuse absolute names, drive letters and `..` parts (zip-slip), even though we never extract."""
    norm = name.replace("\\", "/")
    parts = PurePosixPath(norm).parts
    if norm.startswith("/") or re.match(r"^[A-Za-z]:", norm) or ".." in parts:
        raise UnsafeArchiveError(f"unsafe member name {name!r} in archive (absolute path or '..')")


def check_member_size(info: zipfile.ZipInfo, limits: Limits) -> None:
    """Refuse members whose declared size or compression ratio marks a zip bomb."""
    if info.file_size > limits.max_member_bytes:
        raise UnsafeArchiveError(
            f"member {info.filename!r} declares {info.file_size} bytes uncompressed, cap is {limits.max_member_bytes}")
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > (1 << 20) and ratio > limits.max_ratio:
        raise UnsafeArchiveError(
            f"member {info.filename!r} has compression ratio {ratio:.0f}:1 (cap {limits.max_ratio:.0f}:1): zip bomb")


def _data_members(zf: zipfile.ZipFile, limits: Limits) -> list[zipfile.ZipInfo]:
    infos = zf.infolist()
    for info in infos:
        check_member_name(info.filename)
    members = [i for i in infos if not i.is_dir() and i.filename.lower().endswith(DATA_SUFFIXES)]
    for info in members:
        check_member_size(info, limits)
    return members


def _read_chunks(stream: BinaryIO, limits: Limits, declared: int | None, label: str) -> Iterator[bytes]:
    """Chunks of a stream; counts real bytes against the declared size and the cap."""
    total = 0
    cap = min(limits.max_member_bytes, declared) if declared is not None else None
    try:
        while chunk := stream.read(limits.chunk_bytes):
            total += len(chunk)
            if cap is not None and total > cap:
                raise UnsafeArchiveError(f"{label}: more than {cap} bytes decompressed: zip bomb")
            yield chunk
    except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
        raise TruncatedArchiveError(f"{label}: archive is truncated or corrupt after {total} bytes: {exc}") from exc


def _zip_chunks(path: Path, limits: Limits) -> Iterator[Iterator[bytes]]:
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, EOFError, OSError) as exc:
        raise TruncatedArchiveError(f"{path.name}: not a readable zip (truncated or corrupt): {exc}") from exc
    with zf:
        members = _data_members(zf, limits)
        if not members:
            log.warning("%s: no data member (.xml/.txt) in archive", path.name)
        for info in members:
            try:
                stream = zf.open(info)
            except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
                raise TruncatedArchiveError(f"{path.name}:{info.filename}: cannot open member: {exc}") from exc
            with stream:
                yield _read_chunks(stream, limits, info.file_size, f"{path.name}:{info.filename}")


def _file_chunks(path: Path, limits: Limits) -> Iterator[Iterator[bytes]]:
    with open(path, "rb") as fh:
        yield _read_chunks(fh, limits, None, path.name)


def _marker_for(head: bytes) -> tuple[bytes, int]:
    """XML documents are cut at `<?xml `; APS text at a line starting with `PATN`."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<") or not re.search(rb"(^|\n)PATN", head):
        return XML_MARKER, 0
    return APS_MARKER, 1


def split_stream(chunks: Iterable[bytes], limits: Limits = DEFAULT_LIMITS, start_index: int = 0) -> Iterator[Document]:
    """Cut concatenated documents; offsets are byte positions in the uncompressed stream."""
    splitter = _Splitter(limits, start_index)
    for chunk in chunks:
        yield from splitter.feed(chunk)
    yield from splitter.finish()


def _inside_cdata_or_comment(buf: bytearray, pos: int) -> bool:
    """True if `pos` lies in a CDATA section or comment opened (and not closed) before it in `buf`."""
    opened = buf.rfind(b"<![CDATA[", 0, pos)
    if opened >= 0 and buf.find(b"]]>", opened, pos) < 0:
        return True
    opened = buf.rfind(b"<!--", 0, pos)
    return opened >= 0 and buf.find(b"-->", opened + 4, pos) < 0


class _Splitter:
    """Incremental cutter: holds at most one document (or the cap, for an oversized one)."""

    def __init__(self, limits: Limits, start_index: int) -> None:
        self.limits = limits
        self.index = start_index
        self.buf = bytearray()
        self.offset = 0          # stream offset of buf[0]
        self.marker = b""
        self.skip = 0            # marker bytes before the document start (APS: the newline)
        self.started = False
        self.oversized: OversizedDocument | None = None
        self.pending_junk: bytes | None = None

    def feed(self, chunk: bytes) -> Iterator[Document]:
        self.buf += chunk
        if not self.started and not self._start(final=False):
            return
        yield from self._cut(final=False)

    def finish(self) -> Iterator[Document]:
        if not self.started and not self._start(final=True):
            if self.buf.strip(b"\xef\xbb\xbf \t\r\n\x00"):
                yield self._emit(bytes(self.buf))  # no marker at all: one unknown document, rejected later
            return
        yield from self._cut(final=True)

    def _start(self, final: bool) -> bool:
        """Find the first document; drop whitespace (XML) or the file header (APS) before it."""
        if len(self.buf) < 4096 and not final:
            return False
        if not self.marker:
            self.marker, self.skip = _marker_for(bytes(self.buf[:65536]))
        first = self._first_start()
        if first < 0:
            if len(self.buf) > self.limits.max_doc_bytes:
                first = 0  # no marker in a huge prefix: treat it as a (bad) document
            else:
                return False
        head = bytes(self.buf[:first])
        if self.skip == 0 and head.strip(b"\xef\xbb\xbf \t\r\n\x00"):
            self.pending_junk = head
        elif head:
            log.debug("skipped %d header bytes before the first document", len(head))
        del self.buf[:first]
        self.offset += first
        self.started = True
        return True

    def _xml_start(self, start: int) -> int:
        """Next `<?xml ` or a `<!DOCTYPE` that opens a new document: one after an element of the document
        before it (a DOCTYPE after the current document's own declaration belongs to that document)."""
        pos = self.buf.find(self.marker, start)
        doctype = self.buf.find(DOCTYPE_MARKER, start, pos if pos >= 0 else len(self.buf))
        while doctype >= 0:
            if doctype == 0 or _ELEMENT_START.search(self.buf, 0, doctype):
                return doctype
            doctype = self.buf.find(DOCTYPE_MARKER, doctype + 1, pos if pos >= 0 else len(self.buf))
        return pos

    def _first_start(self) -> int:
        if self.skip == 0:  # the first `<?xml ` or, before it, the first DOCTYPE (PATDOC v2.4 has no declaration)
            pos = self.buf.find(self.marker)
            doctype = self.buf.find(DOCTYPE_MARKER, 0, pos if pos >= 0 else len(self.buf))
            return doctype if doctype >= 0 else pos
        if self.buf.startswith(self.marker[1:]):
            return 0
        pos = self.buf.find(self.marker)
        return pos + 1 if pos >= 0 else -1

    def _cut(self, final: bool) -> Iterator[Document]:
        junk = self.pending_junk
        if junk is not None:
            self.pending_junk = None
            self.offset -= len(junk)
            yield self._emit(junk)
        start = 1
        while (pos := self._xml_start(start) if self.skip == 0 else self.buf.find(self.marker, start)) >= 0:
            if self.skip == 0 and _inside_cdata_or_comment(self.buf, pos):
                start = pos + 1  # `<?xml ` quoted inside the document is not the next document
                continue
            yield from self._take(pos + self.skip)
            start = 1
        if len(self.buf) > self.limits.max_doc_bytes:
            self._overflow()
        if final and (self.buf.strip() or self.oversized is not None):
            yield from self._take(len(self.buf))

    def _take(self, end: int) -> Iterator[Document]:
        data = bytes(self.buf[:end])
        del self.buf[:end]
        if self.oversized is not None:
            over, self.oversized = self.oversized, None
            over.size += len(data)
            yield self._emit(over, advance=over.size)
        elif data.strip():
            yield self._emit(data)
        else:
            self.offset += len(data)

    def _overflow(self) -> None:
        """Keep only the head of a too-large document, drop the middle, keep scanning for the next marker."""
        keep = len(self.marker) + 1
        dropped = len(self.buf) - keep
        if self.oversized is None:
            self.oversized = OversizedDocument(bytes(self.buf[:2048]))
            log.warning("document at byte %d is larger than %d bytes; it will be rejected",
                        self.offset, self.limits.max_doc_bytes)
        self.oversized.size += dropped
        del self.buf[:dropped]

    def _emit(self, data: bytes, advance: int | None = None) -> Document:
        doc = Document(self.index, self.offset, data)
        self.index += 1
        self.offset += len(data) if advance is None else advance
        return doc


def iter_documents(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> Iterator[Document]:
    """(doc_index, byte_offset, bytes) for every document of a weekly zip, bare XML or APS text file.

    Offsets are positions in the uncompressed member; with several members the index keeps counting
    and offsets restart per member (the member name is logged).
    """
    path = Path(path)
    members = _zip_chunks(path, limits) if zipfile.is_zipfile(path) or path.suffix.lower() == ".zip" \
        else _file_chunks(path, limits)
    index = 0
    for chunks in members:
        for doc in split_stream(chunks, limits, start_index=index):
            index = doc.index + 1
            yield doc
