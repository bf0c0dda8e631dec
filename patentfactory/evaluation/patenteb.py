"""Score a published PatenTEB version with simple baselines, following the paper's protocol (SPEC).

- retrieval (symmetric and asymmetric): NDCG@10 on the test split, from the published corpus / queries /
  qrels (`<task>.corpus|queries|qrels`) by id; a version without them builds the same from the rows' id
  columns. Every query ranks the whole test corpus (positives and hard negatives of every query); a
  document whose id equals the query id is left out of its ranking where the task's id convention says so
  (`patenteb_beir.ID_CONVENTIONS`: symmetric tasks, whose query is that family; asymmetric query ids never
  equal a corpus id), so BEIR and mteb with that setting give the same score. Relevant = the query's qrels. Texts are never matched by equality: two families with the same abstract
  stay two documents. Two models: the sentence encoder (cosine) and BM25 (bm25s, Okapi, the tokenizer the
  negatives miner uses).
- classification: logistic-regression probe (L2 via l1_ratio=0, C=1.0, lbfgs, max_iter 10000,
  random_state 0) on embeddings of a seeded 20 % sample of train, macro-F1 on test. For the NLI pair task
  the features are concat(u, v, u − v) of the query/target embeddings: the signed difference keeps the
  direction of citation that the label encodes (|u − v| would erase it).
- paraphrase: Pearson r of cosine(text1, text2) against the 0/1 label (the paper's metric; mteb's STS `cosine_pearson`).
- clustering: V-measure of MiniBatchKMeans(batch_size=16384, random_state=42) with k = #true clusters.
A task or split absent from the manifest (small worlds lack some) is skipped with its reason.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from transforms.negatives import bm25s_index, bm25s_search, tokenize_for_bm25
from transforms.tasks import TaskSpec
from transforms.tasks.patenteb import ID_COLUMNS, task_specs
from transforms.tasks.patenteb_beir import (CORPUS, QRELS, QUERIES, fragment_query_id, ignore_identical_ids,
                                           layout_name, parse_layout_name)

from .encoders import Encoder
from .metrics import macro_f1, mean_ndcg_at_k, pearson_r, v_measure
from .published import PublishedVersion
from .results import EvalResult, Score, Skipped, SkipTask

log = logging.getLogger(__name__)
BM25 = "bm25"


@dataclass(frozen=True)
class PatenTEBEvalConfig:
    k: int = 10
    max_queries: int | None = None  # per retrieval task; a seeded sample of the distinct queries
    train_fraction: float = 0.2
    seed: int = 0
    kmeans_batch_size: int = 16384
    kmeans_seed: int = 42


def _split(pv: PublishedVersion, task: str, split: str) -> pl.DataFrame:
    df = pv.read(task, split)
    if df is None or df.height == 0:
        raise SkipTask(f"no {split} split published")
    return df


def _seeded_rows(n: int, size: int, seed: int) -> np.ndarray:
    """Sorted row indices of a seeded sample without replacement (numpy's PCG64: stable across platforms)."""
    return np.sort(np.random.default_rng(seed).choice(n, size=min(size, n), replace=False))


@dataclass(frozen=True)
class Qrels:
    """Queries and corpus by id, and the relevant corpus indices of each query (all sorted by id)."""

    query_ids: list[str]
    queries: list[str]
    doc_ids: list[str]
    corpus: list[str]
    relevant: list[set[int]]
    exclude: list[int | None]  # per query: the corpus index of the document with its id (if left out), else None


def _join_title(corpus: pl.DataFrame) -> pl.Series:
    """A document's text as mteb and BEIR give it to a model: `(title + " " + text).strip()`, or the stripped
    text when the title is empty (same texts, same vectors, same scores)."""
    title = pl.col("title").fill_null("")
    return corpus.select(pl.when(title.str.len_chars() > 0).then(pl.concat_str([title, pl.col("text")],
                         separator=" ")).otherwise(pl.col("text")).str.strip_chars().alias("t")).to_series()


def build_qrels(corpus: pl.DataFrame, queries: pl.DataFrame, qrels: pl.DataFrame,
                ignore_identical: bool) -> Qrels:
    """Corpus (`_id, title, text`), queries (`_id, text`), qrels (`query-id, corpus-id`) -> `Qrels`.

    With `ignore_identical` (BEIR's `ignore_identical_ids`) the document with the query's id is left out
    of its ranking and of its positives; a query is dropped when no positive is left.
    """
    corpus = corpus.unique("_id").sort("_id")
    doc_ids = corpus["_id"].to_list()
    index = {d: i for i, d in enumerate(doc_ids)}
    grouped = (qrels.filter(pl.col("corpus-id").is_in(doc_ids)).group_by("query-id").agg(pl.col("corpus-id"))
               .join(queries.unique("_id").rename({"_id": "query-id"}), on="query-id").sort("query-id"))
    out = Qrels([], [], doc_ids, _join_title(corpus).to_list(), [], [])
    for qid, docs, text in grouped.select("query-id", "corpus-id", "text").iter_rows():
        own = index.get(qid) if ignore_identical else None
        rel = {index[d] for d in docs if not (ignore_identical and d == qid)}
        if rel:
            out.query_ids.append(qid)
            out.queries.append(text)
            out.relevant.append(rel)
            out.exclude.append(own)
    return out


def layout_from_rows(df: pl.DataFrame, spec: TaskSpec) -> dict[str, pl.DataFrame]:
    """Corpus / queries / qrels from a retrieval table's id columns (versions published without the layout)."""
    if not set(ID_COLUMNS[spec.kind]) <= set(df.columns):
        raise SkipTask("no ids published: qrels cannot be built without matching texts")
    q, target = spec.fields[0], spec.fields[1]
    if spec.kind == "retrieval":
        docs = pl.concat([df.select(pl.col("pos_id").alias("_id"), pl.col("pos_text").alias("text")),
                          df.select(pl.col("neg_id").alias("_id"), pl.col("neg_text").alias("text"))])
        pairs = df.select(pl.col("query_id").alias("query-id"), pl.col("pos_id").alias("corpus-id"))
        qid = pl.col("query_id")
    else:  # the same ids as the published layout: a fragment's query id is not its document's
        qid = fragment_query_id(pl.col("query_id"), q)
        docs = df.select(pl.col("doc_id").alias("_id"), pl.col(target).alias("text"))
        pairs = df.select(qid.alias("query-id"), pl.col("doc_id").alias("corpus-id"))
    return {CORPUS: docs.drop_nulls().with_columns(pl.lit("").alias("title")),
            QUERIES: df.select(qid.alias("_id"), pl.col(q).alias("text")), QRELS: pairs.unique()}


def read_layout(pv: PublishedVersion, spec: TaskSpec, split: str = "test") -> dict[str, pl.DataFrame]:
    """The task's published corpus / queries / qrels of `split`, else the same built from its id columns."""
    parts = {p: pv.read(layout_name(spec.name, p), split) for p in (CORPUS, QUERIES, QRELS)}
    if all(df is not None and df.height for df in parts.values()):
        return parts  # type: ignore[return-value]
    return layout_from_rows(_split(pv, spec.name, split), spec)


def _top_k(scores: np.ndarray, k: int) -> list[int]:
    """Indices of the k best scores, ties broken by index; -inf entries never returned.

    Partitions first (O(n)) and sorts only the candidates scoring at least the k-th best value, so
    ties at the cut are resolved by index exactly as a full sort would.
    """
    cand = np.flatnonzero(np.isfinite(scores))
    if cand.size > k:
        kth = np.partition(scores[cand], cand.size - k)[cand.size - k]
        cand = cand[scores[cand] >= kth]
    order = np.lexsort((cand, -scores[cand]))[:k]
    return cand[order].tolist()


def dense_rankings(encoder: Encoder, queries: list[str], corpus: list[str], k: int,
                   exclude: Sequence[int | None] | None = None, batch_size: int = 256) -> list[list[int]]:
    """Top-k corpus indices per query by cosine similarity; `exclude[i]` (a corpus index) is never ranked."""
    c_emb, q_emb = encoder(corpus), encoder(queries)
    exclude = exclude or [None] * len(queries)
    out: list[list[int]] = []
    for start in range(0, len(queries), batch_size):
        sims = (q_emb[start:start + batch_size] @ c_emb.T).astype(np.float64)
        for row, own in zip(sims, exclude[start:start + batch_size]):
            if own is not None:
                row[own] = -np.inf
            out.append(_top_k(row, k))
    return out


def bm25_rankings(queries: list[str], corpus: list[str], k: int,
                  exclude: Sequence[int | None] | None = None) -> list[list[int]]:
    """Top-k corpus indices per query by BM25 (zero-score documents are not ranked), `exclude[i]` left out."""
    index = bm25s_index(tokenize_for_bm25(corpus))
    hits = bm25s_search(index, tokenize_for_bm25(queries), min(k + 1, len(corpus)))
    exclude = exclude or [None] * len(queries)
    return [[int(d) for d in docs if d != own][:k] for (docs, _s), own in zip(hits, exclude)]


def score_retrieval(pv: PublishedVersion, spec: TaskSpec, encoder: Encoder, cfg: PatenTEBEvalConfig) -> list[Score]:
    """NDCG@k of the encoder and of BM25 over the test corpus (see the module docstring)."""
    parts = read_layout(pv, spec, "test")
    qr = build_qrels(parts[CORPUS], parts[QUERIES], parts[QRELS], ignore_identical=ignore_identical_ids(spec.kind))
    queries, relevant, exclude = qr.queries, qr.relevant, qr.exclude
    if not queries:
        raise SkipTask("no query with a positive other than itself")
    if cfg.max_queries and len(queries) > cfg.max_queries:
        rows = _seeded_rows(len(queries), cfg.max_queries, cfg.seed)
        queries, relevant, exclude = ([x[i] for i in rows] for x in (queries, relevant, exclude))
    corpus = qr.corpus
    log.info("%s: %d queries over %d documents", spec.name, len(queries), len(corpus))
    dense = mean_ndcg_at_k(dense_rankings(encoder, queries, corpus, cfg.k, exclude), relevant, cfg.k)
    sparse = mean_ndcg_at_k(bm25_rankings(queries, corpus, cfg.k, exclude), relevant, cfg.k)
    metric = f"ndcg@{cfg.k}"
    return [Score(spec.name, encoder.name, metric, dense), Score(spec.name, BM25, metric, sparse)]


def _features(df: pl.DataFrame, spec: TaskSpec, encoder: Encoder) -> np.ndarray:
    if spec.kind == "pair_classification":
        u, v = encoder(df[spec.fields[0]].to_list()), encoder(df[spec.fields[1]].to_list())
        return np.hstack([u, v, u - v])
    return encoder(df[spec.fields[0]].to_list())


def score_classification(pv: PublishedVersion, spec: TaskSpec, encoder: Encoder,
                         cfg: PatenTEBEvalConfig) -> list[Score]:
    """Macro-F1 of the paper's logistic-regression probe, fitted on a seeded 20 % of train."""
    from sklearn.linear_model import LogisticRegression

    train, test = _split(pv, spec.name, "train"), _split(pv, spec.name, "test")
    cols = [*spec.fields]
    train, test = train.drop_nulls(cols), test.drop_nulls(cols)
    if test.height == 0:
        raise SkipTask("every test row has a null field")
    size = max(2, round(train.height * cfg.train_fraction))
    train = train[_seeded_rows(train.height, size, cfg.seed).tolist()]
    if train["label"].n_unique() < 2:
        raise SkipTask(f"the {cfg.train_fraction:.0%} train sample has a single label")
    clf = LogisticRegression(C=1.0, l1_ratio=0.0, solver="lbfgs", max_iter=10000, random_state=0)
    clf.fit(_features(train, spec, encoder), train["label"].to_numpy())
    predicted = clf.predict(_features(test, spec, encoder)).tolist()
    return [Score(spec.name, encoder.name, spec.metric, macro_f1(test["label"].to_list(), predicted))]


def score_paraphrase(pv: PublishedVersion, spec: TaskSpec, encoder: Encoder, cfg: PatenTEBEvalConfig) -> list[Score]:
    """Pearson r between the pair's cosine similarity and its 0/1 label."""
    test = _split(pv, spec.name, "test").drop_nulls(["text1", "text2", "label"])
    cosine = np.sum(encoder(test["text1"].to_list()) * encoder(test["text2"].to_list()), axis=1)
    try:
        r = pearson_r(cosine.tolist(), test["label"].cast(pl.Float64).to_list())
    except ValueError as exc:
        raise SkipTask(f"Pearson r undefined: {exc}") from None
    return [Score(spec.name, encoder.name, spec.metric, r)]


def score_clustering(pv: PublishedVersion, spec: TaskSpec, encoder: Encoder, cfg: PatenTEBEvalConfig) -> list[Score]:
    """V-measure of MiniBatchKMeans with as many clusters as true labels."""
    from sklearn.cluster import MiniBatchKMeans

    test = _split(pv, spec.name, "test").drop_nulls(["text", "label"])
    k = test["label"].n_unique()
    if k < 2 or k >= test.height:
        raise SkipTask(f"{k} true clusters for {test.height} texts: nothing to cluster")
    km = MiniBatchKMeans(n_clusters=k, batch_size=cfg.kmeans_batch_size, random_state=cfg.kmeans_seed)
    predicted = km.fit_predict(encoder(test["text"].to_list())).tolist()
    return [Score(spec.name, encoder.name, spec.metric, v_measure(test["label"].to_list(), predicted))]


Scorer = Callable[[PublishedVersion, TaskSpec, Encoder, PatenTEBEvalConfig], list[Score]]
SCORERS: dict[str, Scorer] = {
    "retrieval": score_retrieval, "asymmetric_retrieval": score_retrieval,
    "classification": score_classification, "pair_classification": score_classification,
    "paraphrase": score_paraphrase, "clustering": score_clustering,
}


def evaluate_patenteb(pv: PublishedVersion, encoder: Encoder, cfg: PatenTEBEvalConfig | None = None) -> EvalResult:
    """Every PatenTEB task of `pv`, in registry order; missing or unscorable tasks are listed as skipped."""
    cfg = cfg or PatenTEBEvalConfig()
    specs = task_specs()
    result = EvalResult(pv.dataset, pv.version, settings={
        "encoder": encoder.name, "bm25": "bm25s Okapi (k1 1.5, b 0.75)", "k": str(cfg.k),
        "max_queries": str(cfg.max_queries or "all"), "probe_train_fraction": str(cfg.train_fraction),
        "seed": str(cfg.seed)})
    for name, spec in specs.items():
        if not pv.splits(name):
            result.skipped.append(Skipped(name, "not published in this version"))
            continue
        try:
            result.scores.extend(SCORERS[spec.kind](pv, spec, encoder, cfg))
        except SkipTask as exc:
            result.skipped.append(Skipped(name, str(exc)))
        else:
            log.info("scored %s", name)
    for name in pv.tasks():
        if name not in specs and parse_layout_name(name) is None:  # layouts are scored with their task
            result.skipped.append(Skipped(name, "not a PatenTEB task known to this code version"))
    return result
