"""Capacity from slopes: every stage at two world sizes, marginal CPU per US publication and fixed cost.

Runs each ingest and build stage of benchmarks/pipeline_stages.py (each in its own process, against the HTTP
and oxigraph SPARQL replicas, as the nightly runs them) on `real`-profile worlds (the real sources' ratios) at
`--small` and `--large` inventions (at least 4x apart). Per stage: CPU s at each size, the marginal CPU per US
publication (the slope between the two sizes: what one more publication costs) and the fixed cost (the
intercept: interpreter, imports, model load, replica start-up), which an average over a small world mixes in.
Then the projection from the slopes: `--first-build` US publications (default 15M: ~2,250 weekly files 2005-,
DESIGN's *estimate*) and a typical night of `--night` (default 14k: two weekly files of ~7k documents), per
stage = fixed + slope x publications. The baseline for the ratio column is the small size, same run.
Last line: `capacity_first_build_cpu_hours: <sum over stages> cpu_h`.
Usage: python benchmarks/capacity_slopes.py [--small 1000] [--large 4000]
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_patenteb import run_child  # noqa: E402
from pipeline_stages import _build, _generate, _ingest_lens, _ingest_ptab, _ingest_semopenalex, _ingest_uspto  # noqa: E402

INGESTS = (("ingest-uspto", _ingest_uspto), ("ingest-lens", _ingest_lens), ("ingest-ptab", _ingest_ptab),
           ("ingest-semopenalex", _ingest_semopenalex))
BUILDS = ("patenteb", "pilot", "pap2pat", "ipbench")


def run(scale: int) -> tuple[int, dict[str, tuple[float, float, float]]]:
    """(US publications, stage -> (wall s, CPU s, peak RSS MB)) for one world."""
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-slopes-"))
    try:
        world, data, out = str(tmp / "world"), str(tmp / "data"), str(tmp / "published")
        run_child(_generate, world, scale)
        counts = json.loads((tmp / "world" / "world.json").read_text())["counts"]
        us = sum(v for k, v in counts.items() if k.startswith("publications_US"))
        rows = {}
        for name, fn in INGESTS:
            rows[name] = run_child(fn, world, data)[:3]
        for name in BUILDS:
            rows[f"build-{name}"] = run_child(_build, name, data, out)[:3]
        return us, rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--large", type=int, default=4000)
    ap.add_argument("--first-build", type=float, default=15e6)
    ap.add_argument("--night", type=float, default=14e3)
    args = ap.parse_args()
    (us0, small), (us1, large) = run(args.small), run(args.large)
    print(f"worlds: {args.small} inventions -> {us0:,} US publications; {args.large} -> {us1:,} ({us1 / us0:.1f}x)")
    print(f"{'stage':20s} {'CPU s small':>11s} {'CPU s large':>11s} {'large/small':>11s} {'ms/US pub':>10s}"
          f" {'fixed s':>8s} {'first build CPU-h':>17s} {'night CPU-min':>13s} {'RSS MB s/l':>11s}")
    total_first = total_night = 0.0
    for name in small:
        c0, c1 = small[name][1], large[name][1]
        slope = max((c1 - c0) / (us1 - us0), 0.0)
        fixed = max(c0 - slope * us0, 0.0)
        first, night = (fixed + slope * args.first_build) / 3600, (fixed + slope * args.night) / 60
        total_first, total_night = total_first + first, total_night + night
        print(f"{name:20s} {c0:11.1f} {c1:11.1f} {c1 / c0:11.2f} {slope * 1e3:10.2f} {fixed:8.1f} {first:17.1f}"
              f" {night:13.1f} {small[name][2]:5.0f}/{large[name][2]:5.0f}")
    print(f"projection: first build {args.first_build:,.0f} US publications, night {args.night:,.0f}; "
          f"total night {total_night:.0f} CPU-min")
    print(f"capacity_first_build_cpu_hours: {total_first:.0f} cpu_h")


if __name__ == "__main__":
    main()
