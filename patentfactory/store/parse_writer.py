"""`pf parse`'s writer: tables written batch by batch as documents stream, so memory stays flat in the file's size.

Each parser batch (500 documents for a USPTO weekly file) becomes one row group of `OUT.parquet` (the primary
table) or `OUT.<table>.parquet`; nothing of a batch is kept once it is written except an 8-byte hash of each
row's table key. When two rows share a key (the same record reported by two input files, e.g. an OPS biblio and
a family response), the last one wins, as in the warehouse: only then is that table read back once, row group by
row group, and rewritten without the earlier rows. Files appear under their names only once complete.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from schemas import table_spec

from .parquet_io import COMPRESSION, COMPRESSION_LEVEL, as_arrow


def _writer(path: Path, schema: pa.Schema) -> pq.ParquetWriter:
    return pq.ParquetWriter(path, schema, compression=COMPRESSION, compression_level=COMPRESSION_LEVEL,
                            write_statistics=True, use_dictionary=True)


def _key_hashes(table: pa.Table, key: tuple[str, ...]) -> np.ndarray:
    cols = [table.column(k).to_pylist() for k in key]
    return np.fromiter((hash(t) for t in zip(*cols)), dtype=np.int64, count=table.num_rows)


class ParsedTables:
    """Write tables batch by batch; `close()` returns rows per table (after last-per-key)."""

    def __init__(self, out_path: Path, primary: str) -> None:
        self.out_path, self.primary = out_path, primary
        self._writers: dict[str, tuple[pq.ParquetWriter, Path]] = {}
        self._hashes: dict[str, list[np.ndarray]] = {}
        self._rows: dict[str, int] = {}

    def target(self, name: str) -> Path:
        return self.out_path if name == self.primary else self.out_path.with_name(f"{self.out_path.stem}.{name}.parquet")

    def write(self, tables: dict[str, pa.Table]) -> None:
        for name, table in sorted(tables.items()):
            table = as_arrow(table)
            if name not in self._writers:
                tmp = self.target(name).with_suffix(".parquet.partial")
                tmp.parent.mkdir(parents=True, exist_ok=True)
                self._writers[name] = (_writer(tmp, table.schema), tmp)
            self._writers[name][0].write_table(table)
            self._rows[name] = self._rows.get(name, 0) + table.num_rows
            key = table_spec(name).key if name != "rejects" else ()
            if key:
                self._hashes.setdefault(name, []).append(_key_hashes(table, key))

    def close(self) -> dict[str, int]:
        for name, (writer, tmp) in self._writers.items():
            writer.close()
            hashes = np.concatenate(self._hashes[name]) if self._hashes.get(name) else np.empty(0, np.int64)
            if len(np.unique(hashes)) < len(hashes):
                self._rows[name] = _keep_last(tmp, table_spec(name).key, hashes)
            os.replace(tmp, self.target(name))
        if self.primary not in self._writers:
            pq.write_table(table_spec(self.primary).empty(), self.out_path)
            self._rows[self.primary] = 0
        self._writers.clear()
        return dict(sorted(self._rows.items()))

    def abort(self) -> None:
        for writer, tmp in self._writers.values():
            writer.close()
            tmp.unlink(missing_ok=True)
        self._writers.clear()


def _keep_last(path: Path, key: tuple[str, ...], hashes: np.ndarray) -> int:
    """Rewrite `path` keeping, per key, only its last row; returns the rows kept."""
    values, counts = np.unique(hashes, return_counts=True)
    suspects = set(values[counts > 1].tolist())  # hashes seen more than once
    last: dict[tuple, int] = {}
    pf = pq.ParquetFile(path)
    offset = 0
    for i in range(pf.num_row_groups):  # real keys of the suspect rows only (hash collisions are not duplicates)
        rg = pf.read_row_group(i, columns=list(key))
        for j, row in enumerate(zip(*(rg.column(k).to_pylist() for k in key))):
            if int(hashes[offset + j]) in suspects:
                last[row] = offset + j
        offset += rg.num_rows
    drop = {idx for idx in range(len(hashes)) if int(hashes[idx]) in suspects} - set(last.values())
    tmp = path.with_suffix(".dedupe")
    kept, offset = 0, 0
    with _writer(tmp, pf.schema_arrow) as writer:
        for i in range(pf.num_row_groups):
            rg = pf.read_row_group(i)
            mask = pa.array([offset + j not in drop for j in range(rg.num_rows)])
            rg = pc.filter(rg, mask)
            writer.write_table(rg)
            kept += rg.num_rows
            offset += pf.metadata.row_group(i).num_rows
    os.replace(tmp, path)
    return kept


def write_parsed(results: Iterable, out_path: Path, primary: str) -> dict[str, int]:
    """Stream `results` (ParseResults) into OUT.parquet and its side tables; rows per table."""
    out = ParsedTables(out_path, primary)
    try:
        for res in results:
            out.write(res.to_arrow())
    except BaseException:
        out.abort()
        raise
    return out.close()
