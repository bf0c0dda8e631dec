"""`publications`: one row per published patent document, whatever the source."""
import pyarrow as pa

from ._base import Column as C, TableSpec
from ._types import PARTY, PERSON, PRIORITY, RELATED, STR_LIST

PUBLICATIONS = TableSpec(
    name="publications",
    key=("pub_id",),
    doc="Published patent documents (grants and applications) in DOCDB-style ids.",
    columns=(
        C("pub_id", pa.string(), "DOCDB-style id CC-NUMBER-KIND, e.g. US-10000000-B2", nullable=False),
        C("country", pa.string(), "publication authority, ISO 3166 alpha-2 (EP, WO as authorities)", nullable=False),
        C("doc_number", pa.string(), "number as published, prefixes kept (D, RE, PP, H, T), no zero padding", nullable=False),
        C("kind", pa.string(), "kind code (B1, B2, A1, S1, E, ...)"),
        C("pub_date", pa.date32(), "publication date (grant date for grants)"),
        C("app_id", pa.string(), "application id CC-NUMBER"),
        C("app_date", pa.date32(), "application filing date"),
        C("title", pa.string(), "title in `lang`"),
        C("abstract", pa.string(), "abstract text, paragraphs joined by newlines"),
        C("lang", pa.string(), "language of title/abstract (ISO 639-1)"),
        C("ipc", STR_LIST, "IPC symbols normalised to 'H04L 29/06' style, first = first/inventive"),
        C("ipc3", pa.string(), "first 3 characters of the first IPC symbol (section + class)"),
        C("cpc", STR_LIST, "CPC symbols, same normalisation"),
        C("inventors", pa.list_(PERSON), "inventors in document order"),
        C("applicants", pa.list_(PARTY), "applicants / assignees / owners (kind says which)"),
        C("priorities", pa.list_(PRIORITY), "priority claims (country, number, date)"),
        C("related", pa.list_(RELATED), "related documents (continuation, division, provisional, ...)"),
        C("doc_type", pa.string(), "utility / design / plant / reissue / sir / application"),
        C("cited_by_count", pa.int32(), "patents citing this publication as the source counts them (Lens `Cited by "
          "Patent Count` / `cited_by.patent_count`), citers outside the warehouse included; null when not said"),
        C("app_id_raw", pa.string(), "the application number as the source wrote it, only where it did not "
          "normalise (then `app_id` is null and `flags` holds 'app_id')"),
        C("priorities_raw", STR_LIST, "priority numbers as written that did not normalise (not in `priorities`; "
          "`flags` holds 'priority')"),
        C("classes_raw", STR_LIST, "IPC/CPC symbols as written that did not normalise (not in `ipc`/`cpc`; "
          "`flags` holds 'classification')"),
        C("flags", STR_LIST, "secondary fields kept raw instead of costing the record: app_id, priority, "
          "classification (counted in ingest stats, rate watched by the drift gate)"),
        C("source", pa.string(), "source name (uspto_bulk, lens, epo_ops, ...)", nullable=False),
        C("source_file", pa.string(), "raw file (cache name) the record came from"),
        C("raw", pa.string(), "raw record (Lens JSON line / CSV row as JSON) or a reference file#doc_index@byte_offset"),
    ),
)
