"""The multiple-choice variants of 1-5 (`1-5-1-mc`, `1-5-2-mc`): which subclass, four options, one right.

Not the paper's form (the paper asks for the code, open: 1-5-1 / 1-5-2); published beside it under its own
name for cheap scoring. Balanced blocks as in 3-3 (`ipbench_match`): four patents with four different main
subclasses share those four options, each patent's own at a different position, so any rule that reads only
the options scores chance. A block only joins patents none of whose family's codes, at subclass level, is
another member's answer; blocks are formed within one IPC (CPC) class first, then within one section, so
knowing the section or the class alone does not answer most items.
"""
from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from .ipbench import items_frame, patent_text
from .ipbench_match import arrange, cap_blocks, form_blocks

SUBCLASS = 4
QUESTION = "Which {scheme} subclass does this patent belong to?\n"


@dataclass(frozen=True)
class LabelItem:
    pub: str
    label: str  # the main code's subclass
    forbidden: frozenset[str]  # every subclass of the patent's family: none may be a distractor
    text: str


def family_subclasses(publications: pl.DataFrame, group_of: dict[str, str], scheme: str) -> dict[str, set[str]]:
    """family -> every subclass any member publication is classified in (`scheme` column: ipc | cpc)."""
    out: dict[str, set[str]] = {}
    for pid, codes in publications.select("pub_id", scheme).rows():
        out.setdefault(group_of.get(pid, pid), set()).update(c[:SUBCLASS] for c in codes or [] if c)
    return out


def fits(a: LabelItem, b: LabelItem) -> bool:
    return a.label != b.label and b.label not in a.forbidden and a.label not in b.forbidden


def build_subclass_choice(reps: pl.DataFrame, task_id: str, scheme: str, subclasses: dict[str, set[str]],
                          group_of: dict[str, str], seed: int, max_items: int) -> tuple[pl.DataFrame, dict]:
    """`task_id` items (subclass of the main `scheme` code) in balanced blocks, at most `max_items`; statistics."""
    col = scheme.lower()
    df = reps.filter(pl.col(col).list.len() > 0)
    items = [LabelItem(pid, codes[0][:SUBCLASS],
                       frozenset(subclasses.get(group_of.get(pid, pid), set()) | {c[:SUBCLASS] for c in codes}), text)
             for pid, codes, text in zip(df["pub_id"].to_list(), df[col].to_list(), patent_text(df))]
    ident = lambda m: m.pub  # noqa: E731
    blocks, dropped = form_blocks(items, [lambda m: m.label[:3], lambda m: m.label[:1]], fits, ident, seed, task_id,
                                  max_items)
    same_class = sum(len({m.label[:3] for m in b}) == 1 for b in blocks)
    keep = cap_blocks(blocks, max_items, seed, task_id, ident)
    rows = [row for b in keep for row in arrange(b, seed, task_id, ident)]
    out = items_frame(task_id, [QUESTION.format(scheme=scheme) + m.text for m, _ in rows],
                      [[o.label for o in opts] for _, opts in rows], [m.label for m, _ in rows],
                      [[m.pub] for m, _ in rows])
    stats = {"patents": len(items), "blocks": len(blocks), "blocks_same_class": same_class,
             "blocks_same_section": len(blocks) - same_class, "dropped_no_block": dropped,
             "dropped_cap": (len(blocks) - len(keep)) * 4}
    return out, stats
