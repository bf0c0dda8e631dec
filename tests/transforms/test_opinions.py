"""Rule-based opinion splitter: sections, sentence roles by cue phrases, flags, scoring."""
from __future__ import annotations

import polars as pl

from transforms.opinions import (OpinionSplit, RuleSplitter, Sentence, cue_role, f1_table, score_roles,
                                 sentences, split_frame, split_sections, strip_cover)

DECISION = """BEFORE THE PATENT TRIAL AND APPEAL BOARD

Ex parte Acme Corp.

DECISION ON APPEAL

Appellant appeals under 35 U.S.C. \u00a7 134(a). We affirm.

STATEMENT OF THE CASE

The claimed subject matter relates to a widget. Claim 1 is illustrative.

Claims 1-5 stand rejected under 35 U.S.C. \u00a7 103 as unpatentable over Smith and Jones.

ANALYSIS

Rejection under 35 U.S.C. \u00a7 103

The Examiner finds that Smith teaches a lever. Smith further describes a spring. See Final Act. 4.

Appellant argues that Smith fails to teach a lever. Appellant further contends that the Examiner relies on hindsight. \
In particular, the spring of Smith is rigid.

We are not persuaded by Appellant's argument. Smith's lever is a lever. On this record, we sustain the rejection.

Smith's figures are schematic.

DECISION

The Examiner's decision is affirmed.

AFFIRMED"""


def test_sections_by_headings():
    names = [s for s, _ in split_sections(DECISION)]
    assert names == ["caption", "decision_on_appeal", "statement_of_the_case", "analysis", "decision"]


def test_roles_cues_inheritance_and_defaults():
    res = RuleSplitter().split(DECISION)
    got = [(s.role, s.text) for s in res.sentences]
    assert got == [
        ("facts", "The claimed subject matter relates to a widget."),
        ("facts", "Claim 1 is illustrative."),
        ("examiner_findings",
         "Claims 1-5 stand rejected under 35 U.S.C. \u00a7 103 as unpatentable over Smith and Jones."),
        ("examiner_findings", "The Examiner finds that Smith teaches a lever."),
        ("examiner_findings", "Smith further describes a spring."),  # no cue: inherits within its paragraph
        ("examiner_findings", "See Final Act. 4."),  # citation abbreviation kept in one sentence
        ("appellant_arguments", "Appellant argues that Smith fails to teach a lever."),
        ("appellant_arguments", "Appellant further contends that the Examiner relies on hindsight."),  # earliest cue
        ("appellant_arguments", "In particular, the spring of Smith is rigid."),
        ("ptab_opinion", "We are not persuaded by Appellant's argument."),
        ("ptab_opinion", "Smith's lever is a lever."),
        ("ptab_opinion", "On this record, we sustain the rejection."),
        ("ptab_opinion", "Smith's figures are schematic."),  # paragraph without cue: ANALYSIS default
    ]
    assert res.flags == []
    assert res.sentences[3].cue == "examiner_findings" and res.sentences[4].cue is None


def test_no_examiner_is_flagged_not_dropped_and_missing_sections():
    text = DECISION.replace("The Examiner finds that Smith teaches a lever. ", "").replace("stand rejected", "are")
    text = text.replace("the Examiner relies", "it relies")
    res = RuleSplitter().split(text)
    assert "no_examiner_findings" in res.flags and res.sentences
    short = RuleSplitter().split("DECISION ON APPEAL\n\nThe appeal is dismissed.\n\nORDER\n\nDismissed.")
    assert {"missing_statement_of_the_case", "missing_analysis", "no_examiner_findings"} <= set(short.flags)
    dissent = RuleSplitter().split("OPINION DISSENTING\n\nI respectfully dissent.")
    assert "separate_opinion" in dissent.flags


def test_cue_priority_and_sentence_merge():
    assert cue_role("According to Appellant, the Examiner errs.") == "appellant_arguments"
    assert cue_role("We agree with the Examiner finds.") == "ptab_opinion"
    assert cue_role("The Examiner rejects claim 1.") == "examiner_findings"
    assert cue_role("Smith teaches a lever.") is None
    assert sentences("Smith (US 7,123,456 B2) teaches e.g. a lever. We agree.") == [
        "Smith (US 7,123,456 B2) teaches e.g. a lever.", "We agree."]


class EverythingIsFacts:
    """A stand-in for a model-based splitter: anything with `name` and `split` plugs in."""
    name = "facts-only"

    def split(self, text: str) -> OpinionSplit:
        return OpinionSplit([Sentence("analysis", "facts", text[:20], None)], ["analysis"], [])


def test_split_frame_with_pluggable_splitter():
    df = pl.DataFrame({"case_id": ["a", "b"], "text": [DECISION, None]})
    out = split_frame(df)
    assert out["splitter"].to_list() == ["rules-1", "rules-1"]
    assert out["examiner_findings"][0].startswith("Claims 1-5 stand rejected")
    assert out["appellant_arguments"][1] == "" and "missing_analysis" in out["flags"][1]
    other = split_frame(df, EverythingIsFacts())
    assert other["splitter"][0] == "facts-only" and other["roles"].to_list()[0] == ["facts"]


def test_score_roles_tolerates_noise_and_counts_errors():
    truth = [("facts", "The widget is round."), ("examiner_findings", "The Examiner finds that Smith teaches a lever."),
             ("ptab_opinion", "We agree with the Examiner.")]
    pred = [("facts", "The widget is round ."),
            ("appellant_arguments", "The Examiner finds that Smith teaches a lever"),
            ("ptab_opinion", "We agree with the Examiner."), ("ptab_opinion", "Unmatched extra sentence here.")]
    c = score_roles(pred, truth)
    assert c["facts"] == {"tp": 1, "fp": 0, "fn": 0}
    assert c["appellant_arguments"]["fp"] == 1 and c["examiner_findings"]["fn"] == 1
    assert c["ptab_opinion"] == {"tp": 1, "fp": 1, "fn": 0}
    table = f1_table([c])
    assert table["ptab_opinion"]["precision"] == 0.5 and table["facts"]["f1"] == 1.0
    assert table["examiner_findings"]["f1"] == 0.0


def test_strip_cover_removes_bibliographic_block():
    cover = ("UNITED STATES PATENT AND TRADEMARK OFFICE\n\nAPPLICATION NO. FILING DATE FIRST NAMED INVENTOR "
             "ATTORNEY DOCKET NO. CONFIRMATION NO.\n\n18/798,196 08/08/2024 Charlie Haagendrup 6273.043USR 6478\n\n"
             "EXAMINER\n\nDAVISON, LAURA L\n\nUNITED STATES PATENT AND TRADEMARK OFFICE\n\n")
    body, has = strip_cover(cover + "BEFORE THE PATENT TRIAL AND APPEAL BOARD\n\nEx parte X")
    assert has and body.startswith("BEFORE THE PATENT") and "DAVISON" not in body
    assert strip_cover("BEFORE THE PATENT TRIAL AND APPEAL BOARD\n\nEx parte X") == (
        "BEFORE THE PATENT TRIAL AND APPEAL BOARD\n\nEx parte X", False)
