"""Ground truth as Parquet under `out/truth/`, so tests can score reconstruction (families,
citations, paper matching, PTAB labels, claim revisions) with precision and recall.

Ids use the canonical forms of common/patent_ids.py (`CC-NUMBER-KIND`, `CC-NUMBER`). Rows are
sorted and written a batch at a time (bounded memory, byte-identical across runs).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .entities import claim_revision
from .text import claim_count
from .views import abstract_of, app_id

if TYPE_CHECKING:
    from .world import World

BATCH = 20000
PERSON = pa.struct([("name", pa.string()), ("first", pa.string()), ("last", pa.string()), ("country", pa.string()),
                    ("person_id", pa.int64())])
PRIORITY = pa.struct([("country", pa.string()), ("number", pa.string()), ("date", pa.date32())])
PUBLICATIONS = pa.schema([
    ("pub_id", pa.string()), ("country", pa.string()), ("doc_number", pa.string()), ("kind", pa.string()),
    ("pub_date", pa.date32()), ("app_id", pa.string()), ("app_date", pa.date32()), ("title", pa.string()),
    ("abstract", pa.string()), ("abstract_pattern", pa.int8()), ("lang", pa.string()), ("ipc", pa.list_(pa.string())),
    ("ipc3", pa.string()), ("cpc", pa.list_(pa.string())), ("inventors", pa.list_(PERSON)),
    ("applicants", pa.list_(pa.string())), ("priorities", pa.list_(PRIORITY)), ("simple_family_id", pa.string()),
    ("extended_family_id", pa.string()), ("invention_id", pa.int64()), ("lens_id", pa.string()),
    ("n_claims", pa.int32())])


def _write(path: Path, schema: pa.Schema, batches: Iterator[list[dict]]) -> Path:
    """Stream row batches into one Parquet file (one row group per batch)."""
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        wrote = False
        for rows in batches:
            if rows:
                writer.write_table(pa.Table.from_pylist(rows, schema=schema))
                wrote = True
        if not wrote:
            writer.write_table(schema.empty_table())
    return path


def _publication_rows(world: World) -> Iterator[list[dict]]:
    pubs, inv = world.pubs, world.inv
    from .views import LANG, applicant_names
    rows: list[dict] = []
    for i in range(world.n):
        t = world.text(i)
        people = [{"name": p.name, "first": " ".join(x for x in (p.first, p.middle) if x), "last": p.last,
                   "country": p.country, "person_id": p.person_id} for p in world.inventors(i)]
        prios = [{"country": c, "number": n, "date": d} for c, n, d in world.priorities(i)]
        for p in world.members(i):
            cc = str(pubs["cc"][p])
            text, pat = abstract_of(world, p)
            rows.append({"pub_id": pubs["pub_id"][p], "country": cc, "doc_number": pubs["number"][p],
                         "kind": str(pubs["kind"][p]), "pub_date": int(pubs["date"][p]), "app_id": app_id(world, p),
                         "app_date": int(world.apps["date"][pubs["app"][p]]), "title": t.title, "abstract": text,
                         "abstract_pattern": pat, "lang": LANG[cc], "ipc": inv["ipc"][i], "ipc3": inv["ipc"][i][0][:3],
                         "cpc": inv["cpc"][i], "inventors": people,
                         "applicants": [n for n, _ in applicant_names(world, i)], "priorities": prios,
                         "simple_family_id": inv["simple_id"][i], "extended_family_id": inv["ext_id"][i],
                         "invention_id": i, "lens_id": pubs["lens_id"][p], "n_claims": claim_count(int(inv["seed"][i]))})
        if len(rows) >= BATCH:
            yield rows
            rows = []
    yield rows


def _table(rows: list[dict]) -> Iterator[list[dict]]:
    yield rows


def write_truth(world: World, out: Path) -> list[Path]:
    """Write every truth table; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    pubs, inv = world.pubs, world.inv
    order = np.argsort(pubs["pub_id"].astype(str), kind="stable")
    fam = pa.table({"pub_id": pubs["pub_id"][order].tolist(),
                    "simple_family_id": inv["simple_id"][pubs["inv"][order]].tolist(),
                    "extended_family_id": inv["ext_id"][pubs["inv"][order]].tolist()})
    paths = [out / "families.parquet"]
    pq.write_table(fam, paths[0], compression="zstd")
    paths.append(_write(out / "publications.parquet", PUBLICATIONS, _publication_rows(world)))
    paths.append(_write_citations(world, out / "citations.parquet"))
    paths += _write_entities(world, out)
    return paths


def _write_citations(world: World, path: Path) -> Path:
    """Patent citations (from world.cites) and NPL citations, ordered by citing publication and seq."""
    pubs, c = world.pubs, world.cites
    ids = pa.array(pubs["pub_id"].tolist(), pa.string())
    npl = sorted(world.npl.items())
    npl_pub = np.array([p for p, texts in npl for _ in texts], dtype=np.int64)
    npl_seq = np.array([int(c["off"][p + 1] - c["off"][p]) + k + 1 for p, texts in npl for k in range(len(texts))],
                       dtype=np.int32)
    n_npl = len(npl_pub)
    patent = pa.table({"citing_pub_id": ids.take(pa.array(c["citing"])), "seq": pa.array(c["seq"].astype(np.int32)),
                       "cited_pub_id": ids.take(pa.array(c["cited"])), "cited_npl": pa.nulls(len(c["cited"]), pa.string()),
                       "category": pa.array([x or None for x in c["category"].tolist()], pa.string()),
                       "cited_by": pa.array(c["by"].tolist(), pa.string())})
    other = pa.table({"citing_pub_id": ids.take(pa.array(npl_pub)), "seq": pa.array(npl_seq),
                      "cited_pub_id": pa.nulls(n_npl, pa.string()),
                      "cited_npl": pa.array([t for _, texts in npl for t in texts], pa.string()),
                      "category": pa.nulls(n_npl, pa.string()), "cited_by": pa.array(["applicant"] * n_npl, pa.string())})
    table = pa.concat_tables([patent, other]).sort_by([("citing_pub_id", "ascending"), ("seq", "ascending")])
    pq.write_table(table, path, compression="zstd")
    return path


def _revision_rows(world: World) -> Iterator[list[dict]]:
    """One row per EP application with an A1/A2 and a B1 publication."""
    pubs = world.pubs
    rows: list[dict] = []
    for i in range(world.n):
        kinds = {str(pubs["kind"][p]): p for p in world.members(i) if pubs["cc"][p] == "EP"}
        before_kind = "A1" if "A1" in kinds else "A2" if "A2" in kinds else None
        if before_kind is None or "B1" not in kinds:
            continue
        before, after, ops = claim_revision(world, i)
        rows.append({"ep_number": f"EP-{pubs['number'][kinds['B1']]}", "kind_before": before_kind,
                     "claims_before": [x.text for x in before], "kind_after": "B1",
                     "claims_after": [x.text for x in after], "ops": ops, "invention_id": i,
                     "pub_date_after": int(pubs["date"][kinds["B1"]])})
        if len(rows) >= BATCH:
            yield rows
            rows = []
    yield rows


def _write_entities(world: World, out: Path) -> list[Path]:
    """papers, paper_pairs, ptab_labels and claim_revisions."""
    strs = pa.list_(pa.string())
    author = pa.struct([("id", pa.string()), ("name", pa.string()), ("alt_names", strs)])
    papers = pa.schema([("work_id", pa.string()), ("doi", pa.string()), ("title", pa.string()),
                        ("abstract", pa.string()), ("pub_date", pa.date32()), ("authors", pa.list_(author)),
                        ("license", pa.string()), ("person_ids", pa.list_(pa.int64()))])
    pairs = pa.schema([("pub_id", pa.string()), ("work_id", pa.string()), ("relation", pa.string()),
                       ("is_true", pa.bool_()), ("day_delta", pa.int32()), ("author_overlap", pa.float64())])
    ptab = pa.schema([("decision_id", pa.string()), ("appeal_number", pa.string()), ("app_id", pa.string()),
                      ("pub_id", pa.string()), ("decision_date", pa.date32()), ("outcome", pa.string()),
                      ("outcome_raw", pa.string()), ("outcome_coarse", pa.string()), ("issue_types", strs),
                      ("statutes", strs), ("board_authorities", strs), ("appellant", pa.string()), ("judges", strs),
                      ("claims_on_appeal", pa.list_(pa.int32())), ("standard_cover", pa.bool_()),
                      ("separate_opinion", pa.bool_())])
    rev = pa.schema([("ep_number", pa.string()), ("kind_before", pa.string()), ("claims_before", strs),
                     ("kind_after", pa.string()), ("claims_after", strs), ("ops", strs), ("invention_id", pa.int64()),
                     ("pub_date_after", pa.date32())])
    return [_write(out / "papers.parquet", papers, _table(sorted(world.papers, key=lambda r: r["work_id"]))),
            _write(out / "paper_pairs.parquet", pairs,
                   _table(sorted(world.paper_pairs, key=lambda r: (r["pub_id"], r["work_id"])))),
            _write(out / "ptab_labels.parquet", ptab, _table(sorted(world.ptab, key=lambda r: r["decision_id"]))),
            _write(out / "claim_revisions.parquet", rev, _revision_rows(world))]
