"""One score for one model on one version, whichever toolkit computes it: our eval, BEIR (its defaults) and
mteb (our task definitions), on the same vectors. Before the ids could mislead: BEIR's default dropped every
asymmetric query's only positive (same id as the query) and mteb's default ranked a symmetric query's own
document first."""
from __future__ import annotations

import json
import zlib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from patentfactory.evaluation.beir_export import export_beir
from patentfactory.evaluation.encoders import Encoder
from patentfactory.evaluation.patenteb import PatenTEBEvalConfig, score_retrieval
from patentfactory.evaluation.published import open_version
from patentfactory.store.storage import Storage
from tests.evaluation.synthetic import TITLES, TOPICS, publish_patenteb
from transforms.tasks.patenteb import task_specs
from transforms.tasks.patenteb_beir import beir_tables

DIM = 512


def bow(texts: list[str]) -> np.ndarray:
    """Hashed word counts, unit length: a model-free encoder whose vectors every toolkit can be given."""
    out = np.zeros((len(texts), DIM), dtype=np.float64)
    for i, text in enumerate(texts):
        for word in text.lower().split():
            out[i, zlib.crc32(word.strip(".,;").encode()) % DIM] += 1.0
        # a small weight drawn from the text itself: no two documents tie (toolkits break ties differently)
        out[i, DIM - 1] = 0.01 + 0.5 * (zlib.crc32(" ".join(text.split()).encode()) % 9973) / 9973
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def _fid(code: str, i: int) -> str:
    return f"F-{code}-{i}"


def _tasks() -> dict:
    """retrieval_IN with citations both ways (a query's family is another query's positive, as in real builds),
    and title2full whose queries are the titles of the families they retrieve; both with their layouts."""
    rows = []
    for code, s in TOPICS.items():
        pairs = [(0, 1), (1, 0), (2, 3), (3, 2), (0, 4), (4, 5)]
        rows += [(s[q], s[p], s[(p + 2) % 6], _fid(code, q), _fid(code, p), _fid(code, (p + 2) % 6))
                 for q, p in pairs]
    ret = pl.DataFrame(rows, schema=["q_text", "pos_text", "neg_text", "query_id", "pos_id", "neg_id"], orient="row")
    ret = ret.with_columns(pl.col("query_id").alias("q_pub_id"), pl.col("pos_id").alias("pos_pub_id"),
                           pl.col("neg_id").alias("neg_pub_id"))
    docs = pl.DataFrame([(_fid(c, i), TITLES[c] if i == 4 else "", t) for c, s in TOPICS.items()
                         for i, t in enumerate(s)], schema=["family_id", "title", "text_no_title"], orient="row")
    t2f = pl.DataFrame([(f"{TITLES[c]} variant {i}", f"{s[i]} {s[(i + 1) % 6]}", _fid(c, i), _fid(c, i), _fid(c, i))
                        for c, s in TOPICS.items() for i in range(6)],
                       schema=["title", "full_text", "query_id", "doc_id", "pub_id"], orient="row")
    return {"retrieval_IN": {"test": ret}, "title2full": {"test": t2f},
            **beir_tables("retrieval_IN", ("q_text", "pos_text", "neg_text"), "retrieval", {"test": ret}, docs),
            **beir_tables("title2full", ("title", "full_text"), "asymmetric_retrieval", {"test": t2f}, docs)}


@pytest.fixture(scope="module")
def version(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("pub")
    pub = publish_patenteb(str(root), _tasks())
    return root, pub.version


def ours(root: Path, version: str, task: str) -> float:
    pv = open_version(Storage(root), "patenteb", version)
    return score_retrieval(pv, task_specs()[task], Encoder("bow", bow), PatenTEBEvalConfig())[0].value


def _doc_text(doc: dict) -> str:
    return (doc.get("title", "") + " " + doc["text"]).strip()  # BEIR's and mteb's title + text


def beir_ndcg(corpus: dict, queries: dict, qrels: dict, **kwargs) -> float:
    from beir.retrieval.evaluation import EvaluateRetrieval

    doc_ids = list(corpus)
    sims = bow(list(queries.values())) @ bow([_doc_text(corpus[d]) for d in doc_ids]).T
    results = {q: {d: float(s) for d, s in zip(doc_ids, row)} for q, row in zip(queries, sims)}
    ndcg, *_ = EvaluateRetrieval.evaluate(qrels, results, [10], **kwargs)
    return ndcg["NDCG@10"]


def test_ids_never_collide_unless_same_document(version):
    root, v = version
    folder = root / "patenteb" / v
    for task, same in (("retrieval_IN", True), ("title2full", False)):
        queries = set(pl.read_parquet(folder / f"{task}.queries" / "test.parquet")["_id"])
        corpus = set(pl.read_parquet(folder / f"{task}.corpus" / "test.parquet")["_id"])
        assert bool(queries & corpus) is same, task  # symmetric: a query's family is in the corpus, same text


@pytest.mark.parametrize("task", ["retrieval_IN", "title2full"])
def test_beir_with_its_defaults_gives_our_score(version, tmp_path, task):
    from beir.datasets.data_loader import GenericDataLoader

    root, v = version
    export_beir(open_version(Storage(root), "patenteb", v), Storage(tmp_path), [task])
    corpus, queries, qrels = GenericDataLoader(str(tmp_path / task / "test")).load(split="test")
    score = ours(root, v, task)
    assert 0.3 < score < 1.0, "a score with room to differ"
    assert beir_ndcg(corpus, queries, qrels) == pytest.approx(score, abs=1e-5)


def test_the_old_ids_were_a_trap_under_beirs_default(version, tmp_path):
    """title2full with the query id equal to its document's (as published before): BEIR's default scores 0."""
    from beir.datasets.data_loader import GenericDataLoader

    root, v = version
    export_beir(open_version(Storage(root), "patenteb", v), Storage(tmp_path), ["title2full"])
    corpus, queries, qrels = GenericDataLoader(str(tmp_path / "title2full" / "test")).load(split="test")
    legacy = {q.split(":")[0]: t for q, t in queries.items()}
    legacy_qrels = {q.split(":")[0]: r for q, r in qrels.items()}
    assert beir_ndcg(corpus, legacy, legacy_qrels) == 0.0
    assert beir_ndcg(corpus, legacy, legacy_qrels, ignore_identical_ids=False) == pytest.approx(
        ours(root, v, "title2full"), abs=1e-5)


def test_a_symmetric_task_scored_with_mtebs_default_ranks_the_query_itself_first(version, tmp_path):
    """Why the symmetric tasks declare ignore_identical_ids=True: without it the query's own family (in the corpus
    as another query's positive) takes a top rank and the score drops."""
    from beir.datasets.data_loader import GenericDataLoader

    root, v = version
    export_beir(open_version(Storage(root), "patenteb", v), Storage(tmp_path), ["retrieval_IN"])
    corpus, queries, qrels = GenericDataLoader(str(tmp_path / "retrieval_IN" / "test")).load(split="test")
    assert beir_ndcg(corpus, queries, qrels, ignore_identical_ids=False) < ours(root, v, "retrieval_IN") - 0.05


class BowModel:
    """An mteb encoder over `bow` (built lazily: mteb imports torch)."""

    @staticmethod
    def make():
        from mteb.models.abs_encoder import AbsEncoder
        from mteb.models.model_meta import ModelMeta, ScoringFunction

        class _Bow(AbsEncoder):
            mteb_model_meta = ModelMeta.create_empty({"name": "test/bow", "revision": "1",
                                                      "similarity_fn_name": ScoringFunction.COSINE})

            def __init__(self):
                self.model = None

            def encode(self, inputs, **kwargs):
                return bow([t for batch in inputs for t in batch["text"]]).astype(np.float32)

        return _Bow()


def test_mteb_with_our_task_definitions_gives_our_score(version):
    import mteb

    from patentfactory.evaluation.mteb_tasks import patenteb_tasks

    root, v = version
    tasks = {t.metadata.name: t for t in patenteb_tasks(str(root / "patenteb" / v))}
    assert tasks["PatenTEB-retrieval_IN"].ignore_identical_ids is True
    assert tasks["PatenTEB-title2full"].ignore_identical_ids is False
    picked = [tasks["PatenTEB-retrieval_IN"], tasks["PatenTEB-title2full"]]
    result = mteb.evaluate(BowModel.make(), picked, cache=None, show_progress_bar=False)
    got = {r.task_name: r.scores["test"][0]["ndcg_at_10"] for r in result.task_results}
    assert got["PatenTEB-retrieval_IN"] == pytest.approx(ours(root, v, "retrieval_IN"), abs=1e-4)
    assert got["PatenTEB-title2full"] == pytest.approx(ours(root, v, "title2full"), abs=1e-4)


def test_every_patenteb_task_runs_in_mteb_from_the_folder(tmp_path):
    """One mteb task per published PatenTEB task (but the NLI probe), each loads and scores under its main metric."""
    import mteb

    from patentfactory.evaluation.mteb_tasks import MAIN_SCORES, NOT_IN_MTEB, patenteb_tasks
    from tests.evaluation.synthetic import patenteb_tasks as synthetic_tasks

    pub = publish_patenteb(str(tmp_path), synthetic_tasks())
    tasks = patenteb_tasks(str(tmp_path / "patenteb" / "latest"))
    names = {t.metadata.name for t in tasks}
    assert names == {"PatenTEB-retrieval_IN", "PatenTEB-class_text2ipc3", "PatenTEB-para_problem",
                     "PatenTEB-clusters_inventor"}, "title2full lacks its layout, effect2full its test split"
    assert "class_nli_oldnew" in NOT_IN_MTEB
    for t in tasks:  # mteb's clustering embeds a sample: a tiny set asks for all of it
        if t.metadata.type == "Clustering":
            t.max_fraction_of_documents_to_embed, t.max_document_to_embed, t.n_clusters = None, 24, 2
    result = mteb.evaluate(BowModel.make(), tasks, cache=None, show_progress_bar=False)
    for r in result.task_results:
        kind = task_specs()[r.task_name.removeprefix("PatenTEB-")].kind
        score = r.scores["test"][0]
        assert score["main_score"] == score[MAIN_SCORES[kind]] and 0.0 <= score["main_score"] <= 1.0, r.task_name
    assert {r.dataset_revision for r in result.task_results} == {pub.version}


def test_pf_export_beir_writes_what_generic_data_loader_reads(version, tmp_path):
    from beir.datasets.data_loader import GenericDataLoader
    from typer.testing import CliRunner

    import patentfactory.cli.export  # noqa: F401  (registers `pf export`)
    from patentfactory.cli.main import app

    root, v = version
    ran = CliRunner().invoke(app, ["export", "beir", "--root", str(root), "--out", str(tmp_path / "beir")])
    assert ran.exit_code == 0, ran.output
    assert "retrieval_IN: test: 24 docs / 20 queries / 24 qrels" in ran.output
    corpus, queries, qrels = GenericDataLoader(str(tmp_path / "beir" / "title2full" / "test")).load(split="test")
    assert len(corpus) == len(queries) == len(qrels) == 24 and all(q.endswith(":title") for q in queries)
    meta = json.loads((tmp_path / "beir" / "title2full" / "beir.json").read_text())
    assert meta["version"] == v and meta["ignore_identical_ids"] is False
    bad = CliRunner().invoke(app, ["export", "beir", "--root", str(root), "--out", str(tmp_path / "x"),
                                   "--task", "class_bloom"])
    assert bad.exit_code != 0 and "not a retrieval task" in bad.output


def test_paraphrase_pearson_r_is_mtebs_sts_cosine_pearson(tmp_path):
    """The paper scores para_* with Pearson r (its results table) and registers them as STS (its task cards):
    our eval's score equals mteb's STS `cosine_pearson` on the same vectors, and the mteb task reports it as its
    main score. Pair classification (average precision) would give another number on the same pairs."""
    import mteb

    from patentfactory.evaluation.mteb_tasks import patenteb_tasks
    from patentfactory.evaluation.patenteb import score_paraphrase
    from tests.evaluation.synthetic import paraphrase

    pairs = paraphrase()
    noisy = pl.DataFrame({"text1": [f"{a} {b.split()[0]}" for a, b in zip(pairs["text1"], pairs["text2"])],
                          "text2": pairs["text2"], "label": pairs["label"]})  # not perfectly separable
    pub = publish_patenteb(str(tmp_path), {"para_problem": {"test": noisy}})
    pv = open_version(Storage(tmp_path), "patenteb", pub.version)
    ours_r = score_paraphrase(pv, task_specs()["para_problem"], Encoder("bow", bow), PatenTEBEvalConfig())[0].value
    task = patenteb_tasks(str(tmp_path / "patenteb" / pub.version), tasks=["para_problem"])[0]
    assert task.metadata.type == "STS" and task.metadata.main_score == "cosine_pearson"
    score = mteb.evaluate(BowModel.make(), [task], cache=None, show_progress_bar=False).task_results[0] \
        .scores["test"][0]
    assert score["main_score"] == score["cosine_pearson"] == pytest.approx(ours_r, abs=1e-6)
    assert 0.0 < ours_r < 1.0, "a score with room to differ"
    from sklearn.metrics import average_precision_score
    cos = np.sum(bow(noisy["text1"].to_list()) * bow(noisy["text2"].to_list()), axis=1)
    assert abs(average_precision_score(noisy["label"].to_list(), cos) - ours_r) > 0.01, "AP is another metric"
