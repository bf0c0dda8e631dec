"""Write an eval result next to the published data: `<root>/eval/<dataset>/<version>/`.

`scores.parquet` (dataset, version, task, model, metric, value; sorted, deterministic bytes),
`report.md` (a table per model's primary scores, the overall mean, the skipped tasks and every metric)
and `scores.png` (bar plot of per-task primary scores), and `summary.json` (the overall means, the skipped tasks and
the settings), written last: a version whose summary is there was scored whole, so a night that publishes
nothing new keeps that report instead of scoring the same bytes again (`kept_summary`). All through `Storage`,
so s3:// roots work.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from patentfactory.store.card import png_bytes  # noqa: E402
from patentfactory.store.parquet_io import parquet_bytes  # noqa: E402
from patentfactory.store.storage import Storage  # noqa: E402
from .results import MTEB_DIR, EvalResult, mteb_results  # noqa: E402

log = logging.getLogger(__name__)
SCORES_FILE, REPORT_FILE, PLOT_FILE, SUMMARY_FILE = "scores.parquet", "report.md", "scores.png", "summary.json"


@dataclass(frozen=True)
class ReportPaths:
    scores: str
    report: str
    plot: str


def eval_prefix(dataset: str, version: str) -> str:
    """Where a version's eval files live, relative to the publish root."""
    return f"eval/{dataset}/{version}"


def _primary_table(result: EvalResult) -> tuple[list[str], list[str], dict[tuple[str, str], tuple[str, float]]]:
    """(tasks, models, (task, model) -> (metric, value)) of the primary scores."""
    cells = {(s.task, s.model): (s.metric, s.value) for s in result.scores if s.primary}
    tasks = list(dict.fromkeys(t for t, _ in cells))
    models = sorted({m for _, m in cells})
    return tasks, models, cells


def render_plot(result: EvalResult) -> bytes:
    """Grouped bars: one group per task, one bar per model (primary metric)."""
    tasks, models, cells = _primary_table(result)
    fig, ax = plt.subplots(figsize=(max(7, 0.55 * len(tasks) + 4), 4), dpi=100)
    width = 0.8 / max(len(models), 1)
    x = np.arange(len(tasks))
    for i, model in enumerate(models):
        values = [cells.get((t, model), ("", np.nan))[1] for t in tasks]
        ax.bar(x + i * width - 0.4 + width / 2, values, width, label=model)
    ax.set_xticks(x, tasks, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("score (primary metric)")
    ax.set_title(f"{result.dataset} {result.version}")
    if models:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return png_bytes(fig)


def _scores_table(result: EvalResult) -> list[str]:
    """Markdown table task × model of the primary scores, closed by the overall mean per model."""
    tasks, models, cells = _primary_table(result)
    if not tasks:
        return ["No task could be scored in this version (see the skipped tasks)."]
    out = ["| task | metric | " + " | ".join(models) + " |", "|---|---|" + "---:|" * len(models)]
    for task in tasks:
        metric = next(cells[(task, m)][0] for m in models if (task, m) in cells)
        vals = [f"{cells[(task, m)][1]:.4f}" if (task, m) in cells else "–" for m in models]
        out.append(f"| {task} | {metric} | " + " | ".join(vals) + " |")
    overall = result.overall()
    out.append("| **overall (mean)** | | " + " | ".join(
        f"**{overall[m][0]:.4f}** ({overall[m][1]} tasks)" if m in overall else "–" for m in models) + " |")
    return out


def render_report(result: EvalResult) -> str:
    """Markdown: primary scores (task × model), overall mean per model, skipped tasks, all metrics."""
    out = [f"# Evaluation: {result.dataset} {result.version}", "",
           "Simple baselines on the published Parquet (see `patentfactory.evaluation`).", "",
           f"## {result.dataset}", ""]
    out += _scores_table(result)
    out += ["", f"![scores]({PLOT_FILE})", ""]
    if result.settings:
        out += ["Settings: " + "; ".join(f"{k} = `{v}`" for k, v in sorted(result.settings.items())) + ".", ""]
    out += ["## Skipped tasks", ""]
    out += [f"- {s.task}: {s.reason}" for s in result.skipped] or ["None."]
    out += ["", "## All metrics", "", "| task | model | metric | value |", "|---|---|---|---:|"]
    for row in result.frame().iter_rows(named=True):
        out.append(f"| {row['task']} | {row['model']} | {row['metric']} | {row['value']:.4f} |")
    return "\n".join(out) + "\n"


def summary_of(result: EvalResult) -> dict:
    """What a night reports of an evaluation: the overall mean per model, the skipped tasks, the settings."""
    return {"dataset": result.dataset, "version": result.version,
            "overall": {model: mean for model, (mean, _n) in result.overall().items()},
            "skipped": [s.task for s in result.skipped], "settings": result.settings}


def write_report(storage: Storage, result: EvalResult) -> ReportPaths:
    """Write scores.parquet, report.md, scores.png and then summary.json for the result; returns their URIs."""
    prefix = eval_prefix(result.dataset, result.version)
    storage.write_bytes(f"{prefix}/{SCORES_FILE}", parquet_bytes(result.frame()).data)
    storage.write_bytes(f"{prefix}/{PLOT_FILE}", render_plot(result))
    storage.write_text(f"{prefix}/{REPORT_FILE}", render_report(result))
    for rel, doc in mteb_results(result).items():  # the same scores in mteb's results layout
        storage.write_text(f"{prefix}/{MTEB_DIR}/{rel}", json.dumps(doc, indent=2, sort_keys=True) + "\n")
    storage.write_text(f"{prefix}/{SUMMARY_FILE}", json.dumps(summary_of(result), indent=2, sort_keys=True) + "\n")
    log.info("wrote eval report for %s %s to %s", result.dataset, result.version, storage.uri(prefix))
    return ReportPaths(*(storage.uri(prefix, f) for f in (SCORES_FILE, REPORT_FILE, PLOT_FILE)))


def kept_summary(storage: Storage, dataset: str, version: str) -> dict | None:
    """The summary of an earlier whole evaluation of this version (every query scored), with its files' URIs;
    None when there is none (never evaluated, cut short, or scored with --max-queries)."""
    prefix = eval_prefix(dataset, version)
    if not storage.exists(f"{prefix}/{SUMMARY_FILE}"):
        return None
    summary = json.loads(storage.read_text(f"{prefix}/{SUMMARY_FILE}"))
    if summary.get("settings", {}).get("max_queries", "all") != "all":
        return None
    return {**summary, "scores": storage.uri(prefix, SCORES_FILE), "report": storage.uri(prefix, REPORT_FILE),
            "kept": True}
