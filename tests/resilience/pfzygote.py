"""`pf` started many times without paying its imports each time: a zygote process imports the heavy libraries
once, then forks one child per command. Each child is a process of its own (own cwd, environment, stdout and
stderr files, exit status) that runs `pf` exactly as `pfrun.pf_cmd` does; only the library imports are shared."""
from __future__ import annotations

import json
import select
import subprocess
import sys
import tempfile
from pathlib import Path

# libraries that read nothing of the environment a test sets at import (Prefect and the project do, so the child
# imports them itself)
PRELOAD = ("pandas", "polars", "pyarrow", "pyarrow.parquet")

_SERVER = r"""
import atexit, json, os, sys
for name in sys.argv[1:]:
    __import__(name)
for line in sys.stdin:
    req = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.chdir(req["cwd"])
        os.environ.clear()
        os.environ.update(req["env"])
        for fd, path in ((1, req["out"]), (2, req["err"])):
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(f, fd)
            os.close(f)
        sys.stdin = open(os.devnull)
        sys.argv = ["pf", *req["args"]]
        code = 0
        try:
            from patentfactory.cli.main import app
            app(prog_name="pf")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            if not isinstance(exc.code, (int, type(None))):
                print(exc.code, file=sys.stderr)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(json.dumps(os.waitstatus_to_exitcode(status)) + "\n")
    sys.stdout.flush()
"""


class Zygote:
    """One at a time: `run` blocks until its child exits (use one zygote per thread)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", _SERVER, *PRELOAD], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.tmp = tempfile.TemporaryDirectory(prefix="pfzygote-")

    def run(self, args: list[str], env: dict[str, str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
        out, err = Path(self.tmp.name) / "out", Path(self.tmp.name) / "err"
        self.proc.stdin.write(json.dumps({"args": args, "env": env, "cwd": str(cwd), "out": str(out),
                                          "err": str(err)}) + "\n")
        self.proc.stdin.flush()
        if not select.select([self.proc.stdout], [], [], timeout)[0]:
            self.proc.kill()
            raise AssertionError(f"pf {' '.join(args)} ran past {timeout}s")
        rc = json.loads(self.proc.stdout.readline())
        read = lambda p: p.read_bytes().decode(errors="replace")  # noqa: E731
        return subprocess.CompletedProcess(["pf", *args], rc, read(out), read(err))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.tmp.cleanup()
