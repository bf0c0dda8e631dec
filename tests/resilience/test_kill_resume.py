"""Kill and resume: `pf run` SIGKILLed (whole process group) at seeded random moments, rerun each time;
after every kill LATEST only names versions whose manifest verifies, and the finished run publishes
byte-identical files to an uninterrupted run."""
from __future__ import annotations

import random

import pytest

from .pfrun import latest_problems, pf_cmd, pf_env, published, run_args, run_pf

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.long_run, pytest.mark.xdist_group("baseline")]
KILLS = 2


@pytest.mark.parametrize("seed", [11])
def test_sigkill_at_random_points_then_resume_matches_uninterrupted(baseline, tmp_path_factory, seed: int):
    home = tmp_path_factory.mktemp(f"kill{seed}")
    env = pf_env(home, creds=False)
    rng = random.Random(seed)
    delays = sorted(rng.uniform(3.0, 0.8 * baseline.seconds) for _ in range(KILLS))
    for i, delay in enumerate(delays):
        ran = run_pf(pf_cmd(*run_args(home)), env, home, f"killed{i}", kill_after=delay)
        if ran.rc is not None:  # finished before the kill: the machine was fast; still a valid run
            assert ran.rc == 0, ran.log.read_text()[-3000:]
        assert latest_problems(home / "pub") == [], f"after kill {i} at {delay:.1f}s"
    ran = run_pf(pf_cmd(*run_args(home)), env, home, "resumed")
    assert ran.rc == 0, ran.log.read_text()[-3000:]
    assert latest_problems(home / "pub") == []
    files, versions = published(home / "pub")
    assert files == baseline.files
    got, want = identity(home / "pub"), identity(baseline.home / "pub")
    assert {d: v[:2] for d, v in got.items()} == {d: v[:2] for d, v in want.items()}
    if all(got[d][2] == want[d][2] for d in want):
        assert versions == baseline.versions
    staged = [p for p in (home / "pub").glob("*/.staging/*")]
    assert staged == [], f"killed publishes left staged files: {staged[:3]}"
    dupes = _duplicate_keys(home / "data" / "warehouse")  # keys shared across sources (lens + uspto) are normal
    assert dupes == _duplicate_keys(baseline.home / "data" / "warehouse"), "a resumed ingest duplicated rows"
    print(f"\nkill+resume: kills at {[round(d, 1) for d in delays]}s, resumed run {ran.seconds:.0f}s, "
          f"uninterrupted {baseline.seconds:.0f}s, {len(files)} published files identical")


def identity(root) -> dict[str, tuple]:
    """Per dataset what its version hashes: inputs + config (+ the version itself when the code is the same;
    the code version is the git commit, which other people may move while the test runs)."""
    import json

    out = {}
    for latest in sorted(root.glob("*/LATEST")):
        version = latest.read_text().strip()
        m = json.loads((latest.parent / version / "manifest.json").read_text())
        out[latest.parent.name] = (m["inputs"], m["config"], m["code_version"])
    return out


def _duplicate_keys(warehouse) -> dict[str, int]:
    """Rows sharing a primary key across warehouse parts (a resumed ingest must not duplicate)."""
    import polars as pl

    from schemas import table_spec

    out = {}
    for folder in sorted(p for p in warehouse.iterdir() if p.is_dir() and p.name not in ("ingest_ledger", "_items")):
        parts = sorted(folder.glob("*.parquet"))
        key = list(table_spec(folder.name).key)
        if not parts or not key:
            continue
        df = pl.concat([pl.read_parquet(p) for p in parts], how="diagonal_relaxed")
        dupes = df.height - df.unique(subset=key).height
        if dupes:
            out[folder.name] = dupes
    return out
