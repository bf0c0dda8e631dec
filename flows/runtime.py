"""Which task runner the fan-out flows use, chosen by configuration when a flow run starts.

`PF_TASK_RUNNER=thread` (default): Prefect's thread pool in the flow's process (`PF_TASK_THREADS`).
`PF_TASK_RUNNER=dask`: `prefect_dask.DaskTaskRunner`, on the scheduler at `PF_DASK_ADDRESS` when set, else on
a temporary `distributed.LocalCluster` of `PF_DASK_WORKERS` workers, started and stopped with the flow run.

Flows declare `@flow(task_runner=ConfiguredTaskRunner())`. Prefect enters `flow.task_runner.duplicate()` at
the start of every run, so that is where the settings are read: never at import, and a deployment picks the
runner up from its worker's environment with no code change. `flow.with_options(task_runner=task_runner(s))`
pins one explicitly (tests, benchmarks). Only `.submit`/`.map` calls go through the runner; a task called
directly still runs in the flow's thread.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from patentfactory.config import Settings
from patentfactory.stages.memory import MemoryLimits, memory_limits


def dask_runner(settings: Settings) -> TaskRunner:
    from prefect_dask import DaskTaskRunner  # the `dask` extra; imported only when selected

    if settings.dask_address:
        return DaskTaskRunner(address=settings.dask_address)
    cluster: dict[str, Any] = {"n_workers": settings.dask_workers,
                               "threads_per_worker": settings.dask_threads_per_worker,
                               "processes": settings.dask_processes, "dashboard_address": None}
    if settings.dask_processes:
        cluster["env"] = {"PREFECT_API_URL": api_url()}
    return DaskTaskRunner(cluster_kwargs=cluster)


def api_url() -> str:
    """The API this process reports to: PREFECT_API_URL, or the ephemeral server Prefect starts here.

    Worker processes of a local cluster get it explicitly; on their own each would start an ephemeral
    server of its own on the same SQLite file (slow, and "database is locked" under load).
    """
    from prefect.client.orchestration import get_client

    return str(get_client(sync_client=True).api_url)


def stage_limits(settings: Settings) -> AbstractContextManager[MemoryLimits]:
    """The flow's memory limits (PF_MEMORY_BUDGET_GB / PF_MEMORY_CHECK_S of its settings) for the stages run in
    the block; stages/memory.py. A task submitted to the runner takes `current_limits()` as an argument."""
    return memory_limits(MemoryLimits.from_settings(settings))


def task_runner(settings: Settings) -> TaskRunner:
    """The runner `settings` ask for (PF_TASK_RUNNER and its PF_TASK_THREADS / PF_DASK_*); a fresh, unstarted one."""
    if settings.task_runner == "dask":
        return dask_runner(settings)
    return ThreadPoolTaskRunner(max_workers=settings.task_threads)


class ConfiguredTaskRunner(ThreadPoolTaskRunner):
    """Placeholder for `@flow(task_runner=...)`: each run gets `task_runner()` built from the settings of then.

    Used directly (not through a flow run) it behaves as a plain thread pool.
    """

    def duplicate(self) -> TaskRunner:  # type: ignore[override] - returns the configured runner instead
        # Prefect calls this when a run starts, before the flow's body has built its Settings: the runner's
        # settings are read here, the run's entry point for them.
        return task_runner(Settings.load())
