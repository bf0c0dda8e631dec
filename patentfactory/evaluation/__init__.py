"""Thin eval stage: score a published dataset version with simple baselines and write a report.

Reads only the published Parquet + manifest (through `Storage`, so s3:// works) and writes
`<root>/eval/<dataset>/<version>/{scores.parquet, report.md, scores.png, summary.json}`.

    result = evaluate_dataset("data/published", "patenteb", max_queries=1000)
    paths = write_report(Storage("data/published"), result)
"""
from __future__ import annotations

from .encoders import Encoder, load_encoder
from .report import ReportPaths, eval_prefix, kept_summary, write_report
from .results import OVERALL, SCORE_COLUMNS, EvalResult, Score, Skipped, SkipTask
from .run import KNOWN_DATASETS, evaluate_dataset

__all__ = ["Encoder", "EvalResult", "KNOWN_DATASETS", "OVERALL", "ReportPaths", "SCORE_COLUMNS", "Score",
           "SkipTask", "Skipped", "eval_prefix", "evaluate_dataset", "kept_summary", "load_encoder",
           "write_report"]
