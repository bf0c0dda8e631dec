"""`reported_families`: family membership as a source reports it (Lens, OPS), kept apart from ours."""
import pyarrow as pa

from ._base import Column as C, TableSpec

REPORTED_FAMILIES = TableSpec(
    name="reported_families",
    key=("source", "family_kind", "family_id", "pub_id"),
    doc="Used to check our reconstruction (transforms.families) against the sources' own ids.",
    columns=(
        C("source", pa.string(), "lens | epo_ops", nullable=False),
        C("family_kind", pa.string(), "simple | extended (INPADOC)", nullable=False),
        C("family_id", pa.string(), "the source's family id, or the id of the record that lists the members", nullable=False),
        C("pub_id", pa.string(), "member publication (normalised)", nullable=False),
    ),
)
