"""The verdict read from a decision's own text, in the forms real decisions use, and where it was found."""
from __future__ import annotations

import pytest

from transforms.ptab_labels import outcome_from_order, subdecision_fine, verdict_passage

OPENING = "DECISION ON APPEAL\n\nAppellant appeals under 35 U.S.C. § 134(a). We have jurisdiction. {}\n\n" \
          "STATEMENT OF THE CASE\n\nThe invention is a lid.\n\nANALYSIS\n\nAppellant argues that Smith is silent."


@pytest.mark.parametrize("verdict, fine", [
    ("We AFFIRM.", "Affirmed"), ("We affirm.", "Affirmed"), ("We AFFIRM.2", "Affirmed"),
    ("We affirm-in-part.", "Affirmed-in-Part"), ("We AFFIRM IN PART.", "Affirmed-in-Part"),
    ("We AFFIRM-IN-PART.", "Affirmed-in-Part"), ("We reverse.", "Reversed"),
    ("We affirm-in-part and enter a new ground of rejection under 37 C.F.R. § 41.50(b).",
     "Affirmed-in-Part with New Ground of Rejection"),
    ("We AFFIRM and designate our affirmance of claim 21 as a new ground of rejection pursuant to our authority under "
     "37 C.F.R. § 41.50(b).", "Affirmed with New Ground of Rejection"),
    ("We reverse and enter a new ground of rejection under 37 C.F.R. § 41.50(b).",
     "Reversed with New Ground of Rejection"),
    ("We affirm-in-part and we enter a new ground of rejection pursuant to the provisions of 37 CFR § 1.196(b).",
     "Affirmed-in-Part with New Ground of Rejection"),
    # the rule named only after "C.F.R." and the ground called "a new rejection" (a real PTAB opening, batch 6)
    ("We AFFIRM-IN-PART and add a new rejection under 37 C.F.R. § 41.50(b).",
     "Affirmed-in-Part with New Ground of Rejection"),
    ("We REVERSE and enter a new rejection under 37 C.F.R. § 41.50(b). Judge Smith dissents.",
     "Reversed with New Ground of Rejection"),
])
def test_the_opening_verdict_forms(verdict, fine):
    passage, where = verdict_passage(OPENING.format(verdict))
    assert where == "opening" and subdecision_fine(outcome_from_order(passage)) == fine


@pytest.mark.parametrize("order, fine", [
    ("DECISION\n\nWe AFFIRM.", "Affirmed"), ("CONCLUSION\n\nWe AFFIRM IN PART.", "Affirmed-in-Part"),
    ("ORDER\n\nThe Examiner's rejection of claims 1-5 is affirmed. We reverse the rejection of claim 6.",
     "Affirmed-in-Part"),
    ("SUMMARY\n\nThe decision of the examiner to reject claims 1 through 12 is affirmed, with the affirmance "
     "designated as a new ground of rejection under 37 CFR § 1.196(b).", "Affirmed with New Ground of Rejection"),
    ("DECISION\n\nThe rejection is reversed.\n\nREVERSED; NEW GROUND OF REJECTION 37 C.F.R. § 41.50(b)",
     "Reversed with New Ground of Rejection"),
])
def test_the_order_under_its_real_headings_comes_first(order, fine):
    passage, where = verdict_passage(OPENING.format("We reverse.") + "\n\n" + order)
    assert where == "order" and subdecision_fine(outcome_from_order(passage)) == fine


def test_a_last_page_without_a_decision_heading():
    text = OPENING.format("") + "\n\nThe examiner has not met the burden of establishing a prima facie case.\n\n" \
                               "REVERSED\n\nSHERMAN D. WINTERS ) Administrative Patent Judge )"
    passage, where = verdict_passage(text)
    assert where == "last_page" and subdecision_fine(outcome_from_order(passage)) == "Reversed"


def test_no_verdict_is_guessed_from_the_analysis():
    text = OPENING.format("") + " We reverse the rejection under § 102 and affirm the rejection under § 103."
    assert verdict_passage(text) == ("", None)


def test_a_rehearing_denied_on_a_last_page_with_the_mailing_address_after_it():
    # the last page of a real BPAI rehearing decision (Appeal 2007-0220, read from its PDF): the bare verdict line,
    # the clerk's initials and the correspondence address follow the opinion
    text = ("ON REQUEST FOR REHEARING\n\nIn a decision dated May 31, 2007, we affirmed the decision of the Examiner.\n\n"
            "In view of the forgoing, we have considered Appellant's Request for Rehearing, but it is denied as to "
            "making any change in our prior decision.\n\nDENIED\n\npgc\n\nCHARLES R. SZMANDA\n\n"
            "4 CROSSMAN AVENUE\n\nWESTBOROUGH MA 01581")
    passage, where = verdict_passage(text)
    assert where == "last_page" and subdecision_fine(outcome_from_order(passage)) == "Denied"


def test_forms_of_blind_batch_7():
    """Real forms batch 7 showed (j24/j68, j23, j56): a title-case verdict line closing the last page, a new ground
    entered in the sentence after the opening's verdict, and a SUMMARY heading before the case is stated, which is
    the opening's summary, not the order."""
    text = OPENING.format("") + "\n\nAccordingly, the examiner's decision is not sustained on this record.\n\nReversed"
    assert verdict_passage(text) == ("Reversed", "last_page")
    assert subdecision_fine(outcome_from_order("Reversed")) == "Reversed"
    assert verdict_passage(OPENING.format("") + "\n\nReversed as to claim 5 by the examiner, not here.")[1] is None
    opening = OPENING.format("We reverse each of the three grounds of rejection. Under the provisions of 37 CFR "
                             "§ 1.196(b) (2003), we enter a new ground of rejection of claims 1-6 under 35 U.S.C. § 103.")
    passage, where = verdict_passage(opening)
    assert where == "opening" and subdecision_fine(outcome_from_order(passage)) == "Reversed with New Ground of Rejection"
    summary = ("DECISION ON APPEAL\n\nSUMMARY OF THE DECISION\n\nProsecution and Appeal History\n\nAppellants appealed "
               "from rejections of claims 1-42. The Examiner entered new grounds of rejection under 35 U.S.C. § 101.")
    assert verdict_passage(summary) == ("", None)
    late = OPENING.format("") + "\n\nSUMMARY OF THE DECISION\n\nThe rejection of claim 1 is affirmed."
    assert verdict_passage(late)[1] == "order"
