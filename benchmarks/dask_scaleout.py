"""Scale-out: the same `ingest-uspto` + `build-patenteb` flows on a local Dask cluster of 1 vs 2 workers.

One generated world (USPTO weekly zips served by the local replica, generation not timed); per worker
count a fresh data root, then `ingest-uspto` with `DaskTaskRunner` (weekly files parsed in parallel on the
workers; cluster start-up included) and `build-patenteb` (one build task: not parallel, timed so the
total is honest). Worker processes, one thread each, report to this process's Prefect API.
Prints wall times per run and stage, the ingest-only ratio, and last line
`dask_2_vs_1_workers: <speedup> ratio` (total wall of the smallest worker count / the largest).
Usage: python benchmarks/dask_scaleout.py [--scale 2000] [--workers 1,2] [--no-build] [--no-model]
       python benchmarks/dask_scaleout.py --scale 100000          # the issue's 100k-family world
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _run(world: Path, data: Path, out: Path, workers: int, build: bool, profile: str, model: bool) -> dict[str, float]:
    from flows.build_patenteb import build_patenteb
    from flows.ingest_uspto import ingest_uspto
    from flows.runtime import task_runner
    from patentfactory.config import Settings
    from patentfactory.sim.upstream import Replica

    runner = task_runner(Settings(task_runner="dask", dask_workers=workers, dask_processes=True))
    times: dict[str, float] = {}
    with Replica(world) as rep:
        t = time.perf_counter()
        stats = ingest_uspto.with_options(task_runner=runner)(str(data), rep.base_url, date(1976, 1, 1),
                                                              date(2100, 1, 1))
        times["ingest"] = time.perf_counter() - t
    print(f"  {workers} worker(s): {stats['files']} weekly files, {stats['records'].get('publications', 0)} "
          f"publications, {stats['rejects']} rejects", flush=True)
    if build:
        t = time.perf_counter()
        build_patenteb(data_dir=str(data), out=str(out), seed=1, profile=profile, use_model=model)
        times["build"] = time.perf_counter() - t
    times["total"] = sum(times.values())
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=2000, help="families (inventions) in the generated world")
    ap.add_argument("--workers", default="1,2", help="comma-separated Dask worker counts to compare")
    ap.add_argument("--render-from", default="2015-01-01", help="first day rendered as USPTO weekly files")
    ap.add_argument("--no-build", action="store_true", help="time the ingest flow only")
    ap.add_argument("--no-model", action="store_true",
                    help="build without the dense model (BM25 negatives only): a cold 100k embedding takes ~35 min "
                         "on 2 CPU cores and runs the same on any worker count")
    args = ap.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-dask-"))
    os.environ.setdefault("PREFECT_HOME", str(tmp / "prefect"))
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from patentfactory.sim.generator import WorldSpec, generate_world

    t = time.perf_counter()
    world = tmp / "world"
    generate_world(world, args.scale, 1, WorldSpec(args.scale, 1, renderers=("uspto",), render_from=args.render_from))
    print(f"world: {args.scale} families in {time.perf_counter() - t:.1f} s (not timed below), {tmp}", flush=True)
    profile = "sample" if args.scale < 5000 else "full"
    results = {w: _run(world, tmp / f"data-{w}", tmp / f"published-{w}", w, not args.no_build, profile,
                       not args.no_model)
               for w in counts}
    for w, times in results.items():
        print(f"dask_{w}_workers: " + ", ".join(f"{k} {v:.1f} s" for k, v in times.items()))
    lo, hi = min(counts), max(counts)
    print(f"ingest_{hi}_vs_{lo}_workers: {results[lo]['ingest'] / results[hi]['ingest']:.2f} ratio")
    print(f"dask_{hi}_vs_{lo}_workers: {results[lo]['total'] / results[hi]['total']:.2f} ratio")


if __name__ == "__main__":
    main()
