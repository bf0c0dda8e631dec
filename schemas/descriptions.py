"""`descriptions`: description paragraphs with the heading they sit under."""
import pyarrow as pa

from ._base import Column as C, TableSpec

DESCRIPTIONS = TableSpec(
    name="descriptions",
    key=("pub_id", "para_no"),
    doc="Description paragraphs in order; `heading` is the nearest heading above.",
    columns=(
        C("pub_id", pa.string(), "publication id", nullable=False),
        C("para_no", pa.int32(), "paragraph ordinal (0-based, document order)", nullable=False),
        C("heading", pa.string(), "nearest preceding heading text"),
        C("text", pa.string(), "paragraph text (tables replaced by a [TABLE] placeholder); null on the row "
          "of a heading with no paragraph of its own"),
    ),
)
