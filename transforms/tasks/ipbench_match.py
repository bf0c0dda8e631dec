"""IPBench 3-3 (patent match) as balanced blocks: one right option, no answer-only shortcut.

Items are grouped in blocks of four (query_i, target_i) whose four targets are the options of all four
items, each item's answer at a different position. So every candidate is a distractor exactly three
times for each time it is the answer, and any rule that sees only the options (the most frequent option,
the longest, a fixed position) is right on exactly one item of each block: chance, by construction.

A block only joins items whose targets are wrong for each other's query: no distractor is in the family
of the query or of the answer, and no distractor's family cites or is cited by the query's family
(families: the widest known, `family_groups`). Items that fit no block are dropped and counted.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import polars as pl

from .ipbench import item_rng, items_frame, patent_text

BLOCK = 4
QUESTION = "Which candidate patent is most relevant to (cited by) this patent?\n"


@dataclass(frozen=True)
class MatchItem:
    query: str
    target: str
    forbidden: frozenset[str]  # families no distractor of this item may belong to
    target_group: str
    option: str  # the target's text as shown


def match_pairs(reps: pl.LazyFrame, citations: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """(query, target) pairs for 3-3: the query cites the target, both representatives, different families.

    A citation to any member of a family points at that family's representative."""
    simple = families.filter(pl.col("family_kind") == "simple").select("pub_id", "family_id")
    rep_of = simple.join(reps.select("family_id", pl.col("pub_id").alias("rep")), on="family_id")
    edges = (citations.filter(pl.col("cited_pub_id").is_not_null())
             .join(rep_of.select(pl.col("pub_id").alias("citing_pub_id"), pl.col("rep").alias("query")),
                   on="citing_pub_id")
             .join(rep_of.select(pl.col("pub_id").alias("cited_pub_id"), pl.col("rep").alias("target")),
                   on="cited_pub_id")
             .filter(pl.col("query") != pl.col("target")))
    return edges.select("query", "target").unique().sort("query", "target").unique(subset="query", keep="first")


def family_neighbours(citations: pl.DataFrame, group_of: dict[str, str], wanted: set[str]) -> dict[str, set[str]]:
    """family -> every family that cites it or that it cites (any member to any member), for the `wanted`
    families only (the queries'), so a real-size citation table stays in polars."""
    groups = pl.DataFrame({"pub": list(group_of), "g": list(group_of.values())},
                          schema={"pub": pl.String, "g": pl.String})
    edges = citations.drop_nulls("cited_pub_id").select(a="citing_pub_id", b="cited_pub_id")
    for end in ("a", "b"):
        edges = (edges.join(groups.rename({"pub": end, "g": f"g{end}"}), on=end, how="left")
                 .with_columns(pl.coalesce(f"g{end}", end).alias(f"g{end}")))
    both = pl.concat([edges.select(x="ga", y="gb"), edges.select(x="gb", y="ga")])
    out: dict[str, set[str]] = {}
    for x, y in both.filter(pl.col("x").is_in(list(wanted))).unique().rows():
        out.setdefault(x, set()).add(y)
    return out


def match_items(pairs: pl.DataFrame, text: dict[str, str], group_of: dict[str, str],
                neighbours: dict[str, set[str]]) -> list[MatchItem]:
    out = []
    for query, target in pairs.select("query", "target").iter_rows():
        gq, gt = group_of.get(query, query), group_of.get(target, target)
        if gq == gt:
            continue
        out.append(MatchItem(query, target, frozenset({gq, gt} | neighbours.get(gq, set())), gt, text[target]))
    return out


def fits(a: MatchItem, b: MatchItem) -> bool:
    """Whether a and b may share a block: each one's target is wrong for the other's query."""
    return (b.target_group not in a.forbidden and a.target_group not in b.forbidden
            and a.option != b.option and a.query != b.query)


POOL_PER_ITEM = 8  # blocks are formed from at most 8 x max_items candidates (a seeded sample): bounded time


def form_blocks(items: list, key_passes: list[Callable[[object], Hashable]], fit: Callable[[object, object], bool],
                ident: Callable[[object], str], seed: int, tag: str, max_items: int) -> tuple[list[list], int]:
    """Greedy blocks of BLOCK mutually fitting items, in a seeded order, first within each key of the
    first pass (e.g. the target's IPC3), the leftovers within the next pass's keys; returns (blocks, dropped).

    Candidates past POOL_PER_ITEM x `max_items` (the seeded order's tail) are not tried and count as dropped."""
    order = sorted(items, key=lambda it: (item_rng(seed, tag, ident(it)).random(), ident(it)))
    untried = order[POOL_PER_ITEM * max_items:]
    order = order[:POOL_PER_ITEM * max_items]
    blocks: list[list] = []
    for key in key_passes:
        open_blocks: dict[Hashable, list[list]] = {}
        left = []
        for it in order:
            slot = open_blocks.setdefault(key(it), [])
            home = next((b for b in slot if all(fit(it, o) for o in b)), None)
            if home is None:
                slot.append(home := [])
            home.append(it)
            if len(home) == BLOCK:
                slot.remove(home)
                blocks.append(home)
        for slot in open_blocks.values():
            left += [it for b in slot for it in b]
        order = left
    return blocks, len(order) + len(untried)


def arrange(block: list, seed: int, tag: str, ident: Callable[[object], str]) -> list[tuple[object, list]]:
    """Each member with the block's members in its option order, itself at a position no other member uses."""
    rng = item_rng(seed, f"{tag}:block", ",".join(sorted(ident(m) for m in block)))
    positions = list(range(BLOCK))
    rng.shuffle(positions)
    out = []
    for member, pos in zip(block, positions):
        others = [m for m in block if m is not member]
        rng.shuffle(others)
        out.append((member, [*others[:pos], member, *others[pos:]]))
    return out


def cap_blocks(blocks: list[list], max_items: int, seed: int, tag: str, ident: Callable[[object], str]) -> list[list]:
    """At most `max_items` items as whole blocks, a seeded choice."""
    return sorted(blocks, key=lambda b: (item_rng(seed, f"{tag}:cap", ident(b[0])).random(), ident(b[0])))[
        :max_items // BLOCK]


def build_patent_match(reps: pl.DataFrame, pairs: pl.DataFrame, group_of: dict[str, str],
                       neighbours: dict[str, set[str]], seed: int, max_items: int) -> tuple[pl.DataFrame, dict]:
    """3-3 items in balanced blocks, at most `max_items` (whole blocks, a seeded choice); and statistics."""
    text = dict(zip(reps["pub_id"].to_list(), patent_text(reps)))
    ipc3 = dict(zip(reps["pub_id"].to_list(), reps["ipc3"].to_list()))
    items = match_items(pairs, text, group_of, neighbours)
    blocks, dropped = form_blocks(items, [lambda m: ipc3[m.target], lambda m: ipc3[m.target][:1]], fits,
                                  lambda m: m.query, seed, "3-3", max_items)
    same_ipc3 = sum(len({ipc3[m.target] for m in b}) == 1 for b in blocks)
    ident = lambda m: m.query  # noqa: E731
    keep = cap_blocks(blocks, max_items, seed, "3-3", ident)
    rows = [row for b in keep for row in arrange(b, seed, "3-3", ident)]
    df = items_frame("3-3", [QUESTION + text[m.query] for m, _ in rows], [[o.option for o in opts] for _, opts in rows],
                     [m.option for m, _ in rows], [[m.query, *(o.target for o in opts)] for m, opts in rows])
    stats = {"pairs": pairs.height, "pairs_same_family": pairs.height - len(items), "blocks": len(blocks), "blocks_same_ipc3": same_ipc3,
             "blocks_same_section": len(blocks) - same_ipc3, "dropped_no_block": dropped,
             "dropped_cap": (len(blocks) - len(keep)) * BLOCK}
    return df, stats
