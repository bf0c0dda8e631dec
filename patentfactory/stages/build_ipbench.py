"""Stage: warehouse -> the data-derived IPBench tasks -> versioned publish.

Reads `publications`, `families` (derived here when the warehouse has none), `claims` and `citations`;
builds 1-5-1, 1-5-2 (open classification, USPTO patents), the choice tasks 1-5-1-mc, 1-5-2-mc and 3-3
(balanced blocks), 4-1 and 4-2 in English; caps each task at `max_items` (4-1/4-2: the latest patents;
the others: a seeded sample); refuses items
that hold a gold text of their family; publishes `ipbench/<version>/<task_id>/test.parquet`. Publishing
re-checks the rules over every item: one right option, balanced options, no cross-task gold.
"""
from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path

import polars as pl

from transforms.families import build_families
from transforms.tasks.ipbench import (CLASSIFICATION_FIELDS, ITEM_FIELDS, abstract_pool, build_abstract_generation,
                                      build_classification, build_dependent_claims, claims_by_pub, family_groups,
                                      latest, refuse_cross_task_leaks, representatives, task_registry)
from transforms.tasks.ipbench_choice import build_subclass_choice, family_subclasses
from transforms.tasks.ipbench_match import BLOCK, build_patent_match, family_neighbours, match_pairs
from transforms.tasks.ipbench_shortcuts import answer_only_baselines

from schemas import validate
from schemas.ipbench_items import IPBENCH_CLASSIFICATION_ITEMS, IPBENCH_ITEMS

from patentfactory.errors import PFError
from patentfactory.store.drift import coverage_of
from patentfactory.store.ledger import Ledger
from patentfactory.store.publish import LeakageCheck, Published, Release, publish
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
from patentfactory.stages.ipbench_card import card_sections
from patentfactory.stages.memory import within_budget

log = logging.getLogger(__name__)


def read_inputs(wh: Warehouse) -> dict[str, pl.DataFrame]:
    """The warehouse tables IPBench needs; families derived from publications when absent."""
    pubs = wh.lean_frame("publications", skip=("raw",))  # the source record: most of the bytes, unused here
    if pubs.height == 0:
        raise PFError("the warehouse has no publications", "run `pf ingest lens|uspto ...` (or `pf run`) first")
    families = wh.frame("families")
    if families.filter(pl.col("family_kind") == "simple").height == 0:
        families = build_families(pubs.lazy(), wh.frame("reported_families").lazy()).collect()
    # citations: the edge columns only (NPL strings are most of that table's bytes); claims: the
    # representatives' only
    reps = representatives(pubs.lazy(), families.lazy()).select("pub_id").collect()["pub_id"]
    return {"publications": pubs, "families": families,
            "claims": wh.lean_frame("claims", where=pl.col("pub_id").is_in(reps.implode())),
            "citations": wh.lean_frame("citations", skip=("cited_npl", "category", "cited_by"))}


def cap(df: pl.DataFrame, max_items: int, seed: int) -> pl.DataFrame:
    """At most `max_items` rows, a seeded sample of a canonical order (stable across runs)."""
    df = df.sort("source_ids", "question")
    return df if df.height <= max_items else df.sample(max_items, seed=seed).sort("source_ids", "question")


def keep_whole_blocks(df: pl.DataFrame) -> pl.DataFrame:
    """Choice items whose block is whole (a block's four items share one option set)."""
    key = pl.col("options").list.sort().list.join("\u0000")
    return df.filter(pl.len().over(key) % BLOCK == 0)


def _years(dates: pl.Series) -> dict[str, int | None]:
    """Publication years of a task's source patents: earliest, median, latest."""
    y = dates.drop_nulls().dt.year()
    return {"min": y.min(), "median": int(y.median()) if y.len() else None, "max": y.max()} if y.len() else \
        {"min": None, "median": None, "max": None}


def _abstracts_by_group(pubs: pl.DataFrame, group_of: dict[str, str], groups: set[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for pid, abstract in pubs.select("pub_id", "abstract").drop_nulls().iter_rows():
        g = group_of.get(pid, pid)
        if g in groups:
            out.setdefault(g, []).append(abstract)
    return out


def build_ipbench_tasks(inputs: dict[str, pl.DataFrame], seed: int = 1337,
                        max_items: int = 1000) -> tuple[dict[str, pl.DataFrame], dict]:
    """All buildable tasks as item frames (ITEM_FIELDS; 1-5 adds `codes`) plus build statistics."""
    families, pubs = inputs["families"], inputs["publications"]
    group_of = family_groups(families)
    reps = representatives(pubs.lazy(), families.lazy()).collect()
    to_abstract = pl.Series([abstract_pool(group_of.get(p, p), seed) for p in reps["pub_id"].to_list()],
                            dtype=pl.Boolean)
    for_41, others = reps.filter(to_abstract), reps.filter(~to_abstract)
    uspto = others.filter(pl.col("pub_id").str.starts_with("US-"))  # the paper's English 1-5 items are USPTO's
    per_pub = claims_by_pub(inputs["claims"].lazy())
    pairs = match_pairs(others.lazy(), inputs["citations"].lazy(), families.lazy()).collect()
    neighbours = family_neighbours(inputs["citations"], group_of,
                                   {group_of.get(q, q) for q in pairs["query"].to_list()})
    match, match_stats = build_patent_match(others, pairs, group_of, neighbours, seed, max_items)
    choice = {f"{t}-mc": build_subclass_choice(others, f"{t}-mc", scheme,
                                               family_subclasses(pubs, group_of, scheme.lower()), group_of, seed,
                                               max_items)
              for t, scheme in (("1-5-1", "IPC"), ("1-5-2", "CPC"))}
    generation = {"4-1": build_abstract_generation(for_41.lazy(), per_pub).collect(),
                  "4-2": build_dependent_claims(others.lazy(), per_pub).collect()}
    tasks = {
        "1-5-1": build_classification(uspto, "1-5-1", "IPC"),
        "1-5-2": build_classification(uspto, "1-5-2", "CPC"),
        **{t: df for t, (df, _) in choice.items()},
        "3-3": match,
        **generation,
    }
    built = {t: df.height for t, df in tasks.items()}
    years = {t: _years(df.sort("pub_date", descending=True, nulls_last=True).head(max_items)["pub_date"])
             for t, df in generation.items()}
    tasks = {t: latest(df, max_items) if t in generation else cap(df, max_items, seed) for t, df in tasks.items()}
    groups_42 = {group_of.get(s[0], s[0]) for s in tasks["4-2"]["source_ids"].to_list()}
    tasks, refused = refuse_cross_task_leaks(tasks, group_of, _abstracts_by_group(pubs, group_of, groups_42))
    specs = task_registry()
    tasks = {t: keep_whole_blocks(df) if specs[t].kind == "choice" else df for t, df in tasks.items()}
    tasks = {t: df.select(CLASSIFICATION_FIELDS if specs[t].kind == "open" else ITEM_FIELDS) for t, df in tasks.items()}
    stats = {"representatives": reps.height, "english_publications": int((pubs["lang"] == "en").sum()),
             "families_reserved_for_4_1": for_41.height, "uspto_representatives": uspto.height,
             "non_uspto_representatives": others.height - uspto.height, "generation_years": years,
             "citation_pairs": pairs.height, "patent_match": match_stats,
             "subclass_choice": {t: st for t, (_, st) in choice.items()}, "built_before_cap": built,
             "refused_cross_task_gold": refused, "items": {t: df.height for t, df in tasks.items()},
             "answer_only": {t: answer_only_baselines(df["options"].to_list(), df["answer"].to_list())
                             for t, df in tasks.items() if specs[t].kind == "choice"},
             "max_items": max_items, "seed": seed}
    log.info("ipbench: %s", stats["items"])
    return tasks, stats


def _answers_in_options(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """Every choice item's answer is one of its options, options are distinct."""
    problems = []
    for task, splits in frames.items():
        for split, df in splits.items():
            for row in df.filter(pl.col("options").list.len() > 0).iter_rows(named=True):
                if row["answer"] not in row["options"] or len(set(row["options"])) != len(row["options"]):
                    problems.append(f"{task}/{split}: item of {row['source_ids'][0]} has a bad option set")
    return problems


def _balanced_options(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """Every option of a choice task is a distractor exactly (options - 1) times per time it is the answer."""
    problems = []
    for task, splits in frames.items():
        for split, df in splits.items():
            rows = df.filter(pl.col("options").list.len() > 0).select("options", "answer").rows()
            shown, right = Counter(o for opts, _ in rows for o in opts), Counter(a for _, a in rows)
            problems += [f"{task}/{split}: an option is shown {n} times and right {right[o]} times"
                         for o, n in shown.items() if n != BLOCK * right[o]]
    return problems


def _one_right_option(group_of: dict[str, str], neighbours: dict[str, set[str]],
                      subclasses: dict[str, dict[str, set[str]]]):
    """3-3: no distractor in the query's or the answer's family or linked by a citation to the query's family;
    1-5-x-mc: no distractor among the subclasses of the patent's family."""
    def check(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
        problems = []
        for task, scheme in (("1-5-1-mc", "ipc"), ("1-5-2-mc", "cpc")):
            for split, df in frames.get(task, {}).items():
                for opts, answer, src in df.select("options", "answer", "source_ids").rows():
                    wrong = set(opts) - {answer}
                    if wrong & subclasses[scheme].get(group_of.get(src[0], src[0]), set()):
                        problems.append(f"{task}/{split}: a second right option for {src[0]}")
        for split, df in frames.get("3-3", {}).items():
            for opts, answer, src in df.select("options", "answer", "source_ids").rows():
                query, *cands = src
                target = cands[opts.index(answer)]
                gq, gt = group_of.get(query, query), group_of.get(target, target)
                for cand, opt in zip(cands, opts):
                    g = group_of.get(cand, cand)
                    if opt != answer and (g in (gq, gt) or g in neighbours.get(gq, set())):
                        problems.append(f"3-3/{split}: {cand} is a second right option for {query}")
        return problems
    return check


def _no_cross_task_gold(group_of: dict[str, str]):
    def check(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
        _, refused = refuse_cross_task_leaks({t: s["test"] for t, s in frames.items()}, group_of)
        return [f"{t}: {n} items hold another task's gold for the same family" for t, n in refused.items() if n]
    return check


@within_budget("build-ipbench")
def build_and_publish_ipbench(data_dir: str | Path, out_root: str, seed: int = 1337, max_items: int = 1000,
                              publish_options: PublishOptions = PublishOptions()) -> Published:
    """Build from the warehouse under `data_dir` and publish one verified IPBench version."""
    root = Storage(data_dir)
    wh = Warehouse(root.sub("warehouse"))
    inputs = read_inputs(wh)
    tasks, stats = build_ipbench_tasks(inputs, seed=seed, max_items=max_items)
    empty = sorted(t for t, df in tasks.items() if df.height == 0)
    stats["empty_tasks"] = empty
    built = [t for t in tasks if t not in empty]
    specs = task_registry()
    for t in built:  # the published contract, checked at the boundary
        validate(tasks[t].to_arrow(), IPBENCH_CLASSIFICATION_ITEMS if specs[t].kind == "open" else IPBENCH_ITEMS)
    group_of = family_groups(inputs["families"])
    queries = [src[0] for src in tasks["3-3"]["source_ids"].to_list()] if "3-3" in built else []
    neighbours = family_neighbours(inputs["citations"], group_of, {group_of.get(q, q) for q in queries})
    subclasses = {s: family_subclasses(inputs["publications"], group_of, s) for s in ("ipc", "cpc")}
    release = Release(
        dataset="ipbench", tasks={t: {"test": tasks[t]} for t in built},
        config={"seed": seed, "max_items": max_items,
                "tasks": {t: s.version for t, s in task_registry().items()}},
        inputs=Ledger(root.sub("warehouse")).snapshot(),
        leakage_checks=[LeakageCheck("answers_among_options", _answers_in_options),
                        LeakageCheck("balanced_options", _balanced_options),
                        LeakageCheck("one_right_option", _one_right_option(group_of, neighbours, subclasses)),
                        LeakageCheck("no_cross_task_gold", _no_cross_task_gold(group_of))],
        distribution={t: stats["items"][t] for t in built}, distribution_title="items per task",
        card_sections=card_sections(stats, built, max_items), stats=stats,
        coverage=coverage_of(inputs["publications"].lazy()))
    return publish(Storage(out_root), release, options=publish_options)
