"""Capacity from slopes: every stage at two world sizes, marginal CPU per US publication and fixed cost.

Runs each ingest and build stage of benchmarks/pipeline_stages.py (each in its own process, against the HTTP
and oxigraph SPARQL replicas, as the nightly runs them) on `real`-profile worlds (the real sources' ratios) at
`--small` and `--large` inventions (at least 4x apart). Per stage: CPU s at each size, the marginal CPU per US
publication (the slope between the two sizes: what one more publication costs) and the fixed cost (the
intercept: interpreter, imports, model load, replica start-up), which an average over a small world mixes in.
Then the projection from the slopes, per stage in the unit that drives it (`UNITS`: US publications, Lens
families, PTAB decisions, applications; the world keeps the real sources' ratios between them) times its real
volume for a first build (`REAL`, DESIGN's volumes) and for a night (`NIGHT`: two weekly files of ~7k
documents; a build that republishes reads the whole warehouse, so its night is its first build less cached
embeddings, not listed). The baseline for the ratio column is the small size, same run.
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
# stage -> (world count that drives it, real first-build volume, a night's volume or None for a rebuild)
UNITS = {"ingest-uspto": ("us_publications", 15e6, 14e3), "ingest-lens": ("simple_families", 150e3, 0.0),
         "ingest-ptab": ("ptab_decisions", 25_829, 50.0), "ingest-semopenalex": ("applications", 6.7e6, 7e3),
         "build-patenteb": ("simple_families", 150e3, None), "build-pilot": ("ptab_decisions", 25_829, None),
         "build-pap2pat": ("applications", 6.7e6, None), "build-ipbench": ("us_publications", 15e6, None)}


def run(scale: int) -> tuple[dict[str, int], dict[str, tuple[float, float, float]]]:
    """(world counts incl. us_publications, stage -> (wall s, CPU s, peak RSS MB)) for one world."""
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-slopes-"))
    try:
        world, data, out = str(tmp / "world"), str(tmp / "data"), str(tmp / "published")
        run_child(_generate, world, scale)
        counts = json.loads((tmp / "world" / "world.json").read_text())["counts"]
        counts["us_publications"] = sum(v for k, v in counts.items() if k.startswith("publications_US"))
        rows = {}
        for name, fn in INGESTS:
            rows[name] = run_child(fn, world, data)[:3]
        for name in BUILDS:
            rows[f"build-{name}"] = run_child(_build, name, data, out)[:3]
        return counts, rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", type=int, default=1000)
    ap.add_argument("--large", type=int, default=4000)
    args = ap.parse_args()
    (n0, small), (n1, large) = run(args.small), run(args.large)
    us0, us1 = n0["us_publications"], n1["us_publications"]
    print(f"worlds: {args.small} inventions -> {us0:,} US publications; {args.large} -> {us1:,} ({us1 / us0:.1f}x)")
    print(f"{'stage':20s} {'CPU s small':>11s} {'CPU s large':>11s} {'large/small':>11s} {'unit':>16s} {'units s/l':>13s}"
          f" {'ms/unit':>8s} {'fixed s':>8s} {'real units':>11s} {'first CPU-h':>11s} {'night CPU-min':>13s}")
    total_first = total_night = 0.0
    for name in small:
        unit, real, night_units = UNITS[name]
        c0, c1, u0, u1 = small[name][1], large[name][1], n0.get(unit, 0), n1.get(unit, 0)
        slope = max((c1 - c0) / (u1 - u0), 0.0) if u1 > u0 else 0.0
        fixed = max(c0 - slope * u0, 0.0)
        first = (fixed + slope * real) / 3600
        night = "rebuild" if night_units is None else f"{(fixed + slope * night_units) / 60:.1f}"
        total_first += first
        total_night += 0.0 if night_units is None else (fixed + slope * night_units) / 60
        print(f"{name:20s} {c0:11.1f} {c1:11.1f} {c1 / c0:11.2f} {unit:>16s} {u0:6d}/{u1:6d} {slope * 1e3:8.2f}"
              f" {fixed:8.1f} {real:11,.0f} {first:11.1f} {night:>13s}")
    print(f"ingest stages of a night: {total_night:.1f} CPU-min; a stage whose unit barely grows between the sizes "
          f"(PTAB decisions: the generator's minimum) has no usable slope")
    print(f"capacity_first_build_cpu_hours: {total_first:.0f} cpu_h")


if __name__ == "__main__":
    main()
