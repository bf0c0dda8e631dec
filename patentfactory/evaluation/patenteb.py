"""Score a published PatenTEB version with simple baselines, following the paper's protocol (SPEC).

- retrieval (symmetric and asymmetric): NDCG@10 on the test split. The corpus is every distinct target
  text of the split (`pos_text` and `neg_text` for symmetric tasks, the target field otherwise); each
  distinct query ranks the whole corpus, minus a document identical to the query text itself (it would
  trivially rank first). Relevant = the query's positives. Two models: the sentence encoder (cosine) and
  BM25 (bm25s, Okapi, the tokenizer the negatives miner uses).
- classification: logistic-regression probe (L2 via l1_ratio=0, C=1.0, lbfgs, max_iter 10000,
  random_state 0) on embeddings of a seeded 20 % sample of train, macro-F1 on test. For the NLI pair task
  the features are concat(u, v, u − v) of the query/target embeddings: the signed difference keeps the
  direction of citation that the label encodes (|u − v| would erase it).
- paraphrase: Pearson r of cosine(text1, text2) against the 0/1 label.
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
from transforms.tasks.patenteb import task_specs

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


def build_qrels(df: pl.DataFrame, query: str, positive: str, targets: Sequence[str]
                ) -> tuple[list[str], list[str], list[set[int]]]:
    """(queries, corpus, relevant corpus indices per query), all sorted for determinism."""
    corpus = sorted({t for f in targets for t in df[f].drop_nulls().to_list()})
    index = {t: i for i, t in enumerate(corpus)}
    pairs = df.select(query, positive).drop_nulls().unique().sort(query, positive)
    grouped = pairs.group_by(query, maintain_order=True).agg(pl.col(positive))
    queries = grouped[query].to_list()
    relevant = [{index[p] for p in pos if p != q} for q, pos in zip(queries, grouped[positive].to_list())]
    keep = [i for i, rel in enumerate(relevant) if rel]
    return [queries[i] for i in keep], corpus, [relevant[i] for i in keep]


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
                   batch_size: int = 256) -> list[list[int]]:
    """Top-k corpus indices per query by cosine similarity; the query's own text is excluded."""
    c_emb, q_emb = encoder(corpus), encoder(queries)
    self_idx = {t: i for i, t in enumerate(corpus)}
    out: list[list[int]] = []
    for start in range(0, len(queries), batch_size):
        sims = (q_emb[start:start + batch_size] @ c_emb.T).astype(np.float64)
        for row, q in zip(sims, queries[start:start + batch_size]):
            if q in self_idx:
                row[self_idx[q]] = -np.inf
            out.append(_top_k(row, k))
    return out


def bm25_rankings(queries: list[str], corpus: list[str], k: int) -> list[list[int]]:
    """Top-k corpus indices per query by BM25 (zero-score documents are not ranked)."""
    index = bm25s_index(tokenize_for_bm25(corpus))
    hits = bm25s_search(index, tokenize_for_bm25(queries), min(k + 1, len(corpus)))
    self_idx = {t: i for i, t in enumerate(corpus)}
    return [[int(d) for d in docs if d != self_idx.get(q)][:k] for (docs, _s), q in zip(hits, queries)]


def score_retrieval(pv: PublishedVersion, spec: TaskSpec, encoder: Encoder, cfg: PatenTEBEvalConfig) -> list[Score]:
    """NDCG@k of the encoder and of BM25 over the test corpus (see the module docstring)."""
    df = _split(pv, spec.name, "test")
    query, positive = spec.fields[0], spec.fields[1]
    targets = [f for f in spec.fields[1:] if f in df.columns]
    queries, corpus, relevant = build_qrels(df, query, positive, targets)
    if not queries:
        raise SkipTask("no query with a positive other than itself")
    if cfg.max_queries and len(queries) > cfg.max_queries:
        rows = _seeded_rows(len(queries), cfg.max_queries, cfg.seed)
        queries, relevant = [queries[i] for i in rows], [relevant[i] for i in rows]
    log.info("%s: %d queries over %d documents", spec.name, len(queries), len(corpus))
    dense = mean_ndcg_at_k(dense_rankings(encoder, queries, corpus, cfg.k), relevant, cfg.k)
    sparse = mean_ndcg_at_k(bm25_rankings(queries, corpus, cfg.k), relevant, cfg.k)
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
        if name not in specs:
            result.skipped.append(Skipped(name, "not a PatenTEB task known to this code version"))
    return result
