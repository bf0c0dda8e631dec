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

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # bm25s sets DEBUG on import: one line per index built
    model = bm25s.BM25(k1=k1, b=b, method="robertson", idf_method="robertson")
    model.index(corpus_tokens, show_progress=False)
    return model


def _rank_hits(docs: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Order each query row by (score desc, index asc), drop zero scores: (row, rank, doc, score) per hit.

    One int64 sort key per hit: the float32 score's bits (monotone for scores >= 0) negated, then the index.
    """
    docs, scores = np.asarray(docs, dtype=np.int64), np.asarray(scores, dtype=np.float32)
    bits = np.maximum(scores, 0).view(np.int32).astype(np.int64)
    keys = np.sort((-bits << 32) | docs, axis=-1)
    rows, ranks = np.nonzero(keys < 0)  # positive scores form a prefix of each sorted row
    hit = keys[rows, ranks]
    hit_scores = (-(hit >> 32)).astype(np.int32).view(np.float32)
    return rows, ranks, hit & 0xFFFFFFFF, hit_scores


def _bm25s_retrieve(model: object, query_tokens: list[list[str]], k: int,
                    n_threads: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    docs, scores = model.retrieve(query_tokens, k=k, show_progress=False,  # type: ignore[attr-defined]
                                  n_threads=n_threads, chunksize=max(1, len(query_tokens) // (4 * n_threads)))
    return _rank_hits(docs, scores)


def bm25s_search(model: object, query_tokens: list[list[str]], k: int,
                 k1: float = 1.5) -> list[tuple[np.ndarray, np.ndarray]]:
    """Top-k per query from a bm25s index; scores times (k1 + 1) to equal rank-bm25's, zeros dropped."""
    rows, _, docs, scores = _bm25s_retrieve(model, query_tokens, k)
    bounds = np.cumsum(np.bincount(rows, minlength=len(query_tokens)))[:-1]
    return list(zip(np.split(docs, bounds), np.split(scores.astype(np.float64) * (k1 + 1), bounds)))


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


_HITS_SCHEMA = {"q": pl.Int32, "neg": pl.Int32, "source_rank": pl.Int32, "src": pl.Int8}
SOURCES = ("bm25", "dense")  # src codes 0, 1: bm25 wins interleaving ties


def _flat_hits(hits: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lengths = np.array([len(h[0]) for h in hits], dtype=np.int64)
    flat = np.concatenate([h[0] for h in hits]) if hits else np.array([], dtype=np.int64)
    ranks = np.arange(flat.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(np.arange(len(hits)), lengths), ranks, flat


class CandidateSearcher:
    """One split's corpus (family_id, text), indexed once for BM25 and/or embedded once, searched often."""

    def __init__(self, corpus: pl.DataFrame, sources: Sequence[str] = ("bm25", "dense"),
                 encode: Encoder | None = None, n_threads: int = 1) -> None:
        self.ids: list[str] = corpus.get_column("family_id").to_list()
        texts = corpus.get_column("text").fill_null("").to_list()
        self._position = {f: i for i, f in enumerate(self.ids)}
        self._tokens = tokenize_for_bm25(texts) if "bm25" in sources and texts else None
        self._bm25 = bm25s_index(self._tokens) if self._tokens else None
        self._emb = np.asarray(encode(texts)) if "dense" in sources and encode is not None and texts else None
        self._threads = n_threads

    def positions(self, family_ids: Sequence[str]) -> np.ndarray:
        return np.array([self._position[f] for f in family_ids], dtype=np.int64)

    def search_positions(self, rows: np.ndarray, depth: int) -> pl.DataFrame:
        """Unfiltered hits as corpus positions (q, neg, source_rank, src), top `depth` per source and query."""
        depth = min(depth, len(self.ids))
        parts = []
        if self._bm25 is not None and self._tokens is not None and len(rows) and depth:
            r, rank, doc, _ = _bm25s_retrieve(self._bm25, [self._tokens[i] for i in rows], depth, self._threads)
            parts.append((rows[r], doc, rank, 0))
        if self._emb is not None and len(rows) and depth:
            r, rank, doc = _flat_hits(dense_top_k(self._emb, self._emb[rows], depth))
            parts.append((rows[r], doc, rank, 1))
        if not parts:
            return pl.DataFrame(schema=_HITS_SCHEMA)
        return pl.concat([pl.DataFrame({"q": q, "neg": n, "source_rank": k, "src": np.full(len(q), c)},
                                       schema=_HITS_SCHEMA) for q, n, k, c in parts])

    def search(self, query_ids: list[str], depth: int) -> pl.DataFrame:
        """Unfiltered (q_family, neg_family, source_rank, source) hits, top `depth` per source."""
        hits = self.search_positions(self.positions(query_ids), depth)
        ids = pl.Series(self.ids, dtype=pl.String)
        return pl.DataFrame({
            "q_family": ids.gather(hits.get_column("q")), "neg_family": ids.gather(hits.get_column("neg")),
            "source_rank": hits.get_column("source_rank").cast(pl.Int64),
            "source": pl.Series(SOURCES, dtype=pl.String).gather(hits.get_column("src")),
        })


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


RELATIONS = (IN, OUT, FULL_MIX, PART_MIX)  # relation codes 0..3 (-1: a family missing from the sets)
GROUPS = (IN, MIXED, OUT)  # query group codes 0..2
_ALLOWED_CODES = pl.DataFrame(
    [(GROUPS.index(g), RELATIONS.index(r)) for g, rels in ALLOWED_RELATIONS.items() for r in rels],
    schema={"g": pl.Int8, "rel": pl.Int8}, orient="row")


def _interleave(cands: pl.DataFrame, n_negatives: int) -> pl.DataFrame:
    """Per (q, g): sources alternate by post-filter rank `_r` (bm25 first), duplicates dropped, first n kept."""
    return (cands.sort("q", "g", "_r", "src")
            .unique(["q", "g", "neg"], keep="first", maintain_order=True)
            .with_columns(pl.int_range(pl.len()).over("q", "g").alias("rank"))
            .filter(pl.col("rank") < n_negatives))


class CandidateFilter:
    """`filter_candidates` over one split's corpus positions: bitset relations, sorted network keys, no strings.

    Gives the same negatives as `filter_candidates` on the same hits, in bounded memory per query chunk.
    """

    def __init__(self, ids: Sequence[str], family_sets: pl.DataFrame, network: pl.DataFrame) -> None:
        self.n = len(ids)
        pos = pl.DataFrame({"family_id": list(ids), "pos": np.arange(self.n)},
                           schema={"family_id": pl.String, "pos": pl.Int64})
        sets = (pos.join(family_sets.select("family_id", "ipc3_set", pl.lit(True).alias("_known")), on="family_id",
                         how="left").sort("pos"))
        self._known = sets.get_column("_known").fill_null(False).to_numpy()
        self._null = sets.get_column("ipc3_set").is_null().to_numpy()  # `domain_relation` falls through: PART_MIX
        long = sets.select("pos", pl.col("ipc3_set").list.unique()).explode("ipc3_set").drop_nulls()
        code = long.get_column("ipc3_set").rank("dense").cast(pl.Int64).to_numpy() - 1
        self._bits = np.zeros((self.n, max(1, (int(code.max(initial=0)) + 64) // 64)), dtype=np.uint64)
        np.bitwise_or.at(self._bits, (long.get_column("pos").to_numpy(), code // 64),
                         np.left_shift(np.uint64(1), (code % 64).astype(np.uint64)))
        self._size = np.bitwise_count(self._bits).sum(axis=1)
        linked = (network.join(pos, on="family_id")
                  .join(pos.rename({"family_id": "other_family", "pos": "opos"}), on="other_family"))
        self._network = np.unique(linked.get_column("pos").to_numpy() * self.n + linked.get_column("opos").to_numpy())

    def relation(self, q: np.ndarray, neg: np.ndarray) -> np.ndarray:
        """Relation code of each (query, candidate) position pair, as `domain_relation` defines it."""
        shared = np.bitwise_count(self._bits[q] & self._bits[neg]).sum(axis=1)
        n_q, n_neg = self._size[q], self._size[neg]
        rel = np.select([(shared == n_q) & (shared == n_neg), shared == 0, (shared == n_q) | (shared == n_neg)],
                        [0, 1, 2], 3).astype(np.int8)
        rel[self._null[q] | self._null[neg]] = 3
        rel[~(self._known[q] & self._known[neg])] = -1
        return rel

    def linked(self, q: np.ndarray, neg: np.ndarray) -> np.ndarray:
        """Is the candidate in the query's citation network?"""
        keys = q * self.n + neg
        at = np.minimum(np.searchsorted(self._network, keys), max(self._network.size - 1, 0))
        return self._network[at] == keys if self._network.size else np.zeros(keys.size, dtype=bool)

    def select(self, hits: pl.DataFrame, queries: pl.DataFrame, n_negatives: int,
               depths: Sequence[int]) -> pl.DataFrame:
        """Negatives (q, g, neg, src, rel, rank) of the first depth level that fills (q, g), else the deepest.

        `hits` from `CandidateSearcher.search_positions` at `depths[-1]`; `queries` has (q, g) codes. Level i
        sees only hits with source_rank < depths[i], as if searched that deep (the old deeper passes).
        """
        q = hits.get_column("q").to_numpy().astype(np.int64)
        neg = hits.get_column("neg").to_numpy().astype(np.int64)
        rel = self.relation(q, neg)
        wanted = np.zeros((self.n, len(RELATIONS) + 1), dtype=bool)  # relations any group of the query takes
        for g, r in _ALLOWED_CODES.iter_rows():
            wanted[queries.filter(pl.col("g") == g).get_column("q").to_numpy(), r] = True
        keep = wanted[q, rel] & (q != neg)  # rel -1 reads the always-False last column
        keep[keep] = ~self.linked(q[keep], neg[keep])
        cands = (hits.with_columns(pl.Series("rel", rel, dtype=pl.Int8)).filter(pl.Series(keep))
                 .join(queries.select("q", "g"), on="q")
                 .join(_ALLOWED_CODES, on=["g", "rel"], how="semi")
                 .with_columns(pl.col("source_rank").rank("ordinal").over("q", "g", "src").alias("_r"))
                 .filter(pl.col("_r") <= n_negatives))  # n per source always covers n distinct negatives
        found = pl.concat([_interleave(cands.filter(pl.col("source_rank") < d), n_negatives)
                           .with_columns(pl.lit(i, dtype=pl.Int32).alias("level")) for i, d in enumerate(depths)])
        chosen = found.group_by("q", "g", "level").len().group_by("q", "g").agg(
            pl.coalesce(pl.col("level").filter(pl.col("len") >= n_negatives).min(), pl.col("level").max()))
        return found.join(chosen, on=["q", "g", "level"], how="semi").select("q", "g", "neg", "src", "rel", "rank")
