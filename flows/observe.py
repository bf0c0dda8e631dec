"""One structured log line per task with its counts: records in, records out, rejected (+ stage extras).

The line is `counts {json}` through the Prefect run logger, so it lands in the flow run's logs in the UI and
the API (and stdout of the worker); outside a run it goes to the standard `logging` logger of this module.
The same payload rides along as `record.counts` for handlers that want the dict rather than the text.
Counts come from the summaries the stage functions already return; `rejected=None` means the stage has no
notion of rejection (not that nothing was rejected).
"""
from __future__ import annotations

import json
import logging
from typing import Any

COUNTS_EVENT = "counts"
log = logging.getLogger(__name__)


def _logger() -> logging.Logger | logging.LoggerAdapter:
    from prefect import get_run_logger
    from prefect.exceptions import MissingContextError

    try:
        return get_run_logger()
    except MissingContextError:
        return log


def log_counts(stage: str, *, records_in: int | None, records_out: int | None, rejected: int | None,
               **extra: Any) -> dict[str, Any]:
    """Log `counts {"event": "counts", "stage": ..., "records_in": ..., ...}`; returns the payload."""
    payload = {"event": COUNTS_EVENT, "stage": stage, "records_in": records_in, "records_out": records_out,
               "rejected": rejected, **extra}
    _logger().info("%s %s", COUNTS_EVENT, json.dumps(payload, sort_keys=True, default=str),
                   extra={"counts": payload})
    return payload


def parse_counts(message: str) -> dict[str, Any] | None:
    """The payload of a `counts {...}` log message (None for any other message)."""
    head, _, body = message.partition(" ")
    return json.loads(body) if head == COUNTS_EVENT and body.startswith("{") else None


def ingest_counts(stage: str, stats: dict, **extra: Any) -> dict[str, Any]:
    """An `IngestStats` summary: in = publications + rejects, out = publications, per-table rows as extra; documents
    skipped as not patents and records keeping a field raw (flags) by kind, neither counted as rejected."""
    out = stats["records"].get("publications", 0)
    return log_counts(stage, records_in=out + stats["rejects"], records_out=out, rejected=stats["rejects"],
                      source=stats["source"], files=stats["files"], skipped=stats["skipped"],
                      failed=stats["failed"], tables=stats["records"], not_patents=stats.get("not_patents", {}),
                      flags=stats.get("flags", {}), **extra)


def published_counts(stage: str, manifest: dict, *, records_in: int | None, records_out: int | None,
                     rejected: int | None, **extra: Any) -> dict[str, Any]:
    """Counts of a build: the caller's in/out/rejected (from the manifest's `stats`) + rows published."""
    return log_counts(stage, records_in=records_in, records_out=records_out, rejected=rejected,
                      dataset=manifest["dataset"], version=manifest["version"], files=len(manifest["files"]),
                      rows_published=sum(f["rows"] for f in manifest["files"]), **extra)


def read_manifest(out: str, dataset: str, version: str) -> dict[str, Any]:
    from patentfactory.store.storage import Storage

    return json.loads(Storage(out).read_text(f"{dataset}/{version}/manifest.json"))
