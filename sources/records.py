"""What every parser returns: rows per canonical table plus rejects, validated on the way out."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import pyarrow as pa

from schemas import REJECTS, table_spec, validate

SNIPPET_BYTES = 2048


def snippet(data: bytes | str | None) -> str:
    """First 2 kB of the offending input as text (bytes decoded leniently for display only)."""
    if data is None:
        return ""
    if isinstance(data, bytes):
        return data[:SNIPPET_BYTES].decode("utf-8", errors="backslashreplace")
    return data[:SNIPPET_BYTES]


@dataclass
class ParseResult:
    """Rows per warehouse table (dicts following `schemas`), reject rows, and input units skipped by kind.

    `skipped`: units that are no record of ours by design (a weekly file's sequence listings), counted by kind,
    never rejects, so reject rates stay about errors."""

    rows: dict[str, list[dict]] = field(default_factory=lambda: defaultdict(list))
    rejects: list[dict] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)

    def add(self, table: str, row: dict) -> None:
        self.rows[table].append(row)

    def reject(self, source: str, source_file: str, locator: str, error: BaseException | str,
               data: bytes | str | None = None) -> None:
        error_class = type(error).__name__ if isinstance(error, BaseException) else "Rejected"
        message = str(error).splitlines()[0][:500] if str(error) else error_class
        self.rejects.append({"source": source, "source_file": source_file, "locator": locator,
                             "error_class": error_class, "message": message, "snippet": snippet(data)})

    def skip(self, kind: str, n: int = 1) -> None:
        self.skipped[kind] = self.skipped.get(kind, 0) + n

    def extend(self, other: "ParseResult") -> None:
        for table, rows in other.rows.items():
            self.rows[table].extend(rows)
        self.rejects.extend(other.rejects)
        for kind, n in other.skipped.items():
            self.skip(kind, n)

    def count(self, table: str) -> int:
        return len(self.rows.get(table, []))

    def to_arrow(self) -> dict[str, pa.Table]:
        """Validated arrow tables per table name; `rejects` included when non-empty."""
        out = {name: validate(table_spec(name).from_pylist(rows), table_spec(name))
               for name, rows in self.rows.items() if rows}
        if self.rejects:
            out["rejects"] = validate(REJECTS.from_pylist(self.rejects), REJECTS)
        return out
