"""Outlines against the golden Pap2Pat example: renderings byte-exact, character counts, bullet budgets."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from transforms.outlines import (CHUNK_CHARS, LEVELS, add_outlines, bullet_count, bullet_rule, chunk_paragraphs,
                                 copied_run, copy_index, guard_bullets, iter_sections, key_phrase_bullets,
                                 num_characters, render_fulltext, render_outline, section_bullets, words)


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


def test_bullet_rule_is_the_authors_floor_and_ceil_an_option(golden):
    """The default (max(1, chars // c)) gives the released bullet counts for every section of the golden example at
    long, medium and short, where ceil and round do not."""
    sections = [s for _, s in iter_sections(golden["patent"]["sections"])]
    released = [[len(s[f"outline_{k}"]) for k in LEVELS] for s in sections]
    assert released == [[1, 1, 1], [1, 1, 1], [2, 1, 1], [13, 6, 3]]  # the golden file itself
    floor = [[section_bullets(s["paragraphs"], c) for c in LEVELS.values()] for s in sections]
    assert floor == released
    ceil = [[section_bullets(s["paragraphs"], c, "ceil") for c in LEVELS.values()] for s in sections]
    assert ceil == [[1, 1, 1], [1, 1, 1], [3, 2, 1], [14, 7, 4]] != released
    assert [[max(1, round(s["num_characters"] / c)) for c in LEVELS.values()] for s in sections] != released
    assert bullet_count(0, 500) == 0 and bullet_count(1, 2000) == 1 and bullet_count(999, 500) == 1
    with pytest.raises(ValueError):
        bullet_count(10, 500, "round")
    assert "floor" in bullet_rule() and "ceil" in bullet_rule("ceil")
    ours = add_outlines(_bare(golden["patent"]["sections"]))
    for (_, got), (_, want) in zip(iter_sections(ours), iter_sections(golden["patent"]["sections"])):
        assert [len(got[f"outline_{k}"]) for k in LEVELS] == [len(want[f"outline_{k}"]) for k in LEVELS]


def _released_sections(folder: Path) -> list[dict]:
    return [s for f in sorted(folder.glob("*/patent.json"))
            for _, s in iter_sections(json.loads(f.read_text(encoding="utf-8"))["sections"])]


def test_bullet_budget_reproduces_the_released_counts_of_the_shared_pairs(real_samples):
    """Over the 40 released pairs (1,218 section-levels) the authors' rule per chunk gives the released count for
    >= 98 % at every level; without chunking a long section gets a bullet or more too many; ceil is far off."""
    sections = _released_sections(real_samples / "volume" / "pap2pat")
    assert len(sections) == 406
    for level, c in LEVELS.items():
        want = [len(s[f"outline_{level}"]) for s in sections]
        share = sum(section_bullets(s["paragraphs"], c) == n for s, n in zip(sections, want)) / len(want)
        one_chunk = sum(section_bullets(s["paragraphs"], c, chunk_chars=None) == n
                        for s, n in zip(sections, want)) / len(want)
        ceil = sum(section_bullets(s["paragraphs"], c, "ceil") == n for s, n in zip(sections, want)) / len(want)
        assert share >= 0.98 > one_chunk >= 0.92 > 0.6 > ceil, (level, share, one_chunk, ceil)
        assert all(section_bullets(s["paragraphs"], c, chunk_chars=None) >= n for s, n in zip(sections, want))


def test_chunking_halves_a_long_section_like_the_authors_chunker():
    paras = ["x" * 7_000] * 5  # 35,000 characters: two pieces of 2 and 3 paragraphs
    assert [len(p) for p in chunk_paragraphs(paras)] == [2, 3]
    assert [len(p[0]) for p in chunk_paragraphs(["y" * 50_001])] == [12_500, 12_500, 12_500, 12_501]
    assert chunk_paragraphs(paras[:3]) == [paras[:3]] and sum(map(len, paras[:3])) <= CHUNK_CHARS
    assert section_bullets(["z" * 999] * 30, 500) == 2 * (15 * 999 // 500)  # 29,970 chars: 29 per piece, not 59
    assert section_bullets(["z" * 999] * 30, 500, chunk_chars=None) == 29_970 // 500
    assert section_bullets([], 500) == 0 and section_bullets(["", ""], 500) == 0


def test_outlines_summarise_in_short_phrases_and_never_copy(golden):
    """Every bullet is a short phrase (the paper's 5.4 ± 2.3 words) with no 6-word run of the patent, and the
    bullets of a section differ; long > medium > short on a section of several thousand characters."""
    patent = golden["patent"]
    counts: dict[str, int] = {}
    ours = add_outlines(_bare(patent["sections"]), reference=patent["claims"], counts=counts)
    assert ours == add_outlines(_bare(patent["sections"]), reference=patent["claims"])  # deterministic
    index = copy_index([p for _, s in iter_sections(patent["sections"]) for p in s["paragraphs"]] + patent["claims"])
    lengths = []
    for _, sec in iter_sections(ours):
        assert list(sec) == ["title", "paragraphs", "subsections", "outline_long", "num_characters",
                             "outline_medium", "outline_short"]
        for level, c in LEVELS.items():
            bullets = sec[f"outline_{level}"]
            assert len(bullets) == section_bullets(sec["paragraphs"], c)
            assert len(set(bullets)) == len(bullets)
            assert all(copied_run(b, index) is None for b in bullets)
            lengths += [len(b.split()) for b in bullets]
    assert all(2 <= n <= 9 for n in lengths) and 3.0 <= sum(lengths) / len(lengths) <= 7.7
    assert counts["bullet_words"] == sum(lengths) and counts["bullets_cut_by_copy_guard"] == 0
    construction = [s for _, s in iter_sections(ours)][-1]
    assert len(construction["outline_long"]) > len(construction["outline_medium"]) > len(construction["outline_short"])
    words_of_section = {w.lower() for p in construction["paragraphs"] for w in re.findall(r"[A-Za-z0-9]+", p)}
    for b in construction["outline_long"]:  # the phrase after the cue verb comes from the span it names
        assert set(re.findall(r"[A-Za-z0-9]+", b.lower())[1:]) - {"and"} <= words_of_section


def test_copy_guard_cuts_any_writers_verbatim_runs(golden):
    """A writer that copies sentences (the old extractive default) is cut by the guard before any 6-word run."""
    patent = golden["patent"]

    def copier(paragraphs: list[str], n: int) -> list[str]:
        return [p.split(". ")[0] for p in paragraphs][:n] or []

    counts: dict[str, int] = {}
    ours = add_outlines(_bare(patent["sections"]), writer=copier, counts=counts)
    index = copy_index([p for _, s in iter_sections(patent["sections"]) for p in s["paragraphs"]])
    bullets = [b for _, s in iter_sections(ours) for k in LEVELS for b in s[f"outline_{k}"]]
    assert bullets and counts["bullets_cut_by_copy_guard"] > 0
    assert all(copied_run(b, index) is None and len(words(b)) <= 5 for b in bullets)
    assert guard_bullets(["amplify DNA fragments"], index) == (["amplify DNA fragments"], 0)
    sentence = "The final ligation products were introduced into M. haemolytica by electroporation"
    one = copy_index([sentence])
    cut, n = guard_bullets([sentence, "describe " + sentence], one)
    assert n == 2 and cut == ["The final ligation products were", "describe The final ligation products were"]
    assert copied_run("the final LIGATION products, were introduced", one) == 0  # case and punctuation ignored


def test_bullet_writer_is_pluggable(golden):
    calls = []

    def writer(paragraphs: list[str], n: int) -> list[str]:
        calls.append(n)
        return [f"bullet {k}" for k in range(n)]

    ours = add_outlines(_bare(golden["patent"]["sections"]), writer=writer)
    assert ours[0]["subsections"][1]["subsections"][0]["outline_long"] == [f"bullet {k}" for k in range(13)]
    assert len(calls) == 4 * len(LEVELS)
    assert key_phrase_bullets([], 2) == [] and key_phrase_bullets(["Some text here."], 0) == []
    assert len(key_phrase_bullets(["A sensor housing holds the optical detector."], 3)) == 3


def test_chunks_carry_the_headings_and_the_budget_of_every_released_section(real_samples):
    """`chunk_parts` over the shared released patents: every section in document order with its heading once, the
    pieces' budgets summing to `section_bullets`; a section over the window is cut, its later pieces unheaded."""
    from sources.pap2pat_release import read_release
    from transforms.outlines import chunk_parts, iter_sections

    for pair in read_release(real_samples / "volume" / "pap2pat", limit=10, outlines=False):
        secs = pair.patent["sections"]
        for c in LEVELS.values():
            chunks = chunk_parts(secs, c)
            parts = [p for chunk in chunks for p in chunk]
            assert all(sum(len(q) for p in chunk for q in p.paragraphs) <= CHUNK_CHARS for chunk in chunks)
            for k, (_, sec) in enumerate(iter_sections(secs)):
                mine = [p for p in parts if p.section == k]
                if section_bullets(sec["paragraphs"], c):
                    assert sum(p.n for p in mine) == section_bullets(sec["paragraphs"], c)
                    assert [p.heading for p in mine] == [True] + [False] * (len(mine) - 1)
                    assert {p.title for p in mine} == {sec["title"]}
    long = {"title": "DETAILED DESCRIPTION", "paragraphs": ["x" * 9_000] * 6, "subsections": []}
    parts = [p for chunk in chunk_parts([long], 500, chunk_chars=24_000) for p in chunk]
    assert [p.heading for p in parts] == [True, False, False, False] and sum(p.n for p in parts) == 4 * 27
