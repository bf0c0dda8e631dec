"""PatenTEB: the 15 task declarations, their registry and `build_patenteb` (canonical tables -> tasks).

Field names follow the paper (`q_text, pos_text, neg_text`, `title, full_text`, `text, label`, ...); every row
also carries the ids it was built from (`ID_COLUMNS`). After every task is built: exact duplicate texts
(normalised-text hash) that occur in more than one split are removed from the less protected split
(test > val > train), train is capped with a stratified sample and rows are sorted; all of it is counted
in `stats` (the family-leak check is publish's gate). Clustering tasks take no part in the deduplication:
their pools hold families of every split, as the paper's do (the overlap is counted, not removed).
Retrieval tasks are also returned in the corpus / queries / qrels layout (`patenteb_beir`).
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import polars as pl

from transforms.ipc import IN, MIXED, OUT
from transforms.negatives import Encoder
from transforms.segments import has_empty_marker
from transforms.selection import TokenCounter
from transforms.splits import SPLITS, normalised_text_hash, stable_hash
from transforms.tasks import Task, TaskRegistry, TaskSpec
from transforms.tasks import patenteb_builders as b
from transforms.tasks.patenteb_beir import ID_CONVENTIONS, beir_tables
from transforms.tasks.patenteb_context import PatenTEBContext, PatenTEBParams, prepare_context

log = logging.getLogger(__name__)

FAMILY_SPLIT = "ipc3_family_80_10_10"
VERSION = "1.0.0"
Tables = dict[str, dict[str, pl.DataFrame]]


def _spec(name: str, fields: tuple[str, ...], kind: str, metric: str, split: str = FAMILY_SPLIT,
          description: str = "") -> TaskSpec:
    return TaskSpec(name=name, fields=fields, kind=kind, split=split, metric=metric, version=VERSION,
                    description=description)


_RETRIEVAL = ("q_text", "pos_text", "neg_text")


class RetrievalIN(Task):
    spec = _spec("retrieval_IN", _RETRIEVAL, "retrieval", "ndcg@10", description="citation pairs, identical IPC3 sets")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_retrieval(ctx, IN, self.spec.splits)


class RetrievalMIXED(Task):
    spec = _spec("retrieval_MIXED", _RETRIEVAL, "retrieval", "ndcg@10", description="citation pairs, overlapping sets")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_retrieval(ctx, MIXED, self.spec.splits)


class RetrievalOUT(Task):
    spec = _spec("retrieval_OUT", _RETRIEVAL, "retrieval", "ndcg@10", description="citation pairs, disjoint sets")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_retrieval(ctx, OUT, self.spec.splits)


class Title2Full(Task):
    spec = _spec("title2full", ("title", "full_text"), "asymmetric_retrieval", "ndcg@10")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_asymmetric(ctx, "title", "text_no_title", self.spec.fields, self.spec.splits)


class Problem2Full(Task):
    spec = _spec("problem2full", ("problem", "full_text"), "asymmetric_retrieval", "ndcg@10")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_asymmetric(ctx, "problem", "text_no_problem", self.spec.fields, self.spec.splits)


class Problem2Solution(Task):
    spec = _spec("problem2solution", ("problem", "solution"), "asymmetric_retrieval", "ndcg@10")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_asymmetric(ctx, "problem", "solution", self.spec.fields, self.spec.splits)


class Effect2Full(Task):
    spec = _spec("effect2full", ("effect", "full_text"), "asymmetric_retrieval", "ndcg@10")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_asymmetric(ctx, "effect", "text_no_effect", self.spec.fields, self.spec.splits)


class Effect2Substance(Task):
    spec = _spec("effect2substance", ("effect", "substance"), "asymmetric_retrieval", "ndcg@10")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_asymmetric(ctx, "effect", "substance", self.spec.fields, self.spec.splits)


class ClassText2IPC3(Task):
    spec = _spec("class_text2ipc3", ("text", "label"), "classification", "macro_f1")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_text2ipc3(ctx, self.spec.splits)


class ClassBloom(Task):
    spec = _spec("class_bloom", ("text", "label"), "classification", "macro_f1",
                 description="early / late / normal citation bloomers within IPC3")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_bloom(ctx, self.spec.splits)


class ClassNLIOldNew(Task):
    spec = _spec("class_nli_oldnew", ("q_text", "t_text", "label"), "pair_classification", "macro_f1",
                 description="label 1: query cites target; 0: target cites query")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_nli(ctx, self.spec.splits)


class ParaProblem(Task):
    spec = _spec("para_problem", ("text1", "text2", "label"), "paraphrase", "pearson_r")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_paraphrase(ctx, "problem", self.spec.splits)


class ParaSolution(Task):
    spec = _spec("para_solution", ("text1", "text2", "label"), "paraphrase", "pearson_r")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_paraphrase(ctx, "solution", self.spec.splits)


class ClustersExtFullIPC(Task):
    spec = _spec("clusters_ext_full_ipc", ("text", "label"), "clustering", "v_measure", split="test_only")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_clusters_ipc(ctx, self.spec.splits)


class ClustersInventor(Task):
    spec = _spec("clusters_inventor", ("text", "label"), "clustering", "v_measure", split="test_only")

    def build(self, ctx: PatenTEBContext) -> b.Splits:
        return b.build_clusters_inventor(ctx, self.spec.splits)


PATENTEB_TASKS = TaskRegistry("patenteb", [
    RetrievalIN, RetrievalMIXED, RetrievalOUT, Title2Full, Problem2Full, Problem2Solution, Effect2Full,
    Effect2Substance, ClassText2IPC3, ClassBloom, ClassNLIOldNew, ParaProblem, ParaSolution,
    ClustersExtFullIPC, ClustersInventor,
])

_PROTECTION = {"test": 0, "val": 1, "train": 2}
RETRIEVAL_KINDS = ("retrieval", "asymmetric_retrieval")
ID_COLUMNS: dict[str, tuple[str, ...]] = {  # family ids (and representative pub_ids) each row was built from
    "retrieval": ("query_id", "pos_id", "neg_id", "q_pub_id", "pos_pub_id", "neg_pub_id"),
    "asymmetric_retrieval": ("query_id", "doc_id", "pub_id"),
    "classification": ("family_id", "pub_id"),
    "pair_classification": ("query_id", "target_id"),
    "paraphrase": ("id1", "id2"),
    "clustering": ("family_id", "pub_id"),
}


def published_columns(spec: TaskSpec) -> list[str]:
    """The paper's fields, then the ids: what a published task table holds, in order."""
    return [*spec.fields, *ID_COLUMNS[spec.kind]]


def _text_fields(spec: TaskSpec) -> list[str]:
    return [f for f in spec.fields if f != "label"]


def _select_in_chunks(df: pl.DataFrame, expr: pl.Expr, rows: int = 20_000) -> pl.Series:
    """`df.select(expr)` one slice at a time: a row-wise text hash copies its texts (lower-cased, joined,
    as Python strings) and over a whole retrieval table those copies alone were GBs at 100k families."""
    if df.height <= rows:
        return df.select(expr).to_series()
    return pl.concat([df.slice(start, rows).select(expr).to_series() for start in range(0, df.height, rows)])


def _duplicate_rows(raw: Tables, registry: TaskRegistry) -> pl.DataFrame:
    """(task, prio, _row) of rows carrying a normalised text that also occurs in a more protected split."""
    keys = []
    for task, splits in raw.items():
        for split, df in splits.items():
            for name in _text_fields(registry.get(task).spec):  # column by column: no long copy of the texts
                col = df.select(pl.int_range(pl.len()).alias("_row"), pl.col(name)).drop_nulls(name)
                keys.append(col.select(pl.lit(task).alias("task"), pl.lit(_PROTECTION[split]).alias("prio"), "_row")
                            .with_columns(_select_in_chunks(col, normalised_text_hash(pl.col(name)).alias("h"))))
    if not keys:
        return pl.DataFrame(schema={"task": pl.String, "prio": pl.Int32, "_row": pl.Int64})
    long = pl.concat(keys).with_columns(pl.col("prio").min().over("h").alias("owner"))
    return long.filter(pl.col("owner") < pl.col("prio")).select("task", "prio", "_row").unique()


def _drop_rows(df: pl.DataFrame, doomed: pl.DataFrame, task: str, split: str) -> pl.DataFrame:
    rows = doomed.filter((pl.col("task") == task) & (pl.col("prio") == _PROTECTION[split])).select("_row")
    if rows.height == 0:
        return df
    return df.with_row_index("_row").with_columns(pl.col("_row").cast(pl.Int64)).join(
        rows, on="_row", how="anti").drop("_row")


def remove_cross_split_duplicates(raw: Tables, registry: TaskRegistry) -> tuple[Tables, dict[str, int]]:
    """Drop rows carrying a normalised text that also occurs in a more protected split (any task)."""
    doomed = _duplicate_rows(raw, registry)
    out: Tables = {}
    removed: dict[str, int] = {}
    for task, splits in raw.items():
        out[task] = {split: _drop_rows(df, doomed, task, split) for split, df in splits.items()}
        removed[task] = sum(df.height - out[task][split].height for split, df in splits.items())
    return out, removed


def cap_train_rows(df: pl.DataFrame, fields: list[str], max_rows: int, min_per_stratum: int, seed: int) -> pl.DataFrame:
    """Stratified subsample to about `max_rows`: proportional quota per stratum, never below the minimum."""
    if df.height <= max_rows:
        return df
    total = df.height
    size = pl.len().cast(pl.Int64)  # UInt32 len * max_rows overflows past ~28k rows per stratum
    quota = pl.max_horizontal(pl.min_horizontal(size, pl.lit(min_per_stratum)),
                              (size * max_rows / total).floor()).over("_stratum")
    key = stable_hash(pl.concat_str([pl.col(f).cast(pl.String) for f in fields], separator="\x1f",
                                    ignore_nulls=True), seed)
    return (df.with_columns(_select_in_chunks(df, key.alias("_h"))).sort("_stratum", "_h")
            .filter(pl.int_range(pl.len()).over("_stratum") < quota).drop("_h"))


def _finalise(raw: Tables, registry: TaskRegistry, params: PatenTEBParams,
              stats: dict[str, Any]) -> Tables:
    """Deduplicate across splits, cap train, keep the published fields sorted; consumes `raw` table by table.

    Only one raw table (and its deduplicated and capped versions) is alive at a time.
    """
    doomed = _duplicate_rows({t: sp for t, sp in raw.items() if registry.get(t).spec.kind != "clustering"}, registry)
    removed: dict[str, int] = {}
    tasks: Tables = {}
    published_sources = {"bm25": 0, "dense": 0}
    for task in list(raw):
        fields = list(registry.get(task).spec.fields)
        columns = published_columns(registry.get(task).spec)
        splits = raw.pop(task)
        tasks[task] = {}
        removed[task] = 0
        for split in list(splits):
            df = splits.pop(split)
            before = df.height
            df = _drop_rows(df, doomed, task, split)
            removed[task] += before - df.height
            if split == "train":
                before = df.height
                df = cap_train_rows(df, fields, params.max_train_rows, params.min_rows_per_stratum, params.seed)
                stats.setdefault("subsampled_rows", {})[task] = before - df.height
            if "_source" in df.columns:
                for src, n in df.drop_nulls("_source").group_by("_source").len().iter_rows():
                    published_sources[src] = published_sources.get(src, 0) + int(n)
            tasks[task][split] = df.select(columns).sort(columns, nulls_last=True)
            del df
    stats["removed_duplicates"] = removed
    stats["removed_duplicates_total"] = sum(removed.values())
    stats["negatives_published"] = published_sources
    stats["rows"] = {t: {s: df.height for s, df in sp.items()} for t, sp in tasks.items()}
    stats["empty_splits"] = sorted(f"{t}/{s}" for t, sp in tasks.items() for s, df in sp.items() if df.height == 0)
    stats["null_negatives"] = {t: sum(df["neg_text"].null_count() for df in sp.values())
                               for t, sp in tasks.items() if registry.get(t).spec.kind == "retrieval"}
    stats["rows_with_empty_marker"] = {t: sum(int(df.select(pl.any_horizontal(
        [has_empty_marker(pl.col(f)).fill_null(False) for f in _text_fields(registry.get(t).spec)]).sum()).item())
        for df in sp.values()) for t, sp in tasks.items()}
    _cluster_overlap(tasks, registry, stats)
    return tasks


def _cluster_overlap(tasks: Tables, registry: TaskRegistry, stats: dict[str, Any]) -> None:
    """Per clustering task: its families that are also in a retrieval task's test rows (any id column)."""
    test_ids: set[str] = set()
    for task, splits in tasks.items():
        spec = registry.get(task).spec
        if spec.kind in RETRIEVAL_KINDS and "test" in splits:
            ids = [c for c in ID_COLUMNS[spec.kind] if not c.endswith("pub_id")]
            test_ids.update(splits["test"].select(pl.concat_list(ids).explode().unique()).to_series().to_list())
    for task, splits in tasks.items():
        if registry.get(task).spec.kind == "clustering":
            fams = set(pl.concat([df.select("family_id") for df in splits.values()])["family_id"].to_list())
            stats.setdefault("clusters", {}).setdefault(task, {})["in_retrieval_test_rows"] = len(fams & test_ids)


def leak_checked(tasks: Mapping[str, Any], registry: TaskRegistry | None = None) -> dict[str, Any]:
    """The tables the family-leak check covers: every task but clustering (pools span every split, as the
    paper's do; the overlap is counted) and the retrieval layouts (views of the checked rows, by id)."""
    specs = task_specs(registry or PATENTEB_TASKS)
    return {t: sp for t, sp in tasks.items() if t in specs and specs[t].kind != "clustering"}


def add_retrieval_layouts(tasks: Tables, docs: pl.DataFrame, registry: TaskRegistry | None = None) -> Tables:
    """`tasks` plus the corpus / queries / qrels tables of every retrieval task (see `patenteb_beir`)."""
    registry = registry or PATENTEB_TASKS
    out = dict(tasks)
    for task, splits in tasks.items():
        spec = registry.get(task).spec
        if spec.kind in RETRIEVAL_KINDS:
            out.update(beir_tables(task, spec.fields, spec.kind, splits, docs))
    return out


def build_patenteb(
    publications: pl.LazyFrame, claims: pl.LazyFrame, citations: pl.LazyFrame, families: pl.LazyFrame,
    params: PatenTEBParams | None = None, *, encode: Encoder | None = None,
    count_tokens: TokenCounter | None = None, registry: TaskRegistry = PATENTEB_TASKS, layouts: bool = True,
) -> tuple[Tables, dict[str, Any]]:
    """Canonical tables -> {task: {split: frame}} with the paper's field names and ids, plus build stats.

    With `layouts`, the retrieval tasks' `<task>.corpus` / `.queries` / `.qrels` tables are included.

    `encode` (texts -> embeddings) enables dense negatives; `count_tokens` (texts -> token counts)
    measures the text cap with the model's tokenizer (whitespace words when omitted).
    """
    params = params or PatenTEBParams()
    ctx = prepare_context(publications, claims, citations, families, params, encode, count_tokens)
    raw: Tables = {}
    for task_cls in registry:
        task = task_cls()
        raw[task.spec.name] = task.build(ctx)
    stats = ctx.stats
    docs = ctx.families.select("family_id", "title", "text_no_title")
    del ctx  # its frames are no longer needed while the tables are finalised
    tasks = _finalise(raw, registry, params, stats)
    if layouts:
        tasks = add_retrieval_layouts(tasks, docs, registry)
    stats["params"] = params.as_dict()  # the family-leak check runs once, as publish's gate (manifest `leakage`)
    log.info("patenteb built: %d tasks, %d duplicate rows removed", len(tasks), stats["removed_duplicates_total"])
    return tasks, stats


def id_conventions(task_names: list[str], registry: TaskRegistry = PATENTEB_TASKS) -> dict[str, dict]:
    """Retrieval task -> its query / corpus id rule (`patenteb_beir.ID_CONVENTIONS`), for the manifest and card."""
    specs = task_specs(registry)
    return {t: dict(ID_CONVENTIONS[specs[t].kind]) for t in task_names
            if t in specs and specs[t].kind in RETRIEVAL_KINDS}


def task_specs(registry: TaskRegistry = PATENTEB_TASKS) -> Mapping[str, TaskSpec]:
    """name -> spec, for cards, manifests and publish-time schema checks."""
    return {t.spec.name: t.spec for t in registry}


__all__ = ["ID_COLUMNS", "PATENTEB_TASKS", "PatenTEBParams", "SPLITS", "add_retrieval_layouts", "build_patenteb",
           "cap_train_rows", "id_conventions", "leak_checked", "published_columns", "remove_cross_split_duplicates", "task_specs"]
