"""An expected outcome is a state, not an exception: a skip for too little data, a quality-gate block and a
stopped source end their task and flow in a named state with their one line; the log holds no traceback."""
from __future__ import annotations

from pathlib import Path

import pytest
from prefect import flow, task

from flows.nightly import _outcome, nightly
from flows.outcomes import expected_outcomes, is_outcome, outcome_state
from patentfactory.errors import NothingToPublish, PFError, QualityGateBlocked, SourceStopped
from tests.flows.test_nightly_live import live_env, served_world  # noqa: F401  (fixtures)

pytestmark = pytest.mark.services

ERRORS = {"Skipped": NothingToPublish("toy: no task has rows in this build", "grow the inputs"),
          "Blocked": QualityGateBlocked("quality gate: toy a/test.parquet: 10 -> 2 rows", "pass --allow-drop"),
          "Deferred": SourceStopped("OPS answered black (stop)", "the next night resumes"),
          "Failed": PFError("the disk is full", "free some space")}


@task(name="toy-build")
@expected_outcomes
def toy_build(kind: str) -> dict:
    raise ERRORS[kind]


@flow(name="toy-dataset")
def toy_dataset(kind: str):
    pub = toy_build(kind)
    if is_outcome(pub):
        return outcome_state(pub)
    return pub


@flow(name="toy-night")
def toy_night() -> dict:
    failed, deferred, blocked, skipped = {}, {}, {}, {}
    names = {}
    for kind in ERRORS:
        state = toy_dataset(kind, return_state=True)
        names[kind] = state.name
        _outcome(kind, state, failed, deferred, blocked, skipped)
    return {"names": names, "failed": failed, "deferred": deferred, "blocked": blocked, "skipped": skipped}


def test_expected_outcomes_are_named_states_with_one_line_and_no_traceback(caplog):
    got = toy_night()
    assert got["names"] == {"Skipped": "Skipped", "Blocked": "Blocked", "Deferred": "Deferred", "Failed": "Failed"}
    assert got["skipped"] == {"Skipped": "toy: no task has rows in this build"}
    assert got["blocked"] == {"Blocked": "quality gate: toy a/test.parquet: 10 -> 2 rows (hint: pass --allow-drop)"}
    assert got["deferred"] == {"Deferred": "OPS answered black (stop) (hint: the next night resumes)"}
    assert list(got["failed"]) == ["Failed"]
    text = caplog.text
    assert "skipped: toy: no task has rows in this build" in text and "blocked: quality gate: toy" in text
    assert "NothingToPublish" not in text and "QualityGateBlocked" not in text and "SourceStopped" not in text
    assert 0 < text.count("Traceback") <= 2, "only the real failure prints one (its task, then its flow)"


@pytest.mark.slow
@pytest.mark.slow
@pytest.mark.long_run(minutes=2)
def test_a_live_night_on_a_small_world_skips_patenteb_as_a_state(live_env, tmp_path: Path, caplog):  # noqa: F811
    """Live nights build PatenTEB with the full profile: on the sample world that is too little data, an expected
    skip. It is reported in one line and logs no traceback (it used to print three)."""
    result = nightly(data_dir=str(tmp_path / "data"), out=str(tmp_path / "published"), sources="live", seed=7)
    why = result["skipped"]["patenteb"]
    assert why.startswith("too few families per IPC3 for the full profile") and result["patenteb"] is None
    assert f"patenteb: skipped ({why})" in result["summary"]
    assert "skipped: too few families per IPC3 for the full profile" in caplog.text  # the task's one line
    assert "Traceback" not in caplog.text and "NothingToPublish" not in caplog.text, caplog.text[-4000:]
