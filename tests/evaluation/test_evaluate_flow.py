"""Flow `evaluate` on Prefect's ephemeral API over a small published PILOT-shaped version."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from flows.evaluate import evaluate
from patentfactory.store.storage import Storage

from .test_baselines import _publish_pilot

pytestmark = [pytest.mark.slow, pytest.mark.services]  # starts Prefect's ephemeral API (~20 s)


def test_evaluate_flow_writes_report_and_returns_summary(tmp_path: Path):
    version = _publish_pilot(Storage(tmp_path))
    summary = evaluate(dataset="pilot", root=str(tmp_path))
    assert summary["version"] == version and summary["skipped"] == []  # `all` is scored zero-shot
    assert set(summary["overall"]) == {"majority", "tfidf_lr", "prior", "keyword"}
    scores = pl.read_parquet(summary["scores"])
    assert summary["scores"] == str(tmp_path / "eval" / "pilot" / version / "scores.parquet")
    assert scores.filter(pl.col("task") == "overall").height == 4  # majority, tfidf_lr, prior, keyword
    assert Path(summary["report"]).read_text().startswith(f"# Evaluation: pilot {version}")


def test_flow_and_command_fill_the_same_embedding_cache_by_default(tmp_path: Path, monkeypatch):
    """Neither told a data dir, `evaluate` and `pf eval` both read and fill <PF_PATHS__DATA_DIR>/cache/embeddings
    (issue 43: the flow encoded every text and kept none, the command used the data dir's cache)."""
    from typer.testing import CliRunner

    from patentfactory.cli.main import app
    from patentfactory.encoder_model import DEFAULT_MODEL_PACKAGE

    from .synthetic import publish_patenteb

    root = tmp_path / "pub"
    publish_patenteb(str(root))
    monkeypatch.delenv("PF_PATHS__EMBEDDING_CACHE", raising=False)
    parts = {}
    for entry in ("flow", "command"):
        data = tmp_path / f"{entry}-data"
        monkeypatch.setenv("PF_PATHS__DATA_DIR", str(data))
        if entry == "flow":
            evaluate(dataset="patenteb", root=str(root), max_queries=3)
        else:
            res = CliRunner().invoke(app, ["eval", "patenteb", "--root", str(root), "--max-queries", "3"])
            assert res.exit_code == 0, res.output
        parts[entry] = sorted(p.name for p in (data / "cache" / "embeddings" / DEFAULT_MODEL_PACKAGE).glob("part-*"))
    assert parts["flow"] and parts["flow"] == parts["command"], parts
