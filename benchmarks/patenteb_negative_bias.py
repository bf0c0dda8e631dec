"""How much harder are PatenTEB's dense hard negatives for the model that mined them?

The dense negatives are mined with all-MiniLM-L6-v2, the model the eval also reports as its baseline. This
measures the bias the card states: on a generated world (Lens renderer), PatenTEB's context is prepared with
both miners (BM25 and dense), and for every mined (query, negative) the baseline's triplet accuracy is taken:
cos(query, positive) > cos(query, negative), averaged per miner. A miner whose negatives the baseline ranks
above the positive more often makes the baseline's own task harder than a neutral miner's.
Last line: `dense_vs_bm25_triplet_accuracy_gap: <points> pct`.
Usage: python benchmarks/patenteb_negative_bias.py [--scale 3000]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def triplet_accuracy(ctx, encode) -> dict[str, tuple[float, int]]:  # noqa: ANN001
    """Per miner: share of (query, positive, negative) with cos(q, pos) > cos(q, neg), and the count."""
    texts = dict(ctx.families.select("family_id", "full_text").rows())
    negs = ctx.negatives.select("q_family", "group", "neg_family", "source")
    pos = ctx.pairs.select("q_family", pl.col("relation_group").alias("group"), pl.col("t_family").alias("pos"))
    trip = negs.join(pos, on=["q_family", "group"]).unique(["q_family", "group", "neg_family", "pos"])
    ids = sorted(set(trip["q_family"]) | set(trip["neg_family"]) | set(trip["pos"]))
    vec = dict(zip(ids, encode([texts[i] for i in ids])))
    out = {}
    for src in ("bm25", "dense"):
        rows = trip.filter(pl.col("source") == src).select("q_family", "pos", "neg_family").rows()
        wins = [float(vec[q] @ vec[p]) > float(vec[q] @ vec[n]) for q, p, n in rows]
        out[src] = (float(np.mean(wins)) if wins else float("nan"), len(wins))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=int, default=3000)
    args = ap.parse_args()
    from patentfactory.evaluation.encoders import load_encoder
    from patentfactory.sim.generator import WorldSpec, generate_world
    from patentfactory.stages.ingest_files import ingest_lens
    from patentfactory.store.storage import Storage
    from patentfactory.store.warehouse import Warehouse
    from transforms.families import build_families
    from transforms.tasks.patenteb import PatenTEBParams
    from transforms.tasks.patenteb_context import prepare_context

    tmp = Path(tempfile.mkdtemp())
    generate_world(tmp / "world", args.scale, 1, WorldSpec(args.scale, 1, renderers=("lens",)))
    ingest_lens(tmp / "data", [tmp / "world" / "lens" / "lens-export.jsonl"])
    wh = Warehouse(Storage(tmp / "data").sub("warehouse"))
    pubs = wh.frame("publications").lazy()
    families = wh.frame("families")
    if families.filter(pl.col("family_kind") == "simple").height == 0:
        families = build_families(pubs, wh.frame("reported_families").lazy()).collect()
    encoder = load_encoder()
    params = PatenTEBParams(seed=1, min_families_per_ipc3=20, negative_sources=("bm25", "dense"),
                            complete_families_only=False)  # every eligible family: the figure the card quotes
    ctx = prepare_context(pubs, wh.frame("claims").lazy(), wh.frame("citations").lazy(), families.lazy(), params,
                          encode=encoder)
    acc = triplet_accuracy(ctx, encoder)
    for src, (a, n) in acc.items():
        print(f"all-MiniLM-L6-v2 triplet accuracy on {src}-mined negatives: {a:.3f} over {n} triplets")
    print(f"dense_vs_bm25_triplet_accuracy_gap: {100 * (acc['bm25'][0] - acc['dense'][0]):.1f} pct")


if __name__ == "__main__":
    main()
