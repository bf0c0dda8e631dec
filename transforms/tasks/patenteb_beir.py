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
ID_CONVENTIONS: dict[str, dict[str, object]] = {
    "retrieval": {
        "query_id": "family id of the query (the same document as the corpus entry with that id)",
        "own_document_in_corpus": True, "ignore_identical_ids": True,
        "rule": "the query's own family is in the corpus (as another query's positive or negative) and is left "
                "out of its own ranking; evaluate with ignore_identical_ids=True (BEIR's default)"},
    "asymmetric_retrieval": {
        "query_id": "`<family id>:<query field>`, never equal to a corpus id",
        "own_document_in_corpus": True, "ignore_identical_ids": False,
        "rule": "the query is a fragment of the family whose rest is its relevant document; ids differ, so "
                "nothing is left out whichever ignore_identical_ids is set"},
}


def ignore_identical_ids(kind: str) -> bool:
    """Whether a hit whose id equals the query id is left out of that query's ranking (see `ID_CONVENTIONS`)."""
    return bool(ID_CONVENTIONS[kind]["ignore_identical_ids"])


def fragment_query_id(family_id: pl.Expr, field: str) -> pl.Expr:
    """`F1` + `title` -> `F1:title`: an asymmetric query's id, distinct from the document (`F1`) it is drawn from."""
    return pl.concat_str([family_id, pl.lit(f":{field}")])


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
    qid = fragment_query_id(pl.col("query_id"), query)
    queries = df.select(qid.alias("_id"), pl.col(query).alias("text")).unique()
    qrels = df.select(qid.alias("query-id"), pl.col("doc_id").alias("corpus-id")).unique()
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


__all__ = ["CORPUS", "ID_CONVENTIONS", "LAYOUT", "QRELS", "QREL_COLUMNS", "QUERIES", "beir_tables",
           "fragment_query_id", "ignore_identical_ids", "layout_name", "parse_layout_name"]
