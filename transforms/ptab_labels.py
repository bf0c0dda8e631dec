"""PILOT-Bench labels from PTAB records: issue types, board authorities, subdecision (fine and coarse).

Label sets are exactly SPEC's. Raw ODP strings vary ("AFFIRMED", "Affirmed w/ New Ground of
Rejection", "Reversed; New Grounds of Rejection"), so outcomes are normalised (lower-case, trimmed,
punctuation and "w/"/"new ground(s)" variants unified) before a lookup keyed by the normalised
form of each label plus a few synonyms; anything unmapped is `Others`. Statutes are normalised to
`35 USC n` / `37 CFR n.nn(x)`.
"""
from __future__ import annotations

import re

import polars as pl

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
BOILERPLATE = {"35 USC 134", "35 USC 6"}
ISSUE_STATUTES = {"101", "102", "103", "112"}
_USC = re.compile(r"35\s*U\.?\s*S\.?\s*C\.?\s*(?:§+|sec(?:tion)?\.?)?\s*(\d+)", re.I)
_CFR = re.compile(r"37\s*C\.?\s*F\.?\s*R\.?\s*(?:§+|sec(?:tion)?\.?)?\s*(\d+\.\d+)\s*(\([a-z]\))?", re.I)
_REJECTED = re.compile(r"rejected under 35\s*U\.?\s*S\.?\s*C\.?\s*§*\s*(\d+)", re.I)


def normalise_outcome(raw: str | None) -> str:
    """Lower-case, trimmed, punctuation and 'w/' / 'new ground(s)' / 'in part' variants unified."""
    s = (raw or "").lower().strip()
    s = re.sub(r"\bw/\s*", "with ", s)
    s = re.sub(r"\bre-?examination\b", "reexam", s)
    s = re.sub(r"\binter[\s-]+partes\b", "inter partes", s)
    s = re.sub(r"\bnew grounds?(?: of rejections?)?\b", "new ground of rejection", s)
    s = re.sub(r"\b(affirmed|reversed)[\s-]+in[\s-]+part\b", r"\1-in-part", s)
    s = re.sub(r"\s*[;,/]\s*(?:and\s+|with\s+)?(?=new ground)", " with ", s)
    s = re.sub(r"\s+(?:and|&|\+)\s+(?=new ground)", " with ", s)
    s = re.sub(r"\s+-\s+|[.:]", " ", s)
    return re.sub(r"\s+", " ", s).strip()


SYNONYMS = {"affirmed-in-part and reversed-in-part": "Affirmed-in-Part", "sustained": "Affirmed",
            "affirmed with new ground of rejection entered": "Affirmed with New Ground of Rejection",
            "reversed-in-part": "Affirmed-in-Part", "remanded and reversed": "Reversed and Remanded",
            "rehearing granted": "Rehearing Decision - Granted", "request for rehearing granted": "Granted",
            "request for rehearing denied": "Denied", "rehearing denied": "Denied"}
_FINE = {normalise_outcome(x): x for x in FINE_LABELS if x != "Others"} | SYNONYMS


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


def issue_types(issue_bag: list[str] | None, statutes: list[str] | None, text: str | None = None) -> list[str]:
    """Multi-label issue types from issueTypeBag, issue statutes of the rule bag and 'rejected under' phrases."""
    found: set[str] = set()
    for v in issue_bag or []:
        num = re.sub(r"\D", "", normalise_statute(v) or v)
        found.add(num if num in ISSUE_STATUTES else "Others")
    for v in statutes or []:
        norm = normalise_statute(v) or ""
        if norm.startswith("35 USC ") and norm.split()[-1] in ISSUE_STATUTES:
            found.add(norm.split()[-1])
    for num in _REJECTED.findall(text or ""):
        found.add(num if num in ISSUE_STATUTES else "Others")
    return [x for x in ISSUE_LABELS if x in found] or ["Others"]


def board_authorities(statutes: list[str] | None, text: str | None = None) -> list[str]:
    """Multi-label board authorities: the rule bag (35 USC 134 boilerplate and issue statutes excluded,
    unknown -> Others) plus the 37 CFR 41.50 / 1.131 / 1.132 authorities named in the text; empty -> Others."""
    found: set[str] = set()
    for v in statutes or []:
        norm = normalise_statute(v) or v.strip()
        if norm in BOILERPLATE or (norm.startswith("35 USC ") and norm.split()[-1] in ISSUE_STATUTES):
            continue
        found.add(norm if norm in AUTHORITY_LABELS else "Others")
    for m in _CFR.finditer(text or ""):
        norm = f"37 CFR {m.group(1)}{(m.group(2) or '').lower()}"
        if norm in AUTHORITY_LABELS:
            found.add(norm)
    return [x for x in AUTHORITY_LABELS if x in found] or ["Others"]


def add_labels(df: pl.DataFrame) -> pl.DataFrame:
    """Label columns for a frame with outcome, issue_types (API bag), statutes and text."""
    rows = df.select("outcome", "issue_types", "statutes", "text").iter_rows()
    fine, issues, auth = [], [], []
    for outcome, bag, statutes, text in rows:
        fine.append(subdecision_fine(outcome))
        issues.append(issue_types(bag, statutes, text))
        auth.append(board_authorities(statutes, text))
    return df.with_columns(pl.Series("subdecision_fine", fine, pl.String),
                           pl.Series("subdecision_coarse", [subdecision_coarse(f) for f in fine], pl.String),
                           pl.Series("issue_type", issues, pl.List(pl.String)),
                           pl.Series("board_authority", auth, pl.List(pl.String)))
