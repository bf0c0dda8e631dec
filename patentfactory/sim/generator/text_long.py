"""Text of real length for Pap2Pat: long patent descriptions and full-text papers, from an invention's words.

Real US descriptions run to ~18k tokens with sections of several thousand characters; the short ones of
`text._description` are shorter than one outline bullet's span (500 characters), so every outline level
would have one bullet per section. A research-heavy invention (one with a paper) gets this long form:
the usual top headings, mixed-case subsections under DETAILED DESCRIPTION, several examples, each
section of many sentences drawn from templates over the invention's vocabulary. The paper behind it
gets an IMRaD body on the same topic in a paper's voice (`paper_body`), which the semopenalex renderer
writes as JATS or PDF. Everything is drawn from the given random stream: deterministic per seed.
"""
from __future__ import annotations

import random

from .text import _words, an, gerund, third

_DETAIL = (
    "The {c0} may be formed of {m0} or {m1}, and its thickness may be selected according to the {o0} to be handled.",
    "In some embodiments, the {c0} is coupled to the {c1} through a {c2}, so that the {o1} passes between them.",
    "The {c1} {a1s} the {o1} at a rate that depends on the load applied to the {c3}.",
    "When the {s} is switched on, the {c2} first {a0s} the {o0} and then signals the {c4}.",
    "A controller may monitor the {c5} and adjust the {c1} so as to keep the {o2} within a predetermined range.",
    "Because the {c3} is {q0}, the {s} achieves {e0} without an additional {c5}.",
    "The {c4} can be replaced by any element able to {a2} the {o2}, for example a second {c0}.",
    "Tests on prototypes showed that a gap of {n1} mm between the {c0} and the {c1} gives the best {e1}.",
    "The {c5} is optional; where it is omitted, the {c2} takes over its function of {a2g} the {o2}.",
    "Referring to FIG. {f}, the {c3} ({r1}) is mounted on a frame ({r2}) and held by the {c4} ({r3}).",
    "The {o0} enters the {s} through an inlet of the {c0} and leaves it, once treated, through the {c5}.",
    "In a variant, two {c1}s are arranged in series, which doubles the capacity for {a1g} the {o1}.",
    "The operating temperature of the {c2} is typically between {n1} and {n2} degrees Celsius.",
    "A surface of the {c4} may be coated with {m1} to reduce wear caused by the {o2}.",
    "The {s} can also be used in {fd1}, where the {c3} {a0s} the {o0} under different conditions.",
    "Each {c0} carries an identifier that the controller reads before {a0g} the {o0}.",
    "The dimensions given here are examples only, and a skilled person may scale the {c1} to the application.",
    "Software running on the controller computes a quality index of the {o1} from signals of the {c5}.",
)
_BACKGROUND = (
    "Known {s}s in {fd0} use a {c3} to {a2} the {o2}, which limits {e0w}.",
    "Such devices need frequent maintenance, since the {c3} wears quickly when the {o2} is abrasive.",
    "Attempts to replace the {c3} by a {q1} {c4} have raised the cost without improving {e1w}.",
    "Moreover, the {o0} is often handled in several separate steps, each with its own {c0}.",
    "A further difficulty arises in {t}, where the available space is small and the {c1} must stay accessible.",
)
_SUMMARY = (
    "According to one aspect, a {s} comprises a {c0}, a {c1} and a {c2}, the {c2} being controlled by the {c1}.",
    "According to another aspect, a method of {a0g} {o0} comprises feeding the {o0} to the {c0} and checking the {c1}.",
    "In embodiments, the {c0} comprises {m0} and the {c1} comprises {m1}.",
    "The {s} may further comprise a {c5} that {a2s} the {o2}.",
)
_EXAMPLE = (
    "A sample of {o0} ({n2} g) was fed to a {s} whose {c0} contained {n1} wt% {m0}.",
    "The {c1} was operated for {n1} minutes at {n2} degrees Celsius, and the {o1} was collected.",
    "The {e0w} measured on the product was {p1} % higher than that of a reference sample treated without the {c2}.",
    "The experiment was repeated {n3} times; the spread between runs was below {n3} %.",
    "Replacing {m0} by {m1} in the {c0} gave a comparable result, with a slightly lower {e1w}.",
)
_PAPER = {
    "Introduction": (
        "Research on {t} has grown quickly, yet the {o0} remains difficult to handle at scale.",
        "Earlier studies relied on a {c3} whose performance degrades with the {o2}.",
        "Here we ask whether a {q0} {c0} combined with a {c1} can deliver {e0}.",
        "Our hypothesis is that coupling the two parts reduces the losses seen in {fd0}.",
        "We report the design, a set of experiments and an analysis of the limits of the approach.",
    ),
    "Materials and Methods": (
        "The {c0} was fabricated from {m0}, and the {c1} from {m1}.",
        "Samples of {o0} were obtained from a commercial supplier and stored at {n1} degrees Celsius.",
        "Each run lasted {n2} minutes, and {n3} replicate runs were performed per condition.",
        "Signals from the {c5} were recorded at {n1} Hz and analysed with custom scripts.",
        "Statistical significance was assessed with a two-sided t-test at the 5 % level.",
    ),
    "Results": (
        "The prototype reached {e0} in {n3} of {n3} runs.",
        "Compared with the baseline {c3}, throughput of {o1} rose by {p1} %.",
        "The effect was strongest when the {c2} operated near {n2} degrees Celsius.",
        "Replacing {m0} with {m1} changed the outcome by less than {n3} %.",
        "Long runs showed no measurable wear of the {c0} after {n1} cycles.",
    ),
    "Discussion": (
        "These findings suggest that the {c1} is the main driver of {e1}.",
        "A limitation of the study is the small number of {o2} types tested.",
        "The approach could extend to {fd1}, which we leave to future work.",
        "Cost and scale-up remain open questions for industrial use.",
    ),
}


def _fill(template: str, w: dict[str, list[str]], s: str, r: random.Random) -> str:
    c, a, o, e, m, q, fd = w["comp"], w["act"], w["obj"], w["eff"], w["mat"], w["qual"], w["field"]
    vals = {"s": s, "t": w["topic"][0], "q0": q[0], "q1": q[1], "m0": m[0], "m1": m[1],
            "e0": e[0], "e1": e[1], "e0w": e[0].split(" ", 1)[-1], "e1w": e[1].split(" ", 1)[-1],
            "fd0": fd[0], "fd1": fd[1 % len(fd)], "f": r.randint(1, 6), "n1": r.randint(2, 90),
            "n2": r.randint(20, 300), "n3": r.randint(2, 9), "p1": r.randint(5, 60),
            "r1": 100 + 2 * r.randint(0, 20), "r2": 140 + 2 * r.randint(0, 20), "r3": 180 + 2 * r.randint(0, 20)}
    for k in range(6):
        vals[f"c{k}"] = c[k]
    for k in range(3):
        vals[f"a{k}"], vals[f"a{k}s"], vals[f"a{k}g"] = a[k], third(a[k]), gerund(a[k])
        vals[f"o{k}"] = o[k]
    return an(template.format(**vals))


def _paragraphs(w: dict[str, list[str]], s: str, r: random.Random, pool: tuple[str, ...], n: int,
                per: tuple[int, int] = (3, 5)) -> list[str]:
    """n paragraphs of per[0]..per[1] sentences drawn (without repeats inside a paragraph) from `pool`."""
    return [" ".join(_fill(t, w, s, r) for t in r.sample(pool, min(len(pool), r.randint(*per)))) for _ in range(n)]


def long_description(w: dict[str, list[str]], sent: dict[str, str], r: random.Random) -> list[tuple[str, str]]:
    """("heading"|"p", text) of a description of real proportions (~15-30k characters)."""
    s, c = w["subject"][0], w["comp"]
    out = [("heading", "TECHNICAL FIELD"),
           ("p", an(f"The present disclosure relates to {w['field'][0]}, and more particularly to {w['topic'][0]} "
                    f"using a {w['qual'][0]} {s}.")),
           ("heading", "BACKGROUND")]
    out += [("p", t) for t in _paragraphs(w, s, r, _BACKGROUND, r.randint(3, 5))]
    out += [("heading", "SUMMARY"), ("p", sent["solution"]), ("p", sent["effect"])]
    out += [("p", t) for t in _paragraphs(w, s, r, _SUMMARY, r.randint(3, 6), (2, 4))]
    out.append(("heading", "BRIEF DESCRIPTION OF THE DRAWINGS"))
    out += [("p", an(f"FIG. {k} is a {view} of the {c[k - 1]} according to an embodiment."))
            for k, view in enumerate(("schematic view", "sectional view", "flow chart", "graph", "detail view")[
                :r.randint(3, 5)], 1)]
    out.append(("heading", "DETAILED DESCRIPTION"))
    out += [("p", t) for t in _paragraphs(w, s, r, _DETAIL, r.randint(2, 4))]
    for title in (f"Structure of the {s}", f"The {c[0]} and the {c[1]}", f"Operation of the {c[2]}",
                  "Materials and manufacture", "Control")[:r.randint(3, 5)]:
        out.append(("heading", an(title[0].upper() + title[1:])))
        out += [("p", t) for t in _paragraphs(w, s, r, _DETAIL, r.randint(4, 9))]
    out.append(("heading", "EXAMPLES"))
    for k in range(1, r.randint(3, 5)):
        out.append(("heading", f"Example {k}"))
        out += [("p", t) for t in _paragraphs(w, s, r, _EXAMPLE, r.randint(2, 4), (3, 5))]
    return out


def paper_body(seed: int, words: dict[str, list[str]] | None, cls: int) -> list[dict]:
    """Sections `{title, paragraphs, subsections}` of a paper's body (IMRaD), on `words`' topic."""
    r = random.Random(seed ^ 0x9A9E5)
    w = words if words is not None else _words(random.Random(seed), cls)
    s = w["subject"][0]
    out = []
    for title, pool in _PAPER.items():
        paras = _paragraphs(w, s, r, pool, r.randint(4, 7), (3, 5))
        subs = []
        if title == "Materials and Methods":
            subs = [{"title": sub, "paragraphs": _paragraphs(w, s, r, pool, r.randint(2, 4), (3, 5)),
                     "subsections": []} for sub in ("Fabrication", "Measurements")]
        out.append({"title": title, "paragraphs": paras, "subsections": subs})
    return out
