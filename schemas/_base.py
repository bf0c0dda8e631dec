"""Table contracts: a pyarrow schema, a primary key and one line per column.

Validation happens at boundaries (after parse, before publish). Errors name the table,
the column and the first offending row so that a bad batch can be found in seconds.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.compute as pc


class SchemaError(ValueError):
    """A table does not match its contract."""


@dataclass(frozen=True)
class Column:
    name: str
    type: pa.DataType
    doc: str
    nullable: bool = True


@dataclass(frozen=True)
class TableSpec:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    doc: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def schema(self) -> pa.Schema:
        return pa.schema(
            [pa.field(c.name, c.type, nullable=c.nullable and c.name not in self.key) for c in self.columns],
            metadata={b"table": self.name.encode()},
        )

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def empty(self) -> pa.Table:
        return self.schema.empty_table()

    def from_pylist(self, rows: list[dict]) -> pa.Table:
        """Build a conforming table from python dicts (missing keys become nulls)."""
        return pa.Table.from_pylist(rows, schema=self.schema)


def schema_fingerprint(schema: pa.Schema) -> str:
    """Stable 16-hex fingerprint of field names, types and nullability (metadata ignored)."""
    text = ";".join(f"{f.name}:{f.type}:{int(f.nullable)}" for f in schema)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _first_bad_row(mask: pa.ChunkedArray | pa.Array) -> int:
    idx = pc.index(mask, True).as_py()
    return int(idx)


def validate(table: pa.Table, spec: TableSpec) -> pa.Table:
    """Return `table` cast to the spec's schema (column order fixed) or raise SchemaError.

    Checks: every column present, castable to its type, no nulls in key/non-nullable
    columns, key unique. Extra columns are an error (a typo should not pass silently).
    """
    names = set(table.column_names)
    missing = [c for c in spec.column_names if c not in names]
    if missing:
        raise SchemaError(f"table {spec.name!r}: missing column {missing[0]!r} (have {sorted(names)})")
    extra = sorted(names - set(spec.column_names))
    if extra:
        raise SchemaError(f"table {spec.name!r}: unexpected column {extra[0]!r}")
    arrays = []
    for col in spec.columns:
        arr = table.column(col.name)
        if arr.type != col.type:
            try:
                arr = arr.cast(col.type)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
                raise SchemaError(
                    f"table {spec.name!r}: column {col.name!r} has type {arr.type}, expected {col.type}: {exc}"
                ) from None
        if (not col.nullable or col.name in spec.key) and arr.null_count:
            row = _first_bad_row(arr.is_null())
            raise SchemaError(f"table {spec.name!r}: column {col.name!r} is null at row {row}")
        arrays.append(arr)
    out = pa.Table.from_arrays(arrays, schema=spec.schema)
    if spec.key and out.num_rows:
        keys = out.select(list(spec.key))
        counts = keys.group_by(list(spec.key)).aggregate([([], "count_all")])
        dup = counts.filter(pc.greater(counts.column("count_all"), 1))
        if dup.num_rows:
            first = {k: dup.column(k)[0].as_py() for k in spec.key}
            # locate the first row carrying that key
            mask = None
            for k, v in first.items():
                m = pc.equal(out.column(k), pa.scalar(v, out.schema.field(k).type))
                mask = m if mask is None else pc.and_(mask, m)
            rows = pc.indices_nonzero(mask.combine_chunks() if hasattr(mask, "combine_chunks") else mask)
            raise SchemaError(
                f"table {spec.name!r}: duplicate key {first} at rows {rows.to_pylist()[:2]} (key {list(spec.key)})"
            )
    return out
