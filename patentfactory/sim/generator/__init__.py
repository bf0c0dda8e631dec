"""Deterministic synthetic patent world, rendered in each upstream's real wire format.

`generate_world(out_dir, scale, seed)` draws one world (inventions, priorities, families in
US/EP/JP/CN/WO, citations, inventors, papers, PTAB appeals, EP claim revisions), writes the ground
truth under `truth/`, renders every registered source (`renderers/`) and writes `world.json` last.

Layout of `out_dir`:
    truth/{families,publications,citations,papers,paper_pairs,ptab_labels,claim_revisions}.parquet
    uspto/PTGRXML/ipgYYMMDD.zip, uspto/APPXML/ipaYYMMDD.zip      (US members inside the render window)
    lens/lens-export.csv, lens/lens-export.jsonl                 (every member of every family)
    ops/published-data/publication/docdb/EP.N.K/{biblio,claims}.xml, ops/family/publication/docdb/EP.N.K.xml
    world.json                                                   (written last)
"""
from .generate import WorldSummary, generate_world
from .world import World, WorldSpec, build_world

__all__ = ["World", "WorldSpec", "WorldSummary", "build_world", "generate_world"]
