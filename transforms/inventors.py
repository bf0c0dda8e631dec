"""Precision-first inventor identity for PatenTEB's `clusters_inventor` (the paper groups by inventor id).

Lens gives inventor names, not identifiers, and a name alone is shared by many people ("guo bo",
"suzuki haruto"). Two families' occurrences of one normalised name are the same inventor only when the
families also share evidence: another inventor (co-inventor) or an applicant. A name alone never joins two
families. Inventor countries are not addresses (a country is shared by millions) and are not used.
The same-inventor links of one name are closed transitively (connected components); the inventor id is
`<name key>#<smallest family id of the component>`, so it derives from natural keys only.
"""
from __future__ import annotations

import polars as pl

_EMPTY = {"family_id": pl.String, "inventor_id": pl.String, "name_key": pl.String}


def name_key(name: pl.Expr) -> pl.Expr:
    """Lower-cased word tokens, sorted: `WANG Shurong`, `Shurong Wang` and `wang, shurong` agree."""
    tokens = name.str.to_lowercase().str.replace_all(r"[^\w]+", " ").str.strip_chars().str.split(" ")
    return tokens.list.eval(pl.element().filter(pl.element().str.len_chars() > 0)).list.sort().list.join(" ")


def applicant_key(name: pl.Expr) -> pl.Expr:
    """Lower-cased, punctuation-free applicant name (`Sakura K.K.` = `SAKURA KK`, `Tech. Corp.` = `TECH CORP`)."""
    return (name.str.to_lowercase().str.replace_all(r"[.'’]", "").str.replace_all(r"[^\w]+", " ")
            .str.replace_all(r"\s+", " ").str.strip_chars())


def family_people(people: pl.DataFrame) -> pl.DataFrame:
    """(family_id, inventor, applicant) rows -> per family: `inventors` and `applicants` key lists.

    `people` holds one row per (family, inventor name) or (family, applicant name); either may be null.
    """
    keyed = people.select("family_id", name_key(pl.col("inventor")).alias("inv"),
                          applicant_key(pl.col("applicant")).alias("app"))
    return keyed.group_by("family_id").agg(
        pl.col("inv").filter(pl.col("inv").str.len_chars() > 0).unique().sort().alias("inventors"),
        pl.col("app").filter(pl.col("app").str.len_chars() > 0).unique().sort().alias("applicants"),
    ).sort("family_id")


def _evidence(fams: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(name_key, family_id) occurrences and (name_key, family_id, evidence) rows: co-inventors, applicants."""
    occ = fams.select("family_id", pl.col("inventors").alias("name_key")).explode("name_key").drop_nulls().unique()
    co = (occ.join(occ.rename({"name_key": "other"}), on="family_id").filter(pl.col("other") != pl.col("name_key"))
          .select("name_key", "family_id", (pl.lit("c:") + pl.col("other")).alias("evidence")))
    apps = fams.select("family_id", pl.col("applicants").alias("a")).explode("a").drop_nulls()
    ap = occ.join(apps, on="family_id").select("name_key", "family_id", (pl.lit("a:") + pl.col("a")).alias("evidence"))
    return occ, pl.concat([co, ap]).unique()


def _components(nodes: pl.DataFrame, links: pl.DataFrame) -> pl.DataFrame:
    """Min-label propagation over undirected (name_key, a, b) links until stable: (name_key, family_id, root)."""
    labels = nodes.with_columns(pl.col("family_id").alias("root"))
    both = pl.concat([links, links.select("name_key", pl.col("b").alias("a"), pl.col("a").alias("b"))])
    while True:
        step = (both.join(labels.rename({"family_id": "b", "root": "r"}), on=["name_key", "b"])
                .group_by("name_key", "a").agg(pl.col("r").min()))
        new = (labels.join(step.rename({"a": "family_id"}), on=["name_key", "family_id"], how="left")
               .select("name_key", "family_id", pl.min_horizontal("root", "r").alias("root")))
        if new.sort("name_key", "family_id").equals(labels.sort("name_key", "family_id")):
            return new
        labels = new


def assign_inventor_ids(fams: pl.DataFrame) -> tuple[pl.DataFrame, dict[str, int]]:
    """(family_id, inventors, applicants) -> (family_id, inventor_id, name_key) per occurrence, and counts.

    Counts: `name_groups` (names on 2+ families), `name_groups_split` (of those, names that became 2+
    inventors), `inventor_ids`, `occurrences`.
    """
    occ, evidence = _evidence(fams)
    if occ.height == 0:
        return pl.DataFrame(schema=_EMPTY), {"name_groups": 0, "name_groups_split": 0, "inventor_ids": 0,
                                             "occurrences": 0}
    links = (evidence.join(evidence.rename({"family_id": "b"}), on=["name_key", "evidence"])
             .filter(pl.col("family_id") < pl.col("b")).select("name_key", pl.col("family_id").alias("a"), "b")
             .unique())
    roots = _components(occ.select("name_key", "family_id"), links)
    ids = roots.select("family_id", (pl.col("name_key") + "#" + pl.col("root")).alias("inventor_id"), "name_key")
    per_name = ids.group_by("name_key").agg(pl.len().alias("fams"), pl.col("inventor_id").n_unique().alias("ids"))
    groups = per_name.filter(pl.col("fams") > 1)
    stats = {"name_groups": groups.height, "name_groups_split": groups.filter(pl.col("ids") > 1).height,
             "inventor_ids": ids["inventor_id"].n_unique(), "occurrences": ids.height}
    return ids.sort("family_id", "inventor_id"), stats


__all__ = ["applicant_key", "assign_inventor_ids", "family_people", "name_key"]
