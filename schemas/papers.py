"""`papers`: scholarly works (SemOpenAlex) that may pair with patents."""
import pyarrow as pa

from ._base import Column as C, TableSpec

AUTHOR = pa.struct([("id", pa.string()), ("name", pa.string()), ("alt_names", pa.list_(pa.string()))])

PAPERS = TableSpec(
    name="papers",
    key=("work_id",),
    doc="Works with authors, dates and licence; sections as JSON when full text is known.",
    columns=(
        C("work_id", pa.string(), "SemOpenAlex/OpenAlex work id, e.g. W2015191210", nullable=False),
        C("doi", pa.string(), "DOI without the https://doi.org/ prefix, lower case"),
        C("title", pa.string(), "title"),
        C("abstract", pa.string(), "abstract"),
        C("pub_date", pa.date32(), "publication date"),
        C("authors", pa.list_(AUTHOR), "authors with alternative names"),
        C("license", pa.string(), "licence id (cc-by, cc0, public-domain, ...)"),
        C("sections", pa.string(), "JSON list of {title, paragraphs, subsections} or null"),
    ),
)
