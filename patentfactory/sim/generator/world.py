"""The world model: inventions, filings, publications, people and classes, built from one seed.

Everything is drawn from `numpy.random.default_rng(seed)` in a fixed order, so the same
(scale, seed) gives the same world and therefore byte-identical rendered files. Bulk columns are
numpy arrays (fast at scale 100,000); text is regenerated per invention from its own seed when a
renderer needs it, so memory stays bounded.
"""
from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from . import enrich, ipc
from .members import (GrantCover, Priorities, draw_applications, draw_priorities, draw_publications, earliest_priority,
                      number_applications, number_priorities, number_publications)
from .names import ORIGIN_REGION, REGIONS, Person, make_orgs, make_people
from .numbering import day, iso_dates, years
from .text import InventionText, invention_text
from .views import draw_lens_ids

log = logging.getLogger(__name__)
ORIGINS = ("US", "JP", "DE", "CN", "KR", "FR", "GB", "ES")
ORIGIN_P = (0.33, 0.2, 0.1, 0.14, 0.07, 0.05, 0.06, 0.05)


@dataclass(frozen=True)
class WorldSpec:
    """Parameters of a world; every rate is a knob so tests can build corner cases."""
    scale: int
    seed: int
    start: str = "1978-01-01"
    end: str = "2024-12-31"
    render_from: str | None = None  # USPTO/OPS render window start; default: 3 years before `end`
    render_to: str | None = None
    ipc_exponent: float = 1.1
    extra_priority_rate: float = 0.25
    shared_priority_rate: float = 0.08
    paper_rate: float = 0.05
    ptab_rate: float = 0.05
    portfolio_rate: float = 0.0  # share classified like the applicant's previous invention (enrich.product_lines)
    grant_months: tuple[str, ...] = ()  # "YYYY-MM" months given >= grants_per_month EP grants (enrich)
    grants_per_month: int = 0
    renderers: tuple[str, ...] | None = None  # None = every registered renderer (core ones first)

    @property
    def window(self) -> tuple[int, int]:
        """Render window as (first day, last day), integers since 1970-01-01."""
        hi = day(self.render_to or self.end)
        lo = day(self.render_from) if self.render_from else hi - 3 * 365
        return lo, hi


@dataclass
class World:
    """All entities of one synthetic world (columns as numpy arrays, CSR offsets for lists)."""
    spec: WorldSpec
    inv: dict[str, Any]
    prio: Priorities
    apps: dict[str, np.ndarray]
    pubs: dict[str, np.ndarray]
    people: list[Person]
    orgs: list[tuple[str, str]]
    cites: dict[str, np.ndarray] = field(default_factory=dict)
    npl: dict[int, list[str]] = field(default_factory=dict)
    papers: list[dict] = field(default_factory=list)
    paper_pairs: list[dict] = field(default_factory=list)
    ptab: list[dict] = field(default_factory=list)
    detailed: set[int] = field(default_factory=set)  # inventions with a long description (Pap2Pat: paired)
    _text_cache: OrderedDict = field(default_factory=OrderedDict, repr=False)

    @property
    def n(self) -> int:
        return len(self.inv["cls"])

    def text(self, i: int) -> InventionText:
        """Text of invention i (regenerated from its seed; a small LRU avoids repeats across members)."""
        hit = self._text_cache.get(i)
        if hit is None:
            hit = invention_text(int(self.inv["seed"][i]), int(self.inv["cls"][i]), i in self.detailed)
            self._text_cache[i] = hit
            if len(self._text_cache) > 4096:
                self._text_cache.popitem(last=False)
        return hit

    def members(self, i: int) -> range:
        """Publication indices of invention i (date order)."""
        return range(int(self.inv["pub_off"][i]), int(self.inv["pub_off"][i + 1]))

    def inventors(self, i: int) -> list[Person]:
        off = self.inv["person_off"]
        return [self.people[p] for p in self.inv["person"][off[i]:off[i + 1]]]

    def priorities(self, i: int) -> list[tuple[str, str, int]]:
        """(country, number, day) of invention i's priority claims, earliest first."""
        ids = self.prio.ids[self.prio.off[i]:self.prio.off[i + 1]]
        return [(str(self.prio.country[p]), str(self.prio.number[p]), int(self.prio.date[p])) for p in ids]

    def cited(self, p: int) -> range:
        """Indices into `cites` of publication p's backward citations (seq order)."""
        return range(int(self.cites["off"][p]), int(self.cites["off"][p + 1]))

    def citing(self, p: int) -> np.ndarray:
        """Publication indices citing p (forward citations)."""
        off = self.cites["rev_off"]
        return self.cites["rev"][off[p]:off[p + 1]]


def _draw_inventions(rng: np.random.Generator, spec: WorldSpec) -> dict[str, Any]:
    """Own first-filing dates (sorted, skewed to recent years), origin, class, text seed."""
    n = spec.scale
    lo, hi = day("1976-07-01"), day("2023-02-28")
    first = np.sort(lo + ((hi - lo) * rng.random(n) ** 0.6).astype(np.int64))
    origin = np.array(ORIGINS)[rng.choice(len(ORIGINS), size=n, p=ORIGIN_P)]
    origin[(origin == "CN") & (years(first) < 1992)] = "JP"
    cls = ipc.draw_classes(rng, n, spec.ipc_exponent)
    seed = rng.integers(0, 2**62, n)
    return {"first": first, "origin": origin, "cls": cls, "seed": seed}


def _draw_ipc(rng: np.random.Generator, cls: np.ndarray) -> tuple[list[list[str]], list[list[str]]]:
    """1-5 IPC symbols per invention: the first in the main class, later ones mostly near it, some cross-domain."""
    n = len(cls)
    k = rng.choice(5, size=n, p=[0.3, 0.3, 0.2, 0.12, 0.08]) + 1
    owner = np.repeat(np.arange(n), k)
    slot = np.arange(len(owner)) - np.repeat(np.cumsum(k) - k, k)
    u = rng.random(len(owner))
    other = ipc.draw_classes(rng, len(owner), 0.6)
    same_section = np.array([next((j for j, c in enumerate(ipc.CLASSES)
                                   if c.section == ipc.CLASSES[x].section and j != x), x) for x in range(len(ipc.CLASSES))])
    c = np.where((slot == 0) | (u < 0.75), cls[owner], np.where(u < 0.9, same_section[cls[owner]], other))
    sub, grp, subgrp = ipc.draw_symbol_parts(rng, c)
    salt = rng.integers(0, 1000, len(owner))
    ipcs: list[list[str]] = [[] for _ in range(n)]
    cpcs: list[list[str]] = [[] for _ in range(n)]
    for o, cc, s, g, sg, sa in zip(owner.tolist(), c.tolist(), sub.tolist(), grp.tolist(), subgrp.tolist(), salt.tolist()):
        sym = ipc.format_symbol(cc, s, g, sg)
        if sym not in ipcs[o]:
            ipcs[o].append(sym)
            cpcs[o].append(ipc.cpc_from_ipc(sym, sa))
    return ipcs, cpcs


def _region_blocks(region_of: np.ndarray, reg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first index, size) of each wanted region's block in a region-sorted pool; an empty region
    (possible in tiny worlds) falls back to the whole pool."""
    starts = np.searchsorted(region_of, np.arange(len(REGIONS)))
    ends = np.searchsorted(region_of, np.arange(len(REGIONS)), side="right")
    empty = ends == starts
    starts, ends = np.where(empty, 0, starts), np.where(empty, len(region_of), ends)
    return starts[reg], ends[reg] - starts[reg]


def _draw_inventors(rng: np.random.Generator, origin: np.ndarray, region_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Teams: a Zipf-ish lead from the origin's region plus neighbours, so teams and prolific inventors recur."""
    n = len(origin)
    size = rng.choice(6, size=n, p=[0.22, 0.3, 0.22, 0.14, 0.08, 0.04]) + 1
    reg = np.array([REGIONS.index(ORIGIN_REGION.get(o, "anglo")) for o in origin])
    lo, width = _region_blocks(region_of, reg)
    lead = lo + (width * rng.random(n) ** 2.5).astype(np.int64) % width
    owner = np.repeat(np.arange(n), size)
    slot = np.arange(len(owner)) - np.repeat(np.cumsum(size) - size, size)
    step = rng.integers(-4, 5, len(owner))
    person = np.clip(lead[owner] + np.where(slot == 0, 0, step), lo[owner], lo[owner] + width[owner] - 1)
    keep = np.ones(len(owner), dtype=bool)
    key = owner * (len(region_of) + 1) + person
    _, first_idx = np.unique(key, return_index=True)
    keep[:] = False
    keep[first_idx] = True
    owner, person = owner[keep], person[keep]
    order = np.argsort(owner, kind="stable")
    off = np.searchsorted(owner[order], np.arange(n + 1))
    return off, person[order]


def _draw_applicants(rng: np.random.Generator, origin: np.ndarray, org_region: np.ndarray,
                     shared_with: np.ndarray) -> np.ndarray:
    """Applicant org per invention (-1 = the inventors themselves); sharing inventions keep the owner."""
    n = len(origin)
    reg = np.array([REGIONS.index(ORIGIN_REGION.get(o, "anglo")) for o in origin])
    lo, width = _region_blocks(org_region, reg)
    org = lo + (width * rng.random(n) ** 3).astype(np.int64) % width
    org = np.where(rng.random(n) < 0.08, -1, org)
    for i in np.flatnonzero(shared_with >= 0):
        org[i] = org[shared_with[i]]
    return org


def _family_ids(world_prio: Priorities, shared_with: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Simple family id = hash of the priority set; extended = hash over the shared-priority component."""
    n = len(shared_with)
    keys = [sorted(f"{world_prio.country[p]}-{world_prio.number[p]}"
                   for p in world_prio.ids[world_prio.off[i]:world_prio.off[i + 1]]) for i in range(n)]
    simple = np.array(["sf-" + hashlib.sha1("|".join(k).encode()).hexdigest()[:16] for k in keys], dtype=object)
    root = np.arange(n)
    for i in range(n):
        if shared_with[i] >= 0:
            root[i] = root[shared_with[i]]
    comp_keys: dict[int, set[str]] = {}
    for i in range(n):
        comp_keys.setdefault(int(root[i]), set()).update(keys[i])
    comp_id = {r: "ef-" + hashlib.sha1("|".join(sorted(k)).encode()).hexdigest()[:16] for r, k in comp_keys.items()}
    return simple, np.array([comp_id[int(r)] for r in root], dtype=object)


def _patterns(rng: np.random.Generator, has_seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Segmentation pattern (1..7) per invention for its JP/CN abstracts; the first 7 cover every pattern."""
    n = len(has_seg)
    pat = rng.choice(7, size=n, p=[0.3, 0.1, 0.15, 0.1, 0.1, 0.1, 0.15]) + 1
    seg = np.flatnonzero(has_seg)
    pat[seg[:7]] = np.arange(1, min(7, len(seg)) + 1)
    drawing = rng.random(n) < np.where(pat == 1, 0.4, 0.1)
    if len(seg):
        drawing[seg[0]] = True
    return pat, drawing


def _grant_cover(spec: WorldSpec) -> GrantCover | None:
    """EP grant re-dating for the spec's grant months (None: the plain draw)."""
    if not spec.grant_months or spec.grants_per_month <= 0:
        return None
    return partial(enrich.cover_grant_months, spec.seed, months=spec.grant_months, per_month=spec.grants_per_month,
                   weekday=2)


def build_world(spec: WorldSpec) -> World:
    """Draw the whole world model (no I/O)."""
    rng = np.random.default_rng(spec.seed)
    inv = _draw_inventions(rng, spec)
    prio, shared_with = draw_priorities(rng, inv["first"], inv["origin"], spec.extra_priority_rate,
                                        spec.shared_priority_rate)
    apps = draw_applications(rng, inv["first"], inv["origin"])
    pubs = draw_publications(rng, apps, earliest_priority(prio), day(spec.start), day(spec.end), _grant_cover(spec))
    used = np.unique(pubs["app"])
    remap = np.full(len(apps["inv"]), -1)
    remap[used] = np.arange(len(used))
    apps = {k: v[used] for k, v in apps.items()}
    pubs["app"] = remap[pubs["app"]]
    apps["number"] = number_applications(rng, apps, inv["origin"])
    pubs["number"] = number_publications(rng, pubs, apps)
    pubs["pub_id"] = np.array([f"{c}-{num}-{k}" for c, num, k in zip(pubs["cc"], pubs["number"], pubs["kind"])],
                              dtype=object)
    pubs["lens_id"] = draw_lens_ids(rng, len(pubs["inv"]))
    pubs["iso"] = iso_dates(pubs["date"])
    apps["iso"] = iso_dates(apps["date"])
    number_priorities(rng, prio, apps, apps["number"], inv["origin"])
    inv["pub_off"] = np.searchsorted(pubs["inv"], np.arange(spec.scale + 1))
    inv["ipc"], inv["cpc"] = _draw_ipc(rng, inv["cls"])
    people, people_region = make_people(rng, max(40, int(spec.scale * 0.9)))
    orgs, org_region = make_orgs(rng, max(12, spec.scale // 6))
    inv["person_off"], inv["person"] = _draw_inventors(rng, inv["origin"], people_region)
    inv["org"] = _draw_applicants(rng, inv["origin"], org_region, shared_with)
    enrich.product_lines(spec.seed, spec.portfolio_rate, inv)
    inv["shared_with"] = shared_with
    inv["simple_id"], inv["ext_id"] = _family_ids(prio, shared_with)
    has_seg = np.zeros(spec.scale, dtype=bool)
    has_seg[pubs["inv"][np.isin(pubs["cc"], ("JP", "CN"))]] = True
    inv["pattern"], inv["drawing"] = _patterns(rng, has_seg)
    world = World(spec, inv, prio, apps, pubs, people, orgs)
    from .citations import draw_citations
    from .entities import draw_papers, draw_ptab
    draw_citations(rng, world)
    draw_papers(rng, world)
    draw_ptab(rng, world)
    log.info("world scale=%d seed=%d: %d applications, %d publications, %d citations", spec.scale, spec.seed,
             len(apps["inv"]), len(pubs["inv"]), len(world.cites["cited"]))
    return world
