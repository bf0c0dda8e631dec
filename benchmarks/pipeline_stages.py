"""Every ingest and build stage on a `real`-profile world: wall, CPU seconds and peak RSS per stage.

Each stage runs in its own spawned process (its peak RSS is its own), against the HTTP replica (USPTO ODP
weekly files, PTAB search + PDFs) and an oxigraph SPARQL replica (SemOpenAlex), like the nightly.
`run_pipeline(scale)` returns (stage, wall s, cpu s, peak RSS MB, items) rows; benchmarks/scale.py runs it
at two sizes. Usage: python benchmarks/pipeline_stages.py --scale 2000
Last line: `pipeline_wall: <seconds> s`.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_patenteb import run_child  # noqa: E402

FAR = (date(1976, 1, 1), date(2100, 1, 1))


def _generate(world: str, scale: int) -> int:
    from patentfactory.sim.generator import generate_world
    from patentfactory.sim.generator.profiles import profile_spec

    spec = replace(profile_spec("real", scale, 1), renderers=("uspto", "lens", "ptab", "semopenalex"))
    return generate_world(Path(world), scale, 1, spec).counts.get("publications", scale)


def _ingest_uspto(world: str, data: str) -> int:
    from patentfactory.sim.upstream import Replica
    from patentfactory.stages.ingest_files import ingest_uspto

    with Replica(Path(world)) as rep:
        return sum(ingest_uspto(data, rep.base_url, *FAR, "key")["records"].values())


def _ingest_lens(world: str, data: str) -> int:
    from patentfactory.stages.ingest_files import ingest_lens

    return sum(ingest_lens(data, [Path(world) / "lens" / "lens-export.jsonl"])["records"].values())


def _ingest_ptab(world: str, data: str) -> int:
    from patentfactory.sim.upstream import Replica
    from patentfactory.stages.ingest_ptab import ingest_ptab

    with Replica(Path(world)) as rep:
        return ingest_ptab(data, rep.base_url, *FAR, "key")["pdfs"]


def _ingest_semopenalex(world: str, data: str) -> int:
    from patentfactory.sim.upstream.sparql import sparql_replica
    from patentfactory.stages.build_pap2pat import ingest_semopenalex

    with sparql_replica(sorted(str(p) for p in (Path(world) / "semopenalex").glob("*.nq"))) as url:
        return ingest_semopenalex(data, url)["names"]


def _build(name: str, data: str, out: str) -> int:
    from patentfactory.errors import NothingToPublish
    from patentfactory.stages import build_ipbench, build_pap2pat, build_patenteb, build_pilot
    from patentfactory.store.publish_options import PublishOptions

    gate = PublishOptions(allow_drop=True)
    fns = {"patenteb": lambda: build_patenteb.build_and_publish_patenteb(data, out, seed=1, profile="full",
                                                                         overrides={"min_families_per_ipc3": 20,
                                                                                    "complete_families_only": False}),
           "pilot": lambda: build_pilot.build_and_publish_pilot(data, out, publish_options=gate),
           "pap2pat": lambda: build_pap2pat.publish_pap2pat(data, out, publish_options=gate),
           "ipbench": lambda: build_ipbench.build_and_publish_ipbench(data, out, publish_options=gate)}
    try:
        fns[name]()
    except NothingToPublish:
        return 0
    return 1


def run_pipeline(scale: int) -> list[tuple[str, float, float, float, int]]:
    tmp = Path(tempfile.mkdtemp(prefix="pf-bench-pipeline-"))
    world, data, out = str(tmp / "world"), str(tmp / "data"), str(tmp / "published")
    rows = [("generate", *run_child(_generate, world, scale))]
    for name, fn in (("ingest-uspto", _ingest_uspto), ("ingest-lens", _ingest_lens), ("ingest-ptab", _ingest_ptab),
                     ("ingest-semopenalex", _ingest_semopenalex)):
        rows.append((name, *run_child(fn, world, data)))
    for name in ("patenteb", "pilot", "pap2pat", "ipbench"):
        rows.append((f"build-{name}", *run_child(_build, name, data, out)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=2000)
    args = ap.parse_args()
    rows = run_pipeline(args.scale)
    for name, wall, cpu, rss, items in rows:
        print(f"{name:20s} {wall:8.1f} s wall {cpu:8.1f} s cpu {rss:7.0f} MB  {items} items")
    print(f"pipeline_wall: {sum(r[1] for r in rows):.1f} s")


if __name__ == "__main__":
    main()
