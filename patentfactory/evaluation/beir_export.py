"""A published PatenTEB version's retrieval tasks as BEIR folders that `GenericDataLoader` reads unchanged.

`<out>/<task>/<split>/corpus.jsonl` (`_id, title, text`), `queries.jsonl` (`_id, text`) and
`qrels/<split>.tsv` (`query-id, corpus-id, score` with BEIR's header), one folder per split because each
split ranks its own corpus (the published layout, as our eval does): the test folder holds the test corpus
only, so BEIR scores what `pf eval` scores. BEIR split names: `val` -> `dev`. `<out>/<task>/beir.json`
records the version and the task's id convention (`ignore_identical_ids`, BEIR's default True is right for
symmetric tasks; asymmetric ids never collide, so either setting gives the same score).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import polars as pl

from patentfactory.errors import PFError
from patentfactory.store.storage import Storage
from transforms.tasks.patenteb import RETRIEVAL_KINDS, task_specs
from transforms.tasks.patenteb_beir import CORPUS, ID_CONVENTIONS, QRELS, QUERIES

from .patenteb import read_layout
from .published import PublishedVersion
from .results import SkipTask

log = logging.getLogger(__name__)
BEIR_SPLITS = {"train": "train", "val": "dev", "test": "test"}


@dataclass(frozen=True)
class ExportedTask:
    task: str
    splits: dict[str, tuple[int, int, int]]  # BEIR split -> (documents, queries, qrels)
    skipped: dict[str, str]  # published split -> why it was not written


def _jsonl(df: pl.DataFrame) -> bytes:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in df.iter_rows(named=True)).encode()


def _tsv(qrels: pl.DataFrame) -> bytes:
    rows = qrels.select(pl.col("query-id"), pl.col("corpus-id"), pl.col("score").cast(pl.Int64))
    return ("query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{s}\n" for q, d, s in rows.iter_rows())).encode()


def export_beir(pv: PublishedVersion, out: Storage, tasks: list[str] | None = None) -> list[ExportedTask]:
    """Write every (or the named) retrieval task of `pv` as BEIR folders under `out`; returns what was written."""
    specs = {n: s for n, s in task_specs().items() if s.kind in RETRIEVAL_KINDS and pv.splits(n)}
    if tasks:
        unknown = sorted(set(tasks) - set(specs))
        if unknown:
            raise PFError(f"not a retrieval task of {pv.dataset} {pv.version}: {', '.join(unknown)}",
                          f"retrieval tasks published there: {', '.join(specs) or 'none'}")
        specs = {n: specs[n] for n in tasks}
    done = []
    for name, spec in specs.items():
        written, skipped = {}, {}
        for split in sorted(pv.splits(name) & set(BEIR_SPLITS)):
            try:
                parts = read_layout(pv, spec, split)
            except SkipTask as exc:
                skipped[split] = str(exc)
                continue
            beir = BEIR_SPLITS[split]
            base = f"{name}/{beir}"
            corpus = parts[CORPUS].select("_id", pl.col("title").fill_null(""), "text").unique("_id").sort("_id")
            queries = parts[QUERIES].select("_id", "text").unique("_id").sort("_id")
            qrels = parts[QRELS].with_columns(pl.col("score") if "score" in parts[QRELS].columns
                                              else pl.lit(1).alias("score")).sort("query-id", "corpus-id")
            out.write_bytes(f"{base}/corpus.jsonl", _jsonl(corpus))
            out.write_bytes(f"{base}/queries.jsonl", _jsonl(queries))
            out.write_bytes(f"{base}/qrels/{beir}.tsv", _tsv(qrels))
            written[beir] = (corpus.height, queries.height, qrels.height)
        out.write_text(f"{name}/beir.json", json.dumps({
            "dataset": pv.dataset, "version": pv.version, "task": name, "splits": sorted(written),
            "skipped": skipped,
            "load": f"GenericDataLoader('<out>/{name}/test').load(split='test')",
            **ID_CONVENTIONS[spec.kind]}, indent=2) + "\n")
        log.info("exported %s: %s%s", name, written, f" (skipped {skipped})" if skipped else "")
        done.append(ExportedTask(name, written, skipped))
    return done


__all__ = ["BEIR_SPLITS", "ExportedTask", "export_beir"]
