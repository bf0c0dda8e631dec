"""`pf run` on a busy machine: the orchestrator's API server gets a budget that fits, or one line says why not.

The machine is saturated (a busy loop per core) while `pf` starts. The session's whole-run baseline (conftest)
starts under the same load with the default budget and must succeed; here a deliberately tiny budget, and an
unreachable PREFECT_API_URL, must give one error line, one hint, exit 2 and no traceback.
"""
from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from patentfactory.cli.orchestrator import DEFAULT_STARTUP_S, STARTUP_SETTING

from .pfrun import pf_cmd, pf_env, run_args, saturated

pytestmark = [pytest.mark.services, pytest.mark.long_run, pytest.mark.xdist_group("baseline")]


def _run_pf(home, env, *extra):
    return subprocess.run(pf_cmd(*run_args(home), *extra), env=env, cwd=home, capture_output=True, text=True,
                          timeout=300)


def _one_line_error(proc) -> tuple[str, str]:
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr + proc.stdout
    errors = [ln for ln in lines if ln.startswith("error:")]
    hints = [ln for ln in lines if ln.startswith("hint:")]
    assert len(errors) == 1 and len(hints) == 1, proc.stderr
    return errors[0], hints[0]


def test_tiny_startup_budget_on_a_busy_machine_is_one_line(tmp_path):
    """`pf run` and `pf run --live`, side by side while every core is busy, each with a 1 s budget."""
    def start(live: bool):
        home = tmp_path / ("live" if live else "replica")
        home.mkdir()
        env = pf_env(home, creds=False) | {STARTUP_SETTING: "1"}
        env.pop("PREFECT_API_URL", None)  # the temporary server, not the test session's
        return _run_pf(home, env, *(["--live"] if live else []))

    with saturated(30), ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(start, (False, True)))
    for proc in runs:
        error, hint = _one_line_error(proc)
        assert "did not start within 1 s" in error
        assert STARTUP_SETTING in hint and "PREFECT_API_URL" in hint


def test_unreachable_api_url_is_one_line(tmp_path):
    env = pf_env(tmp_path, creds=False) | {"PREFECT_API_URL": "http://127.0.0.1:9/api"}
    error, hint = _one_line_error(_run_pf(tmp_path, env))
    assert "PREFECT_API_URL=http://127.0.0.1:9/api" in error
    assert "prefect server start" in hint


@pytest.mark.slow
def test_default_budget_fits_a_busy_machine(baseline):
    """The session's baseline `pf run` started with every core busy (conftest) and the default budget: it
    published (the fixture asserts rc 0 and every dataset) on its own temporary API server."""
    assert DEFAULT_STARTUP_S >= 120
    assert baseline.started_saturated and baseline.files
    assert (baseline.home / "prefect_home").is_dir()
