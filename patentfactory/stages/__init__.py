"""Stages: the plain-Python steps that flows wrap as tasks and the CLI calls directly.

`ingest_files` (USPTO weekly files, Lens exports), `ingest` (the shared file -> warehouse step),
`ingest_ops`, and one `build_<dataset>` module per published dataset.
"""
from patentfactory.stages.ingest_files import (
    LENS_PARSER_VERSION,
    USPTO_PARSER_VERSION,
    fetch_uspto_file,
    ingest_lens,
    ingest_uspto,
    ingest_uspto_file,
    list_uspto,
    merge_stats,
    stores_for,
)

__all__ = ["LENS_PARSER_VERSION", "USPTO_PARSER_VERSION", "fetch_uspto_file", "ingest_lens",
           "ingest_uspto", "ingest_uspto_file", "list_uspto", "merge_stats", "stores_for"]
