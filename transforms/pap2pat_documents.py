"""Pap2Pat documents: warehouse rows -> the golden example's `patent.json` / `paper.json` structures.

Every section is `{title, paragraphs, subsections}`; patent sections also carry the outlines and
`num_characters` (transforms/outlines.py). The patent description becomes one root section
`DESCRIPTION` holding the paragraphs before the first heading, with the headings below it. Heading
levels are rebuilt by rules, because USPTO's `level` attribute is unreliable and the `descriptions`
table keeps only each paragraph's nearest heading:
  * ALL-CAPS headings are top level (depth 2, under DESCRIPTION);
  * a mixed-case heading that follows a kept ALL-CAPS heading is its subsection (depth 3), as is a
    dotted number ("2.1 …") or "Example N" under an EXAMPLES-like heading;
  * optionally (`group_examples`, off by default) a run of "Example N" headings with no EXAMPLES-like
    parent gets one (USPTO headings without paragraphs arrive as rows with null text, but other
    sources may have lost such a parent);
  * metadata sections (cross-references, government support, sequence listings, …; in papers also
    competing interests, author contributions, …) are dropped when the heading is within Levenshtein
    distance < 3 of the blacklist (SPEC), paragraphs included; a few content headings that lie that close
    (FINDINGS ~ FUNDING, PREFERENCES ~ REFERENCES) are named and kept;
  * nothing deeper than depth 3; deeper paper sections fold into their ancestor as "**title**" + text.
Papers without full text get one "Abstract" section (flagged by the caller).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from common.sections import prune
from transforms.outlines import CHUNK_CHARS, LEVELS, BulletWriter, add_outlines, key_phrase_bullets

WORK_IRI = "https://semopenalex.org/work/"
ROOT_TITLE = "DESCRIPTION"
EXAMPLES_TITLE = "EXAMPLES"
METADATA_HEADINGS: tuple[str, ...] = (
    "CROSS-REFERENCE TO RELATED APPLICATIONS", "CROSS-REFERENCE TO RELATED APPLICATION", "RELATED APPLICATIONS",
    "REFERENCE TO RELATED APPLICATIONS", "CROSS-REFERENCE TO RELATED PATENT APPLICATIONS", "PRIORITY CLAIM",
    "CLAIM OF PRIORITY", "PRIORITY INFORMATION", "INCORPORATION BY REFERENCE", "STATEMENT OF GOVERNMENT SUPPORT",
    "STATEMENT REGARDING FEDERALLY SPONSORED RESEARCH OR DEVELOPMENT", "GOVERNMENT SUPPORT", "GOVERNMENT INTEREST",
    "GOVERNMENT RIGHTS", "FEDERALLY SPONSORED RESEARCH", "GRANT INFORMATION", "FUNDING", "ACKNOWLEDGMENTS",
    "ACKNOWLEDGEMENTS", "SEQUENCE LISTING", "REFERENCE TO SEQUENCE LISTING", "INCORPORATION OF SEQUENCE LISTING",
    "REFERENCE TO AN ELECTRONIC SEQUENCE LISTING", "STATEMENT REGARDING SEQUENCE LISTING", "REFERENCE SIGNS LIST",
    "LIST OF REFERENCE NUMERALS", "REFERENCE NUMERALS", "DESCRIPTION OF REFERENCE NUMERALS", "REFERENCES",
    "LIST OF REFERENCES", "REFERENCE LIST", "BIBLIOGRAPHY", "CITATION LIST", "LITERATURE CITED", "CITED LITERATURE",
    "PATENT LITERATURE", "NON-PATENT LITERATURE", "LIST OF ABBREVIATIONS",
    'REFERENCE TO A "SEQUENCE LISTING," A TABLE, OR A COMPUTER PROGRAM LISTING APPENDIX SUBMITTED ON COMPACT DISC',
    'REFERENCE TO A "SEQUENCE LISTING," A TABLE, OR A COMPUTER PROGRAM LISTING APPENDIX SUBMITTED AS AN ASCII FILE',
    "INCORPORATION-BY-REFERENCE OF MATERIAL SUBMITTED ELECTRONICALLY",
    # papers' back matter (JATS <sec>s and PDF headings)
    "COMPETING INTERESTS", "CONFLICT OF INTEREST", "CONFLICTS OF INTEREST", "AUTHORS' CONTRIBUTIONS",
    "AUTHOR CONTRIBUTIONS", "SUPPLEMENTARY MATERIAL", "SUPPLEMENTARY INFORMATION", "PRE-PUBLICATION HISTORY",
    "DATA AVAILABILITY", "DATA AVAILABILITY STATEMENT", "ETHICS STATEMENT",
)
# content headings within distance < 3 of a blacklisted one (FINDINGS ~ FUNDING, PREFERENCES ~ REFERENCES): kept
CONTENT_HEADINGS: tuple[str, ...] = ("FINDINGS", "PREFERENCES", "INFERENCES", "FINDING", "PREFERENCE")
_EXAMPLE = re.compile(r"^(?:comparative |reference |working |synthesis |preparation )?example\s*(?:no\.?\s*)?[0-9ivx]+\b",
                      re.I)
_EXAMPLES_PARENT = re.compile(r"^(?:working |experimental )?examples?$|^experimental(?: section| results)?$", re.I)
_DOTTED = re.compile(r"^\d+\.\d+")
_SPACE = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[^a-z0-9 ]+")


@dataclass(frozen=True)
class DocumentParams:
    """Rules of the document builder (SPEC defaults; distance is a strict upper bound)."""
    blacklist: tuple[str, ...] = METADATA_HEADINGS
    keep: tuple[str, ...] = CONTENT_HEADINGS
    max_distance: int = 3
    max_depth: int = 3
    group_examples: bool = False
    rounding: str = "floor"  # the authors' rule (transforms.outlines); "ceil" gives 6-17 % more bullets
    chunk_chars: int | None = CHUNK_CHARS  # the authors' per-chunk budget; None: one chunk per section
    levels: tuple[tuple[str, int], ...] = tuple(LEVELS.items())


@dataclass
class DocumentStats:
    """What the builder dropped or made up, for the card."""
    metadata_sections_dropped: int = 0
    examples_parents_added: int = 0
    papers_without_fulltext: int = 0
    paper_metadata_sections_dropped: int = 0
    dropped_headings: dict[str, int] = field(default_factory=dict)
    outlines: dict[str, int] = field(default_factory=dict)  # bullets per level, bullets cut by the copy guard


# ---------- headings ----------

def levenshtein(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance; stops early (returning > limit) once every path exceeds `limit`."""
    if abs(len(a) - len(b)) > (limit if limit is not None else len(a) + len(b)):
        return (limit or 0) + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if limit is not None and min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def _norm_heading(title: str) -> str:
    """Lower case, punctuation and quotes removed, spaces collapsed ('CROSS-REFERENCE' -> 'crossreference')."""
    return _SPACE.sub(" ", _NOT_WORD.sub("", title.lower())).strip()


def is_metadata_heading(title: str, params: DocumentParams = DocumentParams()) -> bool:
    """True when the heading is within edit distance < max_distance of a blacklisted heading (and is not itself
    one of the known content headings that happen to lie that close, e.g. FINDINGS ~ FUNDING)."""
    t = _norm_heading(title)
    if any(t == _norm_heading(k) for k in params.keep):
        return False
    return any(levenshtein(t, _norm_heading(b), params.max_distance - 1) < params.max_distance
               for b in params.blacklist)


def _is_caps(title: str) -> bool:
    letters = [c for c in title if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


def heading_depth(title: str, parent: str | None) -> int:
    """2 for a top heading, 3 for a subsection of the current top heading `parent` (None: there is none)."""
    if parent is None:
        return 2
    if (_EXAMPLE.match(title) and _EXAMPLES_PARENT.match(parent.strip())) or _DOTTED.match(title):
        return 3
    return 3 if _is_caps(parent) and not _is_caps(title) else 2


# ---------- patent ----------

def _runs(paragraphs: Iterable[tuple[str | None, str]]) -> list[tuple[str | None, list[str]]]:
    """Consecutive paragraphs under the same heading as (heading, texts); stripped, empty ones dropped."""
    runs: list[tuple[str | None, list[str]]] = []
    for heading, text in paragraphs:
        heading = _SPACE.sub(" ", heading).strip() if heading else None
        text = (text or "").strip()
        if not runs or runs[-1][0] != heading:
            runs.append((heading, []))
        if text:
            runs[-1][1].append(text)
    return runs


def patent_sections(paragraphs: Iterable[tuple[str | None, str]], params: DocumentParams = DocumentParams(),
                    stats: DocumentStats | None = None) -> list[dict]:
    """(heading, text) in document order -> [DESCRIPTION {paragraphs, subsections}] without empty sections."""
    stats = stats if stats is not None else DocumentStats()
    root = {"title": ROOT_TITLE, "paragraphs": [], "subsections": []}
    top: dict | None = None
    for heading, texts in _runs(paragraphs):
        if heading is None:
            (top or root)["paragraphs"].extend(texts)
            continue
        if is_metadata_heading(heading, params):
            stats.metadata_sections_dropped += 1
            stats.dropped_headings[heading] = stats.dropped_headings.get(heading, 0) + 1
            continue
        if params.group_examples and _EXAMPLE.match(heading) and not (
                top and _EXAMPLES_PARENT.match(top["title"])):
            top = {"title": EXAMPLES_TITLE, "paragraphs": [], "subsections": []}
            root["subsections"].append(top)
            stats.examples_parents_added += 1
        sec = {"title": heading, "paragraphs": list(texts), "subsections": []}
        if heading_depth(heading, top["title"] if top else None) == 3 and top is not None:
            top["subsections"].append(sec)
        else:
            root["subsections"].append(sec)
            top = sec
    return prune([root])


def numbered_claims(claims: Sequence[tuple[int, str]]) -> list[str]:
    """Claim texts in order as '1. A …' (the golden form); text already starting with its number is kept."""
    out = []
    for no, text in sorted(claims, key=lambda c: c[0]):
        text = (text or "").strip()
        out.append(text if re.match(rf"^{no}\s*\.", text) else f"{no}. {text}")
    return out


def inventor_names(inventors: Sequence[dict] | None) -> list[str]:
    """Display names as printed ('Robert E. Briggs'): `first last`, else the name as given."""
    names = []
    for inv in inventors or ():
        full = " ".join(x for x in (inv.get("first"), inv.get("last")) if x)
        names.append(full or inv.get("name") or "")
    return [n for n in names if n]


def patent_document(pub: dict, paragraphs: Iterable[tuple[str | None, str]], claims: Sequence[tuple[int, str]],
                    params: DocumentParams = DocumentParams(), writer: BulletWriter = key_phrase_bullets,
                    stats: DocumentStats | None = None) -> dict:
    """One `patent.json`: id (CC+number), inventors, title, filing date, abstract, sections + outlines, claims."""
    app_date = pub.get("app_date")
    stats = stats if stats is not None else DocumentStats()
    sections = patent_sections(paragraphs, params, stats)
    claim_texts = numbered_claims(claims)
    return {"id": f"{pub['country']}{pub['doc_number']}", "authors": inventor_names(pub.get("inventors")),
            "title": pub.get("title") or "",
            "date": f"{app_date.isoformat()} 00:00:00" if isinstance(app_date, date) else None,
            "abstract": pub.get("abstract") or "",
            "sections": add_outlines(sections, writer, dict(params.levels), params.rounding,
                                     reference=[*claim_texts, pub.get("abstract") or "", pub.get("title") or ""],
                                     counts=stats.outlines, chunk_chars=params.chunk_chars),
            "claims": claim_texts}


# ---------- paper ----------

def limit_depth(sections: list[dict], max_depth: int = 3, depth: int = 1) -> list[dict]:
    """Sections at most `max_depth` deep; deeper ones become '**title**' + paragraphs of their ancestor."""
    out = []
    for sec in sections:
        paras = [p for p in (sec.get("paragraphs") or []) if p and p.strip()]
        subs = sec.get("subsections") or []
        if depth >= max_depth:
            paras = paras + [p for s in subs for p in _flatten(s)]
            subs = []
        out.append({"title": sec.get("title") or "", "paragraphs": paras,
                    "subsections": limit_depth(subs, max_depth, depth + 1)})
    return prune(out)


def _flatten(sec: dict) -> list[str]:
    paras = [f"**{sec.get('title') or ''}**", *[p for p in sec.get("paragraphs") or [] if p and p.strip()]]
    return paras + [p for s in sec.get("subsections") or [] for p in _flatten(s)]


def paper_sections(paper: dict, params: DocumentParams = DocumentParams(),
                   stats: DocumentStats | None = None) -> tuple[list[dict], bool]:
    """(sections, has_fulltext): the paper's full-text sections, else one 'Abstract' section."""
    raw = paper.get("sections")
    try:
        parsed = json.loads(raw) if isinstance(raw, str) and raw.strip() else raw
    except ValueError:
        parsed = None
    sections = limit_depth(parsed, params.max_depth) if isinstance(parsed, list) else []
    sections = _drop_metadata(sections, params, stats)
    if sections:
        return sections, True
    if stats is not None:
        stats.papers_without_fulltext += 1
    abstract = (paper.get("abstract") or "").strip()
    return ([{"title": "Abstract", "paragraphs": [abstract], "subsections": []}] if abstract else []), False


def _drop_metadata(sections: list[dict], params: DocumentParams, stats: DocumentStats | None) -> list[dict]:
    """Paper sections without back matter (competing interests, funding, ...), by the same heading rule."""
    out = []
    for sec in sections:
        if is_metadata_heading(sec["title"], params):
            if stats is not None:
                stats.paper_metadata_sections_dropped += 1
            continue
        out.append({**sec, "subsections": _drop_metadata(sec["subsections"], params, stats)})
    return out


def paper_document(paper: dict, params: DocumentParams = DocumentParams(),
                   stats: DocumentStats | None = None) -> dict:
    """One `paper.json`: SemOpenAlex work IRI, author names, title, date, abstract, sections."""
    pub_date = paper.get("pub_date")
    sections, _ = paper_sections(paper, params, stats)
    return {"id": WORK_IRI + paper["work_id"], "authors": [a.get("name") or "" for a in paper.get("authors") or []],
            "title": paper.get("title") or "", "date": pub_date.isoformat() if isinstance(pub_date, date) else None,
            "abstract": paper.get("abstract") or "", "sections": sections}
