"""PatenTEB retrieval tasks in the corpus / queries / qrels layout that IR toolkits read (BEIR, mteb).

Published beside each retrieval task `<task>` as three tables with one file per split:
`<task>.corpus` (`_id, title, text`), `<task>.queries` (`_id, text`) and `<task>.qrels`
(`query-id, corpus-id, score`, BEIR's TSV header). Ids are family ids. A split's corpus holds the
families its rows point at (positives and hard negatives); families never cross splits, so the three
split corpora concatenate into one `corpus.parquet` without a duplicate `_id`. The tables are views of the
finalised task rows (after deduplication and the train cap): same pairs, same texts, by id.
"""
from __future__ import annotations

import polars as pl

CORPUS, QUERIES, QRELS = "corpus", "queries", "qrels"
LAYOUT = (CORPUS, QUERIES, QRELS)
QREL_COLUMNS = ("query-id", "corpus-id", "score")


def layout_name(task: str, part: str) -> str:
    """`retrieval_IN` + `corpus` -> `retrieval_IN.corpus` (a published table name)."""
    return f"{task}.{part}"


def parse_layout_name(name: str) -> tuple[str, str] | None:
    """`retrieval_IN.qrels` -> (`retrieval_IN`, `qrels`); None for a task table."""
    task, _, part = name.rpartition(".")
    return (task, part) if task and part in LAYOUT else None


def _symmetric(df: pl.DataFrame, docs: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Triplets -> corpus of positives and negatives (title + text without title), queries, qrels."""
    ids = pl.concat([df.select(pl.col("pos_id").alias("_id")), df.select(pl.col("neg_id").alias("_id"))]).unique()
    corpus = ids.join(docs.select(pl.col("family_id").alias("_id"), "title", pl.col("text_no_title").alias("text")),
                      on="_id")
    queries = df.select(pl.col("query_id").alias("_id"), pl.col("q_text").alias("text")).unique()
    qrels = df.select(pl.col("query_id").alias("query-id"), pl.col("pos_id").alias("corpus-id")).unique()
    return {CORPUS: corpus, QUERIES: queries, QRELS: qrels}


def _asymmetric(df: pl.DataFrame, query: str, target: str) -> dict[str, pl.DataFrame]:
    """(query fragment, target) rows -> corpus of targets (no title: title2full's title is the query)."""
    corpus = df.select(pl.col("doc_id").alias("_id"), pl.lit("").alias("title"), pl.col(target).alias("text")).unique()
    queries = df.select(pl.col("query_id").alias("_id"), pl.col(query).alias("text")).unique()
    qrels = df.select(pl.col("query_id").alias("query-id"), pl.col("doc_id").alias("corpus-id")).unique()
    return {CORPUS: corpus, QUERIES: queries, QRELS: qrels}


def beir_tables(task: str, fields: tuple[str, ...], kind: str, splits: dict[str, pl.DataFrame],
                docs: pl.DataFrame) -> dict[str, dict[str, pl.DataFrame]]:
    """{`<task>.corpus` | `.queries` | `.qrels`: {split: frame}} of one retrieval task's finalised rows.

    `docs` has (family_id, title, text_no_title) of every family (the symmetric corpus texts).
    """
    out: dict[str, dict[str, pl.DataFrame]] = {layout_name(task, p): {} for p in LAYOUT}
    for split, df in splits.items():
        if df.height == 0:
            continue
        parts = _symmetric(df, docs) if kind == "retrieval" else _asymmetric(df, fields[0], fields[1])
        parts[QRELS] = parts[QRELS].with_columns(pl.lit(1, dtype=pl.Int64).alias("score"))
        for part, frame in parts.items():
            out[layout_name(task, part)][split] = frame.sort(frame.columns)
    return out


__all__ = ["CORPUS", "LAYOUT", "QRELS", "QREL_COLUMNS", "QUERIES", "beir_tables", "layout_name",
           "parse_layout_name"]
