"""Family-level 80/10/10 splits stratified by IPC3, and the leakage check run before publish.

Ordering inside a stratum is by a keyed BLAKE2b hash of the family id: unlike `Expr.hash` (stable only
within one polars version) it gives the same split on every machine and every library version, which
the byte-identical publish promise needs. The hash runs once per family through `map_batches`.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import polars as pl

SPLITS: tuple[str, ...] = ("train", "val", "test")


def _blake_u64(values: Iterable[str | None], seed: int) -> list[int | None]:
    key = str(seed).encode()
    return [
        None if v is None else int.from_bytes(hashlib.blake2b(v.encode(), digest_size=8, key=key).digest(), "big")
        for v in values
    ]


def stable_hash(expr: pl.Expr, seed: int) -> pl.Expr:
    """Seeded 64-bit hash of a string column that never changes across versions or platforms."""
    return expr.cast(pl.String).map_batches(
        lambda s: pl.Series(s.name, _blake_u64(s.to_list(), seed), dtype=pl.UInt64),
        return_dtype=pl.UInt64,
        is_elementwise=True,
    )


def split_families(
    families: pl.LazyFrame,
    seed: int = 0,
    fractions: Sequence[float] = (0.8, 0.1, 0.1),
    stratum: str = "ipc3",
    names: Sequence[str] = SPLITS,
) -> pl.LazyFrame:
    """Add `split` to a (family_id, <stratum>) frame: per stratum, hash order, then cut at the fractions.

    Cut points are round(n * cumulative fraction), so a stratum of 10 gives 8/1/1 and every family
    lands in exactly one split. Same input + seed => same assignment.
    """
    if len(fractions) != len(names) or abs(sum(fractions) - 1.0) > 1e-9:
        raise ValueError(f"fractions {fractions} must sum to 1 and match split names {names}")
    ranked = families.with_columns(stable_hash(pl.col("family_id"), seed).alias("_h")).with_columns(
        pl.col("_h").rank("ordinal").over(stratum).cast(pl.Int64).sub(1).alias("_pos"),
        pl.len().over(stratum).cast(pl.Float64).alias("_n"),
    )
    expr: pl.Expr = pl.lit(names[-1])
    cumulative = 0.0
    cuts = []
    for name, fraction in zip(names[:-1], fractions[:-1]):
        cumulative += fraction
        cuts.append((name, (pl.col("_n") * cumulative + 0.5).floor()))
    for name, cut in reversed(cuts):
        expr = pl.when(pl.col("_pos") < cut).then(pl.lit(name)).otherwise(expr)
    return ranked.with_columns(expr.alias("split")).drop("_h", "_pos", "_n").sort("family_id")


def normalised_text_hash(text: pl.Expr) -> pl.Expr:
    """Hash of lower-cased, whitespace-collapsed text: the key for exact-duplicate removal."""
    norm = text.str.to_lowercase().str.replace_all(r"\s+", " ").str.strip_chars()
    return stable_hash(norm, seed=0)


@dataclass(frozen=True)
class LeakReport:
    """Result of `check_no_family_leak`; `ok` is what publish gates on."""

    ok: bool
    checked_tasks: int
    violations: list[dict[str, object]] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "checked_tasks": self.checked_tasks, "violations": self.violations[:20],
                "n_violations": len(self.violations)}


_FAMILY_COLUMN = re.compile(r"(^|_)family(_id)?$")


def _keys_by_split(task_tables: Mapping[str, Mapping[str, pl.DataFrame]]) -> pl.DataFrame:
    """Long frame (task, split, kind, key): every text hash and every family id of every row."""
    frames = []
    for task, splits in task_tables.items():
        for split, df in splits.items():
            for name, dtype in df.schema.items():
                if name == "label" or dtype != pl.String:
                    continue
                kind = "family" if _FAMILY_COLUMN.search(name) else "text"
                key = pl.col(name) if kind == "family" else normalised_text_hash(pl.col(name)).cast(pl.String)
                # one column at a time: hashing every text column of every task in one parallel plan
                # held all the lower-cased copies at once (GBs on a 100k-family build)
                keys = df.lazy().select(key.alias("key")).drop_nulls("key").unique().collect()
                frames.append(keys.select(pl.lit(task).alias("task"), pl.lit(split).alias("split"),
                                          pl.lit(kind).alias("kind"), "key"))
    if not frames:
        return pl.DataFrame(schema={"task": pl.String, "split": pl.String, "kind": pl.String, "key": pl.String})
    return pl.concat(frames).unique()


def check_no_family_leak(task_tables: Mapping[str, Mapping[str, pl.DataFrame]]) -> LeakReport:
    """No family (and no normalised text) may appear in two splits, across all tasks together.

    Published rows carry text, not ids: every text of a task row derives from exactly one family, so a
    family in two splits shows up as the same normalised text in two splits. Columns named like
    `*family_id` are compared directly when present. Test-only tasks take part like any other.
    """
    keys = _keys_by_split(task_tables)
    shared = (
        keys.group_by("kind", "key")
        .agg(pl.col("split").unique().sort().alias("splits"), pl.col("task").unique().sort().alias("tasks"))
        .filter(pl.col("splits").list.len() > 1)
        .sort("kind", "key")
    )
    return LeakReport(ok=shared.height == 0, checked_tasks=len(task_tables), violations=shared.to_dicts())
