"""Published benchmark tasks as declarations: a validated `TaskSpec` per task and explicit registries.

A task class carries its spec and at most one build hook (STYLE item 6, mteb-like). A registry is an
explicit list; registering a second task with the same name is an error, never a silent override.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

KINDS: tuple[str, ...] = (
    "retrieval", "asymmetric_retrieval", "classification", "pair_classification", "paraphrase", "clustering",
)
SPLIT_POLICIES: dict[str, tuple[str, ...]] = {
    "ipc3_family_80_10_10": ("train", "val", "test"),
    "test_only": ("test",),
}
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_VERSION = re.compile(r"^\d+\.\d+\.\d+$")


@dataclass(frozen=True)
class TaskSpec:
    """What a published task promises: its name, exact field names, kind, split policy, metric, version."""

    name: str
    fields: tuple[str, ...]
    kind: str
    split: str
    metric: str
    version: str
    description: str = ""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"task name {self.name!r} must be an identifier")
        if not self.fields or len(set(self.fields)) != len(self.fields):
            raise ValueError(f"task {self.name!r}: fields must be non-empty and unique, got {self.fields}")
        if self.kind not in KINDS:
            raise ValueError(f"task {self.name!r}: kind {self.kind!r} not in {KINDS}")
        if self.split not in SPLIT_POLICIES:
            raise ValueError(f"task {self.name!r}: split policy {self.split!r} not in {sorted(SPLIT_POLICIES)}")
        if not _VERSION.match(self.version):
            raise ValueError(f"task {self.name!r}: version {self.version!r} is not MAJOR.MINOR.PATCH")
        if not self.metric:
            raise ValueError(f"task {self.name!r}: metric is required")

    @property
    def splits(self) -> tuple[str, ...]:
        return SPLIT_POLICIES[self.split]


class Task:
    """Base of every published task: a `spec` and one optional `build` hook."""

    spec: ClassVar[TaskSpec]

    def build(self, ctx: Any) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError(f"{type(self).__name__} has no build hook")


class TaskRegistry:
    """Ordered, duplicate-rejecting collection of task classes of one dataset."""

    def __init__(self, dataset: str, tasks: Iterable[type[Task]] = ()) -> None:
        self.dataset = dataset
        self._tasks: dict[str, type[Task]] = {}
        for task in tasks:
            self.register(task)

    def register(self, task: type[Task]) -> type[Task]:
        spec = getattr(task, "spec", None)
        if not isinstance(spec, TaskSpec):
            raise TypeError(f"{task!r} has no TaskSpec `spec`")
        if spec.name in self._tasks:
            raise ValueError(f"{self.dataset}: duplicate task name {spec.name!r}")
        self._tasks[spec.name] = task
        return task

    def names(self) -> list[str]:
        return list(self._tasks)

    def get(self, name: str) -> type[Task]:
        try:
            return self._tasks[name]
        except KeyError:
            raise KeyError(f"{self.dataset}: unknown task {name!r}; known: {', '.join(self._tasks)}") from None

    def __iter__(self) -> Iterator[type[Task]]:
        return iter(self._tasks.values())

    def __len__(self) -> int:
        return len(self._tasks)


__all__ = ["KINDS", "SPLIT_POLICIES", "Task", "TaskRegistry", "TaskSpec"]
