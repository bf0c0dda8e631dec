"""The authors' metric procedure run with the libraries they call (rouge-metric's PyRouge, sacrebleu), as the
reference `pap2pat_metrics` is checked against (tests and benchmarks/pap2pat_release.py); needs the `test` extra."""
from __future__ import annotations

from .pap2pat_metrics import section_pair


def reference_scores(generated: str, reference: str) -> dict[str, float]:
    """ROUGE-1/2/L F (whole text), BLEU per document and per cluster as Pap2Pat/pap2pat/metrics/{rouge,bleu}.py."""
    import rouge_metric
    import sacrebleu

    rouge, bleu = rouge_metric.PyRouge(rouge_n=(1, 2)), sacrebleu.BLEU()
    pair = section_pair(generated, reference)
    out = {f"{k}_f": v["f"] for k, v in rouge.evaluate([generated], [[reference]]).items()}
    out["bleu"] = bleu.corpus_score([pair.generated[h] for h in pair.headings],
                                    [[pair.reference[h] for h in pair.headings]]).score
    for name, heads in pair.clusters.items():
        if heads:
            key = name.lower().replace(" ", "_")
            gen, ref = [pair.generated[h] for h in heads], [pair.reference[h] for h in heads]
            out[f"{key}_rouge-l_f"] = rouge.evaluate(gen, [[r] for r in ref])["rouge-l"]["f"]
            out[f"{key}_bleu"] = bleu.corpus_score(gen, [ref]).score
    return out


def max_difference(ours: dict, theirs: dict[str, float]) -> float:
    """Largest |ours - theirs| over the reference's scores, BLEU on its 0..1 scale."""
    return max(abs((ours[k] or 0.0) - v) / (100 if "bleu" in k else 1) for k, v in theirs.items())
