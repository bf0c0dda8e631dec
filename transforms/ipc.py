"""IPC3 domains of families and the domain relation of family pairs (PatenTEB).

IPC3 = section + class, the first three characters of a symbol (`H04L 29/06` -> `H04`). A family's
*dominant* IPC3 is its domain (used for stratified splits and classification labels); its IPC3 *set*
(every class of every member) decides how two families relate: IN (identical sets), OUT (disjoint),
FULL_MIX (one contains the other), PART_MIX (partial overlap). MIXED = FULL_MIX + PART_MIX.
"""
from __future__ import annotations

import polars as pl

IN, OUT, FULL_MIX, PART_MIX, MIXED = "IN", "OUT", "FULL_MIX", "PART_MIX", "MIXED"
RELATIONS: tuple[str, ...] = (IN, FULL_MIX, PART_MIX, OUT)
GROUPS: tuple[str, ...] = (IN, MIXED, OUT)


def ipc3_of(symbol: pl.Expr) -> pl.Expr:
    """First three characters of an IPC symbol, upper-cased, spaces removed; too short -> null."""
    code = symbol.str.replace_all(r"\s+", "").str.to_uppercase().str.slice(0, 3)
    return pl.when(code.str.contains(r"^[A-H]\d\d$")).then(code).otherwise(None)


def explode_member_ipc3(publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """Rows (family_id, pub_id, ipc3, position) for every IPC symbol of every simple-family member.

    `position` is the symbol's index in the publication's list (0 = first/inventive); a class that
    appears several times in one publication keeps its best position.
    """
    members = families.filter(pl.col("family_kind") == "simple").select("family_id", "pub_id")
    symbols = (
        publications.select("pub_id", "ipc")
        .with_columns(pl.int_ranges(0, pl.col("ipc").list.len()).alias("position"))
        .explode("ipc", "position")
        .with_columns(ipc3_of(pl.col("ipc")).alias("ipc3"))
        .drop_nulls("ipc3")
        .group_by("pub_id", "ipc3")
        .agg(pl.col("position").min())
    )
    return members.join(symbols, on="pub_id", how="inner")


def assign_family_ipc3(publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """Per family: `ipc3` (dominant class) and `ipc3_set` (sorted unique classes of all members).

    Dominant = the class carried by most members; ties go to the class most often listed first, then
    to the alphabetically smallest, so the choice is deterministic.
    """
    rows = explode_member_ipc3(publications, families)
    votes = rows.group_by("family_id", "ipc3").agg(
        pl.len().alias("n_members"),
        (pl.col("position") == 0).sum().alias("n_first"),
    )
    dominant = (
        votes.sort(["family_id", "n_members", "n_first", "ipc3"], descending=[False, True, True, False])
        .group_by("family_id", maintain_order=True)
        .agg(pl.col("ipc3").first())
    )
    sets = rows.group_by("family_id").agg(pl.col("ipc3").unique().sort().alias("ipc3_set"))
    return dominant.join(sets, on="family_id", how="inner").sort("family_id")


def domain_relation(set_a: pl.Expr, set_b: pl.Expr) -> pl.Expr:
    """IN / OUT / FULL_MIX / PART_MIX of two IPC3-set list columns (vectorised over a pair frame)."""
    a = set_a.list.unique()
    b = set_b.list.unique()
    shared = a.list.set_intersection(b).list.len()
    n_a, n_b = a.list.len(), b.list.len()
    return (
        pl.when((shared == n_a) & (shared == n_b)).then(pl.lit(IN))
        .when(shared == 0).then(pl.lit(OUT))
        .when((shared == n_a) | (shared == n_b)).then(pl.lit(FULL_MIX))
        .otherwise(pl.lit(PART_MIX))
    )


def relation_group(relation: pl.Expr) -> pl.Expr:
    """Collapse FULL_MIX and PART_MIX into MIXED (the retrieval task groups)."""
    return pl.when(relation.is_in([FULL_MIX, PART_MIX])).then(pl.lit(MIXED)).otherwise(relation)


def add_domain_relation(
    pairs: pl.LazyFrame, family_sets: pl.LazyFrame, left: str = "q_family", right: str = "t_family"
) -> pl.LazyFrame:
    """Join both sides' IPC3 sets onto a pair frame and add `relation` and `relation_group`."""
    sets = family_sets.select("family_id", "ipc3_set")
    out = (
        pairs.join(sets.rename({"family_id": left, "ipc3_set": "_set_l"}), on=left, how="inner")
        .join(sets.rename({"family_id": right, "ipc3_set": "_set_r"}), on=right, how="inner")
        .with_columns(domain_relation(pl.col("_set_l"), pl.col("_set_r")).alias("relation"))
        .with_columns(relation_group(pl.col("relation")).alias("relation_group"))
    )
    return out.drop("_set_l", "_set_r")
