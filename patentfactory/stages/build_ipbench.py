"""Stage: warehouse -> the five data-derived IPBench tasks -> versioned publish.

Reads `publications`, `claims`, `citations`, `descriptions` (and `families`, derived here when
the warehouse has none), builds 1-5-1, 1-5-2, 3-3, 4-1 and 4-2 in English, caps each task at
`max_items` with a seeded sample, and publishes `ipbench/<version>/<task_id>/test.parquet`. The
card lists the expert-authored tasks as not built: they need human-written items.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

import polars as pl

from transforms.families import build_families
from transforms.tasks.ipbench import (EXPERT_TASKS, ITEM_FIELDS, build_abstract_generation, build_cpc_classification,
                                      build_dependent_claims, build_ipc_classification, build_patent_match,
                                      claims_by_pub, match_pairs, representatives, task_registry)

from patentfactory.errors import PFError
from patentfactory.store.drift import coverage_of
from patentfactory.store.ledger import Ledger
from patentfactory.store.publish import LeakageCheck, Published, Release, publish
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
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
    # descriptions and claims: only the family representatives' (their one use: tasks 4-1, 4-2), filtered part
    # by part as read (full text is the warehouse's bulk: hundreds of GB at real size); citations: the edge
    # columns only (NPL strings are most of that table's bytes)
    reps = representatives(pubs.lazy(), families.lazy()).select("pub_id").collect()["pub_id"]
    of_reps = pl.col("pub_id").is_in(reps.implode())
    return {"publications": pubs, "families": families, "claims": wh.lean_frame("claims", where=of_reps),
            "citations": wh.lean_frame("citations", skip=("cited_npl", "category", "cited_by")),
            "descriptions": wh.lean_frame("descriptions", where=of_reps)}


def cap(df: pl.DataFrame, max_items: int, seed: int) -> pl.DataFrame:
    """At most `max_items` rows, a seeded sample of a canonical order (stable across runs)."""
    df = df.sort("source_ids", "question")
    return df if df.height <= max_items else df.sample(max_items, seed=seed).sort("source_ids", "question")


def build_ipbench_tasks(inputs: dict[str, pl.DataFrame], seed: int = 1337,
                        max_items: int = 1000) -> tuple[dict[str, pl.DataFrame], dict]:
    """All buildable tasks as item frames (exact ITEM_FIELDS) plus build statistics."""
    reps_lazy = representatives(inputs["publications"].lazy(), inputs["families"].lazy())
    reps = reps_lazy.collect()
    per_pub = claims_by_pub(inputs["claims"].lazy())
    pairs = match_pairs(reps_lazy, inputs["citations"].lazy(), inputs["families"].lazy()).collect()
    cites = inputs["citations"].filter(pl.col("cited_pub_id").is_not_null())
    simple = inputs["families"].filter(pl.col("family_kind") == "simple")
    cited_by = _cited_representatives(cites, simple, reps)
    dep = build_dependent_claims(reps_lazy, per_pub, inputs["descriptions"].lazy()).collect()
    tasks = {
        "1-5-1": build_ipc_classification(reps, seed),
        "1-5-2": build_cpc_classification(reps, seed),
        "3-3": build_patent_match(reps, pairs, cited_by, seed),
        "4-1": build_abstract_generation(reps_lazy, per_pub).collect(),
        "4-2": dep.select(ITEM_FIELDS),
    }
    tasks = {t: cap(df.select(ITEM_FIELDS), max_items, seed) for t, df in tasks.items()}
    stats = {"representatives": reps.height, "english_publications": int((inputs["publications"]["lang"] == "en").sum()),
             "citation_pairs": pairs.height, "items": {t: df.height for t, df in tasks.items()},
             "dependent_claims_description_fallback": int(dep["description_fallback"].sum()) if dep.height else 0,
             "max_items": max_items, "seed": seed}
    log.info("ipbench: %s", stats["items"])
    return tasks, stats


def _cited_representatives(cites: pl.DataFrame, simple: pl.DataFrame, reps: pl.DataFrame) -> dict[str, set[str]]:
    """query representative -> every representative it cites (none of them may be a distractor)."""
    rep_of = simple.join(reps.select("family_id", pl.col("pub_id").alias("rep")), on="family_id")
    edges = (cites.join(rep_of.select(pl.col("pub_id").alias("citing_pub_id"), pl.col("rep").alias("q")),
                        on="citing_pub_id")
             .join(rep_of.select(pl.col("pub_id").alias("cited_pub_id"), pl.col("rep").alias("t")), on="cited_pub_id")
             .select("q", "t").unique())
    out: dict[str, set[str]] = {}
    for q, t in edges.iter_rows():
        out.setdefault(q, set()).add(t)
    return out


def _answers_in_options(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """Every choice item's answer is one of its options, options are distinct."""
    problems = []
    for task, splits in frames.items():
        for split, df in splits.items():
            for row in df.filter(pl.col("options").list.len() > 0).iter_rows(named=True):
                if row["answer"] not in row["options"] or len(set(row["options"])) != len(row["options"]):
                    problems.append(f"{task}/{split}: item of {row['source_ids'][0]} has a bad option set")
    return problems


def _card_sections(stats: dict, built: list[str], max_items: int) -> dict[str, str]:
    specs = task_registry()
    rows = "\n".join(f"| {t} | {specs[t].name} | {specs[t].kind} | {stats['items'].get(t, 0)} |" for t in built)
    return {
        "Tasks built": ("English items derived from structured patent data (one publication per simple family).\n\n"
                        "| task | name | kind | items |\n|---|---|---|---:|\n" + rows),
        "Method": ("Choice tasks draw 3 distractors with a per-item seeded RNG from the answer's neighbourhood: "
                   "IPC/CPC labels sharing the section (class level) or IPC3 (subclass level); for 3-3 the truth "
                   "is a cited patent of another family and distractors are same-IPC3 patents the query does not "
                   "cite. 4-2 uses the description when the warehouse has one, else the abstract "
                   f"({stats.get('dependent_claims_description_fallback', 0)} items)."),
        "Thresholds": (f"At most {max_items} items per task (a seeded sample). The sample run (`make run` / "
                       "`pf run` on the embedded world) uses the same thresholds as a full build: no sample profile "
                       "lowers any for this dataset."),
        "Not built": ("Expert-authored IPBench tasks need human-written items and are not built: "
                      + ", ".join(EXPERT_TASKS) + "."),
        "Build statistics": "```json\n" + json.dumps(stats, indent=2, sort_keys=True, default=str) + "\n```",
    }


@within_budget("build-ipbench")
def build_and_publish_ipbench(data_dir: str | Path, out_root: str, seed: int = 1337, max_items: int = 1000,
                              allow_drop: bool = False, allow_drift: bool = False) -> Published:
    """Build from the warehouse under `data_dir` and publish one verified IPBench version."""
    root = Storage(data_dir)
    wh = Warehouse(root.sub("warehouse"))
    inputs = read_inputs(wh)
    tasks, stats = build_ipbench_tasks(inputs, seed=seed, max_items=max_items)
    empty = sorted(t for t, df in tasks.items() if df.height == 0)
    stats["empty_tasks"] = empty
    built = [t for t in tasks if t not in empty]
    release = Release(
        dataset="ipbench", tasks={t: {"test": tasks[t]} for t in built},
        config={"seed": seed, "max_items": max_items,
                "tasks": {t: s.version for t, s in task_registry().items()}},
        inputs=Ledger(root.sub("warehouse")).snapshot(),
        leakage_checks=[LeakageCheck("answers_among_options", _answers_in_options)],
        distribution={t: stats["items"][t] for t in built}, distribution_title="items per task",
        card_sections=_card_sections(stats, built, max_items), stats=stats,
        coverage=coverage_of(inputs["publications"].lazy()))
    return publish(Storage(out_root), release, allow_drop=allow_drop, allow_drift=allow_drift)
