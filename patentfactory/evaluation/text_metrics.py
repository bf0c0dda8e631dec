"""Text-generation metrics over token lists: corpus BLEU, ROUGE-L F and SARI.

The scores are computed here (ROUGE-L with a bit-parallel LCS, fast on 1,000-token claim sets); the
`*_as_evaluate` functions feed them the tokens Hugging Face `evaluate` feeds its metrics (the Patent-CR
paper's library), so they give its numbers: SARI on sacrebleu's 13a tokens of the lower-cased text, BLEU
on 13a tokens as written, ROUGE-L on rouge-score's tokens (lower-cased alphanumerics, no stemmer).
Each is checked against its reference (sacrebleu, rouge-score, `evaluate`'s published SARI examples):
- BLEU (Papineni et al. 2002): corpus-level clipped n-gram precisions for n = 1..4, uniform weights,
  brevity penalty against the closest reference length; no smoothing, so a corpus without any matching
  4-gram scores 0 (sacrebleu's default `exp` smoothing would not).
- ROUGE-L F (Lin 2004): LCS precision/recall/F1 (beta = 1, like rouge-score's `fmeasure`). LCS uses the
  bit-parallel algorithm (Allison & Dix 1986) on Python integers, so 1,000-token claim sets stay fast.
- SARI (Xu et al. 2016) as Hugging Face `evaluate` computes it (tensor2tensor's variant): per n = 1..4 the
  keep F1, delete precision and add F1, where 0/0 counts as 1 (a prediction that matches the reference
  scores full marks on that part) and keep recall is pooled over n-gram counts; each averaged over n, then
  SARI = mean of the three. Values are in [0, 1] (`evaluate` prints ×100). The original SARIsent scored
  0/0 as 0, which put the copy baseline of Patent-CR at 0.31 where the paper, using `evaluate`, has 59.9.
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
    p = sum(good[g] / keep[g] for g in good) / len(keep) if keep else 1.0
    rec = sum(good.values()) / sum(keep_all.values()) if keep_all else 1.0
    return _f1(p, rec)


def _sari_delete(s: Counter, c: Counter, r: Counter) -> float:
    deleted = s - c
    good = deleted - r
    return sum(good[g] / deleted[g] for g in good) / len(deleted) if deleted else 1.0


def _sari_add(s: Counter, c: Counter, r: Counter) -> float:
    added = set(c) - set(s)
    wanted = set(r) - set(s)
    good = len(added & set(r))
    return _f1(good / len(added) if added else 1.0, good / len(wanted) if wanted else 1.0)


def sari(source: Tokens, prediction: Tokens, references: Sequence[Tokens], max_n: int = 4) -> float:
    """Sentence SARI in [0, 1] with `evaluate`'s conventions; source and prediction counts are scaled by
    #references."""
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


def tokens_13a(text: str | None, lowercase: bool = False) -> list[str]:
    """sacrebleu's 13a tokenisation (what `evaluate`'s bleu and sari use), split on single spaces as
    `evaluate` splits it."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    text = (text or "").lower() if lowercase else (text or "")
    return Tokenizer13a()(text).split(" ")


def tokens_rouge(text: str | None) -> list[str]:
    """rouge-score's tokens (lower-cased, non-alphanumerics as spaces, no stemming: `evaluate`'s default)."""
    from rouge_score.tokenize import tokenize as rouge_tokenize

    return rouge_tokenize(text or "", None)


def sari_as_evaluate(sources: Sequence[str], predictions: Sequence[str],
                     references: Sequence[Sequence[str]]) -> float:
    """Mean sentence SARI in [0, 1] of raw texts, tokenised as `evaluate.load("sari")` does."""
    if not (len(sources) == len(predictions) == len(references)) or not predictions:
        raise ValueError("need one source and one reference list per prediction, and at least one prediction")
    return sum(sari(tokens_13a(s, True), tokens_13a(p, True), [tokens_13a(r, True) for r in refs])
               for s, p, refs in zip(sources, predictions, references)) / len(predictions)


def bleu_as_evaluate(predictions: Sequence[str], references: Sequence[str]) -> float:
    """Corpus BLEU in [0, 1] of raw texts with one reference each, on 13a tokens as written (`evaluate`'s
    bleu: case kept, no smoothing)."""
    return corpus_bleu([tokens_13a(p) for p in predictions], [[tokens_13a(r)] for r in references])


def rouge_l_as_evaluate(predictions: Sequence[str], references: Sequence[str]) -> float:
    """Mean ROUGE-L F of raw texts on rouge-score's tokens (`evaluate`'s rougeL without bootstrap)."""
    if len(predictions) != len(references) or not predictions:
        raise ValueError("need one reference per prediction, and at least one prediction")
    return sum(rouge_l_f(tokens_rouge(p), tokens_rouge(r)) for p, r in zip(predictions, references)) / len(predictions)
