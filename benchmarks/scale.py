"""Scale: generate -> ingest -> build-patenteb -> publish at two sizes, time and peak RSS per stage.

Runs `benchmarks/build_patenteb.run_stages` (each stage in its own process) at --small and --large
inventions and prints, per stage, the growth of wall time and of peak RSS divided by the growth in
size: 1.0 is linear, above 1 super-linear. Defaults are 10k and 100k (about an hour on 2 cores with
the model; `--no-model` for BM25-only negatives).
Last line: `scale_growth_vs_linear: <build+publish time growth / size growth> ratio`.
Usage: python benchmarks/scale.py [--small 10000] [--large 100000] [--no-model]

`--pipeline`: every ingest and build stage (benchmarks/pipeline_stages.py) on `real`-profile worlds at the
two sizes: wall, CPU seconds and peak RSS per stage and their growth against the size's (issue 18: ingest
stays flat, builds grow sub-linearly). Last line: `pipeline_rss_growth_vs_linear: <max over builds> ratio`.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_patenteb import run_stages  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--large", type=int, default=100_000)
    ap.add_argument("--no-model", action="store_true", help="BM25 negatives only, whitespace token counts")
    ap.add_argument("--pipeline", action="store_true", help="every stage on real-profile worlds")
    args = ap.parse_args()
    size_growth = args.large / args.small
    if args.pipeline:
        return pipeline(args.small, args.large)
    small = run_stages(args.small, not args.no_model)
    large = run_stages(args.large, not args.no_model)
    print(f"{'stage':14s} {'wall ' + str(args.small):>12s} {'wall ' + str(args.large):>12s} "
          f"{'RSS ' + str(args.small):>11s} {'RSS ' + str(args.large):>11s}  time/linear  RSS/linear")
    for (name, w0, r0), (_, w1, r1) in zip(small, large):
        print(f"{name:14s} {w0:10.1f} s {w1:10.1f} s {r0:8.0f} MB {r1:8.0f} MB  "
              f"{w1 / w0 / size_growth:11.2f} {r1 / r0 / size_growth:11.2f}")
    print(f"size growth {size_growth:.1f}x, model={'off' if args.no_model else 'all-MiniLM-L6-v2'}")
    print(f"scale_growth_vs_linear: {large[-1][1] / small[-1][1] / size_growth:.2f} ratio")


def pipeline(small_n: int, large_n: int) -> None:
    from pipeline_stages import run_pipeline

    growth = large_n / small_n
    small, large = run_pipeline(small_n), run_pipeline(large_n)
    print(f"{'stage':20s} {'wall':>15s} {'cpu':>15s} {'peak RSS MB':>13s}  RSS/linear items")
    for (name, w0, c0, r0, i0), (_, w1, c1, r1, i1) in zip(small, large):
        print(f"{name:20s} {w0:6.1f}/{w1:7.1f} s {c0:6.1f}/{c1:7.1f} s {r0:5.0f}/{r1:6.0f}  {r1 / r0 / growth:9.2f} "
              f"{i0}/{i1}")
    builds = [r1 / r0 / growth for (n, *_, r0, _i0), (_, *_, r1, _i1) in zip(small, large) if n.startswith("build")]
    print(f"sizes {small_n} and {large_n} inventions ({growth:.1f}x)")
    print(f"pipeline_rss_growth_vs_linear: {max(builds):.2f} ratio")


if __name__ == "__main__":
    main()
