"""Every Prefect task of the flows runs without a cache policy: their inputs (data dirs, text chunks) name work
with side effects, so a cache hit by inputs would skip a night's ingest or publish; and the default policy
hashes every task's inputs and source on each run (~80 task runs a night) for a key nothing reads."""
from __future__ import annotations

import importlib
import pkgutil

from prefect import Task
from prefect.cache_policies import NO_CACHE

import flows


def _tasks() -> dict[str, Task]:
    found: dict[str, Task] = {}
    for info in pkgutil.iter_modules(flows.__path__):
        module = importlib.import_module(f"flows.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, Task) and obj.__module__ == module.__name__:
                found[f"{info.name}.{name}"] = obj
    return found


def test_every_flow_task_runs_without_a_cache_key():
    tasks = _tasks()
    assert len(tasks) >= 20, sorted(tasks)  # the flows' tasks were found, not an empty sweep
    assert {n for n, t in tasks.items() if t.cache_policy is not NO_CACHE} == set()
    assert {t.name for t in tasks.values()} >= {"embed-texts", "build-and-publish-patenteb", "verify-published"}
