"""`generate_world`: build the world model, write the ground truth, run the renderers, and write
`world.json` last (its presence marks a complete world).
"""
from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from .numbering import iso
from .renderers import render
from .truth import write_truth
from .world import World, WorldSpec, build_world

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WorldSummary:
    """What was generated: counts per entity and files per renderer."""
    out_dir: Path
    scale: int
    seed: int
    counts: dict[str, int] = field(default_factory=dict)
    files: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        c = self.counts
        return (f"{c.get('inventions', 0)} inventions, {c.get('publications', 0)} publications, "
                f"{c.get('citations', 0)} citations, files {dict(self.files)}")


def count_entities(world: World) -> dict[str, int]:
    """Entity counts for world.json and the summary."""
    pubs = world.pubs
    by_kind = Counter(f"{c}-{k}" for c, k in zip(pubs["cc"].tolist(), pubs["kind"].tolist()))
    counts = {"inventions": world.n, "applications": len(world.apps["inv"]), "publications": len(pubs["inv"]),
              "priorities": len(world.prio.country), "simple_families": len(set(world.inv["simple_id"].tolist())),
              "extended_families": len(set(world.inv["ext_id"].tolist())), "citations": len(world.cites["cited"]),
              "npl_citations": sum(len(v) for v in world.npl.values()), "people": len(world.people),
              "organisations": len(world.orgs), "papers": len(world.papers), "paper_pairs": len(world.paper_pairs),
              "true_paper_pairs": sum(1 for r in world.paper_pairs if r["is_true"]), "ptab_decisions": len(world.ptab)}
    counts.update({f"publications_{k}": v for k, v in sorted(by_kind.items())})
    return counts


def _world_json(world: World, counts: dict[str, int], files: dict[str, list[Path]], out: Path) -> Path:
    lo, hi = world.spec.window
    doc = {"generator": "patentfactory.sim.generator", "scale": world.spec.scale, "seed": world.spec.seed,
           "date_range": {"from": world.spec.start, "to": world.spec.end,
                          "first_publication": iso(int(world.pubs["date"].min())),
                          "last_publication": iso(int(world.pubs["date"].max()))},
           "render_window": {"from": iso(lo), "to": iso(hi)}, "counts": counts,
           "renderers": [k for k in files if k != "truth"], "files": {k: len(v) for k, v in files.items()},
           "truth": sorted(p.name for p in (out / "truth").glob("*.parquet"))}
    if knobs := spec_json(world.spec):  # a profile's knobs (a default world's world.json has none)
        doc["spec"] = knobs
    path = out / "world.json"
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


def spec_json(spec: WorldSpec) -> dict:
    """The knobs that differ from a default WorldSpec (so `spec_from_json` rebuilds the same world)."""
    default = WorldSpec(spec.scale, spec.seed)
    return {f.name: getattr(spec, f.name) for f in fields(spec)
            if f.name not in ("scale", "seed") and getattr(spec, f.name) != getattr(default, f.name)}


def spec_from_json(doc: dict) -> WorldSpec:
    """world.json -> the WorldSpec it was generated with (worlds written before `spec` was kept: defaults)."""
    knobs = {k: tuple(v) if isinstance(v, list) else v for k, v in doc.get("spec", {}).items()}
    return WorldSpec(scale=doc["scale"], seed=doc["seed"], **knobs)


def generate_world(out_dir: Path, scale: int, seed: int, spec: WorldSpec | None = None) -> WorldSummary:
    """Generate a world of `scale` inventions into `out_dir` (same scale+seed => byte-identical files)."""
    if scale <= 0:
        raise ValueError(f"scale must be a positive number of inventions, got {scale}")
    spec = replace(spec, scale=scale, seed=seed) if spec else WorldSpec(scale=scale, seed=seed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stale = out / "world.json"
    if stale.exists():
        stale.unlink()
    world = build_world(spec)
    truth = write_truth(world, out / "truth")
    files = render(world, out, spec.renderers)
    files["truth"] = truth
    counts = count_entities(world)
    counts["claim_revisions"] = _count_rows(out / "truth" / "claim_revisions.parquet")
    _world_json(world, counts, files, out)
    log.info("generated world scale=%d seed=%d in %s", scale, seed, out)
    return WorldSummary(out, scale, seed, counts, {k: len(v) for k, v in files.items()})


def _count_rows(path: Path) -> int:
    import pyarrow.parquet as pq
    return pq.ParquetFile(path).metadata.num_rows
