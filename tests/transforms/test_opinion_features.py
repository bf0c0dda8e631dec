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
])
def test_the_board_framing_or_weighing_is_vetoed(sentence):
    assert board_veto(sentence)


def test_features_of_findings_worded_as_real_decisions_word_them():
    """features v3, on sentences of real decisions: a quotation the sentence before left open (e06), a party
    reporting after an opening phrase with no comma (e06), a party's view as the subject (r06, d04), a pronoun for
    the party (c06, e04), the final Office action cited as "FOA"."""
    e06 = ["However, in responding to appellants’ arguments (Answer, page 8) the examiner states “[i]t is the "
           "examiner’s position that the specification is not enabling for any pore size.",
           "Further, the function of the test strip is highly dependent upon the pore size.”"]
    roles = [("examiner_findings", "examiner_findings"), ("examiner_findings", "continues")]
    first, second = set(features("analysis", e06, roles, 0)), set(features("analysis", e06, roles, 1))
    assert "clause_report=examiner" in first and "poss_that=examiner" in first and "in_quote" not in first
    assert {"in_quote", "closes_quote"} <= second and "clause_report=examiner" not in second
    r06 = ["The examiner’s finding that appealed claims 8-10 are anticipated by Reed is necessarily predicated on his "
           "factual determination that certain particles described in Reed are inherently adhesive."]
    assert "poss_that=examiner" in features("analysis", r06, [("ptab_opinion", None)], 0)
    for sent in ("He concludes, “the concepts used in those secondary references would have been obvious to use.”",
                 "Second, he alleges, “[t]he Grid provides synchronization information.” (Id.)"):
        assert "pronoun=report" in features("analysis", [sent], [("ptab_opinion", None)], 0), sent
    assert "paper=act" in features("analysis", ["Smith teaches a hinge (FOA 5)."], [("ptab_opinion", None)], 0)
