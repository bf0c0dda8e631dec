"""Deterministic Parquet bytes: zstd, fixed row-group size, no timestamps, sha256 alongside."""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

ROW_GROUP_SIZE = 50_000
COMPRESSION = "zstd"
COMPRESSION_LEVEL = 6


@dataclass(frozen=True)
class ParquetBlob:
    data: bytes
    rows: int
    sha256: str
    schema: pa.Schema


def as_arrow(table: pa.Table | pl.DataFrame) -> pa.Table:
    if isinstance(table, pl.DataFrame):
        table = table.to_arrow()
    # pandas/polars metadata would make bytes depend on library versions beyond pyarrow's own
    return table.replace_schema_metadata({k: v for k, v in (table.schema.metadata or {}).items()
                                          if k not in (b"pandas",)})


def canonical_order(table: pa.Table | pl.DataFrame) -> pa.Table | pl.DataFrame:
    """Rows sorted by every flat column, so a rebuild from the same inputs writes the same bytes.

    Parallel joins and group-bys do not keep row order; without this a published file's sha256 would
    change between identical runs. Nested columns ride along (ties among flat columns are rare and stable).
    """
    if isinstance(table, pl.DataFrame):
        flat = [name for name, dtype in table.schema.items() if not dtype.is_nested()]
        return table.sort(flat, nulls_last=True, maintain_order=True) if flat and table.height > 1 else table
    flat = [f.name for f in table.schema if not pa.types.is_nested(f.type) and not pa.types.is_dictionary(f.type)]
    if not flat or table.num_rows < 2:
        return table
    return table.sort_by([(name, "ascending") for name in flat])


def parquet_bytes(table: pa.Table | pl.DataFrame) -> ParquetBlob:
    """Serialise to Parquet in memory so the hash is known before anything is written."""
    table = as_arrow(table)
    buf = io.BytesIO()
    pq.write_table(table, buf, compression=COMPRESSION, compression_level=COMPRESSION_LEVEL,
                   row_group_size=ROW_GROUP_SIZE, write_statistics=True, use_dictionary=True)
    data = buf.getvalue()
    return ParquetBlob(data=data, rows=table.num_rows, sha256=hashlib.sha256(data).hexdigest(), schema=table.schema)


def read_parquet_bytes(data: bytes) -> pa.Table:
    return pq.read_table(io.BytesIO(data))
