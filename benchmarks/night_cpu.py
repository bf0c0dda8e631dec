"""CPU seconds of one sample night (`nightly(scale="sample")`, seed 1337) as the test suite runs it: in one process,
on fresh data and published dirs each night, with one embedding cache for the session (the first night encodes
the sample's texts, the later ones find them cached).

CPU = user + system of this process and its children (tesseract), so a busy machine changes it less than wall.
Night 1 also pays the imports (spaCy, NLTK, torch via thinc) and the encoding; the later nights are the steady
state, the figure that the nights of `make test` mostly cost. Set PREFECT_API_URL to a running server to leave
the temporary server's start out. Usage: python benchmarks/night_cpu.py [--nights 3]
Last line: `night_cpu: <CPU seconds of the last night> s`.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nights", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pf-night-cpu-") as tmp:
        os.environ["PF_PATHS__EMBEDDING_CACHE"] = str(Path(tmp) / "embeddings")
        os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
        start = cpu_seconds()
        from flows.nightly import nightly

        print(f"imports: {cpu_seconds() - start:.1f} CPU s")
        last = 0.0
        for n in range(1, args.nights + 1):
            cpu0, wall0 = cpu_seconds(), time.monotonic()
            result = nightly(scale="sample", data_dir=f"{tmp}/n{n}/data", out=f"{tmp}/n{n}/published", seed=1337)
            last = cpu_seconds() - cpu0
            summary = result["summary"] if isinstance(result, dict) else [str(result)]
            print(f"night {n}: {last:.1f} CPU s, {time.monotonic() - wall0:.0f} s wall; " + "; ".join(summary))
    print(f"night_cpu: {last:.1f} s")


if __name__ == "__main__":
    main()
