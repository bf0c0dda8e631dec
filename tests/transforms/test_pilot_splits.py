"""PILOT's seeded splits: 80/10/10 per coarse subdecision, and a small set still gets val and test."""
from __future__ import annotations

from datetime import date

import polars as pl

from transforms.tasks.pilot import assign_splits


def _cases(n: int) -> pl.DataFrame:
    return pl.DataFrame({"case_id": [f"2020-{i:06d}" for i in range(n)], "app_id": [f"1{i:07d}" for i in range(n)],
                         "decision_date": [date(2021, 1, 1 + i % 28) for i in range(n)],
                         "subdecision_coarse": ["Affirmed" if i % 3 else "Reversed" for i in range(n)]})


def test_seven_cases_get_every_split_and_the_same_split_each_time():
    out = assign_splits(_cases(7), seed=1)
    counts = dict(out.group_by("split").len().iter_rows())
    assert set(counts) == {"train", "val", "test"} and counts["train"] == 5
    assert out.equals(assign_splits(_cases(7), seed=1))


def test_two_cases_are_left_as_the_hash_puts_them_and_large_sets_keep_their_fractions():
    assert set(assign_splits(_cases(2), seed=1)["split"]) == {"train"}
    counts = dict(assign_splits(_cases(1000), seed=1).group_by("split").len().iter_rows())
    assert 780 <= counts["train"] <= 820 and 80 <= counts["test"] <= 120 and 80 <= counts["val"] <= 120


def test_one_application_stays_in_one_split():
    df = _cases(6).with_columns(pl.lit("10000000").alias("app_id"))
    assert assign_splits(df, seed=3)["split"].n_unique() == 1


def test_alignment_links_a_ptab_application_to_its_lens_publication():
    """The PTAB writes US-14863446; Lens writes the same application as US-201514863446 (year first)."""
    from transforms.tasks.pilot import align_publications

    cases = pl.DataFrame({"case_id": ["c1", "c2"], "app_id": ["US-14863446", "US-11111111"],
                          "decision_date": [date(2019, 5, 1), date(2019, 5, 1)]})
    pubs = pl.DataFrame({"country": ["US", "US", "US"], "app_id": ["US-201514863446", "US-201514863446", "US-200511111111"],
                         "app_date": [date(2015, 9, 23), date(2015, 9, 23), date(2005, 3, 1)],
                         "pub_id": ["US-20170090000-A1", "US-9785570-B2", "US-20060000001-A1"],
                         "pub_date": [date(2017, 3, 30), date(2019, 10, 8), date(2006, 9, 1)]})
    claims = pl.DataFrame({"pub_id": ["US-20170090000-A1"], "claim_no": [1], "text": ["A lamp."],
                           "depends_on": [[]]}, schema_overrides={"depends_on": pl.List(pl.Int64)})
    out = align_publications(cases, pubs, claims).sort("case_id")
    assert out["pub_id"].to_list() == ["US-20170090000-A1", None], "latest before the decision; filed 2005: none"
    assert out["claims"][0].to_list() == [{"claim_no": 1, "text": "A lamp.", "depends_on": []}]
    assert out["app_id"].to_list() == ["US-14863446", "US-11111111"], "the case keeps the PTAB's id"


def _split_cases() -> pl.DataFrame:
    """Three split decisions (sentences + roles as any splitter gives them) with their labels."""
    rows = []
    for i, (appellant, examiner, board) in enumerate([
            ("Appellant argues that Smith lacks a hinge.", "The Examiner finds that Smith teaches a hinge.",
             "We are not persuaded."),
            ("Appellant contends that Jones is silent.", "The Examiner finds that Jones teaches a pin at col. 3.",
             "The rejection of claim 2 is reversed."),
            ("Appellant's argument is not persuasive.", "The Examiner finds that Lee teaches a cam.",
             "Lee plainly teaches the claimed cam follower in its Figure 4.")]):
        sents = ["Claim 1 is illustrative.", examiner, appellant, board]
        rows.append({"case_id": f"c{i}", "app_id": f"1000000{i}", "sentences": sents,
                     "roles": ["facts", "examiner_findings", "appellant_arguments", "ptab_opinion"],
                     "appellant_arguments": appellant, "examiner_findings": examiner})
    return pl.DataFrame(rows)


def test_merge_is_appellant_and_examiner_only_never_longer():
    from transforms.tasks.pilot import add_settings

    out = add_settings(_split_cases())
    for row in out.iter_rows(named=True):
        assert "Claim 1 is illustrative" not in row["merged_text"], "facts are not merged"
        assert len(row["merged_text"].split()) <= len(row["appellant_arguments"].split()) + \
            len(row["examiner_findings"].split())
    # the authors' code (TeamLab/pilot-bench, src/inference/*_predict.py, input_setting "merge"): the appellant's
    # list extended by the examiner's; here the examiner's sentence comes first in the decision
    assert out["merged_text"][0] == ("Appellant argues that Smith lacks a hinge. "
                                     "The Examiner finds that Smith teaches a hinge."), "appellant, then examiner"
    assert all(len(m.split()) == len(a.split()) + len(e.split()) for m, a, e in out.select(
        "merged_text", "appellant_arguments", "examiner_findings").iter_rows()), "the same words as Base: no rewrite"


def test_refuse_leaks_counts_board_voice_and_own_opinion_sentences():
    from transforms.tasks.pilot import add_settings, refuse_leaks

    df = add_settings(_split_cases())
    # case c1: the splitter put the Board's own sentence into the examiner's role as well
    df = df.with_columns(pl.when(pl.col("case_id") == "c1").then(pl.lit(
        "Lee plainly teaches the claimed cam follower in its Figure 4.")).otherwise(pl.col("examiner_findings"))
        .alias("examiner_findings"))
    df = df.with_columns(pl.when(pl.col("case_id") == "c1").then(pl.col("sentences").list.concat(
        pl.lit(["Lee plainly teaches the claimed cam follower in its Figure 4."]))).otherwise(pl.col("sentences")),
        pl.when(pl.col("case_id") == "c1").then(pl.col("roles").list.concat(pl.lit(["ptab_opinion"])))
        .otherwise(pl.col("roles")))
    counts: dict[str, int] = {}
    kept, refused = refuse_leaks(df, counts)
    assert kept["case_id"].to_list() == ["c0"] and counts["leak_refused"] == 2
    assert refused[0].startswith("c1: examiner_findings: sentence of the board's opinion")
    assert refused[1].startswith("c2: appellant_arguments: board voice (persuasive)")


def test_unlabelled_cases_are_dropped_and_counted():
    from transforms.tasks.pilot import drop_unlabelled

    df = pl.DataFrame({"case_id": ["a", "b", "c"], "subdecision_fine": ["Affirmed", None, "Reversed"],
                       "issue_type": [["103"], ["101"], []]})
    counts: dict[str, int] = {}
    assert drop_unlabelled(df, counts)["case_id"].to_list() == ["a"]
    assert counts == {"no_subdecision_in_record": 1, "no_issue_type_in_record": 1}


def _task_frame(n: int, seed: int, unaligned_every: int) -> pl.DataFrame:
    """`n` split cases with every task column; every `unaligned_every`-th case has no linked publication."""
    return assign_splits(_cases(n), seed=seed).with_columns(
        pl.lit("2020").alias("appeal_number"), pl.lit("pdf").alias("text_origin"),
        pl.lit([]).cast(pl.List(pl.String)).alias("flags"),
        pl.lit(None, pl.Struct({"subdecision": pl.String})).alias("label_source"),
        pl.lit("Appellant argues.").alias("appellant_arguments"), pl.lit("The Examiner finds.").alias(
            "examiner_findings"), pl.lit("Appellant argues. The Examiner finds.").alias("merged_text"),
        pl.when(pl.int_range(n) % unaligned_every == 0).then(None).otherwise(pl.lit("US-1-B2")).alias("pub_id"),
        pl.lit(None, pl.List(pl.String)).alias("claims"), pl.lit(["103"]).alias("issue_type"),
        pl.lit(["Others"]).alias("board_authority"), pl.col("subdecision_coarse").alias("subdecision_fine"))


def test_all_is_one_eval_split_and_no_val_or_test_case_is_in_any_train_split():
    from transforms.tasks.pilot import LABELS, META, build_tasks, check_no_case_leak, check_no_train_case_evaluated

    n = 30
    df = _task_frame(n, seed=5, unaligned_every=4)
    tasks = build_tasks(df)
    assert set(tasks["all"]) == {"eval"} and tasks["all"]["eval"].height == n
    assert set(tasks["all"]["eval"].columns) >= {*META, *LABELS, "merged_text", "claims"}
    assert all(set(tasks[t]) == {"train", "val", "test"} for t in ("base", "merge", "split_claim"))
    assert check_no_case_leak(tasks) == [] and check_no_train_case_evaluated(tasks) == []
    # a fine-tuning set that scored on a train case is caught across tasks
    leaked = {**tasks, "merge": {**tasks["merge"], "test": tasks["base"]["train"].head(1)}}
    problems = check_no_train_case_evaluated(leaked)
    assert problems and problems[0].startswith("merge/test: case_id")


def test_the_three_settings_hold_the_same_aligned_cases():
    """The paper scores base, merge and split+claim on its aligned cases: unaligned ones are dropped and
    counted, and every setting's split holds the same case ids."""
    from transforms.tasks.pilot import build_tasks, keep_aligned

    n = 24
    df = _task_frame(n, seed=3, unaligned_every=3)
    counts: dict[str, int] = {}
    tasks = build_tasks(keep_aligned(df, counts))
    assert counts == {"aligned": 16, "unaligned": 8}
    assert tasks["all"]["eval"]["pub_id"].null_count() == 0 and tasks["all"]["eval"].height == 16
    for split in ("train", "val", "test"):
        ids = [set(tasks[t][split]["case_id"]) for t in ("base", "merge", "split_claim") if split in tasks[t]]
        assert len(ids) == 3 and ids[0] == ids[1] == ids[2], split


def test_with_nothing_to_align_to_every_case_is_kept_and_split_claim_is_not_built():
    """PTAB ingested without USPTO publications: dropping every case would publish nothing; all are kept in base
    and merge, counted, and split_claim (which needs the claims) is left out."""
    from transforms.tasks.pilot import build_tasks, keep_aligned

    df = _task_frame(12, seed=5, unaligned_every=3).with_columns(pl.lit(None, pl.String).alias("pub_id"))
    counts: dict[str, int] = {}
    tasks = build_tasks(keep_aligned(df, counts))
    assert counts == {"aligned": 0, "unaligned_kept": 12}
    assert tasks["all"]["eval"].height == 12 and "split_claim" not in tasks
    assert sum(t.height for t in tasks["base"].values()) == 12


def test_reexamination_appeals_are_excluded_as_in_the_paper():
    from datetime import date

    from transforms.tasks.pilot import filter_decisions

    dec = pl.DataFrame({"case_id": ["a", "b", "c", "d"], "app_id": ["US-13123456", "US-90012345", "US-95001234",
                                                                    "US-29012345"],
                        "decision_date": [date(2015, 1, 1)] * 4, "text": ["x"] * 4, "has_cover": [True] * 4,
                        "appeal_number": ["1", "2", "3", "4"], "outcome": ["Affirmed"] * 4,
                        "decision_type": ["Decision"] * 4, "document_name": ["d1", "d2", "d3", "d4"]})
    counts: dict[str, int] = {}
    kept = filter_decisions(dec, counts)
    assert kept["case_id"].to_list() == ["a", "d"] and counts["reexamination_appeals"] == 2


def test_card_readings_count_labels_from_the_text_and_say_when_nothing_aligned():
    """Every reading the PILOT card states carries its count: labels read from the decision text (the paper
    reads the metadata), the Merge ratio, and a build with nothing to align says the settings are not compared."""
    from patentfactory.stages.build_pilot import _paper_readings

    df = pl.DataFrame({"decision_date": [date(2010, 1, 1), date(2008, 1, 1), date(2012, 1, 1)],
                       "label_source": [{"subdecision": "api", "issue_type": "order", "board_authority": "api"},
                                        {"subdecision": "last_page", "issue_type": "api+order",
                                         "board_authority": "api"},
                                        {"subdecision": "api", "issue_type": "api", "board_authority": "api"}]})
    words = {"appellant_arguments": 30.0, "examiner_findings": 20.0, "merged_text": 50.0}
    text = _paper_readings(df, {"unaligned": 4, "aligned": 3}, words)
    assert "2 of 3 cases have an issue type from the order" in text and "gives it: 1 of 3 cases" in text
    assert "`merged_text` is 100.0 % of Base's words" in text and "4 cases without a linked publication" in text
    alone = _paper_readings(df, {"aligned": 0, "unaligned_kept": 3}, words)
    assert "all 3 cases are kept in base and merge and split_claim is not built" in alone
