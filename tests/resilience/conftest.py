"""One uninterrupted, fault-free `pf run` (with fake credentials set) shared by the whole-run tests."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from .pfrun import pf_cmd, pf_env, published, run_args, run_pf


@dataclass
class Baseline:
    home: Path
    files: dict[str, str]
    versions: dict[str, str]
    seconds: float


@pytest.fixture(scope="session")
def baseline(tmp_path_factory) -> Baseline:
    home = tmp_path_factory.mktemp("baseline")
    ran = run_pf(pf_cmd(*run_args(home)), pf_env(home, creds=True, log_level="DEBUG"), home, "baseline")
    assert ran.rc == 0, ran.log.read_text()[-3000:]
    files, versions = published(home / "pub")
    assert files and {"patenteb", "patentcr", "ipbench", "pilot"} <= set(versions)
    return Baseline(home, files, versions, ran.seconds)
