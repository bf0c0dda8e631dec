"""Families from priorities: golden frames, agreement with OPS/Lens reported families, properties."""
from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import FAMILIES, validate
from sources.epo_ops.parse import parse_ops_biblio
from sources.epo_ops.responses import parse_family_members, parse_ops_family
from sources.lens import parse_lens_jsonl
from transforms.families import (build_families, compare_with_reported, extended_families, priority_keys,
                                 simple_families)

PRIO = pl.Struct({"country": pl.String, "number": pl.String, "date": pl.Date})
PUB_SCHEMA = {"pub_id": pl.String, "app_id": pl.String, "priorities": pl.List(PRIO)}


def _pubs(rows: list[tuple[str, str | None, list[tuple[str, str]] | None]]) -> pl.LazyFrame:
    data = [{"pub_id": p, "app_id": a, "priorities": None if pr is None else
             [{"country": c, "number": n, "date": None} for c, n in pr]} for p, a, pr in rows]
    return pl.LazyFrame(data, schema=PUB_SCHEMA)


def _groups(families: pl.LazyFrame, kind: str) -> set[frozenset[str]]:
    df = families.filter(pl.col("family_kind") == kind).collect()
    return {frozenset(g["pub_id"]) for _, g in df.group_by("family_id")}


def test_same_priority_set_same_simple_family():
    """The set is compared by application key: USPTO '62/130,600', Lens '201562130600' and PATDOC '62/130600' are
    one priority (issue 31: two families before)."""
    pubs = _pubs([("US-1-A1", "US-14643719", [("US", "62/130,600"), ("EP", "15159044")]),
                  ("EP-2-A1", "EP-16711222", [("EP", "EP20150159044"), ("US", "201562130600")]),  # other order
                  ("JP-3-A", "JP-2016512345", [("us", "US 62/130600")]),
                  ("DE-4-A1", "DE-44", [("US", "62130600")])])
    fams = build_families(pubs).collect()
    validate(fams.to_arrow(), FAMILIES)
    simple = fams.filter(pl.col("family_kind") == "simple")
    both, us = "S:EP-15159044+US-62130600", "S:US-62130600"
    assert dict(zip(simple["pub_id"], simple["family_id"])) == {
        "US-1-A1": both, "EP-2-A1": both, "JP-3-A": us, "DE-4-A1": us}
    assert _groups(fams.lazy(), "extended") == {frozenset({"US-1-A1", "EP-2-A1", "JP-3-A", "DE-4-A1"})}


def test_chain_makes_one_extended_family():
    pubs = _pubs([("A", "US-1", [("US", "1"), ("US", "2")]), ("B", "US-5", [("US", "2"), ("US", "3")]),
                  ("C", "US-6", [("US", "3")]), ("D", "US-7", [("US", "9")])])
    ext = extended_families(pubs).collect()
    assert dict(zip(ext["pub_id"], ext["family_id"])) == {"A": "E:US-1", "B": "E:US-1", "C": "E:US-1",
                                                          "D": "E:US-9"}
    assert len(_groups(simple_families(pubs), "simple")) == 4


def test_no_priorities_means_own_application():
    pubs = _pubs([("NL-1010536-C2", "NL-1010536", []), ("EP-1000000-A1", "EP-99203729", [("NL", "1010536")]),
                  ("XX-1-A", None, None)])
    keys = priority_keys(pubs).sort("pub_id").collect()
    assert keys.rows() == [("EP-1000000-A1", "NL-1010536"), ("NL-1010536-C2", "NL-1010536"),
                           ("XX-1-A", "PUB:XX-1-A")]
    assert _groups(simple_families(pubs), "simple") == {frozenset({"NL-1010536-C2", "EP-1000000-A1"}),
                                                        frozenset({"XX-1-A"})}


def test_dates_are_ignored_for_identity():
    data = [{"pub_id": "A", "app_id": None, "priorities": [{"country": "US", "number": "7", "date": date(2001, 1, 1)}]},
            {"pub_id": "B", "app_id": None, "priorities": [{"country": "US", "number": "7", "date": date(2001, 1, 2)}]}]
    assert len(_groups(simple_families(pl.LazyFrame(data, schema=PUB_SCHEMA)), "simple")) == 1


def _ops_members(real_samples: Path, name: str) -> pl.LazyFrame:
    members, _ = parse_family_members((real_samples / "epo-ops" / name).read_bytes())
    return pl.LazyFrame([{k: m[k] for k in PUB_SCHEMA} for m in members], schema=PUB_SCHEMA)


def test_agrees_with_ops_inpadoc_families(real_samples: Path):
    for name in ("get_family.response.xml", "family_input.xml"):
        reported = pl.LazyFrame(parse_ops_family((real_samples / "epo-ops" / name).read_bytes(), name)
                                .rows["reported_families"])
        ours = build_families(_ops_members(real_samples, name))
        n_members = reported.filter(pl.col("family_kind") == "extended").collect().height
        for kind in ("simple", "extended"):  # the DOCDB family-id and the INPADOC family agree with ours
            check = compare_with_reported(ours, reported, kind).collect()
            assert check["n_ours"].to_list() == [1] and check["n_members"].to_list() == [n_members], (name, kind)
        # every member claims the same single priority: simple == extended here
        assert _groups(ours, "simple") == _groups(ours, "extended")
        assert build_families(_ops_members(real_samples, name), reported).collect().equals(ours.collect())


def _reported(rows: list[tuple[str, str, str, str]]) -> pl.LazyFrame:
    return pl.LazyFrame([{"source": s, "family_kind": k, "family_id": f, "pub_id": p} for s, k, f, p in rows])


def test_ops_docdb_family_ids_join_what_priorities_keep_apart():
    """A member whose priority is missing (or written differently) in our data rejoins its DOCDB family through
    the OPS family-id; a Lens-reported family is not used (kept for checking); ids stay priority-named."""
    pubs = _pubs([("EP-1-A1", "EP-01000001", [("EP", "01000001")]), ("EP-1-B1", "EP-01000001", [("EP", "01000001")]),
                  ("US-2-A1", "US-15000002", []),  # the office record lacks the priority claim
                  ("US-3-B2", "US-15000003", []), ("CN-4-A", "CN-4", [])])
    reported = _reported([("epo_ops", "simple", "43088294", "EP-1-A1"), ("epo_ops", "simple", "43088294", "US-2-A1"),
                          ("epo_ops", "simple", "43088294", "XX-9-A"),  # a member we do not have adds nothing
                          ("lens", "simple", "L1", "US-3-B2"), ("lens", "simple", "L1", "CN-4-A")])
    plain, joined = build_families(pubs).collect(), build_families(pubs, reported).collect()
    assert frozenset({"EP-1-A1", "EP-1-B1", "US-2-A1"}) not in _groups(plain.lazy(), "simple")
    for kind in ("simple", "extended"):
        assert frozenset({"EP-1-A1", "EP-1-B1", "US-2-A1"}) in _groups(joined.lazy(), kind)
        assert frozenset({"US-3-B2"}) in _groups(joined.lazy(), kind)  # lens rows are not used
    ids = dict(zip(joined["pub_id"], joined["family_id"]))
    assert set(joined["pub_id"]) == set(plain["pub_id"]) and "XX-9-A" not in ids
    fam = joined.filter(pl.col("pub_id") == "US-2-A1")
    assert set(fam["family_id"]) == {"S:EP-01000001", "E:EP-01000001"}  # named by the smallest priority key


def test_ops_inpadoc_family_joins_extended_only():
    pubs = _pubs([("EP-1-A1", "EP-1", [("EP", "1")]), ("US-2-A1", "US-2", [("US", "2")])])
    reported = _reported([("epo_ops", "extended", "7", "EP-1-A1"), ("epo_ops", "extended", "7", "US-2-A1")])
    fams = build_families(pubs, reported)
    assert frozenset({"EP-1-A1", "US-2-A1"}) in _groups(fams, "extended")
    assert len(_groups(fams, "simple")) == 2


def test_biblio_and_family_responses_key_priorities_alike(real_samples: Path):
    """The biblio gives the priority in epodoc form, the family response in DOCDB form: same key."""
    biblio = parse_ops_biblio((real_samples / "epo-ops" / "get_biblio.response.xml").read_bytes(), "b")
    pub = biblio.rows["publications"][0]
    from_biblio = priority_keys(pl.LazyFrame([{k: pub[k] for k in PUB_SCHEMA}], schema=PUB_SCHEMA)).collect()
    from_family = priority_keys(_ops_members(real_samples, "get_family.response.xml")).collect()
    assert set(from_biblio["prio_key"]) == set(from_family["prio_key"]) == {"EP-10167109"}


def test_agrees_with_lens_simple_families(real_samples: Path):
    result = parse_lens_jsonl(real_samples / "lens" / "lens_api_biopoly.jsonl", "lens.jsonl")
    pubs = pl.LazyFrame([{k: p[k] for k in PUB_SCHEMA} for p in result.rows["publications"]], schema=PUB_SCHEMA)
    ours = build_families(pubs)
    check = compare_with_reported(ours, pl.LazyFrame(result.rows["reported_families"]), "simple").collect()
    assert check["n_ours"].max() == 1
    groups = _groups(ours, "simple")
    assert frozenset({"US-9785570-B2", "US-20160266975-A1"}) in groups
    assert frozenset({"US-20150192597-A1", "WO-2015105917-A1"}) in groups
    assert len(groups) == 8


def _naive_components(rows: list[tuple[str, list[str]]]) -> set[frozenset[str]]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x
    for pub, keys in rows:
        for k in keys:
            parent[find("K" + k)] = find("P" + pub)
    comps: dict[str, set[str]] = {}
    for pub, _ in rows:
        comps.setdefault(find("P" + pub), set()).add(pub)
    return {frozenset(c) for c in comps.values()}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 12), min_size=0, max_size=4), min_size=1, max_size=25), st.randoms())
def test_simple_refines_extended_and_matches_union_find(prio_lists, rnd):
    rows = [(f"P{i}", [str(k) for k in ks]) for i, ks in enumerate(prio_lists)]
    pubs = _pubs([(p, f"ZZ-{p[1:]}", [("US", k) for k in ks]) for p, ks in rows])
    fams = build_families(pubs).collect()
    ext = dict(zip(*fams.filter(pl.col("family_kind") == "extended")[["pub_id", "family_id"]].get_columns()))
    simple = fams.filter(pl.col("family_kind") == "simple")
    assert set(ext) == set(simple["pub_id"]) == {p for p, _ in rows}
    for _, g in simple.group_by("family_id"):
        assert len({ext[p] for p in g["pub_id"]}) == 1
    expected = _naive_components([(p, ks or [f"own{p}"]) for p, ks in rows])
    assert _groups(fams.lazy(), "extended") == expected
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    again = build_families(_pubs([(p, f"ZZ-{p[1:]}", [("US", k) for k in ks]) for p, ks in shuffled])).collect()
    assert again.equals(fams)
