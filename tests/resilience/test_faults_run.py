"""Whole `pf run` with faults on every service of the replica vs the fault-free run: the run finishes,
published files are byte-identical (the clients retried/resumed through every transient fault), and
every fault that was injected is counted."""
from __future__ import annotations

import json

import pytest

from .pfrun import latest_problems, pf_cmd, pf_env, published, run_args, run_pf
from .test_kill_resume import identity

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.long_run, pytest.mark.xdist_group("baseline")]

# Transient faults on every upstream path the nightly uses (ODP bulk listing + weekly zips, PTAB search +
# decision PDFs, OPS auth/search/documents). `*N` = the first N requests to each path, `=R` = rate R (seeded).
FAULTS = ",".join([
    "seed=7", "retry_after=1", "stall=2",
    "503@/api/v1/datasets*2",                  # 503 burst on the ODP listing and on each weekly file
    "truncate@/api/v1/datasets/products/files*1",  # weekly zip cut mid-body: resumed with Range
    "429@/api/v1/patent/appeals*1",            # ODP 429 (Retry-After, >= 5 s back-off)
    "500@/api/v1/patent/appeals=0.1",
    "truncate@/api/v1/patent/ptab-files=0.3",  # decision PDFs cut mid-body
    "timeout@/api/v1/patent/ptab-files*1",     # a slow answer
    "429@/3.2=0.1", "500@/3.2=0.1", "truncate@/3.2/rest-services=0.1",
    "yellow@/3.2/rest-services=0.2", "red@/3.2/rest-services=0.05",  # OPS throttle colours
])


def test_faults_on_every_service_same_published_bytes(baseline, tmp_path_factory):
    home = tmp_path_factory.mktemp("faults")
    ran = run_pf(pf_cmd(*run_args(home), "--faults", FAULTS), pf_env(home, creds=False), home, "faults",
                 timeout=500)
    output = ran.log.read_text()
    assert ran.rc == 0, output[-3000:]
    (line,) = [ln for ln in output.splitlines() if ln.startswith("faults injected: ")]
    injected = json.loads(line.removeprefix("faults injected: "))
    kinds = {k for k, n in injected.items() if n}
    assert {"503", "truncate", "429", "yellow"} <= kinds, injected
    assert latest_problems(home / "pub") == []
    files, _ = published(home / "pub")
    lost = sorted(k for k in baseline.files if files.get(k) != baseline.files[k])
    assert lost == [], f"published files differ from the fault-free run: {lost[:5]}"
    got, want = identity(home / "pub"), identity(baseline.home / "pub")
    assert {d: v[:2] for d, v in got.items()} == {d: v[:2] for d, v in want.items()}
    print(f"\nfaults run: {ran.seconds:.0f}s vs {baseline.seconds:.0f}s fault-free; injected {injected}")
