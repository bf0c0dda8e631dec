"""Dates as integer days and realistic, unique, date-monotonic document numbers.

Numbers in real data grow with time (US 10,000,000 was granted on 2018-06-19), and parsers and
id normalisers are tested on their shapes (US pre-grant `2016/0266975`, WO `2017/205695`, JP
`2016-128835`), so numbers come from interpolation over real anchor points, made strictly
increasing within their series.
"""
from __future__ import annotations

import numpy as np

EPOCH = np.datetime64("1970-01-01", "D")


def day(text: str) -> int:
    """'2018-06-19' -> days since 1970-01-01."""
    return int((np.datetime64(text, "D") - EPOCH).astype(np.int64))


def iso(days: int) -> str:
    """Days since 1970-01-01 -> 'YYYY-MM-DD'."""
    return str(EPOCH + np.timedelta64(int(days), "D"))


def iso_dates(days: np.ndarray) -> np.ndarray:
    """Vectorised iso(): an object array of 'YYYY-MM-DD' strings."""
    return np.datetime_as_string(EPOCH + days.astype("timedelta64[D]"), unit="D").astype(object)


def compact(days: int) -> str:
    """Days -> 'YYYYMMDD' (the XML date form)."""
    return iso(days).replace("-", "")


def years(days: np.ndarray) -> np.ndarray:
    """Calendar year of each day."""
    return (EPOCH + days.astype("timedelta64[D]")).astype("datetime64[Y]").astype(np.int64) + 1970


def snap_weekday(days: np.ndarray, weekday: int) -> np.ndarray:
    """Move each day forward to the given weekday (Mon=0): USPTO grants Tue, applications Thu, EPO Wed."""
    wd = (days + 3) % 7  # 1970-01-01 was a Thursday
    return days + (weekday - wd) % 7


def strictly_increasing(values: np.ndarray, order_key: np.ndarray) -> np.ndarray:
    """Raise values minimally so that, ordered by `order_key`, they strictly increase (unique numbers)."""
    order = np.argsort(order_key, kind="stable")
    v = values[order].astype(np.int64)
    idx = np.arange(len(v), dtype=np.int64)
    v = np.maximum.accumulate(v - idx) + idx
    out = np.empty_like(v)
    out[order] = v
    return out


def interp_numbers(days: np.ndarray, anchors: list[tuple[str, int]], rng: np.random.Generator,
                   jitter: int) -> np.ndarray:
    """Numbers interpolated over (date, number) anchors, jittered, then made unique and increasing."""
    xp = np.array([day(d) for d, _ in anchors], dtype=np.float64)
    fp = np.array([n for _, n in anchors], dtype=np.float64)
    base = np.interp(days.astype(np.float64), xp, fp).astype(np.int64) + rng.integers(0, max(jitter, 1), len(days))
    return strictly_increasing(base, days)


def serial_within(groups: np.ndarray, days: np.ndarray, width: int, rng: np.random.Generator,
                  start: int = 1) -> np.ndarray:
    """Serials unique within each group, increasing with date, spread over [start, start+width)."""
    n = len(groups)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((days, groups))
    g = groups[order]
    new = np.r_[True, g[1:] != g[:-1]]
    first = np.maximum.accumulate(np.where(new, np.arange(n), 0))
    rank = np.arange(n) - first
    biggest = int(rank.max()) + 1
    step = max(1, width // (biggest + 1))
    serial = start + rank * step + rng.integers(0, step, n)
    out = np.empty(n, dtype=np.int64)
    out[order] = serial
    return out


US_GRANT_ANCHORS = [("1976-01-06", 3930271), ("1991-01-01", 4980947), ("1999-01-05", 5855343),
                    ("2006-01-03", 6981784), ("2010-01-05", 7640289), ("2015-01-06", 8925105),
                    ("2018-06-19", 10000000), ("2021-01-05", 10881504), ("2024-12-31", 12185000)]
EP_ANCHORS = [("1978-12-20", 1), ("1990-01-03", 350000), ("2000-01-05", 1014000), ("2010-01-06", 2140000),
              ("2018-01-03", 3263000), ("2024-12-31", 4500000)]
CN_ANCHORS = [("1985-09-10", 1000001), ("2007-12-31", 1990000), ("2008-01-02", 101300000),
              ("2024-12-31", 119300000)]
US_SERIES = [(1979, "06"), (1987, "07"), (1993, "08"), (1998, "09"), (2002, "10"), (2005, "11"), (2008, "12"),
             (2011, "13"), (2014, "14"), (2015, "15"), (2018, "16"), (2020, "17"), (2022, "18")]


def us_series(year: int) -> str:
    """US application series code for a filing year (05 before 1979 ... 18 from 2022)."""
    code = "05"
    for start, series in US_SERIES:
        if year >= start:
            code = series
    return code


def us_provisional_series(year: int) -> str:
    """Series of US provisional applications (60/61/62/63)."""
    return "60" if year < 2007 else "61" if year < 2014 else "62" if year < 2020 else "63"
