"""`task`: Prefect's task decorator as every flow here uses it, without a cache policy.

The flows' task inputs (data dirs, text chunks) name work with side effects, so a cache hit by inputs would
skip a night's ingest or publish; and Prefect's default policy hashes every task's inputs and source on each
run (~80 task runs a night) for a key nothing reads. Written once here, so a new task gets it too.
"""
from __future__ import annotations

from functools import partial

from prefect import task as prefect_task
from prefect.cache_policies import NO_CACHE

task = partial(prefect_task, cache_policy=NO_CACHE)
