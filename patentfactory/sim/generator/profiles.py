"""Generator profiles: `pf generate --profile real --scale N` draws a world in the real sources' proportions.

The default world is tuned for tests (5 % of US applications appealed, every invention rendered since
`end - 3 years`). The `real` profile keeps the ratios that drive the real build's cost, so a rehearsal at
N inventions is a scaled copy of the real first build (docs/capacity.md). The target figures and where they
come from (real, REAL_RATIOS) sit next to what a generated world has (`ratios(world_dir)`, read from its
ground truth); tests/generator/test_profiles.py checks them on a small world. The `sample` profile is the
embedded world of `make run` (SAMPLE_KNOBS below): the test world enriched so every benchmark split has rows.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl

from .world import WorldSpec

# (target, tolerance as a fraction of it, source of the real figure)
REAL_RATIOS: dict[str, tuple[float, float, str]] = {
    # USPTO: ~6.7M pre-grant publications 2005..Apr 2024 (Pap2Pat paper) against ~5.6M utility grants over the
    # same years (USPTO Patent Technology Monitoring Team, calendar-year counts): about 0.8 grants per A1.
    "us_grants_per_application": (0.8, 0.3, "USPTO PTMT utility grants 2005-2024 / Pap2Pat's 6.7M A1"),
    # PTAB: 25,829 decision PDFs (PILOT-Bench) for ~6.7M applications of the same years: ~0.4 % appealed.
    "ptab_decisions_per_us_application": (0.004, 0.6, "PILOT-Bench 25,829 PDFs / 6.7M US applications"),
    # PILOT-Bench: "many older decisions are scanned"; a quarter of the generator's PDFs are image-only.
    "ptab_scanned_share": (0.25, 0.5, "PILOT-Bench (share not published; >= 20 % asked by issue 18)"),
    # EP: about 55 % of EP A publications are granted (EPO annual report: ~190k A vs ~105k B1 a year).
    "ep_b1_per_a": (0.55, 0.3, "EPO Patent Index / annual report 2015-2023"),
    # Lens: PatenTEB's ~150k families hold ~2.3 US documents each (A1 + grant, continuations): Lens
    # families are counted per simple family, US documents per family ~1.5-2.5.
    "us_documents_per_family_with_us": (1.8, 0.4, "PatenTEB sp150k / Lens family sizes (estimate)"),
    # SemOpenAlex: a common inventor name (e.g. 'Wei Wang') maps to hundreds of authors; the median name to
    # one. The generator draws names from finite pools, so the most common name is shared by many people.
    "people_per_most_common_name": (20.0, 0.9, "SemOpenAlex author name collisions (estimate)"),
}

PROFILES = ("test", "real", "sample")

# The embedded sample world (data/sample, `pf generate --profile sample --scale 300 --seed 1337`): the test
# world plus what a few hundred inventions need for every benchmark split to have rows: more papers and
# appeals per US application, product lines (identical classifications) and EP grants in each month of
# Patent-CR's window (enrich.py). Stated in the dataset cards (sample build profile).
SAMPLE_KNOBS: dict[str, object] = {"paper_rate": 0.25, "ptab_rate": 0.1, "portfolio_rate": 0.35,
                                   "grant_months": tuple(f"2024-{m:02d}" for m in range(1, 7)), "grants_per_month": 2}


def profile_spec(profile: str, scale: int, seed: int) -> WorldSpec | None:
    """The WorldSpec of a profile; None for the default (`test`) world."""
    if profile == "test":
        return None
    if profile == "real":
        # PTAB decisions from 2006 and Pap2Pat's filing range need every US weekly file since 2005 rendered.
        return WorldSpec(scale, seed, start="1995-01-01", end="2024-12-31", render_from="2005-01-01",
                         ptab_rate=REAL_RATIOS["ptab_decisions_per_us_application"][0])
    if profile == "sample":
        return WorldSpec(scale, seed, **SAMPLE_KNOBS)  # type: ignore[arg-type]
    raise ValueError(f"unknown generator profile {profile!r} (one of {', '.join(PROFILES)})")


def ratios(world_dir: str | Path) -> dict[str, float]:
    """The REAL_RATIOS quantities of a generated world, from its ground truth."""
    truth = Path(world_dir) / "truth"
    pubs = pl.read_parquet(truth / "publications.parquet", columns=["pub_id", "country", "kind", "app_date",
                                                                   "inventors"])
    fams = pl.read_parquet(truth / "families.parquet")
    ptab = pl.read_parquet(truth / "ptab_opinions.parquet", columns=["image_only"]) \
        if (truth / "ptab_opinions.parquet").exists() else pl.DataFrame({"image_only": []}, schema={"image_only": bool})
    us = pubs.filter((pl.col("country") == "US") & (pl.col("app_date") >= pl.date(2005, 1, 1)))
    n_a1 = us.filter(pl.col("kind") == "A1").height
    n_grant = us.filter(pl.col("kind").is_in(["B1", "B2"])).height
    ep = pubs.filter(pl.col("country") == "EP")
    us_fams = fams.join(pubs.filter(pl.col("country") == "US").select("pub_id"), on="pub_id")
    people = (pubs.select(pl.col("inventors").explode().struct.field("name", "person_id")).drop_nulls()
              .unique().group_by("name").len())
    return {
        "us_grants_per_application": n_grant / max(n_a1, 1),
        "ptab_decisions_per_us_application": ptab.height / max(n_a1, 1),
        "ptab_scanned_share": float(ptab["image_only"].mean() or 0.0),
        "ep_b1_per_a": ep.filter(pl.col("kind") == "B1").height / max(ep.filter(pl.col("kind").is_in(["A1", "A2"])).height, 1),
        "us_documents_per_family_with_us": us_fams.height / max(us_fams["simple_family_id"].n_unique(), 1),
        "people_per_most_common_name": float(people["len"].max() or 0),
    }
