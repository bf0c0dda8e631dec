"""Hard negatives for PatenTEB retrieval: BM25 (bm25s, Okapi/Robertson) and dense candidates, filtered.

A candidate is never the query's own family and never in its citation network (families it cites or
that cite it, `hops` steps out). Relation rules (SPEC): IN queries take negatives from MIXED
(FULL_MIX or PART_MIX), MIXED queries from PART_MIX, OUT queries from OUT. Candidates of both sources
are interleaved by their post-filter rank (bm25 first on ties) and capped per query.

bm25s is configured to the Robertson (Okapi) variant; rank-bm25's `BM25Okapi` with `epsilon=0` is the
reference (bm25s clamps negative IDF to 0, rank-bm25 with epsilon 0 sets it to 0; bm25s leaves out the
constant (k1 + 1) factor, which we multiply back so scores are comparable, not just rankings).
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
import polars as pl

from transforms.citations import citation_neighbourhood
from transforms.ipc import FULL_MIX, IN, MIXED, OUT, PART_MIX, domain_relation

log = logging.getLogger(__name__)

Encoder = Callable[[list[str]], np.ndarray]
ALLOWED_RELATIONS: dict[str, tuple[str, ...]] = {IN: (FULL_MIX, PART_MIX), MIXED: (PART_MIX,), OUT: (OUT,)}
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


def tokenize_for_bm25(texts: Sequence[str | None]) -> list[list[str]]:
    """Lower-cased word tokens (2+ chars), English stopwords removed; shared by both BM25 backends."""
    from bm25s.stopwords import STOPWORDS_EN

    stop = set(STOPWORDS_EN)
    return [[t for t in _TOKEN.findall((text or "").lower()) if t not in stop] for text in texts]


def _sort_top(indices: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Order one query's hits by (score desc, index asc) and keep k: deterministic tie handling."""
    order = np.lexsort((indices, -scores))[:k]
    return indices[order], scores[order]


def bm25_top_k(
    corpus_tokens: list[list[str]], query_tokens: list[list[str]], k: int,
    backend: Literal["bm25s", "rank_bm25"] = "bm25s", k1: float = 1.5, b: float = 0.75,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Top-k (doc indices, scores) per query, zero scores dropped. bm25s is the fast path."""
    k = min(k, len(corpus_tokens))
    if k == 0:
        return [(np.array([], dtype=np.int64), np.array([]))] * len(query_tokens)
    if backend == "rank_bm25":
        from rank_bm25 import BM25Okapi

        ref = BM25Okapi(corpus_tokens, k1=k1, b=b, epsilon=0.0)
        out = []
        for q in query_tokens:
            scores = ref.get_scores(q)
            idx = np.arange(len(scores))
            keep = scores > 0
            out.append(_sort_top(idx[keep], scores[keep], k))
        return out
    return bm25s_search(bm25s_index(corpus_tokens, k1, b), query_tokens, k, k1)


def bm25s_index(corpus_tokens: list[list[str]], k1: float = 1.5, b: float = 0.75) -> object:
    """A bm25s index in the Robertson (Okapi) variant, built once per corpus."""
    import bm25s

    model = bm25s.BM25(k1=k1, b=b, method="robertson", idf_method="robertson")
    model.index(corpus_tokens, show_progress=False)
    return model


def bm25s_search(model: object, query_tokens: list[list[str]], k: int,
                 k1: float = 1.5) -> list[tuple[np.ndarray, np.ndarray]]:
    """Top-k per query from a bm25s index; scores times (k1 + 1) to equal rank-bm25's, zeros dropped."""
    docs, scores = model.retrieve(query_tokens, k=k, show_progress=False, n_threads=1)  # type: ignore[attr-defined]
    out = []
    for row_docs, row_scores in zip(docs, scores):
        row_scores = row_scores.astype(np.float64) * (k1 + 1)
        keep = row_scores > 0
        out.append(_sort_top(row_docs[keep].astype(np.int64), row_scores[keep], k))
    return out


def dense_top_k(
    corpus_emb: np.ndarray, query_emb: np.ndarray, k: int, batch_size: int = 256
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Top-k by cosine similarity (embeddings are L2-normalised here), in query batches."""
    def unit(x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)

    corpus, queries = unit(corpus_emb), unit(query_emb)
    k = min(k, corpus.shape[0])
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for start in range(0, queries.shape[0], batch_size):
        sims = queries[start:start + batch_size] @ corpus.T
        for row in sims:
            part = np.argpartition(-row, k - 1)[:k] if k < row.shape[0] else np.arange(row.shape[0])
            out.append(_sort_top(part.astype(np.int64), row[part].astype(np.float64), k))
    return out


def sentence_transformer_encoder(model: object, batch_size: int = 64) -> Encoder:
    """Adapt a loaded SentenceTransformer to `Encoder` (the caller loads it, offline)."""
    def encode(texts: list[str]) -> np.ndarray:
        return model.encode(texts, batch_size=batch_size, normalize_embeddings=True,  # type: ignore[attr-defined]
                            convert_to_numpy=True, show_progress_bar=False)

    return encode


def citation_network(edges: pl.LazyFrame, hops: int = 1) -> pl.LazyFrame:
    """Symmetric (family_id, other_family) pairs within `hops` citation steps, either direction."""
    one = citation_neighbourhood(edges).rename({"neighbour_id": "other_family"})
    reach = one
    for _ in range(max(hops, 1) - 1):
        step = reach.join(one.rename({"family_id": "other_family", "other_family": "_next"}), on="other_family")
        reach = pl.concat([reach, step.select("family_id", pl.col("_next").alias("other_family"))]).unique()
    return reach.filter(pl.col("family_id") != pl.col("other_family")).sort("family_id", "other_family")


def _hits_frame(query_ids: list[str], corpus_ids: list[str],
                hits: list[tuple[np.ndarray, np.ndarray]], source: str) -> pl.DataFrame:
    """Long frame (q_family, neg_family, source_rank, source) from per-query index hits."""
    lengths = [len(h[0]) for h in hits]
    flat = np.concatenate([h[0] for h in hits]) if hits else np.array([], dtype=np.int64)
    return pl.DataFrame({
        "q_family": np.repeat(np.array(query_ids, dtype=object), lengths).tolist(),
        "neg_family": [corpus_ids[i] for i in flat.tolist()],
        "source_rank": np.concatenate([np.arange(n) for n in lengths]).tolist() if hits else [],
    }, schema={"q_family": pl.String, "neg_family": pl.String, "source_rank": pl.Int64}).with_columns(
        pl.lit(source).alias("source"))


class CandidateSearcher:
    """One split's corpus (family_id, text), indexed once for BM25 and/or embedded once, searched often."""

    def __init__(self, corpus: pl.DataFrame, sources: Sequence[str] = ("bm25", "dense"),
                 encode: Encoder | None = None) -> None:
        self.ids: list[str] = corpus.get_column("family_id").to_list()
        texts = corpus.get_column("text").fill_null("").to_list()
        self._position = {f: i for i, f in enumerate(self.ids)}
        self._tokens = tokenize_for_bm25(texts) if "bm25" in sources and texts else None
        self._bm25 = bm25s_index(self._tokens) if self._tokens else None
        self._emb = np.asarray(encode(texts)) if "dense" in sources and encode is not None and texts else None

    def search(self, query_ids: list[str], depth: int) -> pl.DataFrame:
        """Unfiltered (q_family, neg_family, source_rank, source) hits, top `depth` per source."""
        rows = [self._position[q] for q in query_ids]
        depth = min(depth, len(self.ids))
        frames = []
        if self._bm25 is not None and self._tokens is not None and rows:
            hits = bm25s_search(self._bm25, [self._tokens[i] for i in rows], depth)
            frames.append(_hits_frame(query_ids, self.ids, hits, "bm25"))
        if self._emb is not None and rows:
            frames.append(_hits_frame(query_ids, self.ids, dense_top_k(self._emb, self._emb[rows], depth), "dense"))
        return pl.concat(frames) if frames else _hits_frame([], [], [], "bm25")


def search_candidates(
    corpus: pl.DataFrame, query_ids: list[str], depth: int,
    sources: Sequence[str] = ("bm25", "dense"), encode: Encoder | None = None,
) -> pl.DataFrame:
    """One-shot `CandidateSearcher(corpus, sources, encode).search(query_ids, depth)`."""
    return CandidateSearcher(corpus, sources, encode).search(query_ids, depth)


def filter_candidates(
    candidates: pl.LazyFrame, queries: pl.LazyFrame, network: pl.LazyFrame, family_sets: pl.LazyFrame,
    n_negatives: int = 10,
) -> pl.LazyFrame:
    """Apply the exclusion and relation rules, interleave sources, keep `n_negatives` per (query, group).

    `queries` has (q_family, group); `network` has (family_id, other_family); `family_sets` has
    (family_id, ipc3_set). Output: q_family, group, neg_family, source, rank (0-based).
    """
    sets = family_sets.select("family_id", "ipc3_set")
    allowed = pl.DataFrame(
        [(g, r) for g, rels in ALLOWED_RELATIONS.items() for r in rels], schema=["group", "relation"], orient="row"
    ).lazy()
    return (
        candidates.filter(pl.col("q_family") != pl.col("neg_family"))
        .join(network.rename({"family_id": "q_family", "other_family": "neg_family"}),
              on=["q_family", "neg_family"], how="anti")
        .join(queries.select("q_family", "group"), on="q_family")
        .join(sets.rename({"family_id": "q_family", "ipc3_set": "_qs"}), on="q_family")
        .join(sets.rename({"family_id": "neg_family", "ipc3_set": "_ns"}), on="neg_family")
        .with_columns(domain_relation(pl.col("_qs"), pl.col("_ns")).alias("relation"))
        .join(allowed, on=["group", "relation"], how="semi")
        .with_columns(pl.col("source_rank").rank("ordinal").over("q_family", "group", "source").alias("_r"),
                      (pl.col("source") != "bm25").cast(pl.Int8).alias("_src_order"))
        .sort("q_family", "group", "_r", "_src_order", "neg_family")
        .unique(["q_family", "group", "neg_family"], keep="first", maintain_order=True)
        .with_columns(pl.int_range(pl.len()).over("q_family", "group").alias("rank"))
        .filter(pl.col("rank") < n_negatives)
        .select("q_family", "group", "neg_family", "source", "relation", "rank")
    )
