"""Flow `evaluate` on Prefect's ephemeral API over a small published PILOT-shaped version."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from flows.evaluate import evaluate
from patentfactory.store.storage import Storage

from .test_baselines import _publish_pilot

pytestmark = pytest.mark.slow  # starts Prefect's ephemeral API (~20 s)


def test_evaluate_flow_writes_report_and_returns_summary(tmp_path: Path):
    version = _publish_pilot(Storage(tmp_path))
    summary = evaluate(dataset="pilot", root=str(tmp_path))
    assert summary["version"] == version and summary["skipped"] == []  # `all` is scored zero-shot
    assert set(summary["overall"]) == {"majority", "tfidf_lr", "prior", "keyword"}
    scores = pl.read_parquet(summary["scores"])
    assert summary["scores"] == str(tmp_path / "eval" / "pilot" / version / "scores.parquet")
    assert scores.filter(pl.col("task") == "overall").height == 4  # majority, tfidf_lr, prior, keyword
    assert Path(summary["report"]).read_text().startswith(f"# Evaluation: pilot {version}")
