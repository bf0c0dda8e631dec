"""Enrichments a small world needs so that every benchmark's fixed windows have members.

The benchmarks cut the world by fixed calendar windows (Patent-CR: EP grants of January-June 2024, June =
test) and by rules that only bite at scale (PatenTEB: families with an identical full IPC set). A world of a
few hundred inventions leaves those empty by chance, so the `sample` profile (profiles.py) turns on two
mechanisms real data has anyway, each drawn from its own child generator so the rest of the world is the
same draw as without them:

- product lines (`portfolio_rate`): an applicant files the next invention in the same line as its previous
  one, so it is classified identically (main class, IPC and CPC set), as real portfolios are;
- grant months (`grant_months`, `grants_per_month`): EP grants whose usual grant delay can reach a wanted
  month are dated in it until that month holds enough grants (dates stay inside the delay the world draws).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .numbering import day, snap_weekday

PORTFOLIO_STREAM = 0x9F0  # child-generator keys: independent of the world's main stream
GRANT_STREAM = 0x9F1


def child_rng(seed: int, stream: int) -> np.random.Generator:
    return np.random.default_rng([seed, stream])


def product_lines(seed: int, rate: float, inv: dict[str, Any]) -> int:
    """With probability `rate`, an invention takes its applicant's previous invention's classes (in place).

    Inventions are in first-filing order, so chains form (a line of 3+ identically classified inventions),
    which is what PatenTEB's identical-full-IPC clusters need. Returns how many inventions were reclassified.
    """
    if rate <= 0:
        return 0
    u = child_rng(seed, PORTFOLIO_STREAM).random(len(inv["org"]))
    last: dict[int, int] = {}
    moved = 0
    for i, org in enumerate(inv["org"].tolist()):
        prev = last.get(org)
        if org >= 0 and prev is not None and u[i] < rate:
            inv["cls"][i] = inv["cls"][prev]
            inv["ipc"][i] = list(inv["ipc"][prev])
            inv["cpc"][i] = list(inv["cpc"][prev])
            moved += 1
        last[org] = i
    return moved


def _months(months: tuple[str, ...]) -> list[tuple[int, int]]:
    """("2024-06", ...) -> [(first day, last day)] as day numbers."""
    out = []
    for m in months:
        y, mo = int(m[:4]), int(m[5:7])
        nxt = f"{y + (mo == 12)}-{mo % 12 + 1:02d}-01"
        out.append((day(f"{m}-01"), day(nxt) - 1))
    return out


def cover_grant_months(seed: int, dates: np.ndarray, granted: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                       months: tuple[str, ...], per_month: int, weekday: int) -> np.ndarray:
    """Grant dates with at least `per_month` grants in each of `months` where the world allows it.

    `granted` marks the rows that are grants, `lo`/`hi` the earliest/latest grant day each row's delay
    allows; a row is moved only into a month inside its own [lo, hi], to a random `weekday` of it.
    """
    if per_month <= 0 or not months:
        return dates
    out = dates.copy()
    rng = child_rng(seed, GRANT_STREAM)
    for first, last in _months(months):
        have = int((granted & (out >= first) & (out <= last)).sum())
        spare = np.flatnonzero(granted & (lo <= first) & (hi >= last) & ~_in_any(out, months))
        take = rng.permutation(spare)[:max(per_month - have, 0)]
        when = snap_weekday(first + rng.integers(0, last - first - 6, len(take)), weekday)
        out[take] = np.minimum(when, last)
    return out


def _in_any(dates: np.ndarray, months: tuple[str, ...]) -> np.ndarray:
    hit = np.zeros(len(dates), dtype=bool)
    for first, last in _months(months):
        hit |= (dates >= first) & (dates <= last)
    return hit
