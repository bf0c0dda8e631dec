"""USPTO bulk full-text files (weekly `ipg*/ipa*` zips, bare XML, APS text) -> canonical tables.

Formats: us-patent-grant/application v4.x (2005-now), PATDOC v2.x grants and pap v1.x
applications (2001-2004), APS fixed-field text grants (1976-2001).
"""
from .aps import parse_aps
from .pap import parse_pap
from .parse import (
    BATCH_DOCS, DocumentTooLargeError, NonPatentDocument, UnknownFormatError, detect_format, parse_document, parse_file, to_doc,
)
from .patdoc import parse_patdoc
from .safexml import UnsafeXMLError, parse_xml
from .split import (
    ArchiveError, Document, Limits, TruncatedArchiveError, UnsafeArchiveError, iter_documents, split_stream,
)
from .v4 import parse_v4

__all__ = [
    "ArchiveError", "BATCH_DOCS", "Document", "DocumentTooLargeError", "Limits", "NonPatentDocument", "TruncatedArchiveError",
    "UnknownFormatError", "UnsafeArchiveError", "UnsafeXMLError", "detect_format", "iter_documents",
    "parse_aps", "parse_document", "parse_file", "parse_pap", "parse_patdoc", "parse_v4", "parse_xml",
    "split_stream", "to_doc",
]
