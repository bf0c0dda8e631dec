"""Stage: EPO OPS documents (biblio + claims) into the warehouse, resumable through the ledger.

Numbers come from a file (one per line, any common form) or a CQL search. Each document endpoint
is one ledger item (`EP.2400812.A1/biblio`); finished items are skipped on a rerun. A 404 is
written as a reject and recorded in the ledger (`not_found_at`): the document is not asked again
until `Recheck.days` (setting `PF_OPS_404_RECHECK_DAYS`, default 30) have passed, so a missing A1 does
not cost a request every night. OPS asking us to stop (black throttle, quota) ends the run cleanly,
and the next run continues where this one stopped.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from sources.epo_ops.client import OpsClient, OpsStopped
from sources.epo_ops.parse import parse_ops, parse_search_hits
from sources.records import ParseResult
from common.patent_ids import PatentIdError, parse_pub_id

from patentfactory.config import OPS_404_RECHECK_DAYS
from patentfactory.stages.ingest_files import stores_for
from patentfactory.store.ledger import Ledger
from patentfactory.store.warehouse import part_name
from patentfactory.stages.memory import within_budget

from .ingest import Stores

log = logging.getLogger(__name__)
SOURCE = "epo_ops"
PARSER_VERSION = "ops-2"  # ops-2: application key from the original number (issue 31)
ENDPOINTS = ("biblio", "claims")


@dataclass
class OpsIngestStats:
    documents: int = 0
    fetched: int = 0
    skipped: int = 0
    not_found: int = 0
    known_missing: int = 0  # 404s recorded by an earlier run inside the recheck period: not asked (also in skipped)
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


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class Recheck:
    """When a recorded OPS 404 is asked again: `days` after it, on the clock `now` (tests inject one)."""

    days: int = OPS_404_RECHECK_DAYS
    now: Callable[[], datetime] = _utc_now


def ask_ops(client: OpsClient, ledger: Ledger, doc: str, endpoint: str, recheck: Recheck) -> tuple[bytes | None, bool]:
    """(bytes or None on 404, whether the answer came from the ledger): a 404 younger than the recheck period
    is not asked again; a new 404 is recorded with the time it was seen."""
    item = f"{doc}/{endpoint}"
    if ledger.known_missing(SOURCE, item, timedelta(days=recheck.days), recheck.now()):
        return None, True
    data = client.published(doc, endpoint)
    if data is None:
        ledger.record_not_found(SOURCE, item, recheck.now())
    return data, False


def _ingest_item(client: OpsClient, stores: Stores, doc: str, endpoint: str, stats: OpsIngestStats,
                 recheck: Recheck) -> None:
    item = f"{doc}/{endpoint}"
    row = stores.ledger.get(SOURCE, item)
    if row and row.get("parsed_at") and row.get("parser_version") == PARSER_VERSION:
        stats.skipped += 1
        return
    data, known = ask_ops(client, stores.ledger, doc, endpoint, recheck)
    if known:  # its reject was written when the 404 was seen
        stats.skipped += 1
        stats.known_missing += 1
        return
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
    if data is not None:  # a 404 stays un-parsed, so it is asked again once the recheck period is over
        stores.ledger.record_parse(SOURCE, item, PARSER_VERSION,
                                   result.count("publications") + result.count("claims"), len(result.rejects))


@within_budget("ingest-ops")
def ingest_ops(data_dir: str | Path, client: OpsClient, documents: list[str],
               endpoints: tuple[str, ...] = ENDPOINTS, recheck: Recheck = Recheck()) -> dict:
    stats = OpsIngestStats(documents=len(documents))
    stores = stores_for(data_dir)
    try:
        with stores.ledger.batch():
            for doc in documents:
                for endpoint in endpoints:
                    _ingest_item(client, stores, doc, endpoint, stats, recheck)
    except OpsStopped as exc:
        stats.stopped = str(exc)
        log.warning("OPS asked to stop: %s; the next run resumes from the ledger", exc)
    return asdict(stats)
