"""BM25 hard-negative search: bm25s vs rank-bm25 (the reference) on the same corpus, in one run.

Corpus: N docs of ~100 words from a Zipf vocabulary (patent-like term skew), Q queries of ~30 words.
Both backends index the same tokens (Okapi/Robertson variant); bm25s answers all Q queries,
rank-bm25 a sample of R queries (it scores the whole corpus per query in Python) and its time per
query is scaled to Q. Top-10 agreement on the sample is printed as a sanity check.
Last line: `bm25s_vs_rank_bm25: <speed-up> ratio` (goal >= 50).
Usage: python benchmarks/negatives.py [--docs 100000 --queries 10000 --reference-queries 50]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transforms.negatives import bm25_top_k, bm25s_index, bm25s_search  # noqa: E402


def corpus(n: int, words: int, vocab: int, rng: np.random.Generator) -> list[list[str]]:
    weights = 1.0 / np.arange(1, vocab + 1) ** 1.1
    ids = rng.choice(vocab, size=(n, words), p=weights / weights.sum())
    return [[f"t{i}" for i in row] for row in ids]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--reference-queries", type=int, default=50)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    docs = corpus(args.docs, 100, 50_000, rng)
    queries = corpus(args.queries, 30, 50_000, rng)
    t = time.perf_counter()
    index = bm25s_index(docs)
    t_index = time.perf_counter() - t
    t = time.perf_counter()
    fast = bm25s_search(index, queries, 10)
    t_fast = time.perf_counter() - t
    sample = queries[: args.reference_queries]
    from rank_bm25 import BM25Okapi

    t = time.perf_counter()
    BM25Okapi(docs, k1=1.5, b=0.75, epsilon=0.0)
    t_ref_index = time.perf_counter() - t
    t = time.perf_counter()
    ref = bm25_top_k(docs, sample, 10, backend="rank_bm25")
    t_ref_per_q = max(time.perf_counter() - t - t_ref_index, 1e-9) / len(sample)
    overlap = np.mean([len(set(a[0][:10]) & set(b[0][:10])) / max(1, min(10, len(a[0]))) for a, b in
                       zip(fast[: len(sample)], ref)])
    print(f"corpus {args.docs:,} docs, {args.queries:,} queries; bm25s index {t_index:.1f}s, "
          f"search {t_fast:.1f}s ({args.queries / t_fast:,.0f} q/s)")
    print(f"rank-bm25 index {t_ref_index:.1f}s, {t_ref_per_q * 1000:.0f} ms/query over {len(sample)} queries, "
          f"{t_ref_per_q * args.queries:,.0f}s extrapolated for all queries")
    print(f"top-10 agreement on the sample: {overlap:.3f}")
    print(f"indexing: rank-bm25 / bm25s = {t_ref_index / t_index:.2f}x (the ratio below is search time)")
    print(f"bm25s_vs_rank_bm25: {t_ref_per_q * args.queries / t_fast:.1f} ratio")


if __name__ == "__main__":
    main()
