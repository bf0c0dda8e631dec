"""CPU a refused `pf` command costs, this tree against an earlier revision: `pf --help` and bad inputs.

A command refused for a wrong option or path (a bad date, a reversed range, a missing file, a folder, an unknown
profile) should fail before polars, pyarrow and the parsers load. Each command runs as a real subprocess, `--repeat`
times, in this tree and in `--against` (a git revision, unpacked with `git archive` into a temporary folder); the
figure is CPU (user + sys of the child), not wall time, so a busy machine moves it little.
Last line: `cli_refusal_cpu_ratio: <against / this tree> x` (summed over the refused commands; > 1: this tree is
cheaper).
Usage: python benchmarks/cli_refusals.py [--against 7ba3a9f] [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BEFORE = "7ba3a9f"  # the last commit before the refusals were made lazy (issue 43)


def commands(tmp: Path) -> dict[str, list[str]]:
    """name -> `pf` arguments; every one but --help exits 2 with one error line."""
    return {
        "--help": ["--help"],
        "ingest ptab bad date": ["ingest", "ptab", "--from", "2024-13-01", "--data-dir", str(tmp / "d")],
        "ingest uspto reversed": ["ingest", "uspto", "--from", "2024-03-01", "--to", "2024-01-01",
                                  "--data-dir", str(tmp / "d")],
        "parse ops missing file": ["parse", "ops", str(tmp / "no-such.xml"), "--out", str(tmp / "o.parquet")],
        "parse uspto folder": ["parse", "uspto", str(tmp), "--out", str(tmp / "o.parquet")],
        "run unknown profile": ["run", "--profile", "huge", "--data-dir", str(tmp / "d"), "--out", str(tmp / "p")],
    }


def cpu_of(root: Path, args: list[str], repeat: int) -> float:
    """Mean CPU seconds (user + sys) of `pf ARGS` run from `root`."""
    env = {**os.environ, "PYTHONPATH": str(root), "PF_LOG_LEVEL": "WARNING", "HF_HUB_OFFLINE": "1"}
    code = "import sys; from patentfactory.cli.main import app; sys.exit(app(prog_name='pf'))"
    total = 0.0
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        ran = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=root, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if ran.returncode != (0 if args == ["--help"] else 2):
            raise SystemExit(f"pf {' '.join(args)} in {root}: rc={ran.returncode}\n{ran.stderr[-2000:]}")
        total += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return total / repeat


def unpack(rev: str, into: Path) -> Path:
    """`rev`'s tree (tracked files only) in `into`."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default=BEFORE, help="git revision to compare with (default: before issue 43's change)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pf-cli-bench-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "against").mkdir()
        (tmp / "work").mkdir()
        old, work = unpack(args.against, tmp / "against"), tmp / "work"
        sums = {"against": 0.0, "this": 0.0}
        print(f"{'command':28} {args.against:>10} {'this tree':>10}  (CPU s per run, mean of {args.repeat})")
        for name, argv in commands(work).items():
            a, b = cpu_of(old, argv, args.repeat), cpu_of(REPO, argv, args.repeat)
            print(f"{name:28} {a:10.2f} {b:10.2f}")
            if name != "--help":
                sums["against"] += a
                sums["this"] += b
        print(f"refused commands, summed     {sums['against']:10.2f} {sums['this']:10.2f}")
        print(f"cli_refusal_cpu_ratio: {sums['against'] / sums['this']:.2f} x")


if __name__ == "__main__":
    main()
