"""The orchestrator's API server as a user meets it: a start-up budget that fits a busy machine, one line if not.

Without `PREFECT_API_URL`, every Prefect flow run starts a temporary ("ephemeral") API server on loopback and waits
for its health endpoint; Prefect's default wait is 20 s, which a busy 2-core laptop can exceed (first start runs
the database migrations). We raise the default budget and turn a failed start into one line and a hint.
"""
from __future__ import annotations

import os

from patentfactory.errors import PFError

STARTUP_SETTING = "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"
DEFAULT_STARTUP_S = 180
_EPHEMERAL_MARK = "ephemeral Prefect API server"


def set_startup_budget() -> None:
    """Before Prefect reads its settings: a start-up budget of DEFAULT_STARTUP_S unless the user set one."""
    os.environ.setdefault(STARTUP_SETTING, str(DEFAULT_STARTUP_S))


def orchestrator_error(exc: BaseException) -> PFError | None:
    """A PFError (one line + hint) when `exc` says the orchestrator's API could not be reached, else None."""
    text = str(exc)
    api_url = os.environ.get("PREFECT_API_URL", "")
    if isinstance(exc, RuntimeError) and _EPHEMERAL_MARK in text:
        budget = os.environ.get(STARTUP_SETTING, "20")
        return PFError(f"the orchestrator's temporary API server (Prefect) did not start within {budget} s "
                       "(a busy machine?)",
                       f"retry, raise {STARTUP_SETTING} (now {budget}), or start one with `prefect server start` "
                       "and set PREFECT_API_URL=http://127.0.0.1:4200/api")
    if api_url and _is_connect_error(exc):
        return PFError(f"cannot reach the orchestrator's API at PREFECT_API_URL={api_url}",
                       "start it (`prefect server start`) or unset PREFECT_API_URL to use a temporary one")
    return None


def _is_connect_error(exc: BaseException) -> bool:
    try:
        import httpx
    except ImportError:  # pragma: no cover - prefect depends on httpx
        return False
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout)):
            return True
        if isinstance(exc, RuntimeError) and "Failed to reach API" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
    return False
