"""Generating a small world (every renderer): the speed `tests/generator/test_world.py` once asserted (< 30 s).

Last line: `generate_world: <seconds> s`.
Usage: python benchmarks/generate_world.py [--scale 200 --seed 11]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from patentfactory.sim.generator import generate_world  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--scale", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        generate_world(Path(tmp) / "world", args.scale, args.seed)
        seconds = time.perf_counter() - start
    print(f"generate_world: {seconds:.1f} s")


if __name__ == "__main__":
    main()
