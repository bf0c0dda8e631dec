"""Opinion splitting of PTAB decisions: sections by headings, sentences by spaCy, roles by cue phrases.

The paper split opinions with an LLM; we use a transparent rule-based splitter so every role can be
explained by the cue that fired. A sentence's role is the cue that starts earliest in it
("Appellant contends that the Examiner relies ..." is the appellant's); a sentence without a cue
inherits the role of the previous sentence of its paragraph, and a paragraph that opens without one
takes its section's default (STATEMENT OF THE CASE -> facts, ANALYSIS -> board opinion). Decisions
with no examiner sentence are flagged, not dropped. `OpinionSplitter` is the interface a
model-based splitter implements.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import polars as pl

ROLES = ("appellant_arguments", "examiner_findings", "ptab_opinion", "facts")
SPLIT_SECTIONS = ("statement_of_the_case", "analysis")
HEADINGS = (("decision_on_appeal", r"DECISION ON APPEAL|OPINION"),
            ("statement_of_the_case", r"STATEMENT OF (THE )?CASE"), ("analysis", r"ANALYSIS|DISCUSSION"),
            ("decision", r"DECISION|ORDER|CONCLUSIONS?|DECISION SUMMARY"), ("footnotes", r"FOOTNOTES?"),
            ("separate_opinion", r"(OPINION )?(DISSENTING|CONCURRING)( OPINION)?|.{0,40}, (dissenting|concurring)"))
_HEADING = [(name, re.compile(rf"^\s*(?:[IVX]+\.\s*)?(?:{pat})\s*$",
                              re.I if name == "separate_opinion" else 0)) for name, pat in HEADINGS]
CUES = {
    "ptab_opinion": r"^(?:We|Our|Accordingly|Thus, we|Therefore, we|For (?:these|the) reasons|On this record)\b|"
                    r"\bwe (?:agree|disagree|are (?:not )?persuaded|(?:do not )?sustain|conclude|find|determine|"
                    r"reverse|affirm|enter)\b",
    "examiner_findings": r"\b(?:[Tt]he )?Examiner(?:'s)? (?:(?:also|further|then) )?(?:finds|found|determines|"
                         r"determined|concludes|concluded|rejects|rejected|relies|reasons|explains|states|notes|"
                         r"takes the position|answers|responds)\b|^According to the Examiner\b|\bstands? rejected\b",
    "appellant_arguments": r"\bAppellants?(?:'s?)? (?:(?:also|further|then) )?(?:argues?|contends?|asserts?|submits?|"
                           r"maintains?|responds?|relies|disputes?)\b|^According to Appellants?\b|"
                           r"^Appellants?(?:'s?)? (?:argument|contention)s?\b",
}
_CUES = {role: re.compile(p) for role, p in CUES.items()}
DEFAULT_ROLE = {"statement_of_the_case": "facts", "analysis": "ptab_opinion"}
_BIB_LINE = re.compile(r"^(APPLICATION NO\.|FILING DATE|FIRST NAMED INVENTOR|ATTORNEY DOCKET|CONFIRMATION NO\.|"
                      r"EXAMINER|ART UNIT|PAPER NUMBER|NOTIFICATION DATE|DELIVERY MODE|P\.O\. Box|Address:)", re.I)
COVER_MARKERS = ("APPLICATION NO.", "FIRST NAMED INVENTOR")
CAPTION = re.compile(r"BEFORE THE PATENT TRIAL AND APPEAL BOARD|BOARD OF PATENT APPEALS", re.I)
ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|al|No|Nos|Fig|Figs|Br|Ans|Act|Reply|Spec|Ex|col|para)\.|§)$")


def strip_cover(text: str) -> tuple[str, bool]:
    """(text without cover, had a standard cover): the PTOL-90A cover form and its bibliographic fields
    (everything before the Board caption) are dropped when the form is there."""
    has_cover = all(m in text[:3000].upper() for m in COVER_MARKERS)
    if not has_cover:
        return text, False
    m = CAPTION.search(text)
    if m:
        start = text.rfind("\n", 0, m.start()) + 1
        return text[start:], True
    return "\n".join(ln for ln in text.splitlines() if not _BIB_LINE.match(ln.strip())), True


@dataclass(frozen=True)
class Sentence:
    section: str
    role: str
    text: str
    cue: str | None  # the cue that fired; None when inherited or defaulted


@dataclass
class OpinionSplit:
    """Sentences of STATEMENT OF THE CASE + ANALYSIS with roles, plus what the splitter noticed."""
    sentences: list[Sentence] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)

    def text_of(self, role: str) -> str:
        return " ".join(s.text for s in self.sentences if s.role == role)


class OpinionSplitter(Protocol):
    """Anything that turns cleaned decision text into role-tagged sentences (rules today, a model later)."""
    name: str

    def split(self, text: str) -> OpinionSplit: ...


def section_of(paragraph: str) -> str | None:
    """The section a heading paragraph opens, or None when it is not a section heading."""
    for name, rx in _HEADING:
        if rx.match(paragraph):
            return name
    return None


def split_sections(text: str) -> list[tuple[str, list[str]]]:
    """Paragraphs (blank-line separated) grouped under the section headings; text before any is `caption`."""
    out: list[tuple[str, list[str]]] = [("caption", [])]
    for par in (p.strip() for p in text.split("\n\n")):
        if not par:
            continue
        name = section_of(par)
        if name and not (name == "decision_on_appeal" and any(s == name for s, _ in out)):
            out.append((name, []))
        else:
            out[-1][1].append(par)
    return out


@lru_cache(maxsize=1)
def _nlp() -> Any:
    import spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def sentences(paragraph: str) -> list[str]:
    """spaCy sentencizer, then fragments re-joined (after citation abbreviations, or starting lower-case)."""
    out: list[str] = []
    for s in (s.text.strip() for s in _nlp()(paragraph).sents):
        if not s:
            continue
        if out and (ABBREV.search(out[-1]) or s[0].islower() or s[0].isdigit() or s[0] in "§("):
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


def cue_role(sentence: str) -> str | None:
    """The role whose cue starts earliest in the sentence (None when no cue fires)."""
    hits = [(m.start(), role) for role, rx in _CUES.items() if (m := rx.search(sentence))]
    return min(hits)[1] if hits else None


def _is_subheading(par: str) -> bool:
    return len(par) < 80 and par[-1] not in ".:;\"')"


class RuleSplitter:
    """The transparent cue-phrase splitter (see module docstring)."""
    name = "rules-1"

    def split(self, text: str) -> OpinionSplit:
        result = OpinionSplit()
        for section, paras in split_sections(text):
            result.sections.append(section)
            if section not in SPLIT_SECTIONS:
                continue
            for par in paras:
                if _is_subheading(par):
                    continue
                role = None
                for sent in sentences(par):
                    cue = cue_role(sent)
                    role = cue or role or DEFAULT_ROLE[section]
                    result.sentences.append(Sentence(section, role, sent, cue))
        result.flags = _flags(result)
        return result


def _flags(result: OpinionSplit) -> list[str]:
    flags = [f"missing_{s}" for s in SPLIT_SECTIONS if s not in result.sections]
    if not any(s.role == "examiner_findings" for s in result.sentences):
        flags.append("no_examiner_findings")
    if "separate_opinion" in result.sections:
        flags.append("separate_opinion")
    return flags


def split_frame(df: pl.DataFrame, splitter: OpinionSplitter | None = None) -> pl.DataFrame:
    """Add per-role text columns, sentence/role lists and flags to a frame with `text`.

    Per-row Python on purpose: the splitter is a per-document algorithm (spaCy), not a column expression.
    """
    splitter = splitter or RuleSplitter()
    rows = []
    for text in df["text"].to_list():
        res = splitter.split(text or "")
        rows.append({**{r: res.text_of(r) for r in ROLES}, "sentences": [s.text for s in res.sentences],
                     "roles": [s.role for s in res.sentences], "sections": res.sections, "flags": res.flags,
                     "splitter": splitter.name})
    extra = pl.DataFrame(rows, schema={**{r: pl.String for r in ROLES}, "sentences": pl.List(pl.String),
                                       "roles": pl.List(pl.String), "sections": pl.List(pl.String),
                                       "flags": pl.List(pl.String), "splitter": pl.String})
    return pl.concat([df, extra], how="horizontal")


def _tokens(s: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", s.lower()))


def score_roles(pred: list[tuple[str, str]], truth: list[tuple[str, str]], min_jaccard: float = 0.6) -> dict:
    """Per-role counts (tp, fp, fn) of predicted vs true (role, sentence) pairs of one decision.

    A predicted sentence is matched to the unmatched true sentence with the highest token Jaccard
    (>= `min_jaccard`, which tolerates OCR noise); a match counts as a true positive when roles agree.
    """
    counts = {r: {"tp": 0, "fp": 0, "fn": 0} for r in ROLES}
    toks = [_tokens(t) for _, t in truth]
    used: set[int] = set()
    for role, text in pred:
        pt = _tokens(text)
        best, best_j = None, min_jaccard
        for i, tt in enumerate(toks):
            j = len(pt & tt) / max(len(pt | tt), 1)
            if i not in used and j >= best_j:
                best, best_j = i, j
        if best is not None and truth[best][0] == role:
            used.add(best)
            counts[role]["tp"] += 1
        elif role in counts:
            counts[role]["fp"] += 1
    for i, (role, _) in enumerate(truth):
        if i not in used and role in counts:
            counts[role]["fn"] += 1
    return counts


def f1_table(counts: list[dict]) -> dict[str, dict[str, float]]:
    """Sum per-decision counts and compute precision/recall/F1 and support per role."""
    out = {}
    for role in ROLES:
        tp, fp, fn = (sum(c[role][k] for c in counts) for k in ("tp", "fp", "fn"))
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        out[role] = {"precision": round(p, 4), "recall": round(r, 4),
                     "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "support": tp + fn}
    return out
