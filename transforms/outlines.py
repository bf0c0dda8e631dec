"""Pap2Pat outlines: per-section bullet lists at four levels of detail, plus the markdown renderings.

A section with text gets n = max(1, floor(num_characters / c)) bullets with c = 500 (long), 1000
(medium), 2000 (short), none without text; `empty` keeps the headings only. SPEC writes ceil(num_characters / c),
but the original's released files follow the floor rule: in its golden example (W2145591944-US20170022510)
the sections of 83, 417, 1013 and 6772 characters have 1/1/1, 1/1/1, 2/1/1 and 13/6/3 bullets, which floor
with a minimum of 1 reproduces and neither ceil (3/2/1, 14/7/4) nor round (14/7/3) does. `rounding="ceil"`
keeps SPEC's literal rule. The paper's bullets were written by an LLM; ours are
extractive and deterministic: the section's sentences are cut into n chunks of about equal length
and each chunk contributes its most central sentence. The bullet writer is a plain function
(paragraphs, n) -> bullets, so a model-based writer can replace it without touching the rest.
`num_characters` is len("\\n\\n".join(paragraphs)), as in the golden example.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping

BulletWriter = Callable[[list[str], int], list[str]]
LEVELS: Mapping[str, int] = {"long": 500, "medium": 1000, "short": 2000}
ROUNDINGS = ("ceil", "floor")
# abbreviations after which a period does not end a sentence ("FIG. 1", "M. haemolytica", "No. 14")
_ABBREV = re.compile(r"(?:\b(?:FIGS?|Fig|No|Nos|Ser|al|e\.g|i\.e|etc|vs|approx|ca|Dr|Mr|Ms|Prof|Ex|Eq|Ref|U\.S"
                     r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)"
                     r"|\b[A-Z])\.$")
_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[“\"])")
_WORD = re.compile(r"[a-z][a-z0-9]+")
_STOP = frozenset("the a an of and or to in for on with by as is are be was were that this which it its at from "
                  "may can each such said wherein thereof further also more than into".split())


def num_characters(paragraphs: list[str]) -> int:
    """Length of a section's own text, paragraphs joined by blank lines (golden `num_characters`)."""
    return len("\n\n".join(paragraphs))


def bullet_count(n_chars: int, chars_per_bullet: int, rounding: str = "floor") -> int:
    """Bullets for a section of `n_chars` own characters: 0 without text, else at least 1.

    `floor` (default) reproduces the released Pap2Pat files (max(1, n // c)); `ceil` is SPEC's wording."""
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {ROUNDINGS}, not {rounding!r}")
    if n_chars <= 0:
        return 0
    n = math.ceil(n_chars / chars_per_bullet) if rounding == "ceil" else n_chars // chars_per_bullet
    return max(1, n)


def bullet_rule(rounding: str = "floor") -> str:
    """The bullet budget in words, for the dataset card."""
    if rounding == "floor":
        return ("n = max(1, floor(chars / c)) per section with text (0 without), the rule that reproduces every "
                "section of the original's golden example W2145591944-US20170022510 at every level (SPEC's "
                "ceil(chars / c) would give 3/2/1 and 14/7/4 bullets where the release has 2/1/1 and 13/6/3)")
    return "n = max(1, ceil(chars / c)) per section with text (0 without), SPEC's wording"


def split_sentences(text: str) -> list[str]:
    """Sentences of a paragraph; a period after a known abbreviation or an initial does not split."""
    out: list[str] = []
    for piece in _BOUNDARY.split(text.strip()):
        if out and _ABBREV.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        elif piece:
            out.append(piece)
    return out


def _chunks(sentences: list[str], n: int) -> Iterator[list[str]]:
    """n consecutive runs of sentences of about equal character length (fewer if sentences run out)."""
    total = sum(len(s) for s in sentences)
    run: list[str] = []
    done, k = 0, 1
    for s in sentences:
        run.append(s)
        done += len(s)
        if done >= total * k / n and k < n:
            yield run
            run, k = [], k + 1
    if run:
        yield run


def extractive_bullets(paragraphs: list[str], n: int, max_chars: int = 160) -> list[str]:
    """Default writer: per chunk, the sentence whose words are most frequent in the section (ties: earliest)."""
    sentences = [s for p in paragraphs for s in split_sentences(p)]
    if n <= 0 or not sentences:
        return []
    freq = Counter(w for s in sentences for w in _WORD.findall(s.lower()) if w not in _STOP)

    def score(s: str) -> float:
        words = [w for w in _WORD.findall(s.lower()) if w not in _STOP]
        return sum(freq[w] for w in words) / (len(words) + 1)

    bullets = []
    for chunk in _chunks(sentences, min(n, len(sentences))):
        best = max(chunk, key=score)  # max keeps the first of equal scores
        bullets.append(_shorten(best.rstrip(" ."), max_chars))
    return bullets


def _shorten(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    cut = text[:max_chars].rsplit(" ", 1)[0]
    return cut + " …"


def add_outlines(sections: list[dict], writer: BulletWriter = extractive_bullets,
                 levels: Mapping[str, int] = LEVELS, rounding: str = "floor") -> list[dict]:
    """New section dicts with `outline_<level>` lists and `num_characters`, in the golden key order."""
    out = []
    for sec in sections:
        n_chars = num_characters(sec["paragraphs"])
        new = {"title": sec["title"], "paragraphs": list(sec["paragraphs"]),
               "subsections": add_outlines(sec["subsections"], writer, levels, rounding)}
        for k, (name, chars) in enumerate(levels.items()):
            new[f"outline_{name}"] = writer(new["paragraphs"], bullet_count(n_chars, chars, rounding))
            if k == 0:
                new["num_characters"] = n_chars
        out.append(new)
    return out


def iter_sections(sections: list[dict], level: int = 1) -> Iterator[tuple[int, dict]]:
    """(depth, section) in document order, depth 1 for the top."""
    for sec in sections:
        yield level, sec
        yield from iter_sections(sec["subsections"], level + 1)


def render_outline(sections: list[dict], level: str) -> str:
    """`patent_outline_<level>.md` of the original: headings as #…, bullets as '- '; `empty` = headings."""
    parts = []
    for depth, sec in iter_sections(sections):
        parts.append(f"{'#' * depth} {sec['title']}\n\n")
        bullets = [] if level == "empty" else sec.get(f"outline_{level}") or []
        if bullets:
            parts.append("".join(f"- {b}\n" for b in bullets) + "\n")
    return "".join(parts)


def render_fulltext(sections: list[dict]) -> str:
    """`paper.md` / `patent.md` of the original: headings, then paragraphs separated by blank lines."""
    parts = []
    for depth, sec in iter_sections(sections):
        parts.append(f"{'#' * depth} {sec['title']}\n\n")
        if sec["paragraphs"]:
            parts.append("\n\n".join(sec["paragraphs"]) + "\n\n")
    return "".join(parts)


def outline_levels(levels: Mapping[str, int] = LEVELS) -> tuple[str, ...]:
    """Names of every published outline, `empty` last."""
    return (*levels, "empty")
