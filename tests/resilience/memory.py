"""Peak memory of one call: Linux peak-RSS reset (`/proc/self/clear_refs` = 5), else tracemalloc.

RSS counts what C libraries allocate (libxml2, zlib, pdfminer's buffers), which tracemalloc cannot see.
"""
from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable


def _status_kb(key: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1])
    raise KeyError(key)


def _collect() -> None:
    """A full collection, then what survived it frozen (`gc.freeze`): the next call scans only what was made
    since. A test process holds a large long-lived heap (prefect, polars, torch, earlier tests' modules): a full
    collection of it costs ~0.3-1 s each time, and the memory tests call this dozens of times."""
    gc.collect()
    gc.freeze()


def peak_growth_mb(fn: Callable[[], object]) -> float:
    """MB by which peak memory rose above the starting RSS while `fn` ran (exceptions propagate)."""
    _collect()
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        start = _status_kb("VmRSS")
    except OSError:
        tracemalloc.start()
        try:
            fn()
            return tracemalloc.get_traced_memory()[1] / 1e6
        finally:
            tracemalloc.stop()
    try:
        fn()
    finally:
        peak = _status_kb("VmHWM")
    return (peak - start) / 1024
