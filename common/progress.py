"""Progress bars on a terminal for the long stages: downloads, weekly files, PDF pages, embedding.

Library code reports work with `expect` (more work is coming) and `advance` (some is done). Nothing is drawn
unless the CLI opened `bars(console)` on a terminal (and the settings' PF_PROGRESS is not 0), so tests, Prefect workers and
redirected logs stay plain text. Bars are keyed by their label, so the tasks of a fan-out on the thread runner
add to one bar ("weekly files 12/40") instead of drawing one each. Work done in other processes (Dask workers)
is not shown; their tasks still finish and the summary still counts them.
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from rich import filesize
from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

_lock = threading.Lock()
_bars: Progress | None = None  # while `bars` is open
_tasks: dict[str, int] = {}


def enabled(console: Console, wanted: bool = True) -> bool:
    return console.is_terminal and wanted


@contextmanager
def bars(console: Console, wanted: bool = True) -> Iterator[bool]:
    """Draw the stages' bars on `console` while the block runs (when it is a terminal and `wanted`: the settings'
    PF_PROGRESS); cleared at the end."""
    global _bars
    if not enabled(console, wanted):
        yield False
        return
    columns = (TextColumn("{task.description:<16}"), BarColumn(), _Count(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        with _lock:
            _bars = progress
        try:
            yield True
        finally:
            with _lock:
                _bars = None
                _tasks.clear()


class _Count(ProgressColumn):
    """`12/40`, or `1.2 MB/3.4 GB` on a bar counting bytes."""

    def render(self, task: Task) -> Text:
        done, total = int(task.completed), int(task.total or 0)
        if task.fields.get("unit") == "bytes":
            return Text(f"{filesize.decimal(done)}/{filesize.decimal(total)}")
        return Text(f"{done}/{total}")


def _task(label: str, unit: str = "") -> int | None:
    if _bars is None:
        return None
    if label not in _tasks:
        _tasks[label] = _bars.add_task(label, total=0, unit=unit)
    return _tasks[label]


def expect(label: str, n: float, unit: str = "") -> None:
    """`n` more units of work are coming under `label` (a bar is created on first use; unit "bytes" shows sizes)."""
    if _bars is None or n <= 0:
        return
    with _lock:
        task = _task(label, unit)
        if task is not None:
            _bars.update(task, total=(_bars.tasks[task].total or 0) + n)


def advance(label: str, n: float = 1) -> None:
    """`n` units of `label` are done."""
    if _bars is None:
        return
    with _lock:
        task = _task(label)
        if task is not None:
            _bars.advance(task, n)


def counts() -> dict[str, tuple[float, float]]:
    """(done, total) per open bar: what a terminal shows now (empty when no bars are drawn)."""
    with _lock:
        if _bars is None:
            return {}
        return {label: (_bars.tasks[t].completed, _bars.tasks[t].total or 0) for label, t in _tasks.items()}
