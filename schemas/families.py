"""`families`: family membership, simple (same priority set) or extended (shared priority)."""
import pyarrow as pa

from ._base import Column as C, TableSpec

FAMILIES = TableSpec(
    name="families",
    key=("family_kind", "family_id", "pub_id"),
    doc="simple = same set of priority filings (DOCDB-like); extended = connected by any shared priority (INPADOC-like).",
    columns=(
        C("family_id", pa.string(), "deterministic id derived from the family's priority set", nullable=False),
        C("pub_id", pa.string(), "member publication", nullable=False),
        C("family_kind", pa.string(), "simple | extended", nullable=False),
    ),
)
