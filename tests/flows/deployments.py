"""The Prefect API the deployment tests deploy to and run on, shared by them for the session.

Where the suite started its own API server (tests/conftest.py) the deployments are registered there: one server
for every flow in the session, instead of one more server per deployment test (each started with its scheduler,
event and UI services, ~20 s of start-up and its database migrations). A server the developer runs is never
written to: then one server is started here, once per session, as the tests did before. The process work pool
`local-pool` is created once; the modules that use it share the xdist group `deployments` (one worker, one test at
a time), so a `worker start --run-once` picks up only its own test's flow run.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DEPLOYMENTS = "deployments"  # the xdist group of the modules that deploy and run on the shared pool
POOL = "local-pool"  # prefect.yaml's work pool


def prefect_cli(env: dict, *args: str, timeout: int = 120) -> str:
    """`prefect ARGS` as a subprocess; its output, or an assertion naming the command and its output."""
    proc = subprocess.run([str(BIN / "prefect"), *args], env=env, cwd=REPO, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, f"prefect {' '.join(args)} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return proc.stdout + proc.stderr


def _session_server_url() -> str | None:
    """The API URL of the server tests/conftest.py started for this session; None where it did not start one."""
    log = os.environ.get("PF_TEST_PREFECT_SERVER")
    return os.environ.get("PREFECT_API_URL") if log and log != "0" else None


@contextmanager
def _own_server(home: Path) -> Iterator[str]:
    from tests.conftest import free_port, stop_group

    port = free_port()
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    env.pop("PREFECT_API_URL", None)
    log = open(home / "server.log", "wb")
    server = subprocess.Popen([str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port),
                               "--no-services", "--no-ui"],
                              env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(url + "/health", timeout=2)
                break
            except OSError:
                assert server.poll() is None, (home / "server.log").read_text()[-2000:]
                assert time.monotonic() < deadline, "prefect server did not become healthy in 120 s"
                time.sleep(1)
        yield url
    finally:
        stop_group(server, 20)
        log.close()


@contextmanager
def deployment_env(home: Path) -> Iterator[dict[str, str]]:
    """The environment for `prefect deploy / deployment run / worker start`: an API server, a client home of its
    own, PF_WORKDIR for prefect.yaml's pull step, and the work pool created."""
    home.mkdir(parents=True, exist_ok=True)
    base = {**os.environ, "PREFECT_HOME": str(home / "client"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PF_WORKDIR": str(REPO), "HF_HUB_OFFLINE": "1"}
    url = _session_server_url()
    if url is not None:
        env = {**base, "PREFECT_API_URL": url}
        prefect_cli(env, "work-pool", "create", POOL, "--type", "process", "--overwrite")
        yield env
        return
    (home / "server").mkdir(exist_ok=True)
    with _own_server(home / "server") as url:
        env = {**base, "PREFECT_API_URL": url}
        prefect_cli(env, "work-pool", "create", POOL, "--type", "process")
        yield env
