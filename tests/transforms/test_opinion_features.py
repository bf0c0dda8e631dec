"""The trained route's sentence features and its Board-voice veto, on sentences of real Board decisions
(tests/transforms/fixtures/ptab_real): citations as the decisions write them, the party that is the subject, and
the Board judging a party without a first person, which the veto keeps out of every input."""
from __future__ import annotations

import json

import pytest

from patentfactory.stages import llm_routes
from transforms.opinion_classifier import ClassifierSplitter
from transforms.opinion_features import board_veto, closing_paper, features


@pytest.mark.parametrize("sentence, party", [
    ('For his part, the "[a]ppellant would certainly consider the filing of an appropriate terminal disclaimer." '
     '(Appeal Br. at 5.)', "appellant_arguments"),
    ("According to the examiner, “the description must allow those skilled in the art to recognize what regions "
     "would need to be retained” (EA 6).", "examiner_findings"),
    ("The examiner notes that protrusion 94 of Roy clearly provides the gap [answer, page 9].", "examiner_findings"),
    ("the rationale for combining the references is nonexistent (Br5-7; RBr4-7).", "appellant_arguments"),
    ("The claims on appeal relate to hangers for supporting drip hoses (Spec. 1, ll. 11-20).", None),
])
def test_the_paper_a_closing_citation_names(sentence, party):
    assert closing_paper(sentence) == party


@pytest.mark.parametrize("sentence", [
    "The Examiner has the better position.",
    "Appellant is correct that Example 2 has a ceramic layer on both sides of the film.",
    "The Examiner has failed to set forth a prima facie case.",
    "In the discussion of this rejection, the examiner did not refer to any combination of teachings.",
    "The appellants’ contrary view is clearly erroneous.",
    "The problem with the examiner’s position is that it confuses the written description requirement with enablement.",
])
def test_the_board_judging_a_party_is_vetoed(sentence):
    assert board_veto(sentence)


@pytest.mark.parametrize("sentence", [
    "Appellants argue that the examiner has failed to set forth a prima facie case (Br. 6).",
    "The examiner responds that Smith clearly teaches a spacer having two fingers 170 [answer, page 10].",
    "Appellants’ arguments in the Briefs assert (Brief, at 10) that Fults is not concerned with the relationship.",
    "Appellants argue that Ogata provides no guidance as to the ratio (Reply Br. 3).",
    "Appellants contend that the answer does not address claim 5 (Reply Br. 2).",
])
def test_a_partys_own_words_are_not_vetoed(sentence):
    assert board_veto(sentence) is None


def test_the_subject_party_and_its_verb_kind():
    sents = ["With respect to claim 5, appellants argue that merely having a seating surface does not mean a datum "
             "surface.", "They assert that the corrugations of spacer plates 170 in Smith are different from fingers.",
             "The examiner responds that there is no difference [answer, page 9]."]
    roles = [("appellant_arguments", "appellant_arguments"), ("appellant_arguments", "continues"),
             ("examiner_findings", "examiner_findings")]
    assert {"subj=appellant", "subj=appellant|report"} <= set(features("analysis", sents, roles, 0))
    second = set(features("analysis", sents, roles, 1))
    assert "prev_subj=appellant|report" in second and "par_subj=appellant|report" in second
    assert {"subj=examiner|report", "tail=examiner_findings", "prev_rule=appellant_arguments"} <= set(
        features("analysis", sents, roles, 2))


def test_a_bare_citation_after_the_boards_sentence_stays_the_boards():
    """A real decision (r30): the Board's "they do not ..." followed by "See the Reply Brief, page 1."."""
    route = ClassifierSplitter({**json.loads(llm_routes.CLASSIFIER_MODEL.read_text(encoding="utf-8")), "threshold": 0.0})
    par = ("Although the appellants refer to the advantage asserted in the specification, they do not explain why "
           "the claimed ratio is critical. See the Reply Brief, page 1.")
    assert [s.role for s in route.split(f"ANALYSIS\n\n{par}").sentences] == ["ptab_opinion", "ptab_opinion"]


@pytest.mark.parametrize("sentence", [
    # r29, r05, b05: the Board weighing a party against itself, framing the issue, commenting on the briefing
    "Further, even if there were some reason to combine these references, even the examiner admits that, together, "
    "the Halverson and DeBusk references still do not teach the claimed subject matter.",
    "The issue is whether Appellants have shown that the Examiner erred in holding the combination of Keller and "
    "Vitali would have rendered the subject matter of claim 2 obvious.",
    "The examiner’s subsequent reliance upon the Response at pages 4 and 5 of the answer is only briefly mentioned in "
    "the entire discussion in the brief and reply brief.",
    # h44, h03, r20 (the batch-6 round): what a party or a reference lacks, unreported; a paper that does not do
    # something; the Board weighing a fact's weight
    "However, optimization is only obvious for result effective variables, and the examiner has provided no evidence "
    "that the ratio of M/N is such a result effective variable.",
    "However, Ogata provides no guidance as to how one would select a ratio of evaporation atoms to ions.",
    "The present answer does not actually reflect any commentary regarding the argument at pages 8 and 9 of the "
    "principal brief on appeal.",
    "While it is true that Sweeney does not explicitly disclose charge providing steps, this is not dispositive.",
])
def test_the_board_framing_or_weighing_is_vetoed(sentence):
    assert board_veto(sentence)


def test_the_final_office_action_cited_as_foa_is_the_examiners_paper():
    """"FOA 5" (the final Office action) names the examiner's paper, like "Final Act. 5" (features v3)."""
    assert "paper=act" in features("analysis", ["Smith teaches a hinge (FOA 5)."], [("ptab_opinion", None)], 0)
    assert closing_paper("Smith teaches a hinge (FOA 5).") == "examiner_findings"


def test_the_veto_takes_the_board_forms_the_classifier_put_into_inputs_on_blind_batch_7():
    """classifier-5 put these Board sentences of batch 7 (j02, j15, j33, j47, j59, j70) into an input; the veto
    takes them now, and a party's argument in the same words (or a claim reproduced below) is not vetoed."""
    board = ["The examiner’s only statement with regard to the anticipation appears at page 3 of the Answer and is "
             "reproduced in full below:",
             "Third, the examiner has articulated no convincing reason for modifying Papp in a way that would result "
             "in the claimed subject matter.",
             "A claimed invention is unpatentable if the differences between it and the prior art are such that the "
             "subject matter as a whole would have been obvious. 35 U.S.C. § 103(a)(1995); Graham v. John Deere Co., "
             "383 U.S. 1, 14, 148 USPQ 459, 465 (1966).",
             "As evident by a review of page 6 of appellants’ specification, the gum ingredients of the applied "
             "references correspond to appellants’ animal digestible elastomer.",
             "Again, that the specification does not describe the complete chemical identity of Castall S-1332 is "
             "insufficient to satisfy the examiner's initial burden of proof as to lack of enablement.",
             "The examiner has mentioned motivation in but two places in his Answer."]
    assert all(board_veto(s) for s in board), [s for s in board if not board_veto(s)]
    party = ["Appellants argue that the examiner has articulated no convincing reason for modifying Papp (Br. 7).",
             "Appellants contend that In re Fine, 837 F.2d 1071, 5 USPQ2d 1596 (Fed. Cir. 1988), controls (Br. 9).",
             "Appellants argue that the Examiner has not met the initial burden of establishing enablement (Br. 4).",
             "Claim 1 is reproduced below:"]
    assert [board_veto(s) for s in party] == [None] * len(party), party
