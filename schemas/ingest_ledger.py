"""`ingest_ledger`: what was fetched and parsed, so reruns skip finished work."""
import pyarrow as pa

from ._base import Column as C, TableSpec

INGEST_LEDGER = TableSpec(
    name="ingest_ledger",
    key=("source", "item"),
    doc="One row per upstream item (file, page, query); parser_version lets a parser change re-parse.",
    columns=(
        C("source", pa.string(), "source name", nullable=False),
        C("item", pa.string(), "upstream item id (file name, URL, query hash)", nullable=False),
        C("sha256", pa.string(), "sha256 of the raw bytes"),
        C("bytes", pa.int64(), "size of the raw bytes"),
        C("fetched_at", pa.string(), "ISO-8601 UTC time of the download"),
        C("parsed_at", pa.string(), "ISO-8601 UTC time parsing finished (null = not done)"),
        C("parser_version", pa.string(), "parser version that produced the records"),
        C("n_records", pa.int64(), "records written"),
        C("n_rejects", pa.int64(), "rejects written"),
        C("not_found_at", pa.string(), "ISO-8601 UTC time the upstream last answered 404 (null = not missing); "
                                       "not asked again until a recheck period has passed"),
    ),
)
