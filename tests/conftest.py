"""Shared fixtures: where the real samples live, isolated Prefect home, temp roots."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PF_SHARED_DIR", REPO.parent / "shared"))
REAL_SAMPLES = SHARED / "real-samples"


@pytest.fixture(scope="session")
def real_samples() -> Path:
    """`../shared/real-samples` (read at test time, never copied into the repo)."""
    if not REAL_SAMPLES.is_dir():
        pytest.fail(f"real samples not found at {REAL_SAMPLES}; set PF_SHARED_DIR")
    return REAL_SAMPLES


@pytest.fixture(autouse=True, scope="session")
def _offline_env(tmp_path_factory):
    """No hub downloads, no telemetry, a private Prefect home for the whole test session."""
    home = tmp_path_factory.mktemp("prefect_home")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ["PREFECT_HOME"] = str(home)
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    yield
