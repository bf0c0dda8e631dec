"""When publish makes a new version: only when the published bytes or the build's configuration change
(issue 32); an empty build is a skip, not a failure; no empty `.staging/` stays behind; the manifest records
the quality-gate overrides."""
from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from patentfactory.errors import NothingToPublish
from patentfactory.store.publish import Release, latest_version, publish
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage
from tests.core.test_publish import _release, _tasks

DAY = date(2026, 11, 24)


def _inputs(*items: str) -> list[dict]:
    return [{"source": "uspto_bulk", "item": i, "sha256": str(n) * 64, "parser_version": "uspto-1"}
            for n, i in enumerate(items)]


def test_an_unrelated_new_input_makes_no_new_version(tmp_path: Path):
    st = Storage(tmp_path)
    first = publish(st, _release(inputs=_inputs("ipg261117.zip")), day=DAY)
    later = publish(st, _release(inputs=_inputs("ipg261117.zip", "ipg261124.zip")), day=date(2026, 11, 25))
    assert later.created is False and later.version == first.version == latest_version(st, "toy")
    assert sorted(p.name for p in (tmp_path / "toy").iterdir()) == sorted(["LATEST", "latest", first.version])
    changed = publish(st, _release(_tasks(33), inputs=_inputs("ipg261117.zip", "ipg261124.zip")), day=date(2026, 11, 25))
    assert changed.created and changed.version != first.version and latest_version(st, "toy") == changed.version


def test_a_configuration_change_with_the_same_bytes_is_a_new_version(tmp_path: Path):
    st = Storage(tmp_path)
    first = publish(st, _release(), day=DAY)
    rel = _release()
    rel.config = {"seed": 1, "profile": "full"}
    second = publish(st, rel, day=DAY)
    assert second.created and second.version != first.version


def test_an_empty_build_is_nothing_to_publish_and_leaves_nothing_behind(tmp_path: Path):
    st = Storage(tmp_path)
    with pytest.raises(NothingToPublish, match="no task has rows"):
        publish(st, Release(dataset="toy", tasks={}, config={}, inputs=[]), day=DAY)
    assert not (tmp_path / "toy").exists()


def test_no_empty_staging_folder_and_overrides_recorded(tmp_path: Path):
    st = Storage(tmp_path)
    pub = publish(st, _release(), day=DAY, options=PublishOptions(allow_drop=True))
    assert sorted(p.name for p in (tmp_path / "toy").iterdir()) == sorted(["LATEST", "latest", pub.version]), \
        "no .staging/ left"
    man = json.loads((tmp_path / "toy" / pub.version / "manifest.json").read_text())
    assert man["overrides"] == {"allow_drop": True, "allow_drift": False}


def test_the_pap2pat_card_does_not_carry_the_sparql_replicas_random_port():
    """Two identical runs start the SPARQL replica on different free ports; their cards must be the same bytes."""
    from patentfactory.stages.build_pap2pat import BuildStats, Pap2PatParams
    from patentfactory.stages.pap2pat_card import card_sections

    params, stats = Pap2PatParams(), BuildStats(applications=10, papers=20, pairs=3, splits={"train": 3})
    one = card_sections(params, stats, {"endpoint": "http://127.0.0.1:41234/query"}, {})
    two = card_sections(params, stats, {"endpoint": "http://127.0.0.1:50321/query"}, {})
    assert one == two and "41234" not in one["Provenance"] and "41234" not in one["Build statistics"]
    live = card_sections(params, stats, {"endpoint": "https://semopenalex.org/sparql"}, {})
    assert "semopenalex.org" in live["Provenance"]
