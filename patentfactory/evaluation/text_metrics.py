"""Text-generation metrics over token lists: corpus BLEU, ROUGE-L F and SARI.

None of sacrebleu / rouge-score / easse is installed, and Patent-CR and Pap2Pat only need these three,
so they are implemented here from their papers:
- BLEU (Papineni et al. 2002): corpus-level clipped n-gram precisions for n = 1..4, uniform weights,
  brevity penalty against the closest reference length; no smoothing, so a corpus without any matching
  4-gram scores 0 (sacrebleu's default `exp` smoothing would not).
- ROUGE-L F (Lin 2004): LCS precision/recall/F1 (beta = 1, like rouge-score's `fmeasure`). LCS uses the
  bit-parallel algorithm (Allison & Dix 1986) on Python integers, so 1,000-token claim sets stay fast.
- SARI (Xu et al. 2016), following their reference `SARIsent`: per n = 1..4 the keep F1, delete precision
  and add F1 (0/0 counts as 0, as in the original, not 1 as in tensor2tensor's variant); each averaged over
  n, then SARI = mean of the three. Values are in [0, 1] (papers often print ×100).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD_OR_PUNCT = re.compile(r"\w+|[^\w\s]")
Tokens = Sequence[str]


def tokenize(text: str | None) -> list[str]:
    """Lower-cased words and single punctuation marks (13a-like, enough for claims and outlines)."""
    return _WORD_OR_PUNCT.findall((text or "").lower())


def ngrams(tokens: Tokens, n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def corpus_bleu(hypotheses: Sequence[Tokens], references: Sequence[Sequence[Tokens]], max_n: int = 4) -> float:
    """Corpus BLEU in [0, 1]; `references[i]` is the list of reference token lists of hypothesis i."""
    if len(hypotheses) != len(references) or not hypotheses:
        raise ValueError("need one reference list per hypothesis, and at least one hypothesis")
    matches, totals = [0] * max_n, [0] * max_n
    hyp_len = ref_len = 0
    for hyp, refs in zip(hypotheses, references):
        if not refs:
            raise ValueError("every hypothesis needs at least one reference")
        hyp_len += len(hyp)
        ref_len += min((abs(len(r) - len(hyp)), len(r)) for r in refs)[1]  # closest length, shorter on ties
        for n in range(1, max_n + 1):
            counts = Counter(ngrams(hyp, n))
            best: Counter = Counter()
            for ref in refs:
                best |= Counter(ngrams(ref, n))
            matches[n - 1] += sum(min(c, best[g]) for g, c in counts.items())
            totals[n - 1] += sum(counts.values())
    if hyp_len == 0 or min(matches) == 0:
        return 0.0
    log_precision = sum(math.log(m / t) for m, t in zip(matches, totals)) / max_n
    brevity = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    return brevity * math.exp(log_precision)


def lcs_length(a: Tokens, b: Tokens) -> int:
    """Length of the longest common subsequence (bit-parallel, O(len(b) * len(a) / word size))."""
    masks: dict[str, int] = {}
    for i, tok in enumerate(a):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    row = 0
    for tok in b:
        x = masks.get(tok, 0) | row
        row = x & ((x - ((row << 1) | 1)) ^ x)
    return row.bit_count()


def rouge_l_f(prediction: Tokens, reference: Tokens) -> float:
    """ROUGE-L F1 of one prediction against one reference."""
    lcs = lcs_length(prediction, reference)
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(prediction), lcs / len(reference)
    return 2 * precision * recall / (precision + recall)


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p > 0 or r > 0 else 0.0


def _sari_keep(s: Counter, c: Counter, r: Counter) -> float:
    keep, keep_all = s & c, s & r
    good = keep & r
    p = sum(good[g] / keep[g] for g in good) / len(keep) if keep else 0.0
    rec = sum(good[g] / keep_all[g] for g in good) / len(keep_all) if keep_all else 0.0
    return _f1(p, rec)


def _sari_delete(s: Counter, c: Counter, r: Counter) -> float:
    deleted = s - c
    good = deleted - r
    return sum(good[g] / deleted[g] for g in good) / len(deleted) if deleted else 0.0


def _sari_add(s: Counter, c: Counter, r: Counter) -> float:
    added = set(c) - set(s)
    wanted = set(r) - set(s)
    good = len(added & set(r))
    return _f1(good / len(added) if added else 0.0, good / len(wanted) if wanted else 0.0)


def sari(source: Tokens, prediction: Tokens, references: Sequence[Tokens], max_n: int = 4) -> float:
    """Sentence SARI in [0, 1] (Xu et al. 2016); source and prediction counts are scaled by #references."""
    if not references:
        raise ValueError("sari needs at least one reference")
    numref = len(references)
    keep = delete = add = 0.0
    for n in range(1, max_n + 1):
        s = Counter({g: v * numref for g, v in Counter(ngrams(source, n)).items()})
        c = Counter({g: v * numref for g, v in Counter(ngrams(prediction, n)).items()})
        r = Counter(g for ref in references for g in ngrams(ref, n))
        keep += _sari_keep(s, c, r)
        delete += _sari_delete(s, c, r)
        add += _sari_add(s, c, r)
    return (keep + delete + add) / (3 * max_n)
