"""`paper_metrics` keeps each pair's scores per process (a night's build and eval score the same drafts): a repeated
pair is not scored again, and what a caller does with the dict it got never reaches the next caller."""
from __future__ import annotations

from patentfactory.evaluation import pap2pat_metrics as m

REFERENCE = ("# A clamp\n\n## BACKGROUND OF THE INVENTION\n\nClamps hold boards while glue sets.\n\n"
             "## SUMMARY\n\nA clamp with a quick release lever.\n\n## DETAILED DESCRIPTION\n\nThe lever turns a cam.\n")
DRAFT = ("# A clamp\n\n## BACKGROUND OF THE INVENTION\n\nBoards are held by clamps.\n\n"
         "## SUMMARY\n\nA quick release clamp.\n\n## DETAILED DESCRIPTION\n\nA cam turned by the lever.\n")


def test_a_repeated_pair_is_scored_once_and_callers_get_their_own_dict(monkeypatch):
    first = m.paper_metrics(DRAFT, REFERENCE)
    assert first["background_rouge-l_f"] is not None and 0 < first["rouge-l_f"] < 1

    def scored_again(*_args):
        raise AssertionError("the pair was scored again")

    monkeypatch.setattr(m, "_paper_metrics", scored_again)
    first["rouge-l_f"] = -1.0
    second = m.paper_metrics(DRAFT, REFERENCE)
    assert second is not first and second["rouge-l_f"] != -1.0
    assert second == {**first, "rouge-l_f": second["rouge-l_f"]}


def test_a_changed_text_is_scored_afresh():
    base = m.paper_metrics(DRAFT, REFERENCE)
    other = m.paper_metrics(DRAFT + "\nThe cam locks.\n", REFERENCE)
    assert other["length_ratio"] > base["length_ratio"]
    assert m.paper_metrics(DRAFT, REFERENCE + " ") == m._paper_metrics(DRAFT, REFERENCE + " ")


def test_in_cluster_places_headings_as_the_unbounded_edit_distance_does():
    """The bounded distance (stops past 3) decides exactly as the full one on headings near and far."""
    headings = ["## BACKGROUND", "## BACKGROUNDS OF INVENTION", "## SUMARY", "## FIELD", "## Detailed Descriptions",
                "## BRIEF DESCRIPTION OF THE DRAWINGS", "# Title", "## DESCRIPTION OF EMBODIMENTS", "## SUMMARY", "## BRIEF SUMMARY OF THE INVENTION",
                "## DETAILED DESCRIPTION", "## BACKGROUND ART", "## PRIOR ARTS"]
    placed = set()
    for name, protos in m.CLUSTERS.items():
        for h in headings:
            bare = h.lower()
            for word in m._FILLERS:
                bare = bare.replace(word, "")
            full = any(m.levenshtein(v, p.lower()) <= 3 for p in protos for v in (h.lower().strip(), bare.strip()))
            assert m.in_cluster(h, protos) is full, (name, h)
            placed.add(full)
    assert placed == {True, False}
