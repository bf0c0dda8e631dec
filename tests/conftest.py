"""Shared fixtures: where the real samples live, isolated Prefect home, temp roots."""
from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PF_SHARED_DIR", REPO.parent / "shared"))
REAL_SAMPLES = SHARED / "real-samples"
# Set before any test module imports prefect (its settings are read once): the default 20 s is too
# short for the ephemeral API server on a loaded 2-core machine.
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")


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
    # Stop Prefect's ephemeral API server while pytest's streams are still open (its atexit hook
    # would log to a closed console and print a spurious traceback after the summary).
    # Drain queued run logs and events first, or they retry against the stopped server for a minute.
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker
    from prefect.server.api.server import SubprocessASGIServer

    APILogWorker.drain_all(timeout=30)
    EventsWorker.drain_all(timeout=30)
    for server in list(SubprocessASGIServer._instances.values()):
        server.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def s3_env(monkeypatch):
    """A local S3 (moto in server mode, real HTTP on loopback) with bucket `bench`; env points at it."""
    import boto3
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {"PF_S3_ENDPOINT_URL": f"http://127.0.0.1:{port}", "AWS_ACCESS_KEY_ID": "test",
           "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    boto3.client("s3", endpoint_url=env["PF_S3_ENDPOINT_URL"], region_name="us-east-1",
                 aws_access_key_id="test", aws_secret_access_key="test").create_bucket(Bucket="bench")
    try:
        yield env
    finally:
        server.stop()
