"""Real samples on a fresh clone: fetched from a local HTTP server standing in for their public origins
(`<origin>/<repo>/<commit>/<path in repo>`), checked against the pinned sha256, cached; offline, one skip line."""
from __future__ import annotations

import functools
import hashlib
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import REAL_SAMPLES, free_port
from tests.real_samples_fetch import Entry, fetch, provide, read_lock, url_of

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.services  # a local server and pytest subprocesses


@pytest.fixture()
def origin(tmp_path):
    """(served folder, base URL): a static server, like raw.githubusercontent.com, on loopback."""
    served = tmp_path / "origin"
    served.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *a, **k: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield served, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _publish(served: Path, entry: Entry, data: bytes) -> None:
    target = served / entry.repo / entry.commit / entry.path_in_repo
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _entry(path: str, data: bytes) -> Entry:
    return Entry(path, "owner/repo", f"data/{Path(path).name}", "a" * 40, hashlib.sha256(data).hexdigest())


def test_fetch_checks_the_pin_caches_and_never_keeps_a_wrong_file(origin, tmp_path):
    served, base = origin
    good, bad = b"<us-patent-grant/>", b"tampered"
    entries = [_entry("uspto-xml/a.xml", good), _entry("lens/b.csv", b"the pinned bytes")]
    _publish(served, entries[0], good)
    _publish(served, entries[1], bad)
    got = fetch(entries, tmp_path / "cache", base)
    assert got.downloaded == 1 and (tmp_path / "cache" / "uspto-xml" / "a.xml").read_bytes() == good
    assert len(got.failed) == 1 and "lens/b.csv: sha256" in got.failed[0]
    assert not (tmp_path / "cache" / "lens" / "b.csv").exists(), "a file that does not match is never cached"
    again = fetch(entries[:1], tmp_path / "cache", "http://127.0.0.1:9")  # nothing listens there: from the cache
    assert again.ok and again.cached == 1 and again.downloaded == 0
    assert url_of(entries[0], base) == f"{base}/owner/repo/{'a' * 40}/data/a.xml"


def test_offline_without_shared_is_one_skip_line(tmp_path):
    folder, line = provide(tmp_path / "no-shared", tmp_path / "cache", "http://127.0.0.1:9")
    assert folder is None and "\n" not in line
    assert line.startswith(f"real samples: {tmp_path / 'no-shared'} absent and {len(read_lock())} of")
    assert line.endswith("skipping the tests that read real files")


@pytest.mark.skipif(not REAL_SAMPLES.is_dir(), reason="the origin here is built from ../shared/real-samples")
def test_a_fresh_clone_runs_the_conformance_tests_on_fetched_files(origin, tmp_path):
    """Every locked file served from its origin path (symlinks to ../shared); a pytest run that cannot see
    ../shared fetches them, then runs a real conformance module on them; offline the same run is skipped."""
    served, base = origin
    for e in read_lock():
        target = served / e.repo / e.commit / e.path_in_repo
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            target.symlink_to(REAL_SAMPLES / e.path)
    env = {**os.environ, "PF_SHARED_DIR": str(tmp_path / "fresh-clone-has-no-shared"), "PF_TEST_PREFECT_SERVER": "0",
           "PF_REAL_SAMPLES_CACHE": str(tmp_path / "cache"), "PF_REAL_SAMPLES_ORIGIN": base}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-ra", "-o", "addopts=",
           "tests/sources/test_uspto_conformance.py"]
    ran = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert ran.returncode == 0 and " passed" in ran.stdout and "skipped" not in ran.stdout, ran.stdout[-3000:]
    assert len(list((tmp_path / "cache").rglob("*.xml"))) >= 10
    offline = {**env, "PF_REAL_SAMPLES_CACHE": str(tmp_path / "empty-cache"), "PF_REAL_SAMPLES_ORIGIN": "http://127.0.0.1:9"}
    ran = subprocess.run(cmd, cwd=REPO, env=offline, capture_output=True, text=True, timeout=600)
    skips = [line for line in ran.stdout.splitlines() if line.startswith("SKIPPED")]
    assert ran.returncode == 0 and len(skips) == 1 and "skipping the tests that read real files" in skips[0], ran.stdout
