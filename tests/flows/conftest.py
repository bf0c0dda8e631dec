"""The whole sample night (`make run`: the embedded sample world, seed 1337), run once per test session and read
by every module that asserts on it (tests/flows/test_sample_whole.py, tests/flows/test_nightly.py): one night
instead of one per module. Those modules share the xdist group `sample-night`, so they run on one worker."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

SAMPLE_NIGHT = "sample-night"  # the xdist group of the modules that read the fixture


@dataclass(frozen=True)
class SampleNight:
    data: Path
    out: Path
    result: dict


@pytest.fixture(scope="session")
def sample_night(tmp_path_factory) -> SampleNight:
    """Read-only for what it published: a test may run later nights on `data`/`out` only if they publish no new
    version (test_nightly's quiet rerun asserts exactly that)."""
    from flows.nightly import nightly

    tmp = tmp_path_factory.mktemp("sample-night")
    data, out = tmp / "data", tmp / "published"
    return SampleNight(data, out, nightly(scale="sample", data_dir=str(data), out=str(out), seed=1337))


@pytest.fixture(scope="session")
def deployment_api(tmp_path_factory):
    """`prefect` CLI environment on an API server with the work pool `local-pool` (tests/flows/deployments.py),
    shared by the modules in the xdist group `deployments`."""
    from tests.flows.deployments import deployment_env

    with deployment_env(tmp_path_factory.mktemp("deployments")) as env:
        yield env
