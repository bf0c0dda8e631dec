"""`rejects`: everything a source could not turn into a record, with where and why."""
import pyarrow as pa

from ._base import Column as C, TableSpec

REJECTS = TableSpec(
    name="rejects",
    key=("source", "source_file", "locator"),
    doc="Nothing is dropped silently: each bad input unit becomes one row here.",
    columns=(
        C("source", pa.string(), "source name", nullable=False),
        C("source_file", pa.string(), "raw file or URL", nullable=False),
        C("locator", pa.string(), "position: document index + byte offset, row number, page, ...", nullable=False),
        C("error_class", pa.string(), "exception class or reason code"),
        C("message", pa.string(), "one-line reason"),
        C("snippet", pa.string(), "first 2 kB of the offending input"),
    ),
)
