"""Outlines against the golden Pap2Pat example: renderings byte-exact, character counts, bullet budgets."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from transforms.outlines import (LEVELS, add_outlines, bullet_count, bullet_rule, extractive_bullets, iter_sections,
                                 num_characters, render_fulltext, render_outline, split_sentences)


@pytest.fixture(scope="module")
def golden(real_samples: Path) -> dict:
    folder = real_samples / "pap2pat"
    return {"patent": json.loads((folder / "patent.json").read_text(encoding="utf-8")),
            "paper": json.loads((folder / "paper.json").read_text(encoding="utf-8")),
            "folder": folder}


def _bare(sections: list[dict]) -> list[dict]:
    return [{"title": s["title"], "paragraphs": s["paragraphs"], "subsections": _bare(s["subsections"])}
            for s in sections]


def test_renderings_reproduce_the_golden_markdown(golden):
    folder = golden["folder"]
    for level in ("long", "medium"):
        want = (folder / f"patent_outline_{level}.md").read_text(encoding="utf-8")
        assert render_outline(golden["patent"]["sections"], level) == want
    assert render_fulltext(golden["paper"]["sections"]) == (folder / "paper.md").read_text(encoding="utf-8")
    empty = render_outline(golden["patent"]["sections"], "empty")
    assert empty == ("# DESCRIPTION\n\n## TECHNICAL FIELD\n\n## DETAILED DESCRIPTION\n\n"
                     "### Construction of lktCA Deletion\n\n")


def test_num_characters_matches_every_golden_section(golden):
    for _, sec in iter_sections(golden["patent"]["sections"]):
        assert num_characters(sec["paragraphs"]) == sec["num_characters"]


def test_default_bullet_rule_reproduces_every_golden_section_and_level(golden):
    """The default budget is max(1, floor(chars / c)): it gives the released bullet counts for every section of the
    original's golden example at long, medium and short; ceil (SPEC's wording) and round do not."""
    sections = [s for _, s in iter_sections(golden["patent"]["sections"])]
    released = [[len(s[f"outline_{k}"]) for k in LEVELS] for s in sections]
    assert released == [[1, 1, 1], [1, 1, 1], [2, 1, 1], [13, 6, 3]]  # the golden file itself
    default = [[bullet_count(s["num_characters"], c) for c in LEVELS.values()] for s in sections]
    assert default == released
    ceil = [[bullet_count(s["num_characters"], c, "ceil") for c in LEVELS.values()] for s in sections]
    assert ceil == [[1, 1, 1], [1, 1, 1], [3, 2, 1], [14, 7, 4]] != released
    rounded = [[max(1, round(s["num_characters"] / c)) for c in LEVELS.values()] for s in sections]
    assert rounded != released
    assert bullet_count(0, 500) == 0 and bullet_count(1, 2000) == 1
    with pytest.raises(ValueError):
        bullet_count(10, 500, "round")


def test_default_outlines_have_the_golden_bullet_counts(golden):
    ours = add_outlines(_bare(golden["patent"]["sections"]))
    for (_, got), (_, want) in zip(iter_sections(ours), iter_sections(golden["patent"]["sections"])):
        assert [len(got[f"outline_{k}"]) for k in LEVELS] == [len(want[f"outline_{k}"]) for k in LEVELS]
    assert "floor" in bullet_rule() and "W2145591944" in bullet_rule()


def test_add_outlines_has_the_golden_shape_and_is_deterministic(golden):
    ours = add_outlines(_bare(golden["patent"]["sections"]))
    assert ours == add_outlines(_bare(golden["patent"]["sections"]))
    pairs = list(zip(iter_sections(ours), iter_sections(golden["patent"]["sections"])))
    for (depth, got), (want_depth, want) in pairs:
        assert depth == want_depth and list(got) == list(want) and got["title"] == want["title"]
        assert got["num_characters"] == want["num_characters"]
        text = " ".join(got["paragraphs"])
        for level in LEVELS:
            bullets = got[f"outline_{level}"]
            assert len(bullets) == bullet_count(got["num_characters"], LEVELS[level])
            assert all(b.removesuffix(" …")[:40] in text for b in bullets), "extractive: bullets come from the text"
    construction = pairs[-1][0][1]
    assert len(set(construction["outline_long"])) == len(construction["outline_long"]) == 13
    assert render_outline(ours, "medium").startswith("# DESCRIPTION\n\n- This application is a continuation-in-part")


def test_bullet_writer_is_pluggable(golden):
    calls = []

    def writer(paragraphs: list[str], n: int) -> list[str]:
        calls.append(n)
        return [f"bullet {k}" for k in range(n)]

    ours = add_outlines(_bare(golden["patent"]["sections"]), writer=writer)
    assert ours[0]["subsections"][1]["subsections"][0]["outline_long"] == [f"bullet {k}" for k in range(13)]
    assert len(calls) == 4 * len(LEVELS)


def test_sentences_do_not_split_at_abbreviations():
    text = ("This application is a continuation of Ser. No. 14/934,737 filed on Nov. 6, 2015. As shown in FIG. 1, "
            "M. haemolytica grows. It is done.")
    assert split_sentences(text) == ["This application is a continuation of Ser. No. 14/934,737 filed on Nov. 6, 2015.",
                                     "As shown in FIG. 1, M. haemolytica grows.", "It is done."]
    assert extractive_bullets(["One short sentence."], 3) == ["One short sentence"]
    assert extractive_bullets([], 2) == []
