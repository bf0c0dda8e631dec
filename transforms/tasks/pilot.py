"""PILOT-Bench tables from `ptab_decisions`: SPEC filters, alignment, input settings and splits.

Pure frame functions (the build stage owns I/O). Published layout (documented in the card):
`all/eval` = every case (the paper's zero-shot evaluation, all input fields; it holds the train cases
of the other tasks, so it is not a test split), and `base`, `merge`, `split_claim` with seeded
train/val/test (80/10/10, stratified by coarse subdecision, one application never in two splits, the
same assignment in every task; from 3 cases on, test and val get at least one case each). The
leakage policy: inputs are `appellant_arguments` and `examiner_findings` (and `merged_text`, the two
joined, appellant first); a case whose inputs hold a Board-voice sentence or a sentence of its own `ptab_opinion` is
refused (`refuse_leaks`), whichever splitter ran; labels come from the record (`ptab_labels`).
"""
from __future__ import annotations

import json
from datetime import date

import polars as pl

from common.ptab_cover import strip_cover
from transforms.opinions import board_voice, leak_check, sentences
from common.patent_ids import app_join_key_expr
from transforms.splits import stable_hash

LABELS = ["issue_type", "board_authority", "subdecision_fine", "subdecision_coarse"]
META = ["case_id", "appeal_number", "app_id", "decision_date", "text_origin", "flags", "label_source"]
INPUTS = ("appellant_arguments", "examiner_findings", "merged_text")
FRACTIONS = (0.8, 0.1, 0.1)
MIN_CASES_PER_SPLIT = 3  # from this many cases on, every split gets at least one (small sample worlds)
SEPARATE = r"(?i)dissent|concur"
REHEARING = r"(?i)rehearing|reconsideration"
# reexamination proceedings are numbered in series 90 (ex parte) and 95 (inter partes); the paper keeps
# appeals from examined applications only
REEXAM_SERIES = r"^US-(?:90|95)\d{6}$"


def prepare_decisions(dec: pl.DataFrame) -> pl.DataFrame:
    """Cover detection/removal plus the record fields the filters need (document name)."""
    covers = [strip_cover(t) if t else ("", False) for t in dec["text"].to_list()]
    names = [json.loads(r).get("documentData", {}).get("documentName") if r else None for r in dec["raw"].to_list()]
    return dec.with_columns(pl.Series("text", [c[0] for c in covers], pl.String),
                            pl.Series("has_cover", [c[1] for c in covers], pl.Boolean),
                            pl.Series("document_name", names, pl.String))


def _step(df: pl.DataFrame, keep: pl.DataFrame, name: str, counts: dict[str, int]) -> pl.DataFrame:
    counts[name] = df.height - keep.height
    return keep


def filter_decisions(dec: pl.DataFrame, counts: dict[str, int]) -> pl.DataFrame:
    """SPEC filters in order, before the split: date, reexamination appeals (the paper excludes them),
    readable text, standard cover, case threads."""
    counts["input"] = dec.height
    df = _step(dec, dec.filter(pl.col("decision_date") >= date(2006, 1, 1)), "before_2006", counts)
    df = _step(df, df.filter(~pl.col("app_id").fill_null("").str.contains(REEXAM_SERIES)),
               "reexamination_appeals", counts)
    df = _step(df, df.filter(pl.col("text").fill_null("").str.len_chars() > 0), "no_text", counts)
    df = _step(df, df.filter(pl.col("has_cover")), "no_standard_cover", counts)
    df = df.sort("decision_date", "case_id")
    df = _step(df, df.unique(subset=["appeal_number", "app_id", "decision_date", "outcome", "text"], keep="first",
                             maintain_order=True), "exact_duplicates", counts)
    rehear = df["decision_type"].fill_null("").str.contains(REHEARING) | \
        df["document_name"].fill_null("").str.contains(REHEARING)
    normal = df.filter(~rehear).unique(subset=["document_name", "app_id"], keep="last", maintain_order=True)
    reh = df.filter(rehear).unique(subset=["document_name", "decision_date"], keep="last", maintain_order=True)
    df = _step(df, pl.concat([normal, reh]).sort("decision_date", "case_id"), "case_thread_duplicates", counts)
    return _step(df, df.filter(~df["document_name"].fill_null("").str.contains(SEPARATE)),
                 "separate_opinion_documents", counts)


def filter_split(df: pl.DataFrame, counts: dict[str, int]) -> pl.DataFrame:
    """After the opinion split: drop separate opinions and decisions without STATEMENT OF THE CASE / ANALYSIS."""
    df = _step(df, df.filter(~pl.col("flags").list.contains("separate_opinion")), "separate_opinions", counts)
    missing = pl.col("flags").list.contains("missing_statement_of_the_case") | \
        pl.col("flags").list.contains("missing_analysis")
    df = _step(df, df.filter(~missing), "missing_soc_or_analysis", counts)
    counts["kept"] = df.height
    return df


def align_publications(df: pl.DataFrame, pubs: pl.DataFrame, claims: pl.DataFrame) -> pl.DataFrame:
    """PTAB app_id -> one representative US publication (latest on/before the decision, else earliest
    after) of an application filed 2006 or later, with its claims (depends_on kept). Unmatched: nulls.
    Ids are compared by `app_join_key` (Lens writes a US application number with its year in front)."""
    cand = (pubs.filter((pl.col("country") == "US") & (pl.col("app_date") >= date(2006, 1, 1)))
            .select(app_join_key_expr().alias("_app"), "pub_id", "pub_date"))
    pairs = (df.select("case_id", app_join_key_expr().alias("_app"), "decision_date")
             .join(cand, on="_app", how="inner"))
    pairs = pairs.with_columns((pl.col("pub_date") > pl.col("decision_date")).alias("after"),
                               (pl.col("pub_date") - pl.col("decision_date")).abs().alias("gap"))
    best = pairs.sort("case_id", "after", "gap", "pub_id").unique(subset=["case_id"], keep="first")
    claim_lists = (claims.sort("pub_id", "claim_no")
                   .group_by("pub_id", maintain_order=True)
                   .agg(pl.struct("claim_no", "text", "depends_on").alias("claims")))
    out = df.join(best.select("case_id", "pub_id"), on="case_id", how="left")
    return out.join(claim_lists, on="pub_id", how="left")


def keep_aligned(df: pl.DataFrame, counts: dict[str, int]) -> pl.DataFrame:
    """The paper's benchmark is its aligned cases (15,482 links): a case without a linked publication is
    dropped and counted, so base, merge and split_claim are built and scored on the same cases.

    With nothing to align to (no case links to any publication: PTAB ingested without USPTO publications),
    every case is kept instead and counted as `unaligned_kept`; `split_claim` is then not built and the card says
    that the settings cannot be compared as the paper does."""
    counts["aligned"] = int(df["pub_id"].is_not_null().sum())
    if counts["aligned"] == 0:
        counts["unaligned_kept"] = df.height
        return df
    return _step(df, df.filter(pl.col("pub_id").is_not_null()), "unaligned", counts)


def drop_unlabelled(df: pl.DataFrame, counts: dict[str, int]) -> pl.DataFrame:
    """Drop (and count) the cases the record cannot label: no outcome stated, no issue statute named."""
    df = _step(df, df.filter(pl.col("subdecision_fine").is_not_null()), "no_subdecision_in_record", counts)
    return _step(df, df.filter(pl.col("issue_type").list.len() > 0), "no_issue_type_in_record", counts)


MERGE_ORDER = ("appellant_arguments", "examiner_findings")


def add_settings(df: pl.DataFrame) -> pl.DataFrame:
    """Input settings: `merged_text` is Merge as the authors' inference code builds it (a list of the appellant's
    sentences extended by the examiner's, in one role-neutral field): every appellant sentence, then every
    examiner sentence, each in document order, without role markers and without facts. A rule, not a rewrite:
    the same words as Base's two fields together."""
    merged = [" ".join(s for role in MERGE_ORDER for s, r in zip(sents, roles) if r == role)
              for sents, roles in zip(df["sentences"].to_list(), df["roles"].to_list())]
    return df.with_columns(pl.Series("merged_text", merged, pl.String))


def refuse_leaks(df: pl.DataFrame, counts: dict[str, int]) -> tuple[pl.DataFrame, list[str]]:
    """Drop the cases whose inputs leak the Board's opinion (`opinions.leak_check` on the split's output,
    whichever splitter made it); counts `leak_refused` and returns one line per refused case."""
    keep, refused = [], []
    for row in df.select("case_id", "sentences", "roles", *INPUTS).iter_rows(named=True):
        own = [s for s, r in zip(row["sentences"], row["roles"]) if r == "ptab_opinion"]
        problems = leak_check({c: row[c] for c in INPUTS}, own)
        keep.append(not problems)
        if problems:
            refused.append(f"{row['case_id']}: {problems[0]}")
    counts["leak_refused"] = len(refused)
    return df.filter(pl.Series(keep, dtype=pl.Boolean)), refused


def at_least_one_each(ranked: pl.DataFrame) -> pl.DataFrame:
    """A small set (MIN_CASES_PER_SPLIT or more cases) still gets a test and a val case: the train cases
    last in hash order move to an empty split (test first), while train keeps at least one case."""
    if ranked.height < MIN_CASES_PER_SPLIT:
        return ranked
    present = set(ranked["split"].to_list())
    train = (ranked.with_row_index("_i").filter(pl.col("split") == "train")
             .sort("_h", "case_id", descending=True)["_i"].to_list())
    moves: dict[int, str] = {}
    for split in ("test", "val"):
        if split not in present and len(train) > 1:
            moves[train.pop(0)] = split
    if not moves:
        return ranked
    splits = ranked["split"].to_list()
    for i, split in moves.items():
        splits[i] = split
    return ranked.with_columns(pl.Series("split", splits, pl.String))


def assign_splits(df: pl.DataFrame, seed: int) -> pl.DataFrame:
    """Seeded 80/10/10 per coarse subdecision by rank of a stable hash; then an application's cases
    all follow its first case, so no application is in two splits."""
    ranked = df.with_columns(stable_hash(pl.col("case_id"), seed).alias("_h")).with_columns(
        ((pl.col("_h").rank("ordinal").over("subdecision_coarse") - 1)
         / pl.len().over("subdecision_coarse")).alias("_q"))
    ranked = at_least_one_each(ranked.with_columns(
        pl.when(pl.col("_q") < FRACTIONS[0]).then(pl.lit("train"))
        .when(pl.col("_q") < FRACTIONS[0] + FRACTIONS[1]).then(pl.lit("val"))
        .otherwise(pl.lit("test")).alias("split")))
    first = ranked.sort("decision_date", "case_id").group_by("app_id", maintain_order=True).agg(
        pl.col("split").first().alias("_app_split"))
    return ranked.join(first, on="app_id", how="left").with_columns(
        pl.col("_app_split").alias("split")).drop("_h", "_q", "_app_split")


TASK_FIELDS = {
    "base": ["appellant_arguments", "examiner_findings"],
    "merge": ["merged_text"],
    "split_claim": ["appellant_arguments", "examiner_findings", "pub_id", "claims"],
}


def build_tasks(df: pl.DataFrame) -> dict[str, dict[str, pl.DataFrame]]:
    """Task tables per split (empty ones left out; every case is aligned, see `keep_aligned`, so the three
    settings hold the same cases); `all` is the one zero-shot split `eval` (every case, train cases of the
    other tasks included)."""
    tasks: dict[str, dict[str, pl.DataFrame]] = {}
    every = [*INPUTS, "pub_id", "claims"]
    tasks["all"] = {"eval": df.select(*META, *every, *LABELS)}
    for task, fields in TASK_FIELDS.items():
        rows = df.filter(pl.col("pub_id").is_not_null()) if task == "split_claim" else df  # all, where aligned
        splits = {s: rows.filter(pl.col("split") == s).select(*META, *fields, *LABELS)
                  for s in ("train", "val", "test")}
        kept = {s: t for s, t in splits.items() if t.height}
        if kept:
            tasks[task] = kept
    return tasks


def build_corpus_releases(df: pl.DataFrame, pages: pl.DataFrame) -> dict[str, dict[str, pl.DataFrame]]:
    """The paper's two corpus variants beside the tasks, for the cases kept (published as split `corpus`):
    `ptab_ocr`, each decision's pages as read with their origin (pdf text layer / ocr), and `opinion_split`,
    every sentence role including the board's opinion and the facts, for reference only (never an input)."""
    out: dict[str, dict[str, pl.DataFrame]] = {}
    cases = df.select("case_id", "appeal_number", "app_id", "decision_date")
    ocr = cases.join(pages.rename({"decision_id": "case_id"}), on="case_id", how="inner") \
        .select("case_id", "appeal_number", "app_id", "decision_date", "page_no", "origin", "text")
    if ocr.height:
        out["ptab_ocr"] = {"corpus": ocr.sort("case_id", "page_no")}
    roles = df.select("case_id", "appeal_number", "app_id", "decision_date", "appellant_arguments",
                      "examiner_findings", "ptab_opinion", "facts")
    if roles.height:
        out["opinion_split"] = {"corpus": roles}
    return out


def check_no_case_leak(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """No case and no application in two splits of one task."""
    problems = []
    for task, splits in frames.items():
        for col in ("case_id", "app_id"):
            seen: dict[str, str] = {}
            for split, table in sorted(splits.items()):
                for v in table[col].to_list():
                    if v in seen and seen[v] != split:
                        problems.append(f"task {task}: {col} {v} in {seen[v]} and {split}")
                    seen[v] = split
    return problems


def check_no_train_case_evaluated(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """No case and no application of any val/test split is in any train split, across tasks (`all/eval`
    and the corpus releases are not train/val/test splits and are left out)."""
    problems = []
    for col in ("case_id", "app_id"):
        train = {v for splits in frames.values() for v in splits.get("train", pl.DataFrame({col: []}))[col].to_list()}
        for task, splits in sorted(frames.items()):
            for split in ("val", "test"):
                if split in splits:
                    both = sorted(set(splits[split][col].to_list()) & train)
                    problems += [f"{task}/{split}: {col} {v} is in a train split" for v in both[:5]]
    return problems


def check_inputs_in_board_voice(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """No input sentence of the published `all/eval` (every case, every input field) is in the Board's voice."""
    problems = []
    table = frames.get("all", {}).get("eval")
    for row in ([] if table is None else table.select("case_id", *INPUTS).iter_rows(named=True)):
        for col in INPUTS:
            bad = [s for s in sentences(row[col] or "") if board_voice(s)]
            problems += [f"{row['case_id']} {col}: {bad[0][:100]}"] if bad else []
    return problems
