"""The users' main path with real parts: a Prefect server and a process worker as subprocesses,
`prefect deploy` from prefect.yaml, `prefect deployment run build-patenteb/sample`, then the
published version verified. Everything started here is stopped, even on failure."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from patentfactory import stages
from patentfactory.sim.generator import generate_world
from patentfactory.store.inspect import inspect_version
from patentfactory.store.storage import Storage
from tests.flows.deployments import DEPLOYMENTS, POOL, prefect_cli

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.services, pytest.mark.xdist_group(DEPLOYMENTS),
              pytest.mark.long_run(minutes=1)]


def test_deployment_run_publishes_a_verified_version(deployment_api, tmp_path: Path):
    env = deployment_api
    world, data, out = tmp_path / "world", tmp_path / "data", tmp_path / "published"
    generate_world(world, 150, 11)
    stages.ingest_lens(data, sorted((world / "lens").glob("*.jsonl")))
    prefect_cli(env, "--no-prompt", "deploy", "--name", "build-patenteb/sample")
    run_out = prefect_cli(env, "deployment", "run", "build-patenteb/sample", "--param", f"data_dir={data}",
                          "--param", f"out={out}")
    match = re.search(r"UUID:\s*([0-9a-f-]{36})", run_out)
    assert match, run_out
    prefect_cli(env, "worker", "start", "--pool", POOL, "--run-once", timeout=600)
    state = prefect_cli(env, "flow-run", "inspect", match.group(1))
    assert "COMPLETED" in state, state[-2000:]
    rep = inspect_version(Storage(out), "patenteb")
    assert rep.ok and len(rep.manifest["files"]) > 10
