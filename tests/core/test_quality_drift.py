"""Quality gate v2: column profiles compared with the previous version block a degraded release.

Unit tests pin the figures on small frames; the end-to-end part builds PatenTEB (no model) and IPBench from
a generated world served by the replica, then from degraded copies of it (the shapes real upstream regressions
take) and checks each is refused with a message naming what moved, the override publishes and is recorded,
and a normal night with one more weekly file passes.
"""
from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from patentfactory.config import DriftThresholds
from patentfactory.errors import QualityGateBlocked
from patentfactory.sim.degrade import degrade_world
from patentfactory.sim.generator import generate_world
from patentfactory.sim.upstream import Replica
from patentfactory.stages.build_ipbench import build_and_publish_ipbench
from patentfactory.stages.build_patenteb import build_and_publish_patenteb
from patentfactory.stages.ingest_files import ingest_lens, ingest_uspto, list_uspto
from patentfactory.store.drift import compare_column, compare_coverage, profile_column, profile_table, tvd
from patentfactory.store.publish import latest_version
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage

pytestmark = pytest.mark.services

TH = DriftThresholds()
DAY = date(2026, 11, 25)


def test_empty_strings_and_lists_count_as_empty():
    assert profile_column("abstract", pl.Series(["a long enough text " * 3, "", None, "  "]))["empty_rate"] == 0.75
    assert profile_column("ids", pl.Series([["a"], [], None, ["b", "c"]]))["empty_rate"] == 0.5


def test_text_label_and_categorical_kinds():
    text = profile_column("full_text", pl.Series(["x" * n for n in range(50, 150)]))
    assert text["kind"] == "text" and text["length_p10"] < text["length_p50"] < text["length_p90"]
    label = profile_column("label", pl.Series(["H04"] * 6 + ["A61"] * 2 + ["G06"] * 2))
    assert label["kind"] == "label" and label["shares"] == {"A61": 0.2, "G06": 0.2, "H04": 0.6}
    cat = profile_column("language", pl.Series(["en"] * 9 + ["de"]))
    assert cat["kind"] == "categorical" and cat["distinct"] == 2 and cat["length_p50"] == 2.0
    ids = profile_column("pub_id", pl.Series([f"US-{i}-A1" for i in range(30)]))
    assert "kind" not in ids and "length_p50" in ids  # unique short strings: neither text nor a category


def test_a_table_is_profiled_in_one_pass_with_each_column_as_on_its_own():
    """profile_table computes every column's figures in one select; each column's profile is what it gets alone,
    whatever the column names (one with a colon, one named like a figure) or types (lists, numbers, structs)."""
    frame = pl.DataFrame({
        "abstract": ["word " * 12, "", None, "another abstract of some length here"],
        "label": ["H04", "A61", "H04", None],
        "a:b": [["x", "yy"], [], None, ["zzz"]],
        "empty": ["en", "en", "de", "en"],
        "year": [2001, None, 2003, 2004],
        "nested": [{"k": 1}, None, {"k": 2}, {"k": 3}],
    })
    whole = profile_table(frame)
    assert list(whole) == frame.columns
    for name in frame.columns:
        assert whole[name] == profile_column(name, frame.get_column(name)), name
    assert profile_table(frame.to_arrow()) == whole
    assert whole["label"]["shares"] == {"A61": 0.333333, "H04": 0.666667}
    assert whole["a:b"]["empty_rate"] == 0.5 and whole["a:b"]["length_p90"] == 3.0
    assert whole["year"] == {"empty_rate": 0.25} and whole["nested"] == {"empty_rate": 0.25}


def test_thresholds_block_and_growth_does_not():
    before = profile_column("abstract", pl.Series(["word " * 20] * 100))
    emptied = profile_column("abstract", pl.Series(["word " * 20] * 20 + [""] * 80))
    [d] = compare_column("t/train.parquet", "abstract", before, emptied, TH)
    assert d.blocked and d.figure == "empty rate" and (d.before, d.after) == (0.0, 0.8)
    assert "task t split train column abstract: empty rate 0.000 -> 0.800" in d.line("ds")
    cut = profile_column("title", pl.Series(["a title of about forty characters here!"] * 50))
    short = profile_column("title", pl.Series(["a title of"] * 50))
    assert compare_column("t/test.parquet", "title", {**cut, "kind": "text", "length_p50": 40.0},
                          {**short, "length_p50": 10.0}, TH)[0].blocked
    grown = profile_column("abstract", pl.Series(["word " * 20] * 130 + [""] * 3))
    assert not any(d.blocked for d in compare_column("t/train.parquet", "abstract", before, grown, TH))
    assert tvd({"a": 0.5, "b": 0.5}, {"a": 1.0}) == 0.5


def test_coverage_key_missing_blocks():
    old = {"ipc_section": {"A": 10, "H": 30}, "year": {"2020": 5}}
    gone = compare_coverage(old, {"ipc_section": {"A": 12}, "year": {"2020": 6, "2021": 1}}, TH)
    assert [(d.column, d.blocked) for d in gone] == [("ipc_section", True)]
    assert not compare_coverage(old, {"ipc_section": {"A": 11, "H": 31}, "year": {"2020": 5}}, TH)


# --- end to end: generated world -> replica -> ingest -> build -> publish -> degraded copies --------------

def _ingest(world: Path, data: Path, weeks: int) -> None:
    """Lens exports plus the first `weeks` US weekly files, fetched from the replica like a nightly does."""
    ingest_lens(data, sorted((world / "lens").glob("*.jsonl")))
    with Replica(world) as rep:
        files = sorted(list_uspto(rep.base_url, date(1976, 1, 1), date(2100, 1, 1), "k"), key=lambda f: f["data_date"])
        ingest_uspto(data, rep.base_url, date(1976, 1, 1), files[weeks - 1]["data_date"], "k")


def _build(data: Path, root: Path, **kw) -> list:
    return [build_and_publish_ipbench(data, str(root), seed=5, max_items=200, **kw),
            build_and_publish_patenteb(data, str(root), seed=5, use_model=False, **kw)]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("drift")
    world = base / "world"
    generate_world(world, 400, 11)
    with Replica(world) as rep:
        n_weeks = len(list_uspto(rep.base_url, date(1976, 1, 1), date(2100, 1, 1), "k"))
    _ingest(world, base / "data", n_weeks - 1)
    root = base / "published"
    first = _build(base / "data", root)
    return {"base": base, "world": world, "root": root, "weeks": n_weeks, "first": {p.dataset: p.version for p in first}}


def test_a_normal_night_with_one_more_weekly_file_is_not_blocked(baseline):
    root = baseline["base"] / "normal"
    shutil.copytree(baseline["root"], root)
    _ingest(baseline["world"], baseline["base"] / "data", baseline["weeks"])
    pubs = _build(baseline["base"] / "data", root)  # a block would raise QualityGateBlocked here
    for pub in pubs:
        if not pub.created:  # same files and configuration as LATEST: no new version (issue 32)
            assert pub.version == baseline["first"][pub.dataset]
            continue
        man = json.loads((root / pub.dataset / pub.version / "manifest.json").read_text())
        assert man["quality"]["drift"]["previous_version"] == baseline["first"][pub.dataset]
        assert man["quality"]["drift"]["blocked"] == []
        assert "## Changes since the previous version" in (root / pub.dataset / pub.version / "README.md").read_text()


@pytest.mark.parametrize("kind, dataset, expect", [
    ("empty_abstracts", "patenteb", "column text: median length"),  # text = title + abstract + claim 1
    ("drop_ipc_section", "ipbench", "column answer: label TVD"),  # the class answers lose section H
    ("truncate_titles", "patenteb", "column title: median length"),
])
def test_each_degradation_is_blocked_and_the_override_is_recorded(baseline, kind, dataset, expect):
    base = baseline["base"]
    world = degrade_world(baseline["world"], base / f"world-{kind}", kind)
    data = base / f"data-{kind}"
    _ingest(world, data, baseline["weeks"] - 1)
    root = base / f"published-{kind}"
    shutil.copytree(baseline["root"], root)
    build = build_and_publish_ipbench if dataset == "ipbench" else build_and_publish_patenteb
    kw = {"max_items": 200} if dataset == "ipbench" else {"use_model": False}
    with pytest.raises(QualityGateBlocked) as err:
        build(data, str(root), seed=5, **kw)
    msg = str(err.value)
    assert msg.startswith(f"quality gate: {dataset} ") and expect in msg and "->" in msg
    assert "PF_QUALITY__" in msg and "--allow-drift" in msg
    assert latest_version(Storage(root), dataset) == baseline["first"][dataset]
    # a degraded field often loses rows too (e.g. no abstract, no problem2full pair): both overrides
    pub = build(data, str(root), seed=5, publish_options=PublishOptions(allow_drop=True, allow_drift=True), **kw)
    man = json.loads((root / dataset / pub.version / "manifest.json").read_text())
    assert man["quality"]["drift"]["override"] is True and man["quality"]["drift"]["blocked"]
    if kind == "drop_ipc_section":  # the warehouse coverage says it plainly too
        assert any("warehouse coverage column ipc_section: values missing H -> absent" in b
                   for b in man["quality"]["drift"]["blocked"]), man["quality"]["drift"]["blocked"]
    assert latest_version(Storage(root), dataset) == pub.version
    card = (root / dataset / pub.version / "README.md").read_text()
    assert "**yes** (PF_QUALITY__" in card
