"""Pure metric functions for every dataset's eval, each checked against hand-computed cases.

We implement them rather than import them so that each one's rules (zero division, label sets,
smoothing) are written down in one place and match the papers' evaluators:
- retrieval: NDCG@k with binary relevance as sentence-transformers' InformationRetrievalEvaluator
  (gain 1/log2(rank+1), ideal DCG from min(#relevant, k) hits);
- single-label classification: macro/micro/weighted F1, accuracy, balanced accuracy; the label set is the
  union of true and predicted labels (sklearn's default), 0/0 counts as 0;
- multi-label: exact match, micro/macro P/R/F1, Hamming loss over lists of label sets;
- Pearson r, V-measure (sklearn). Text metrics (BLEU, ROUGE-L, SARI) live in `text_metrics`.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Hashable, Sequence

import numpy as np

from .text_metrics import corpus_bleu, lcs_length, rouge_l_f, sari, tokenize

Label = Hashable


def ndcg_at_k(ranked: Sequence[Hashable], relevant: Collection[Hashable], k: int = 10) -> float:
    """NDCG@k of one ranking with binary relevance; `ranked` holds document ids best first."""
    if not relevant:
        raise ValueError("ndcg_at_k needs at least one relevant document")
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    rel = set(relevant)
    dcg = sum(1.0 / math.log2(rank + 1) for rank, doc in enumerate(ranked[:k], start=1) if doc in rel)
    idcg = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(rel), k) + 1))
    return dcg / idcg


def mean_ndcg_at_k(rankings: Sequence[Sequence[Hashable]], relevants: Sequence[Collection[Hashable]],
                   k: int = 10) -> float:
    """Mean NDCG@k over queries (the task score)."""
    if len(rankings) != len(relevants) or not rankings:
        raise ValueError("need one non-empty relevant set per ranking, and at least one query")
    return float(np.mean([ndcg_at_k(r, rel, k) for r, rel in zip(rankings, relevants)]))


def _check_pairs(y_true: Sequence, y_pred: Sequence) -> None:
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} items but y_pred has {len(y_pred)}")
    if not y_true:
        raise ValueError("no items to score")


def _f1(tp: int, fp: int, fn: int) -> float:
    denom = 2 * tp + fp + fn
    return 2 * tp / denom if denom else 0.0


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def _class_counts(y_true: Sequence[Label], y_pred: Sequence[Label]) -> dict[Label, tuple[int, int, int]]:
    """label -> (tp, fp, fn) over the union of true and predicted labels."""
    _check_pairs(y_true, y_pred)
    labels = set(y_true) | set(y_pred)
    tp = Counter(t for t, p in zip(y_true, y_pred) if t == p)
    pred, true = Counter(y_pred), Counter(y_true)
    return {lab: (tp[lab], pred[lab] - tp[lab], true[lab] - tp[lab]) for lab in labels}


def accuracy(y_true: Sequence[Label], y_pred: Sequence[Label]) -> float:
    _check_pairs(y_true, y_pred)
    return sum(t == p for t, p in zip(y_true, y_pred)) / len(y_true)


def macro_f1(y_true: Sequence[Label], y_pred: Sequence[Label]) -> float:
    """Unweighted mean of per-class F1: rare classes count as much as frequent ones (PatenTEB, PILOT)."""
    counts = _class_counts(y_true, y_pred)
    return float(np.mean([_f1(*c) for c in counts.values()]))


def micro_f1(y_true: Sequence[Label], y_pred: Sequence[Label]) -> float:
    """F1 of pooled counts; for single-label data it equals accuracy."""
    counts = _class_counts(y_true, y_pred)
    return _f1(*(sum(c[i] for c in counts.values()) for i in range(3)))


def weighted_f1(y_true: Sequence[Label], y_pred: Sequence[Label]) -> float:
    """Per-class F1 weighted by true support."""
    counts = _class_counts(y_true, y_pred)
    support = Counter(y_true)
    return sum(_f1(*c) * support[lab] for lab, c in counts.items()) / len(y_true)


def balanced_accuracy(y_true: Sequence[Label], y_pred: Sequence[Label]) -> float:
    """Mean recall over the classes present in y_true (sklearn's definition, unadjusted)."""
    counts = _class_counts(y_true, y_pred)
    present = set(y_true)
    return float(np.mean([_ratio(tp, tp + fn) for lab, (tp, _fp, fn) in counts.items() if lab in present]))


def multiclass_scores(y_true: Sequence[Label], y_pred: Sequence[Label]) -> dict[str, float]:
    """PILOT's multi-class metric set."""
    return {"accuracy": accuracy(y_true, y_pred), "balanced_accuracy": balanced_accuracy(y_true, y_pred),
            "macro_f1": macro_f1(y_true, y_pred), "micro_f1": micro_f1(y_true, y_pred),
            "weighted_f1": weighted_f1(y_true, y_pred)}


def multilabel_scores(y_true: Sequence[Collection[str]], y_pred: Sequence[Collection[str]],
                      labels: Sequence[str] | None = None) -> dict[str, float]:
    """PILOT's multi-label metric set over label sets.

    `labels` is the label vocabulary (macro averages and Hamming loss run over it); by default the
    union of labels seen in y_true and y_pred. 0/0 precision or recall counts as 0.
    """
    _check_pairs(y_true, y_pred)
    true_sets, pred_sets = [set(t) for t in y_true], [set(p) for p in y_pred]
    vocab = sorted(set(labels) if labels is not None else set().union(*true_sets, *pred_sets))
    per_label = []
    for lab in vocab:
        tp = sum(lab in t and lab in p for t, p in zip(true_sets, pred_sets))
        fp = sum(lab not in t and lab in p for t, p in zip(true_sets, pred_sets))
        fn = sum(lab in t and lab not in p for t, p in zip(true_sets, pred_sets))
        per_label.append((tp, fp, fn))
    tp, fp, fn = (sum(c[i] for c in per_label) for i in range(3))
    n_cells = len(true_sets) * max(len(vocab), 1)
    return {
        "exact_match": sum(t == p for t, p in zip(true_sets, pred_sets)) / len(true_sets),
        "micro_precision": _ratio(tp, tp + fp), "micro_recall": _ratio(tp, tp + fn), "micro_f1": _f1(tp, fp, fn),
        "macro_precision": float(np.mean([_ratio(a, a + b) for a, b, _ in per_label])) if per_label else 0.0,
        "macro_recall": float(np.mean([_ratio(a, a + c) for a, _, c in per_label])) if per_label else 0.0,
        "macro_f1": float(np.mean([_f1(*c) for c in per_label])) if per_label else 0.0,
        "hamming_loss": sum(len(t ^ p) for t, p in zip(true_sets, pred_sets)) / n_cells,
    }


def pearson_r(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson correlation; a constant input has no correlation and raises ValueError."""
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.shape != b.shape or a.size < 2:
        raise ValueError("pearson_r needs two sequences of equal length >= 2")
    da, db = a - a.mean(), b - b.mean()
    denom = math.sqrt(float(da @ da) * float(db @ db))
    if denom == 0.0:
        raise ValueError("pearson_r is undefined for a constant input")
    return float(da @ db) / denom


def v_measure(labels_true: Sequence[Label], labels_pred: Sequence[Label]) -> float:
    """Harmonic mean of homogeneity and completeness (sklearn, beta=1)."""
    from sklearn.metrics import v_measure_score

    _check_pairs(labels_true, labels_pred)
    return float(v_measure_score(list(map(str, labels_true)), list(map(str, labels_pred))))

__all__ = ["accuracy", "balanced_accuracy", "corpus_bleu", "lcs_length", "macro_f1", "mean_ndcg_at_k",
           "micro_f1", "multiclass_scores", "multilabel_scores", "ndcg_at_k", "pearson_r", "rouge_l_f", "sari",
           "tokenize", "v_measure", "weighted_f1"]
