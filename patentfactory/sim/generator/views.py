"""Per-publication derived values shared by the ground truth and every renderer.

One place decides which abstract style a member shows, how its number is displayed and how its
inventors are spelled there, so the truth tables and the rendered files cannot drift apart.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .names import Person, variant, variant_code
from .text import segmented_abstract

if TYPE_CHECKING:
    from .world import World

LANG = {"US": "en", "EP": "en", "WO": "en", "JP": "ja", "CN": "zh"}
SEGMENTED = ("JP", "CN")


def abstract_of(world: World, p: int) -> tuple[str, int]:
    """(English abstract, pattern 0..7) of publication p: JP/CN members carry segmented abstracts."""
    i = int(world.pubs["inv"][p])
    t = world.text(i)
    if world.pubs["cc"][p] in SEGMENTED:
        pat = int(world.inv["pattern"][i])
        return segmented_abstract(t, pat, bool(world.inv["drawing"][i])), pat
    return t.abstract, 0


def display_key(cc: str, number: str, kind: str) -> str:
    """Lens display key: 'US 10000000 B2', 'US 2016/0266975 A1', 'WO 2017/205695 A1'."""
    if (cc == "US" and kind == "A1") or cc == "WO":
        return f"{cc} {number[:4]}/{number[4:]} {kind}"
    return f"{cc} {number} {kind}"


def draw_lens_ids(rng: np.random.Generator, n: int) -> np.ndarray:
    """Unique Lens ids 'ddd-ddd-ddd-ddd-ddd' (15 digits in 5 groups)."""
    raw = rng.choice(10**15 - 10**14, size=n, replace=False) + 10**14 if n < 10**6 else rng.integers(10**14, 10**15, n)
    out = np.empty(n, dtype=object)
    for k, v in enumerate(raw.tolist()):
        s = f"{v:015d}"
        out[k] = "-".join(s[j:j + 3] for j in range(0, 15, 3))
    return out


def inventor_forms(world: World, p: int) -> list[tuple[str, str, Person]]:
    """(first-and-middle, last, person) as publication p spells its inventors."""
    i = int(world.pubs["inv"][p])
    salt = world.spec.seed & 0xFFFF
    return [(*variant(person, variant_code(p, person.person_id, salt)), person) for person in world.inventors(i)]


def applicant_names(world: World, i: int) -> list[tuple[str, str]]:
    """(name, country) of invention i's applicants; individuals when no organisation files."""
    org = int(world.inv["org"][i])
    if org >= 0:
        return [world.orgs[org]]
    return [(p.name, p.country) for p in world.inventors(i)]


def app_id(world: World, p: int) -> str:
    """Canonical application id CC-NUMBER of publication p."""
    a = int(world.pubs["app"][p])
    return f"{world.apps['office'][a]}-{world.apps['number'][a]}"

