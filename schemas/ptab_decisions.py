"""`ptab_decisions`: PTAB ex parte appeal decisions with text."""
import pyarrow as pa

from ._base import Column as C, TableSpec
from ._types import STR_LIST

PTAB_DECISIONS = TableSpec(
    name="ptab_decisions",
    key=("decision_id",),
    doc="One row per decision document (ODP documentIdentifier).",
    columns=(
        C("decision_id", pa.string(), "ODP document identifier", nullable=False),
        C("appeal_number", pa.string(), "appeal number, e.g. 2026001845"),
        C("app_id", pa.string(), "application id CC-NUMBER (US-17123456)"),
        C("decision_date", pa.date32(), "decision issue date"),
        C("decision_type", pa.string(), "decision type category (e.g. Decision)"),
        C("outcome", pa.string(), "raw outcome string as given by the API"),
        C("issue_types", STR_LIST, "issue types / statutes named by the API"),
        C("statutes", STR_LIST, "statutes and rules cited"),
        C("text", pa.string(), "cleaned decision text"),
        C("text_origin", pa.string(), "api | pdf | ocr | mixed"),
        C("pdf_sha256", pa.string(), "sha256 of the decision PDF in the raw cache"),
        C("raw", pa.string(), "raw API record (JSON) kept for provenance"),
    ),
)
