"""PILOT-Bench labels from PTAB records: issue types, board authorities, subdecision (fine and coarse).

Labels come from the record only: the ODP structured fields (appealOutcomeCategory, issueTypeBag,
statuteAndRuleBag) and the decision's verdict (`verdict_passage`: the DECISION/ORDER section under its real
heading, else the last page's verdict line, else the Board's "We AFFIRM." in the opening), which no input
contains (the inputs are cut from STATEMENT OF THE CASE + ANALYSIS, and a verdict sentence is the Board's). Nothing is mined from text an input holds. A case the
record cannot label (no outcome and no verdict in the order; no issue statute anywhere) gets None /
[] and the build drops and counts it. Label sets are exactly SPEC's. Raw ODP strings vary
("AFFIRMED", "Affirmed w/ New Ground of Rejection", "Reversed; New Grounds of Rejection"), so outcomes
are normalised (lower-case, trimmed, punctuation and "w/"/"new ground(s)" variants unified) before a
lookup keyed by the normalised form of each label plus a few synonyms; a stated outcome that maps to
nothing is `Others`. Statutes are normalised to
`35 USC n` / `37 CFR n.nn(x)`.
"""
from __future__ import annotations

import re

import polars as pl

from transforms.opinions import split_sections

ISSUE_LABELS = ("101", "102", "103", "112", "Others")
AUTHORITY_LABELS = ("37 CFR 1.131", "37 CFR 1.132", "37 CFR 41.50", "37 CFR 41.50(a)", "37 CFR 41.50(b)",
                    "37 CFR 41.50(c)", "37 CFR 41.50(d)", "37 CFR 41.50(f)", "Others")
FINE_LABELS = (
    "Affirmed", "Affirmed with New Ground of Rejection", "Affirmed-in-Part", "Affirmed-in-Part and Remanded",
    "Affirmed-in-Part with New Ground of Rejection", "Reversed", "Reversed with New Ground of Rejection",
    "Reexam affirmed", "Reexam Affirmed-in-part", "Reexam Affirmed-in-part with New Ground of Rejection",
    "Reexam reversed", "Inter Partes Reexam Affirmed", "Inter Partes Reexam Affirmed-in-part",
    "Inter Partes Reexam Reversed", "Inter Partes Reexam New Ground of Rejection",
    "Inter partes reexam rehearing decision is a new decision",
    "Affirmed-in-Part and Remanded with New Ground of Rejection",
    "Reversed and Remanded", "Vacated", "Granted", "Denied", "Rehearing Decision - Granted",
    "Reexam rehearing decision final and appealable", "Others")
COARSE_LABELS = ("Affirmed", "Affirmed with New Ground of Rejection", "Affirmed-in-Part",
                 "Affirmed-in-Part with New Ground of Rejection", "Reversed", "Reversed with New Ground of Rejection",
                 "Others")
BOILERPLATE = {"35 USC 134"}  # the appeal right itself; the paper excludes it and nothing else
ISSUE_STATUTES = {"101", "102", "103", "112"}
_USC = re.compile(r"35\s*U\.?\s*S\.?\s*C\.?\s*(?:§+|sec(?:tion)?\.?)?\s*(\d+)", re.I)
_CFR = re.compile(r"37\s*C\.?\s*F\.?\s*R\.?\s*(?:§+|sec(?:tion)?\.?)?\s*(\d+\.\d+)\s*(\([a-z]\))?", re.I)
# a 35 U.S.C. section named in the order: "35 U.S.C. § 103", "§§ 112(a), 102, and 103", "under § 101"
_SECTION_LIST = re.compile(r"(?:35\s*U\.?\s*S\.?\s*C\.?\s*|§)§?\s*"
                           r"((?:\d{3}(?!\.?\d)(?:\([a-z0-9]+\))*(?:,?\s*(?:and\s+)?)?)+)",
                           re.I)
_VERDICT_LINE = re.compile(r"^\s*(AFFIRMED[- ]IN[- ]PART|AFFIRMED|REVERSED|VACATED|REMANDED|DISMISSED|DENIED|GRANTED)"
                           r"\b(.*)$", re.M)
_VERDICT_WORDS = re.compile(r"\b(?:is|are|be|been|hereby)\s+(affirmed[- ]in[- ]part|affirmed|reversed|vacated|"
                            r"remanded)\b|"
                            r"\b(affirm|affrim|reverse)\s+(?:the|as to|our)\b|"
                            # the Board's own verdict sentence: "We AFFIRM.", "We affirm-in-part and enter ...",
                            # "We AFFIRM IN PART", "We reverse the rejection under § 102 and affirm ..."
                            # ("We AFFRIM.": a real decision's typo)
                            r"\bwe\s+(?:(?:therefore|hereby|accordingly|also|now)\s+)?(affirm(?:[- ]+in[- ]+part)?|affrim|"
                            r"reverse|vacate|remand)\b", re.I)
_NEW_GROUND = re.compile(r"new grounds? of rejection|\bnew rejections?\b|41\.50\s*\(b\)|1\.196\s*\(b\)", re.I)
# a period inside the sentence: one glued to the next character ("41.50", "C.F.R.") or after a lone capital
# ("37 C.F.R. § 41.50(b)": the verdict sentence goes on to the rule that enters the new ground)
_IN_SENTENCE = r"(?:[^.]|\.(?:(?=\S)|(?<=\b[A-Z]\.)))*"
_VERDICT_SENTENCE = re.compile(rf"{_IN_SENTENCE}\bwe\s+(?:(?:therefore|hereby|accordingly|also|now)\s+)?(?:affirm|affrim|"
                               rf"reverse|vacate|remand)\b{_IN_SENTENCE}(?:\.\d*|$)", re.I)
_BARE_VERDICT = re.compile(r"^\s*(?:AFFIRMED|REVERSED|VACATED|REMANDED|DISMISSED|DENIED|GRANTED)\b[-\sA-Z;,.()§0-9]*$")
# the verdict line in title case, alone on its line ("Reversed" closing a BPAI page): nothing may follow the word
_TITLE_VERDICT = re.compile(r"^\s*(Affirmed[- ][Ii]n[- ][Pp]art|Affirmed|Reversed|Vacated|Remanded|Dismissed|Denied|"
                            r"Granted)\.?\s*$", re.M)
# the Board entering a new ground beside its verdict sentence: "Under ... 37 CFR § 1.196(b) (2003), we enter a new
# ground of rejection of ..."
_NEW_GROUND_SENTENCE = re.compile(rf"{_IN_SENTENCE}\bwe\s+(?:(?:therefore|hereby|also|now|further)\s+)?(?:enter|make|"
                                  rf"set forth|add|designate)\b{_IN_SENTENCE}new\s+grounds?\s+of\s+rejection"
                                  rf"{_IN_SENTENCE}(?:\.\d*|$)", re.I)
NOT_ISSUES = {"134"}


def normalise_outcome(raw: str | None) -> str:
    """Lower-case words separated by single spaces: punctuation, "w/", "&", "(s)", "re-examination",
    "vacatur" and every "new ground(s) (of rejection(s))" form unified; a new ground always reads
    "with new ground of rejection" (so "Reversed; New Grounds" and "Reversed w/ New Ground(s) of
    Rejection" meet). Labels are keyed by this same form, so spelling never decides a label."""
    s = (raw or "").lower().strip()
    s = re.sub(r"\(s\)", "", s)
    s = re.sub(r"\bw/\s*", " with ", s)
    s = re.sub(r"\s*[&+]\s*", " and ", s)
    s = re.sub(r"\b(?:ex[\s-]+parte\s+)?re-?exam(?:ination)?\b", "reexam", s)
    s = re.sub(r"\binter[\s-]+partes\b", "inter partes", s)
    s = re.sub(r"\bvacat(?:ur|e)\b", "vacated", s)
    s = re.sub(r"\bnew\s+grounds?(?:\s+of\s+rejections?)?\b", " new ground of rejection", s)
    s = re.sub(r"[^a-z0-9]+", " ", s).strip()
    s = re.sub(r"(?:\b(?:and|with)\s+)*new ground of rejection", "with new ground of rejection", s)
    return re.sub(r"\s+", " ", s).strip()


# variants of the paper's outcome table that are not a label's own spelling (normalised on load)
SYNONYMS = {
    "Affirmed": ("sustained",),
    "Affirmed-in-Part": ("affirmed in part and reversed in part", "affirmed in part reversed in part",
                         "affirmed reversed in part", "affirmed and reversed in part", "reversed in part",
                         "affirmed in part and reversed"),
    "Affirmed with New Ground of Rejection": ("affirmed with new ground of rejection entered",),
    "Affirmed-in-Part and Remanded with New Ground of Rejection": (
        "affirmed in part with new ground of rejection and remanded",),
    "Reversed and Remanded": ("remanded and reversed",),
    "Vacated": ("vacated and remanded", "vacated remanded", "vacated in part"),
    "Granted": ("granted in part", "request for rehearing granted", "request for rehearing granted in part"),
    "Denied": ("request for rehearing denied", "rehearing denied", "rehearing decision denied"),
    "Rehearing Decision - Granted": ("rehearing granted", "rehearing decision granted in part"),
    "Reexam rehearing decision final and appealable": ("reexam rehearing decision is final and appealable",),
    "Inter partes reexam rehearing decision is a new decision": (
        "inter partes reexam rehearing decision new decision",),
}
_FINE = {normalise_outcome(x): x for x in FINE_LABELS if x != "Others"} | {
    normalise_outcome(v): label for label, variants in SYNONYMS.items() for v in variants}


def subdecision_fine(raw: str | None) -> str:
    """Raw outcome string -> one of the 23 fine labels, else Others."""
    return _FINE.get(normalise_outcome(raw), "Others")


def subdecision_coarse(fine: str) -> str:
    """Fine label -> the 6 coarse ones; reexam, remand, vacated, granted, denied... -> Others."""
    return fine if fine in COARSE_LABELS else "Others"


def normalise_statute(s: str) -> str | None:
    """'35 U.S.C. § 103' -> '35 USC 103'; '37 C.F.R. § 41.50(b)' -> '37 CFR 41.50(b)'; else None."""
    if m := _CFR.search(s):
        return f"37 CFR {m.group(1)}{(m.group(2) or '').lower()}"
    if m := _USC.search(s):
        return f"35 USC {m.group(1)}"
    return None


def order_section(text: str | None) -> str:
    """The DECISION/ORDER section of a decision's text (paragraphs blank-line joined; '' when absent)."""
    return "\n\n".join(p for name, paras in split_sections(text or "") if name == "decision" for p in paras)


def verdict_passage(text: str | None) -> tuple[str, str | None]:
    """(the text that states the verdict, where it was found): the DECISION/ORDER section under whatever heading
    the decision gives it ("order"); else a bare verdict line among the last paragraphs, as on a final page
    without a heading ("last_page"); else the Board's verdict sentence in the opening ("We AFFIRM IN PART.",
    before the analysis: "opening"). ("", None) when the text states none. Inputs never hold these: a verdict
    sentence is in the Board's voice, the order and the last page follow the analysis."""
    sections = split_sections(text or "")
    order = "\n\n".join(p for name, paras in sections if name == "decision" for p in paras)
    if outcome_from_order(order):
        return order, "order"
    paragraphs = [p for _, paras in sections for p in paras]
    # the mailing address and the clerk's initials may follow the verdict line on the last page (a real BPAI
    # rehearing: "DENIED", "pgc", then four address lines)
    if tail := [p for p in paragraphs[-8:] if _BARE_VERDICT.match(p) or _TITLE_VERDICT.fullmatch(p)]:
        return tail[-1], "last_page"
    opening = [p for name, paras in sections if name in ("caption", "decision_on_appeal", "statement_of_the_case")
               for p in paras[:4]]
    for par in opening:
        if said := [(m.start(), m.group(0).strip()) for m in _VERDICT_SENTENCE.finditer(par)]:
            # every verdict sentence of the paragraph: "We AFFIRM the rejections of claims 1-6. We REVERSE the
            # rejections of claims 7 and 10." is an affirmance in part; a new ground it enters goes with them
            said += [(m.start(), m.group(0).strip()) for m in _NEW_GROUND_SENTENCE.finditer(par)
                     if m.group(0).strip() not in {t for _, t in said}]
            return " ".join(t for _, t in sorted(said)), "opening"
    return (order, "order") if order else ("", None)


def outcome_from_order(order: str) -> str | None:
    """The outcome the DECISION/ORDER section states: its verdict line ("AFFIRMED-IN-PART; NEW GROUND OF
    REJECTION") or else its per-rejection dispositions ("... is affirmed." + "... is reversed." ->
    affirmed-in-part); "with new ground of rejection" when the order enters one. None when it states none."""
    lines = [m[0] for m in _VERDICT_LINE.findall(order)] or _TITLE_VERDICT.findall(order)
    if lines:
        verdict = re.sub(r"[-\s]+", "-", lines[-1].lower())
    else:
        found = {re.sub(r"[-\s]+", "-", a or b or c).lower() for a, b, c in _VERDICT_WORDS.findall(order)}
        found = {{"affirm": "affirmed", "affrim": "affirmed", "reverse": "reversed", "vacate": "vacated", "remand": "remanded",
                  "affirm-in-part": "affirmed-in-part"}.get(f, f) for f in found}
        if not found:
            return None
        verdict = ("affirmed-in-part" if {"affirmed", "reversed"} <= found or "affirmed-in-part" in found
                   else sorted(found)[0])
    return f"{verdict} with new ground of rejection" if _NEW_GROUND.search(order) else verdict


def order_sections(order: str) -> set[str]:
    """35 U.S.C. sections the order names (the appeal's 134 excluded; 37 C.F.R. rules are not sections)."""
    found = set()
    for m in _SECTION_LIST.finditer(order):
        found |= {n for n in re.findall(r"(?<![\d(])(\d{3})(?!\d)", m.group(1)) if n not in NOT_ISSUES}
    return found


def issue_types(issue_bag: list[str] | None, statutes: list[str] | None, order: str | None = None) -> list[str]:
    """Multi-label issue types from issueTypeBag, the issue statutes of the rule bag and the sections the
    DECISION/ORDER names; [] when the record names none (the case is then dropped, not guessed)."""
    found: set[str] = set()
    for v in issue_bag or []:
        num = re.sub(r"\D", "", normalise_statute(v) or v)
        found.add(num if num in ISSUE_STATUTES else "Others")
    for v in statutes or []:
        norm = normalise_statute(v) or ""
        if norm.startswith("35 USC ") and norm.split()[-1] in ISSUE_STATUTES:
            found.add(norm.split()[-1])
    for num in order_sections(order or ""):
        found.add(num if num in ISSUE_STATUTES else "Others")
    return [x for x in ISSUE_LABELS if x in found]


def board_authorities(statutes: list[str] | None) -> list[str]:
    """Multi-label board authorities from the record's rule bag, as the paper labels them: a provision in
    AUTHORITY_LABELS is itself, every other one (35 USC 101/102/103/112, 35 USC 6, 251, 37 CFR 1.136...)
    is Others; only the boilerplate 35 USC 134 is left out; empty -> Others (SPEC). The order text is not
    read: the paper takes this label from the metadata."""
    found: set[str] = set()
    for v in statutes or []:
        norm = normalise_statute(v) or v.strip()
        if norm and norm not in BOILERPLATE:
            found.add(norm if norm in AUTHORITY_LABELS else "Others")
    return [x for x in AUTHORITY_LABELS if x in found] or ["Others"]


def subdecision(outcome: str | None, order: str) -> tuple[str | None, str | None]:
    """(fine label, its source): the API outcome; the order's verdict where the API gives none or one
    that maps to Others; (None, None) when the record states no outcome at all."""
    api = subdecision_fine(outcome) if (outcome or "").strip() else None
    if api not in (None, "Others"):
        return api, "api"
    stated = outcome_from_order(order)
    from_order = subdecision_fine(stated) if stated else None
    if from_order not in (None, "Others"):
        return from_order, "order"
    return (api, "api") if api else ((from_order, "order") if from_order else (None, None))


def _source(from_api: list[str], label: list[str]) -> str | None:
    if not label:
        return None
    return "api" if from_api == label else ("api+order" if from_api and from_api != ["Others"] else "order")


def add_labels(df: pl.DataFrame) -> pl.DataFrame:
    """Label columns for a frame with outcome, issue_types (API bag), statutes and text; the text is read
    for its verdict only (`verdict_passage`). `label_source` says where each label came from: api, or where the
    text states the verdict (order, last_page, opening)."""
    rows = df.select("outcome", "issue_types", "statutes", "text").iter_rows()
    fine, issues, auth, source = [], [], [], []
    for outcome, bag, statutes, text in rows:
        order, where = verdict_passage(text)
        f, src = subdecision(outcome, order)
        src = where if src == "order" else src
        api_issues = issue_types(bag, statutes)
        issues.append(issue_types(bag, statutes, order))
        fine.append(f)
        auth.append(board_authorities(statutes))
        source.append({"subdecision": src, "issue_type": _source(api_issues, issues[-1]),
                       "board_authority": _source(board_authorities(statutes), auth[-1])})
    return df.with_columns(pl.Series("subdecision_fine", fine, pl.String),
                           pl.Series("subdecision_coarse", [subdecision_coarse(f) if f else None for f in fine],
                                     pl.String),
                           pl.Series("issue_type", issues, pl.List(pl.String)),
                           pl.Series("board_authority", auth, pl.List(pl.String)),
                           pl.Series("label_source", source, pl.Struct({"subdecision": pl.String,
                                                                        "issue_type": pl.String,
                                                                        "board_authority": pl.String})))
