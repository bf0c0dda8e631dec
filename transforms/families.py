"""Patent families rebuilt from priority claims (pure: LazyFrames in, LazyFrames out).

- simple (DOCDB-like): publications whose SETS of priority filings are identical.
- extended (INPADOC-like): connected components of the publication–priority graph; two publications
  are in one family when a chain of shared priorities links them.

A priority is identified by its application key (`common.patent_ids.app_id`); its date is ignored (offices
disagree on dates far more often than on numbers). A publication without priority claims is its own
priority: its application id stands in (or its pub_id when even that is missing).

Family ids are natural keys, deterministic and independent of row order or library version:
`S:` + the sorted priority keys joined by `+` (the set itself) and `E:` + the smallest priority key of
the component. US continuity (continuations, divisionals) is NOT followed here: only priority claims.

Reported families (`reported`, rows of the `reported_families` table) join what the priorities alone
would keep apart: publications a source puts in one DOCDB family (EPO OPS `family-id`) are one simple
family, and any reported family lies inside one extended family. This mends priorities that are missing
or written differently in one source. Only sources in RECONSTRUCTION_SOURCES are used: EPO OPS ids are
the EPO's own DOCDB/INPADOC assignment; Lens rows are kept to check our result against (compare_with_reported),
so using them here would check the result against itself. Ids stay as above: a merged simple family is
named by its smallest priority set, an extended one by its smallest priority key.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from common.patent_ids import app_key_expr

SIMPLE, EXTENDED = "simple", "extended"
RECONSTRUCTION_SOURCES = ("epo_ops",)
_REPORTED = "~"  # reported keys sort after every priority key, so a component is still named by a priority
FAMILY_SCHEMA = {"family_id": pl.String, "pub_id": pl.String, "family_kind": pl.String}
_COMP_SCHEMA = {"pub_id": pl.String, "family_id": pl.String}


def _key(country: pl.Expr, number: pl.Expr) -> pl.Expr:
    """'us' + 'US 62/130,600' or Lens 'US' + '201562130600' -> 'US-62130600': `patent_ids.app_id`, the one
    application key every source writes, so a priority joins whichever source wrote it (null when unreadable)."""
    return app_key_expr(country, number)


def priority_keys(publications: pl.LazyFrame) -> pl.LazyFrame:
    """(pub_id, prio_key), one row per distinct priority of each publication; never empty per pub."""
    exploded = publications.select("pub_id", "app_id", "priorities").explode("priorities")
    keyed = exploded.with_columns(
        _key(pl.col("priorities").struct.field("country"), pl.col("priorities").struct.field("number"))
        .alias("prio_key"))
    own = pl.coalesce(_key(pl.col("app_id").str.split("-").list.first(),
                           pl.col("app_id").str.split("-").list.slice(1).list.join("")),
                      pl.lit("PUB:") + pl.col("pub_id"))
    real = keyed.filter(pl.col("prio_key").is_not_null()).select("pub_id", "prio_key")
    fallback = publications.select("pub_id", own.alias("prio_key")).join(real, on="pub_id", how="anti")
    return pl.concat([real, fallback]).unique()


def reported_keys(reported: pl.LazyFrame | None, kinds: tuple[str, ...]) -> pl.LazyFrame | None:
    """(pub_id, key) edges from the reported families of `kinds` by RECONSTRUCTION_SOURCES; None without any."""
    if reported is None:
        return None
    rows = reported.filter(pl.col("source").is_in(RECONSTRUCTION_SOURCES) & pl.col("family_kind").is_in(kinds))
    edges = rows.select("pub_id", (pl.lit(_REPORTED) + pl.col("family_kind") + ":" + pl.col("source") + ":"
                                   + pl.col("family_id")).alias("prio_key")).collect()  # small: a side table
    return edges.lazy() if edges.height else None


def _with_reported(keys: pl.LazyFrame, reported: pl.LazyFrame | None) -> pl.LazyFrame:
    """Priority edges plus reported edges of publications we have (a reported member we lack adds nothing)."""
    if reported is None:
        return keys
    known = reported.join(keys.select("pub_id").unique(), on="pub_id", how="semi")
    return pl.concat([keys, known]).unique()


def simple_families(publications: pl.LazyFrame, reported: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """Same priority set => same family; id `S:` + the sorted set. Reported DOCDB families merge sets:
    the merged family is named by its smallest set."""
    keys = priority_keys(publications)
    signature = keys.group_by("pub_id").agg(
        pl.col("prio_key").unique().sort().str.join("+").alias("signature"))
    extra = reported_keys(reported, (SIMPLE,))
    if extra is not None:
        edges = _with_reported(signature.select("pub_id", pl.col("signature").alias("prio_key")), extra)
        comps = edges.map_batches(lambda df: _components(df, "S:"), schema=_COMP_SCHEMA, streamable=False)
        return comps.select("family_id", "pub_id", pl.lit(SIMPLE).alias("family_kind"))
    return signature.select((pl.lit("S:") + pl.col("signature")).alias("family_id"), "pub_id",
                            pl.lit(SIMPLE).alias("family_kind"))



def _components(edges: pl.DataFrame, prefix: str = "E:") -> pl.DataFrame:
    """Connected components of the pub–key graph with vectorised hooking + pointer jumping (numpy).

    Keys are ranked in string order, so the root of each component is its smallest key; each
    publication links all its keys to its smallest one. Runs in O(E log V) array passes, no per-row
    Python, memory a few integer arrays of the edge count."""
    if edges.height == 0:
        return pl.DataFrame(schema=_COMP_SCHEMA)
    ranked = edges.with_columns(pl.col("prio_key").rank("dense").cast(pl.Int64).sub(1).alias("k"))
    ranked = ranked.with_columns(pl.col("k").min().over("pub_id").alias("k0"))
    a, b = ranked["k"].to_numpy(), ranked["k0"].to_numpy()
    label = np.arange(int(ranked["k"].max()) + 1, dtype=np.int64)
    while True:
        ra, rb = label[a], label[b]
        if np.array_equal(ra, rb):
            break
        np.minimum.at(label, np.maximum(ra, rb), np.minimum(ra, rb))
        while not np.array_equal(label[label], label):
            label = label[label]
    names = ranked.select("k", "prio_key").unique("k").sort("k")["prio_key"]
    root_name = names.gather(pl.Series(label[b]))
    out = pl.DataFrame({"pub_id": ranked["pub_id"], "family_id": prefix + root_name})
    return out.unique("pub_id")


def extended_families(publications: pl.LazyFrame, reported: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """Publications connected through any chain of shared priorities (or a reported family of either kind);
    id `E:` + smallest priority key of the component.

    The graph step runs when the caller collects (map_batches), so this function stays lazy."""
    keys = _with_reported(priority_keys(publications), reported_keys(reported, (SIMPLE, EXTENDED)))
    comps = keys.map_batches(_components, schema=_COMP_SCHEMA, streamable=False)
    return comps.select("family_id", "pub_id", pl.lit(EXTENDED).alias("family_kind"))


def build_families(publications: pl.LazyFrame, reported: pl.LazyFrame | None = None) -> pl.LazyFrame:
    """Both kinds as rows of the `families` table, sorted (kind, family, pub) for byte-stable output.

    `reported`: the `reported_families` table (any sources; only RECONSTRUCTION_SOURCES are used)."""
    return pl.concat([simple_families(publications, reported), extended_families(publications, reported)]) \
        .cast(FAMILY_SCHEMA).sort("family_kind", "family_id", "pub_id")


def compare_with_reported(families: pl.LazyFrame, reported: pl.LazyFrame, kind: str) -> pl.LazyFrame:
    """Per reported family of `kind`: how many of our families its known members fall into.

    Only members we know (present in `families`) count; `n_ours == 1` means agreement."""
    ours = families.filter(pl.col("family_kind") == kind).select("pub_id", pl.col("family_id").alias("ours"))
    rep = reported.filter(pl.col("family_kind") == kind).select("source", "family_id", "pub_id")
    return rep.join(ours, on="pub_id", how="inner").group_by("source", "family_id").agg(
        pl.col("pub_id").n_unique().alias("n_members"), pl.col("ours").n_unique().alias("n_ours"),
        pl.col("ours").unique().sort().alias("our_family_ids")).sort("source", "family_id")
