"""Pap2Pat outlines: per-section bullet lists at four levels of detail, plus the markdown renderings.

Bullet budget, as the authors' step_07 counts it: a section with text gets n = max(1, chars // c) bullets with
c = 500 (long), 1000 (medium), 2000 (short), none without text, where chars is the sum of its paragraphs' lengths
(no separators) and the rule applies per chunk of the model's window: a section whose paragraphs alone exceed the
window is halved (by paragraph count, a single paragraph at its middle character) until each piece fits, and
each piece gets its own max(1, floor). Their window is 8192 - 2048 Llama-3 tokens minus the prompt; here it is
CHUNK_CHARS characters, the value that reproduces the most released sections (98.4 % of 17,896 at every level;
without chunking 94.2 %, with ceil 15-38 %). `empty` keeps the headings only. `rounding="ceil"` is kept as an option.

Bullets summarise, they never copy: the paper's bullets are short phrases written by an LLM ("amplify DNA
fragments", 5.4 ± 2.3 words). The offline writer here is deterministic and needs no model: the span is
cut into n parts of about equal length, candidate key phrases are the runs of content words between
stop words and punctuation (RAKE), scored by how often their words occur in the section, and each part
gets its most salient unused phrase behind a verb cue ("describe sensor housing"), plus a second phrase
when the first is short. A writer is any function (paragraphs, n) -> bullets (`BulletWriter`); whatever
it returns goes through `guard_bullets`, which cuts a bullet at its first run of COPY_WORDS words that
appears verbatim in the patent, so no writer, model-based or not, can leak the target.
`num_characters` is len("\\n\\n".join(paragraphs)), as in the golden example.

A writer may instead take the authors' unit, a chunk of the section tree with its headings (`ChunkWriter`, e.g. the
LLM route): `chunk_parts` packs the sections in document order, each with its own budget, into chunks of at most
`chunk_chars` characters (a longer section is halved as above, its heading shown on its first piece only), and the
writer answers one bullet list per part.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

BulletWriter = Callable[[list[str], int], list[str]]
LEVELS: Mapping[str, int] = {"long": 500, "medium": 1000, "short": 2000}
ROUNDINGS = ("floor", "ceil")
CHUNK_CHARS = 24_000  # the authors' prompt window in characters (≈ 5,500 Llama-3 tokens of section text)
COPY_WORDS = 6  # SPEC: no bullet of 6 or more words appears verbatim in the patent
MAX_PHRASE_WORDS = 4
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9'’-]*|\d+(?:[.,]\d+)*|[^\sA-Za-z0-9]")
_NORM_WORD = re.compile(r"[a-z0-9]+")
_SENTENCE = re.compile(r"[^.;:!?]+(?:[.;:!?]+|$)")
_STOP = frozenset("""
a about above according after again against all along also although am among an and another any are as at
be because been before being below between both but by can could did do does done due during each either
else etc even ever every for from further had has have having here herein hereby hereof hereto how however i
if in into is it its itself just least less may might more most much must my near neither no nor not now of
off on once one only onto or other others otherwise our out over own per rather said same several shall
she should since so some such than that the their them then there thereby therefore therein thereof these
they this those though through thus to too toward towards under until up upon us use used uses using very
via was we were what when whenever where whereas wherein whether which while who whom whose why will with
within without would yet you your
comprise comprises comprising comprised include includes including included contain contains containing
consist consists consisting configured arranged adapted provided provide provides providing disposed
present invention disclosure embodiment embodiments example examples exemplary aspect aspects certain various
respectively generally particularly preferably typically e.g i.e fig figs figure figures shown show shows
described describe describes illustrated illustrate illustrates depicted depicts see also refer refers
referred given made make makes well first second third non ser nos approx ca ml mg ug µl μl ul nm mm cm
min hr hrs rpm wt vol sec
""".split())
# cue verbs: a phrase's sentence that holds one of these forms gets the verb, else "introduce" for a section's
# first bullet (of several) and "describe" after it, the release's two commonest openings (38 % and 9 % of bullets)
_VERBS = {v: k for k, forms in {
    "prepare": "prepared prepare prepares preparing", "measure": "measured measure measures measuring",
    "connect": "connected connect connects connecting", "form": "formed form forms forming",
    "detect": "detected detect detects detecting", "control": "controls controlled controlling",
    "determine": "determined determine determines determining", "compare": "compared compare compares comparing",
    "apply": "applied apply applies applying", "heat": "heated heating", "mix": "mixed mixing",
    "transmit": "transmitted transmit transmits transmitting", "receive": "received receive receives receiving",
    "store": "stored store stores storing", "generate": "generated generate generates generating",
    "process": "processed processes processing", "test": "tested testing", "analyse": "analyzed analysed analyzing",
    "amplify": "amplified amplify amplifying", "clone": "cloned cloning", "transform": "transformed transforming",
    "treat": "treated treat treating", "coat": "coated coating", "cut": "cutting", "rotate": "rotated rotates rotating",
    "select": "selected selects selecting", "calculate": "calculated calculates calculating",
    "motivate": "need conventional drawback drawbacks problem problems", "define": "relates relate field",
}.items() for v in forms.split()}


def num_characters(paragraphs: list[str]) -> int:
    """Length of a section's own text, paragraphs joined by blank lines (golden `num_characters`)."""
    return len("\n\n".join(paragraphs))


def bullet_chars(paragraphs: list[str]) -> int:
    """Characters the authors' budget counts: the paragraphs' lengths summed, without separators."""
    return sum(len(p) for p in paragraphs)


def bullet_count(n_chars: int, chars_per_bullet: int, rounding: str = "floor") -> int:
    """Bullets for one chunk of `n_chars` characters: 0 without text, else max(1, n // c) (`ceil`: rounded up)."""
    if rounding not in ROUNDINGS:
        raise ValueError(f"rounding must be one of {ROUNDINGS}, not {rounding!r}")
    if n_chars <= 0:
        return 0
    n = math.ceil(n_chars / chars_per_bullet) if rounding == "ceil" else n_chars // chars_per_bullet
    return max(1, n)


def chunk_paragraphs(paragraphs: list[str], max_chars: int = CHUNK_CHARS) -> list[list[str]]:
    """The pieces the authors' chunker cuts a section's paragraphs into: halves by paragraph count (a lone paragraph
    at its middle character), recursively, until each piece has at most `max_chars` characters."""
    if bullet_chars(paragraphs) <= max_chars or not paragraphs:
        return [paragraphs]
    if len(paragraphs) == 1:
        half = len(paragraphs[0]) // 2
        return chunk_paragraphs([paragraphs[0][:half]], max_chars) + chunk_paragraphs([paragraphs[0][half:]], max_chars)
    half = len(paragraphs) // 2
    return chunk_paragraphs(paragraphs[:half], max_chars) + chunk_paragraphs(paragraphs[half:], max_chars)


def section_bullets(paragraphs: list[str], chars_per_bullet: int, rounding: str = "floor",
                    chunk_chars: int | None = CHUNK_CHARS) -> int:
    """A section's bullet budget: `bullet_count` per chunk, summed (`chunk_chars=None`: one chunk)."""
    paragraphs = [p for p in paragraphs if p]
    if not paragraphs:
        return 0
    pieces = chunk_paragraphs(paragraphs, chunk_chars) if chunk_chars else [paragraphs]
    return sum(bullet_count(bullet_chars(p), chars_per_bullet, rounding) for p in pieces)


@dataclass(frozen=True)
class ChunkPart:
    """One section's piece inside a chunk: its depth (1 = top), heading, text, bullet budget, and whether the heading
    is shown (the first piece of a section)."""
    depth: int
    title: str
    paragraphs: tuple[str, ...]
    n: int
    heading: bool = True
    section: int = 0  # the section's number in document order


@runtime_checkable
class ChunkWriter(Protocol):
    """A writer that answers a whole chunk: one list of exactly `part.n` bullets per part."""

    def write_chunk(self, parts: list[ChunkPart], chars_per_bullet: int) -> list[list[str]]: ...


def chunk_parts(sections: list[dict], chars_per_bullet: int, rounding: str = "floor",
                chunk_chars: int = CHUNK_CHARS) -> list[list[ChunkPart]]:
    """The section tree as the authors' model saw it: consecutive sections (with headings, text and budget) packed
    into chunks of at most `chunk_chars` characters of text; a section over the window is cut by `chunk_paragraphs`
    and each piece, with its own budget, starts or joins a chunk. Sections without text come along as headings."""
    chunks: list[list[ChunkPart]] = [[]]
    size = 0
    for number, (depth, sec) in enumerate(iter_sections(sections)):
        paragraphs = [p for p in sec["paragraphs"] if p]
        for k, piece in enumerate(chunk_paragraphs(paragraphs, chunk_chars) if paragraphs else [[]]):
            chars = bullet_chars(piece)
            if size + chars > chunk_chars and chunks[-1]:
                chunks.append([])
                size = 0
            chunks[-1].append(ChunkPart(depth, sec["title"], tuple(piece),
                                        bullet_count(chars, chars_per_bullet, rounding), k == 0, number))
            size += chars
    return [c for c in chunks if any(p.n for p in c)]


def bullet_rule(rounding: str = "floor", chunk_chars: int | None = CHUNK_CHARS) -> str:
    """The bullet budget in words, for the dataset card."""
    chunks = (f", per chunk of at most {chunk_chars:,} characters (a longer section is halved until its pieces fit, "
              "as the authors' chunker does for their 6,144-token prompt window)") if chunk_chars else ""
    if rounding == "floor":
        return (f"n = max(1, floor(chars / c)) per section with text (0 without), chars = the paragraphs' lengths "
                f"summed{chunks}: the authors' step_07 rule")
    return (f"n = max(1, ceil(chars / c)) per section with text (0 without){chunks}; departs from the authors' "
            "floor, which their released files follow")


# ---------- the no-copy guard (any writer's output goes through it) ----------

def words(text: str) -> list[str]:
    """Lower-cased alphanumeric words: what 'verbatim' compares (punctuation and case ignored)."""
    return _NORM_WORD.findall(text.lower())


def copy_index(texts: Iterable[str], k: int = COPY_WORDS) -> frozenset[tuple[str, ...]]:
    """Every run of k consecutive words of the texts (the patent), for `copied_run`."""
    out: set[tuple[str, ...]] = set()
    for text in texts:
        w = words(text)
        out.update(tuple(w[i:i + k]) for i in range(len(w) - k + 1))
    return frozenset(out)


def copied_run(bullet: str, index: frozenset[tuple[str, ...]], k: int = COPY_WORDS) -> int | None:
    """Word position where the bullet's first run of k words found in `index` starts; None when there is none."""
    w = words(bullet)
    return next((i for i in range(len(w) - k + 1) if tuple(w[i:i + k]) in index), None)


def guard_bullets(bullets: list[str], index: frozenset[tuple[str, ...]], k: int = COPY_WORDS) -> tuple[list[str], int]:
    """(bullets, how many were cut): a bullet holding a verbatim run of k patent words keeps only the words before
    that run's last word, so no k-word run survives; a bullet cut to nothing is dropped."""
    out, cut = [], 0
    for b in bullets:
        start = copied_run(b, index, k)
        if start is None:
            out.append(b)
            continue
        cut += 1
        kept = b
        while (s := copied_run(kept, index, k)) is not None:
            kept = " ".join(kept.split()[:_raw_position(kept, s + k - 1)])
        if kept.strip():
            out.append(kept.strip())
    return out, cut


def _raw_position(text: str, word_no: int) -> int:
    """Index in text.split() of the whitespace token that holds normalised word `word_no`."""
    seen = 0
    for i, tok in enumerate(text.split()):
        seen += len(words(tok))
        if seen > word_no:
            return i
    return len(text.split())


# ---------- the offline writer: salient key phrases ----------

def _phrases(text: str) -> Iterator[tuple[int, list[str], str | None]]:
    """(char offset, words, cue verb of its sentence) of each candidate phrase: maximal runs of content words
    between stop words, numbers and punctuation (RAKE)."""
    for sent in _SENTENCE.finditer(text):
        toks = list(_TOKEN.finditer(sent.group(0)))
        verb = next((_VERBS[t.group(0).lower()] for t in toks if t.group(0).lower() in _VERBS), None)
        run: list[str] = []
        start = 0
        for m in toks:
            tok, low = m.group(0), m.group(0).lower()
            if tok[0].isalpha() and low not in _STOP and len(low) > 1 and low not in _VERBS:
                if not run:
                    start = sent.start() + m.start()
                run.append(tok)
                continue
            if run:
                yield start, run, verb
            run = []
        if run:
            yield start, run, verb


def key_phrase_bullets(paragraphs: list[str], n: int) -> list[str]:
    """Default writer: n bullets, one per equal-length part of the span, each its most salient unused key phrase."""
    text = "\n\n".join(p for p in paragraphs if p)
    if n <= 0 or not text.strip():
        return []
    cands = list(_phrases(text))
    if not cands:
        return []
    freq = Counter(w.lower() for _, ws, _ in cands for w in ws)

    def score(ws: list[str]) -> float:
        low = [w.lower() for w in ws[:MAX_PHRASE_WORDS]]
        return sum(freq[w] for w in low) / len(low) + min(len(low), 3)

    parts: list[list[tuple[int, list[str], str | None]]] = [[] for _ in range(n)]
    for off, ws, verb in cands:
        parts[min(n - 1, off * n // max(1, len(text)))].append((off, ws, verb))
    used: set[str] = set()
    bullets = []
    for k in range(n):
        pool = parts[k] or [c for part in parts for c in part]  # an empty part borrows from the whole span
        ranked = sorted(pool, key=lambda c: (-score(c[1]), c[0]))
        fresh = [c for c in ranked if _key(c[1]) not in used] or ranked
        _, ws, verb = fresh[0]
        used.add(_key(ws))
        phrase = ws[:MAX_PHRASE_WORDS]
        if len(phrase) < 3:
            seen = {w.lower() for w in phrase}
            extra = next((c for c in fresh[1:] if _key(c[1]) not in used and not seen & {w.lower() for w in c[1]}),
                         None)
            if extra is not None:
                used.add(_key(extra[1]))
                phrase = phrase + ["and"] + extra[1][:2]
        bullets.append(" ".join([verb or ("introduce" if k == 0 and n > 1 else "describe"),
                                 *(_lower(w) for w in phrase)]))
    return bullets


def _key(ws: list[str]) -> str:
    return " ".join(w.lower() for w in ws[:MAX_PHRASE_WORDS])


def _lower(word: str) -> str:
    """Lower case except acronyms and mixed-case names (DNA, lktCA, pBC)."""
    return word if any(c.isupper() for c in word[1:]) or word.isupper() and len(word) > 1 else word.lower()


# ---------- outlines over a section tree ----------

def add_outlines(sections: list[dict], writer: BulletWriter = key_phrase_bullets,
                 levels: Mapping[str, int] = LEVELS, rounding: str = "floor",
                 reference: Iterable[str] = (), counts: dict[str, int] | None = None,
                 chunk_chars: int | None = CHUNK_CHARS) -> list[dict]:
    """New section dicts with `outline_<level>` lists and `num_characters`, in the golden key order.

    Every bullet passes `guard_bullets` against the sections' own text plus `reference` (claims, abstract, title
    of the same patent); `counts` (if given) gets `bullets_<level>`, `bullets_cut_by_copy_guard` and `bullet_words`.
    A `ChunkWriter` is asked once per chunk (`chunk_parts`), a plain writer once per section."""
    index = copy_index([*(p for _, s in iter_sections(sections) for p in s["paragraphs"]), *reference])
    budget = lambda paras, c: section_bullets(paras, c, rounding, chunk_chars)  # noqa: E731
    given = None
    if isinstance(writer, ChunkWriter):
        given = {}
        for name, chars in levels.items():
            for chunk in chunk_parts(sections, chars, rounding, chunk_chars or CHUNK_CHARS):
                for part, bullets in zip(chunk, writer.write_chunk(chunk, chars)):
                    given.setdefault((part.section, name), []).extend(bullets)
    numbers = {id(sec): k for k, (_, sec) in enumerate(iter_sections(sections))}
    return _add(sections, writer, levels, budget, index, counts if counts is not None else {}, given, numbers)


def _add(sections: list[dict], writer: BulletWriter, levels: Mapping[str, int],
         budget: Callable[[list[str], int], int], index: frozenset, counts: dict[str, int],
         given: dict[tuple[int, str], list[str]] | None = None, numbers: dict[int, int] | None = None) -> list[dict]:
    out = []
    for sec in sections:
        n_chars = num_characters(sec["paragraphs"])
        new = {"title": sec["title"], "paragraphs": list(sec["paragraphs"]),
               "subsections": _add(sec["subsections"], writer, levels, budget, index, counts, given, numbers)}
        for k, (name, chars) in enumerate(levels.items()):
            written = (given.get((numbers[id(sec)], name), []) if given is not None
                       else writer(new["paragraphs"], budget(new["paragraphs"], chars)))
            bullets, cut = guard_bullets(written, index)
            new[f"outline_{name}"] = bullets
            counts[f"bullets_{name}"] = counts.get(f"bullets_{name}", 0) + len(bullets)
            counts["bullets_cut_by_copy_guard"] = counts.get("bullets_cut_by_copy_guard", 0) + cut
            counts["bullet_words"] = counts.get("bullet_words", 0) + sum(len(b.split()) for b in bullets)
            if k == 0:
                new["num_characters"] = n_chars
        out.append(new)
    return out


def iter_sections(sections: list[dict], level: int = 1) -> Iterator[tuple[int, dict]]:
    """(depth, section) in document order, depth 1 for the top."""
    for sec in sections:
        yield level, sec
        yield from iter_sections(sec.get("subsections") or [], level + 1)


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
