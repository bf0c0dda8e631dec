"""Stage: EPO OPS documents (biblio + claims) into the warehouse, resumable through the ledger.

Numbers come from a file (one per line, any common form) or a CQL search. Each document endpoint
is one ledger item (`EP.2400812.A1/biblio`); finished items are skipped on a rerun. A 404 is
recorded as a reject and skipped; OPS asking us to stop (black throttle, quota) ends the run
cleanly, and the next run continues where this one stopped.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sources.epo_ops.client import OpsClient, OpsStopped
from sources.epo_ops.parse import parse_ops, parse_search_hits
from sources.records import ParseResult
from transforms.patent_ids import PatentIdError, parse_pub_id

from .ingest import Stores
from patentfactory.stages.ingest_files import stores_for
from patentfactory.store.warehouse import part_name
from patentfactory.stages.memory import within_budget

log = logging.getLogger(__name__)
SOURCE = "epo_ops"
PARSER_VERSION = "ops-1"
ENDPOINTS = ("biblio", "claims")


@dataclass
class OpsIngestStats:
    documents: int = 0
    fetched: int = 0
    skipped: int = 0
    not_found: int = 0
    bad_numbers: list[str] = field(default_factory=list)
    stopped: str | None = None
    records: dict[str, int] = field(default_factory=dict)


def read_numbers(text: str, stats: OpsIngestStats) -> list[str]:
    """Lines of publication numbers -> OPS docdb names `EP.2400812.A1` (bad lines counted)."""
    out = []
    for line in filter(None, (ln.strip() for ln in text.splitlines())):
        try:
            cc, num, kind = parse_pub_id(line)
        except PatentIdError:
            stats.bad_numbers.append(line)
            continue
        out.append(f"{cc}.{num}.{kind}" if kind else f"{cc}.{num}")
    return sorted(set(out))


def search_numbers(client: OpsClient, cql: str, limit: int = 2000) -> list[str]:
    hits = {f"{cc}.{num}.{kind}" for page in client.search_pages(cql, limit=limit)
            for cc, num, kind in parse_search_hits(page)}
    return sorted(hits)


def _ingest_item(client: OpsClient, stores: Stores, doc: str, endpoint: str, stats: OpsIngestStats) -> None:
    item = f"{doc}/{endpoint}"
    row = stores.ledger.get(SOURCE, item)
    if row and row.get("parsed_at") and row.get("parser_version") == PARSER_VERSION:
        stats.skipped += 1
        return
    data = client.published(doc, endpoint)
    result = ParseResult()
    if data is None:
        stats.not_found += 1
        result.reject(SOURCE, item, "http", "OPS 404: document not found")
    else:
        stats.fetched += 1
        raw = stores.cache.put_bytes(SOURCE, data, ".xml")
        stores.ledger.record_fetch(SOURCE, item, raw.sha256, raw.bytes)
        result = parse_ops(data, item)
    for table, arrow in result.to_arrow().items():
        stores.warehouse.write_part(table, f"{part_name(item)}.00000", arrow)
        if table != "rejects":
            stats.records[table] = stats.records.get(table, 0) + arrow.num_rows
    stores.ledger.record_parse(SOURCE, item, PARSER_VERSION, result.count("publications") + result.count("claims"),
                               len(result.rejects))


@within_budget("ingest-ops")
def ingest_ops(data_dir: str | Path, client: OpsClient, documents: list[str],
               endpoints: tuple[str, ...] = ENDPOINTS) -> dict:
    stats = OpsIngestStats(documents=len(documents))
    stores = stores_for(data_dir)
    try:
        with stores.ledger.batch():
            for doc in documents:
                for endpoint in endpoints:
                    _ingest_item(client, stores, doc, endpoint, stats)
    except OpsStopped as exc:
        stats.stopped = str(exc)
        log.warning("OPS asked to stop: %s; the next run resumes from the ledger", exc)
    return asdict(stats)
