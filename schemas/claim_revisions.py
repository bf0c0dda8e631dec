"""`claim_revisions`: EP claims before (A1/A2) and after grant (B1)."""
import pyarrow as pa

from ._base import Column as C, TableSpec
from ._types import STR_LIST

CLAIM_REVISIONS = TableSpec(
    name="claim_revisions",
    key=("ep_number",),
    doc="One row per EP patent with English claims of the application and of the grant.",
    columns=(
        C("ep_number", pa.string(), "EP number without kind, e.g. EP-3456789", nullable=False),
        C("kind_before", pa.string(), "A1 or A2"),
        C("claims_before", STR_LIST, "application claims as issued (whitespace collapsed)"),
        C("kind_after", pa.string(), "B1"),
        C("claims_after", STR_LIST, "granted claims as issued (whitespace collapsed)"),
    ),
)
