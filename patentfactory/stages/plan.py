"""What a live night would fetch, per source, before anything is downloaded (`pf run --live --plan`).

Only listings are asked for (the ODP product listings, the Lens drop's directory listing); items and bytes
are given where the listing says them, plus the upstream limit that bounds the source's pace. Credentials
are checked first, so a missing variable is named before any request (the other sources still plan).
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import date

from patentfactory.config import Settings
from patentfactory.store.ledger import Ledger
from patentfactory.store.lens_items import export_name

from .ingest_files import USPTO_PARSER_VERSION, list_uspto, stores_for
from .windows import list_lens_drop, window

log = logging.getLogger(__name__)
LIMITS = {
    "uspto_bulk": "ODP: one request at a time (a 429 waits as told)",
    "ptab_odp": "ODP: one request at a time, decision pages of 100 + one PDF each",
    "lens": "local folder / S3 listing, no rate limit",
    "ops": "OPS weekly quota (free tier 4 GB/week) and throttling colours; black stops and defers Patent-CR",
    "semopenalex": "SPARQL: {batch} names per query, cached by query hash (a rerun sends only new look-ups)",
    "llm": "PF_LLM__CONCURRENCY requests in flight, PF_LLM__MIN_INTERVAL_S apart, a 429 waits for Retry-After; "
           "answers cached by model, instruction, schema and input",
}
CREDENTIALS = {"uspto_bulk": ("USPTO_ODP_API_KEY",), "ptab_odp": ("USPTO_ODP_API_KEY",),
               "ops": ("EPO_OPS_KEY", "EPO_OPS_SECRET"), "lens": ("PF_UPSTREAMS__LENS_EXPORTS",)}


@dataclass
class SourcePlan:
    source: str
    window: str
    items: int | None = None
    bytes: int | None = None
    limit: str = ""
    stopped: str | None = None  # a missing credential: this source is not asked at all
    notes: list[str] = field(default_factory=list)

    def line(self) -> str:
        if self.stopped:
            return f"{self.source}: stopped before any request: {self.stopped}"
        size = "" if self.items is None else f", {self.items} items" + (
            "" if self.bytes is None else f", {self.bytes / 1e6:.1f} MB")
        return f"{self.source}: {self.window}{size}; limit: {self.limit}"


def missing_credential(settings: Settings, source: str) -> str | None:
    """The first variable `source` needs that is not set, as a one-line reason; None when all are set."""
    have = {"USPTO_ODP_API_KEY": settings.odp_api_key(), "EPO_OPS_KEY": settings.ops_credentials()[0],
            "EPO_OPS_SECRET": settings.ops_credentials()[1],
            "PF_UPSTREAMS__LENS_EXPORTS": settings.upstreams.lens_exports}
    for var in CREDENTIALS.get(source, ()):
        if not have[var]:
            return f"{var} is not set (set it in the worker's environment)"
    return None


def _uspto(settings: Settings, ledger: Ledger, today: date) -> SourcePlan:
    w = window(ledger, "uspto_bulk", today, settings.since)
    files = list_uspto(settings.upstreams.odp_base_url, w.start, w.end, settings.odp_api_key())
    new = [f for f in files if not _parsed(ledger, f)]
    return SourcePlan("uspto_bulk", w.describe(), len(new), sum(f["size"] or 0 for f in new), LIMITS["uspto_bulk"],
                      notes=[f"{len(files) - len(new)} listed files already parsed"])


def _parsed(ledger: Ledger, f: dict) -> bool:
    row = ledger.get("uspto_bulk", f["name"])
    return bool(row and row.get("parsed_at") and row.get("parser_version") == USPTO_PARSER_VERSION
                and row.get("bytes") == f["size"])


def _lens(settings: Settings, ledger: Ledger) -> SourcePlan:
    files = list_lens_drop(settings.upstreams.lens_exports or "")
    known = {export_name(r["item"]) for r in ledger.items("lens") if r.get("parsed_at")}
    new = [f for f in files if f.rel.replace("/", "__") not in known]
    return SourcePlan("lens", f"drop {settings.upstreams.lens_exports}", len(new), sum(f.size for f in new),
                      LIMITS["lens"], notes=[f"{len(files)} files listed; new ones confirmed by sha256 at ingest"])


def plan_live(settings: Settings, data_dir: str, today: date, sparql_batch: int = 25) -> list[SourcePlan]:
    """One SourcePlan per live source; a source whose listing fails says why and the others still plan."""
    ledger = stores_for(data_dir).ledger
    plans: list[SourcePlan] = []
    steps = {"uspto_bulk": lambda: _uspto(settings, ledger, today),
             "ptab_odp": lambda: SourcePlan("ptab_odp", window(ledger, "ptab_odp", today, settings.since).describe(),
                                            limit=LIMITS["ptab_odp"]),
             "lens": lambda: _lens(settings, ledger),
             "ops": lambda: SourcePlan("ops", "Patent-CR grants (SPEC window), documents not in the ledger",
                                       limit=LIMITS["ops"]),
             "semopenalex": lambda: SourcePlan("semopenalex", f"look-ups not cached at {settings.upstreams.sparql_endpoint}",
                                               limit=LIMITS["semopenalex"].format(batch=sparql_batch))}
    if settings.llm.base_url:  # the LLM routes' requests from the response cache's misses (stages/llm_plan.py)
        steps["llm"] = lambda: _llm(settings, data_dir)
    for source, step in steps.items():
        stopped = missing_credential(settings, source)
        if stopped:
            plans.append(SourcePlan(source, "", stopped=stopped))
            continue
        try:
            plans.append(step())
        except Exception as exc:  # noqa: BLE001 - one unreachable listing must not hide the others' plans
            plans.append(SourcePlan(source, "listing failed", limit=LIMITS[source], notes=[str(exc)]))
    return plans


def _llm(settings: Settings, data_dir: str) -> SourcePlan:
    from .llm_plan import cost_line, llm_costs

    costs = llm_costs(settings, data_dir)
    return SourcePlan("llm", cost_line(settings, costs), sum(c.requests for c in costs), limit=LIMITS["llm"])


def plan_dicts(plans: list[SourcePlan]) -> list[dict]:
    return [asdict(p) | {"line": p.line()} for p in plans]
