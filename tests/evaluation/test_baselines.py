"""PILOT / Patent-CR / Pap2Pat frame scorers on small frames, and `evaluate_dataset` dispatch (local and s3)."""
from __future__ import annotations

import json
import math
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from patentfactory.errors import PFError
from patentfactory.evaluation import evaluate_dataset, write_report
from patentfactory.evaluation.baselines import (
    claims_list, outline_text, score_pap2pat, score_patentcr, score_pilot, truncate_claims,
)
from patentfactory.evaluation.results import EvalResult, SkipTask
from patentfactory.store.publish import Release, publish
from patentfactory.store.storage import Storage, s3_storage_options
from transforms.outlines import render_fulltext

pytestmark = pytest.mark.services

ISSUE_WORDS = {"101": "abstract idea judicial exception", "102": "anticipated by a single reference",
               "103": "obvious combination of references"}


def _pilot_rows(n: int, offset: int = 0) -> list[dict]:
    """Issue types follow the words in the arguments; the outcome follows the examiner's wording."""
    rows = []
    for i in range(offset, offset + n):
        issues = ["103"] + (["102"] if i % 3 == 0 else []) + (["101"] if i % 5 == 0 else [])
        reversed_ = i % 4 == 0
        rows.append({
            "appellant_arguments": "Appellant argues the claim is not " + "; not ".join(ISSUE_WORDS[x] for x in issues),
            "examiner_findings": "The examiner erred in the finding" if reversed_ else "The examiner correctly found",
            "ptab_opinion": "never an input",
            "issue_type": sorted(issues),
            "subdecision_coarse": "Reversed" if reversed_ else "Affirmed",
        })
    return rows


def _by(scores, label: str, model: str, metric: str) -> float:
    return next(s.value for s in scores if s.task == label and s.model == model and s.metric == metric)


def test_pilot_majority_and_tfidf_baselines():
    train, test = pl.DataFrame(_pilot_rows(40)), pl.DataFrame(_pilot_rows(12, offset=40))
    scores = score_pilot("decisions", train, test)
    # majority outcome: Affirmed (30 of 40 train rows); test rows 40..51 -> reversed at 40, 44, 48: accuracy 9/12
    assert _by(scores, "decisions:subdecision_coarse", "majority", "accuracy") == pytest.approx(9 / 12)
    # majority issues: only 103 is on more than half of train rows -> predict {103}; exact where no 102/101:
    # test rows 40..51 with i % 3 == 0 or i % 5 == 0 (40, 42, 45, 48, 50, 51) are not exact -> 6 of 12
    assert _by(scores, "decisions:issue_type", "majority", "exact_match") == pytest.approx(6 / 12)
    assert _by(scores, "decisions:issue_type", "tfidf_lr", "micro_f1") > _by(
        scores, "decisions:issue_type", "majority", "micro_f1")
    assert _by(scores, "decisions:subdecision_coarse", "tfidf_lr", "macro_f1") == pytest.approx(1.0)
    metrics = {s.metric for s in scores if s.task == "decisions:issue_type"}
    assert metrics == {"exact_match", "micro_precision", "micro_recall", "micro_f1", "macro_precision",
                       "macro_recall", "macro_f1", "hamming_loss"}
    primary = {(s.task, s.model): s.metric for s in scores if s.primary}
    assert primary[("decisions:issue_type", "tfidf_lr")] == "micro_f1"
    assert primary[("decisions:subdecision_coarse", "majority")] == "macro_f1"


def test_pilot_inputs_join_the_setting_fields_and_claims():
    from patentfactory.evaluation.baselines import pilot_texts

    df = pl.DataFrame({"appellant_arguments": ["args"], "examiner_findings": [None], "claims": [["c1", "c2"]],
                       "ptab_opinion": ["never"]})
    assert pilot_texts(df) == ["args\n\n\n\nc1\nc2"]
    assert pilot_texts(pl.DataFrame({"merged_text": ["one text"]})) == ["one text"]
    both = pl.DataFrame({"appellant_arguments": ["a"], "examiner_findings": ["e"], "merged_text": ["a e"]})
    assert pilot_texts(both) == ["a\n\ne"], "merged text is not added to the role fields"


def test_pilot_split_claim_claims_are_read_as_their_texts():
    """split_claim publishes claims as structs (claim_no, text, depends_on), as the build aligns them."""
    from patentfactory.evaluation.baselines import pilot_texts

    claims = [[{"claim_no": 1, "text": "A lamp.", "depends_on": []},
               {"claim_no": 2, "text": "The lamp of claim 1, red.", "depends_on": [1]}]]
    df = pl.DataFrame({"appellant_arguments": ["args"], "examiner_findings": ["found"], "claims": claims})
    assert pilot_texts(df) == ["args\n\nfound\n\nA lamp.\nThe lamp of claim 1, red."]


def test_pilot_without_labels_is_skipped_and_without_train_is_zero_shot():
    with pytest.raises(SkipTask, match="no label column"):
        score_pilot("t", pl.DataFrame({"merged_text": ["a"]}), pl.DataFrame({"merged_text": ["b"]}))
    zero_shot = score_pilot("t", None, pl.DataFrame(_pilot_rows(3)))
    assert {s.model for s in zero_shot} == {"prior", "keyword"}


DISTINCT_CLAIMS = ["alpha beta gamma delta", "epsilon zeta eta theta", "iota kappa lambda mu", "nu xi omicron pi"]


def test_patentcr_copy_and_truncate_by_hand():
    test = pl.DataFrame({"claims_before": [DISTINCT_CLAIMS], "claims_after": [DISTINCT_CLAIMS[:2]]})
    scores = {(s.model, s.metric): s.value for s in score_patentcr("claims", None, test, keep_ratio=0.5)}
    # truncate keeps ceil(4 * .5) = 2 claims = the reference: BLEU 1, ROUGE-L 1;
    # SARI (evaluate's rules): keep F 1 and delete P 1 for every n, nothing to add nor wanted: 0/0 = 1 -> 1
    assert scores[("truncate", "bleu")] == pytest.approx(1.0)
    assert scores[("truncate", "rouge_l_f")] == pytest.approx(1.0)
    assert scores[("truncate", "sari")] == pytest.approx(1.0)
    # copy: 16 tokens vs the 8 of the reference. ROUGE-L: LCS 8, P 1/2, R 1 -> 2/3
    assert scores[("copy", "rouge_l_f")] == pytest.approx(2 / 3)
    # BLEU: p1 8/16, p2 7/15, p3 6/14, p4 5/13, BP 1 (16 > 8)
    assert scores[("copy", "bleu")] == pytest.approx((8 / 16 * 7 / 15 * 6 / 14 * 5 / 13) ** 0.25)
    # SARI: keep P = 8/16, 7/15, 6/14, 5/13 with R 1 -> F 2/3, 7/11, 3/5, 5/9; nothing deleted (0/0 = 1),
    # nothing added nor wanted (0/0 = 1 -> F 1)
    keep = (2 / 3 + 7 / 11 + 3 / 5 + 5 / 9) / 4
    assert scores[("copy", "sari")] == pytest.approx((keep + 1 + 1) / 3)


def test_claim_helpers():
    assert claims_list("1. A lamp.\n\n2. The lamp of claim 1.") == ["1. A lamp.", "2. The lamp of claim 1."]
    assert claims_list(None) == []
    assert truncate_claims([str(i) for i in range(14)]) == [str(i) for i in range(11)]  # ceil(14 * 0.7697) = 11
    with pytest.raises(SkipTask, match="lacks claims_after"):
        score_patentcr("claims", None, pl.DataFrame({"claims_before": [["x"]]}))


def test_pap2pat_on_the_real_golden_example(real_samples: Path):
    folder = real_samples / "pap2pat"
    patent, paper = (json.loads((folder / f).read_text()) for f in ("patent.json", "paper.json"))
    frame = pl.DataFrame({"paper_text": [render_fulltext(paper["sections"])],  # as published: markdown headings
                          "patent_text": [render_fulltext(patent["sections"])],
                          "outline_long": [(folder / "patent_outline_long.md").read_text()],
                          "outline_medium": [(folder / "patent_outline_medium.md").read_text()]})
    scores = score_pap2pat("pairs", None, frame)
    models = {s.model for s in scores}
    assert models == {"copy_paper", "outline_long", "outline_medium"}
    assert all(0 < s.value < 1 for s in scores if s.metric == "rouge_l_f")
    assert [s.metric for s in scores if s.primary] == ["rouge_l_f"] * 3
    by = {(s.model, s.metric): s.value for s in scores}  # the paper's metrics: ROUGE-1/2, BLEU, per section, ratios
    assert {"rouge_1_f", "rouge_2_f", "bleu", "detailed_description_rouge_l_f", "repetition", "length_ratio"} <= {
        m for (model, m) in by if model == "copy_paper"}
    assert by[("outline_long", "length_ratio")] < by[("copy_paper", "length_ratio")]
    same = pl.DataFrame({"paper_text": ["A vaccine strain."], "patent_text": ["A vaccine strain."]})
    assert {s.metric: s.value for s in score_pap2pat("p", None, same)}["rouge_l_f"] == pytest.approx(1.0)


def test_outline_text_drops_markdown_markers():
    assert outline_text("# DESCRIPTION\n\n- relate to prior applications\n## FIELD\n- define field") == (
        "DESCRIPTION\n\nrelate to prior applications\nFIELD\ndefine field")


def _publish_pilot(storage: Storage) -> str:
    tasks = {"issue_type": {"train": pl.DataFrame(_pilot_rows(30)), "test": pl.DataFrame(_pilot_rows(10, 30))},
             "all": {"test": pl.DataFrame(_pilot_rows(5))}}
    rel = Release("pilot", tasks, {"seed": 1}, [{"source": "synthetic", "item": "x", "sha256": "0" * 64}])
    return publish(storage, rel, day=date(2026, 11, 23)).version


def _check_pilot_result(result: EvalResult, version: str) -> None:
    assert result.version == version
    assert not result.skipped, "the test-only zero-shot set is scored by baselines that need no training"
    frame = result.frame()
    # the task named after its label keeps its name; its second label gets `task:label`
    assert {"issue_type", "issue_type:subdecision_coarse", "overall"} <= set(frame["task"])
    assert any(t.startswith("all:") for t in frame["task"])
    assert set(frame.filter(pl.col("task") == "overall")["model"]) == {"majority", "tfidf_lr", "prior", "keyword"}


def test_evaluate_dataset_dispatches_frame_datasets(tmp_path: Path):
    st = Storage(tmp_path)
    version = _publish_pilot(st)
    result = evaluate_dataset(tmp_path, "pilot")
    _check_pilot_result(result, version)
    with pytest.raises(PFError, match="no evaluation defined") as err:
        evaluate_dataset(tmp_path, "nonesuch")
    assert "patenteb, patentcr, ipbench, pilot, pap2pat" in err.value.hint  # the registry's order
    with pytest.raises(PFError, match="--max-queries must be positive"):
        evaluate_dataset(tmp_path, "pilot", max_queries=0)


@pytest.fixture()
def s3_root(s3_env) -> str:
    return "s3://bench/pub"


def test_eval_reads_and_writes_through_s3(s3_root: str):
    st = Storage(s3_root, s3_storage_options())
    version = _publish_pilot(st)
    result = evaluate_dataset(st, "pilot", version)
    _check_pilot_result(result, version)
    paths = write_report(st, result)
    assert paths.scores == f"{s3_root}/eval/pilot/{version}/scores.parquet"
    prefix = f"eval/pilot/{version}"
    assert st.read_bytes(f"{prefix}/scores.png")[:4] == b"\x89PNG"
    assert "| issue_type | micro_f1 |" in st.read_text(f"{prefix}/report.md")
    back = pl.read_parquet(st.read_bytes(f"{prefix}/scores.parquet"))
    assert back.equals(result.frame()) and not math.isnan(back["value"].sum())


def test_version_with_nothing_scorable_still_gets_a_report(tmp_path: Path):
    st = Storage(tmp_path)
    train = pl.DataFrame({"paper_text": ["a paper"], "patent_text": ["a patent"]})
    rel = Release("pap2pat", {"pairs": {"train": train}}, {"seed": 1},
                  [{"source": "synthetic", "item": "x", "sha256": "0" * 64}])
    version = publish(st, rel, day=date(2026, 11, 23)).version
    result = evaluate_dataset(st, "pap2pat")
    assert [(s.task, s.reason) for s in result.skipped] == [("pairs", "no test split")]
    write_report(st, result)
    scores = pl.read_parquet(tmp_path / "eval" / "pap2pat" / version / "scores.parquet")
    assert scores.height == 0 and tuple(scores.columns) == ("dataset", "version", "task", "model", "metric", "value")
    assert "No task could be scored" in (tmp_path / "eval" / "pap2pat" / version / "report.md").read_text()
