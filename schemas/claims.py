"""`claims`: one row per claim of a publication."""
import pyarrow as pa

from ._base import Column as C, TableSpec
from ._types import INT_LIST

CLAIMS = TableSpec(
    name="claims",
    key=("pub_id", "claim_no"),
    doc="Claims as a list, nested claim-text flattened in document order.",
    columns=(
        C("pub_id", pa.string(), "publication id", nullable=False),
        C("claim_no", pa.int32(), "claim number (1-based)", nullable=False),
        C("text", pa.string(), "claim text, sub-elements flattened in order"),
        C("depends_on", INT_LIST, "claim numbers this claim refers to (claim-ref)"),
        C("is_independent", pa.bool_(), "true when the claim refers to no other claim"),
    ),
)
