"""The replica as the real services look to a client: `pf upstream serve` in a process of its own.

Live-mode tests and the rehearsal benchmark point the live settings (PF_UPSTREAMS__*) at it, so nothing in
the pipeline knows it is not the real USPTO/OPS; its own CPU is not charged to the pipeline's process.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(world: Path, log_path: Path, faults: str = "", startup_s: int = 60) -> Iterator[str]:
    """`pf upstream serve WORLD --port P [--faults F]` as a separate process; yields its base URL."""
    port = free_port()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([str(BIN / "pf"), "upstream", "serve", str(world), "--port", str(port),
                                 *(["--faults", faults] if faults else [])],
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            _wait_until_up(port, proc, log_path, startup_s)
            yield f"http://127.0.0.1:{port}"
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)


def _wait_until_up(port: int, proc: subprocess.Popen, log_path: Path, startup_s: int) -> None:
    for _ in range(startup_s):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/datasets/products/PTGRXML", timeout=2)
            return
        except urllib.error.HTTPError:
            return  # answering, even with an error status: it is up
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"pf upstream serve exited: {log_path.read_text()[-2000:]}") from None
            time.sleep(1)
    raise RuntimeError(f"pf upstream serve did not answer within {startup_s} s")
