"""Memory budget of a stage: fail with one line naming the stage and the setting, never an OS kill.

`within_budget("build-pap2pat")` wraps a stage: a watchdog thread samples the process's resident memory
(/proc/self/statm) every `PF_MEMORY_CHECK_S` seconds; past `PF_MEMORY_BUDGET_GB` (default: 85 % of the
machine's or container's memory, below where the OS kills) it raises `MemoryBudgetExceeded` in the
stage's thread at its next Python step. The exception is a `PFError`: the CLI prints its one line and
hint, a flow run fails with it as the message. Where /proc is absent (not Linux) the guard does nothing.

The two settings reach a stage as `MemoryLimits`, never by reading the environment here: the entry point
(`pf`'s command wrapper, a flow) builds them from its one `Settings` and runs the stages inside
`memory_limits(...)` (a context variable, which Prefect's task threads copy). A task that may run on a Dask
worker (another process) is handed `current_limits()` as an argument and enters them itself. Outside any
entry point the defaults hold (85 % of memory, 0.5 s).
"""
from __future__ import annotations

import ctypes
import functools
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import ParamSpec, TypeVar

from patentfactory.config import Settings
from patentfactory.errors import PFError

log = logging.getLogger(__name__)
P, R = ParamSpec("P"), TypeVar("R")
GB = 1 << 30
_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")


@dataclass(frozen=True)
class MemoryLimits:
    """PF_MEMORY_BUDGET_GB (None: 85 % of the memory this process may use) and PF_MEMORY_CHECK_S."""

    budget_gb: float | None = Settings.model_fields["memory_budget_gb"].default
    check_s: float = Settings.model_fields["memory_check_s"].default

    @classmethod
    def from_settings(cls, settings: Settings) -> MemoryLimits:
        return cls(settings.memory_budget_gb, settings.memory_check_s)


_LIMITS: ContextVar[MemoryLimits] = ContextVar("pf_memory_limits", default=MemoryLimits())


def current_limits() -> MemoryLimits:
    """The limits the running entry point set (the defaults outside one)."""
    return _LIMITS.get()


@contextmanager
def memory_limits(limits: MemoryLimits) -> Iterator[MemoryLimits]:
    """Stages run inside the block (and the task threads it starts) are held to `limits`."""
    token = _LIMITS.set(limits)
    try:
        yield limits
    finally:
        _LIMITS.reset(token)


class MemoryBudgetExceeded(PFError):
    """A stage grew past the memory budget and was stopped before the OS would kill the process."""


def rss_bytes() -> int | None:
    try:
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def machine_bytes() -> int | None:
    """The memory this process may use: the cgroup limit when one is set, else physical memory."""
    for path in _CGROUP_LIMITS:
        try:
            value = Path(path).read_text().strip()
        except OSError:
            continue
        if value.isdigit() and int(value) < 1 << 60:
            return int(value)
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return None


def budget_bytes(limits: MemoryLimits) -> int | None:
    if limits.budget_gb is not None:
        return int(limits.budget_gb * GB)
    total = machine_bytes()
    return int(total * 0.85) if total else None


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Raise `exc` in that thread at its next Python step; None withdraws one not yet raised."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc) if exc is not None else None)


@contextmanager
def memory_budget(stage: str, limits: MemoryLimits | None = None) -> Iterator[dict]:
    """Watch this process's RSS while the block runs; yields a dict that ends with the peak seen (bytes).
    `limits` unset: the entry point's (`current_limits()`)."""
    limits = limits or current_limits()
    budget, seen = budget_bytes(limits), {"peak": rss_bytes() or 0}
    if budget is None or seen["peak"] == 0:
        yield seen
        return
    over: list[int] = [seen["peak"]] if seen["peak"] > budget else []
    if over:  # already over when the stage starts (an earlier stage of this process left it there)
        raise _exceeded(stage, over[0], budget)
    stop, target = threading.Event(), threading.get_ident()

    def watch() -> None:
        while not stop.wait(limits.check_s):
            rss = rss_bytes() or 0
            seen["peak"] = max(seen["peak"], rss)
            if rss > budget and not over:
                over.append(rss)
                _raise_in(target, _Stop)

    watcher = threading.Thread(target=watch, name=f"memory-{stage}", daemon=True)
    watcher.start()
    try:
        yield seen
    except _Stop:
        raise _exceeded(stage, over[0], budget) from None
    finally:
        stop.set()
        watcher.join()
        _raise_in(target, None)  # withdraws a stop that arrived after the block ended


def _exceeded(stage: str, rss: int, budget: int) -> MemoryBudgetExceeded:
    return MemoryBudgetExceeded(
        f"stage {stage} stopped at {rss / GB:.2f} GB resident, over its memory budget of {budget / GB:.2f} GB",
        "raise PF_MEMORY_BUDGET_GB (or give the machine more memory / the Dask workers more each)")


class _Stop(BaseException):
    """Raised asynchronously in the stage's thread; turned into MemoryBudgetExceeded by `memory_budget`."""


def within_budget(stage: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator form of `memory_budget` for a stage function, under the entry point's limits."""
    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            with memory_budget(stage):
                return fn(*args, **kwargs)
        return run
    return wrap
