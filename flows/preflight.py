"""Before a build deployment reads the warehouse: a fresh checkout's first `prefect deployment run
build-*/sample` ends with one line saying what to run first, not a traceback from deep inside the build."""
from __future__ import annotations

from prefect import get_run_logger
from prefect.states import Failed, State

from patentfactory.errors import PFError
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse

FIRST = ("run `prefect deployment run nightly/sample` (or `pf run`) first; or the ingest deployments "
         "(ingest-uspto/sample, ingest-lens/sample, ingest-ptab/sample) and then this one")


def missing_inputs(data_dir: str, flow_name: str, tables: tuple[str, ...]) -> State | None:
    """A Failed state with one line when the warehouse lacks one of `tables`, else None.

    The state carries the PFError as its data, so the nightly (which runs these flows as subflows) sees
    the same error type a build would have raised."""
    wh = Warehouse(Storage(data_dir).sub("warehouse"))
    empty = [t for t in tables if not wh.parts(t)]
    if not empty:
        return None
    err = PFError(f"{flow_name}: the warehouse under {wh.storage.uri()} has no {' and no '.join(empty)} yet", FIRST)
    get_run_logger().error(str(err))
    return Failed(message=str(err), data=err)
