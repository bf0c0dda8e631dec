"""Answer-only baselines for choice items: what a model scores without reading the question.

Each rule sees only the options (and, for `most_frequent_option`, how often each option occurs across
the task's items). `option_length` and `position` report the better of their variants (longest or
shortest; each fixed position), so they are upper bounds of those shortcuts. A task free of shortcuts
keeps all three near `chance`, the mean of 1 / number of options.
"""
from __future__ import annotations

from collections import Counter

SHORTCUTS = ("most_frequent_option", "option_length", "position")


def _accuracy(picks: list[str], answers: list[str]) -> float:
    return sum(p == a for p, a in zip(picks, answers)) / len(answers) if answers else 0.0


def answer_only_baselines(options: list[list[str]], answers: list[str]) -> dict[str, float]:
    """Accuracy of each answer-only rule plus `chance`; ties go to the smallest option string, so a pick
    depends on the set of options only, never on their order."""
    items = [(list(o), a) for o, a in zip(options, answers) if o]
    opts, gold = [o for o, _ in items], [a for _, a in items]
    freq = Counter(x for o in opts for x in o)
    width = max((len(o) for o in opts), default=0)
    return {
        "chance": sum(1 / len(o) for o in opts) / len(opts) if opts else 0.0,
        "most_frequent_option": _accuracy([min(o, key=lambda x: (-freq[x], x)) for o in opts], gold),
        "option_length": max(_accuracy([min(o, key=lambda x: (-len(x), x)) for o in opts], gold),
                             _accuracy([min(o, key=lambda x: (len(x), x)) for o in opts], gold)),
        "position": max((_accuracy([o[p] if p < len(o) else "" for o in opts], gold) for p in range(width)),
                        default=0.0),
    }
