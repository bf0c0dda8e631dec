"""Rehearsal of a first real night: the production-shaped nightly on a `real`-profile world, per task runner.

The world (`pf generate --profile real --scale N`: the real sources' ratios) is served the way the real
services look to the pipeline: `pf upstream serve` in its own process (USPTO ODP weekly files, PTAB search +
PDFs, EPO OPS) and an oxigraph SPARQL endpoint (SemOpenAlex), the Lens exports in a drop folder. The nightly
runs as `nightly(sources="live")` in a child process with only the live settings pointing at them, once per
runner (`thread`, and `dask`: a local cluster of `--workers` processes), each from an empty data dir.
Reported per runner: wall, CPU seconds (the nightly and its workers; the replica's own CPU is not counted),
peak RSS of the largest process, warehouse rows and the night's one line per dataset.
Peak RSS is the largest process so far (the second runner's figure includes the first's).
Usage: python benchmarks/rehearsal.py --scale 3000 [--runners thread,dask] [--workers 2] [--profile full]
Last line: `rehearsal_us_publications_per_hour: <publications per wall hour, slowest runner> per_hour`.

`--scales 1000,4000` (at least 4x apart): the night on the first runner at each size, then the slope between
them: the night's marginal CPU per US publication and its fixed cost (an average over one small world mixes
the fixed cost in: model load, servers, interpreter start-up). Last line then:
`rehearsal_marginal_cpu_ms_per_us_publication: <slope> ms`.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

NIGHT = """
import json, sys
from flows.nightly import nightly
r = nightly(data_dir=sys.argv[1], out=sys.argv[2], sources="live", profile=sys.argv[3])
print("RESULT " + json.dumps({"summary": r["summary"]}))
"""


_SUMMARY = re.compile(r"- ((?:patenteb|patentcr|ipbench|pilot|pap2pat): (?:published|nothing new|failed|deferred|"
                      r"blocked|skipped).*)$")


def generate(world: Path, scale: int, seed: int) -> dict:
    from patentfactory.sim.generator import generate_world
    from patentfactory.sim.generator.profiles import profile_spec

    generate_world(world, scale, seed, profile_spec("real", scale, seed))  # every renderer
    return json.loads((world / "world.json").read_text())["counts"]


def night(env: dict, data: Path, out: Path, profile: str, log: Path) -> dict:
    """One nightly in a child process: wall, CPU (user+sys of it and its waited descendants), peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    with open(log, "w") as fh:
        proc = subprocess.run([sys.executable, "-c", NIGHT, str(data), str(out), profile], env=env, cwd=REPO,
                              stdout=subprocess.PIPE, stderr=fh, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = next((json.loads(line[7:]) for line in proc.stdout.splitlines() if line.startswith("RESULT ")), {})
    if not result:  # the nightly raised after its summary (a dataset failed): the lines are in its log
        lines = [m.group(1) for m in map(_SUMMARY.search, log.read_text().splitlines()) if m]
        result = {"summary": lines[-5:] or [f"no summary, see {log}"]}
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"rc": proc.returncode, "wall_s": wall, "cpu_s": cpu, "peak_rss_mb": after.ru_maxrss / 1024,
            "summary": result["summary"]}


def warehouse_rows(data: Path) -> dict[str, int]:
    from patentfactory.store.storage import Storage
    from patentfactory.store.warehouse import Warehouse

    return Warehouse(Storage(data / "warehouse")).counts()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runners", default="thread,dask")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profile", default="", help="PatenTEB thresholds: sample | full (default: as the nightly "
                                                   "picks by scale, full from 5000)")
    ap.add_argument("--keep", type=Path, help="work folder to keep (default: a temporary one, removed at the end "
                                               "unless a night failed)")
    ap.add_argument("--scales", default="", help="two sizes, e.g. 1000,4000: the slope between them")
    args = ap.parse_args()
    if args.scales:
        return slopes(args, [int(s) for s in args.scales.split(",")])
    rehearse(args)


def slopes(args: argparse.Namespace, scales: list[int]) -> None:
    points = []
    for scale in scales:
        args.scale, args.runners = scale, args.runners.split(",")[0]
        points.append(rehearse(args))
    (us0, cpu0, wall0), (us1, cpu1, wall1) = points[0], points[-1]
    slope = (cpu1 - cpu0) / (us1 - us0)
    print(f"night on {args.runners}: {us0:,} -> {us1:,} US publications ({us1 / us0:.1f}x); CPU {cpu0:.0f} -> {cpu1:.0f} s "
          f"({cpu1 / cpu0:.2f}x), wall {wall0:.0f} -> {wall1:.0f} s")
    print(f"marginal {slope * 1e3:.1f} CPU-ms per US publication, fixed {cpu0 - slope * us0:.0f} CPU-s per night; "
          f"average at the small size {cpu0 / us0 * 1e3:.1f} ms (the fixed cost mixed in)")
    print(f"rehearsal_marginal_cpu_ms_per_us_publication: {slope * 1e3:.1f} ms")


def rehearse(args: argparse.Namespace) -> tuple[int, float, float]:
    """The nights of `args.runners` on one world: (US publications, CPU s, wall s) of the last runner."""
    from patentfactory.sim.upstream.process import served
    from patentfactory.sim.upstream.sparql import sparql_replica

    root = args.keep or Path(tempfile.mkdtemp(prefix="pf-rehearsal-"))
    world, drop = root / "world", root / "lens-drop"
    t0 = time.monotonic()
    counts = generate(world, args.scale, args.seed)
    drop.mkdir(parents=True, exist_ok=True)
    for f in (world / "lens").glob("*.jsonl"):
        if not (drop / f.name).exists():
            os.link(f, drop / f.name)
    us = sum(v for k, v in counts.items() if k.startswith("publications_US"))
    print(f"world scale={args.scale}: {us:,} US publications, {counts['publications']:,} publications, "
          f"{counts['ptab_decisions']:,} PTAB decisions, {counts['simple_families']:,} families, "
          f"{counts.get('claim_revisions', 0):,} EP claim revisions (generated in {time.monotonic() - t0:.0f} s)")
    rates, failed = [], False
    with served(world, root / "upstream.log") as url, \
            sparql_replica(sorted((world / "semopenalex").glob("*.nq"))) as sparql:
        for runner in args.runners.split(","):
            env = {**os.environ, "PF_UPSTREAMS__ODP_BASE_URL": url, "PF_UPSTREAMS__OPS_BASE_URL": url + "/3.2",
                   "PF_UPSTREAMS__SPARQL_ENDPOINT": sparql, "PF_UPSTREAMS__FULLTEXT_VIA": url, "PF_UPSTREAMS__LENS_EXPORTS": str(drop),
                   "PF_SINCE": "1976-01-01", "USPTO_ODP_API_KEY": "k", "EPO_OPS_KEY": "k", "EPO_OPS_SECRET": "s",
                   "PF_TASK_RUNNER": runner, "PF_DASK_WORKERS": str(args.workers), "HF_HUB_OFFLINE": "1",
                   "PREFECT_LOGGING_LEVEL": "INFO", "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                   # the nightly's temporary Prefect server keeps task runs in SQLite, which answers 503 when
                   # its writes queue up on a busy machine (PrefectHQ/prefect#8935); production runs against a
                   # Postgres-backed server (docker-compose.yml). Give SQLite the patience a loaded box needs.
                   "PREFECT_SERVER_DATABASE_TIMEOUT": "60", "PREFECT_SERVER_DATABASE_CONNECTION_TIMEOUT": "30",
                   "PREFECT_CLIENT_MAX_RETRIES": "10",
                   "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180", "PREFECT_API_REQUEST_TIMEOUT": "300"}
            data, out = root / runner / "data", root / runner / "published"
            r = night(env, data, out, args.profile or ("sample" if args.scale < 5000 else "full"), root / f"{runner}.log")
            rows = warehouse_rows(data)
            print(f"{runner}: rc={r['rc']} wall {r['wall_s']:.0f} s, CPU {r['cpu_s']:.0f} s, "
                  f"peak RSS {r['peak_rss_mb']:.0f} MB; warehouse {json.dumps(rows, sort_keys=True)}")
            for line in r["summary"]:
                print(f"  {line}")
            rates.append(us / r["wall_s"] * 3600)
            failed = failed or r["rc"] != 0
            point = (us, r["cpu_s"], r["wall_s"])
    if args.keep or failed:  # a failed night's log is where its reason is
        print(f"work folder: {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    if not args.scales:
        print(f"rehearsal_us_publications_per_hour: {min(rates):.0f} per_hour")
    return point


if __name__ == "__main__":
    main()
