"""IPBench over a whole build of a generated world (Lens exports + US weekly files from the replica).

Every rule is checked on every item, against the warehouse tables read here, not through the builder's
own helpers: the open 1-5 gold, one right 3-3 option, balanced options, 4-2's description, no cross-task gold.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from patentfactory.evaluation.zero_shot import score_ipbench
from patentfactory.sim.generator import generate_world
from patentfactory.sim.upstream import Replica
from patentfactory.stages.build_ipbench import build_and_publish_ipbench, build_ipbench_tasks, read_inputs
from patentfactory.stages.ingest_files import ingest_lens, ingest_uspto
from patentfactory.store.inspect import inspect_version
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
from schemas import validate
from schemas.ipbench_items import IPBENCH_CLASSIFICATION_ITEMS, IPBENCH_ITEMS
from transforms.tasks.ipbench import (CLASSIFICATION_FIELDS, EXPERT_TASKS, ITEM_FIELDS,
                                      IPBenchSpec, dependents_of, refuse_cross_task_leaks, task_registry)

pytestmark = pytest.mark.services

MAX_ITEMS = 400


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("ipb")
    generate_world(root / "world", 300, 7)
    ingest_lens(root / "data", sorted((root / "world" / "lens").glob("*.jsonl")))
    with Replica(root / "world") as rep:
        ingest_uspto(root / "data", rep.base_url, date(1976, 1, 1), date(2100, 1, 1), "k")
    wh = Warehouse(Storage(root / "data").sub("warehouse"))
    inputs = read_inputs(wh)  # families: the warehouse's, or derived from priorities when it has none
    tasks, stats = build_ipbench_tasks(inputs, seed=5, max_items=MAX_ITEMS)
    return {"root": root, "tasks": tasks, "stats": stats, "pubs": wh.frame("publications"),
            "families": inputs["families"], "citations": wh.frame("citations").drop_nulls("cited_pub_id"),
            "claims": wh.frame("claims")}


@pytest.fixture(scope="module")
def fam(world) -> dict[str, frozenset[str]]:
    """pub_id -> every publication sharing a simple or an extended family with it (itself included)."""
    members: dict[str, set[str]] = {}
    assert world["families"].height > 0
    for (_kind, _fid), grp in world["families"].group_by("family_kind", "family_id"):
        ids = set(grp["pub_id"].to_list())
        for p in ids:
            members.setdefault(p, {p}).update(ids)
    return {p: frozenset(m) for p, m in members.items()}


def _members(fam: dict, pid: str) -> frozenset[str]:
    return fam.get(pid, frozenset({pid}))


def test_registry_names_the_built_tasks_and_rejects_expert_ones() -> None:
    kinds = {t: s.kind for t, s in task_registry().items()}
    assert kinds == {"1-5-1": "open", "1-5-2": "open", "1-5-1-mc": "choice", "1-5-2-mc": "choice", "3-3": "choice",
                     "4-1": "generation", "4-2": "generation"}
    for bad in (("2-1", "choice"), ("one", "choice"), ("1-5-1", "multiple")):
        with pytest.raises(ValueError):
            IPBenchSpec(bad[0], "x", bad[1], "accuracy")


def test_every_task_is_built_with_its_fields(world) -> None:
    for task_id, df in world["tasks"].items():
        kind = task_registry()[task_id].kind
        want = CLASSIFICATION_FIELDS if kind == "open" else ITEM_FIELDS
        assert tuple(df.columns) == want and 0 < df.height <= MAX_ITEMS, task_id
        assert (df["task_id"] == task_id).all() and (df["language"] == "en").all()
        assert (df["answer"].str.len_chars() > 0).all() and (df["source_ids"].list.len() > 0).all()
        assert (df["options"].list.len() == (4 if kind == "choice" else 0)).all(), task_id
    assert world["stats"]["items"] == {t: df.height for t, df in world["tasks"].items()}


def test_classification_is_open_with_the_main_code_and_the_full_list(world) -> None:
    pubs = {r["pub_id"]: r for r in world["pubs"].select("pub_id", "title", "abstract", "ipc", "cpc").to_dicts()}
    for task_id, scheme in (("1-5-1", "ipc"), ("1-5-2", "cpc")):
        for row in world["tasks"][task_id].iter_rows(named=True):
            pub = pubs[row["source_ids"][0]]
            assert row["codes"] == pub[scheme] and row["answer"] == pub[scheme][0]
            assert re.fullmatch(r"[A-HY]\d\d[A-Z] \d+/\d{2,}", row["answer"]), row["answer"]
            assert pub["title"] in row["question"] and pub["abstract"] in row["question"]
            assert scheme.upper() in row["question"].split("\n", 1)[0]


def test_patent_match_has_exactly_one_right_option_in_every_item(world, fam) -> None:
    cites: dict[str, set[str]] = {}
    for a, b in world["citations"].select("citing_pub_id", "cited_pub_id").iter_rows():
        cites.setdefault(a, set()).add(b)
    linked = lambda x, y: any(c in _members(fam, y) for m in _members(fam, x) for c in cites.get(m, ()))  # noqa: E731
    items = world["tasks"]["3-3"].rows(named=True)
    assert len(items) >= 40
    for row in items:
        query, *cands = row["source_ids"]
        right = [c for c, o in zip(cands, row["options"]) if o == row["answer"]]
        assert len(right) == 1 and linked(query, right[0]), row["source_ids"]
        for d in (c for c in cands if c != right[0]):
            assert d not in _members(fam, query) and d not in _members(fam, right[0])
            assert not linked(d, query) and not linked(query, d), (query, d)


def test_subclass_choice_has_exactly_one_right_option_in_every_item(world, fam) -> None:
    codes = {s: dict(world["pubs"].select("pub_id", s).rows()) for s in ("ipc", "cpc")}
    pubs = {r["pub_id"]: r for r in world["pubs"].select("pub_id", "title", "abstract").to_dicts()}
    for task_id, scheme in (("1-5-1-mc", "ipc"), ("1-5-2-mc", "cpc")):
        items = world["tasks"][task_id].rows(named=True)
        assert len(items) >= 40
        for row in items:
            pid = row["source_ids"][0]
            assert row["answer"] == codes[scheme][pid][0][:4] and pubs[pid]["abstract"] in row["question"]
            family = {c[:4] for m in _members(fam, pid) for c in codes[scheme].get(m) or []}
            assert [o for o in row["options"] if o in family] == [row["answer"]], (task_id, pid)


@pytest.mark.parametrize("task_id", ["1-5-1-mc", "1-5-2-mc", "3-3"])
def test_options_are_balanced_and_answer_only_rules_score_chance(world, task_id) -> None:
    df = world["tasks"][task_id]
    shown = Counter(o for opts in df["options"].to_list() for o in opts)
    right = Counter(df["answer"].to_list())
    assert all(n == 4 * right[o] for o, n in shown.items())
    positions = Counter(opts.index(a) for opts, a in zip(df["options"].to_list(), df["answer"].to_list()))
    assert sorted(positions) == [0, 1, 2, 3] and len(set(positions.values())) == 1
    scores = {s.model: s.value for s in score_ipbench(task_id, None, df)}
    for rule in ("most_frequent_option", "option_length", "position"):
        assert abs(scores[rule] - scores["chance"]) <= 0.05, (rule, scores)
    base = world["stats"]["answer_only"][task_id]
    assert base == {k: scores[k] for k in base}


def test_dependent_claims_follow_the_papers_prompt(world, fam) -> None:
    """4-2: the independent claim 1 alone -> every claim that depends on it, directly or through another."""
    claims = world["claims"].sort("pub_id", "claim_no")
    by_pub = {p: g for (p,), g in claims.group_by("pub_id")}
    abstracts = dict(world["pubs"].select("pub_id", "abstract").drop_nulls().rows())
    assert world["tasks"]["4-2"].height > 0
    chained = 0
    for row in world["tasks"]["4-2"].iter_rows(named=True):
        pid = row["source_ids"][0]
        g = by_pub[pid].sort("claim_no")
        claim1 = g.filter(pl.col("claim_no") == 1)["text"].item()
        assert row["question"] == f"Write all the dependent claims of this independent claim.\nClaim 1: {claim1}"
        wanted = dependents_of(g["claim_no"].to_list(), g["depends_on"].to_list())
        assert row["answer"] == "\n".join(f"{n}. {t}" for n, t in g.select("claim_no", "text").rows() if n in wanted)
        direct = {n for n, d in g.select("claim_no", "depends_on").rows() if 1 in (d or [])}
        chained += bool(set(wanted) - direct)
        assert not any(abstracts[m] in row["question"] for m in _members(fam, pid) if m in abstracts)
    assert chained > 0, "claims that depend on claim 1 through another dependent are gold too"


def test_dependents_of_follows_chains() -> None:
    assert dependents_of([1, 2, 3, 4, 5], [[], [1], [2], [], [3, 4]]) == [2, 3, 5]
    assert dependents_of([1, 2], [None, None]) == []


def test_generation_items_come_from_the_latest_patents(world) -> None:
    years = world["stats"]["generation_years"]
    dates = world["pubs"].select("pub_id", "pub_date")
    for task in ("4-1", "4-2"):
        used = dates.filter(pl.col("pub_id").is_in([s[0] for s in world["tasks"][task]["source_ids"].to_list()]))
        assert used.height == 0 or used["pub_date"].dt.year().max() == years[task]["max"]


def test_classification_items_are_uspto_patents(world) -> None:
    for task in ("1-5-1", "1-5-2"):
        assert all(s[0].startswith("US-") for s in world["tasks"][task]["source_ids"].to_list()), task


def test_no_item_holds_another_tasks_gold_for_the_same_family(world, fam) -> None:
    gold = [(t, frozenset(_members(fam, s[0])), a) for t, df in world["tasks"].items()
            if task_registry()[t].kind != "choice"
            for s, a in zip(df["source_ids"].to_list(), df["answer"].to_list())]
    for task_id, df in world["tasks"].items():
        for row in df.iter_rows(named=True):
            seen = "\n".join([row["question"], *row["options"]])
            mine = set().union(*(_members(fam, s) for s in row["source_ids"]))
            assert not [t for t, m, a in gold if t != task_id and m & mine and a in seen], (task_id, row["source_ids"])
    used_41 = set().union(*(_members(fam, s[0]) for s in world["tasks"]["4-1"]["source_ids"].to_list()))
    others = {s for t, df in world["tasks"].items() if t != "4-1" for src in df["source_ids"].to_list() for s in src}
    assert not used_41 & others


def test_the_refusal_drops_an_item_that_holds_another_tasks_gold(world, fam) -> None:
    tasks = world["tasks"]
    dep = tasks["4-2"].row(0, named=True)
    leaky = tasks["1-5-1"].head(3).with_columns(
        pl.Series("source_ids", [dep["source_ids"]] * 3), pl.Series("question", ["Q\n" + dep["answer"], "Q", "Q"]))
    group_of = {p: min(m) for p, m in fam.items()}
    kept, refused = refuse_cross_task_leaks({**tasks, "1-5-1": leaky}, group_of)
    assert refused["1-5-1"] == 1 and kept["1-5-1"].height == 2 and refused["4-2"] == 0


def test_build_is_deterministic_and_publishes_a_card_with_departures(world, tmp_path: Path) -> None:
    root = world["root"]
    wh = Warehouse(Storage(root / "data").sub("warehouse"))
    again, _ = build_ipbench_tasks(read_inputs(wh), seed=5, max_items=MAX_ITEMS)
    assert all(again[t].equals(world["tasks"][t]) for t in again)
    pub = build_and_publish_ipbench(root / "data", str(tmp_path), seed=5, max_items=MAX_ITEMS)
    rep = inspect_version(Storage(tmp_path), "ipbench", pub.version)
    assert rep.ok, rep.problems
    assert {f["path"] for f in rep.manifest["files"]} == {f"{t}/test.parquet" for t in task_registry()}
    for task_id, spec in task_registry().items():
        table = pq.read_table(tmp_path / "ipbench" / pub.version / task_id / "test.parquet")
        validate(table, IPBENCH_CLASSIFICATION_ITEMS if spec.kind == "open" else IPBENCH_ITEMS)
    leak = json.loads((tmp_path / "ipbench" / pub.version / "manifest.json").read_text())["leakage"]
    assert {k: v["ok"] for k, v in leak.items()} == dict.fromkeys(
        ("answers_among_options", "balanced_options", "one_right_option", "no_cross_task_gold"), True)
    card = (tmp_path / "ipbench" / pub.version / "README.md").read_text()
    dep = card.split("## Departures from the paper", 1)[1].split("\n## ", 1)[0]
    n = world["stats"]["items"]
    for task_id in task_registry():
        assert f"**{task_id}" in dep or f"/ {task_id}" in dep
    assert f"1-5-1-mc: {n['1-5-1-mc']} items" in dep and f"1-5-2-mc: {n['1-5-2-mc']} items" in dep
    assert f"({n['1-5-1']} / {n['1-5-2']} items" in dep and f"({n['3-3']} items" in dep
    assert f"({n['4-1']} items" in dep and f"({n['4-2']} items" in dep and "the latest patents" in dep
    assert "it cannot be reproduced from this data" in card and "`average_em`" in card
    assert all(t in card for t in EXPERT_TASKS) and "## Answer-only baselines" in card


def test_departure_counts_add_up(world) -> None:
    st = world["stats"]
    pm = st["patent_match"]
    assert pm["pairs"] == pm["pairs_same_family"] + 4 * pm["blocks"] + pm["dropped_no_block"]
    assert st["refused_cross_task_gold"]["3-3"] == 0  # a refused choice item takes its whole block with it
    assert st["items"]["3-3"] == 4 * pm["blocks"] - pm["dropped_cap"]
    for task_id, sc in st["subclass_choice"].items():
        assert sc["patents"] == 4 * sc["blocks"] + sc["dropped_no_block"]
        assert st["items"][task_id] == 4 * sc["blocks"] - sc["dropped_cap"]
    for task_id in ("1-5-1", "1-5-2", "4-1", "4-2"):
        capped = min(st["built_before_cap"][task_id], MAX_ITEMS)
        assert st["items"][task_id] == capped - st["refused_cross_task_gold"][task_id]
    assert st["items"]["4-1"] <= st["families_reserved_for_4_1"]
    assert st["items"]["4-2"] <= st["representatives"] - st["families_reserved_for_4_1"]
