"""Helpers for whole-run tests: `pf` as a subprocess in its own process group, published-file hashes."""
from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SCALE, SEED = "60", 3
FAKE = {"EPO_OPS_KEY": "pf-fake-ops-key-Zq81xT", "EPO_OPS_SECRET": "pf-fake-ops-secret-Wm42vK",
        "USPTO_ODP_API_KEY": "pf-fake-odp-key-Hn63pR"}


def pf_env(home: Path, creds: bool = True, log_level: str = "INFO") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in FAKE}
    env.update({"PREFECT_HOME": str(home / "prefect_home"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_LOGGING_LEVEL": log_level,
                "PF_LOG_LEVEL": log_level, "PYTHONUNBUFFERED": "1"})
    if creds:
        env.update(FAKE)
    return env


def pf_cmd(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from patentfactory.cli.main import app; sys.exit(app(prog_name='pf'))",
            *args]


def run_args(home: Path) -> list[str]:
    return ["run", "--scale", SCALE, "--seed", str(SEED), "--out", str(home / "pub"), "--data-dir", str(home / "data")]


@dataclass
class Ran:
    rc: int | None  # None when killed
    seconds: float
    log: Path


def run_pf(cmd: list[str], env: dict[str, str], home: Path, name: str, kill_after: float | None = None,
           timeout: float = 400) -> Ran:
    """Run in a new session; with `kill_after`, SIGKILL the whole process group then (a crash)."""
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"{name}.log"
    started = time.monotonic()
    with open(log, "wb") as fh:
        proc = subprocess.Popen(cmd, env=env, cwd=home, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            proc.wait(timeout=kill_after if kill_after is not None else timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            if kill_after is None:
                raise AssertionError(f"{name} ran past {timeout}s; log {log}") from None
            return Ran(None, time.monotonic() - started, log)
    return Ran(proc.returncode, time.monotonic() - started, log)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def published(root: Path) -> tuple[dict[str, str], dict[str, str]]:
    """({dataset/task/split.parquet: sha256}, {dataset: LATEST version}) for every published dataset."""
    files, versions = {}, {}
    for latest in sorted(root.glob("*/LATEST")):
        dataset, version = latest.parent.name, latest.read_text().strip()
        versions[dataset] = version
        for p in sorted((latest.parent / version).rglob("*.parquet")):
            files[f"{dataset}/{p.relative_to(latest.parent / version)}"] = sha256(p)
    return files, versions


def latest_problems(root: Path) -> list[str]:
    """Every dataset's LATEST must name a version whose manifest verifies (`pf inspect`'s check)."""
    from patentfactory.store.inspect import inspect_version
    from patentfactory.store.storage import Storage

    problems = []
    for latest in sorted(root.glob("*/LATEST")) if root.is_dir() else []:
        dataset = latest.parent.name
        try:
            rep = inspect_version(Storage(root), dataset)
        except Exception as exc:  # noqa: BLE001 - any failure to read is a problem to report
            problems.append(f"{dataset}: {type(exc).__name__}: {exc}")
            continue
        problems += [f"{dataset} {rep.version}: {p}" for p in rep.problems]
    return problems


SERVER_STARTS = "Starting temporary server"  # Prefect's INFO line as `pf` launches its temporary API server


@contextmanager
def saturated(seconds: float, workers: int | None = None, until: Callable[[], bool] | None = None,
              after: Callable[[], bool] | None = None):
    """Busy-loop processes, one per core: a loaded laptop, for the phase the load is meant for. They start at once,
    or with `after` once `after()` is true (the phase began: a run has finished importing and starts its API
    server); they stop after `seconds`, when the block ends, or when `until()` is true (the phase is over). Both
    polls run every 0.2 s, so no CPU is burnt outside the phase. Yields the loops (filled when they start);
    `.started` and `.stopped_early` on the list say whether they ran and whether `until` ended them."""
    n = workers or os.cpu_count() or 2
    code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"
    procs = _Loops()
    done = threading.Event()
    lock = threading.Lock()

    def start() -> None:
        with lock:
            if not done.is_set():
                procs.extend(subprocess.Popen([sys.executable, "-c", code]) for _ in range(n))
                procs.started = True

    def watch() -> None:
        while after and not done.wait(0.2):
            if after():
                start()
                break
        deadline = time.monotonic() + seconds
        while until and not done.wait(0.2) and time.monotonic() < deadline:
            if until():
                procs.stopped_early = True
                with lock:
                    _stop(procs)
                return

    if after is None:
        start()
    watcher = threading.Thread(target=watch, daemon=True) if until or after else None
    if watcher:
        watcher.start()
    try:
        yield procs
    finally:
        with lock:
            done.set()
        if watcher:
            watcher.join()
        _stop(procs)


class _Loops(list):
    started = False
    stopped_early = False


def _stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.kill()
        p.wait()


def log_says(log: Path, text: str) -> Callable[[], bool]:
    """A poll for `saturated(until=..., after=...)`: whether `log` (a `run_pf` log, written as the run goes) holds
    `text`."""
    needle = text.encode()
    return lambda: log.is_file() and needle in log.read_bytes()
