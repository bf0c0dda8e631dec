"""Table contracts for the warehouse (and helpers to validate published tasks)."""
from ._base import Column, SchemaError, TableSpec, schema_fingerprint, validate
from .citations import CITATIONS
from .claim_revisions import CLAIM_REVISIONS
from .claims import CLAIMS
from .descriptions import DESCRIPTIONS
from .families import FAMILIES
from .ingest_ledger import INGEST_LEDGER
from .papers import PAPERS
from .patent_paper_pairs import PATENT_PAPER_PAIRS
from .ptab_decisions import PTAB_DECISIONS
from .ptab_pages import PTAB_PAGES
from .publications import PUBLICATIONS
from .rejects import REJECTS
from .reported_families import REPORTED_FAMILIES

TABLES: dict[str, TableSpec] = {
    t.name: t
    for t in (PUBLICATIONS, CLAIMS, DESCRIPTIONS, CITATIONS, FAMILIES, PTAB_DECISIONS, PTAB_PAGES, PAPERS,
              PATENT_PAPER_PAIRS, CLAIM_REVISIONS, REJECTS, INGEST_LEDGER, REPORTED_FAMILIES)
}


def table_spec(name: str) -> TableSpec:
    try:
        return TABLES[name]
    except KeyError:
        raise SchemaError(f"unknown table {name!r}; known: {', '.join(sorted(TABLES))}") from None


__all__ = ["Column", "SchemaError", "TableSpec", "TABLES", "table_spec", "schema_fingerprint", "validate",
           "PUBLICATIONS", "CLAIMS", "DESCRIPTIONS", "CITATIONS", "FAMILIES", "PTAB_DECISIONS", "PTAB_PAGES", "PAPERS",
           "PATENT_PAPER_PAIRS", "CLAIM_REVISIONS", "REJECTS", "INGEST_LEDGER", "REPORTED_FAMILIES"]
