"""Precision-first inventor ids: a shared name joins two families only with a shared co-inventor or applicant."""
from __future__ import annotations

from pathlib import Path

import polars as pl

from transforms.inventors import assign_inventor_ids, family_people, name_key


def _people(rows: list[tuple[str, str | None, str | None]]) -> pl.DataFrame:
    return family_people(pl.DataFrame(rows, schema=["family_id", "inventor", "applicant"], orient="row"))


def _ids(rows: list[tuple[str, str | None, str | None]]) -> tuple[dict[tuple[str, str], str], dict[str, int]]:
    ids, stats = assign_inventor_ids(_people(rows))
    return {(f, n): i for f, i, n in ids.iter_rows()}, stats


def test_name_key_ignores_order_case_and_punctuation():
    keys = pl.DataFrame({"n": ["WANG Shurong", "Shurong Wang", "wang, shurong", "Wang  Shu-rong"]}).select(
        name_key(pl.col("n")))["n"].to_list()
    assert keys[:3] == ["shurong wang"] * 3 and keys[3] == "rong shu wang"


def test_a_common_name_alone_never_joins_two_families():
    ids, stats = _ids([("F1", "Guo Bo", None), ("F1", None, "Acme Corp"),
                       ("F2", "GUO Bo", None), ("F2", None, "Beta Ltd"),
                       ("F3", "Bo Guo", None)])
    assert len({ids[(f, "bo guo")] for f in ("F1", "F2", "F3")}) == 3
    assert stats == {"name_groups": 1, "name_groups_split": 1, "inventor_ids": 3, "occurrences": 3}


def test_shared_co_inventor_or_applicant_joins_and_links_chain():
    ids, stats = _ids([("F1", "Suzuki Haruto", None), ("F1", "Tanaka Yui", None),
                       ("F2", "Haruto Suzuki", None), ("F2", "Tanaka Yui", None),  # co-inventor with F1
                       ("F2", None, "Sakura KK"),
                       ("F3", "SUZUKI HARUTO", None), ("F3", None, "Sakura K.K."),  # applicant, shared with F2
                       ("F4", "Suzuki Haruto", None), ("F4", None, "Other KK")])  # the name alone
    same = {ids[(f, "haruto suzuki")] for f in ("F1", "F2", "F3")}
    assert len(same) == 1, "F1-F2 by co-inventor, F2-F3 by applicant: one person across the chain"
    assert ids[("F4", "haruto suzuki")] not in same
    assert ids[("F1", "tanaka yui")] == ids[("F2", "tanaka yui")], "the co-inventor is joined by the shared name too"
    assert stats["name_groups"] == 2 and stats["name_groups_split"] == 1


def test_ids_derive_from_natural_keys():
    rows = [("F2", "A B", None), ("F2", None, "X"), ("F1", "A B", None), ("F1", None, "X")]
    first, _ = _ids(rows)
    again, _ = _ids(list(reversed(rows)))
    assert first == again and first[("F2", "a b")] == "a b#F1"


def test_real_lens_records_join_the_romanian_inventors_by_their_shared_evidence(real_samples: Path):
    from schemas import PUBLICATIONS
    from sources.lens import parse_lens_jsonl
    from transforms.families import build_families
    from transforms.tasks.patenteb_context import family_people_rows

    rows = parse_lens_jsonl(real_samples / "lens" / "lens_api_biopoly.jsonl", "lens.jsonl").rows["publications"]
    pubs = pl.from_arrow(PUBLICATIONS.from_pylist(rows)).lazy()
    people = family_people(family_people_rows(pubs, build_families(pubs)).collect())
    ids, stats = assign_inventor_ids(people)
    per_name = ids.group_by("name_key").agg(pl.col("family_id").n_unique().alias("fams"),
                                            pl.col("inventor_id").n_unique().alias("ids"))
    shared = per_name.filter(pl.col("fams") > 1)
    # the two RO families (one institute, four inventors in common) are the only names on 2+ families
    assert shared.height == stats["name_groups"] == 4 and (shared["ids"] == 1).all()
    assert set(ids.filter(pl.col("name_key").is_in(shared["name_key"].implode()))["family_id"].str.slice(0, 5)) == {
        "S:RO-"}
