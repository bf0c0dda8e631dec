"""An expected outcome is a state, not an exception: a skip for too little data, a quality-gate block and a
stopped source end their task and flow in a named state with their one line; the log holds no traceback."""
from __future__ import annotations

import pytest
from prefect import flow, task

from flows.nightly import _outcome
from flows.outcomes import expected_outcomes, is_outcome, outcome_state
from patentfactory.errors import NothingToPublish, PFError, QualityGateBlocked, SourceStopped

pytestmark = pytest.mark.services  # flow runs

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


# The whole live night with an expected skip (PatenTEB on too little data) is asserted in
# tests/flows/test_nightly_live.py::test_missing_credentials_stop_only_those_sources: one night, two outcomes.
