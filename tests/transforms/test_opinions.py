"""Rule-based opinion splitter: sections, sentence roles by cue phrases, flags, scoring."""
from __future__ import annotations

import polars as pl

from common.ptab_cover import strip_cover
from transforms.opinions import (BOARD_VOICE, OpinionSplit, RuleSplitter, Sentence, board_voice, cue_role, f1_table,
                                 leak_check, score_roles, sentences, split_frame, split_sections)

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
        ("examiner_findings", "Smith further describes a spring."),  # continues the Examiner's paraphrase
        ("examiner_findings", "See Final Act. 4."),  # citation abbreviation kept in one sentence
        ("appellant_arguments", "Appellant argues that Smith fails to teach a lever."),
        ("appellant_arguments", "Appellant further contends that the Examiner relies on hindsight."),  # earliest cue
        ("appellant_arguments", "In particular, the spring of Smith is rigid."),  # continuation marker
        ("ptab_opinion", "We are not persuaded by Appellant's argument."),
        ("ptab_opinion", "Smith's lever is a lever."),  # after the Board's sentence: no attribution to inherit
        ("ptab_opinion", "On this record, we sustain the rejection."),
        ("ptab_opinion", "Smith's figures are schematic."),  # paragraph without cue: ANALYSIS default
    ]
    assert res.flags == []
    assert res.sentences[3].cue == "examiner_findings" and res.sentences[4].cue == "continues"
    assert res.sentences[5].cue == "citation" and res.sentences[9].cue == "board:first_person"


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
    assert cue_role("Appellant's argument is not persuasive.") == "ptab_opinion"  # Board voice beats the cue
    assert cue_role("Smith lacks a hinge. Appeal Br. 7.") == "appellant_arguments"  # the party's paper cited
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
    assert out["splitter"].to_list() == [RuleSplitter.name] * 2
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


ISSUE_EXAMPLES = """STATEMENT OF THE CASE

Claims 1-7 stand rejected under 35 U.S.C. \u00a7 103 over Smith. Final Act. 3.

ANALYSIS

Appellant argues that Smith lacks a hinge. Appeal Br. 5. Appellant's argument is not persuasive. \
The rejection of claim 1 is therefore sustained.

The Examiner finds that Smith teaches a lever. Final Act. 4. The rejection of claims 5-7 is reversed.

Appellant contends that the pin is welded. Accordingly, Appellant's position is untenable.

The Examiner relies on Jones for the spring.

Smith's spring is a coil. Jones is silent about coils. Appeal Br. 8.
"""


def test_board_voice_is_never_an_input_whatever_precedes_it():
    """The sentences a researcher found in the wrong role, in the voice of real decisions."""
    roles = {s.text: s.role for s in RuleSplitter().split(ISSUE_EXAMPLES).sentences}
    for sent in ("Appellant's argument is not persuasive.", "The rejection of claim 1 is therefore sustained.",
                 "The rejection of claims 5-7 is reversed.", "Accordingly, Appellant's position is untenable."):
        assert roles[sent] == "ptab_opinion", sent
    assert roles["Appeal Br. 5."] == "appellant_arguments" and roles["Final Act. 4."] == "examiner_findings"


def test_role_is_never_inherited_across_a_paragraph():
    res = {s.text: s for s in RuleSplitter().split(ISSUE_EXAMPLES).sentences}
    # the paragraph after the Examiner's opens without a cue: ANALYSIS default, even though it cites a brief
    assert res["Smith's spring is a coil."].role == "ptab_opinion" and res["Smith's spring is a coil."].cue is None
    # within a paragraph a sentence followed by a citation of the appellant's brief continues nothing here:
    # the sentence before it is the Board's, so there is no attributed paraphrase to continue
    assert res["Jones is silent about coils."].role == "ptab_opinion"


def test_board_voice_patterns_and_their_names():
    cases = {"We are not persuaded of error.": "first_person",
             "Appellant has not apprised us of error.": "first_person",
             "Appellant's arguments are unpersuasive.": "persuasive",
             "The Examiner's decision is affirmed.": "disposition", "REVERSED": "disposition",
             "Accordingly, the rejection stands.": "accordingly", "As discussed above, Smith is analogous.":
             "own_reasoning", "Appellant does not dispute that Smith teaches a hinge.": "board_evaluation",
             "Appellant's argument is not commensurate with the scope of claim 1.": "board_evaluation",
             "As the Examiner correctly finds, Smith teaches a hinge.": "board_evaluation",
             # forms of real BPAI decisions (blind batch 6) that rules-9 and classifier-4 put into an input
             "This argument does not respond to what appears to be a reasonable finding by the examiner (Answer, p. 5).":
             "judges_argument",
             "Appellant’s argument thus contests the underlying, implicit finding that Miller is analogous art.":
             "judges_argument",
             "Furthermore, the quoted portion of this reference does not support appellant’s contention that Rateau "
             "should not be applied.": "judges_argument",
             "Appellant cites a reference on page 2 of the Reply Brief but fails to make this reference of record.":
             "judges_argument",
             "In making this finding (see pages 4 and 5 in the answer), the examiner at times erroneously refers to "
             "reference numerals 66 and 68.": "judges_argument",
             "Insofar as the written description requirement is concerned, the examiner has the initial burden of "
             "presenting evidence.": "legal_standard",
             "When an examiner relies upon a theory of inherency, the examiner must provide a basis in fact.":
             "legal_standard"}
    for sent, name in cases.items():
        assert board_voice(sent) == name, sent
    assert set(cases.values()) == set(BOARD_VOICE)
    for sent in ("Appellant argues that the Examiner erred in finding that Smith teaches a hinge.",
                 "The Examiner finds that U.S. Patent 7,123,456 teaches a lever.", "Claim 1 is illustrative.",
                 "Appellants contend that the Examiner’s finding is not supported by Smith (Appeal Br. 5).",
                 "The Examiner responds that Smith teaches the ratio (Ans. 4).",
                 "Appellants argue that Jones discloses no hinge and that the rejection fails (Br. 6)."):
        assert board_voice(sent) is None, sent


def test_sentencizer_cuts_after_quotes_and_id_and_keeps_case_citations_whole():
    assert sentences('The Examiner finds a pin is "a hinge." Id. According to the Examiner, it pivots. Id. at 5. '
                     'Appellant argues.') == ['The Examiner finds a pin is "a hinge."', "Id.",
                                              "According to the Examiner, it pivots.", "Id. at 5.", "Appellant argues."]
    assert sentences("See In re Kahn, 441 F.3d 977, 988 (Fed. Cir. 2006). We agree.") == [
        "See In re Kahn, 441 F.3d 977, 988 (Fed. Cir. 2006).", "We agree."]
    assert sentences("Claim 1 is illustrative. 1. A lamp comprising a bulb.") == [
        "Claim 1 is illustrative.", "1. A lamp comprising a bulb."]


class EverythingIsAppellant:
    """A stand-in for a model splitter that gets it wrong: the leak check must catch it all the same."""
    name = "everything-appellant"

    def split(self, text: str) -> OpinionSplit:
        return OpinionSplit([Sentence("analysis", "appellant_arguments", s, None)
                             for s in sentences(text.split("ANALYSIS", 1)[-1])], ["analysis"], [])


def test_leak_check_is_independent_of_the_splitter():
    good = RuleSplitter().split(ISSUE_EXAMPLES)
    inputs = {r: good.text_of(r) for r in ("appellant_arguments", "examiner_findings")}
    assert leak_check(inputs, [s.text for s in good.sentences if s.role == "ptab_opinion"]) == []
    bad = EverythingIsAppellant().split(ISSUE_EXAMPLES)
    problems = leak_check({"appellant_arguments": bad.text_of("appellant_arguments")}, [])
    assert any("board voice (persuasive)" in p for p in problems) and any("(disposition)" in p for p in problems)
    # a sentence of the case's own opinion inside an input, though it has no Board-voice pattern
    own = "Smith's spring is plainly a coil spring of the claimed kind."
    assert leak_check({"examiner_findings": f"The Examiner finds a lever. {own}"}, [own]) == [
        f"examiner_findings: sentence of the board's opinion: {own}"]
    assert leak_check({"examiner_findings": "Smith is a coil."}, ["Smith is a coil."]) == [], "short: not counted"
