"""Stages: the plain-Python steps that flows wrap as tasks and the CLI calls directly.

`ingest_files` (USPTO weekly files, Lens exports), `ingest` (the shared file -> warehouse step),
`ingest_ops`, and one `build_<dataset>` module per published dataset.

The names below are loaded on first use (PEP 562), not when the package is: importing a light submodule
(`patentfactory.stages.memory`, which every `pf` command enters) must not load polars, pyarrow and the parsers,
so that a command refused for a bad option or path fails before paying for them.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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


def __getattr__(name: str):
    if name in __all__:
        return getattr(importlib.import_module("patentfactory.stages.ingest_files"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
