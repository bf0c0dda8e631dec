"""The nightly flow on Prefect's ephemeral API: generated world -> replica -> ingest -> build -> publish."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.nightly import nightly
from patentfactory.store.inspect import inspect_version
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage

from .conftest import SAMPLE_NIGHT

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.long_run(minutes=2)]


@pytest.mark.xdist_group(SAMPLE_NIGHT)
@pytest.mark.long_run(minutes=2.5)  # its group's lane (estimated): the session's night, this rerun, the rescoring
def test_nightly_end_to_end_then_incremental_rerun(sample_night):
    """The first night is the session's sample night (tests/flows/conftest.py, also read by test_sample_whole)."""
    data, out, first = sample_night.data, sample_night.out, sample_night.result
    assert first["uspto"]["files"] > 0 and first["uspto"]["failed"] == 0
    assert first["uspto"]["records"]["publications"] > 0
    assert first["lens"]["records"]["publications"] > 0
    pe = first["patenteb"]
    rep = inspect_version(Storage(out), "patenteb", pe["version"])
    assert rep.ok, rep.problems
    tasks = {f["task"] for f in rep.manifest["files"]}
    assert {"retrieval_IN", "title2full", "class_text2ipc3"} <= tasks
    assert inspect_version(Storage(out), "pap2pat", first["pap2pat"]["version"]).ok
    ledger = Ledger(Storage(data / "warehouse"))
    assert all(r["parsed_at"] for r in ledger.items("uspto_bulk"))

    second = nightly(scale="sample", data_dir=str(data), out=str(out), seed=1337)
    assert second["uspto"]["skipped"] == second["uspto"]["files"], "nothing new upstream: every weekly file skipped"
    assert second["lens"]["skipped"] == 1
    assert second["patenteb"]["version"] == pe["version"] and second["patenteb"]["created"] is False
    assert second["pap2pat"]["created"] is False and second["pap2pat"]["ingest"]["queries"] == 0, "answers cached"
    assert set(second["eval"]) == set(first["eval"]) and all(ev["kept"] for ev in second["eval"].values())
    assert [second["eval"][n]["overall"] for n in first["eval"]] == [first["eval"][n]["overall"] for n in first["eval"]]
    manifest = json.loads((out / "patenteb" / pe["version"] / "manifest.json").read_text())
    assert manifest["leakage"]["no_family_or_text_in_two_splits"]["ok"]


def test_nightly_defers_patentcr_when_ops_says_stop_and_publishes_the_rest(tmp_path: Path):
    """OPS black on every published-data request: Patent-CR is deferred (no retries, no failure), the other
    datasets publish and verify; the next night resumes it."""
    data, out = tmp_path / "data", tmp_path / "published"
    result = nightly(scale="sample", data_dir=str(data), out=str(out), seed=7,
                     faults="black@/3.2/rest-services/published-data/publication=1")
    assert result["faults_injected"]["black"] >= 1
    assert result["patentcr"] is None and "OPS asked to stop after 0 of" in result["deferred"]["patentcr"]
    assert "patentcr" not in result["eval"]
    for name in ("patenteb", "ipbench", "pilot", "pap2pat"):
        assert inspect_version(Storage(out), name, result[name]["version"]).ok, name
    assert not (out / "patentcr").exists()
