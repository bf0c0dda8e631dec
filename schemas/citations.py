"""`citations`: publication-level citations (patent or NPL)."""
import pyarrow as pa

from ._base import Column as C, TableSpec

CITATIONS = TableSpec(
    name="citations",
    key=("citing_pub_id", "seq"),
    doc="Backward citations of a publication; family-level edges are derived in transforms.",
    columns=(
        C("citing_pub_id", pa.string(), "publication that cites", nullable=False),
        C("seq", pa.int32(), "citation ordinal within the citing document", nullable=False),
        C("cited_pub_id", pa.string(), "cited publication id when a patent (normalised), else null"),
        C("cited_npl", pa.string(), "non-patent literature text when not a patent"),
        C("category", pa.string(), "search-report category (X, Y, A, ...) when given"),
        C("cited_by", pa.string(), "examiner / applicant / other"),
    ),
)
