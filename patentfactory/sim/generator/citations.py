"""Backward citations between publications: mostly within the same IPC3, never to the future.

PatenTEB's positives are citation-linked families grouped by domain relation (IN / MIXED / OUT),
so most citations stay inside the citing invention's main class with a minority crossing classes.
Recent documents are cited more often than old ones, and US documents carry many applicant
citations, EP/WO search reports examiner citations with X/Y/A categories.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .ipc import CLASSES
from .text import paper_text

if TYPE_CHECKING:
    from .world import World

MEAN_CITES = {("US", "B1"): 8.0, ("US", "B2"): 8.0, ("US", "A1"): 3.0, ("EP", "A1"): 3.0, ("EP", "A2"): 1.0,
              ("EP", "B1"): 3.5, ("WO", "A1"): 3.0, ("JP", "A"): 1.5, ("CN", "A"): 2.0}
JOURNALS = ("IEEE Transactions on Industrial Electronics", "Journal of Applied Physics", "Nature Materials",
            "Journal of Medicinal Chemistry", "Optics Express", "ACS Applied Materials & Interfaces",
            "Proc. IEEE Int. Conf. on Communications", "Journal of Food Engineering")
MONTHS = ("Jan.", "Feb.", "Mar.", "Apr.", "May", "Jun.", "Jul.", "Aug.", "Sep.", "Oct.", "Nov.", "Dec.")


def _targets(rng: np.random.Generator, world: World, citing: np.ndarray) -> np.ndarray:
    """A cited invention per citation: same class 85 %, any class otherwise, first published before the citing date."""
    pubs, inv = world.pubs, world.inv
    first_pub = pubs["date"][inv["pub_off"][:-1]]
    cls = inv["cls"].astype(np.int64)
    big = np.int64(1 << 20)
    key = cls * big + first_pub
    by_cls = np.argsort(key, kind="stable")
    sorted_key = key[by_cls]
    cls_start = np.searchsorted(sorted_key, np.arange(len(CLASSES) + 1, dtype=np.int64) * big)
    d = pubs["date"][citing]
    c = cls[pubs["inv"][citing]]
    hi_same = np.searchsorted(sorted_key, c * big + d) - cls_start[c]
    all_order = np.argsort(first_pub, kind="stable")
    hi_all = np.searchsorted(first_pub[all_order], d)
    u = rng.random(len(citing)) ** 0.5
    same = (rng.random(len(citing)) < 0.85) & (hi_same > 0)
    pos_same = cls_start[c] + np.minimum((hi_same * u).astype(np.int64), np.maximum(hi_same - 1, 0))
    pos_all = np.minimum((hi_all * u).astype(np.int64), np.maximum(hi_all - 1, 0))
    target = np.where(same, by_cls[np.minimum(pos_same, len(by_cls) - 1)], all_order[pos_all])
    return np.where(same | (hi_all > 0), target, -1)


def _member_before(rng: np.random.Generator, world: World, target: np.ndarray, before: np.ndarray) -> np.ndarray:
    """A random publication of each target invention published before `before` (else its earliest)."""
    off = world.inv["pub_off"]
    cnt = off[target + 1] - off[target]
    pick = off[target] + (rng.random(len(target)) * cnt).astype(np.int64)
    return np.where(world.pubs["date"][pick] < before, pick, off[target])


def _labels(rng: np.random.Generator, cc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """cited_by (examiner/applicant) and category (US wording or search-report X/Y/A)."""
    n = len(cc)
    u = rng.random(n)
    us = cc == "US"
    by = np.where(us & (u < 0.45), "applicant", "examiner")
    xya = np.array(["X", "Y", "A"])[np.searchsorted([0.2, 0.45], rng.random(n))]
    cat = np.where(us, np.where(by == "applicant", "cited by applicant", "cited by examiner"),
                   np.where(np.isin(cc, ("EP", "WO")), xya, ""))
    return by, cat


def draw_citations(rng: np.random.Generator, world: World) -> None:
    """Fill world.cites (sorted by citing publication, then seq) and world.npl."""
    pubs = world.pubs
    mean = np.array([MEAN_CITES.get((c, k), 2.0) for c, k in zip(pubs["cc"], pubs["kind"])])
    count = rng.poisson(mean)
    citing = np.repeat(np.arange(len(mean)), count)
    target = _targets(rng, world, citing)
    ok = (target >= 0) & (target != pubs["inv"][citing])
    citing, target = citing[ok], target[ok]
    cited = _member_before(rng, world, target, pubs["date"][citing])
    ok = pubs["date"][cited] < pubs["date"][citing]
    citing, cited = citing[ok], cited[ok]
    pair = np.unique(citing.astype(np.int64) * len(mean) + cited)
    citing, cited = pair // len(mean), pair % len(mean)
    order = np.lexsort((cited, pubs["date"][cited], citing))
    citing, cited = citing[order], cited[order]
    by, cat = _labels(rng, pubs["cc"][citing])
    off = np.searchsorted(citing, np.arange(len(mean) + 1))
    seq = np.arange(len(citing)) - off[citing] + 1
    rev_order = np.lexsort((citing, cited))
    world.cites = {"citing": citing, "cited": cited, "by": by, "category": cat, "seq": seq, "off": off,
                   "rev": citing[rev_order], "rev_off": np.searchsorted(cited[rev_order], np.arange(len(mean) + 1))}
    _draw_npl(rng, world)


def _draw_npl(rng: np.random.Generator, world: World) -> None:
    """Non-patent citations (journal articles) on some US/EP/WO publications."""
    pubs = world.pubs
    eligible = np.flatnonzero(np.isin(pubs["cc"], ("US", "EP", "WO")) & (rng.random(len(pubs["cc"])) < 0.3))
    count = rng.integers(1, 4, len(eligible))
    seeds = rng.integers(0, 2**62, int(count.sum()))
    k = 0
    for p, c in zip(eligible.tolist(), count.tolist()):
        year = int(str(np.datetime64(int(pubs["date"][p]), "D"))[:4])
        items = []
        for _ in range(c):
            s = int(seeds[k])
            k += 1
            title, _ = paper_text(s, None, int(world.inv["cls"][pubs["inv"][p]]))
            who = world.people[s % len(world.people)]
            items.append(f"{who.last}, et al.; \u201c{title}\u201d; {JOURNALS[s % len(JOURNALS)]}; vol. {s % 60 + 1}, "
                         f"No. {s % 12 + 1}; {MONTHS[s % 12]} {year - 1 - s % 6}; pp. {s % 900 + 1}-{s % 900 + 9}.")
        world.npl[p] = items
