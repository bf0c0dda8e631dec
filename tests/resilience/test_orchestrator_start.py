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

from .pfrun import SERVER_STARTS, log_says, pf_cmd, pf_env, run_args, saturated

pytestmark = [pytest.mark.services, pytest.mark.long_run, pytest.mark.xdist_group("baseline")]


def _run_pf(home, env, *extra, stderr_to=None):
    """`pf run`, its output captured; with `stderr_to`, its stderr written to that file as it runs (for a poll)
    and read back."""
    if stderr_to is None:
        return subprocess.run(pf_cmd(*run_args(home), *extra), env=env, cwd=home, capture_output=True, text=True,
                              timeout=300)
    with open(stderr_to, "w") as err:
        proc = subprocess.run(pf_cmd(*run_args(home), *extra), env=env, cwd=home, stdout=subprocess.PIPE,
                              stderr=err, text=True, timeout=300)
    proc.stderr = stderr_to.read_text()
    return proc


def _one_line_error(proc) -> tuple[str, str]:
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr + proc.stdout
    errors = [ln for ln in lines if ln.startswith("error:")]
    hints = [ln for ln in lines if ln.startswith("hint:")]
    assert len(errors) == 1 and len(hints) == 1, proc.stderr
    return errors[0], hints[0]


def test_tiny_startup_budget_on_a_busy_machine_is_one_line(tmp_path):
    """`pf run` and `pf run --live`, side by side while every core is busy, each with a 1 s budget. The cores are
    made busy once a run logs that it starts its API server (the phase the budget is for), not through the
    imports before it."""
    homes = {live: tmp_path / ("live" if live else "replica") for live in (False, True)}

    def start(live: bool):
        home = homes[live]
        env = pf_env(home, creds=False) | {STARTUP_SETTING: "1"}
        env.pop("PREFECT_API_URL", None)  # the temporary server, not the test session's
        return _run_pf(home, env, *(["--live"] if live else []), stderr_to=home / "stderr.log")

    for home in homes.values():
        home.mkdir()
    server_starts = [log_says(home / "stderr.log", SERVER_STARTS) for home in homes.values()]
    with saturated(30, after=lambda: any(says() for says in server_starts)) as loops, \
            ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(start, (False, True)))
    assert loops.started
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
