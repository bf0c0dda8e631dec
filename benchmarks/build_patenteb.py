"""build-patenteb end to end on a generated world: wall time and peak RSS per stage.

Stages: generate (Lens renderer only) -> ingest Lens JSONL -> build + publish PatenTEB. Each stage
runs in its own child process so its peak RSS is its own. Goal from the issue: 100k families in
< 10 min and < 4 GB on 2 cores (the build stage).
Last line: `build_patenteb_wall: <seconds> s`.
Usage: python benchmarks/build_patenteb.py [--scale 100000] [--no-model]
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _generate(world: str, scale: int) -> None:
    from patentfactory.sim.generator import WorldSpec, generate_world

    generate_world(Path(world), scale, 1, WorldSpec(scale, 1, renderers=("lens",)))


def _ingest(world: str, data: str) -> None:
    from patentfactory.stages.ingest_files import ingest_lens

    ingest_lens(data, [Path(world) / "lens" / "lens-export.jsonl"])


def _build(data: str, out: str, use_model: bool) -> None:
    from patentfactory.stages.build_patenteb import build_and_publish_patenteb

    build_and_publish_patenteb(data, out, seed=1, profile="full", use_model=use_model,
                               overrides={"min_families_per_ipc3": 20,  # every eligible family: the widest workload,
                                          "complete_families_only": False})  # comparable with earlier runs


def _child(conn, fn, args) -> None:
    result = fn(*args)
    use, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU of child processes too (tesseract, oxigraph); peak RSS is this process's own
    conn.send((use.ru_utime + use.ru_stime + kids.ru_utime + kids.ru_stime, use.ru_maxrss / 1024, result))


def run_child(fn, *args):  # noqa: ANN201
    """(wall s, CPU s, peak RSS MB, fn's result) of `fn(*args)` in a fresh spawned process."""
    ctx = mp.get_context("spawn")
    recv, send = ctx.Pipe(duplex=False)
    t = time.perf_counter()
    p = ctx.Process(target=_child, args=(send, fn, args))
    p.start()
    p.join()
    if p.exitcode != 0:
        raise SystemExit(f"stage {fn.__name__} {args[:1]} failed with exit code {p.exitcode}")
    cpu, rss, result = recv.recv()
    return time.perf_counter() - t, cpu, rss, result


def _run(fn, *args) -> tuple[float, float]:
    """(wall seconds, this stage's own peak RSS in MB): each stage in a fresh spawned process."""
    wall, _, rss, _ = run_child(fn, *args)
    return wall, rss


def run_stages(scale: int, use_model: bool) -> list[tuple[str, float, float]]:
    """generate -> ingest-lens -> build+publish at `scale`: (stage, wall s, peak RSS MB) per stage."""
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-build-"))
    world, data, out = str(tmp / "world"), str(tmp / "data"), str(tmp / "published")
    return [("generate", *_run(_generate, world, scale)), ("ingest-lens", *_run(_ingest, world, data)),
            ("build+publish", *_run(_build, data, out, use_model))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=100_000)
    ap.add_argument("--no-model", action="store_true", help="BM25 negatives only, whitespace token counts")
    args = ap.parse_args()
    rows = run_stages(args.scale, not args.no_model)
    for name, wall, rss in rows:
        print(f"{name:14s} wall {wall:7.1f} s   peak RSS {rss:7.0f} MB")
    print(f"scale {args.scale:,} inventions, model={'off' if args.no_model else 'all-MiniLM-L6-v2'}")
    print(f"build_patenteb_wall: {rows[-1][1]:.1f} s")


if __name__ == "__main__":
    main()
