"""What an eval run produces: scores (one row per task × model × metric), skipped tasks, the overall mean.

A task that a small world does not publish (or that cannot be scored, e.g. a single-class train sample)
becomes a `Skipped` with its reason, never an exception: eval runs on every nightly build, whatever its
size, and the report says what was left out.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

OVERALL = "overall"
SCORE_COLUMNS = ("dataset", "version", "task", "model", "metric", "value")


# Scores are written rounded: multi-threaded CPU matrix products sum in varying order, so dense scores move in
# the 7th digit between runs of the same version; 5 decimals keep scores.parquet byte-identical.
DIGITS = 5


class SkipTask(Exception):
    """This task cannot be scored on this version; the message is the reason shown in the report."""


@dataclass(frozen=True)
class Score:
    task: str
    model: str
    metric: str
    value: float
    primary: bool = True  # counts towards the overall mean (one primary metric per task and model)


@dataclass(frozen=True)
class Skipped:
    task: str
    reason: str


@dataclass
class EvalResult:
    dataset: str
    version: str
    scores: list[Score] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)  # what the scores depend on, shown in the report

    def overall(self) -> dict[str, tuple[float, int]]:
        """model -> (mean of its primary task scores, number of tasks), like the papers' overall score."""
        per_model: dict[str, list[float]] = {}
        for s in self.scores:
            if s.primary and s.task != OVERALL:
                per_model.setdefault(s.model, []).append(s.value)
        return {m: (float(np.mean(v)), len(v)) for m, v in sorted(per_model.items())}

    def frame(self) -> pl.DataFrame:
        """Scores plus one `overall`/`mean` row per model, sorted by (task, model, metric)."""
        rows = [(self.dataset, self.version, s.task, s.model, s.metric, round(float(s.value), DIGITS))
                for s in self.scores]
        rows += [(self.dataset, self.version, OVERALL, m, "mean", round(v, DIGITS))
                 for m, (v, _n) in self.overall().items()]
        schema = {"dataset": pl.String, "version": pl.String, "task": pl.String, "model": pl.String,
                  "metric": pl.String, "value": pl.Float64}
        return pl.DataFrame(rows, schema=schema, orient="row").sort(["task", "model", "metric"])
