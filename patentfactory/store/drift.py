"""Quality gate v2: per-column figures of a release, compared with the previous published version.

A nightly can lose a field without losing rows (abstracts that became empty, titles cut short, a class
that vanished). Each published file gets a small profile in the manifest (empty rate, distinct count,
text-length quantiles, label shares); a dataset may add warehouse coverage (counts per publication year,
source and IPC section). Publish compares both with the version LATEST points at and refuses a version
that crosses a threshold unless `allow_drift` is given (the override is recorded in the manifest).
Coverage also counts publications per flag (a secondary field kept raw instead of costing its record,
`publications.flags`): the share of each flag among all publications may not rise by more than
`flag_rate_rise`, so a source whose number forms change shows up here, not as silently lost records.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl
import pyarrow as pa

from patentfactory.config import DriftThresholds

LABEL_NAMES = ("label", "labels", "answer", "issue_type", "board_authorities", "subdecision_fine",
               "subdecision_coarse", "outcome", "kind_before", "kind_after")
TEXT_MIN_MEAN_CHARS = 40  # a string column whose mean length is at least this is profiled as text
CATEGORICAL_MAX_DISTINCT = 200


@dataclass(frozen=True)
class Drift:
    """One figure that moved: where, what, before, after, and whether it crossed its threshold."""

    path: str
    column: str
    figure: str
    before: object
    after: object
    blocked: bool
    setting: str

    def line(self, dataset: str) -> str:
        task, _, split = self.path.removesuffix(".parquet").partition("/")
        where = f"{dataset} warehouse coverage" if task == "coverage" else f"{dataset} task {task} split {split}"
        return f"{where} column {self.column}: {self.figure} {_fmt(self.before)} -> {_fmt(self.after)}"


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) >= 1 else f"{v:.3f}"
    return str(v)


def _empty(name: str, dtype: pl.DataType) -> pl.Expr:
    c = pl.col(name)
    if dtype == pl.String:
        return c.is_null() | (c.str.strip_chars() == "")
    if isinstance(dtype, pl.List):
        return c.is_null() | (c.list.len() == 0)
    return c.is_null()


def _figure_exprs(i: int, name: str, dtype: pl.DataType) -> list[pl.Expr]:
    """Column `i`'s raw figures as one-row expressions: empty count; for text (or lists of text) the present
    values' count, distinct count, mean length and length quantiles."""
    exprs = [_empty(name, dtype).sum().alias(f"{i}:empty")]
    if isinstance(dtype, pl.List) and dtype.inner == pl.String:
        flat = pl.col(name).explode()
    elif dtype == pl.String:
        flat = pl.col(name)
    else:
        return exprs
    present = flat.filter(flat.is_not_null() & (flat.str.strip_chars() != ""))
    lengths = present.str.len_chars()
    return exprs + [present.len().alias(f"{i}:present"), present.n_unique().alias(f"{i}:distinct"),
                    lengths.mean().alias(f"{i}:mean"),
                    *(lengths.quantile(q, interpolation="nearest").alias(f"{i}:p{int(q * 100)}")
                      for q in (0.1, 0.5, 0.9))]


def _label_shares(s: pl.Series) -> dict[str, float]:
    if isinstance(s.dtype, pl.List):
        s = s.explode()
    s = s.drop_nulls().cast(pl.String)
    if s.len() == 0:
        return {}
    counts = s.value_counts(name="n")
    return {str(k): round(n / s.len(), 6) for k, n in sorted(counts.iter_rows())}


def _profile(name: str, fig: dict, rows: int, column: Callable[[], pl.Series]) -> dict:
    """The figures of one column: empty rate always; text quantiles, distinct count, label shares by kind."""
    out: dict = {"empty_rate": round(fig["empty"] / max(rows, 1), 6)}
    if not fig.get("present"):
        return out
    distinct = fig["distinct"]
    # quantiles for every string column: a text that is cut short stops looking like text
    out["length_p10"], out["length_p50"], out["length_p90"] = (float(fig[f"p{q}"]) for q in (10, 50, 90))
    if name in LABEL_NAMES and distinct <= CATEGORICAL_MAX_DISTINCT:
        out["kind"] = "label"
        out["distinct"] = distinct
        out["shares"] = _label_shares(column())
    elif fig["mean"] >= TEXT_MIN_MEAN_CHARS:
        out["kind"] = "text"
    elif distinct <= CATEGORICAL_MAX_DISTINCT and distinct * 2 <= fig["present"]:  # values repeat: a category
        out["kind"] = "categorical"
        out["distinct"] = distinct
    return out


def profile_table(table: pa.Table | pl.DataFrame) -> dict[str, dict]:
    """Profile every column. All raw figures come from one `select` over the table: a file's profile costs one
    pass, not a dozen small queries per column (publish profiles every file of every dataset each night)."""
    frame = table if isinstance(table, pl.DataFrame) else pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    names = frame.columns
    exprs = [e for i, c in enumerate(names) for e in _figure_exprs(i, c, frame.schema[c])]
    row = frame.select(exprs).row(0, named=True) if exprs else {}
    figures: list[dict] = [{} for _ in names]
    for key, value in row.items():
        i, _, fig = key.partition(":")
        figures[int(i)][fig] = value
    return {c: _profile(c, figures[i], frame.height, lambda c=c: frame.get_column(c)) for i, c in enumerate(names)}


def profile_column(name: str, s: pl.Series) -> dict:
    """The figures of one column (`profile_table` of a one-column table)."""
    return profile_table(s.rename(name).to_frame())[name]


def tvd(a: dict[str, float], b: dict[str, float]) -> float:
    """Total variation distance of two share maps."""
    return round(0.5 * sum(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in set(a) | set(b)), 6)


def compare_column(path: str, column: str, old: dict, new: dict, th: DriftThresholds) -> list[Drift]:
    """The figures of one column that moved between two profiles (blocked ones flagged)."""
    out: list[Drift] = []
    e0, e1 = old.get("empty_rate", 0.0), new.get("empty_rate", 0.0)
    if abs(e1 - e0) >= 0.01:
        out.append(Drift(path, column, "empty rate", e0, e1, e1 - e0 > th.empty_rate_rise,
                         "PF_QUALITY__EMPTY_RATE_RISE"))
    if "length_p50" in old and "length_p50" in new:
        m0, m1 = old["length_p50"], new["length_p50"]
        if m0 and abs(m1 - m0) / m0 >= 0.05:
            out.append(Drift(path, column, "median length (chars)", m0, m1, m1 < m0 * (1 - th.text_median_drop),
                             "PF_QUALITY__TEXT_MEDIAN_DROP"))
    if "shares" in old and "shares" in new:
        d = tvd(old["shares"], new["shares"])
        if d >= 0.02:
            out.append(Drift(path, column, "label TVD", 0.0, d, d > th.label_tvd, "PF_QUALITY__LABEL_TVD"))
    elif old.get("kind") == "categorical" and "distinct" in new:
        d0, d1 = old["distinct"], new["distinct"]
        if d0 and d1 != d0:
            out.append(Drift(path, column, "distinct values", d0, d1, d1 < d0 * (1 - th.distinct_drop),
                             "PF_QUALITY__DISTINCT_DROP"))
    return out


FLAGS = "flags"  # coverage dimension: publications per flag; all publications = the sum over `source`


def flag_rates(coverage: dict[str, dict[str, int]]) -> dict[str, float]:
    """Share of publications carrying each flag (0 without publications)."""
    total = sum((coverage.get("source") or {}).values())
    return {flag: round(n / total, 6) if total else 0.0 for flag, n in (coverage.get(FLAGS) or {}).items()}


def compare_flag_rates(old: dict[str, dict[str, int]], new: dict[str, dict[str, int]],
                       th: DriftThresholds) -> list[Drift]:
    """A flag's share of publications that moved by a point or more; blocked past `flag_rate_rise`. Compared
    only when the previous version counted flags (one that predates them gives no rate to compare)."""
    if FLAGS not in old or FLAGS not in new:
        return []
    r0, r1 = flag_rates(old), flag_rates(new)
    out = []
    for flag in sorted(set(r0) | set(r1)):
        a, b = r0.get(flag, 0.0), r1.get(flag, 0.0)
        if abs(b - a) >= 0.01 or b - a > th.flag_rate_rise:
            out.append(Drift(f"coverage/{FLAGS}", f"{FLAGS}={flag}", "share of publications", a, b,
                             b - a > th.flag_rate_rise, "PF_QUALITY__FLAG_RATE_RISE"))
    return out


def compare_coverage(old: dict[str, dict[str, int]], new: dict[str, dict[str, int]],
                     th: DriftThresholds) -> list[Drift]:
    """Counts per year / source / IPC section: a key seen before and missing now blocks; flag shares rising
    past their threshold block (a flag that is gone is good news, never a missing value)."""
    out: list[Drift] = compare_flag_rates(old, new, th)
    for dim in sorted((set(old) & set(new)) - {FLAGS}):
        gone = sorted(k for k in set(old[dim]) - set(new[dim]) if old[dim][k] >= th.min_coverage_count)
        if gone:
            out.append(Drift(f"coverage/{dim}", dim, "values missing", ", ".join(gone[:10]), "absent",
                             th.coverage_missing, "PF_QUALITY__COVERAGE_MISSING"))
        for key in sorted(set(old[dim]) & set(new[dim])):
            a, b = old[dim][key], new[dim][key]
            if a >= 20 and b < a * 0.5:
                out.append(Drift(f"coverage/{dim}", f"{dim}={key}", "count", a, b, False, ""))
    return out


def compare_files(old_files: list[dict], new_files: list[dict], th: DriftThresholds) -> list[Drift]:
    """Every drift between two manifests' file profiles (same task/split path, same column)."""
    old = {f["path"]: f for f in old_files}
    out: list[Drift] = []
    for f in new_files:
        prev = old.get(f["path"]) or {}
        before = prev.get("profile")
        if not before or "profile" not in f or min(prev.get("rows", 0), f.get("rows", 0)) < th.min_rows:
            continue
        for col, prof in f["profile"].items():
            if col in before:
                out += compare_column(f["path"], col, before[col], prof, th)
    return out


def coverage_of(pubs: pl.LazyFrame) -> dict[str, dict[str, int]]:
    """Warehouse coverage of a build's publications: counts per publication year, source and IPC section, and
    publications per flag (`flags`, when the table has the column)."""
    cols = pubs.collect_schema().names()
    dims = {"year": pl.col("pub_date").dt.year().cast(pl.String) if "pub_date" in cols else None,
            "source": pl.col("source") if "source" in cols else None,
            "ipc_section": pl.col("ipc3").str.slice(0, 1) if "ipc3" in cols else None}
    out = {}
    for dim, expr in dims.items():
        if expr is None:
            continue
        counts = pubs.select(expr.alias("k")).drop_nulls().group_by("k").len().collect()
        out[dim] = {str(k): int(n) for k, n in sorted(counts.iter_rows())}
    if FLAGS in cols:
        counts = pubs.select(pl.col(FLAGS).list.unique().explode().alias("k")).drop_nulls().group_by("k").len() \
            .collect()
        out[FLAGS] = {str(k): int(n) for k, n in sorted(counts.iter_rows())}
    return out
