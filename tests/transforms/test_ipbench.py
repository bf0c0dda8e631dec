"""IPBench items from a warehouse ingested from a generated world's Lens JSONL: fields, options, determinism."""
from __future__ import annotations

import json
import random
from pathlib import Path

import polars as pl
import pytest

from patentfactory.stages.build_ipbench import build_and_publish_ipbench, build_ipbench_tasks, read_inputs
from patentfactory.sim.generator import generate_world
from patentfactory.store.inspect import inspect_version
from patentfactory.stages.ingest_files import ingest_lens
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
from transforms.tasks.ipbench import (EXPERT_TASKS, ITEM_FIELDS, IPBenchSpec, pick_distractors, representatives, shuffled_options,
                                      task_registry)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict, dict, pl.DataFrame]:
    root = tmp_path_factory.mktemp("ipb")
    generate_world(root / "world", 300, 7)
    ingest_lens(root / "data", [root / "world" / "lens" / "lens-export.jsonl"])
    inputs = read_inputs(Warehouse(Storage(root / "data").sub("warehouse")))
    tasks, stats = build_ipbench_tasks(inputs, seed=5, max_items=60)
    return root, tasks, stats, inputs["publications"]


def test_spec_registry_rejects_expert_and_bad_ids() -> None:
    assert list(task_registry()) == ["1-5-1", "1-5-2", "3-3", "4-1", "4-2"]
    with pytest.raises(ValueError):
        IPBenchSpec("2-1", "x", "choice", "accuracy")
    with pytest.raises(ValueError):
        IPBenchSpec("one", "x", "choice", "accuracy")


def test_distractors_prefer_neighbourhood_and_never_repeat_answer() -> None:
    rng = random.Random(1)
    dis = pick_distractors("H04W", ["H04W", "H04L", "H04B"], ["A61K", "H04L", "G06F"], 3, rng)
    assert dis[:2] in (["H04L", "H04B"], ["H04B", "H04L"]) and dis[2] in {"A61K", "G06F"} and "H04W" not in dis
    opts = shuffled_options("H04W", dis, random.Random(2))
    assert sorted(opts) == sorted(["H04W", *dis])


def test_items_have_exact_fields_and_valid_answers(built) -> None:
    _, tasks, stats, pubs = built
    assert set(tasks) == set(task_registry())
    for task_id, df in tasks.items():
        assert tuple(df.columns) == ITEM_FIELDS and df.height > 0, task_id
        assert (df["task_id"] == task_id).all() and (df["language"] == "en").all()
        assert (df["mechanism"] == "patent").all() and (df["question"].str.len_chars() > 0).all()
        assert (df["answer"].str.len_chars() > 0).all() and (df["source_ids"].list.len() > 0).all()
        assert df.height <= 60
        if task_registry()[task_id].kind == "choice":
            for row in df.iter_rows(named=True):
                assert len(row["options"]) == 4 and len(set(row["options"])) == 4
                assert row["answer"] in row["options"]
        else:
            assert (df["options"].list.len() == 0).all()
    assert stats["items"] == {t: df.height for t, df in tasks.items()}


def test_classification_distractors_share_ipc3(built) -> None:
    root, tasks, _, pubs = built
    ipc = dict(zip(pubs["pub_id"].to_list(), pubs["ipc"].to_list()))
    sub = tasks["1-5-1"].filter(pl.col("question").str.starts_with("Which IPC subclass"))
    assert sub.height > 0
    inputs = read_inputs(Warehouse(Storage(root / "data").sub("warehouse")))
    reps = representatives(inputs["publications"].lazy(), inputs["families"].lazy()).collect()
    vocab = {s[0][:4] for s in reps["ipc"].to_list()}
    for row in sub.iter_rows(named=True):
        assert row["answer"] == ipc[row["source_ids"][0]][0][:4]
        same = [o for o in row["options"] if o[:3] == row["answer"][:3]]
        siblings = {v for v in vocab if v[:3] == row["answer"][:3]}
        assert len(same) == min(4, len(siblings)), "same-IPC3 labels come first, others only to fill up"
    cls = tasks["1-5-1"].filter(pl.col("question").str.starts_with("Which IPC class"))
    assert all(o[0] == r["answer"][0] or len(o) == 3 for r in cls.iter_rows(named=True) for o in r["options"])


def test_patent_match_truth_is_cited_and_distractors_same_ipc3(built) -> None:
    root, tasks, _, pubs = built
    inputs = read_inputs(Warehouse(Storage(root / "data").sub("warehouse")))
    simple = inputs["families"].filter(pl.col("family_kind") == "simple")
    fam = dict(zip(simple["pub_id"].to_list(), simple["family_id"].to_list()))
    cites = inputs["citations"].drop_nulls("cited_pub_id")
    cited = {(fam.get(a), fam.get(b)) for a, b in zip(cites["citing_pub_id"].to_list(), cites["cited_pub_id"].to_list())}
    ipc3 = dict(zip(pubs["pub_id"].to_list(), pubs["ipc3"].to_list()))
    assert tasks["3-3"].height > 0
    for row in tasks["3-3"].iter_rows(named=True):
        query, *cands = row["source_ids"]
        assert len(cands) == 4 and query not in cands
        target = cands[row["options"].index(row["answer"])]
        assert (fam[query], fam[target]) in cited and fam[query] != fam[target]
        assert all((fam[query], fam[c]) not in cited for c in cands if c != target)
        assert {ipc3[c] for c in cands} == {ipc3[target]}


def test_build_is_deterministic_and_publishes(built, tmp_path: Path) -> None:
    root, tasks, _, _ = built
    again, _ = build_ipbench_tasks(read_inputs(Warehouse(Storage(root / "data").sub("warehouse"))), seed=5,
                                   max_items=60)
    assert all(again[t].equals(tasks[t]) for t in tasks)
    other, _ = build_ipbench_tasks(read_inputs(Warehouse(Storage(root / "data").sub("warehouse"))), seed=6,
                                   max_items=60)
    assert not other["1-5-1"].equals(tasks["1-5-1"])
    pub = build_and_publish_ipbench(root / "data", str(tmp_path), seed=5, max_items=60)
    rep = inspect_version(Storage(tmp_path), "ipbench", pub.version)
    assert rep.ok, rep.problems
    assert {f["path"] for f in rep.manifest["files"]} == {f"{t}/test.parquet" for t in task_registry()}
    card = (tmp_path / "ipbench" / pub.version / "README.md").read_text()
    assert all(t in card for t in EXPERT_TASKS) and "not built" in card
    assert json.loads((tmp_path / "ipbench" / pub.version / "manifest.json").read_text())["leakage"][
        "answers_among_options"]["ok"]
