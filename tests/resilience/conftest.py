"""One uninterrupted, fault-free `pf run` (with fake credentials set, started on a saturated machine) shared by the whole-run tests."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from .pfrun import SERVER_STARTS, log_says, pf_cmd, pf_env, published, run_args, run_pf, saturated

FLOW_BEGAN = "Beginning flow run"  # Prefect's INFO line once the flow run exists on the API server and starts


@dataclass
class Baseline:
    home: Path
    files: dict[str, str]
    versions: dict[str, str]
    seconds: float
    started_saturated: bool


@pytest.fixture(scope="session")
def baseline(tmp_path_factory) -> Baseline:
    home = tmp_path_factory.mktemp("baseline")
    # Every core busy while the run starts (a new user's loaded laptop): the orchestrator's temporary API server
    # comes up, then the flow run is created on it and begins. The default start-up budget must absorb it. The
    # loops start when the run logs that it starts the server (its imports done: they are not the phase under
    # test, and burning both cores through them cost the suite ~10 CPU-s) and stop when it logs that its flow
    # began (start-up over), at the latest after 30 s.
    env = pf_env(home, creds=True, log_level="DEBUG")
    env.pop("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", None)  # the CLI's own default, not the suite's
    env.pop("PREFECT_API_URL", None)  # its own temporary API server (and Prefect home), not the test session's
    log = home / "logs" / "baseline.log"
    with saturated(30, until=log_says(log, FLOW_BEGAN), after=log_says(log, SERVER_STARTS)) as loops:
        ran = run_pf(pf_cmd(*run_args(home)), env, home, "baseline")
    assert ran.rc == 0, ran.log.read_text()[-3000:]
    files, versions = published(home / "pub")
    assert files and {"patenteb", "patentcr", "ipbench", "pilot"} <= set(versions)
    return Baseline(home, files, versions, ran.seconds, started_saturated=loops.started)
