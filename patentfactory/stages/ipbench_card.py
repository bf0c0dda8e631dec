"""The IPBench card's own sections: tasks, method, departures from the paper (with counts), shortcuts."""
from __future__ import annotations

import json

from transforms.tasks.ipbench import ABSTRACT_SHARE, EXPERT_TASKS, task_registry
from transforms.tasks.ipbench_shortcuts import SHORTCUTS


def _departures(stats: dict) -> str:
    n, built, refused, pm = stats["items"], stats["built_before_cap"], stats["refused_cross_task_gold"], \
        stats["patent_match"]
    lines = [
        "Everything here is built from structured patent data only (bibliographic fields, claims, descriptions, "
        "citations, families), in English only. The paper's 20 tasks are in English and Chinese and mostly written "
        f"or checked by experts; the expert-authored ones ({', '.join(EXPERT_TASKS)}) are out of scope and not built.",
        "",
        f"- **1-5-1 / 1-5-2 classification** ({n.get('1-5-1', 0)} / {n.get('1-5-2', 0)} items, of "
        f"{built.get('1-5-1', 0)} / {built.get('1-5-2', 0)} built): an open answer, as in the paper, scored as the "
        "paper scores it: exact match at section, class, subclass and full code, and the task score is the average "
        "of the four (`average_em`). The gold main code is the first IPC (CPC) symbol of the "
        "source record, normalised to `H04L 29/06` style; `codes` holds the patent's full list. The question is "
        "the title and abstract. One item per simple family (the smallest English publication number). From USPTO "
        f"publications only, as the paper's English items: {stats.get('uspto_representatives', 0)} US "
        f"representatives used, {stats.get('non_uspto_representatives', 0)} English EP/WO/other ones left out.",
        _choice_line(stats),
        f"- **3-3 patent match** ({n.get('3-3', 0)} items): four candidates, the right one a patent the query "
        "cites (citation data, not expert judgement). Items come in balanced blocks of four that share their "
        f"candidates ({pm['blocks_same_ipc3']} blocks within one IPC class, {pm['blocks_same_section']} within one "
        f"section); of {pm['pairs']} citation pairs (one per query), {pm['pairs_same_family']} join two members of "
        f"one extended family, {pm['dropped_no_block']} are in no block and {pm['dropped_cap']} were left out by "
        "the cap. No distractor is in the family of the query or of the "
        "answer, and none cites or is cited by any member of the query's family.",
        f"- **4-1 abstract generation** ({n.get('4-1', 0)} items): all claims -> the abstract. One family in "
        f"{ABSTRACT_SHARE} (a stable hash; {stats['families_reserved_for_4_1']} families) is kept for 4-1 and used "
        "by no other task, since the other tasks show the abstract (and 4-1's claims hold 4-2's gold).",
        f"- **4-2 dependent claims** ({n.get('4-2', 0)} items): the paper's prompt, the independent claim 1 -> all "
        "its dependent claims (direct, or through another dependent claim), nothing else in the input.",
        f"- **Recency**: 4-1 and 4-2 take the latest patents, as the paper does (the {stats.get('max_items', 0)} "
        "most recently published of those built); publication years of their sources (min / median / max): "
        + "; ".join(f"{t}: {y['min']} / {y['median']} / {y['max']}"
                    for t, y in sorted(stats.get("generation_years", {}).items())) + ".",
        "- **Cross-task gold**: an item whose question or options hold a gold text of the same family (the answer "
        "of 1-5, 4-1 or 4-2, another task's or its own; for 4-2 also any abstract of the family) is refused at "
        "build time; a choice item's gold is which option, not a text. Refused: "
        + ", ".join(f"{t}: {k}" for t, k in sorted(refused.items())) + ".",
    ]
    return "\n".join(lines)


def _choice_line(stats: dict) -> str:
    n, sc = stats["items"], stats["subclass_choice"]
    parts = [f"{t}: {n.get(t, 0)} items, {s['blocks_same_class']} blocks within one class and "
             f"{s['blocks_same_section']} within one section, {s['dropped_no_block']} of {s['patents']} patents in no "
             "block" for t, s in sorted(sc.items())]
    return ("- **1-5-1-mc / 1-5-2-mc** (not in the paper; " + "; ".join(parts) + "): which subclass of the main "
            "code, four options, published beside the open tasks for cheap scoring, built from the same patents "
            "(score one form or the other). Balanced blocks as in 3-3; no distractor is a subclass of any code "
            "of the patent's family.")


def _shortcuts(stats: dict) -> str:
    rows = [f"| {t} | {b['chance']:.3f} | " + " | ".join(f"{b[k]:.3f} ({b[k] - b['chance']:+.3f})" for k in SHORTCUTS)
            + " |" for t, b in sorted(stats["answer_only"].items())]
    return ("Accuracy of rules that never read the question, on every choice task (`option_length` and `position`: "
            "the better of longest/shortest and of the four fixed positions). Balanced blocks make each chance.\n\n"
            "| task | chance | " + " | ".join(SHORTCUTS) + " |\n|---|---:|" + "---:|" * len(SHORTCUTS) + "\n"
            + "\n".join(rows))


def card_sections(stats: dict, built: list[str], max_items: int) -> dict[str, str]:
    specs = task_registry()
    rows = "\n".join(f"| {t} | {specs[t].name} | {specs[t].kind} | {specs[t].metric} | {stats['items'].get(t, 0)} |"
                     for t in built)
    return {
        "Tasks built": ("English items derived from structured patent data.\n\n"
                        "| task | name | kind | metric | items |\n|---|---|---|---|---:|\n" + rows),
        "Departures from the paper": _departures(stats),
        "Answer-only baselines": _shortcuts(stats),
        "Thresholds": (f"At most {max_items} items per task (a seeded sample; 3-3 keeps whole blocks). The sample "
                       "run (`make run` / `pf run` on the embedded world) uses the same thresholds as a full build: "
                       "no sample profile lowers any for this dataset."),
        "Not built": ("Expert-authored IPBench tasks need human-written items and are not built: "
                      + ", ".join(EXPERT_TASKS) + "."),
        "Reproducing the paper": (
            "The paper's headline score (e.g. DeepSeek-V3 about 75.8 %) averages all 20 tasks, "
            f"{len(EXPERT_TASKS)} of them expert-written and not built here, in English and Chinese: **it cannot be "
            "reproduced from this data**, nor can any per-category average that includes an expert task. What can "
            "be reproduced at full scale: the English rows of 1-5-1 / 1-5-2 (four-level exact-match average, "
            "`average_em`), 3-3, 4-1 and 4-2 for a model you run, with `pf ingest uspto --from ... --to ...` (the "
            "latest years for 4-1/4-2), `pf build ipbench --max-items N` and the metrics of "
            "`patentfactory/evaluation/zero_shot.py`; `pf eval ipbench` scores the no-model floors. Our items are "
            "drawn from structured data, not the paper's item lists, so a model's scores compare with the paper's "
            "per task in kind, not item by item; the Chinese items and the paper's 1-5 sample are not built."),
        "Build statistics": "```json\n" + json.dumps(stats, indent=2, sort_keys=True, default=str) + "\n```",
    }
