"""A local SPARQL endpoint for the offline path: `oxigraph serve` over a world's SemOpenAlex quads.

The HTTP replica serves the REST upstreams; SemOpenAlex is a SPARQL service, so the replica for it
is a real triple store (oxigraph, shipped with pyoxigraph's server wheel) answering the same
SPARQL protocol the live endpoint does. Used by `pf run`, the nightly flow and the tests.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from patentfactory.errors import PFError


def oxigraph_binary() -> str:
    beside = Path(sys.executable).parent / "oxigraph"
    found = str(beside) if beside.exists() else shutil.which("oxigraph")
    if not found:
        raise PFError("the `oxigraph` server binary was not found next to the interpreter or on PATH",
                      "pip install the project (it depends on `oxigraph`), or point PF_UPSTREAMS__SPARQL_ENDPOINT "
                      "at a live endpoint")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def sparql_replica(files: Sequence[str | Path], store: str | Path | None = None,
                   timeout: float = 300, port: int = 0) -> Iterator[str]:
    """Load `files` (N-Quads/TriG/Turtle) into a fresh store, serve it on loopback (`port`, 0: a free one),
    yield the query URL."""
    exe = oxigraph_binary()
    tmp = None if store is not None else tempfile.TemporaryDirectory(prefix="pf-oxigraph-")
    location = Path(store) if store is not None else Path(tmp.name)  # type: ignore[union-attr]
    shutil.rmtree(location, ignore_errors=True)
    location.mkdir(parents=True)
    try:
        loaded = subprocess.run([exe, "load", "--location", str(location), "--file", *map(str, files)],
                                capture_output=True, text=True, timeout=timeout)
        if loaded.returncode:
            raise PFError(f"oxigraph could not load {', '.join(map(str, files))}: {loaded.stderr.strip()[-300:]}",
                          "check that the files are valid RDF (N-Quads, TriG or Turtle)")
        port = port or _free_port()
        proc = subprocess.Popen([exe, "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}",
                                 "--union-default-graph"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise PFError(f"oxigraph serve did not start on port {port}", "see `oxigraph serve --help`")
                    time.sleep(0.05)
            yield f"http://127.0.0.1:{port}/query"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    finally:
        if tmp is not None:
            tmp.cleanup()
