"""`reported_families`: family membership as a source reports it (Lens, OPS), kept apart from ours."""
import pyarrow as pa

from ._base import Column as C, TableSpec

REPORTED_FAMILIES = TableSpec(
    name="reported_families",
    key=("source", "family_kind", "family_id", "pub_id"),
    doc=("Lens rows check our reconstruction (transforms.families.compare_with_reported); EPO OPS rows (the "
         "EPO's DOCDB family-id of each document, and each INPADOC family response) also join families in it."),
    columns=(
        C("source", pa.string(), "lens | epo_ops", nullable=False),
        C("family_kind", pa.string(), "simple | extended (INPADOC)", nullable=False),
        C("family_id", pa.string(), "the source's family id (OPS: the DOCDB family-id; an INPADOC family, which "
          "OPS gives no id, takes its members' smallest DOCDB family-id), or the id of the record listing the members",
          nullable=False),
        C("pub_id", pa.string(), "member publication (normalised)", nullable=False),
        C("family_size", pa.int32(), "the family's size as the source reports it (Lens `Simple Family Size` / "
          "`Extended Family Size` / JSON `size`, OPS `total-result-count` of an INPADOC family), on every row of the "
          "family; null where the source gives none. A Lens export that gives sizes without members has one row per "
          "family, the record itself. Checked against ours at build time (transforms.family_sizes)."),
    ),
)
