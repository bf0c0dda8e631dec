"""An expected outcome is a state, not an exception: a dataset skipped for too little data (NothingToPublish),
blocked by the quality gate (QualityGateBlocked) or deferred because a source said stop (SourceStopped) ends its
task and its flow in a named Completed state (`Skipped`, `Blocked`, `Deferred`) whose message is its one line.
Prefect logs a traceback only for what failed; the nightly reads the state's name (`flows/nightly.py`)."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from prefect import get_run_logger
from prefect.states import Completed, State

from patentfactory.errors import NothingToPublish, PFError, QualityGateBlocked, SourceStopped

OUTCOMES: tuple[tuple[type[PFError], str], ...] = (
    (QualityGateBlocked, "Blocked"), (NothingToPublish, "Skipped"), (SourceStopped, "Deferred"))
OUTCOME_NAMES = tuple(name for _, name in OUTCOMES)


def outcome_name(exc: BaseException) -> str | None:
    return next((name for kind, name in OUTCOMES if isinstance(exc, kind)), None)


def expected_outcomes(fn: Callable) -> Callable:
    """Decorates a task body (under `@task`): an expected error returns its named state instead of raising."""
    @functools.wraps(fn)
    def body(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PFError as exc:
            name = outcome_name(exc)
            if name is None:
                raise
            line = exc.message if name == "Skipped" else str(exc)  # a block or deferral keeps its hint, as before
            get_run_logger().warning("%s: %s", name.lower(), line)
            return Completed(name=name, message=line, data={"outcome": name, "reason": line, "hint": exc.hint})
    return body


def is_outcome(value: object) -> bool:
    """A task call's value that stands for an expected outcome: the named state `expected_outcomes` returned
    (a task called directly hands back the State itself) or its data."""
    if isinstance(value, State):
        return value.is_completed() and value.name in OUTCOME_NAMES
    return isinstance(value, dict) and value.get("outcome") in OUTCOME_NAMES


def outcome_state(value: State | dict) -> State:
    """The flow's own final state for a task's expected outcome: same name, same one line."""
    if isinstance(value, State):
        value = {"outcome": value.name, "reason": value.message}
    return Completed(name=value["outcome"], message=value["reason"], data=value)


__all__ = ["OUTCOME_NAMES", "expected_outcomes", "is_outcome", "outcome_name", "outcome_state"]
