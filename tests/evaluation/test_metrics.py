"""Metric functions against cases computed by hand (the arithmetic is in the comments)."""
from __future__ import annotations

import math
import random

import pytest

from patentfactory.evaluation.metrics import (
    accuracy, balanced_accuracy, corpus_bleu, lcs_length, macro_f1, mean_ndcg_at_k, micro_f1, multiclass_scores,
    multilabel_scores, ndcg_at_k, pearson_r, rouge_l_f, sari, tokenize, v_measure, weighted_f1,
)
from patentfactory.evaluation.text_metrics import bleu_as_evaluate, rouge_l_as_evaluate, sari_as_evaluate


def _t(text: str) -> list[str]:
    return text.split()


# ---- retrieval -------------------------------------------------------------------------------------------

def test_ndcg_two_relevant_at_ranks_2_and_3():
    # DCG = 1/log2(3) + 1/log2(4) = 0.630930 + 0.5 = 1.130930; IDCG (2 relevant) = 1 + 1/log2(3) = 1.630930
    # NDCG = 1.130930 / 1.630930 = 0.693426
    assert ndcg_at_k(["d3", "d1", "d2", "d4"], {"d1", "d2"}, k=10) == pytest.approx(0.693426, abs=1e-6)


def test_ndcg_cut_at_k_and_ideal_from_min_relevant_k():
    # k = 2, 3 relevant: only rank 2 counts: DCG = 1/log2(3) = 0.630930;
    # IDCG uses min(3, 2) = 2 hits: 1 + 0.630930 = 1.630930 -> 0.386853 (d2 at rank 3 is beyond k)
    assert ndcg_at_k(["x", "d1", "d2"], {"d1", "d2", "d9"}, k=2) == pytest.approx(0.386853, abs=1e-6)
    assert ndcg_at_k(["d1"], {"d1"}) == 1.0
    assert ndcg_at_k(["x", "y"], {"d1"}) == 0.0


def test_mean_ndcg_and_errors():
    # (1.0 + 0.5) / 2: second query's single relevant doc at rank 3 gives 1/log2(4) = 0.5
    assert mean_ndcg_at_k([["a"], ["x", "y", "b"]], [{"a"}, {"b"}]) == pytest.approx(0.75)
    with pytest.raises(ValueError):
        ndcg_at_k(["a"], set())


# ---- single-label classification ---------------------------------------------------------------------------

Y_TRUE = list("aaabbc")
Y_PRED = list("aabbcc")
# per class: a tp2 fp0 fn1 -> F1 = 4/5 = 0.8; b tp1 fp1 fn1 -> 2/4 = 0.5; c tp1 fp1 fn0 -> 2/3


def test_macro_micro_weighted_f1_by_hand():
    assert macro_f1(Y_TRUE, Y_PRED) == pytest.approx((0.8 + 0.5 + 2 / 3) / 3)          # 0.655556
    assert micro_f1(Y_TRUE, Y_PRED) == pytest.approx(4 / 6)                              # = accuracy
    assert weighted_f1(Y_TRUE, Y_PRED) == pytest.approx((3 * 0.8 + 2 * 0.5 + 1 * 2 / 3) / 6)  # 0.677778


def test_accuracy_and_balanced_accuracy_by_hand():
    assert accuracy(Y_TRUE, Y_PRED) == pytest.approx(4 / 6)
    # recalls: a 2/3, b 1/2, c 1/1 -> mean 0.722222
    assert balanced_accuracy(Y_TRUE, Y_PRED) == pytest.approx((2 / 3 + 0.5 + 1) / 3)


def test_macro_f1_counts_predicted_only_labels_as_zero():
    # true [a, a], pred [a, z]: a tp1 fp0 fn1 -> 2/3; z tp0 fp1 -> 0; macro = 1/3 (sklearn's label union)
    assert macro_f1(["a", "a"], ["a", "z"]) == pytest.approx(1 / 3)
    assert set(multiclass_scores(Y_TRUE, Y_PRED)) == {"accuracy", "balanced_accuracy", "macro_f1", "micro_f1",
                                                      "weighted_f1"}


@pytest.mark.filterwarnings("ignore:y_pred contains classes not in y_true")
def test_classification_agrees_with_sklearn():
    from sklearn.metrics import balanced_accuracy_score, f1_score

    rng = random.Random(3)
    t = [rng.choice("abcd") for _ in range(200)]
    p = [rng.choice("abcde") for _ in range(200)]
    assert macro_f1(t, p) == pytest.approx(f1_score(t, p, average="macro"))
    assert weighted_f1(t, p) == pytest.approx(f1_score(t, p, average="weighted"))
    assert micro_f1(t, p) == pytest.approx(f1_score(t, p, average="micro"))
    assert balanced_accuracy(t, p) == pytest.approx(balanced_accuracy_score(t, p))


# ---- multi-label ------------------------------------------------------------------------------------------

def test_multilabel_agrees_with_the_papers_sklearn_evaluator():
    """PILOT's evaluator: MultiLabelBinarizer over the labels of y_true and y_pred, exact match =
    accuracy_score, micro/macro P/R/F1 with zero_division=0, hamming_loss."""
    import random

    from sklearn.metrics import accuracy_score, f1_score, hamming_loss, precision_score, recall_score
    from sklearn.preprocessing import MultiLabelBinarizer

    r = random.Random(7)
    vocab = ["101", "102", "103", "112", "Others", "37 CFR 41.50(b)"]
    y_true = [set(r.sample(vocab[:5], r.randint(1, 3))) for _ in range(60)]
    y_pred = [set(r.sample(vocab, r.randint(0, 3))) for _ in range(60)]
    ours = multilabel_scores(y_true, y_pred)
    mlb = MultiLabelBinarizer(classes=sorted(set().union(*y_true, *y_pred)))
    t, p = mlb.fit_transform(y_true), mlb.transform(y_pred)
    ref = {"exact_match": accuracy_score(t, p), "hamming_loss": hamming_loss(t, p)}
    for avg in ("micro", "macro"):
        ref[f"{avg}_precision"] = precision_score(t, p, average=avg, zero_division=0)
        ref[f"{avg}_recall"] = recall_score(t, p, average=avg, zero_division=0)
        ref[f"{avg}_f1"] = f1_score(t, p, average=avg, zero_division=0)
    assert ours == pytest.approx(ref, abs=1e-12)


def test_multilabel_by_hand():
    y_true = [{"101", "103"}, {"102"}, set(), {"101"}]
    y_pred = [{"101"}, {"102", "103"}, set(), {"101"}]
    s = multilabel_scores(y_true, y_pred)
    # exact: rows 2 and 3 -> 2/4
    assert s["exact_match"] == pytest.approx(0.5)
    # pooled: tp 3 (101, 102, 101), fp 1 (103 in row 1), fn 1 (103 in row 0) -> P = R = F = 3/4
    assert (s["micro_precision"], s["micro_recall"], s["micro_f1"]) == pytest.approx((0.75, 0.75, 0.75))
    # per label: 101 P1 R1 F1; 102 P1 R1 F1; 103 tp0 -> 0, 0, 0; macro = 2/3 each
    assert (s["macro_precision"], s["macro_recall"], s["macro_f1"]) == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    # wrong cells: 103 missing in row 0, 103 extra in row 1 -> 2 of 4 rows x 3 labels = 1/6
    assert s["hamming_loss"] == pytest.approx(1 / 6)


def test_multilabel_vocabulary_widens_hamming_denominator():
    # one wrong cell; vocabulary of 4 labels over 1 row -> 1/4 (the union alone would give 1/1)
    s = multilabel_scores([{"101"}], [set()], labels=["101", "102", "103", "Others"])
    assert s["hamming_loss"] == pytest.approx(0.25)
    assert s["macro_f1"] == 0.0 and s["exact_match"] == 0.0


# ---- correlation and clustering -----------------------------------------------------------------------------

def test_pearson_by_hand():
    # x - mean = [-1, 0, 1], y - mean = [-1, 1, 0]: cov sum = 1; norms sqrt(2) * sqrt(2) = 2 -> r = 0.5
    assert pearson_r([1, 2, 3], [1, 3, 2]) == pytest.approx(0.5)
    assert pearson_r([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        pearson_r([1, 2, 3], [0, 0, 0])


def test_v_measure_by_hand():
    # true [0,0,1,1], pred [0,0,1,2]: every cluster pure -> homogeneity 1;
    # H(K) = 1.5 ln2, H(K|C) = 1/2 * ln2 -> completeness 1 - 1/3 = 2/3; V = 2 * 1 * 2/3 / (5/3) = 0.8
    assert v_measure([0, 0, 1, 1], [0, 0, 1, 2]) == pytest.approx(0.8)
    assert v_measure(["x", "x", "y", "y"], [1, 1, 0, 0]) == pytest.approx(1.0)


# ---- text generation ----------------------------------------------------------------------------------------

def test_bleu_by_hand():
    # hyp a b c d e f (6) vs ref a b c d x f g (7)
    # p1 = 5/6 (e unmatched), p2 = 3/5 (ab bc cd), p3 = 2/4 (abc bcd), p4 = 1/3 (abcd)
    # geo mean = (5/6 * 3/5 * 1/2 * 1/3) ** 0.25 = (1/12) ** 0.25 = 0.537285
    # BP = exp(1 - 7/6) = 0.846482 -> BLEU = 0.454802
    bleu = corpus_bleu([_t("a b c d e f")], [[_t("a b c d x f g")]])
    assert bleu == pytest.approx((1 / 12) ** 0.25 * math.exp(-1 / 6))
    assert bleu == pytest.approx(0.454802, abs=1e-6)


def test_bleu_is_corpus_level_clipped_and_zero_without_4gram():
    # clipping: "the the the" vs "the cat": p1 = 1/3 ... and no 2-gram match -> 0 (no smoothing)
    assert corpus_bleu([_t("the the the")], [[_t("the cat")]]) == 0.0
    # two identical segments pooled: all precisions 1, lengths equal -> 1
    segs = [_t("a b c d e"), _t("f g h i")]
    assert corpus_bleu(segs, [[s] for s in segs]) == pytest.approx(1.0)
    # the closest of several references sets the length: hyp 4 tokens, refs 4 and 9 -> r = 4, BP = 1
    assert corpus_bleu([_t("a b c d")], [[_t("a b c d"), _t("a b c d e f g h i")]]) == pytest.approx(1.0)


def test_rouge_l_by_hand():
    # LCS(a b c d e, a c e f) = a c e = 3; P = 3/5, R = 3/4, F = 2 * .6 * .75 / 1.35 = 2/3
    assert lcs_length(_t("a b c d e"), _t("a c e f")) == 3
    assert rouge_l_f(_t("a b c d e"), _t("a c e f")) == pytest.approx(2 / 3)
    assert rouge_l_f(_t("x y"), _t("a b")) == 0.0


def _lcs_dp(a: list[str], b: list[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def test_bit_parallel_lcs_matches_dynamic_programming():
    rng = random.Random(7)
    for _ in range(200):
        a = [rng.choice("abcde") for _ in range(rng.randint(0, 30))]
        b = [rng.choice("abcdef") for _ in range(rng.randint(0, 30))]
        assert lcs_length(a, b) == _lcs_dp(a, b)


def test_sari_copy_of_source_by_hand():
    # source a b c d e, prediction = source, reference a b c d f; per n (keep P, keep R -> F1):
    #   n=1: kept {a,b,c,d,e}, good {a,b,c,d}: P 4/5, R 4/4 -> F 8/9
    #   n=2: P 3/4, R 1 -> 6/7;  n=3: P 2/3, R 1 -> 4/5;  n=4: P 1/2, R 1 -> 2/3
    #   nothing deleted -> del P 0/0 = 1; nothing added -> add P 0/0 = 1, R 0/1 -> F 0 (evaluate's rules)
    # SARI = (mean(8/9, 6/7, 4/5, 2/3) + 1 + 0) / 3 = (253/315 + 1) / 3 = 568/945
    assert sari(_t("a b c d e"), _t("a b c d e"), [_t("a b c d f")]) == pytest.approx(568 / 945)


def test_sari_perfect_edit_and_wrong_addition_by_hand():
    # prediction = reference: every n keeps {all shared}, deletes the e-grams, adds the f-grams, all correct -> 1
    assert sari(_t("a b c d e"), _t("a b c d f"), [_t("a b c d f")]) == pytest.approx(1.0)
    # source a b, prediction a b z, reference a b: keep F 1 and del 1 (0/0) for every n;
    # add: n=1..3 add {z}/{bz}/{abz} all wrong: P 0, R 0/0 = 1 -> F 0; n=4 nothing anywhere -> 1
    # SARI = (1 + 1 + 1/4) / 3 = 3/4
    assert sari(_t("a b"), _t("a b z"), [_t("a b")]) == pytest.approx(3 / 4)


def test_sari_equals_evaluates_published_examples():
    """`evaluate.load("sari")` downloads its script from the Hub, and no PyPI package ships it (checked:
    evaluate 0.4.6 and torchmetrics 1.9.0 wheels hold no SARI), so the metric card's own examples are the
    reference: the partial match is 26.953601953601954 and a perfect match 100."""
    src, pred = ["About 95 species are currently accepted ."], ["About 95 you now get in ."]
    refs = [["About 95 species are currently known .", "About 95 species are now accepted .",
             "95 species are now accepted ."]]
    assert 100 * sari_as_evaluate(src, pred, refs) == pytest.approx(26.953601953601954, abs=1e-12)
    # the README spells the same example without the space before the full stop: 13a tokenisation meets it
    assert 100 * sari_as_evaluate([s.replace(" .", ".") for s in src], [p.replace(" .", ".") for p in pred],
                                  [[r.replace(" .", ".") for r in refs[0]]]) == pytest.approx(26.953601953601954)
    assert 100 * sari_as_evaluate(src, src, [src]) == 100.0


def test_bleu_and_rouge_l_equal_their_libraries():
    """`evaluate`'s bleu = 13a tokens, case kept, no smoothing (sacrebleu with smooth 'none' on one
    reference); its rougeL = rouge-score's RougeScorer without stemmer."""
    import sacrebleu
    from rouge_score.rouge_scorer import RougeScorer

    rng = random.Random(11)
    words = "A device comprising a Sensor , wherein the sensor ( 12 ) is coupled to a-b housing ; and".split()
    preds = [" ".join(rng.choice(words) for _ in range(rng.randint(8, 40))) for _ in range(25)]
    refs = [" ".join(rng.choice(words) for _ in range(rng.randint(8, 40))) for _ in range(25)]
    ref_bleu = sacrebleu.corpus_bleu(preds, [refs], smooth_method="none", tokenize="13a").score / 100
    assert bleu_as_evaluate(preds, refs) == pytest.approx(ref_bleu, abs=1e-9)
    scorer = RougeScorer(["rougeL"], use_stemmer=False)
    ref_rouge = sum(scorer.score(r, p)["rougeL"].fmeasure for p, r in zip(preds, refs)) / len(preds)
    assert rouge_l_as_evaluate(preds, refs) == pytest.approx(ref_rouge, abs=1e-12)


def test_tokenize_lowercases_and_splits_punctuation():
    assert tokenize("A device, comprising: a Sensor.") == ["a", "device", ",", "comprising", ":", "a", "sensor", "."]
    assert tokenize(None) == []
