"""What a night says (issue 32): one line per dataset with its why, a final state that is not a plain
COMPLETED when something needs a look, and a build deployment on a fresh checkout that fails in one line."""
from __future__ import annotations

from pathlib import Path

import pytest
from prefect import flow

from flows.build_patenteb import build_patenteb
from flows.nightly_live import EXIT_CODES, night_status, summary_lines, verdict
from patentfactory.errors import PFError

pytestmark = pytest.mark.services

PUB = {"version": "2026.11.25-1a2b3c4d", "created": True}
SAME = {"version": "2026.11.24-0f0e0d0c", "created": False}


def _result(**over) -> dict:
    base = {"patenteb": None, "patentcr": PUB, "ipbench": None, "pilot": SAME, "pap2pat": None,
            "skipped": {"patenteb": "too few families per IPC3 for the full profile (it needs 100 per IPC3; …)"},
            "blocked": {"ipbench": "quality gate: ipbench task 1-5-1 split test column answer: label TVD 0.0 -> 0.4"},
            "deferred": {"pap2pat": "unreachable after retries", "source:lens": "LENS drop unreadable"},
            "failed": {}}
    return base | over


def test_one_line_per_dataset_with_its_why_then_the_stopped_sources():
    lines = summary_lines(_result())
    assert lines == [
        "patenteb: skipped (too few families per IPC3 for the full profile (it needs 100 per IPC3; …))",
        "patentcr: published 2026.11.25-1a2b3c4d",
        "ipbench: blocked (quality gate: ipbench task 1-5-1 split test column answer: label TVD 0.0 -> 0.4)",
        "pilot: nothing new; 2026.11.24-0f0e0d0c stays LATEST",
        "pap2pat: deferred (unreachable after retries)",
        "source lens: stopped (LENS drop unreadable)",
    ]


@pytest.mark.parametrize("over, status", [
    ({}, "Blocked"),
    ({"failed": {"pilot": "boom"}, "pilot": None}, "Failed"),
    ({"blocked": {}, "ipbench": PUB}, "Deferred"),
    ({"blocked": {}, "ipbench": PUB, "deferred": {}, "pap2pat": SAME}, "Completed"),
])
def test_the_night_status_is_the_worst_outcome_and_names_the_final_state(over, status):
    result = _result(**over)
    result["summary"] = summary_lines(result)
    assert night_status(result) == status
    state = verdict(result)
    assert state.name == status and state.is_failed() == (status == "Failed")
    assert EXIT_CODES[status] == {"Completed": 0, "Failed": 1, "Blocked": 3, "Deferred": 4}[status]
    if status != "Completed":
        assert "skipped" not in state.message and state.message  # the message names what needs a look


def test_a_named_state_reaches_prefect_and_carries_the_result():
    @flow
    def night() -> dict:
        result = _result()
        result["summary"] = summary_lines(result)
        return verdict(result)

    state = night(return_state=True)
    assert state.is_completed() and state.name == "Blocked"
    assert state.result()["summary"][2].startswith("ipbench: blocked")


def test_a_build_deployment_on_a_fresh_checkout_fails_in_one_line(tmp_path: Path):
    state = build_patenteb(data_dir=str(tmp_path / "data"), out=str(tmp_path / "pub"), return_state=True)
    assert state.is_failed()
    assert "has no publications yet" in state.message and "nightly/sample" in state.message
    assert "\n" not in state.message
    with pytest.raises(PFError, match="has no publications yet"):
        build_patenteb(data_dir=str(tmp_path / "data"), out=str(tmp_path / "pub"))
    assert not (tmp_path / "pub").exists()


def test_every_publishing_deployment_takes_the_gate_overrides_and_pins_no_root():
    import importlib

    import yaml

    doc = yaml.safe_load((Path(__file__).resolve().parents[2] / "prefect.yaml").read_text())
    publishing = 0
    for dep in doc["deployments"]:
        path, func = dep["entrypoint"].split(":")
        flow_obj = getattr(importlib.import_module(path.removesuffix(".py").replace("/", ".")), func)
        params = set(flow_obj.parameters.properties)
        assert not {"data_dir", "out"} & set(dep.get("parameters") or {}), f"{dep['entrypoint']} pins a root"
        if flow_obj.name == "nightly" or flow_obj.name.startswith("build-"):
            publishing += 1
            assert {"allow_drop", "allow_drift"} <= params, flow_obj.name
    assert publishing >= 7  # nightly sample + production and the five build-* flows
