"""Frame-level scorers for PILOT-Bench, Patent-CR and Pap2Pat with trivial and shallow baselines.

These datasets are not published yet, so each scorer takes plain DataFrames with SPEC's field names and
finds what it needs by column; `evaluate_dataset` feeds it every published task's train/test splits.
The baselines are floors a real model must beat:
- PILOT: `majority` (most frequent class; for multi-label, each label predicted when more than half of
  train carries it) and `tfidf_lr` (TF-IDF 1-2 grams of the input fields -> logistic regression, one binary
  model per label for multi-label). A list label column is multi-label, a string column multi-class.
- Patent-CR: `copy` (claims_after := claims_before, strong per the paper) and `truncate` (keep the first
  ceil(0.77 × n) claims: the paper's before/after claim-count ratio 10.66 / 13.85), scored with SARI
  (primary), BLEU and ROUGE-L against claims_after.
- Pap2Pat: the paper's heuristic baselines, `copy_paper` (patent := paper text) and one `<outline column>`
  baseline per outline variant (patent := the outline's markdown, headings and bullets, as the authors feed it),
  scored with the paper's metrics (`pap2pat_metrics`: line-level ROUGE-L F primary, ROUGE-1/2, BLEU 0..100 per
  document, per-section ROUGE-L and BLEU, repetition, length ratio) against the patent text.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np
import polars as pl

from . import pap2pat_metrics
from .metrics import multiclass_scores, multilabel_scores
from .results import Score, SkipTask
from .text_metrics import (bleu_as_evaluate, corpus_bleu, rouge_l_as_evaluate, rouge_l_f, sari,
                           sari_as_evaluate)

# Input settings: base/split (the two role fields), merge (`merged_text`), split+claim (roles + `claims`).
PILOT_ROLES = ("appellant_arguments", "examiner_findings")
PILOT_LABELS = ("issue_type", "board_authority", "subdecision_fine", "subdecision_coarse")
PATENTCR_FIELDS = ("claims_before", "claims_after")
CLAIM_KEEP_RATIO = 10.66 / 13.85
PAP2PAT_SOURCE, PAP2PAT_TARGET, PAP2PAT_OUTLINE_PREFIX = "paper_text", "patent_text", "outline"
_MARKDOWN = re.compile(r"^[ \t]*(#+|[-*])[ \t]*", re.MULTILINE)


def _require(df: pl.DataFrame | None, columns: Sequence[str], what: str) -> pl.DataFrame:
    if df is None or df.height == 0:
        raise SkipTask(f"no {what} split")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise SkipTask(f"{what} split lacks {', '.join(missing)}")
    return df


def _score_name(task: str, label: str) -> str:
    return task if task == label else f"{task}:{label}"


def pilot_texts(df: pl.DataFrame) -> list[str]:
    """The model input, never the board's opinion: the role fields (+ claims), else the merged text.

    A table carrying every setting's fields (the zero-shot `all` set) is read as split+claim, so no text
    is counted twice.
    """
    roles = [c for c in PILOT_ROLES if c in df.columns]
    cols = roles + (["claims"] if "claims" in df.columns else []) if roles else (
        ["merged_text"] if "merged_text" in df.columns else [])
    if not cols:
        raise SkipTask(f"no input text column ({', '.join(PILOT_ROLES)} or merged_text)")
    parts = [_as_text(c, df.schema[c]).fill_null("") for c in cols]
    return df.select(pl.concat_str(parts, separator="\n\n")).to_series().to_list()


def _as_text(col: str, dtype: pl.DataType) -> pl.Expr:
    """A text column as is; a list of texts, or of claims (struct with `text`, split_claim), newline-joined."""
    if not isinstance(dtype, pl.List):
        return pl.col(col)
    inner = dtype.inner
    if isinstance(inner, pl.Struct):
        return pl.col(col).list.eval(pl.element().struct.field("text")).list.join("\n")
    return pl.col(col).list.join("\n")


def _fit_predict(x_train, y: np.ndarray, x_test) -> np.ndarray:
    """Logistic regression on TF-IDF; a target with one value in train predicts that constant."""
    from sklearn.linear_model import LogisticRegression

    if len(set(y.tolist())) < 2:
        return np.full(x_test.shape[0], y[0])
    return LogisticRegression(C=1.0, max_iter=1000, random_state=0).fit(x_train, y).predict(x_test)


def _pilot_multilabel(task: str, label: str, train: pl.DataFrame, test: pl.DataFrame, x_train, x_test) -> list[Score]:
    y_train = [set(v or []) for v in train[label].to_list()]
    y_test = [set(v or []) for v in test[label].to_list()]
    vocab = sorted(set().union(*y_train, *y_test))
    freq = Counter(lab for s in y_train for lab in s)
    majority = {lab for lab in vocab if freq[lab] > len(y_train) / 2}
    columns = {lab: _fit_predict(x_train, np.array([lab in s for s in y_train]), x_test) for lab in vocab}
    tfidf = [{lab for lab in vocab if columns[lab][i]} for i in range(len(y_test))]
    out = []
    for model, pred in (("majority", [majority] * len(y_test)), ("tfidf_lr", tfidf)):
        for metric, value in multilabel_scores(y_test, pred, vocab).items():
            out.append(Score(_score_name(task, label), model, metric, value, primary=metric == "micro_f1"))
    return out


def _pilot_multiclass(task: str, label: str, train: pl.DataFrame, test: pl.DataFrame, x_train, x_test) -> list[Score]:
    y_train, y_test = [str(v) for v in train[label].to_list()], [str(v) for v in test[label].to_list()]
    top = max(sorted(set(y_train)), key=Counter(y_train).__getitem__)
    tfidf = _fit_predict(x_train, np.array(y_train, dtype=object), x_test).tolist()
    out = []
    for model, pred in (("majority", [top] * len(y_test)), ("tfidf_lr", tfidf)):
        for metric, value in multiclass_scores(y_test, pred).items():
            out.append(Score(_score_name(task, label), model, metric, value, primary=metric == "macro_f1"))
    return out


def score_pilot(task: str, train: pl.DataFrame | None, test: pl.DataFrame | None) -> list[Score]:
    """Majority and TF-IDF/LR baselines for every PILOT label column of the task (test split scored)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    test = _require(test, (), "test")
    if train is None or train.height == 0:  # the zero-shot `all` set: floors that need no training
        from .zero_shot import score_pilot_zero_shot
        return score_pilot_zero_shot(task, test)
    labels = [c for c in PILOT_LABELS if c in train.columns and c in test.columns]
    if not labels:
        raise SkipTask(f"no label column (one of {', '.join(PILOT_LABELS)})")
    vec = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), max_features=100_000)
    x_train = vec.fit_transform(pilot_texts(train))
    x_test = vec.transform(pilot_texts(test))
    out: list[Score] = []
    for label in labels:
        multi = isinstance(train.schema[label], pl.List)
        out += (_pilot_multilabel if multi else _pilot_multiclass)(task, label, train, test, x_train, x_test)
    return out


def claims_list(value: Sequence[str] | str | None) -> list[str]:
    """Claims as a list whether stored as list<string> (warehouse) or one newline-joined string."""
    if value is None:
        return []
    return [c for c in (value.split("\n") if isinstance(value, str) else value) if c and c.strip()]


def truncate_claims(claims: list[str], ratio: float = CLAIM_KEEP_RATIO) -> list[str]:
    """The first ceil(ratio × n) claims: a cut from the end, so claim 1 (the main independent) stays."""
    return claims[:math.ceil(len(claims) * ratio)]


def _generation_scores(task: str, model: str, sources: list[list[str]], preds: list[list[str]],
                       refs: list[list[str]], primary: str) -> list[Score]:
    values = {"bleu": corpus_bleu(preds, [[r] for r in refs]),
              "rouge_l_f": float(np.mean([rouge_l_f(p, r) for p, r in zip(preds, refs)]))}
    if sources:
        values["sari"] = float(np.mean([sari(s, p, [r]) for s, p, r in zip(sources, preds, refs)]))
    return [Score(task, model, m, v, primary=m == primary) for m, v in sorted(values.items())]


def score_patentcr(task: str, train: pl.DataFrame | None, test: pl.DataFrame | None,
                   keep_ratio: float = CLAIM_KEEP_RATIO) -> list[Score]:
    """`copy` and `truncate` baselines scored against claims_after (SARI primary, BLEU, ROUGE-L).

    Neither baseline is trained, so a version without a test split (a sample world with no June grant)
    is scored on its train split, reported as `<task>@train`."""
    if (test is None or test.height == 0) and train is not None and train.height:
        test, task = train, f"{task}@train"
    test = _require(test, PATENTCR_FIELDS, "test")
    before = [claims_list(v) for v in test["claims_before"].to_list()]
    after = ["\n".join(claims_list(v)) for v in test["claims_after"].to_list()]
    sources = ["\n".join(c) for c in before]
    truncated = ["\n".join(truncate_claims(c, keep_ratio)) for c in before]
    return _patentcr_scores(task, "copy", sources, sources, after) + \
        _patentcr_scores(task, "truncate", sources, truncated, after)


def _patentcr_scores(task: str, model: str, sources: list[str], preds: list[str], refs: list[str]) -> list[Score]:
    """SARI (primary), BLEU and ROUGE-L as the paper's library (Hugging Face `evaluate`) computes them."""
    values = {"sari": sari_as_evaluate(sources, preds, [[r] for r in refs]), "bleu": bleu_as_evaluate(preds, refs),
              "rouge_l_f": rouge_l_as_evaluate(preds, refs)}
    return [Score(task, model, m, v, primary=m == "sari") for m, v in sorted(values.items())]


def outline_text(value: Sequence[str] | str | None) -> str:
    """Bullets and headings of a markdown outline as plain lines (markers dropped)."""
    text = "\n".join(value) if isinstance(value, (list, tuple)) else (value or "")
    return _MARKDOWN.sub("", text)


def score_pap2pat(task: str, train: pl.DataFrame | None, test: pl.DataFrame | None) -> list[Score]:
    """The paper's metrics of its heuristic drafts: the paper itself and each outline (empty excluded)."""
    test = _require(test, (PAP2PAT_SOURCE, PAP2PAT_TARGET), "test")
    refs = [t or "" for t in test[PAP2PAT_TARGET].to_list()]
    drafts = {"copy_paper": [t or "" for t in test[PAP2PAT_SOURCE].to_list()]}
    for col in sorted(c for c in test.columns if c.startswith(PAP2PAT_OUTLINE_PREFIX) and not c.endswith("_empty")):
        drafts[col] = [v if isinstance(v, str) else "\n".join(v or []) for v in test[col].to_list()]
    out: list[Score] = []
    for model, preds in drafts.items():
        values = pap2pat_metrics.average([pap2pat_metrics.paper_metrics(p, r) for p, r in zip(preds, refs)])
        out += [Score(task, model, k.replace("-", "_"), v, primary=k == "rouge-l_f") for k, v in sorted(values.items())]
    return out
