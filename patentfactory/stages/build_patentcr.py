"""Stage: EPO OPS -> `claim_revisions` (warehouse) -> Patent-CR train/test -> versioned publish.

EP grants (B1) published in a date range are listed with OPS search, one window at a time
because OPS caps a query at 2,000 results. Per grant: its biblio (date, IPC, kind check), its
English claims, and the application's claims (A1, else A2). Every response is kept in the raw
cache and recorded in the ledger, so publish re-reads dates/IPC locally. Grants that cannot give
a pair (no claims, no application, not English, unchanged) are counted per reason and reported
in the card and manifest; none is dropped silently. A document OPS answers 404 for is recorded in the
ledger and not asked again until the recheck period (`PF_OPS_404_RECHECK_DAYS`) has passed. Each grant's
DOCDB family-id is written to the warehouse's `reported_families` (used by family reconstruction).
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa

from schemas import CLAIM_REVISIONS, REPORTED_FAMILIES
from sources.epo_ops.client import LIVE_BASE_URL, OpsClient, OpsStopped
from sources.epo_ops.parse import parse_ops_biblio, parse_ops_claims, parse_search_hits
from transforms.claim_revision import in_range, issued_claims, pair_claims, pair_reason, split_by_month

from patentfactory.config import OPS_404_RECHECK_DAYS, Settings
from patentfactory.errors import PFError, SourceStopped
from .ingest import Stores
from .ingest_ops import Recheck, ask_ops
from patentfactory.store.publish import LeakageCheck, Published, Release, publish
from patentfactory.store.publish_options import PublishOptions
from patentfactory.stages.ingest_files import stores_for
from patentfactory.store.storage import Storage
from patentfactory.stages.memory import within_budget

log = logging.getLogger(__name__)
SOURCE = "epo_ops"
PARSER_VERSION = "patentcr-3"  # 2: only drawing reference signs stripped (issue 31); 3: claims as issued
FIELDS = ("ep_number", "kind_before", "kind_after", "pub_date_after", "ipc", "claims_before", "claims_after",
          "claims_before_clean", "claims_after_clean")
_EN_CLAIMS = re.compile(rb"<(?:\w+:)?claims\b[^>]*\blang=\"en\"", re.I)


@dataclass(frozen=True)
class PatentCRParams:
    """What a build covers; SPEC: grants of Jan–Jun 2024, June = test."""

    start: date = date(2024, 1, 1)
    end: date = date(2024, 6, 30)
    test_months: tuple[int, ...] = (6,)
    cql_template: str = 'pn=EP and pd within "{lo} {hi}"'
    window_days: int = 7  # one EP publication Wednesday per query keeps most windows under the cap
    search_limit: int = 2000

    def as_dict(self) -> dict:
        return {f.name: str(v) if isinstance(v := getattr(self, f.name), date) else v for f in fields(self)}


@dataclass
class PatentCRStats:
    """Counts of every grant seen and why it did or did not become a pair."""

    search_queries: int = 0
    search_hits: int = 0
    search_truncated_windows: int = 0
    not_b1: int = 0
    out_of_range: int = 0
    grants: int = 0
    pairs: int = 0
    ops_404: int = 0
    ops_404_items: list[str] = field(default_factory=list)
    ops_404_known: int = 0  # of ops_404: recorded by an earlier run, not asked again (not published, like cached_items)
    ops_404_recheck_days: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    kind_before: dict[str, int] = field(default_factory=dict)
    cached_items: int = 0  # documents read back from the raw cache (not published: a rerun must not change the card)

    def drop(self, reason: str, ep: str) -> None:
        self.dropped[reason] = self.dropped.get(reason, 0) + 1
        log.info("patentcr: %s dropped (%s)", ep, reason)

    def as_dict(self) -> dict:
        out = asdict(self)
        out["ops_404_items"] = sorted(self.ops_404_items)[:50]
        return out

    def add(self, other: "PatentCRStats") -> None:
        """Add one grant's counts (fan-out: each grant counts on its own, merged in grant order)."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if f.name == "ops_404_recheck_days":
                continue
            if isinstance(mine, dict):
                for k, v in theirs.items():
                    mine[k] = mine.get(k, 0) + v
            else:
                setattr(self, f.name, mine + theirs)


def windows(start: date, end: date, days: int) -> list[tuple[date, date]]:
    """Consecutive inclusive windows of `days` covering start..end."""
    out, lo = [], start
    while lo <= end:
        hi = min(lo + timedelta(days=days - 1), end)
        out.append((lo, hi))
        lo = hi + timedelta(days=1)
    return out


def list_grants(client: OpsClient, params: PatentCRParams, stats: PatentCRStats) -> list[str]:
    """Search hits as 'EP.N.B1' names (sorted, unique); other kinds are counted and skipped."""
    names: set[str] = set()
    for lo, hi in windows(params.start, params.end, params.window_days):
        cql = params.cql_template.format(lo=f"{lo:%Y%m%d}", hi=f"{hi:%Y%m%d}")
        stats.search_queries += 1
        for page in client.search_pages(cql, limit=params.search_limit):
            total = re.search(rb'total-result-count="(\d+)"', page)
            if total and int(total.group(1)) > params.search_limit and b'begin="1"' in page:
                stats.search_truncated_windows += 1
                log.warning("OPS search %r has %s hits; only %d are reachable", cql, total.group(1).decode(),
                            params.search_limit)
            for cc, num, kind in parse_search_hits(page):
                stats.search_hits += 1
                if cc == "EP" and kind == "B1":
                    names.add(f"EP.{num}.B1")
                else:
                    stats.not_b1 += 1
    return sorted(names)


def cached_item(stores: Stores, item: str) -> bytes | None:
    """The bytes of an OPS document fetched by an earlier run (ledger -> raw cache), if intact.

    A published document does not change, so asking OPS again would only spend the weekly quota.
    """
    row = stores.ledger.get(SOURCE, item)
    if not row or not row.get("sha256"):
        return None
    try:
        data = stores.cache.storage.read_bytes(stores.cache.rel_for(SOURCE, row["sha256"], ".xml"))
    except (FileNotFoundError, OSError):
        return None
    return data if hashlib.sha256(data).hexdigest() == row["sha256"] else None


def fetch_item(client: OpsClient, stores: Stores, pub: str, endpoint: str, stats: PatentCRStats,
               recheck: Recheck = Recheck()) -> bytes | None:
    """One OPS document (None on 404, counted): from the raw cache when fetched before, else from OPS into
    the raw cache and the ledger; a 404 seen within the recheck period is not asked again."""
    item = f"{pub}/{endpoint}"
    data = cached_item(stores, item)
    if data is not None:
        stats.cached_items += 1
        return data
    data, known = ask_ops(client, stores.ledger, pub, endpoint, recheck)
    if data is None:
        stats.ops_404 += 1
        stats.ops_404_known += known
        stats.ops_404_items.append(item)
        return None
    raw = stores.cache.put_bytes(SOURCE, data, ".xml")
    stores.ledger.record_fetch(SOURCE, item, raw.sha256, raw.bytes)
    return data


def _claims_en(data: bytes | None, item: str) -> list[str] | None:
    """English claim texts of one response; [] when the response has no English block."""
    if data is None:
        return None
    if not _EN_CLAIMS.search(data):
        return []
    return [r["text"] for r in sorted(parse_ops_claims(data, item, "en").rows["claims"], key=lambda r: r["claim_no"])]


def _grant_meta(data: bytes | None, item: str, families: list[dict] | None = None) -> dict | None:
    """The grant's `publications` row; its DOCDB family-id goes to `families` (kept as reported families)."""
    result = parse_ops_biblio(data, item) if data else None
    if result is not None and families is not None:
        families.extend(result.rows.get("reported_families", []))
    rows = result.rows.get("publications", []) if result is not None else []
    return rows[0] if rows else None


def fetch_revision(client: OpsClient, stores: Stores, grant: str, params: PatentCRParams,
                   stats: PatentCRStats, recheck: Recheck = Recheck(),
                   families: list[dict] | None = None) -> dict | None:
    """One grant -> a `claim_revisions` row, or None with the reason counted (its family id into `families`)."""
    ep = "EP-" + grant.split(".")[1]
    meta = _grant_meta(fetch_item(client, stores, grant, "biblio", stats, recheck), f"{grant}/biblio", families)
    if meta is None:
        stats.drop("no_grant_biblio", ep)
        return None
    if meta["kind"] != "B1" or not in_range(meta["pub_date"], params.start, params.end):
        stats.out_of_range += 1
        return None
    stats.grants += 1
    after = _claims_en(fetch_item(client, stores, grant, "claims", stats, recheck), f"{grant}/claims")
    before, kind_before = None, None
    for kind in ("A1", "A2"):
        before = _claims_en(fetch_item(client, stores, f"EP.{grant.split('.')[1]}.{kind}", "claims", stats, recheck),
                            kind)
        if before is not None:
            kind_before = kind
            break
    if after == [] or before == []:
        stats.drop("not_english", ep)
        return None
    before_c, after_c = (issued_claims(before) if before is not None else None,
                         issued_claims(after) if after is not None else None)
    reason = pair_reason(before_c, after_c)
    if reason:
        stats.drop(reason, ep)
        return None
    stats.pairs += 1
    stats.kind_before[kind_before or "?"] = stats.kind_before.get(kind_before or "?", 0) + 1
    return {"ep_number": ep, "kind_before": kind_before, "claims_before": before_c, "kind_after": "B1",
            "claims_after": after_c}


def _fetch_grants(client: OpsClient, stores: Stores, grants: list[str], params: PatentCRParams,
                  recheck: Recheck, concurrency: int) -> list[tuple[dict | None, PatentCRStats, list[dict]]]:
    """(row, counts, family ids) per grant, in grant order, fetched by `concurrency` threads sharing one client
    (its start slots keep the pace OPS asks for). OPS saying stop ends the whole fan-out: what was fetched is
    cached and the ledger has it, so the next run asks only for the rest."""
    def one(grant: str) -> tuple[dict | None, PatentCRStats, list[dict]]:
        stats, families = PatentCRStats(), []
        return fetch_revision(client, stores, grant, params, stats, recheck, families), stats, families

    if concurrency <= 1:
        return _in_order([functools.partial(one, g) for g in grants])
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="ops") as pool:
        futures = [pool.submit(one, g) for g in grants]
        try:
            return _in_order([f.result for f in futures])
        finally:
            for f in futures:
                f.cancel()  # after a stop: the grants not started yet are not asked


def _in_order(calls: list[Callable[[], Any]]) -> list[Any]:
    """Each call's result in order; OPS saying stop becomes the nightly's `SourceStopped` (a deferral)."""
    out = []
    for done, call in enumerate(calls):
        try:
            out.append(call())
        except OpsStopped as exc:
            raise SourceStopped(f"patentcr: OPS asked to stop after {done} of {len(calls)} grants ({exc})",
                                "run again later (e.g. the next night): the documents fetched so far are cached "
                                "and not asked for again") from exc
    return out


def fetch_claim_revisions(data_dir: str | Path, client: OpsClient, params: PatentCRParams = PatentCRParams(),
                          recheck: Recheck = Recheck(), concurrency: int = 1) -> dict:
    """Search, fetch and pair (`concurrency` grants at a time); write the pairs as one warehouse part per date
    range. Returns stats. The rows and counts do not depend on `concurrency`."""
    stores = stores_for(data_dir)
    stats = PatentCRStats(ops_404_recheck_days=recheck.days)
    grants = list_grants(client, params, stats)
    log.info("patentcr: %d B1 grants listed for %s..%s (%d at a time)", len(grants), params.start, params.end,
             concurrency)
    rows: list[dict] = []
    families: list[dict] = []
    with stores.ledger.batch():
        for row, counts, fams in _fetch_grants(client, stores, grants, params, recheck, concurrency):
            stats.add(counts)
            families.extend(fams)
            if row:
                rows.append(row)
    item = f"patentcr_{params.start:%Y%m%d}_{params.end:%Y%m%d}"
    table = pa.Table.from_pylist(rows, schema=CLAIM_REVISIONS.schema)
    stores.warehouse.write_part("claim_revisions", item, table)
    if families:  # the grants' DOCDB family ids, for family reconstruction (transforms.families)
        stores.warehouse.write_part("reported_families", item, REPORTED_FAMILIES.from_pylist(families))
    stores.ledger.record_parse(SOURCE, item, PARSER_VERSION, len(rows), sum(stats.dropped.values()))
    log.info("patentcr: %d pairs, dropped %s, %d OPS 404s, %d documents read from the raw cache", stats.pairs,
             stats.dropped, stats.ops_404, stats.cached_items)
    return stats.as_dict()


def read_grant_meta(data_dir: str | Path, ep_numbers: list[str]) -> pl.DataFrame:
    """(ep_number, pub_date_after, ipc) from the cached B1 biblio responses the ledger points at."""
    stores = stores_for(data_dir)
    rows = []
    for ep in ep_numbers:
        item = f"EP.{ep.split('-', 1)[1]}.B1/biblio"
        led = stores.ledger.get(SOURCE, item)
        if not led or not led.get("sha256"):
            continue
        data = stores.cache.storage.read_bytes(stores.cache.rel_for(SOURCE, led["sha256"], ".xml"))
        meta = _grant_meta(data, item)
        if meta:
            rows.append({"ep_number": ep, "pub_date_after": meta["pub_date"], "ipc": meta["ipc"]})
    schema = {"ep_number": pl.String, "pub_date_after": pl.Date, "ipc": pl.List(pl.String)}
    return pl.DataFrame(rows, schema=schema)


def assemble_pairs(revisions: pl.DataFrame, meta: pl.DataFrame, params: PatentCRParams) -> dict[str, pl.DataFrame]:
    """Warehouse rows + grant dates/IPC -> the published train/test tables (exact FIELDS order)."""
    joined = (revisions.lazy().join(meta.lazy(), on="ep_number", how="inner")
              .filter(pl.col("pub_date_after").is_between(params.start, params.end)))
    pairs = pair_claims(joined).select(FIELDS).sort("ep_number")
    return {k: v.collect() for k, v in split_by_month(pairs, params.test_months).items()}


def _no_patent_in_two_splits(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    splits = frames.get("claim_revision", {})
    seen: dict[str, str] = {}
    problems = []
    for split, df in splits.items():
        for ep in df["ep_number"].to_list():
            if ep in seen and seen[ep] != split:
                problems.append(f"{ep} in {seen[ep]} and {split}")
            seen[ep] = split
    return problems


def _card_sections(stats: dict, params: PatentCRParams, tables: dict[str, pl.DataFrame]) -> dict[str, str]:
    dropped = stats.get("dropped", {})
    lines = "\n".join(f"| {k} | {v} |" for k, v in sorted(dropped.items())) or "| (none) | 0 |"
    sizes = ", ".join(f"{s}: {df.height}" for s, df in sorted(tables.items()))
    return {
        "Provenance": (f"EP B1 grants published {params.start} to {params.end}, listed with EPO OPS search "
                       f"(`{params.cql_template}`, {params.window_days}-day windows). claims_before = English claims "
                       "of the A1 publication, else A2; claims_after = English claims of the B1, both as issued "
                       "(claim numbers and reference signs kept, whitespace runs collapsed). The cleaning option, "
                       "`claims_before_clean` / `claims_after_clean`: leading numbers and drawing reference signs "
                       "such as '(100)' after a noun phrase removed; formula, condition, claim, sequence and example "
                       "numbers such as 'formula (1)' or 'general formula (2) or (3)' kept on both sides."),
        "Split": f"test = grants published in months {list(params.test_months)}; train = the other months ({sizes}).",
        "Thresholds": ("The window (Jan-Jun 2024, June = test) and the pairing rules are SPEC's. The sample run "
                       "(`make run` / `pf run` on the embedded world) uses the same thresholds as a full build: no "
                       "sample profile lowers any for this dataset."),
        "Bad input": (f"{stats.get('grants', 0)} grants in range, {stats.get('pairs', 0)} pairs kept; "
                      f"{stats.get('ops_404', 0)} OPS 404 responses (each recorded in the ingest ledger and asked "
                      f"again only after {stats.get('ops_404_recheck_days') or OPS_404_RECHECK_DAYS} days, setting "
                      f"`PF_OPS_404_RECHECK_DAYS`); {stats.get('not_b1', 0)} search hits not EP B1; "
                      f"{stats.get('out_of_range', 0)} outside the date range; "
                      f"{stats.get('search_truncated_windows', 0)} search windows over the 2,000-hit cap.\n\n"
                      f"| dropped because | grants |\n|---|---:|\n{lines}"),
        "Departures from the paper": _departures(stats, tables),
        "Reproducing the paper": (
            "From this data at full scale: the dataset statistics (pairs per split, claims and tokens per side) and "
            "the copy and truncate rows of the results table, scored as the paper's library scores them (SARI, "
            "BLEU, ROUGE-L as Hugging Face `evaluate` computes them; checked in tests/evaluation/test_metrics.py). "
            "Commands: `pf build patentcr --start 2024-01-01 --end 2024-06-30` (EPO OPS credentials, "
            "`EPO_OPS_KEY` / `EPO_OPS_SECRET`; the paper's 22,606 pairs take several days of OPS quota) then "
            "`pf eval patentcr`. What stops the rest: the model rows need the paper's fine-tuned and prompted "
            "LLMs (not part of this pipeline), and BERTScore needs roberta-large, which is not downloaded at run "
            "time, so it is not reported."),
        "Build statistics": "```json\n" + json.dumps(stats, indent=2, sort_keys=True, default=str) + "\n```",
    }


def _side_sizes(df: pl.DataFrame, col: str) -> tuple[float, float]:
    """Mean claims and mean whitespace tokens per claim set."""
    if df.height == 0:
        return 0.0, 0.0
    claims = float(df[col].list.len().mean() or 0.0)
    tokens = float(df[col].list.join(" ").str.split(" ").list.len().mean() or 0.0)
    return round(claims, 2), round(tokens, 1)


def _departures(stats: dict, tables: dict[str, pl.DataFrame]) -> str:
    """Where this build differs from the paper, each with the count it affects."""
    both = pl.concat([df for df in tables.values() if df.height]) if any(df.height for df in tables.values()) \
        else pl.DataFrame({c: [] for c in FIELDS})
    equal_clean = int((both["claims_before_clean"] == both["claims_after_clean"]).sum()) if both.height else 0
    (cb, tb), (ca, ta) = _side_sizes(both, "claims_before"), _side_sizes(both, "claims_after")
    dropped = stats.get("dropped", {})
    return "\n".join([
        f"- **Size**: {both.height} pairs (the paper: 22,606 for the same six months); grants dropped per reason: "
        f"{dict(sorted(dropped.items())) or 'none'}.",
        f"- **Claims per side**: before {cb} claims / {tb} whitespace tokens, after {ca} / {ta} (the paper: 13.85 / "
        "1,391 and 10.66 / 1,285 model tokens; our tokens are words, not the paper's tokenizer).",
        "- **Published text**: claims as issued, as in the paper. The cleaned columns are our option, not the "
        f"paper's; {equal_clean} pairs differ only in numbering or reference signs (equal when cleaned) and are "
        "kept, as the paper keeps every A/B pair whose claims differ.",
        "- **English**: OPS's English claim sets only, confirmed by a stop-word vote (German or French text served "
        f"as English is dropped: {dropped.get('not_english', 0)}).",
        "- **Metrics**: SARI, BLEU and ROUGE-L as `evaluate` computes them (SARI's 0/0 counts as 1); ROUGE-L is "
        "the plain mean of rouge-score's F (evaluate's default reports a bootstrap estimate of that mean); BERTScore is not computed (model not downloaded at run time).",
    ])


@within_budget("build-patentcr")
def publish_patentcr(data_dir: str | Path, out_root: str, stats: dict, params: PatentCRParams = PatentCRParams(),
                     publish_options: PublishOptions = PublishOptions()) -> Published:
    """Warehouse `claim_revisions` -> `patentcr/<version>/claim_revision/{train,test}.parquet`."""
    stores = stores_for(data_dir)
    revisions = stores.warehouse.frame("claim_revisions")
    if revisions.height == 0:
        raise PFError(f"no claim revisions in the warehouse under {data_dir}",
                      "run `pf build patentcr` against OPS (or the replica) with a range that has EP B1 grants")
    tables = assemble_pairs(revisions, read_grant_meta(data_dir, revisions["ep_number"].to_list()), params)
    empty = sorted(s for s, df in tables.items() if df.height == 0)
    stats = {**{k: v for k, v in stats.items() if k not in ("cached_items", "ops_404_known")},
             "published_rows": {s: df.height for s, df in tables.items()}, "empty_splits": empty}
    tables = {s: df for s, df in tables.items() if df.height}
    release = Release(
        dataset="patentcr", tasks={"claim_revision": tables} if tables else {},
        config={"params": params.as_dict(), "parser_version": PARSER_VERSION},
        inputs=stores.ledger.snapshot([SOURCE]),
        leakage_checks=[LeakageCheck("no_patent_in_two_splits", _no_patent_in_two_splits)],
        distribution=_by_ipc3(tables), distribution_title="pairs per IPC3 of the grant",
        card_sections=_card_sections(stats, params, tables), stats=stats)
    return publish(Storage(out_root), release, options=publish_options)


def _by_ipc3(tables: dict[str, pl.DataFrame]) -> dict[str, int]:
    if not tables:
        return {}
    ipc3 = pl.concat([df.select(pl.col("ipc").list.first().str.slice(0, 3).fill_null("none").alias("k"))
                      for df in tables.values()])
    return dict(ipc3.group_by("k").len().sort("k").iter_rows())


def ops_client_for(base_url: str, key: str | None = None, secret: str | None = None) -> OpsClient:
    """An OpsClient; off the live service (the replica) placeholder credentials are fine, on it they are required."""
    if not (key and secret) and base_url.rstrip("/") != LIVE_BASE_URL:
        key, secret = "replica", "replica"
        return OpsClient(key, secret, base_url, sleep=lambda _s: None)
    return OpsClient(key or "", secret or "", base_url)


def ops_client_from_settings(settings: Settings, base_url: str | None = None) -> OpsClient:
    """The OPS client for the configured (or given) base URL with the credentials from the environment."""
    return ops_client_for(base_url or settings.upstreams.ops_base_url, *settings.ops_credentials())


def build_and_publish_patentcr(data_dir: str | Path, out_root: str, client: OpsClient,
                               params: PatentCRParams = PatentCRParams(), publish_options: PublishOptions = PublishOptions(),
                               recheck: Recheck = Recheck(), ops_concurrency: int = 4) -> Published:
    """Fetch, pair and publish in one call (the CLI and the flow's single-task path)."""
    stats = fetch_claim_revisions(data_dir, client, params, recheck, ops_concurrency)
    return publish_patentcr(data_dir, out_root, stats, params, publish_options=publish_options)
