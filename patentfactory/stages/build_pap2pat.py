"""Stage: USPTO applications + SemOpenAlex works -> matched pairs -> documents -> Pap2Pat versions.

`ingest_semopenalex` looks up every inventor spelling of the warehouse's US applications on a
SemOpenAlex SPARQL endpoint (batched, cached by query hash under `raw/semopenalex/sparql`, so a
rerun sends nothing) and writes the authors' works as the `papers` table; a batch the endpoint
keeps failing becomes a `rejects` row and the run goes on. The works that match a patent get their full
text in `sections` (sources/paper_fulltext: PMC JATS, else the open-access PDF; cached under
`raw/semopenalex/fulltext`); the others stay abstract-only, counted by reason. `publish_pap2pat` reads the warehouse
only: it matches (transforms/matching), builds both documents with outlines
(transforms/pap2pat_documents, transforms/outlines), splits (transforms/tasks/pap2pat) and publishes
`pap2pat/<version>/pairs/<split>.parquet`; with `json_out` it also writes the original's per-pair
folders (`patent.json`, `paper.json`, markdown, outlines) next to the versions.
"""
from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import TypeVar

import polars as pl
import pyarrow as pa

from schemas import PAPERS, REJECTS
from sources.arxiv_oai import ArxivLicenceClient, arxiv_id
from sources.paper_fulltext import FullTextClient
from sources.records import ParseResult
from sources.semopenalex import SemOpenAlexClient, SparqlError, service_name
from transforms.matching import (MatchParams, collect_ranked_stage, inventor_query_names, match_pairs,
                                pairs_and_funnel)
from transforms.outlines import BulletWriter, render_fulltext, render_outline
from transforms.pap2pat_documents import DocumentParams, DocumentStats, paper_document, paper_sections, patent_document
from transforms.tasks.pap2pat import (EVIDENCE, OUTLINE_COLUMNS, SCHEMA, TASK, SplitParams, no_pair_member_in_two_splits,
                                      split_pairs)

from patentfactory.config import ArxivSettings, GrobidSettings, LLMSettings
from patentfactory.errors import NothingToPublish
from patentfactory.store.parquet_io import parquet_bytes
from patentfactory.store.publish import LeakageCheck, Published, Release, publish
from patentfactory.store.publish_options import PublishOptions
from patentfactory.stages.ingest_files import stores_for
from patentfactory.store.storage import Storage
from patentfactory.stages.memory import within_budget
from patentfactory.stages import llm_routes
from patentfactory.stages.pap2pat_card import baseline_scores, card_sections, stable_endpoint

log = logging.getLogger(__name__)
SOURCE = "semopenalex"
PARSER_VERSION = "semopenalex-1"
APPLICATION_KINDS = ("A1", "A2", "A9")
_KEY_ORDER = ("title", "paragraphs", "subsections", "outline_long", "num_characters", "outline_medium",
              "outline_short")
T, R = TypeVar("T"), TypeVar("R")
NAMES_PER_STEP = 200  # names per fetch_authors call: one failing step loses at most this many lookups


@dataclass(frozen=True)
class Pap2PatParams:
    """What a build covers; SPEC: US applications filed 2005..Apr 2024 with >= 2 inventors."""
    app_from: date = date(2005, 1, 1)
    app_to: date = date(2024, 4, 30)
    match: MatchParams = MatchParams()
    docs: DocumentParams = DocumentParams()
    split: SplitParams = SplitParams()

    def as_dict(self) -> dict:
        return json.loads(json.dumps(asdict(self), default=str))


# ---------- SemOpenAlex ingest ----------

def read_applications(data_dir: str | Path, params: Pap2PatParams = Pap2PatParams()) -> pl.DataFrame:
    """US pre-grant publications from the bulk XML in the filing range with enough inventors.

    Only `uspto_bulk` rows: the documents need the full description, and other sources' copies of the
    same application (Lens) print inventors as 'LAST FIRST', which SemOpenAlex does not know."""
    pubs = stores_for(data_dir).warehouse.lean_frame("publications", skip=("raw",),  # raw: 90% of the bytes
                                                     where=pl.col("source") == "uspto_bulk")
    return pubs.filter(
        (pl.col("country") == "US") & pl.col("kind").is_in(APPLICATION_KINDS)
                       & pl.col("app_date").is_between(params.app_from, params.app_to)
                       & (pl.col("inventors").list.len() >= params.match.min_inventors))


def _item(endpoint: str) -> str:
    """One warehouse part per service: every ingest looks up all applications again (answers cached), so
    the part is replaced, and a replica on a new port each night does not add parts."""
    return "sparql_" + hashlib.sha256(service_name(endpoint).encode()).hexdigest()[:12]


def _in_order(fn: Callable[[T], R], items: list[T], concurrency: int) -> list[R | SparqlError]:
    """`fn` over `items`, at most `concurrency` at once, results in the items' order (a SparqlError is kept)."""
    def safe(item: T) -> R | SparqlError:
        try:
            return fn(item)
        except SparqlError as exc:
            return exc

    if concurrency <= 1 or len(items) <= 1:
        return [safe(i) for i in items]
    with ThreadPoolExecutor(concurrency, thread_name_prefix="sparql") as pool:
        return list(pool.map(safe, items))


def fetch_candidate_papers(client: SemOpenAlexClient, names: list[str], step: int = NAMES_PER_STEP,
                           concurrency: int = 1) -> ParseResult:
    """Names -> authors -> works, one step of names at a time; a failing step becomes a reject.

    Up to `concurrency` steps are in flight at once (PF_SPARQL_CONCURRENCY: the endpoint's limit, 1 for the
    public service); the answers are merged in step order, so the result is the serial one."""
    out = ParseResult()
    authors: set[str] = set()
    starts = list(range(0, len(names), step))
    for k, found in zip(starts, _in_order(lambda k: client.fetch_authors(names[k:k + step]), starts, concurrency)):
        if isinstance(found, SparqlError):
            out.reject(SOURCE, client.endpoint, f"authors {k}..{k + len(names[k:k + step]) - 1}", found,
                       "\n".join(names[k:k + step]))
        else:
            authors.update(a for ids in found.values() for a in ids)
    ids = sorted(authors)
    seen: set[str] = set()
    starts = list(range(0, len(ids), step))
    for k, res in zip(starts, _in_order(lambda k: client.fetch_works(ids[k:k + step]), starts, concurrency)):
        if isinstance(res, SparqlError):
            out.reject(SOURCE, client.endpoint, f"works of authors {k}..{k + step - 1}", res, " ".join(ids[k:k + step]))
            continue
        out.rejects.extend(res.rejects)
        for row in res.rows.get("papers", []):
            if row["work_id"] not in seen:
                seen.add(row["work_id"])
                out.add("papers", row)
    return out


def add_fulltexts(apps: pl.DataFrame, rows: list[dict], client: SemOpenAlexClient, fulltext: FullTextClient,
                  params: Pap2PatParams) -> dict:
    """Fill `sections` (JSON) of the works that match a patent, from PMC JATS or the open-access PDF.

    Only matched works are fetched (the pairs are decided on metadata alone, so matching here and again at
    publish gives the same pairs); a work without a full text keeps `sections` null and is counted by reason."""
    if not rows:
        return {"matched_works": 0}
    papers = pl.from_arrow(PAPERS.from_pylist(rows))
    assert isinstance(papers, pl.DataFrame)
    matched = set(match_pairs(apps.lazy(), papers.lazy(), params.match).collect()["work_id"].to_list())
    stats: dict = {"matched_works": len(matched), "jats": 0, "grobid": 0, "pdf": 0, "pdf_outline": 0, "pdf_layout": 0,
                   "abstract_only": 0, "why_abstract_only": {}}
    for row in rows:
        if row["work_id"] not in matched:
            continue
        got = fulltext.fetch(row["work_id"], client.pmcids.get(row["work_id"]), client.oa_urls.get(row["work_id"]))
        if got.sections is None:
            stats["abstract_only"] += 1
            stats["why_abstract_only"][got.why] = stats["why_abstract_only"].get(got.why, 0) + 1
            continue
        stats[got.source] += 1
        if got.route:  # a PDF parsed here: its headings from the outline or from the layout rules
            stats[got.route.replace("-", "_")] += 1
        row["sections"] = json.dumps(got.sections, ensure_ascii=False)
    log.info("full texts: %s; traffic %s", stats, dict(fulltext.stats))  # traffic varies run to run: not in the card
    return stats


def add_arxiv_licences(apps: pl.DataFrame, rows: list[dict], oa_urls: dict[str, str],
                       client: ArxivLicenceClient, params: Pap2PatParams) -> dict:
    """The authors' licence lookup (their step_04): a paper of a pair that passes every rule but the licence, with
    no open licence from SemOpenAlex and its open-access PDF on arXiv, takes the licence arXiv records (it replaces
    the SemOpenAlex one when it is open, and fills a missing one otherwise). Counts asked / found / open."""
    stats = {"asked": 0, "found": 0, "open": 0}
    if not rows:
        return stats
    papers = pl.from_arrow(PAPERS.from_pylist(rows))
    assert isinstance(papers, pl.DataFrame)
    pending = set(collect_ranked_stage(apps.lazy(), papers.lazy(), "one_to_one", params.match)["work_id"])
    for row in rows:
        aid = arxiv_id(oa_urls.get(row["work_id"]))
        if row["work_id"] not in pending or row["license"] in params.match.licences or aid is None:
            continue
        stats["asked"] += 1
        found = client.licence(aid)
        if found is None:
            continue
        stats["found"] += 1
        if found in params.match.licences:
            stats["open"] += 1
            row["license"] = found
        elif row["license"] is None:
            row["license"] = found
    log.info("arXiv licences: %s; traffic %s", stats, dict(client.stats))
    return stats


def arxiv_client(data_dir: str | Path, via: str | None,
                 arxiv: ArxivSettings = ArxivSettings()) -> ArxivLicenceClient | None:
    """The replica's OAI route when the ingest runs against it (`via`), else PF_ARXIV__OAI_URL; None when
    PF_ARXIV__LOOKUP is false."""
    if not arxiv.lookup:
        return None
    url = f"{via.rstrip('/')}/oai2" if via else arxiv.oai_url
    cache = None if str(data_dir).startswith("s3://") else Path(data_dir) / "raw" / SOURCE / "arxiv"
    return ArxivLicenceClient(url, cache_dir=cache, min_interval=0.0 if via else 3.0)


@within_budget("ingest-semopenalex")
def ingest_semopenalex(data_dir: str | Path, endpoint: str, params: Pap2PatParams = Pap2PatParams(),
                       client: SemOpenAlexClient | None = None, fulltext_via: str | None = None,
                       fulltext: FullTextClient | None = None, sparql_concurrency: int = 1,
                       grobid: GrobidSettings = GrobidSettings(), arxiv: ArxivSettings = ArxivSettings(),
                       parsed_cache: Path | None = None) -> dict:
    """Candidate papers of every application's inventors -> warehouse `papers` (+ `rejects`), the matched ones
    with their full text (`fulltext_via`: the replica's base URL; None: Europe PMC and the PDF links). Stats.
    `parsed_cache` (PF_PATHS__PARSED_CACHE): where the PDFs' parses are kept, if not beside the downloads."""
    stores = stores_for(data_dir)
    apps = read_applications(data_dir, params)
    names = inventor_query_names(apps.lazy(), params.match.min_inventors).collect()["q"].to_list()
    if client is None:
        cache = None if str(data_dir).startswith("s3://") else Path(data_dir) / "raw" / SOURCE / "sparql"
        client = SemOpenAlexClient(endpoint, cache_dir=cache)
    res = fetch_candidate_papers(client, names, concurrency=sparql_concurrency)
    item = _item(client.endpoint)
    rows = sorted(res.rows.get("papers", []), key=lambda r: r["work_id"])
    if fulltext is None:
        cache = None if str(data_dir).startswith("s3://") else Path(data_dir) / "raw" / SOURCE / "fulltext"
        fulltext = FullTextClient(fulltext_via, cache_dir=cache, grobid=grobid.url, grobid_timeout=grobid.timeout_s,
                                  parsed_dir=parsed_cache)
    licence_client = arxiv_client(data_dir, fulltext_via, arxiv)
    licences = (add_arxiv_licences(apps, rows, client.oa_urls, licence_client, params) if licence_client
                else None)
    texts = add_fulltexts(apps, rows, client, fulltext, params)
    papers = PAPERS.from_pylist(rows)
    blob = parquet_bytes(papers)
    stores.warehouse.write_part("papers", item, papers)
    stores.warehouse.write_part("rejects", f"{item}.rejects", REJECTS.from_pylist(res.rejects))
    stores.ledger.record_fetch(SOURCE, item, blob.sha256, len(blob.data))
    stores.ledger.record_parse(SOURCE, item, PARSER_VERSION, papers.num_rows, len(res.rejects))
    stats = {"endpoint": stable_endpoint(client.endpoint), "applications": apps.height, "names": len(names),
             "papers": papers.num_rows, "rejects": len(res.rejects), "fulltext": texts, "arxiv_licences": licences,
             **{k: client.stats.get(k, 0) for k in ("queries", "cache_hits", "retries", "splits")}}
    log.info("semopenalex: %s", stats)
    return stats


# ---------- build ----------

def _paragraphs(data_dir: str | Path, table: str, pub_ids: list[str], order: str, cols: list[str]) -> dict:
    df = (stores_for(data_dir).warehouse.lazy(table).filter(pl.col("pub_id").is_in(pub_ids))
          .sort("pub_id", order).collect())
    out: dict[str, list[tuple]] = {}
    for row in df.select("pub_id", *cols).iter_rows():
        out.setdefault(row[0], []).append(tuple(row[1:]))
    return out


@dataclass
class BuildStats:
    applications: int = 0
    papers: int = 0
    pairs: int = 0
    splits: dict[str, int] = field(default_factory=dict)
    empty_splits: list[str] = field(default_factory=list)
    documents: dict = field(default_factory=dict)
    match_funnel: dict[str, int] = field(default_factory=dict)


def assemble_pairs(data_dir: str | Path, params: Pap2PatParams, stats: BuildStats,
                   writer: BulletWriter | None = None) -> pl.DataFrame:
    """Warehouse -> one row per matched pair in SCHEMA (documents nested), with its split."""
    apps = read_applications(data_dir, params)
    papers = stores_for(data_dir).warehouse.frame("papers")
    stats.applications, stats.papers = apps.height, papers.height
    if apps.height == 0 or papers.height == 0:
        raise NothingToPublish(f"nothing to match under {data_dir}: {apps.height} applications, {papers.height} papers",
                      "run `pf ingest uspto` and `pf ingest semopenalex` first")
    pairs, stats.match_funnel = pairs_and_funnel(apps.lazy(), papers.lazy(), params.match)
    ids = pairs["pub_id"].to_list()
    paras = _paragraphs(data_dir, "descriptions", ids, "para_no", ["heading", "text"])
    claims = _paragraphs(data_dir, "claims", ids, "claim_no", ["claim_no", "text"])
    app_rows = {r["pub_id"]: r for r in apps.filter(pl.col("pub_id").is_in(ids)).iter_rows(named=True)}
    paper_rows = {r["work_id"]: r for r in papers.filter(pl.col("work_id").is_in(pairs["work_id"].to_list())).iter_rows(named=True)}
    doc_stats = DocumentStats()
    rows = []
    for ev in pairs.iter_rows(named=True):
        app, paper = app_rows[ev["pub_id"]], paper_rows[ev["work_id"]]
        patent = patent_document(app, paras.get(ev["pub_id"], []), claims.get(ev["pub_id"], []), params.docs,
                                 stats=doc_stats, **({"writer": writer} if writer else {}))
        paper_doc = paper_document(paper, params.docs, doc_stats)
        rows.append({"pair_id": f"{ev['work_id']}-{patent['id']}", "pub_id": ev["pub_id"], "work_id": ev["work_id"],
                     "doi": paper["doi"], "license": ev["license"], "patent_app_date": app["app_date"],
                     "patent_pub_date": app["pub_date"], "paper_date": paper["pub_date"],
                     **{k: _stable(ev[k]) for k in EVIDENCE},
                     "paper_fulltext": paper_sections(paper, params.docs)[1],
                     "paper_text": render_fulltext(paper_doc["sections"]),
                     "patent_text": render_fulltext(patent["sections"]),
                     **{c: render_outline(patent["sections"], c.removeprefix("outline_")) for c in OUTLINE_COLUMNS},
                     "patent": patent, "paper": paper_doc})
    stats.pairs, stats.documents = len(rows), asdict(doc_stats)
    table = pl.from_arrow(pa.Table.from_pylist(rows, schema=SCHEMA))
    assert isinstance(table, pl.DataFrame)
    return table.join(split_pairs(table.select("pair_id", "patent_pub_date"), params.split), on="pair_id")


def _stable(value: float | int | None, digits: int = 9) -> float | int | None:
    """Evidence scores rounded: parallel float sums differ in the last bits run to run, bytes must not."""
    return round(value, digits) if isinstance(value, float) else value


@within_budget("build-pap2pat")
def publish_pap2pat(data_dir: str | Path, out_root: str, params: Pap2PatParams = Pap2PatParams(),
                    ingest: dict | None = None, json_out: bool = False, publish_options: PublishOptions = PublishOptions(),
                    outliner: str | None = None, llm: LLMSettings = LLMSettings()) -> Published:
    """Warehouse -> `pap2pat/<version>/pairs/{train,val,test,nc-test}.parquet` (+ per-pair JSON folders).
    `outliner`: offline | llm (None: llm when `llm.base_url` (the entry point's PF_LLM__BASE_URL) is set;
    stages/llm_routes.py)."""
    stats = BuildStats()
    writer = llm_routes.make_writer(outliner, data_dir, llm)
    llm_routes.prefetch_outlines(writer, lambda w: assemble_pairs(data_dir, params, BuildStats(), w))
    table = assemble_pairs(data_dir, params, stats, writer)
    tables = {s: table.filter(pl.col("split") == s).drop("split") for s in ("train", "val", "test", "nc-test")}
    stats.splits = {s: df.height for s, df in tables.items()}
    stats.empty_splits = sorted(s for s, df in tables.items() if df.height == 0)
    tables = {s: df for s, df in tables.items() if df.height}
    if not tables:
        raise NothingToPublish(f"no patent-paper pair matched among {stats.applications} applications and "
                               f"{stats.papers} papers under {data_dir}; nothing published",
                               "widen --from/--to or check `pf ingest semopenalex` found the inventors' works")
    stores = stores_for(data_dir)
    release = Release(
        dataset="pap2pat", tasks={TASK: tables} if tables else {},
        config={"params": params.as_dict(), "parser_version": PARSER_VERSION,
                "outline_route": llm_routes.route_config(writer)},
        inputs=stores.ledger.snapshot(["uspto_bulk", SOURCE]),
        leakage_checks=[LeakageCheck("no_patent_or_paper_in_two_splits", no_pair_member_in_two_splits)],
        distribution=stats.splits, distribution_title="pairs per split",
        card_sections={**card_sections(params, stats, ingest or {}, baseline_scores(tables),
                                       llm_routes.route_config(writer).get("model")),
                       "Outline route": llm_routes.route_card(writer, "section outlines", "the offline writer")},
        stats={"build": asdict(stats), "ingest": ingest or {}})
    pub = publish(Storage(out_root), release, options=publish_options)
    if json_out:
        write_json_folders(Storage(out_root), pub.version, table)
    return pub


def write_json_folders(storage: Storage, version: str, table: pl.DataFrame) -> str:
    """`pap2pat-json/<version>/<pair_id>/` with the original's files, plus `metadata.json` (splits)."""
    base = f"pap2pat-json/{version}"
    splits: dict[str, list[str]] = {}
    for row in table.sort("pair_id").iter_rows(named=True):
        folder = f"{base}/{row['pair_id']}"
        splits.setdefault(row["split"], []).append(row["pair_id"])
        storage.write_text(f"{folder}/patent.json", json.dumps(_plain(row["patent"]), indent=4))
        storage.write_text(f"{folder}/paper.json", json.dumps(_plain(row["paper"]), indent=4))
        storage.write_text(f"{folder}/paper.md", row["paper_text"])
        storage.write_text(f"{folder}/patent.md", row["patent_text"])
        for col in OUTLINE_COLUMNS:
            storage.write_text(f"{folder}/patent_{col}.md", row[col])
    storage.write_text(f"{base}/metadata.json", json.dumps({"splits": splits}, indent=4, sort_keys=True))
    return storage.uri(base)


def _plain(doc: dict) -> dict:
    """A document read back from Arrow in the golden key order (the deepest level gets `subsections: []`)."""
    def section(sec: dict) -> dict:
        sec = {**sec, "subsections": [section(s) for s in sec.get("subsections") or []]}
        return {k: sec[k] for k in _KEY_ORDER if k in sec}

    return {**doc, "sections": [section(s) for s in doc["sections"]]}
