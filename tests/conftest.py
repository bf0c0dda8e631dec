"""Shared fixtures: where the real samples live, one Prefect API server per test session, temp roots."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PF_SHARED_DIR", REPO.parent / "shared"))
REAL_SAMPLES = SHARED / "real-samples"
# Set before any test module imports prefect (its settings are read once): the default 20 s is too
# short for the ephemeral API server on a loaded 2-core machine.
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
# One math-library thread per process (torch's encoder, BLAS under scikit-learn, and every `pf` subprocess, which
# inherits it): the suite runs 5 xdist workers on 2 cores, where each library's own pool of one thread a core
# spin-waits against the other workers (a module that encodes: 39.8 -> 24.7 CPU-s, and faster in wall time too).
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
# The replica's EPO OPS advertises 20 times OPS's per-minute rates (every replica night and `pf upstream serve` of
# the suite, subprocesses included): the client's pacing code runs as against OPS with a twentieth of the waits.
# At OPS's own rates a sample night sleeps ~50 s for its slots (py-spy: 54 % of the rehearsal's wall time).
# Tests of the pacing itself build `Replica(...)` / `OpsClient(...)` with their own rates and clock.
os.environ.setdefault("PF_REPLICA__OPS_RATE_SCALE", "20")


@pytest.fixture(scope="session")
def real_samples() -> Path:
    """`../shared/real-samples` (read at test time, never copied into the repo); on a fresh clone without it, the
    same files fetched from their public origins, pinned by commit and sha256 (`tests/real_samples_fetch.py`), and
    cached. Offline, every test that needs them is skipped with one line saying so."""
    from tests.real_samples_fetch import provide

    folder, line = provide(REAL_SAMPLES)
    if folder is None:
        pytest.skip(line)
    return folder


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Offline without ../shared, every test that reads real files skips for the same reason: reported at one
    place, so `-ra` shows it as one line (`SKIPPED [N] tests/conftest.py:…: real samples: … absent …`)."""
    report = yield
    if report.skipped and isinstance(report.longrepr, tuple) and "real samples:" in str(report.longrepr[2]):
        report.longrepr = (str(Path(__file__).relative_to(REPO)), real_samples.__wrapped__.__code__.co_firstlineno,
                           report.longrepr[2])
    return report


# One Prefect API server per test session, started as a process before collection (Prefect reads PREFECT_API_URL
# once, at import) by the first pytest process (the xdist controller, whose workers inherit its environment) and
# shared by every in-process flow and every `pf` subprocess through the environment. Without it each flow-running
# test process started its own temporary server and ran the database migrations again (20-60 s each on a loaded 2-core machine). Tests that are about the
# temporary server (the whole-run baseline, tests/resilience/test_orchestrator_start.py) drop PREFECT_API_URL.
_SERVER_ENV = {"PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_SERVER_DATABASE_TIMEOUT": "60",
               "PREFECT_SERVER_DATABASE_CONNECTION_TIMEOUT": "30", "PREFECT_UI_ENABLED": "false"}


_OURS = "PF_TEST_PREFECT_SERVER"
_SHARE_EMBEDDINGS = "PF_TEST_SHARED_EMBEDDINGS"
# The session's shared content-addressed caches: setting -> (switch, what it keeps).
_SHARED_CACHES = {"PF_PATHS__EMBEDDING_CACHE": (_SHARE_EMBEDDINGS, "embeddings"),
                  "PF_PATHS__PARSED_CACHE": ("PF_TEST_SHARED_PARSES", "parsed")}


def pytest_configure(config):
    if hasattr(config.option, "loadscopereorder"):  # xdist hands out work in the order set below (long runs first)
        config.option.loadscopereorder = False
    # The first pytest process; xdist workers, `pf` subprocesses, Prefect workers and deployments inherit them.
    # One embedding cache for the session's PatenTEB builds and one cache of parsed paper PDFs for its Pap2Pat
    # ingests (both content-addressed, so sharing is what a team with several data dirs does): the sample's texts
    # are encoded, and the same world's PDFs read, by the first night, not by every night again (the resilience
    # runs read one world's PDFs six times). Tests about the encoding itself (tests/flows/test_fanout.py) drop the
    # embedding cache; tests of the parse call the reader or a client of their own. PF_TEST_SHARED_EMBEDDINGS=0 /
    # PF_TEST_SHARED_PARSES=0 leave every night its own cache (the user's default), to measure the saving.
    config._pf_shared_caches = []
    for setting, (switch, kind) in _SHARED_CACHES.items():
        if not os.environ.get(setting) and os.environ.get(switch) != "0":
            cache = Path(tempfile.mkdtemp(prefix=f"pf-test-{kind}-"))
            os.environ[setting] = str(cache)
            config._pf_shared_caches.append(cache)
    if os.environ.get("PREFECT_API_URL"):  # an xdist worker (inherited), or a server the developer runs
        return
    if os.environ.get(_OURS) == "0":  # `make test-fast`: no flow runs, no server
        return
    home = Path(tempfile.mkdtemp(prefix="pf-test-prefect-"))
    port = free_port()
    env = {**os.environ, **_SERVER_ENV, "PREFECT_HOME": str(home)}
    log = open(home / "server.log", "wb")
    proc = subprocess.Popen([str(Path(sys.executable).with_name("prefect")), "server", "start", "--host", "127.0.0.1",
                             "--port", str(port), "--no-services", "--no-ui"],
                            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    os.environ["PREFECT_API_URL"] = f"http://127.0.0.1:{port}/api"
    os.environ["PREFECT_HOME"] = str(home)
    os.environ[_OURS] = str(home / "server.log")
    config._pf_prefect_server = (proc, home, log)


def pytest_unconfigure(config):
    for cache in getattr(config, "_pf_shared_caches", []):
        shutil.rmtree(cache, ignore_errors=True)
    started = getattr(config, "_pf_prefect_server", None)
    if not started:
        return
    proc, home, log = started
    stop_group(proc, 10)
    log.close()
    shutil.rmtree(home, ignore_errors=True)


def stop_group(proc: subprocess.Popen, grace_s: float) -> None:
    """SIGTERM a process started in its own session (its whole group), SIGKILL after `grace_s`."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _wait_for_prefect(budget_s: float = 240) -> None:
    """Block until the session's server answers (it migrates its database while the tests are collected)."""
    log = os.environ.get(_OURS)
    if not log or log == "0":  # no session server (PF_TEST_PREFECT_SERVER=0): flows start their own
        return
    url = os.environ["PREFECT_API_URL"] + "/health"
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.5)
    pytest.exit(f"the tests' Prefect server did not answer in {budget_s:.0f} s: {Path(log).read_text()[-2000:]}", 3)


def _needs_prefect(items) -> bool:
    """Flow runs happen only in the tests that start services or whole runs (`make test-fast` has none)."""
    return any(item.get_closest_marker(m) for item in items for m in ("slow", "e2e", "services"))


@pytest.fixture(autouse=True, scope="session")
def _offline_env(request):
    """No hub downloads, no telemetry; where flows run, the session's Prefect server is up before the first test."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    if _needs_prefect(request.session.items):
        _wait_for_prefect()
    yield
    # Stop any temporary API server a test started while pytest's streams are still open (its atexit hook
    # would log to a closed console and print a spurious traceback after the summary).
    # Drain queued run logs and events first, or they retry against the stopped server for a minute.
    # Only what this process imported is touched (importing Prefect's server costs seconds).
    if "prefect.logging.handlers" in sys.modules:
        sys.modules["prefect.logging.handlers"].APILogWorker.drain_all(timeout=30)
    if "prefect.events.worker" in sys.modules:
        sys.modules["prefect.events.worker"].EventsWorker.drain_all(timeout=30)
    if "prefect.server.api.server" in sys.modules:
        for server in list(sys.modules["prefect.server.api.server"].SubprocessASGIServer._instances.values()):
            server.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def shared_world(tmp_path_factory):
    """`shared_world(scale, seed, spec)`: a generated world built once per test process for each (scale, seed,
    spec) and shared by the modules that ask for the same one. Read-only: a test that changes its world copies it
    first (shutil.copytree costs far less than generating)."""
    made: dict[str, Path] = {}

    def world(scale: int, seed: int, spec=None) -> Path:
        key = repr((scale, seed, spec))
        if key not in made:
            from patentfactory.sim.generator import generate_world

            out = tmp_path_factory.mktemp("shared-world") / "world"
            generate_world(out, scale, seed, spec)
            made[key] = out
        return made[key]
    return world


@pytest.fixture()
def s3_env(monkeypatch):
    """A local S3 (moto in server mode, real HTTP on loopback) with bucket `bench`; env points at it."""
    import boto3
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {"PF_S3_ENDPOINT_URL": f"http://127.0.0.1:{port}", "AWS_ACCESS_KEY_ID": "test",
           "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    boto3.client("s3", endpoint_url=env["PF_S3_ENDPOINT_URL"], region_name="us-east-1",
                 aws_access_key_id="test", aws_secret_access_key="test").create_bucket(Bucket="bench")
    try:
        yield env
    finally:
        server.stop()


# How `make test` spreads the suite over xdist workers (`--dist loadgroup`), from markers each module sets itself
# (no list of module or test names here):
# - a module's tests stay on one worker (its module-scoped worlds and runs are built once), unless the module names
#   its own `xdist_group` (tests/resilience shares one whole-run baseline as group `baseline`);
# - `long_run` (whole nights and deployments, 0.5-5.5 min each; `long_run(minutes=N)`, measured, where a test is
#   longer than a minute): each test is its own unit (or its xdist_group's), handed out first, spread over one
#   lane per worker by those minutes. A lane is padded with one of the largest quick modules, so
#   that xdist queues nothing else behind a long run (it tops up a worker holding two tests or fewer);
# - then the other `slow` tests, then the rest, larger groups first (xdist's own reordering is switched off in
#   pytest_configure, so this order is the order work is handed out).


def _unit(item) -> str:
    """The xdist unit of a test: its explicit group, a long run's own id, else its module."""
    named = item.get_closest_marker("xdist_group")
    if named:
        return str(named.args[0] if named.args else named.kwargs.get("name", "default"))
    if item.get_closest_marker("long_run"):
        return item.nodeid
    return item.module.__name__ if item.module else item.nodeid


def _lanes(items, workers: int) -> dict[str, str]:
    """unit -> lane name: the long-run units over `workers` lanes by the minutes their modules declare
    (`long_run(minutes=N)` per test, default 1), each lane padded with a quick module."""
    units: dict[str, list] = {}
    for item in items:
        units.setdefault(_unit(item), []).append(item)
    long_units = [u for u, its in units.items() if any(it.get_closest_marker("long_run") for it in its)]
    quick = sorted((u for u, its in units.items() if u not in long_units
                    and not any(it.get_closest_marker("slow") for it in its)), key=lambda u: -len(units[u]))
    lanes = min(workers, len(long_units))
    load, lane_of = [0] * lanes, {}
    minutes = {u: sum(it.get_closest_marker("long_run").kwargs.get("minutes", 1) for it in units[u]
                      if it.get_closest_marker("long_run")) for u in long_units}
    for unit in sorted(long_units, key=lambda u: -minutes[u]):  # longest first, each to the least loaded lane
        k = load.index(min(load))
        lane_of[unit], load[k] = f"lane{k}", load[k] + minutes[unit]
    lane_of.update({u: f"lane{k}" for k, u in enumerate(quick[:lanes])})
    return lane_of


def _order(items, lane_of: dict[str, str]) -> None:
    """Lanes first (their long runs before their padding), then slow units, then the rest by unit size."""
    size: dict[str, int] = {}
    for item in items:
        size[_unit(item)] = size.get(_unit(item), 0) + 1

    def key(item):
        unit = _unit(item)
        lane = lane_of.get(unit)
        if lane is not None:
            return (0, lane, 0 if item.get_closest_marker("long_run") else 1, "")
        return (1 if item.get_closest_marker("slow") else 2, "", -size[unit], unit)
    items.sort(key=key)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Units and order before every other implementation runs (deselection by -m comes after)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    lane_of = _lanes(items, workers) if workers > 1 else {}
    for item in items:
        item._pf_group = lane_of.get(_unit(item), _unit(item))
    _order(items, lane_of)
    result = yield
    if getattr(config.option, "loadgroup", False):  # an xdist worker under --dist loadgroup
        _suffix_groups(items)
    return result


def _suffix_groups(items) -> None:
    """`<nodeid>@<unit or lane>`, which xdist's loadgroup scheduler splits on. xdist 3.8 writes its group to
    `item._nodeid`, which pytest 9 no longer reads (the node id lives in `item._id`), so without this every test is its own
    unit and a module's shared world is built on every worker."""
    from _pytest.nodeid import coerce_node_id

    for item in items:
        if "@" not in item.nodeid:
            item._id = coerce_node_id(f"{item.nodeid}@{item._pf_group}")
