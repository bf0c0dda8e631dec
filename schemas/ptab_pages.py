"""`ptab_pages`: page-level text of PTAB decision PDFs (PILOT-Bench's `ptab_ocr` corpus release)."""
import pyarrow as pa

from ._base import Column as C, TableSpec

PTAB_PAGES = TableSpec(
    name="ptab_pages",
    key=("decision_id", "page_no"),
    doc="One row per page of a decision PDF, as read: the text layer where there is one, else tesseract OCR.",
    columns=(
        C("decision_id", pa.string(), "ODP document identifier (ptab_decisions.decision_id)", nullable=False),
        C("page_no", pa.int32(), "1-based page number in the PDF", nullable=False),
        C("text", pa.string(), "the page's raw text (layout kept, nothing cleaned)"),
        C("origin", pa.string(), "pdf (text layer) | ocr (tesseract)"),
    ),
)
