"""Deterministic patent and paper text from template sentences over the per-section vocabulary.

All text of an invention derives from one integer seed, so a renderer can regenerate it on demand
(bounded memory at large scale) and every renderer sees the same words. Segmented abstracts follow
the seven patterns of PatenTEB's segmentation rules, including their quirks (SELECTED DRAWING
trailers, multi-sentence EFFECT, comma-separated FIELD values).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from .ipc import CLASSES
from .vocab import VOCAB

PATTERNS = ("plain", "PROBLEM TO BE SOLVED", "PROBLEM", "PURPOSE", "[problem]", "FIELD", "SOLUTION-EFFECT",
            "SOLUTION")


@dataclass(frozen=True)
class Claim:
    """One claim: independent ones have elements, dependent ones refer to earlier claims."""
    num: int
    depends_on: tuple[int, ...]
    preamble: str
    elements: tuple[str, ...] = ()
    body: str = ""

    @property
    def text(self) -> str:
        """Flattened claim text as a reader of the XML would produce it."""
        if self.depends_on:
            return f"{self.num}. {self.preamble} claim {self.depends_on[0]}{self.body}"
        return f"{self.num}. {self.preamble}\n" + "\n".join(self.elements)


@dataclass
class InventionText:
    """Every text field of one invention (shared by its family members, except abstracts by style).

    Claims and description are drawn lazily from their own random streams: most consumers (truth,
    CSV) never need them, and the heavy part of text generation is skipped for them.
    """
    title: str
    abstract: str
    problem: str
    solution: str
    effect: str
    field_: str
    substance: str
    words: dict[str, list[str]]
    seed: int
    detailed: bool = False  # a research-heavy invention (it has a paper): a description of real length

    @cached_property
    def claims(self) -> list[Claim]:
        return make_claims(random.Random(self.seed ^ CLAIMS_SALT), self.words)

    @cached_property
    def description(self) -> list[tuple[str, str]]:
        """("heading"|"p", text) in document order."""
        sent = {"solution": self.solution, "effect": self.effect}
        r = random.Random(self.seed ^ DESCRIPTION_SALT)
        if self.detailed:
            from .text_long import long_description
            return long_description(self.words, sent, r)
        return _description(self.words, sent, r)


CLAIMS_SALT = 0x0C1A1
DESCRIPTION_SALT = 0x0DE5C
_VOWELS = "aeiouAEIOU"

def an(text: str) -> str:
    """Fix indefinite articles produced by templates: 'a implant' -> 'an implant' (str.replace: fast)."""
    for v in _VOWELS:
        text = text.replace(f" a {v}", f" an {v}")
    if text[:2] in ("a ", "A ") and text[2:3] and text[2] in _VOWELS:
        text = text[0] + "n" + text[1:]
    return text


def gerund(verb: str) -> str:
    """'measure' -> 'measuring', 'cut' -> 'cutting'."""
    if verb in ("cut", "spin", "set"):
        return verb + verb[-1] + "ing"
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    return verb + "ing"


def third(verb: str) -> str:
    """'process' -> 'processes', 'classify' -> 'classifies'."""
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _words(r: random.Random, cls: int) -> dict[str, list[str]]:
    c = CLASSES[cls]
    v = VOCAB[c.section]
    return {"subject": [r.choice(v.subjects)], "topic": [r.choice(c.topics)], "comp": r.sample(v.components, 6),
            "qual": r.sample(v.qualities, 2), "act": r.sample(v.actions, 3), "obj": r.sample(v.objects, 3),
            "eff": r.sample(v.effects, 2), "mat": r.sample(v.materials, 2), "field": r.sample(v.fields, 3)}


def _title(r: random.Random, w: dict[str, list[str]]) -> str:
    s, t, q = w["subject"][0], w["topic"][0], w["qual"][0]
    forms = (f"{q} {s} for {t}", f"{s} and method for {gerund(w['act'][0])} {w['obj'][0]}",
             f"Method of {gerund(w['act'][0])} {w['obj'][0]} using a {q} {w['comp'][0]}", f"{t} {s}",
             f"{s} with {q} {w['comp'][0]} for {t}")
    title = r.choice(forms)
    return an(title[0].upper() + title[1:])


def _sentences(w: dict[str, list[str]], r: random.Random) -> dict[str, str]:
    s, c, a, o, e = w["subject"][0], w["comp"], w["act"], w["obj"], w["eff"]
    problem = (f"To provide a {w['qual'][0]} {s} capable of {gerund(a[0])} {o[0]} with "
               f"{e[0]} in {w['topic'][0]}.")
    solution = (f"The {s} includes a {c[0]} configured to {a[0]} the {o[0]}, a {c[1]} connected to the {c[0]}, "
                f"and a {c[2]} that {third(a[1])} the {o[1]} based on an output of the {c[1]}.")
    effect = f"The {s} achieves {e[0]} and {e[1]}."
    if r.random() < 0.4:
        effect += f" In addition, the {c[2]} can be made {w['qual'][1]}."
    nf = 1 if r.random() < 0.6 else 3
    field_ = ", ".join(w["field"][:nf])
    substance = (f"The {s} comprises {w['mat'][0]} as the {c[0]} and {w['mat'][1]} in the {c[1]}, in a weight "
                 f"ratio of {r.randint(1, 9)}:{r.randint(1, 9)}.")
    out = {"problem": problem, "solution": solution, "effect": effect, "field": field_, "substance": substance}
    return {k: an(v) for k, v in out.items()}


def _independent(num: int, kind: int, w: dict[str, list[str]], r: random.Random) -> Claim:
    s, c, a, o = w["subject"][0], w["comp"], w["act"], w["obj"]
    picks = r.sample(range(6), 3)
    if kind == 1:
        steps = [f"{gerund(a[i % 3])} the {o[i % 3]} by means of the {c[j]};" for i, j in enumerate(picks)]
        steps[-2] = steps[-2]
        steps[-1] = "and " + steps[-1][:-1] + "."
        return Claim(num, (), an(f"A method of {gerund(a[0])} {o[0]} using a {s}, the method comprising:"), tuple(steps))
    elems = [f"a {c[j]} configured to {a[i % 3]} the {o[i % 3]};" for i, j in enumerate(picks)]
    elems[-1] = "and " + elems[-1][:-1] + "."
    pre = f"A {s} for {w['topic'][0]}, comprising:" if kind == 0 else f"A system comprising a {w['qual'][0]} {s}, the system comprising:"
    return Claim(num, (), an(pre), tuple(an(e) for e in elems))


def _dependent(num: int, ref: int, kind: int, w: dict[str, list[str]], r: random.Random) -> Claim:
    """A dependent claim adding one feature; one draw picks the form, only that form is built."""
    noun = {0: w["subject"][0], 1: "method", 2: "system"}[kind]
    u = r.random()
    comp, act, obj = w["comp"][int(u * 6007) % 6], w["act"][int(u * 7919) % 3], w["obj"][int(u * 4099) % 3]
    form = int(u * 4)
    if form == 0:
        body = f", wherein the {comp} comprises {w['mat'][int(u * 977) % 2]}."
    elif form == 1:
        body = f", wherein the {comp} is {w['qual'][int(u * 977) % 2]}."
    elif form == 2:
        body = f", further comprising a {comp} configured to {act} the {obj}."
    else:
        body = f", wherein the {comp} {third(act)} the {obj} at a rate of {2 + int(u * 93731) % 94} units per second."
    return Claim(num, (ref,), f"The {noun} of", (), an(body))


def _claim_plan(r: random.Random) -> tuple[int, int]:
    """(independent claims, total claims): the first draws of the claims stream."""
    n_indep = r.choices((1, 2, 3), (0.5, 0.35, 0.15))[0]
    return n_indep, r.randint(max(6, 3 * n_indep), 20)


def claim_count(seed: int) -> int:
    """Number of claims of an invention without generating them."""
    return _claim_plan(random.Random(seed ^ CLAIMS_SALT))[1]


def make_claims(r: random.Random, w: dict[str, list[str]]) -> list[Claim]:
    """1-3 independent claims, each followed by its dependents (which refer back within the group)."""
    n_indep, total = _claim_plan(r)
    sizes = [total // n_indep + (1 if i < total % n_indep else 0) for i in range(n_indep)]
    claims: list[Claim] = []
    for g, size in enumerate(sizes):
        head = len(claims) + 1
        kind = g % 3
        claims.append(_independent(head, kind, w, r))
        for _ in range(size - 1):
            num = len(claims) + 1
            ref = head if r.random() < 0.7 else r.randint(head, num - 1)
            claims.append(_dependent(num, ref, kind, w, r))
    return claims


def _description(w: dict[str, list[str]], sent: dict[str, str], r: random.Random) -> list[tuple[str, str]]:
    s, c, q = w["subject"][0], w["comp"], w["qual"]
    out = [("heading", "TECHNICAL FIELD"),
           ("p", f"The present disclosure relates to {w['field'][0]}, and more particularly to {w['topic'][0]} "
                 f"using a {q[0]} {s}."),
           ("heading", "BACKGROUND"),
           ("p", f"Conventional {s}s rely on a {c[3]} to {w['act'][2]} the {w['obj'][2]}. Such designs suffer "
                 f"from limited {w['eff'][0].split(' ', 1)[-1]}."),
           ("p", f"There is therefore a need for a {s} that offers {w['eff'][0]}."),
           ("heading", "SUMMARY"), ("p", sent["solution"]), ("p", sent["effect"]),
           ("heading", "BRIEF DESCRIPTION OF THE DRAWINGS"),
           ("p", f"FIG. 1 is a schematic view of the {s} according to an embodiment."),
           ("p", f"FIG. 2 is a flow chart of a method of {gerund(w['act'][0])} {w['obj'][0]}."),
           ("heading", "DETAILED DESCRIPTION")]
    for k in range(r.randint(2, 4)):
        out.append(("p", f"As shown in FIG. 1, the {c[k]} ({100 + 2 * k}) is arranged adjacent to the {c[k + 1]} "
                         f"({102 + 2 * k}) and may be formed of {r.choice(w['mat'])}. The {c[k]} {third(w['act'][k % 3])} "
                         f"the {w['obj'][k % 3]} when the {s} is in operation."))
    out.append(("heading", "EXAMPLES"))
    for k in (1, 2):
        out.append(("heading", f"Example {k}"))
        out.append(("p", f"A {s} was prepared with {r.randint(2, 40)} wt% {w['mat'][k - 1]} in the {c[0]}; "
                         f"it showed {w['eff'][k - 1]} compared with a reference sample."))
    return [(kind, an(text)) for kind, text in out]


def invention_text(seed: int, cls: int, detailed: bool = False) -> InventionText:
    """All text of one invention from its seed and main IPC class (`detailed`: a long description)."""
    r = random.Random(seed)
    w = _words(r, cls)
    sent = _sentences(w, r)
    title = _title(r, w)
    abstract = an(f"A {w['qual'][0]} {w['subject'][0]} for {w['topic'][0]} is disclosed. {sent['solution']} "
                  f"The {w['comp'][3]} {third(w['act'][2])} the {w['obj'][2]}. {sent['effect']}")
    return InventionText(title, abstract, sent["problem"], sent["solution"], sent["effect"], sent["field"],
                         sent["substance"], w, seed, detailed)


def segmented_abstract(t: InventionText, pattern: int, drawing: bool) -> str:
    """Abstract in one of the 7 segmentation patterns (1-based, see PATTERNS); 0 = plain."""
    p, s, e = t.problem, t.solution, t.effect
    body = {0: t.abstract,
            1: f"PROBLEM TO BE SOLVED: {p} SOLUTION: {s}",
            2: f"PROBLEM: {p} SOLUTION: {s}",
            3: f"PURPOSE: {p} CONSTITUTION: {s}",
            4: f"[problem] {p} [solution] {s}",
            5: f"FIELD: {t.field_}. SUBSTANCE: {t.substance} EFFECT: {e}",
            6: f"SOLUTION: {s} EFFECT: {e}",
            7: f"{p} SOLUTION: {s}"}[pattern]
    return body + " SELECTED DRAWING: Figure 1" if drawing and pattern else body


def paper_text(seed: int, t: InventionText | None, cls: int) -> tuple[str, str]:
    """(title, abstract) of a paper: on the invention's topic when `t` is given, else on a fresh one."""
    r = random.Random(seed)
    w = t.words if t is not None else _words(r, cls)
    s, c = w["subject"][0], w["comp"]
    title = r.choice((f"A {w['qual'][0]} {s} for {w['topic'][0]}",
                      f"{w['topic'][0].capitalize()} with a {w['qual'][0]} {c[0]}: towards {w['eff'][0]}",
                      f"On {gerund(w['act'][0])} {w['obj'][0]} with {c[0]} and {c[1]}"))
    abstract = (f"We study {w['topic'][0]} and present a {w['qual'][0]} {s} in which a {c[0]} {third(w['act'][0])} "
                f"the {w['obj'][0]} and a {c[1]} {third(w['act'][1])} the {w['obj'][1]}. Experiments with "
                f"{w['mat'][0]} show {w['eff'][0]} and {w['eff'][1]}.")
    return an(title[0].upper() + title[1:]), an(abstract)
