"""Entities for the other benchmarks: papers (Pap2Pat), PTAB appeals (PILOT), EP claim revisions (Patent-CR).

Matching rules are precision-first, so the world holds not only true patent-paper pairs but
near misses that a careless matcher would accept: same authors on another topic, the right
paper outside the date window, and the right topic with too few of the inventors.
"""
from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

import numpy as np

from .names import aliases, variant, variant_code
from .numbering import day, years
from .text import Claim, an, paper_text

if TYPE_CHECKING:
    from .world import World

LICENSES = ("cc-by", "cc-by", "cc0", "public-domain", "publisher-specific", "cc-by-nc")
OUTCOMES = (("Affirmed", 0.48, "AFFIRMED"), ("Reversed", 0.24, "REVERSED"), ("Affirmed-in-Part", 0.13, "affirmed-in-part"),
            ("Affirmed with New Ground of Rejection", 0.03, "Affirmed w/ New Ground of Rejection"),
            ("Reversed with New Ground of Rejection", 0.02, "Reversed; New Grounds of Rejection"),
            ("Affirmed-in-Part with New Ground of Rejection", 0.02, "Affirmed-In-Part, New Ground"),
            ("Vacated", 0.03, "Vacated"), ("Reversed and Remanded", 0.02, "reversed and remanded"),
            ("Denied", 0.03, "Denied"))
COARSE = {"Affirmed", "Affirmed with New Ground of Rejection", "Affirmed-in-Part",
          "Affirmed-in-Part with New Ground of Rejection", "Reversed", "Reversed with New Ground of Rejection"}
JUDGES = ("JOHN A. JEFFERY", "ELENI MANTIS MERCADER", "JAMES R. HUGHES", "CAROLYN D. THOMAS", "JASON V. MORGAN",
          "KAL DESHPANDE", "MICHELLE N. ANKENBRAND", "ERIC B. CHEN", "JENNIFER L. McKEOWN", "BETH Z. SHAW")


def _us_applications(world: World) -> np.ndarray:
    """Publication index of the first US pre-grant publication (A1) of each invention that has one."""
    pubs = world.pubs
    idx = np.flatnonzero((pubs["cc"] == "US") & (pubs["kind"] == "A1"))
    _, first = np.unique(pubs["inv"][idx], return_index=True)
    return idx[first]


def _paper(world: World, rng: random.Random, people: list[int], pub_day: int, inv: int | None, cls: int,
           salt: int) -> dict:
    """A paper record in the `papers` table shape plus the person ids of its authors."""
    wid = f"W{3000000000 + len(world.papers) * 7919 + salt % 7919}"
    text_seed = rng.getrandbits(62)
    title, abstract = paper_text(text_seed, world.text(inv) if inv is not None else None, cls)
    authors = []
    for pid in people:
        p = world.people[pid]
        first, last = variant(p, variant_code(len(world.papers), pid, salt))
        authors.append({"id": f"A{5000000000 + pid}", "name": f"{first} {last}", "alt_names": aliases(p)})
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower())[:40].strip("-")
    return {"work_id": wid, "doi": f"10.{1000 + salt % 8999}/{slug}.{len(world.papers)}", "title": title,
            "abstract": abstract, "pub_date": pub_day, "authors": authors, "license": LICENSES[salt % len(LICENSES)],
            "person_ids": list(people), "text_seed": text_seed, "inv": inv, "cls": cls}


def _add_pair(world: World, p: int, paper: dict, relation: str, app_day: int, overlap: float) -> None:
    world.papers.append(paper)
    world.paper_pairs.append({"pub_id": world.pubs["pub_id"][p], "work_id": paper["work_id"], "relation": relation,
                              "is_true": relation == "true", "day_delta": int(paper["pub_date"] - app_day),
                              "author_overlap": overlap})


def draw_papers(rng: np.random.Generator, world: World) -> None:
    """True pairs for a share of US applications with >= 2 inventors, each with 1-2 near misses."""
    apps = _us_applications(world)
    apps = apps[years(world.pubs["date"][apps]) >= 2005]
    team = np.diff(world.inv["person_off"])[world.pubs["inv"][apps]]
    apps = apps[team >= 2]
    chosen = apps[rng.random(len(apps)) < world.spec.paper_rate * 3]
    if len(chosen) == 0 and len(apps):
        chosen = apps[:1]
    seeds = rng.integers(0, 2**62, len(chosen))
    for p, s in zip(chosen.tolist(), seeds.tolist()):
        r = random.Random(s)
        i = int(world.pubs["inv"][p])
        app_day = int(world.apps["date"][world.pubs["app"][p]])
        team_ids = [int(x) for x in world.inv["person"][world.inv["person_off"][i]:world.inv["person_off"][i + 1]]]
        cls = int(world.inv["cls"][i])
        kind = r.random()
        if kind < 0.55:
            world.detailed.add(i)  # a patent with a paper behind it: research-heavy, a description of real length
            world._text_cache.pop(i, None)
            _add_pair(world, p, _paper(world, r, team_ids, app_day + r.randint(-300, 700), i, cls, s), "true", app_day, 1.0)
        if kind >= 0.3:
            other = (cls + 1 + r.randrange(5)) % 40
            _add_pair(world, p, _paper(world, r, team_ids, app_day + r.randint(-200, 600), None, other, s + 1),
                      "near_miss_topic", app_day, 1.0)
        if kind >= 0.45:
            late = app_day + r.choice((r.randint(760, 1500), -r.randint(400, 900)))
            _add_pair(world, p, _paper(world, r, team_ids, late, i, cls, s + 2), "near_miss_date", app_day, 1.0)
        if kind >= 0.7:
            stranger = r.randrange(len(world.people))
            part = team_ids[:1] + [stranger]
            _add_pair(world, p, _paper(world, r, part, app_day + r.randint(0, 300), i, cls, s + 3), "near_miss_authors",
                      app_day, 1 / len(team_ids))


def draw_ptab(rng: np.random.Generator, world: World) -> None:
    """Ex parte appeals on ~5 % of US applications filed 2001+, decided 2006..end, with PILOT labels."""
    pubs, apps = world.pubs, world.apps
    us_apps = np.flatnonzero((apps["office"] == "US") & (apps["date"] >= day("2001-01-01")))
    decided = apps["date"][us_apps] + rng.integers(3 * 365, 8 * 365, len(us_apps))
    ok = (decided >= day("2006-01-01")) & (decided <= day(world.spec.end))
    us_apps, decided = us_apps[ok], decided[ok]
    pick = rng.random(len(us_apps)) < world.spec.ptab_rate
    pick[: min(3, len(pick))] |= pick.sum() < 3
    seeds = rng.integers(0, 2**62, len(us_apps))
    pub_of_app = {int(a): p for p, a in enumerate(pubs["app"].tolist()) if pubs["cc"][p] == "US"}
    for k in np.flatnonzero(pick).tolist():
        a, r = int(us_apps[k]), random.Random(int(seeds[k]))
        world.ptab.append(_appeal(world, r, a, int(decided[k]), pub_of_app[a], len(world.ptab)))


def _appeal(world: World, r: random.Random, a: int, decided: int, p: int, serial: int) -> dict:
    """One appeal decision with its labels (outcome fine/coarse, issue types, board authorities)."""
    fine, _, raw = r.choices(OUTCOMES, [w for _, w, _ in OUTCOMES])[0]
    issues = sorted({s for s, w in (("103", 0.75), ("102", 0.25), ("112", 0.25), ("101", 0.15), ("Others", 0.05))
                     if r.random() < w} or {"103"})
    authorities = ["37 CFR 41.50(b)"] if "New Ground" in fine else []
    if r.random() < 0.1:
        authorities.append(r.choice(("37 CFR 1.132", "37 CFR 41.50(a)", "37 CFR 1.131")))
    i = int(world.pubs["inv"][p])
    org = int(world.inv["org"][i])
    appellant = world.orgs[org][0] if org >= 0 else world.inventors(i)[0].name
    n_claims = len(world.text(i).claims)
    year = int(years(np.array([decided]))[0])
    return {"decision_id": f"{r.getrandbits(64):016x}", "appeal_number": f"{year}{(serial * 37 + 1) % 1000000:06d}",
            "app_id": f"US-{world.apps['number'][a]}", "pub_id": world.pubs["pub_id"][p], "decision_date": decided,
            "outcome": fine, "outcome_raw": raw, "outcome_coarse": fine if fine in COARSE else "Others",
            "issue_types": issues, "statutes": [f"35 U.S.C. \u00a7 {s}" for s in issues if s != "Others"],
            "board_authorities": sorted(set(authorities)) or ["Others"], "appellant": appellant,
            "judges": r.sample(JUDGES, 3), "claims_on_appeal": sorted(r.sample(range(1, n_claims + 1),
                                                                                min(n_claims, r.randint(1, 6)))),
            "standard_cover": r.random() < 0.9, "separate_opinion": r.random() < 0.03}


def _merge_feature(body: str) -> str:
    """', wherein the x is y.' -> 'wherein the x is y' (a dependent feature merged into claim 1)."""
    text = body.lstrip(", ").rstrip(".")
    return text if text.startswith(("wherein", "further")) else "wherein " + text


def claim_revision(world: World, i: int) -> tuple[list[Claim], list[Claim], list[str]]:
    """EP claims before (application) and after grant: a dependent merged into claim 1, a feature
    narrowed, some claims deleted, numbering and references repaired. Deterministic per invention."""
    before = world.text(i).claims
    r = random.Random(int(world.inv["seed"][i]) ^ 0x5EED)
    ops: list[str] = []
    deps_of_1 = [c for c in before if c.depends_on == (1,)]
    drop: set[int] = set()
    first = before[0]
    elements = list(first.elements)
    if deps_of_1 and r.random() < 0.8:
        merged = r.choice(deps_of_1)
        elements[-1] = elements[-1].rstrip(".") + ", " + _merge_feature(merged.body) + "."
        drop.add(merged.num)
        ops.append(f"merge:{merged.num}->1")
    if r.random() < 0.6:
        word = world.text(i).words["qual"][1]
        elements[0] = an(re.sub(r"^(a|an) ", f"a {word} ", elements[0], count=1))
        ops.append("narrow:1")
    candidates = [c.num for c in before[1:] if c.depends_on and c.num not in drop]
    for num in r.sample(candidates, min(len(candidates), r.randint(0, 3))):
        drop.add(num)
        ops.append(f"delete:{num}")
    parent = {c.num: (c.depends_on[0] if c.depends_on else c.num) for c in before}
    new_no: dict[int, int] = {}
    after: list[Claim] = []
    for c in [Claim(1, (), first.preamble, tuple(elements))] + [c for c in before[1:] if c.num not in drop]:
        new_no[c.num] = len(after) + 1
        ref = c.depends_on[0] if c.depends_on else None
        while ref is not None and ref in drop:
            ref = parent[ref]
        after.append(Claim(len(after) + 1, (new_no[ref],) if ref else (), c.preamble, c.elements, c.body))
    return before, after, ops
