"""docs/operations.md's rehearsal, run verbatim: every command of its block, in order, as an operator would.

A generated world served by `pf upstream serve` and `pf upstream sparql` in processes of their own, the
settings exported as the doc says (PF_PATHS__* included: nothing may land in ./data), then three live nights
with the world grown (a PTAB decision posted late, dated inside the look-back) and its Lens exports
re-delivered degraded in between. Each night's lines, exit code and final state are checked against what the
doc says it prints. The `pf run` nights run in this process (Prefect's ephemeral API is started once per
session); the servers are real subprocesses.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from patentfactory.cli.main import app
from patentfactory.sim.upstream.process import BIN, free_port
from patentfactory.store.inspect import inspect_version
from patentfactory.store.ledger import Ledger
from patentfactory.store.storage import Storage

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.long_run(minutes=1.4),  # 4 tests, ~5.5 min
              pytest.mark.xdist_group("operations-rehearsal")]  # its nights follow one another in one rehearsal
DOC = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
DATASETS = ("patenteb", "patentcr", "ipbench", "pilot", "pap2pat")


def rehearsal_commands() -> list[str]:
    """The doc's rehearsal block: one command per line, comments and blank lines dropped."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- rehearsal", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    return [ln.strip() for ln in block.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def _wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        time.sleep(0.5)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout} s")


class Operator:
    """Runs the doc's lines: `export` into the environment, `… &` as a background process, `pf …` in process."""

    def __init__(self, home: Path) -> None:
        self.home, self.env, self.servers, self.runs = home, {"PWD": str(home)}, [], []
        self.ports = {"8765": str(free_port()), "7878": str(free_port())}  # never collide with a neighbour

    def expand(self, line: str) -> list[str]:
        for doc_port, port in self.ports.items():
            line = line.replace(doc_port, port)
        return [re.sub(r"\$(\w+)", lambda m: self.env.get(m.group(1), os.environ.get(m.group(1), "")), w)
                for w in shlex.split(line)]

    def do(self, line: str, monkeypatch: pytest.MonkeyPatch) -> None:
        words = self.expand(line.removesuffix("&").strip())
        if words[0] == "export":
            for pair in words[1:]:
                key, _, value = pair.partition("=")
                self.env[key] = value
                monkeypatch.setenv(key, value)
        elif line.endswith("&"):
            port = int(words[words.index("--port") + 1])
            proc = subprocess.Popen([str(BIN / "pf"), *words[1:]], env={**os.environ, **self.env}, cwd=self.home,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
            self.servers.append(proc)
            _wait_port(port, proc, " ".join(words[:3]))
        else:
            assert words[0] == "pf", line
            res = CliRunner().invoke(app, words[1:], catch_exceptions=False)
            self.runs.append((line, res.exit_code, res.output))

    def stop(self) -> None:
        for proc in self.servers:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)


@pytest.fixture(scope="module")
def rehearsal(tmp_path_factory):
    home = tmp_path_factory.mktemp("rehearsal")
    op = Operator(home)
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(home)
        try:
            for line in rehearsal_commands():
                op.do(line, mp)
        finally:
            op.stop()
    return op


def _night(op: Operator, n: int) -> tuple[int, dict[str, str], str]:
    """The n-th `pf run --live` night (plan excluded): exit code, {dataset: its line}, output."""
    nights = [r for r in op.runs if r[0].startswith("pf run --live") and "--plan" not in r[0]]
    _, code, output = nights[n]
    lines = {}
    for ln in output.splitlines():
        name, _, rest = ln.partition(": ")
        if name in DATASETS and name not in lines:
            lines[name] = rest
    assert set(lines) == set(DATASETS), f"one line per dataset:\n{output}"
    return code, lines, output


def test_the_doc_block_is_what_an_operator_types():
    cmds = rehearsal_commands()
    assert sum(c.startswith("pf run --live") for c in cmds) == 4
    assert any(c.startswith("pf upstream grow") for c in cmds) and any(c.startswith("pf upstream degrade") for c in cmds)
    assert any(c.startswith("pf upstream sparql") for c in cmds) and any(c.startswith("pf upstream serve") for c in cmds)


def test_first_night_publishes_or_says_why_and_honours_the_settings(rehearsal):
    plan = next(r for r in rehearsal.runs if "--plan" in r[0])
    assert plan[1] == 0 and "uspto_bulk" in plan[2]
    code, lines, output = _night(rehearsal, 0)
    assert code == 0, output
    assert lines["patenteb"].startswith("skipped (too few families per IPC3 for the full profile"), output
    for name in ("patentcr", "ipbench", "pilot", "pap2pat"):
        assert lines[name].startswith("published "), output
    assert "(Completed)" in output
    home = rehearsal.home
    assert not (home / "data" / "published").exists() and (home / "published" / "pilot" / "LATEST").exists()
    assert (home / "data" / "warehouse").is_dir(), "PF_PATHS__DATA_DIR is where the warehouse went"
    assert not list((home / "published").glob("*/.staging")), "no empty .staging/ left behind"


def test_second_night_fetches_the_late_decision_and_blocks_the_degraded_redelivery(rehearsal):
    code, lines, output = _night(rehearsal, 1)
    assert code == 3 and "(Blocked)" in output, output
    assert lines["ipbench"].startswith("blocked (quality gate: ipbench "), output
    assert lines["patentcr"].startswith("nothing new;"), output
    ledger = Ledger(Storage(rehearsal.home / "data" / "warehouse"))
    world = rehearsal.home / "world"
    late = json.loads(next((world / "ptab" / "records").glob("added-*.json")).read_text())
    row = ledger.get("ptab_pdf", late["documentData"]["documentIdentifier"])
    assert row and row["parsed_at"], "the decision posted late, dated inside the look-back, was fetched"
    lens = [r["item"] for r in ledger.items("lens")]
    assert len(lens) == 4 and all(i.startswith("lens_") for i in lens), lens  # two deliveries of two files


def test_third_night_publishes_with_the_overrides_recorded_and_names_the_delivery(rehearsal):
    code, lines, output = _night(rehearsal, 2)
    assert code == 0, output
    assert lines["ipbench"].startswith("published "), output
    root = rehearsal.home / "published"
    version = (root / "ipbench" / "LATEST").read_text().strip()
    manifest = json.loads((root / "ipbench" / version / "manifest.json").read_text())
    assert manifest["overrides"] == {"allow_drop": True, "allow_drift": True}
    card = (root / "ipbench" / version / "README.md").read_text()
    section = card.split("## Lens deliveries", 1)[1].split("\n## ", 1)[0]
    assert section.count("- `lens-export.") == 4 and "Newest: `lens-export." in section, section
    inspect = rehearsal.runs[-1]
    assert inspect[0].startswith("pf inspect") and inspect[1] == 0 and "verified" in inspect[2]
    assert inspect_version(Storage(root), "ipbench", version).ok
