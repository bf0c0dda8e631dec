"""The splitter and the verdict reader on real Board decisions (tests/transforms/fixtures/ptab_real, copied from
public pages, every sentence and every outcome labelled by hand): what the set covers, no Board sentence in an
input, the scores the card commits, the verdict of every decision, and the real forms that the rules missed."""
from __future__ import annotations

from collections import Counter

import polars as pl
import pytest

from transforms.opinion_reference import REFERENCE_DIR, load_real_set, score_real
from transforms.opinions import INPUT_ROLES, RuleSplitter, board_voice, leak_check, sentences, split_sections
from transforms.ptab_labels import add_labels, outcome_from_order, subdecision_fine, verdict_passage

REAL = REFERENCE_DIR / "ptab_real"


@pytest.fixture(scope="module")
def real() -> list[dict]:
    return load_real_set(REAL)


def test_the_set_covers_eras_outcomes_statutes_with_sources_and_a_blind_third(real):
    assert len(real) >= 40
    assert {d["meta"]["era"] for d in real} == {"BPAI", "PTAB"}
    assert all(d["meta"]["source"].startswith("https://") for d in real)
    assert sum(d["blind"] for d in real) >= len(real) // 3
    outcomes = Counter(d["outcome"] for d in real if d["outcome"])
    assert {"Affirmed", "Reversed", "Affirmed-in-Part", "Affirmed with New Ground of Rejection",
            "Affirmed-in-Part with New Ground of Rejection", "Reversed with New Ground of Rejection"} <= set(outcomes)
    assert {"101", "102", "103", "112"} <= {s.strip() for d in real for s in d["meta"]["statutes"].split(",")}
    roles = Counter(r for d in real for r, _ in d["truth"])
    assert set(roles) == {"appellant_arguments", "examiner_findings", "ptab_opinion", "facts"}
    assert roles["appellant_arguments"] >= 30 and roles["examiner_findings"] >= 15 and sum(roles.values()) >= 300


def test_no_board_sentence_of_a_real_decision_reaches_an_input_and_the_leak_check_agrees(real):
    assert score_real(real, RuleSplitter())["leaked"] == []
    for d in real:
        res = RuleSplitter().split(d["text"])
        inputs = {r: res.text_of(r) for r in INPUT_ROLES}
        assert leak_check(inputs, [s.text for s in res.sentences if s.role == "ptab_opinion"]) == [], d["id"]


def test_the_rules_reach_the_target_on_the_decisions_they_were_written_against(real):
    """The blind batches' figures are the card's (test_opinion_reference); here the dev decisions the rules were
    written against (f*/g*, labelled later to train the classifier route on, are not among them)."""
    roles = score_real([d for d in real if not d["blind"] and d["id"][0] not in "fg"], RuleSplitter())["roles"]
    for role in INPUT_ROLES:
        assert roles[role]["precision"] >= 0.9 and roles[role]["recall"] >= 0.85, (role, roles[role])


def test_blind_batch_5_is_fresh_and_mixed(real):
    """The card's blind figure comes from batch 5: 15+ real decisions of both eras, several outcomes and statutes,
    labelled before any splitter ran on it (its own commit comes before the route it was scored with)."""
    batch = [d for d in real if d["meta"].get("batch") == "5"]
    assert len(batch) >= 15 and all(d["blind"] for d in batch)
    assert {d["meta"]["era"] for d in batch} == {"BPAI", "PTAB"}
    assert len({d["outcome"] for d in batch if d["outcome"]}) >= 4
    assert {"102", "103", "112"} <= {s.strip() for d in batch for s in d["meta"]["statutes"].split(",")}
    sources = [d["meta"]["source"] for d in real]
    assert len(set(sources)) == len(sources), "no page twice"


def test_every_real_verdict_is_read_from_where_the_decision_states_it(real):
    for d in real:
        passage, where = verdict_passage(d["text"])
        stated = outcome_from_order(passage) if where else None
        assert (subdecision_fine(stated) if stated else None) == d["outcome"], d["id"]
        assert (where or "none") == d["verdict"], d["id"]


def test_add_labels_names_the_verdicts_source(real):
    df = pl.DataFrame({"outcome": [None] * len(real), "issue_types": [[] for _ in real],
                       "statutes": [["35 USC 103"] for _ in real], "text": [d["text"] for d in real]},
                      schema_overrides={"outcome": pl.String, "issue_types": pl.List(pl.String),
                                        "statutes": pl.List(pl.String)})
    out = add_labels(df)
    for d, fine, src in zip(real, out["subdecision_fine"], out["label_source"].struct.field("subdecision")):
        assert (fine, src) == ((d["outcome"], d["verdict"]) if d["outcome"] else (None, None)), d["id"]


# ---------- the classes of real prose the rules missed, each in the words of a real decision ----------

def roles_of(text: str) -> dict[str, str]:
    return {s.text: s.role for s in RuleSplitter().split(text).sentences}


def test_real_headings_open_their_sections():
    names = lambda text: [s for s, _ in split_sections(text)]  # noqa: E731
    assert names("DECISION ON APPEAL\n\nWe affirm.\n\nSTATEMENT OF THE CASE1\n\nClaim 1 is illustrative.") == [
        "caption", "decision_on_appeal", "statement_of_the_case"], "a footnote marker glued to the heading"
    assert names("BACKGROUND\n\nThe invention is a lid.\n\nOPINION\n\nAppellants argue.\n\nDECISION\n\nAFFIRMED") == [
        "caption", "statement_of_the_case", "analysis", "decision"], "BPAI: OPINION opens the analysis"
    assert names("STATEMENT OF THE CASE\n\nThe invention is a lid.\n\nII. Obviousness\n\nAppellants argue.") == [
        "caption", "statement_of_the_case", "analysis"]
    assert names("STATEMENT OF THE CASE\n\nThe invention is a lid.\n\nF. Analysis\n\nAppellants argue.")[-1] == "analysis"
    # the headings of real decision PDFs (benchmarks/ptab_pdf_paragraphs: the route's text layers)
    assert names("STATEMENT OF CASE\n\nThe invention is a lid.\n\nANALYSIS\n\nAppellants argue.\n\nDECISION/ORDER\n\n"
                 "AFFIRMED") == ["caption", "statement_of_the_case", "analysis", "decision"]
    assert names("STATEMENT  OF  CASE\n\nThe invention is a lid.\n\nANALYSIS\n\nAppellants argue.\n\nDECISION / ORDER"
                 "\n\nAFFIRMED") == ["caption", "statement_of_the_case", "analysis", "decision"]
    assert verdict_passage("ANALYSIS\n\nAppellants argue.\n\nDECISION/ORDER\n\nThe rejection of claim 1 is affirmed. "
                           "We enter a new ground of rejection of claim 2 under 37 C.F.R. § 41.50(b).")[1] == "order"
    assert names("ANALYSIS\n\nAppellants argue.\n\nBACKGROUND\n\nThe Board notes.") == ["caption", "analysis"], \
        "a statement-of-the-case heading inside the analysis is a sub-heading"


def test_board_forms_that_reached_an_input_on_blind_batch_5_are_the_boards():
    """rules-7 put these Board sentences of batch 5 (and one of the dev decisions) into an input; rules-8's Board
    voice takes them, and a party's argument that names the same verbs stays the party's."""
    board = ["The Examiner cites Meyer as teaching a “polymer binder” (final rejection, page 3, line 6) or a "
             "“polymeric binder” (Answer, page 4, line 12); but never indicates which component of Meyer’s composition "
             "he regards as being said “polymer” or “polymeric” binder.",
             "It would seem, absent evidence to the contrary, that “only the relative motion between the two blades has "
             "any bearing on the quality of the cut” (Answer 13, penultimate para.).",
             "Concerning the Li disclosure, Appellants have not refuted the Examiner’s factual finding that the reference "
             "demonstrates that the quality of the cut improves with a larger blade radius (Answer 15, second para.).",
             "As correctly indicated by the appellants in their brief, the ordinary and accepted dictionary definition of "
             "the term “congruent” reveals that there is no merit in the examiner’s position (answer, page 5).",
             "The examiner also ignores Thom’s objective (column 2, lines 4-24) of avoiding exactly what the examiner "
             "relies upon Thom as teaching."]
    assert all(board_voice(t) for t in board)
    roles = roles_of("ANALYSIS\n\n" + " ".join(board))
    assert set(roles.values()) == {"ptab_opinion"}, roles
    assert roles_of("ANALYSIS\n\nAppellants argue that the examiner ignores the teaching of Smith (Br. 5).") == {
        "Appellants argue that the examiner ignores the teaching of Smith (Br. 5).": "appellant_arguments"}
    # a footnote marker glued to a sentence's last word no longer merges the Board's next sentence into a party's
    assert sentences("Claims 9, 10 and 13 stand rejected under 35 U.S.C. § 103 as being unpatentable over Jones, Rosen "
                     "and Chung.1 Rather than reiterate the arguments of Appellants and the Examiner, reference is made "
                     "to the briefs.")[1].startswith("Rather than")


def test_lower_case_and_named_parties_and_more_verbs():
    text = ("ANALYSIS\n\nWith respect to claim 5, appellants argue that Roy lacks a datum surface [brief, pages 10-11]. "
            "The examiner responds that there is no difference [answer, page 9].\n\n"
            "In support of this position, the appellants rely on Attachment “G” in which Figure 2.16 shows a "
            "transducer.\n\nBayer argues that the claims are definite.\n\n"
            "The Examiner similarly concluded that the ranges overlap.")
    got = roles_of(text)
    assert [got[s] for s in got] == ["appellant_arguments", "examiner_findings", "appellant_arguments",
                                     "appellant_arguments", "examiner_findings"]


def test_board_remarks_on_what_a_party_did_not_argue_are_the_boards():
    for sent in ("Appellants have not argued the claims separately. Br. 4.",
                 "Appellants have thus not shown that any of the features of instant claim 1 are absent.",
                 "Although the appellants refer to the advantage, they do not argue, much less show, it to be "
                 "unexpected.", "Initially, we note that Appellants have presented no arguments directed to it.",
                 "In the reply brief, appellants argue claim 6 (RBr9-10), which had not been argued in the main brief.",
                 "The examiner's opinion is conclusory and unsupported by facts."):
        assert board_voice(sentences(sent)[0]), sent
    text = ("ANALYSIS\n\nAs this record now stands, appellant relies upon objective evidence of nonobviousness. "
            "However, as appellant points out on page 2 of the Reply Brief, it is unclear what the examiner means.")
    assert set(roles_of(text).values()) == {"ptab_opinion"}, "a party named inside the Board's own clause"


def test_record_citations_as_real_decisions_write_them():
    cases = {"Ruiz is not analogous art (Brief at 14.)": "appellant_arguments",
             "Ruiz teaches a spout (Sub. Answer, 4).": "examiner_findings",
             "The spout pivots [answer, page 9].": "examiner_findings",
             "Thus the lid is not a closure (Br5-7; RBr4-7).": "appellant_arguments"}
    for sent, role in cases.items():
        assert len(sentences(sent)) == 1, sent
        assert roles_of(f"ANALYSIS\n\nAppellant argues that Smith is silent. Br. 3.\n\n{sent}")[sent] == role, sent
    # a footnote marker glued to a citation no longer merges the party's sentence with the Board's
    assert sentences("Appellant argues that Smith is silent (Br. 4-6).4 First, we note that Smith is a lid.") == [
        "Appellant argues that Smith is silent (Br. 4-6).4", "First, we note that Smith is a lid."]
    # spaCy leaves the "(" of a citation on the sentence before it; the citation stays whole, with its sentence
    assert sentences("The party is IBM. (Appeal Br. 3.) Claims 1 and 9 are independent.") == [
        "The party is IBM. (Appeal Br. 3.)", "Claims 1 and 9 are independent."]


def test_a_quoted_brief_block_is_the_partys_even_under_findings_of_fact():
    text = ("ANALYSIS\n\nB. Findings of Fact\n\nThe record supports the following findings of fact.\n\n"
            "2. Appellants argue that Claim 2 specifies that the plate \"is located on the lower portion.\" The "
            "lower surface of the cavity is not located in the lower half. Thus, in what sense is it a lower "
            "portion? Br. 23.\n\n3. Keller discloses a plate.")
    got = roles_of(text)
    assert got["The record supports the following findings of fact."] == "ptab_opinion"
    assert got["3. Keller discloses a plate."] == "ptab_opinion"
    assert [r for s, r in got.items() if "lower" in s or s == "Br. 23."] == ["appellant_arguments"] * 4


def test_examiner_findings_as_blind_batches_word_them():
    """rules-9: what the blind batches 1-5 showed the rules missing, each in a real decision's words (d01, d06, d04,
    e02, e06, f09): a finding opened by a phrase that ends at a citation or runs through "§ 112,", "is of the
    opinion", "It is the examiner's position that", "sets forth", "attempts to", what a rejection is based on."""
    text = ("ANALYSIS\n\nAt page 8 of the Answer, the examiner sets forth three reasons for finding the claims "
            "indefinite. We will consider each in turn.\n\n"
            "Considering first the rejection of claim 2 under the second paragraph of § 112, the examiner is of the "
            "opinion that this claim is indefinite because “the trailing edge” lacks an antecedent basis.\n\n"
            "In the present case, the examiner has not satisfied this burden. It is the examiner’s position that the "
            "phrase, “maintaining the saturation substantially throughout” is indefinite as use of this phrase does "
            "not clearly set forth the limits of the claims. See Answer, page 4.\n\n"
            "It is appellants’ position that support for the criticized language can be found at pages 16 and 17 of "
            "the present specification.\n\n"
            "With respect to independent claims 1 and 4, the Examiner attempts to read the various limitations on "
            "the disclosure of Fults.\n\n"
            "There are two rejections of all the claims under the first paragraph of 35 U.S.C. § 112. Rejection II "
            "is based solely on the requirement for an enabling disclosure.")
    got = [(s.role, s.text[:24]) for s in RuleSplitter().split(text).sentences]
    assert got == [("examiner_findings", "At page 8 of the Answer,"), ("ptab_opinion", "We will consider each in"),
                   ("examiner_findings", "Considering first the re"), ("ptab_opinion", "In the present case, the"),
                   ("examiner_findings", "It is the examiner’s pos"), ("examiner_findings", "See Answer, page 4."),
                   ("appellant_arguments", "It is appellants’ positi"), ("examiner_findings", "With respect to independ"),
                   ("ptab_opinion", "There are two rejections"), ("examiner_findings", "Rejection II is based so")]
    # what a rejection rests on is the Board's when it judges it, and so is a prima facie case set forth
    for sent in ("The rejection is based on speculation.", "The Examiner sets forth a prima facie case of obviousness.",
                 "The Examiner has set forth a prima facie case of obviousness."):
        assert roles_of(f"ANALYSIS\n\n{sent}") == {sent: "ptab_opinion"}, sent


def test_a_quotation_or_a_block_quote_keeps_the_voice_of_who_is_quoted():
    """A quotation left open goes on in the next sentence (e06); a paragraph introduced by "the examiner explains
    that" or "appellants argue ... that:" is the quoted party's (d03, c02), except a sentence in the Board's voice."""
    e06 = ("ANALYSIS\n\nWe note the examiner’s failure to identify where the specification discloses, “the pore size "
           "may be 250-1200 microns.” However, in responding to appellants’ arguments (Answer, page 8) the examiner "
           "states “[i]t is the examiner’s position that the specification is not enabling for any pore size. "
           "Further, the function of the test strip is highly dependent upon the pore size.”")
    assert [s.role for s in RuleSplitter().split(e06).sentences] == ["ptab_opinion", "examiner_findings",
                                                                     "examiner_findings"]
    d03 = ("ANALYSIS\n\nThe examiner contends that the language renders the claim indefinite “since it has no meaning” "
           "(answer, page 3). On page 5 of the answer, the examiner explains that\n\n[i]t is clear that the language "
           "has no meaning when seen in view of the drawing. To one of ordinary skill in the art, the language "
           "appears to state that the plate cylinder can be moved. However, this is not appellant’s invention, and "
           "thus the meaning of the language is unclear.\n\nWe disagree.")
    assert [s.role for s in RuleSplitter().split(d03).sentences] == ["examiner_findings"] * 5 + ["ptab_opinion"]
    c02 = ("ANALYSIS\n\nIn response, appellants argue (Brief, page 16) that:\n\nLackner et al only utilize diffusion "
           "and do not provide a pressure gradient. Rather than teach the use of pressure as claimed in the present "
           "invention, Lackner et al suggest removal of the membrane barrier. This statement leads one skilled in "
           "the art to a path divergent from the path taken by the [a]ppellants, and as such, teaches away.")
    assert [s.role for s in RuleSplitter().split(c02).sentences] == [
        "appellant_arguments", "appellant_arguments", "ptab_opinion", "appellant_arguments"]
    # a closing "(Id.)" ends the examiner's sentence (e04)
    assert sentences("Second, he alleges, “[t]he Grid provides synchronization information.” (Id.) Third, the "
                     "examiner states, “[t]he ‘method’ of claim 1 is subject to the same rejection.” (Id. at 3.)") == [
        "Second, he alleges, “[t]he Grid provides synchronization information.” (Id.)",
        "Third, the examiner states, “[t]he ‘method’ of claim 1 is subject to the same rejection.” (Id. at 3.)"]


def test_attributions_of_blind_batch_6_that_rules_9_missed():
    """Real forms of batch 6 (h31, h44, h55, h63, h28, h40, h45): a record citation between the party and its
    verb, a passive report with the brief cited, more openers and verbs; each stays the party's."""
    text = ("ANALYSIS\n\nIn response to the argument, the examiner (answer at 8) stated that Oonishi is "
            "analogous art.\n\nFurther, the examiner (Final Rejection, page 3-4) points to the range of 3 to 200 in "
            "Ando.\n\nIt is further argued (Brief p. 4) that Vreeland's element 25 is not an aperture.\n\n"
            "Lastly, applicant argues that a feature expressed in inches would not be compatible with pitch.\n\n"
            "Then, the examiner insists that the present application fails to define the word ridge.\n\n"
            "However, it is the examiner's position that it would have been obvious to mold the article.\n\n"
            "Appellants discuss figures 2 and 4 on pages 5-6 of their brief.\n\n"
            "The Examiner’s ultimate conclusion (Answer, page 4) is that the change of shape would have been obvious."
            "\n\nThe sole argument advanced by Appellant is that Figure 1 of Akerson shows no channel.")
    got = roles_of(text)
    assert list(got.values()) == ["examiner_findings", "examiner_findings", "appellant_arguments",
                                  "appellant_arguments", "examiner_findings", "examiner_findings",
                                  "appellant_arguments", "examiner_findings", "appellant_arguments"], got
    # a negated verb stays the Board's whatever the citation: the veto comes first
    assert set(roles_of("ANALYSIS\n\nAppellants (Br. 5) do not address claim 3.").values()) == {"ptab_opinion"}


def test_board_forms_that_reached_an_input_on_blind_batch_7_are_the_boards():
    """rules-10 put these Board sentences of batch 7 (j17, j47) into an input; rules-11's Board voice takes them,
    and the party's own report in the same words stays the party's."""
    board = ["Here, the appellants submit neither evidence nor argument that an increase in pressure fluctuation "
             "does not necessarily flow from the teachings of Babel.",
             "Instead, they merely allege, “there is no evidence that Babel discloses an arrangement which inherently "
             "increases pressure fluctuation.” (Appeal Br. at 6.)",
             "Hence, appellants’ second point raised in contention with the examiner’s determination is essentially "
             "limited to the argument that each of the applied prior art references do not explicitly disclose that "
             "their gums possess the claimed stickiness (brief, page 12)."]
    for s in board:
        assert board_voice(s), s
        assert set(roles_of("ANALYSIS\n\n" + s).values()) == {"ptab_opinion"}, s
    party = roles_of("ANALYSIS\n\nAppellants argue that Babel does not disclose an increase in pressure fluctuation "
                     "(Appeal Br. 6).\n\nThey contend that the gums of the applied references are not sticky (Br. 12).")
    assert set(party.values()) == {"appellant_arguments"}, party
