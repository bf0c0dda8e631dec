"""Priority filings, applications per office and their publications (the family members).

An invention is a simple family: one own first filing, sometimes an earlier provisional-like
filing, and sometimes a priority shared with an earlier invention (so extended families join
simple ones, as INPADOC does). Members follow the Paris (12 months) / PCT (30 months) calendar
and publish 18 months after the earliest priority; grants come years later.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .numbering import (CN_ANCHORS, EP_ANCHORS, US_GRANT_ANCHORS, day, interp_numbers, serial_within, snap_weekday,
                        us_provisional_series, us_series, years)

OFFICES = ("US", "EP", "JP", "CN", "WO")
OWN_OFFICE = {"US": "US", "JP": "JP", "CN": "CN"}
EPC_ORIGINS = ("DE", "FR", "GB", "ES")
PGPUB_START = day("2000-11-29")


@dataclass
class Priorities:
    """Priority filings: columns by priority id, plus per-invention lists (CSR, date-sorted)."""
    country: np.ndarray
    number: np.ndarray
    date: np.ndarray
    off: np.ndarray
    ids: np.ndarray


def draw_priorities(rng: np.random.Generator, first: np.ndarray, origin: np.ndarray, extra_rate: float,
                    share_rate: float) -> tuple[Priorities, np.ndarray]:
    """Own first filings (ids 0..n-1), extra earlier filings, and priorities shared with earlier inventions.

    Returns the priorities and, per invention, the invention it shares a priority with (-1 if none).
    """
    n = len(first)
    extra = np.flatnonzero(rng.random(n) < extra_rate)
    extra_date = first[extra] - rng.integers(30, 330, len(extra))
    back = rng.integers(1, 9, n)
    j = np.maximum(np.arange(n) - back, 0)
    share = (rng.random(n) < share_rate) & (np.arange(n) > 0) & (first - first[j] < 330)
    shared_with = np.where(share, j, -1)
    country = np.concatenate([origin, origin[extra]])
    date = np.concatenate([first, extra_date])
    owner = np.concatenate([np.arange(n), extra, np.flatnonzero(share)])
    pid = np.concatenate([np.arange(n), n + np.arange(len(extra)), shared_with[share]])
    pdate = date[pid]
    order = np.lexsort((pid, pdate, owner))
    off = np.searchsorted(owner[order], np.arange(n + 1))
    return Priorities(country, np.empty(len(country), dtype=object), date, off, pid[order]), shared_with


def earliest_priority(pr: Priorities) -> np.ndarray:
    """Earliest priority date per invention (lists are date-sorted)."""
    return pr.date[pr.ids[pr.off[:-1]]]


def draw_applications(rng: np.random.Generator, first: np.ndarray, origin: np.ndarray) -> dict[str, np.ndarray]:
    """Which offices each invention is filed at, and when (own office first, Paris +12m, PCT entry +30m)."""
    n = len(first)
    yr = years(first)
    u = rng.random((n, 6))
    has = {"US": (origin == "US") | (u[:, 0] < 0.55),
           "EP": (np.isin(origin, EPC_ORIGINS) & (u[:, 1] < 0.9)) | (u[:, 1] < 0.3),
           "JP": (origin == "JP") | (u[:, 2] < 0.25),
           "CN": (origin == "CN") | ((yr >= 1993) & (u[:, 3] < 0.28)),
           "WO": (yr >= 1979) & (u[:, 4] < 0.12 + 0.4 * (yr - 1979) / 45)}
    none = ~np.logical_or.reduce(list(has.values()))
    has["US"] |= none
    inv, office, date = [], [], []
    for off in OFFICES:
        idx = np.flatnonzero(has[off])
        own = np.array([OWN_OFFICE.get(o) == off for o in origin[idx]], dtype=bool)
        pct = has["WO"][idx] & (u[idx, 5] < 0.6) & (off != "WO")
        d = np.where(own, first[idx], np.where(pct, first[idx] + 913, first[idx] + 365)
                     - rng.integers(0, 25, len(idx)))
        inv.append(idx)
        office.append(np.full(len(idx), off))
        date.append(d)
    inv_a, off_a, date_a = np.concatenate(inv), np.concatenate(office), np.concatenate(date)
    order = np.lexsort((date_a, inv_a))
    return {"inv": inv_a[order], "office": off_a[order], "date": date_a[order]}


GrantCover = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def _pub_rows(rng: np.random.Generator, apps: dict[str, np.ndarray], earliest: np.ndarray,
              cover: GrantCover | None = None) -> list[tuple]:
    """(app index array, kind array, date array) per publication stage of every office; `cover`
    (dates, granted, earliest, latest) may re-date EP grants within their delay (enrich.cover_grant_months)."""
    n = len(apps["inv"])
    office, adate = apps["office"], apps["date"]
    e = earliest[apps["inv"]]
    u = rng.random((n, 4))
    a_date = np.maximum(e + 548, adate + 30) + rng.integers(0, 40, n)
    rows = []
    us = office == "US"
    us_a = us & (adate >= PGPUB_START)
    rows.append((us_a, "A1", snap_weekday(a_date, 3)))
    grant = snap_weekday(np.maximum(adate + rng.integers(540, 1800, n), a_date + 90), 1)
    us_g = us & ((u[:, 0] < 0.68) | (adate < PGPUB_START) & (u[:, 0] < 0.9))
    rows.append((us_g & us_a, "B2", grant))
    rows.append((us_g & ~us_a, "B1", grant))
    ep = office == "EP"
    ep_a = snap_weekday(a_date, 2)
    rows.append((ep & (u[:, 1] >= 0.15), "A1", ep_a))
    rows.append((ep & (u[:, 1] < 0.15), "A2", ep_a))
    ep_b = ep & (u[:, 2] < 0.55)
    b_date = snap_weekday(ep_a + rng.integers(700, 2200, n), 2)
    if cover is not None:
        b_date = cover(b_date, ep_b, ep_a + 700, ep_a + 2200)
    rows.append((ep_b, "B1", b_date))
    rows.append((office == "JP", "A", a_date))
    rows.append((office == "CN", "A", np.maximum(a_date, adate + 180) + rng.integers(0, 200, n)))
    rows.append((office == "WO", "A1", snap_weekday(e + 548 + rng.integers(0, 20, n), 3)))
    return rows


def draw_publications(rng: np.random.Generator, apps: dict[str, np.ndarray], earliest: np.ndarray, start: int,
                      end: int, cover: GrantCover | None = None) -> dict[str, np.ndarray]:
    """Publications inside [start, end]; an invention left with none gets its first application published."""
    rows = _pub_rows(rng, apps, earliest, cover)
    app = np.concatenate([np.flatnonzero(m) for m, _, _ in rows])
    kind = np.concatenate([np.full(int(m.sum()), k) for m, k, _ in rows])
    date = np.concatenate([d[m] for m, _, d in rows])
    keep = (date >= start) & (date <= end)
    app, kind, date = app[keep], kind[keep], date[keep]
    n_inv = len(earliest)
    covered = np.zeros(n_inv, dtype=bool)
    covered[apps["inv"][app]] = True
    missing = np.flatnonzero(~covered)
    if len(missing):
        first_app = np.searchsorted(apps["inv"], missing)
        fix_kind = np.array(["B1" if apps["office"][a] == "US" else "A1" if apps["office"][a] in ("EP", "WO") else "A"
                             for a in first_app])
        fix_date = np.clip(np.maximum(apps["date"][first_app] + 548, start), start, end)
        app, kind, date = np.r_[app, first_app], np.r_[kind, fix_kind], np.r_[date, fix_date]
    inv = apps["inv"][app]
    rank = np.array([OFFICES.index(o) for o in apps["office"][app]]) if len(app) else np.zeros(0, int)
    order = np.lexsort((kind, rank, date, inv))
    return {"app": app[order], "inv": inv[order], "kind": kind[order], "date": date[order],
            "cc": apps["office"][app[order]]}


def number_applications(rng: np.random.Generator, apps: dict[str, np.ndarray], origin: np.ndarray) -> np.ndarray:
    """Application numbers in each office's own shape (US series+serial, EP YY+6, JP YYYY+6, CN YYYY1+7, WO CCYYYY+6)."""
    office, date = apps["office"], apps["date"]
    yr = years(date)
    out = np.empty(len(office), dtype=object)
    for off in OFFICES:
        idx = np.flatnonzero(office == off)
        if not len(idx):
            continue
        y = yr[idx]
        if off == "US":
            series = np.array([us_series(int(v)) for v in y])
            ser = serial_within(np.array([int(s) for s in series]), date[idx], 890000, rng, 100001)
            out[idx] = [f"{s}{v:06d}" for s, v in zip(series, ser)]
        else:
            ser = serial_within(y, date[idx], 700000, rng, 1000)
            if off == "EP":
                out[idx] = [f"{yy % 100:02d}{v:06d}" for yy, v in zip(y, ser)]
            elif off == "CN":
                out[idx] = [f"{yy}1{v:07d}" for yy, v in zip(y, ser)]
            elif off == "JP":
                out[idx] = [f"{yy}{v:06d}" for yy, v in zip(y, ser)]
            else:
                cc = origin[apps["inv"][idx]]
                out[idx] = [f"{c}{yy}{v:06d}" for c, yy, v in zip(cc, y, ser)]
    return out


def number_publications(rng: np.random.Generator, pubs: dict[str, np.ndarray], apps: dict[str, np.ndarray]) -> np.ndarray:
    """Publication numbers: interpolated series for US grants/EP/CN, year+serial for US A1/JP/WO; EP A and B share."""
    cc, kind, date = pubs["cc"], pubs["kind"], pubs["date"]
    yr = years(date)
    out = np.empty(len(cc), dtype=object)
    m = (cc == "US") & (kind != "A1")
    out[m] = [str(v) for v in interp_numbers(date[m], US_GRANT_ANCHORS, rng, 400)]
    for code, width, digits in (("US", 600000, 7), ("JP", 300000, 6), ("WO", 200000, 6)):
        m = (cc == code) & ((kind == "A1") | (kind == "A"))
        ser = serial_within(yr[m], date[m], width, rng, 1)
        out[m] = [f"{y}{s:0{digits}d}" for y, s in zip(yr[m], ser)]
    m = cc == "CN"
    out[m] = [str(v) for v in interp_numbers(date[m], CN_ANCHORS, rng, 300)]
    m = np.flatnonzero(cc == "EP")
    if len(m):
        ep_apps = np.unique(pubs["app"][m])
        first_date = _first_dates(pubs["app"][m], date[m], ep_apps)
        nums = interp_numbers(first_date, EP_ANCHORS, rng, 200)
        lookup = dict(zip(ep_apps.tolist(), nums.tolist()))
        out[m] = [f"{lookup[a]}" for a in pubs["app"][m]]
    return out


def _first_dates(app: np.ndarray, date: np.ndarray, uniq: np.ndarray) -> np.ndarray:
    """Earliest date per application (vectorised group-min)."""
    pos = np.searchsorted(uniq, app)
    out = np.full(len(uniq), np.iinfo(np.int64).max)
    np.minimum.at(out, pos, date)
    return out


def number_priorities(rng: np.random.Generator, pr: Priorities, apps: dict[str, np.ndarray], app_numbers: np.ndarray,
                      origin: np.ndarray) -> None:
    """Own first filings at a rendered office reuse that application's number; others get national shapes."""
    n = len(origin)
    own_app = {}
    for a in range(len(apps["inv"])):
        i = apps["inv"][a]
        if OWN_OFFICE.get(origin[i]) == apps["office"][a] and apps["date"][a] == pr.date[i]:
            own_app.setdefault(int(i), a)
    yr = years(pr.date)
    ser = serial_within(np.array([hash_cc(c) for c in pr.country]) * 10000 + yr, pr.date, 90000, rng, 800001)
    for p in range(len(pr.country)):
        if p < n and p in own_app:
            pr.number[p] = app_numbers[own_app[p]]
            continue
        pr.number[p] = national_number(str(pr.country[p]), int(yr[p]), int(ser[p]), provisional=p >= n)


def hash_cc(cc: str) -> int:
    """Small stable integer for a country code (grouping key)."""
    return (ord(cc[0]) - 64) * 32 + ord(cc[1]) - 64


def national_number(cc: str, year: int, serial: int, provisional: bool) -> str:
    """A national application number in the office's usual docdb-like digits."""
    if cc == "US":
        return f"{us_provisional_series(year) if provisional else us_series(year)}{serial % 1000000:06d}"
    if cc in ("DE", "KR"):
        return f"10{year}{serial:07d}"
    if cc in ("FR", "GB"):
        return f"{year % 100:02d}{serial:06d}"
    if cc == "CN":
        return f"{year}1{serial:07d}"
    return f"{year}{serial:06d}"
