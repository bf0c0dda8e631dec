"""Flow `nightly`: world (offline) or live upstreams -> ingest -> build -> publish -> verify.

Offline (the default) serves the sample or a generated world through the local replica, so
the same clients run as against the live services; only the base URL differs.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path

from prefect import flow, get_run_logger, task

from patentfactory import stages
from patentfactory.upstream import Replica

from .build_patenteb import build_patenteb
from .ingest_lens import ingest_lens_task
from .ingest_uspto import ingest_uspto_task

SAMPLE_WORLD = Path(__file__).resolve().parents[1] / "data" / "sample"


@task(name="prepare-world")
def prepare_world(scale: str, seed: int, data_dir: str) -> str:
    if scale == "sample":
        return str(SAMPLE_WORLD)
    from patentfactory.generator import generate_world

    world = Path(data_dir) / "world"
    generate_world(world, int(scale), seed)
    return str(world)


def lens_files(world: str) -> list[str]:
    return [str(p) for p in sorted((Path(world) / "lens").glob("*.jsonl"))]


@flow(name="nightly")
def nightly(scale: str = "sample", data_dir: str = "data", out: str = "data/published", seed: int = 1337) -> dict:
    log = get_run_logger()
    world = prepare_world(scale, seed, data_dir)
    with Replica(world) as rep:
        log.info("upstream replica of %s at %s", world, rep.base_url)
        uspto = ingest_uspto_task(data_dir, rep.base_url, date(1976, 1, 1), date(2100, 1, 1), "replica-key")
    lens = ingest_lens_task(data_dir, lens_files(world))
    profile = "sample" if scale == "sample" or int(scale) < 5000 else "full"
    patenteb = build_patenteb(data_dir=data_dir, out=out, seed=seed, profile=profile)
    return {"uspto": uspto, "lens": lens, "patenteb": patenteb}
