"""A hand-labelled reference set of real-style PTAB decisions, and a splitter's score on it.

Each decision (tests/transforms/fixtures/ptab_decisions/*.json) is written the way Board decisions are
(STATEMENT OF THE CASE, ANALYSIS with sub-headings, DECISION/ORDER) and every sentence of the two split
sections carries the role a careful reader gives it. The score is per-role precision/recall/F1 plus the
count that matters for leakage: hand-labelled Board sentences that a splitter put into an input role.
The build's card shows the committed score of the splitter it ran (`pilot_reference_scores.json`).

The real set (fixtures/ptab_real/*.txt, `load_real`) holds passages of real BPAI/PTAB decisions with every
sentence hand-labelled; a third of it was labelled and held out before any splitter ran on it (`blind: yes`).
`routes_table` scores any number of splitters on every set side by side (`pf pilot routes`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from transforms.opinions import INPUT_ROLES, OpinionSplitter, f1_table, score_roles, sentences

SPLIT_HEADINGS = ("STATEMENT OF THE CASE", "ANALYSIS")


def render_decision(d: dict) -> str:
    """The decision as cleaned text: caption, DECISION ON APPEAL, sections, paragraphs blank-line separated."""
    blocks = ["BEFORE THE PATENT TRIAL AND APPEAL BOARD", f"Ex parte {d['id']}", "DECISION ON APPEAL", d["intro"]]
    for sec in d["sections"]:
        blocks.append(sec["heading"])
        for p in sec["paragraphs"]:
            blocks.append(p.get("subheading") or p.get("text") or " ".join(t for _, t in p["sentences"]))
    return "\n\n".join(blocks)


def truth(d: dict) -> list[tuple[str, str]]:
    """The hand-labelled (role, sentence) pairs of STATEMENT OF THE CASE + ANALYSIS, in order. A labelled
    line is cut like any text (`sentences`): its record citation ("Final Act. 4.") shares its role."""
    return [(role, sent) for sec in d["sections"] if sec["heading"] in SPLIT_HEADINGS
            for p in sec["paragraphs"] for role, text in p.get("sentences", []) for sent in sentences(text)]


def board_into_inputs(pred: list[tuple[str, str]], gold: list[tuple[str, str]]) -> list[str]:
    """Hand-labelled Board sentences whose text a splitter put into an input role."""
    inputs = " ".join(t for r, t in pred if r in INPUT_ROLES)
    return [t for r, t in gold if r == "ptab_opinion" and t in inputs]


def score_reference(decisions: list[dict], splitter: OpinionSplitter) -> dict:
    """Per-role P/R/F1 of `splitter` on the reference decisions and the Board sentences it leaked."""
    counts, leaked, sentences = [], [], 0
    for d in decisions:
        gold = truth(d)
        pred = [(s.role, s.text) for s in splitter.split(render_decision(d)).sentences]
        counts.append(score_roles(pred, gold))
        leaked += [f"{d['id']}: {t}" for t in board_into_inputs(pred, gold)]
        sentences += len(gold)
    return {"splitter": splitter.name, "decisions": len(decisions), "sentences": sentences,
            "roles": f1_table(counts), "board_sentences_in_inputs": len(leaked), "leaked": leaked}


# the batch of real decisions that gives the frozen routes' blind figure (labelled apart, scored once, never tuned
# or trained on); batches before it are spent
BLIND_BATCH = "7"
HELD_OUT = "heldout"  # decisions written after the rules were frozen carry this in their id


def reference_report(decisions: list[dict], splitter: OpinionSplitter, note: str = "",
                     real: dict[str, list] | None = None, real_notes: dict[str, str] | None = None) -> dict:
    """The committed report: the score on every real-style reference decision and on the held-out ones alone,
    and (`real`: `reference_sets()`) on the real decisions: each blind batch apart ("blind", "blind_2", ...;
    `real_notes` says how blind each batch's figures still are), the rest ("dev") and all of them ("all")."""
    held = [d for d in decisions if HELD_OUT in d["id"]]
    report = {"splitter": splitter.name, "all": score_reference(decisions, splitter)}
    if held:
        report["held_out"] = {**score_reference(held, splitter), "note": note}
    if real:
        parts = {name.removeprefix("real ").replace(" ", "_"): ds for name, ds in real.items() if name.startswith("real ")}
        report["real"] = {key: {**score_real(ds, splitter), **({"note": (real_notes or {})[key]}
                                                                 if key in (real_notes or {}) else {})}
                          for key, ds in parts.items()}
        report["real"]["all"] = score_real([d for ds in parts.values() for d in ds], splitter)
    return report

# ---------- the real set: hand-labelled passages of real Board decisions (fixtures/ptab_real/*.txt) ----------

REAL_ROLES = {"A": "appellant_arguments", "E": "examiner_findings", "B": "ptab_opinion", "F": "facts"}
SCORED_KINDS = ("soc", "analysis")
_HEAD = re.compile(r"^##\s+(\[)?(.+?)\]?\s+=(\w+)\s*$")


def load_real(path: Path) -> dict:
    """One labelled real decision: its header fields, the text a splitter is given (caption, headings and
    paragraphs blank-line separated, as the PDF route cleans it) and the hand labels of its STATEMENT OF THE
    CASE / ANALYSIS sentences (`truth`), cut like any text. The format is described in the folder's README."""
    head, _, body = path.read_text(encoding="utf-8").partition("\n---\n")
    meta = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    blocks, gold, par, kind = ["BEFORE THE PATENT TRIAL AND APPEAL BOARD", f"Ex parte {path.stem}"], [], [], "opening"

    def flush() -> None:
        if par:
            blocks.append(" ".join(par))
            par.clear()

    for line in body.splitlines():
        if not line.strip():
            flush()
        elif m := _HEAD.match(line):
            flush()
            blocks.append(m.group(2))
            kind = m.group(3)
        elif line[:2] in ("S|", "V|"):
            flush()
            blocks.append(line[2:].strip())
        else:
            role, text = REAL_ROLES[line[0]], line[2:].strip()
            par.append(text)
            if kind in SCORED_KINDS:
                gold += [(role, sent) for sent in sentences(text)]
    flush()
    return {"id": path.stem, "meta": meta, "text": "\n\n".join(blocks), "truth": gold,
            "blind": meta.get("blind") == "yes", "outcome": None if meta["outcome"] == "none" else meta["outcome"],
            "verdict": meta.get("verdict", "none")}


def load_real_set(folder: Path) -> list[dict]:
    return [load_real(p) for p in sorted(folder.glob("*.txt"))]


def score_real(decisions: list[dict], splitter: OpinionSplitter, counts: list[dict] | None = None) -> dict:
    """Per-role P/R/F1 of `splitter` on labelled real decisions and the Board sentences it put into an input
    (`counts`: a list that collects the per-decision counts too, to pool scores of several splitters)."""
    counts, leaked = ([] if counts is None else counts), []
    start = len(counts)
    for d in decisions:
        pred = [(s.role, s.text) for s in splitter.split(d["text"]).sentences]
        counts.append(score_roles(pred, d["truth"]))
        leaked += [f"{d['id']}: {t}" for t in board_into_inputs(pred, d["truth"])]
    return {"splitter": splitter.name, "decisions": len(decisions), "sentences": sum(len(d["truth"]) for d in decisions),
            "roles": f1_table(counts[start:]), "board_sentences_in_inputs": len(leaked), "leaked": leaked}


REFERENCE_DIR = Path(__file__).resolve().parents[1] / "tests" / "transforms" / "fixtures"


def reference_sets(folder: Path = REFERENCE_DIR) -> dict[str, list]:
    """The reference sets by name: the real decisions' blind third ("real blind"), the later blind batches
    ("real blind 2", ...: each labelled after the rules of its day were frozen), the rest of them, and the
    real-style set."""
    real = load_real_set(folder / "ptab_real")
    batch = {d["id"]: d["meta"].get("batch", "1") for d in real}
    blind = {f"real blind{'' if b == '1' else ' ' + b}": [d for d in real if d["blind"] and batch[d["id"]] == b]
             for b in sorted({batch[d["id"]] for d in real if d["blind"]})}
    return {**blind, "real dev": [d for d in real if not d["blind"]],
            "real-style": [json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "ptab_decisions").glob(
                "*.json"))]}


def score_set(name: str, decisions: list, splitter: OpinionSplitter) -> dict:
    return score_reference(decisions, splitter) if name == "real-style" else score_real(decisions, splitter)


def routes_table(splitters: list[OpinionSplitter], sets: dict[str, list]) -> list[dict]:
    """One row per (route, set): the input roles' precision/recall and the Board sentences put into an input."""
    rows = []
    for splitter in splitters:
        for name, decisions in sets.items():
            s = score_set(name, decisions, splitter)
            rows.append({"route": splitter.name, "set": name, "decisions": s["decisions"], "sentences": s["sentences"],
                         **{f"{r.split('_')[0]}_{k[0]}": s["roles"][r][k] for r in INPUT_ROLES
                            for k in ("precision", "recall")},
                         "board_in_inputs": s["board_sentences_in_inputs"]})
    return rows


def first_score_note(splitter_name: str, scored: dict) -> str:
    """The note that keeps a blind batch's first and only score (written once, when the batch is first scored)."""
    r = scored["roles"]
    return (f"First and only blind score, {splitter_name} (frozen before the batch was scored): "
            + ", ".join(f"{role.split('_')[0]} P {r[role]['precision']} R {r[role]['recall']} (support "
                        f"{r[role]['support']})" for role in INPUT_ROLES)
            + f", {scored['board_sentences_in_inputs']} Board sentence(s) in an input.")


def committed_notes(old: dict) -> dict[str, str]:
    """The notes of a committed scores file, by part ("held_out", "blind", "blind_2", ...), to carry over."""
    return {**({"held_out": old["held_out"]["note"]} if "note" in old.get("held_out", {}) else {}),
            **{k: v["note"] for k, v in old.get("real", {}).items() if "note" in v}}

