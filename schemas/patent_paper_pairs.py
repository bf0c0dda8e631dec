"""`patent_paper_pairs`: matched patent-paper pairs with their evidence."""
import pyarrow as pa

from ._base import Column as C, TableSpec

PATENT_PAPER_PAIRS = TableSpec(
    name="patent_paper_pairs",
    key=("pub_id", "work_id"),
    doc="Every link keeps the evidence that made it.",
    columns=(
        C("pub_id", pa.string(), "patent application publication", nullable=False),
        C("work_id", pa.string(), "paper work id", nullable=False),
        C("author_overlap", pa.float64(), "fraction of inventors found among the paper's authors"),
        C("day_delta", pa.int32(), "paper date minus application filing date, days"),
        C("title_min", pa.float64(), "IDF title overlap, min-normalised"),
        C("title_max", pa.float64(), "IDF title overlap, max-normalised"),
        C("abstract_min", pa.float64(), "IDF abstract overlap, min-normalised"),
        C("abstract_max", pa.float64(), "IDF abstract overlap, max-normalised"),
        C("margin", pa.float64(), "smallest winning margin over competing candidates"),
    ),
)
