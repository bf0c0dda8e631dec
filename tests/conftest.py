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


def pytest_configure(config):
    if not os.environ.get("PF_PATHS__EMBEDDING_CACHE"):  # the first pytest process; xdist workers inherit it
        # One embedding cache for the session's PatenTEB builds (content-addressed, so sharing is what a team with
        # several data dirs does): the sample's texts are encoded by the first build, not by every night again.
        # Tests about the encoding itself (tests/flows/test_fanout.py) drop it and use their data dir's cache.
        cache = Path(tempfile.mkdtemp(prefix="pf-test-embeddings-"))
        os.environ["PF_PATHS__EMBEDDING_CACHE"] = str(cache)
        config._pf_embedding_cache = cache
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
    if getattr(config, "_pf_embedding_cache", None):
        shutil.rmtree(config._pf_embedding_cache, ignore_errors=True)
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


# How `make test` spreads the suite over xdist workers (`--dist loadgroup`): a module's tests stay on one worker
# (its module-scoped worlds and runs are built once), except the modules below, whose tests are independent
# whole nights that gain most from running side by side; tests sharing the session's whole-run baseline
# (tests/resilience) form one group so that the baseline runs once. Slow tests are handed out first.
SPLIT_MODULES = frozenset({"tests.flows.test_nightly_live", "tests.flows.test_nightly"})
BASELINE_MODULES = frozenset({"tests.resilience.test_faults_run", "tests.resilience.test_kill_resume",
                              "tests.resilience.test_secrets", "tests.resilience.test_orchestrator_start",
                              "tests.resilience.test_published_loaders"})


# `make test-fast` leaves out what starts a server, a subprocess run or a generated world: every flow and
# resilience test, and these modules (marked `services` here, so that the list lives in one place).
SERVICE_PACKAGES = ("tests.flows.", "tests.resilience.")
SERVICE_MODULES = frozenset({
    "tests.core.test_quality_drift", "tests.core.test_s3_publish", "tests.core.test_memory_budget",
    "tests.core.test_progress", "tests.core.test_http_replica", "tests.core.test_real_samples_fetch", "tests.generator.test_profiles",
    "tests.generator.test_world", "tests.evaluation.test_patenteb_eval", "tests.evaluation.test_baselines",
    "tests.evaluation.test_evaluate_flow", "tests.sources.test_semopenalex", "tests.sources.test_epo_ops_client",
    "tests.sources.test_epo_ops_responses", "tests.sources.test_ingest_ops", "tests.sources.test_ptab_odp",
    "tests.transforms.test_families_vs_truth", "tests.transforms.test_ipbench", "tests.transforms.test_matching",
    "tests.transforms.test_negatives"})


# xdist's loadgroup hands out the groups with the most tests first, so a whole run alone in its group (one test)
# would start last and the suite would end on it. The longest whole runs (measured, about 3-5.5 min each) therefore
# share five lanes (one per worker, `make test`'s default) with large fast modules and the other single whole nights
# (about 0.5-1.5 min each): each worker starts with a lane, runs its whole runs first (slow tests come first) and
# the lane's fast modules after them, while the other groups are balanced as usual. A lane entry is a group
# (module, or `baseline`) or one test of a SPLIT_MODULES module.
LANES = (("tests.flows.test_production_deployment_e2e", "tests.resilience.test_bad_inputs"),
         ("baseline", "tests.transforms.test_patent_ids"),
         ("tests.flows.test_operations_rehearsal", "tests.transforms.test_ptab_labels", "tests.transforms.test_segments",
          "tests.flows.test_nightly_live::test_missing_credentials_stop_only_those_sources"),
         ("tests.flows.test_nightly_live::test_live_nightly_publishes_then_a_quiet_night_publishes_nothing_new",
          "tests.sources.test_uspto_conformance", "tests.transforms.test_patenteb_tasks",
          "tests.flows.test_nightly::test_nightly_end_to_end_then_incremental_rerun"),
         ("tests.flows.test_nightly_live::test_ops_black_defers_patentcr_and_the_next_live_night_resumes",
          "tests.sources.test_uspto_formats", "tests.evaluation.test_metrics",
          "tests.flows.test_nightly::test_nightly_defers_patentcr_when_ops_says_stop_and_publishes_the_rest"))
LANE_OF = {group: f"lane{k}" for k, lane in enumerate(LANES) for group in lane}


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Markers before every other implementation runs (xdist's turns `xdist_group` into the node id's @group)."""
    for item in items:
        module = item.module.__name__ if item.module else ""
        if module.startswith(SERVICE_PACKAGES) or module in SERVICE_MODULES:
            item.add_marker(pytest.mark.services)
        if item.get_closest_marker("xdist_group"):
            continue
        if module in SPLIT_MODULES:
            lane = LANE_OF.get(f"{module}::{getattr(item, 'originalname', item.name)}")
            if lane:
                item.add_marker(pytest.mark.xdist_group(lane))
            continue
        group = "baseline" if module in BASELINE_MODULES else module
        item.add_marker(pytest.mark.xdist_group(LANE_OF.get(group, group)))
    items.sort(key=lambda it: 0 if it.get_closest_marker("slow") else 1)
    result = yield
    if getattr(config.option, "loadgroup", False):  # an xdist worker under --dist loadgroup
        _suffix_groups(items)
    return result


def _suffix_groups(items) -> None:
    """`<nodeid>@<group>`, which xdist's loadgroup scheduler splits on. xdist 3.8 writes it to `item._nodeid`,
    which pytest 9 no longer reads (the node id lives in `item._id`), so without this every test is its own
    unit and a module's shared world is built on every worker."""
    from _pytest.nodeid import coerce_node_id

    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid:
            item._id = coerce_node_id(f"{item.nodeid}@{'_'.join(names)}")
