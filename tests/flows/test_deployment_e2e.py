"""The users' main path with real parts: a Prefect server and a process worker as subprocesses,
`prefect deploy` from prefect.yaml, `prefect deployment run build-patenteb/sample`, then the
published version verified. Everything started here is stopped, even on failure."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from patentfactory import stages
from patentfactory.sim.generator import generate_world
from patentfactory.store.inspect import inspect_version
from patentfactory.store.storage import Storage
from tests.conftest import free_port, stop_group

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.services]
REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _prefect(env: dict, *args: str, timeout: int = 120) -> str:
    proc = subprocess.run([str(BIN / "prefect"), *args], env=env, cwd=REPO, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"prefect {' '.join(args)} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return proc.stdout + proc.stderr


@pytest.fixture()
def prefect_server(tmp_path: Path):
    port = free_port()
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect_home"), "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
           "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PF_WORKDIR": str(REPO), "HF_HUB_OFFLINE": "1"}
    log = open(tmp_path / "server.log", "wb")
    server = subprocess.Popen([str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                              env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2)
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "server.log").read_text()[-2000:]
                time.sleep(1)
        else:
            pytest.fail("prefect server did not become healthy in 90 s")
        yield env
    finally:
        stop_group(server, 20)
        log.close()


def test_deployment_run_publishes_a_verified_version(prefect_server, tmp_path: Path):
    env = prefect_server
    world, data, out = tmp_path / "world", tmp_path / "data", tmp_path / "published"
    generate_world(world, 150, 11)
    stages.ingest_lens(data, sorted((world / "lens").glob("*.jsonl")))
    _prefect(env, "work-pool", "create", "local-pool", "--type", "process")
    _prefect(env, "--no-prompt", "deploy", "--name", "build-patenteb/sample")
    run_out = _prefect(env, "deployment", "run", "build-patenteb/sample", "--param", f"data_dir={data}",
                       "--param", f"out={out}")
    match = re.search(r"UUID:\s*([0-9a-f-]{36})", run_out)
    assert match, run_out
    _prefect(env, "worker", "start", "--pool", "local-pool", "--run-once", timeout=600)
    state = _prefect(env, "flow-run", "inspect", match.group(1))
    assert "COMPLETED" in state, state[-2000:]
    rep = inspect_version(Storage(out), "patenteb")
    assert rep.ok and len(rep.manifest["files"]) > 10
