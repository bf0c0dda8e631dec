"""Baselines that need no training: PILOT's zero-shot `all` set and IPBench's items.

PILOT-Bench is evaluated zero-shot in its paper, so its `all` set has no train split to fit on. Two floors:
- `prior`: the label prior of the scored set itself (most frequent class; for multi-label every label held by
  more than half the cases) — an oracle-prior floor, as the papers' majority baselines are;
- `keyword`: a transparent rule over the model inputs (appellant arguments + examiner findings, never the
  board's opinion): statute sections named (35 U.S.C. 101/102/103/112, else Others) and board authorities
  named (37 CFR 1.131/1.132/41.50(x), else Others); the inputs carry no outcome cue, so the subdecisions get
  the board's most frequent real outcome, `Affirmed`.
IPBench's built tasks: open classification (1-5-1, 1-5-2) by `prior` (the most frequent main code) and
`nearest_neighbour` (the code of the most word-similar other item), scored by exact match at section, class,
subclass and full code as in the paper; choice items (3-3) by `lexical_overlap` (the option sharing most words
with the question) and the answer-only rules with `chance` beside them, by accuracy; generation items (4-1, 4-2)
by `lead` (the item's own input text, cut to 120 words) scored with ROUGE-L F (primary) and BLEU.
"""
from __future__ import annotations

import re
from collections import Counter

import numpy as np
import polars as pl

from common.ipc_symbols import normalise_ipc
from transforms.tasks.ipbench import EM_LEVELS
from transforms.tasks.ipbench_shortcuts import answer_only_baselines

from .metrics import accuracy, multiclass_scores, multilabel_scores
from .results import Score, SkipTask
from .text_metrics import corpus_bleu, rouge_l_f, tokenize

PILOT_LABELS = ("issue_type", "board_authority", "subdecision_fine", "subdecision_coarse")
ISSUE = re.compile(r"(?:§§?|U\.\s?S\.\s?C\.?|[Ss]ection)\s*(101|102|103|112)\b")
AUTHORITY = re.compile(r"C\.?\s?F\.?\s?R\.?\s*§?\s*(1\.131|1\.132|41\.50(?:\s?\(([a-f])\))?)")
MOST_FREQUENT_OUTCOME = "Affirmed"
LEAD_WORDS = 120
WORD = re.compile(r"[a-z0-9]+")


SETTINGS = {"base": ("appellant_arguments", "examiner_findings"), "merge": ("merged_text",),
            "split_claim": ("appellant_arguments", "examiner_findings", "claims")}


def _claims_text(claims: list[dict] | None) -> str:
    return "\n".join(c.get("text") or "" for c in claims or [])


def _inputs(df: pl.DataFrame, setting: str | None = None) -> list[str]:
    """The model input of one setting (default: base, else merge, whichever columns the table has)."""
    if setting is not None:
        cols = [c for c in SETTINGS[setting] if c in df.columns]
        if len(cols) != len(SETTINGS[setting]):
            raise SkipTask(f"setting {setting} needs {', '.join(SETTINGS[setting])}")
    else:
        cols = [c for c in SETTINGS["base"] if c in df.columns] or [c for c in SETTINGS["merge"] if c in df.columns]
    if not cols:
        raise SkipTask("no input text column (appellant_arguments, examiner_findings or merged_text)")
    texts = [df[c].to_list() if c != "claims" else [_claims_text(v) for v in df[c].to_list()] for c in cols]
    return ["\n".join(t or "" for t in row) for row in zip(*texts)]


def keyword_issue_types(text: str) -> set[str]:
    found = set(ISSUE.findall(text))
    return found or {"Others"}


def keyword_authorities(text: str) -> set[str]:
    found = {f"37 CFR {rule[:5]}({letter})" if letter else f"37 CFR {rule.replace(' ', '')}"
             for rule, letter in AUTHORITY.findall(text)}
    return found or {"Others"}


def _prior_set(y: list[set[str]]) -> set[str]:
    freq = Counter(lab for s in y for lab in s)
    return {lab for lab, n in freq.items() if n > len(y) / 2}


def _score_labels(name: str, test: pl.DataFrame, labels: list[str], texts: list[str]) -> list[Score]:
    out: list[Score] = []
    for label in labels:
        if isinstance(test.schema[label], pl.List):
            y = [set(v or []) for v in test[label].to_list()]
            rule = keyword_issue_types if label == "issue_type" else keyword_authorities
            preds = {"prior": [_prior_set(y)] * len(y), "keyword": [rule(t) for t in texts]}
            # the paper's evaluator binarises over the labels of y_true and this model's y_pred
            out += [Score(f"{name}:{label}", model, m, v, primary=m == "micro_f1")
                    for model, pred in preds.items() for m, v in multilabel_scores(y, pred).items()]
        else:
            y = [str(v) for v in test[label].to_list()]
            top = max(sorted(set(y)), key=Counter(y).__getitem__)
            for model, pred in (("prior", [top] * len(y)), ("keyword", [MOST_FREQUENT_OUTCOME] * len(y))):
                out += [Score(f"{name}:{label}", model, m, v, primary=m == "macro_f1")
                        for m, v in multiclass_scores(y, pred).items()]
    return out


def score_pilot_zero_shot(task: str, test: pl.DataFrame) -> list[Score]:
    """`prior` and `keyword` on every label column of a test-only (zero-shot) task, with SPEC's metrics.
    A table holding every setting's inputs (`all/eval`) is scored once per input setting on the same
    cases, as the paper scores base, merge and split+claim on its aligned set: `all:<label>` is base,
    `all:merge:<label>` and `all:split_claim:<label>` the others."""
    labels = [c for c in PILOT_LABELS if c in test.columns]
    if not labels:
        raise SkipTask(f"no label column (one of {', '.join(PILOT_LABELS)})")
    out = _score_labels(task, test, labels, _inputs(test))
    if all(c in test.columns for c in SETTINGS["split_claim"] + SETTINGS["merge"]):
        for setting in ("merge", "split_claim"):
            out += _score_labels(f"{task}:{setting}", test, labels, _inputs(test, setting))
    return out


def _words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def _overlap_choice(question: str, options: list[str]) -> str:
    q = _words(question)
    return max(options, key=lambda o: (len(q & _words(o)) / max(len(_words(o)), 1), -options.index(o)))


def _item_input(question: str) -> str:
    """The item's own material: the question minus its instruction line."""
    return question.split("\n", 1)[1] if "\n" in question else question


def classification_em(gold: list[str], pred: list[str | None],
                      codes: list[list[str]] | None = None) -> dict[str, float]:
    """Exact match of a predicted code with the gold main code at section, class, subclass and full code
    (the paper's four levels) and their average (`average_em`, the paper's task score), both normalised by
    `normalise_ipc`; with `codes`, also full-code match with any of the patent's codes (`full_code_em_any`)."""
    g = [normalise_ipc(x) or "" for x in gold]
    p = [normalise_ipc(x) or "" if x else "" for x in pred]
    n = max(len(g), 1)
    out = {f"{level}_em": sum(bool(a) and a[:k] == b[:k] for a, b in zip(p, g)) / n for level, k in EM_LEVELS.items()}
    out["full_code_em"] = sum(bool(a) and a == b for a, b in zip(p, g)) / n
    # the paper's 1-5 score: the average of its four exact-match levels
    out["average_em"] = (sum(out[f"{level}_em"] for level in EM_LEVELS) + out["full_code_em"]) / (len(EM_LEVELS) + 1)
    if codes is not None:
        out["full_code_em_any"] = sum(bool(a) and a in {normalise_ipc(c) for c in cs}
                                      for a, cs in zip(p, codes)) / n
    return out


def _nearest_codes(questions: list[str], gold: list[str]) -> list[str]:
    """Leave-one-out nearest neighbour: the main code of the other item sharing most words (Jaccard)."""
    bags = [_words(_item_input(q)) for q in questions]
    out = []
    for i, bag in enumerate(bags):
        scores = [(len(bag & b) / max(len(bag | b), 1), -j) for j, b in enumerate(bags) if j != i]
        out.append(gold[-max(scores)[1]] if scores else "")
    return out


def _score_open_classification(task: str, test: pl.DataFrame) -> list[Score]:
    gold, codes = test["answer"].to_list(), test["codes"].to_list()
    top = max(sorted(set(gold)), key=Counter(gold).__getitem__)
    preds = {"prior": [top] * len(gold), "nearest_neighbour": _nearest_codes(test["question"].to_list(), gold)}
    return [Score(task, model, metric, value, primary=metric == "average_em")
            for model, pred in preds.items() for metric, value in classification_em(gold, pred, codes).items()]


def _score_choice(task: str, rows: list[dict]) -> list[Score]:
    """Accuracy of `lexical_overlap` (reads the question) and of the answer-only rules (never read it),
    beside `chance`: a shortcut-free task keeps the latter near chance."""
    options, gold = [list(r["options"]) for r in rows], [r["answer"] for r in rows]
    scores = {"lexical_overlap": accuracy(gold, [_overlap_choice(r["question"], o) for r, o in zip(rows, options)])}
    scores |= answer_only_baselines(options, gold)
    return [Score(task, model, "accuracy", value) for model, value in scores.items()]


def score_ipbench(task: str, train: pl.DataFrame | None, test: pl.DataFrame | None) -> list[Score]:
    """Open classification (1-5) by exact match at four levels (`prior`, `nearest_neighbour`); choice items by
    accuracy (`lexical_overlap`, the answer-only rules, `chance`); generation by ROUGE-L / BLEU (`lead`)."""
    if test is None or test.height == 0:
        raise SkipTask("no test split")
    if "codes" in test.columns:
        return _score_open_classification(task, test)
    rows = test.select("question", "options", "answer").to_dicts()
    if all(r["options"] for r in rows):
        return _score_choice(task, rows)
    refs = [tokenize(r["answer"] or "") for r in rows]
    lead = [tokenize(" ".join(_item_input(r["question"]).split()[:LEAD_WORDS])) for r in rows]
    return [Score(task, "lead", "bleu", corpus_bleu(lead, [[r] for r in refs]), primary=False),
            Score(task, "lead", "rouge_l_f", float(np.mean([rouge_l_f(p, r) for p, r in zip(lead, refs)])))]
