"""Baselines that need no training: PILOT's zero-shot `all` set, IPBench items, Patent-CR without a test split,
and reproducible score bytes."""
from __future__ import annotations

import polars as pl

from patentfactory.evaluation.baselines import score_patentcr, score_pilot
from patentfactory.evaluation.results import EvalResult, Score
from patentfactory.evaluation.zero_shot import (classification_em, keyword_authorities, keyword_issue_types,
                                               score_ipbench)
from patentfactory.store.parquet_io import parquet_bytes


def _all_set() -> pl.DataFrame:
    return pl.DataFrame({
        "case_id": ["a", "b", "c"],
        "appellant_arguments": ["Appellant argues the rejection under 35 U.S.C. § 103 is improper.",
                                "Appellant contends claims are eligible under § 101 and definite under § 112.",
                                "Appellant argues the declaration under 37 C.F.R. § 1.132 overcomes it."],
        "examiner_findings": ["The Examiner finds the combination obvious.", "The Examiner maintains.",
                              "The Examiner finds anticipation under 35 U.S.C. § 102."],
        "issue_type": [["103"], ["101", "112"], ["102"]],
        "board_authority": [["Others"], ["Others"], ["37 CFR 1.132"]],
        "subdecision_fine": ["Affirmed", "Reversed", "Affirmed"],
        "subdecision_coarse": ["Affirmed", "Reversed", "Affirmed"],
    })


def test_keyword_rules_read_statutes_and_authorities():
    assert keyword_issue_types("rejected under 35 U.S.C. §§ 102 and § 103") == {"102", "103"}
    assert keyword_issue_types("nothing cited") == {"Others"}
    assert keyword_authorities("a new ground under 37 C.F.R. § 41.50(b)") == {"37 CFR 41.50(b)"}
    assert keyword_authorities("see 37 CFR 1.131") == {"37 CFR 1.131"}
    assert keyword_authorities("no rule") == {"Others"}


def test_zero_shot_all_set_is_scored_not_skipped():
    scores = score_pilot("all", None, _all_set())
    got = {(s.task, s.model, s.metric): s.value for s in scores}
    assert got[("all:issue_type", "keyword", "exact_match")] == 1.0
    assert got[("all:board_authority", "keyword", "micro_f1")] == 1.0
    assert got[("all:subdecision_coarse", "prior", "accuracy")] == 2 / 3
    assert got[("all:subdecision_fine", "keyword", "accuracy")] == 2 / 3  # `Affirmed` for every case
    assert {"hamming_loss", "macro_precision", "micro_recall"} <= {m for _t, _m, m in got}
    assert {"balanced_accuracy", "weighted_f1"} <= {m for _t, _m, m in got}


def test_all_set_is_scored_per_input_setting_on_the_same_cases():
    """The paper scores base, merge and split+claim on one aligned set: each setting gets its own scores,
    every one over the same cases."""
    df = _all_set().with_columns(
        pl.concat_str("appellant_arguments", "examiner_findings", separator=" ").alias("merged_text"),
        pl.Series("claims", [[{"claim_no": 1, "text": "A method."}]] * 3))
    scores = score_pilot("all", None, df)
    tasks = {s.task for s in scores}
    for label in ("issue_type", "board_authority", "subdecision_fine", "subdecision_coarse"):
        assert {f"all:{label}", f"all:merge:{label}", f"all:split_claim:{label}"} <= tasks
    got = {(s.task, s.model, s.metric): s.value for s in scores}
    assert got[("all:merge:issue_type", "keyword", "exact_match")] == 1.0
    assert got[("all:split_claim:subdecision_fine", "prior", "macro_f1")] == got[("all:subdecision_fine", "prior",
                                                                                  "macro_f1")]


def test_ipbench_choice_items_report_answer_only_rules_that_catch_a_shortcut():
    # answer always first and the longest and the most frequent option: every shortcut rule finds it
    choice = pl.DataFrame({"question": ["Which?\nbattery electrode with lithium anode", "Which?\nwheel hub"],
                           "options": [["lithium battery electrode anode", "A61", "B6"],
                                       ["lithium battery electrode anode", "H01", "A0"]],
                           "answer": ["lithium battery electrode anode", "lithium battery electrode anode"]})
    got = {(s.model, s.metric): s.value for s in score_ipbench("3-3", None, choice)}
    assert got == {("lexical_overlap", "accuracy"): 1.0, ("chance", "accuracy"): 1 / 3,
                   ("most_frequent_option", "accuracy"): 1.0, ("option_length", "accuracy"): 1.0,
                   ("position", "accuracy"): 1.0}
    fair = choice.with_columns(pl.Series("options", [["A61", "lithium battery electrode anode", "B6"],
                                                     ["H01", "A0", "wheel"]]),
                               pl.Series("answer", ["A61", "wheel"]))
    got = {s.model: s.value for s in score_ipbench("3-3", None, fair)}  # a tie goes to the smallest option
    assert got["position"] == 0.5 and got["option_length"] == 0.5 and got["most_frequent_option"] == 0.5


def test_ipbench_open_classification_scores_exact_match_at_four_levels():
    items = pl.DataFrame({"question": ["Give the code.\nTitle: radio base station antenna",
                                       "Give the code.\nTitle: radio base station antenna array",
                                       "Give the code.\nTitle: pharmaceutical composition"],
                          "options": [[], [], []], "answer": ["H04W 88/08", "H04B 7/06", "A61K 9/20"],
                          "codes": [["H04W 88/08", "H04B 7/06"], ["H04B 7/06"], ["A61K 9/20"]]},
                         schema_overrides={"options": pl.List(pl.String)})
    assert classification_em(["H04W 88/08", "H04B 7/06"], ["h04w88/08", "H04B 7/0613"], [["H04W 88/08"], []]) == {
        "section_em": 1.0, "class_em": 1.0, "subclass_em": 1.0, "full_code_em": 0.5, "full_code_em_any": 0.5,
        "average_em": 3.5 / 4}  # the paper's score: the mean of its four levels
    got = {(s.model, s.metric): s for s in score_ipbench("1-5-1", None, items)}
    nn = {m: got[("nearest_neighbour", m)].value for m in ("section_em", "class_em", "subclass_em", "full_code_em")}
    # the two radio items take each other's code, the third the first's
    assert nn == {"section_em": 2 / 3, "class_em": 2 / 3, "subclass_em": 0.0, "full_code_em": 0.0}
    assert got[("nearest_neighbour", "full_code_em_any")].value == 1 / 3  # item 1 gets H04B 7/06, one of its codes
    assert got[("nearest_neighbour", "average_em")].value == (2 / 3 + 2 / 3 + 0 + 0) / 4
    assert got[("prior", "average_em")].primary and not got[("prior", "full_code_em")].primary


def test_ipbench_generation_items_score_lead():
    gen = pl.DataFrame({"question": ["Write the abstract.\nA base station with an antenna."],
                        "options": [[]], "answer": ["A base station with an antenna."]},
                       schema_overrides={"options": pl.List(pl.String)})
    scores = {(s.model, s.metric): s for s in score_ipbench("4-1", None, gen)}
    assert scores[("lead", "rouge_l_f")].value == 1.0 and scores[("lead", "rouge_l_f")].primary


def test_patentcr_without_test_split_scores_train():
    train = pl.DataFrame({"claims_before": [["1. A thing.", "2. The thing of claim 1."]],
                          "claims_after": [["1. A thing with a part."]]})
    scores = score_patentcr("claim_revision", train, None)
    assert {s.task for s in scores} == {"claim_revision@train"} and {s.model for s in scores} == {"copy", "truncate"}


def test_scores_differing_in_the_7th_digit_give_identical_bytes():
    a = EvalResult("patenteb", "v", [Score("title2full", "minilm", "ndcg@10", 0.7581234567)])
    b = EvalResult("patenteb", "v", [Score("title2full", "minilm", "ndcg@10", 0.7581234571)])
    assert parquet_bytes(a.frame()).sha256 == parquet_bytes(b.frame()).sha256
