"""What an LLM answer must satisfy before a build uses it (the LLM routes of stages/llm_routes.py).

Opinion split: every sentence of STATEMENT OF THE CASE and ANALYSIS gets exactly one role, in the order of the text,
and each returned sentence is found verbatim in the source (whitespace and curly quotes aside): nothing invented,
altered, repeated or left out but sub-headings. Outline bullets: exactly n (also in the schema, so a constrained
decoder cannot miss it), each a short phrase, none copying a run of 6 words of the section. A failed check is an
`InvalidAnswer` naming the first problem; that reason goes back to the model in the one retry.
"""
from __future__ import annotations

import re

from sources.llm import InvalidAnswer
from transforms import opinions
from transforms.opinions import ROLES, SPLIT_SECTIONS, Sentence

HEADINGS = {"statement_of_the_case": "STATEMENT OF THE CASE", "analysis": "ANALYSIS"}
MAX_BULLET_WORDS, MAX_BULLET_CHARS, COPY_WORDS = 12, 120, 6
SPLIT_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["sentences"],
    "properties": {"sentences": {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["text", "role"],
        "properties": {"text": {"type": "string", "minLength": 1}, "role": {"type": "string", "enum": list(ROLES)}}}}}}
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_EDGE = ".,;:!?\"'()[]{}"


def bullet_schema(n: int) -> dict:
    """Exactly n short strings: the count is part of the schema, so a constrained decoder cannot miss it."""
    return {"type": "object", "additionalProperties": False, "required": ["bullets"],
            "properties": {"bullets": {"type": "array", "minItems": n, "maxItems": n,
                                       "items": {"type": "string", "minLength": 2, "maxLength": MAX_BULLET_CHARS}}}}


def chunk_schema(counts: list[int]) -> dict:
    """One list per section of a chunk, each of exactly its count of short strings (fixed while decoding)."""
    item = {"type": "string", "minLength": 2, "maxLength": MAX_BULLET_CHARS}
    lists = [{"type": "array", "minItems": n, "maxItems": n, "items": item} for n in counts]
    return {"type": "object", "additionalProperties": False, "required": ["sections"],
            "properties": {"sections": {"type": "array", "minItems": len(counts), "maxItems": len(counts),
                                        "prefixItems": lists, "items": False}}}


def spaced(text: str) -> str:
    return " ".join(text.split())


def norm(text: str) -> str:
    """Whitespace runs to one space, curly quotes to straight: the only liberties a 'verbatim' copy may take
    (the quote folding keeps every character's position, so a match in folded text is a match in the original)."""
    return spaced(text).translate(_QUOTES)


_SENTENCE_END = re.compile(r"[.!?:;][\"')\]”’]*$")


def _is_heading(par: str) -> bool:
    """A short paragraph that does not end a sentence ("REJECTIONS", "Rejection of claims 5-7 under § 112(b)")."""
    return len(par) < 80 and not _SENTENCE_END.search(par)



def split_parts(text: str) -> list[tuple[str, list[str]]]:
    """(section, normalised paragraphs) of the sections the split covers, in the order of the text."""
    return [(sec, [spaced(p) for p in paras if spaced(p)]) for sec, paras in opinions.split_sections(text)
            if sec in SPLIT_SECTIONS]


def split_message(parts: list[tuple[str, list[str]]]) -> str:
    return "\n\n".join(f"{HEADINGS[sec]}\n" + "\n".join(paras) for sec, paras in parts)


def check_split(answer: dict, parts: list[tuple[str, list[str]]]) -> list[Sentence]:
    """Role-tagged sentences of a valid answer; InvalidAnswer naming the first problem otherwise."""
    originals = [p for _, paras in parts for p in paras]
    pars = [(sec, norm(p)) for sec, paras in parts for p in paras]
    whole = "\n".join(p for _, p in pars)
    out: list[Sentence] = []
    pi, off = 0, 0
    for item in answer["sentences"]:
        s = norm(item["text"])
        if not s:
            raise InvalidAnswer("an empty sentence", "")
        if s not in whole:
            raise InvalidAnswer(f"sentence not found in the source (invented or altered): {s[:120]!r}", "")
        while True:
            if pi >= len(pars):
                raise InvalidAnswer(f"sentence repeated or out of order: {s[:120]!r}", "")
            sec, par = pars[pi]
            pos = par.find(s, off)
            gap = par[off:pos if pos >= 0 else len(par)].strip()
            if gap and not (off == 0 and pos < 0 and _is_heading(par)):
                raise InvalidAnswer(f"text left without a role: {gap[:120]!r}", "")
            if pos >= 0:
                out.append(Sentence(section=sec, role=item["role"], text=originals[pi][pos:pos + len(s)], cue=None))
                off = pos + len(s)
                break
            pi, off = pi + 1, 0
    for _, par in pars[pi:]:
        rest = par[off:].strip()
        if rest and not (off == 0 and _is_heading(par)):
            raise InvalidAnswer(f"text left without a role: {rest[:120]!r}", "")
        off = 0
    return out



def _shingles(words: list[str], k: int = COPY_WORDS) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + k]) for i in range(len(words) - k + 1)}


def _words(text: str) -> list[str]:
    """Words as a reader counts them: whitespace-separated, edge punctuation and case aside."""
    return [w for w in (t.strip(_EDGE).lower() for t in text.translate(_QUOTES).split()) if w]


def copied_run(bullet: str, source: str, k: int = COPY_WORDS) -> bool:
    """True when the bullet holds a run of k words that appears verbatim (case and punctuation aside) in source."""
    return bool(_shingles(_words(bullet), k) & _shingles(_words(source), k))


def check_bullets(answer: dict, paragraphs: list[str], n: int) -> list[str]:
    bullets = [" ".join(b.split()).rstrip(" .") for b in answer["bullets"]]
    if len(bullets) != n:
        raise InvalidAnswer(f"{len(bullets)} bullets, not {n}", "")
    source = "\n".join(paragraphs)
    for b in bullets:
        words = len(b.split())
        if not b or words > MAX_BULLET_WORDS:
            raise InvalidAnswer(f"bullet of {words} words (a short phrase has at most {MAX_BULLET_WORDS}): {b!r}", "")
        if copied_run(b, source):
            raise InvalidAnswer(f"bullet copies {COPY_WORDS}+ words of the section: {b!r}", "")
    return bullets


def check_chunk(answer: dict, parts: list[tuple[list[str], int]]) -> list[list[str]]:
    """Per section of a chunk (its paragraphs, n): `check_bullets`; a miscount names the section's place."""
    lists = answer.get("sections") or []
    if len(lists) != len(parts):
        raise InvalidAnswer(f"{len(lists)} bullet lists, not {len(parts)} (one per heading)", "")
    out = []
    for k, (got, (paragraphs, n)) in enumerate(zip(lists, parts), 1):
        try:
            out.append(check_bullets({"bullets": got}, paragraphs, n) if n else [])
        except InvalidAnswer as exc:
            raise InvalidAnswer(f"heading {k}: {exc.reason}", "") from None
        if not n and got:
            raise InvalidAnswer(f"heading {k}: {len(got)} bullets, not 0", "")
    return out
