"""The nightly's outcome rule: a dataset the quality gate refuses is reported as blocked, not failed."""
from __future__ import annotations

import pytest
from prefect import flow, task

from flows.nightly import _outcome
from patentfactory.errors import QualityGateBlocked

pytestmark = pytest.mark.services


@task(retries=0)
def refused() -> dict:
    raise QualityGateBlocked("quality gate: ipbench task 1-5-1 split test column answer: label TVD 0.000 -> 0.355",
                             "pass --allow-drift")


@task
def published() -> dict:
    return {"version": "v1"}


@flow
def two_datasets() -> tuple:
    failed: dict[str, str] = {}
    deferred: dict[str, str] = {}
    blocked: dict[str, str] = {}
    a = _outcome("ipbench", refused(return_state=True), failed, deferred, blocked)
    b = _outcome("pilot", published(return_state=True), failed, deferred, blocked)
    return a, b, failed, deferred, blocked


def test_a_blocked_dataset_is_blocked_not_failed_and_the_others_publish():
    a, b, failed, deferred, blocked = two_datasets()
    assert a is None and b == {"version": "v1"}
    assert failed == {} and deferred == {}
    assert blocked["ipbench"].startswith("quality gate: ipbench task 1-5-1") and "label TVD" in blocked["ipbench"]
