"""The trained route of the opinion split: a logistic regression over sentence features, on top of the rules.

The rules (`opinions.RuleSplitter`) attribute a sentence only when a cue they know fires; on real prose they
miss parties named otherwise. This route reads the same paragraphs and sentences, keeps what the rules give a
party, and gives each other sentence the role a small linear model scores highest from features a reader uses
(`opinion_features`: the party that is the sentence's subject and the kind of verb that follows, reported
speech, the papers it cites however written, quotation, position in the paragraph, the rules' roles of its
neighbours, the party the paragraph opens with, its words). Two guards keep the leakage policy first: a
sentence the Board-voice veto (`opinion_features.board_veto`: the rules' Board voice plus the Board judging a
party) takes is `ptab_opinion` whatever the rules or the model say, and the model moves a sentence into an
input role only at a probability of `threshold` or more. The build's leak check runs on its output too.

The model is trained only on the reference decisions that are not blind (the real set's `blind: no` ones and
the real-style set), with settings chosen by cross-validation grouped by decision (`grouped_cv`). It is
committed as JSON weights (`train_model` writes it; `python -m transforms.opinion_classifier OUT.json`
remakes it deterministically), so the build needs neither scikit-learn nor the fixtures, only this module.
"""
from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path

from transforms.opinion_features import FEATURES_VERSION, board_veto, features
from transforms.opinions import INPUT_ROLES, ROLES, OpinionSplit, RuleSplitter, Sentence, _tokens, cited_party, split_flags

def paragraph_rows(text: str) -> Iterator[tuple[str, list[str], list[tuple[str, str | None]], int]]:
    """(section, sentences, rules' roles, index) of every sentence of the split sections, in order."""
    for section, sents, roles in RuleSplitter().paragraphs(text):
        for i in range(len(sents)):
            yield section, sents, roles, i


class ClassifierSplitter:
    """The trained route (`model`: the JSON `train_model` writes)."""

    def __init__(self, model: dict) -> None:
        if model.get("features_version") != FEATURES_VERSION:
            raise ValueError(f"model features v{model.get('features_version')}, code v{FEATURES_VERSION}: retrain")
        self.model, self.name = model, model["name"]
        self.classes, self.weights, self.threshold = model["classes"], model["weights"], model["threshold"]
        self.rule_features = model["settings"].get("rule_features", False)
        self.keep_rules = model["settings"].get("combine", "union") == "union"
        self.lexical = model["settings"].get("lexical", True)

    @classmethod
    def from_file(cls, path: str | Path) -> ClassifierSplitter:
        return cls(json.loads(Path(path).read_text(encoding="utf-8")))

    def probabilities(self, feats: list[str]) -> dict[str, float]:
        scores = list(self.model["intercept"])
        for f in set(feats):
            for k, w in enumerate(self.weights.get(f, ())):
                scores[k] += w
        top = max(scores)
        exp = [math.exp(s - top) for s in scores]
        return {c: e / sum(exp) for c, e in zip(self.classes, exp)}

    def role(self, section: str, sents: list[str], roles: list[tuple[str, str | None]], i: int) -> tuple[str, str]:
        """(role, why) of sentence `i` of a paragraph: the Board's voice first; then (`combine: union`) a party
        the rules attribute; else the model's role, an input role only at a probability of `threshold` or more
        (else the rules' non-input role)."""
        if board := board_veto(sents[i]):
            return "ptab_opinion", f"board:{board}"
        if i and cited_party(sents[i]) and board_veto(sents[i - 1]):  # "See the Reply Brief, page 1." after the Board
            return "ptab_opinion", "board:citation"
        rule = roles[i][0]
        if self.keep_rules and rule in INPUT_ROLES:
            return rule, "rules"
        probs = self.probabilities(features(section, sents, roles, i, self.rule_features, self.lexical))
        best = max(probs, key=probs.get)
        if best in INPUT_ROLES and probs[best] >= self.threshold:
            return best, f"model:{probs[best]:.2f}"
        if rule not in INPUT_ROLES:
            return rule, "rules"
        best = max(("ptab_opinion", "facts"), key=probs.get)
        return best, f"model:{probs[best]:.2f}"

    def split(self, text: str) -> OpinionSplit:
        result = OpinionSplit()
        for section, sents, roles in RuleSplitter().paragraphs(text, result.sections):
            for i, sent in enumerate(sents):
                role, why = self.role(section, sents, roles, i)
                result.sentences.append(Sentence(section, role, sent, why))
        result.flags = split_flags(result)
        return result


# ---------- training (scikit-learn; only here, never at build time) ----------

def labelled_rows(decisions: list[tuple[str, str, list[tuple[str, str]]]]) -> list[dict]:
    """Each sentence the splitter cuts from the decisions' text (with its paragraph and the rules' roles), with
    the hand label of the gold sentence it matches (greedy best token Jaccard >= 0.6, as `score_roles`);
    sentences without a match are left out."""
    rows = []
    for did, text, gold in decisions:
        toks, used = [_tokens(t) for _, t in gold], set()
        for section, sents, roles, i in paragraph_rows(text):
            pt = _tokens(sents[i])
            best, best_j = None, 0.6
            for k, tt in enumerate(toks):
                j = len(pt & tt) / max(len(pt | tt), 1)
                if k not in used and j >= best_j:
                    best, best_j = k, j
            if best is not None:
                used.add(best)
                rows.append({"decision": did, "label": gold[best][0], "at": (section, sents, roles, i)})
    return rows


def training_decisions(folder: Path) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(id, text, gold) of the reference decisions a model may learn from: never a blind one."""
    from transforms.opinion_reference import load_real_set, render_decision, truth

    real = [(d["id"], d["text"], d["truth"]) for d in load_real_set(folder / "ptab_real") if not d["blind"]]
    style = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "ptab_decisions").glob("*.json"))]
    return real + [(d["id"], render_decision(d), truth(d)) for d in style]


def fit(rows: list[dict], s: dict):  # noqa: ANN201
    """A multinomial logistic regression (lbfgs, deterministic) over features seen `min_count`+ times."""
    from collections import Counter

    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    feats = [features(*r["at"], rules=s["rule_features"], lexical=s["lexical"]) for r in rows]
    seen = Counter(f for fs in feats for f in set(fs))
    vec = DictVectorizer()
    x = vec.fit_transform([{f: 1 for f in fs if seen[f] >= s["min_count"]} for fs in feats])
    clf = LogisticRegression(C=s["C"], max_iter=5000, class_weight="balanced" if s["balanced"] else None)
    clf.fit(x, [r["label"] for r in rows])
    return vec, clf


def to_model(vec, clf, name: str, settings: dict, trained_on: dict) -> dict:  # noqa: ANN001
    classes = [str(c) for c in clf.classes_]
    weights = {f: [round(float(clf.coef_[k, j]), 5) for k in range(len(classes))]
               for f, j in sorted(vec.vocabulary_.items())}
    return {"name": name, "features_version": FEATURES_VERSION, "classes": classes,
            "intercept": [round(float(b), 5) for b in clf.intercept_], "threshold": settings["threshold"],
            "settings": settings, "trained_on": trained_on,
            "weights": {f: w for f, w in weights.items() if any(abs(v) >= 1e-4 for v in w)}}


def grouped_cv(rows: list[dict], settings: dict) -> dict:
    """Sentence-level P/R per role and Board sentences put into an input, out of fold, folds grouped by
    decision (no decision both in the part fitted and in the part scored). The rules were written on these
    decisions, so under `combine: union` the figures flatter the route; `combine: model` measures the model."""
    from sklearn.model_selection import GroupKFold

    counts = {r: {"tp": 0, "fp": 0, "fn": 0} for r in ROLES}
    leaks = 0
    groups = [r["decision"] for r in rows]
    for train_ix, test_ix in GroupKFold(n_splits=settings["folds"]).split(rows, groups=groups):
        vec, clf = fit([rows[i] for i in train_ix], settings)
        splitter = ClassifierSplitter(to_model(vec, clf, "cv", settings, {}))
        for i in test_ix:
            pred, gold = splitter.role(*rows[i]["at"])[0], rows[i]["label"]
            counts[pred]["tp" if pred == gold else "fp"] += 1
            counts[gold]["fn"] += pred != gold
            leaks += gold == "ptab_opinion" and pred in INPUT_ROLES
    table = {r: {"precision": round(v["tp"] / max(v["tp"] + v["fp"], 1), 4),
                 "recall": round(v["tp"] / max(v["tp"] + v["fn"], 1), 4), "support": v["tp"] + v["fn"]}
             for r, v in counts.items()}
    return {"roles": table, "board_sentences_in_inputs": leaks, "sentences": len(rows),
            "decisions": len(set(groups))}


NAME = "classifier-3"
# chosen by grouped CV on the non-blind decisions only (threshold 0.5-0.8, balanced or not, lexical or not, C):
# the setting with the highest real-decision recall and no Board sentence in an input out of fold
SETTINGS = {"C": 1.0, "threshold": 0.6, "min_count": 2, "folds": 5, "balanced": True, "rule_features": False,
            "combine": "union", "lexical": True}


def train_model(folder: Path, settings: dict | None = None) -> dict:
    """The committed model: fitted on every non-blind reference decision with `settings`, its grouped-CV
    figures (the route as committed, and the model alone) recorded beside the weights."""
    s = {**SETTINGS, **(settings or {})}
    decisions = training_decisions(folder)
    rows = labelled_rows(decisions)
    cv = {"route": grouped_cv(rows, s), "model_alone": grouped_cv(rows, {**s, "combine": "model"})}
    vec, clf = fit(rows, s)
    trained_on = {"decisions": len(decisions), "sentences": len(rows),
                  "ids": sorted(d for d, _, _ in decisions), "cv": cv}
    return to_model(vec, clf, NAME, s, trained_on)


def route_report(splitter: ClassifierSplitter, notes: dict[str, str]) -> dict:
    """The committed score of the route (`pilot_classifier_scores.json`): `reference_report`'s sets, plus every
    blind batch pooled ("pooled_blind": none of them was seen in training or tuning). `notes`: "held_out",
    "pooled_blind" and per blind batch ("blind", "blind_2", ...)."""
    from transforms.opinion_reference import reference_report, reference_sets, score_real

    sets = reference_sets()
    batches = {k: v for k, v in notes.items() if k.startswith("blind")}
    report = reference_report(sets["real-style"], splitter, notes.get("held_out", ""), sets, batches)
    blind = [d for name, ds in sets.items() if name.startswith("real blind") for d in ds]
    report["real"]["pooled_blind"] = {**score_real(blind, splitter), "note": notes.get("pooled_blind", "")}
    return report


if __name__ == "__main__":  # python -m transforms.opinion_classifier patentfactory/stages/pilot_classifier.json
    from transforms.opinion_reference import REFERENCE_DIR

    Path(sys.argv[1]).write_text(json.dumps(train_model(REFERENCE_DIR), indent=0, sort_keys=True) + "\n",
                                 encoding="utf-8")
