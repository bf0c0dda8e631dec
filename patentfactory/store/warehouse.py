"""The warehouse: one folder per canonical table, one Parquet part per ingested item.

A part is named after the upstream item it came from, so re-ingesting an item replaces its part
instead of appending duplicates (idempotent loads). Readers see the union of parts.

An item ingested in batches (a weekly file: ~50 parts over several tables) has an index,
`_items/<item>.json`, naming its parts; it is written before the parts, so it always names every part on
disk. Replacing an item reads that one file and deletes what it names: the cost does not grow with the
warehouse (listing every part of every table did, ~17 µs a part, for every weekly file). A warehouse
written before the index existed is indexed once, from one listing, on its first replacement.
"""
from __future__ import annotations

import json
import logging
import re
from typing import BinaryIO

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from schemas import TableSpec, table_spec, validate

from patentfactory.errors import PFError
from .parquet_io import parquet_bytes
from .storage import Storage

log = logging.getLogger(__name__)
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")
INDEX_DIR = "_items"
_INDEXED = f"{INDEX_DIR}/LAYOUT"  # present once every item's parts are in its index
_ITEM_PART = re.compile(r"^[^/]+/(?P<item>.+)\.(?:\d{5}|failed)\.parquet$")


class CorruptTableError(PFError):
    """A warehouse Parquet part cannot be read."""


def part_name(item: str) -> str:
    """A file-system-safe, stable part name for an upstream item id."""
    return _SAFE.sub("_", item).strip("_")[:180] or "part"


class Warehouse:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._indexed = False
        self._item_index: dict[str, list[str]] = {}  # items written through this object: their parts

    def item_parts(self, item: str) -> list[str]:
        """The parts an item's batches wrote (relative paths), from its index."""
        self._ensure_indexed()
        rel = f"{INDEX_DIR}/{part_name(item)}.json"
        return json.loads(self.storage.read_text(rel)) if self.storage.exists(rel) else []

    def drop_item(self, item: str) -> None:
        """Delete every part of `item` (before it is ingested again), touching only that item."""
        for rel in self.item_parts(item):
            self.storage.rm(rel)
        self.storage.rm(f"{INDEX_DIR}/{part_name(item)}.json")
        self._item_index[item] = []

    def write_item_parts(self, item: str, batch: str, tables: dict[str, pa.Table]) -> list[str]:
        """Write (replace) batch `batch` of `item`: one part per table, named `<item>.<batch>`; the item's
        index names them before they exist."""
        rels = [f"{table}/{part_name(item)}.{batch}.parquet" for table in tables]
        if item not in self._item_index:
            self._item_index[item] = self.item_parts(item)
        known = self._item_index[item]
        new = [r for r in rels if r not in known]
        if new:
            known.extend(new)
            self.storage.write_text(f"{INDEX_DIR}/{part_name(item)}.json", json.dumps(sorted(known)))
        for table, data in tables.items():
            self.write_part(table, f"{part_name(item)}.{batch}", data)
        return rels

    def _ensure_indexed(self) -> None:
        """Index a warehouse written before item indexes existed (one listing, once per warehouse)."""
        if self._indexed or self.storage.exists(_INDEXED):
            self._indexed = True
            return
        by_item: dict[str, list[str]] = {}
        for rel in self.storage.glob("*/*.parquet"):
            m = _ITEM_PART.match(rel)
            if m and not rel.startswith(("ingest_ledger/", f"{INDEX_DIR}/")):
                by_item.setdefault(m["item"], []).append(rel)
        for name, rels in by_item.items():
            if not self.storage.exists(f"{INDEX_DIR}/{name}.json"):
                self.storage.write_text(f"{INDEX_DIR}/{name}.json", json.dumps(sorted(rels)))
        self.storage.write_text(_INDEXED, "item-index-1\n")
        self._indexed = True

    def write_part(self, table: str, item: str, data: pa.Table) -> str:
        """Validate against the table contract and write (replace) the item's part."""
        spec = table_spec(table)
        data = validate(data, spec)
        rel = f"{table}/{part_name(item)}.parquet"
        self.storage.write_bytes(rel, parquet_bytes(data).data)
        return rel

    def delete_part(self, table: str, item: str) -> None:
        self.storage.rm(f"{table}/{part_name(item)}.parquet")

    def parts(self, table: str) -> list[str]:
        return [p for p in self.storage.glob(f"{table}/*.parquet")]

    def _corrupt(self, table: str, rel: str, exc: Exception) -> CorruptTableError:
        uri = self.storage.uri(rel)
        return CorruptTableError(f"warehouse table {table!r}: part {uri} is not readable Parquet ({exc})",
                                 f"delete that part and re-run ingest (the ledger will re-fetch it): rm {uri}")

    def read(self, table: str) -> pa.Table:
        """All parts of a table as one arrow table (empty table with the schema when none)."""
        spec: TableSpec = table_spec(table)
        pieces = []
        for rel in self.parts(table):
            try:
                with self.storage.open_read(rel) as fh:
                    pieces.append(_conform(pq.read_table(fh), spec.schema))
            except (pa.ArrowInvalid, OSError) as exc:
                raise self._corrupt(table, rel, exc) from None
        if not pieces:
            return spec.empty()
        return pa.concat_tables(pieces)

    def frame(self, table: str, dedupe: bool = True) -> pl.DataFrame:
        """A polars frame; with `dedupe` the last part (by name) wins for a repeated key."""
        df = pl.from_arrow(self.read(table))
        assert isinstance(df, pl.DataFrame)
        key = list(table_spec(table).key)
        if dedupe and key and df.height:
            df = df.unique(subset=key, keep="last", maintain_order=True)
        return df

    def lean_frame(self, table: str, skip: tuple[str, ...] = (), where: pl.Expr | None = None) -> pl.DataFrame:
        """`frame(table)` (last part wins per key) read by polars' own reader, without the `skip` columns.

        `where` filters each part as it is read (row pushdown: memory holds one part plus the kept rows);
        the last part still wins among the kept rows, so filter only on columns a key's rows share.

        For big builds: through pyarrow a table passes Arrow's memory pool, which keeps its pages after
        the conversion, and unused columns cost as much as used ones (`publications.raw`, the source
        record, is ~90% of that table's bytes). Both cost GBs of resident memory at 100k families.
        """
        spec = table_spec(table)
        schema = pl.DataFrame(pa.schema([f for f in spec.schema if f.name not in skip]).empty_table()).schema
        pieces = []
        for rel in self.parts(table):
            try:
                with self.storage.open_read(rel) as fh:
                    part = _lean_part(fh, spec, schema).cast(dict(schema))  # type: ignore[arg-type]
                pieces.append(part if where is None else part.filter(where))
            except (pl.exceptions.PolarsError, OSError) as exc:
                raise self._corrupt(table, rel, exc) from None
        df = pl.concat(pieces) if pieces else pl.DataFrame(schema=schema)
        key = list(spec.key)
        return df.unique(subset=key, keep="last", maintain_order=True) if key and df.height else df

    def lazy(self, table: str) -> pl.LazyFrame:
        return self.frame(table).lazy()

    def counts(self) -> dict[str, int]:
        from schemas import TABLES
        return {name: sum(pq.ParquetFile(self.storage.open_read(p)).metadata.num_rows for p in self.parts(name))
                for name in TABLES if self.parts(name)}


def _lean_part(fh: BinaryIO, spec: TableSpec, schema: pl.Schema) -> pl.DataFrame:
    """`schema`'s columns of one part; a nullable column the part predates reads as nulls (the footer is
    read again only for such a part)."""
    try:
        return pl.read_parquet(fh, columns=list(schema))
    except pl.exceptions.ColumnNotFoundError:
        fh.seek(0)
        have = set(pl.read_parquet_schema(fh))
        fh.seek(0)
    missing = [c for c in schema if c not in have]
    required = [c for c in missing if not spec.schema.field(c).nullable]
    if required:
        raise pl.exceptions.ColumnNotFoundError(f"required column(s) {required} missing")
    return (pl.read_parquet(fh, columns=[c for c in schema if c in have])
            .with_columns(pl.lit(None, dtype=schema[c]).alias(c) for c in missing).select(list(schema)))


def _conform(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """A part in the table's current schema: nullable columns added since it was written read as nulls."""
    for f in schema:
        if f.name not in table.column_names:
            if not f.nullable:
                raise pa.ArrowInvalid(f"required column {f.name!r} is missing")
            table = table.append_column(f, pa.nulls(table.num_rows, f.type))
    return table.select(schema.names).cast(schema)
