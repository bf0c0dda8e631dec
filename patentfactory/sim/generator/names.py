"""People and organisations: inventors reused across inventions, written in varying forms.

Real inventor names vary between documents (middle names dropped or initialised, diacritics
folded, hyphens kept or not, upper case in Lens/EPO); disambiguation and paper matching must
survive that, so each person has one canonical name and each (publication, person) pair picks
a deterministic variant.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import numpy as np

# region -> (first names, last names, countries)
_POOLS: dict[str, tuple[str, str, str]] = {
    "anglo": ("James John Robert Michael William David Richard Joseph Thomas Mary Patricia Jennifer Linda "
              "Elizabeth Susan Sarah Karen Nancy Daniel Matthew Anthony Mark Steven Paul Andrew Joshua Emily",
              "Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore Martin "
              "Jackson Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Green "
              "Baker Adams Nelson Hill Campbell Mitchell Roberts Carter O'Brien Smith-Jones Marron",
              "US US US US GB CA AU"),
    "german": ("Jürgen Stefan Andreas Thomas Michael Klaus Wolfgang Günter Uwe Sabine Ute Jörg Björn Katrin "
               "Matthias Sebastian Tobias Lena Anja Dieter Hans-Peter Karl-Heinz",
               "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer "
               "Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange "
               "Müller-Lüdenscheidt Weiß Groß",
               "DE DE DE AT CH"),
    "french": ("François Hélène Jérôme Amélie Stéphane Céline Frédéric Julien Élodie Sébastien Mathieu "
               "Jean-Pierre Marie-Claire Benoît Aurélie Nicolas Camille Thierry",
               "Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefèvre "
               "Michel Garcia David Bertrand Roux Vincent Fournier Morel Girard André Mercier Dupont Lambert",
               "FR FR FR BE"),
    "iberian": ("José María Juan Ana Luis Carmen Javier Lucía Sergio Begoña Íñigo Raúl Andrés Inés Joaquín",
                "García Fernández González Rodríguez López Martínez Sánchez Pérez Gómez Martín Jiménez Ruiz "
                "Hernández Díaz Muñoz Álvarez García-López Núñez",
                "ES ES PT BR"),
    "japanese": ("Hiroshi Takeshi Kenji Yuki Akira Satoshi Naoki Kazuhiro Tomoko Yoko Keiko Haruto Daisuke "
                 "Masahiro Yusuke Shinji Mika Kazushige Tomokazu Ryota",
                 "Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada "
                 "Sasaki Yamaguchi Matsumoto Inoue Kimura Hayashi Shimizu Saito Amiya Fujio Ōno Kōno",
                 "JP"),
    "chinese": ("Wei Jing Li Min Jie Hao Lei Yan Jun Xiaoming Chaohong Hongzhong Yifan Zhiwei Xin Ting Yu Bo",
                "Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng Xiao",
                "CN CN CN TW"),
    "korean": ("Min-jun Seo-yeon Ji-hoon Hye-jin Sung-ho Young-soo Jae-won Eun-ji Dong-hyun Soo-jin",
               "Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin",
               "KR"),
}
REGIONS: tuple[str, ...] = tuple(_POOLS)
ORIGIN_REGION = {"US": "anglo", "GB": "anglo", "DE": "german", "FR": "french", "ES": "iberian",
                 "JP": "japanese", "CN": "chinese", "KR": "korean"}

_ORG_ROOTS = {
    "anglo": "Apex Northfield Bluewater Cascade Summit Redwood Ironbridge Silverline Keystone Harbor",
    "german": "Nordwind Rheintal Bergmann Sonnenfeld Eisenwerk Lichtblick Hochstein Alpen Elbtal Kraftwerk",
    "french": "Lumière Rivage Horizon Valmont Beauregard Clairval Montfort Sologne Bellecour Aurore",
    "iberian": "Solera Alhambra Mirador Costa Brava Levante Navarra Ibérica Montaña Aurora",
    "japanese": "Kaisei Nihon Fujimoto Hoshizora Takara Sakura Asahi Miraito Kobayashi Tokai",
    "chinese": "Huaxin Zhongke Tianyu Jinhua Hengtong Longsheng Dongfang Haitian Xinda Ruifeng",
    "korean": "Hanil Daesung Samwoo Mirae Sejong Hanbit Dongyang Kumho Jinsung Hyosung",
}
_ORG_MIDDLE = "Technologies|Electric|Materials|Medical|Systems|Instruments|Semiconductor|Chemical|Robotics|Energy"
_ORG_SUFFIX = {"anglo": "Inc.|Corporation|LLC|Ltd.", "german": "GmbH|AG|GmbH & Co. KG", "french": "SA|SAS",
               "iberian": "S.A.|S.L.", "japanese": "Co., Ltd.|Corporation|K.K.",
               "chinese": "Co., Ltd.|Technology Co., Ltd.", "korean": "Co., Ltd.|Corporation"}


@dataclass(frozen=True)
class Person:
    """Canonical identity of an inventor/author; renderers write variants of it."""
    person_id: int
    first: str
    middle: str
    last: str
    country: str

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first, self.middle, self.last) if p)


def make_people(rng: np.random.Generator, n: int) -> tuple[list[Person], np.ndarray]:
    """n people grouped by region (region index per person returned, sorted ascending)."""
    region = np.sort(rng.choice(len(REGIONS), size=n, p=[0.34, 0.12, 0.07, 0.05, 0.2, 0.16, 0.06]))
    u = rng.random((n, 5))
    people = []
    for i in range(n):
        firsts, lasts, ccs = (s.split() for s in _POOLS[REGIONS[region[i]]])
        has_middle = region[i] in (0, 1, 2, 3) and u[i, 3] < 0.45
        middle = firsts[int(u[i, 4] * len(firsts))] if has_middle else ""
        first = firsts[int(u[i, 0] * len(firsts))]
        people.append(Person(i, first, middle if middle != first else "", lasts[int(u[i, 1] * len(lasts))],
                             ccs[int(u[i, 2] * len(ccs))]))
    return people, region


def make_orgs(rng: np.random.Generator, n: int) -> tuple[list[tuple[str, str]], np.ndarray]:
    """n (name, country) organisations, region-sorted like people, names unique."""
    region = np.sort(rng.choice(len(REGIONS), size=n, p=[0.34, 0.12, 0.07, 0.05, 0.2, 0.16, 0.06]))
    u = rng.random((n, 3))
    seen: set[str] = set()
    orgs = []
    for i in range(n):
        reg = REGIONS[region[i]]
        roots, mids, sufs = _ORG_ROOTS[reg].split(), _ORG_MIDDLE.split("|"), _ORG_SUFFIX[reg].split("|")
        name = f"{roots[int(u[i, 0] * len(roots))]} {mids[int(u[i, 1] * len(mids))]} {sufs[int(u[i, 2] * len(sufs))]}"
        k = 2
        base = name
        while name in seen:
            name, k = f"{base.split(' ', 1)[0]} {k} {base.split(' ', 1)[1]}", k + 1
        seen.add(name)
        orgs.append((name, _POOLS[reg][2].split()[0]))
    return orgs, region


def fold(text: str) -> str:
    """ASCII-fold diacritics (as Lens/EPO upper-case renderings do): 'Müller' -> 'Muller'."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def variant(p: Person, code: int) -> tuple[str, str]:
    """(first-and-middle, last) written one of several real-world ways, chosen by `code` (0..9)."""
    first, middle, last = p.first, p.middle, p.last
    if code == 6 and middle:
        return f"{first} {middle[0]}.", last
    if code == 7:
        return first, last
    if code == 8:
        initials = " ".join(f"{x[0]}." for x in (first, middle) if x)
        return initials, last
    if code == 9:
        return fold(" ".join(x for x in (first, middle) if x)), fold(last).replace("-", " ")
    return " ".join(x for x in (first, middle) if x), last


def variant_code(pub_index: int, person_id: int, salt: int) -> int:
    """Deterministic 0..9 variant code of a (publication, person) pair: same inputs, same spelling."""
    h = (pub_index * 2654435761 + person_id * 40503 + salt * 97) & 0xFFFFFFFF
    return (h >> 7) % 10


def aliases(p: Person) -> list[str]:
    """The distinct spellings a paper index would list for a person (SemOpenAlex alternative names)."""
    forms = {" ".join(variant(p, c)) for c in range(10)}
    return sorted(forms - {p.name})
