"""IPBench tasks buildable from structured patent data (English): declarations plus pure builders.

IPBench has 20 tasks, most written by experts; five can be derived from the warehouse: IPC and CPC
classification (1-5-1, 1-5-2), patent match (3-3), abstract generation (4-1) and dependent-claim
generation (4-2). Classification is an open answer as in the paper (the main code, scored by exact match
at section / class / subclass / full code); the item also carries the patent's full code list. Choice tasks:
3-3 (`ipbench_match`) and the subclass variants 1-5-1-mc / 1-5-2-mc (`ipbench_choice`), which the paper
does not have. Every item has ITEM_FIELDS; open 1-5 items add `codes`.

4-1 and 4-2 come from the latest patents (the paper's rule; `latest`), 1-5 from USPTO patents (the paper's
English 1-5 items are USPTO's). 4-2 follows the paper's prompt: the independent claim 1 -> all its
dependent claims (direct or through another dependent), nothing else in the input.

A family's texts appear in one generation role only: the abstract is 4-1's gold and the input of 1-5 and
3-3, so the families kept for 4-1 (a stable hash share, `ABSTRACT_SHARE`) are used by no other task, and
`refuse_cross_task_leaks` drops any item whose visible text holds another task's gold for the same family.
"""
from __future__ import annotations

import hashlib
import logging
import random
import re
from dataclasses import dataclass

import polars as pl

log = logging.getLogger(__name__)
ITEM_FIELDS = ("task_id", "mechanism", "language", "question", "options", "answer", "source_ids")
ITEM_SCHEMA = {"task_id": pl.String, "mechanism": pl.String, "language": pl.String, "question": pl.String,
               "options": pl.List(pl.String), "answer": pl.String, "source_ids": pl.List(pl.String)}
CLASSIFICATION_FIELDS = (*ITEM_FIELDS, "codes")
EXPERT_TASKS = ("1-1", "1-2", "1-3", "1-4", "1-6", "1-7", "2-1", "2-2", "2-3", "2-4", "2-5", "3-1", "3-2",
                "3-4", "3-5", "4-3")
_TASK_ID = re.compile(r"^\d-\d(?:-\d)?(?:-mc)?$")  # -mc: a multiple-choice variant the paper does not have
EM_LEVELS = {"section": 1, "class": 3, "subclass": 4}  # plus the full code
ABSTRACT_SHARE = 5  # one family in 5 (by a hash of its id) is reserved for 4-1
CLASSIFICATION_PROMPT = ("Based on the title and abstract of the following patent, give its main {scheme} "
                         "classification code (section, class, subclass and group, e.g. {example}).")
EXAMPLE = {"IPC": "H04L 29/06", "CPC": "H04L 29/06"}  # a code both schemes dropped in 2022


@dataclass(frozen=True)
class IPBenchSpec:
    """One published IPBench task: id as in the paper, kind (open | choice | generation), metric, version."""

    task_id: str
    name: str
    kind: str
    metric: str
    version: str = "2.0.0"
    mechanism: str = "patent"
    description: str = ""

    def __post_init__(self) -> None:
        if not _TASK_ID.match(self.task_id):
            raise ValueError(f"IPBench task id {self.task_id!r} must look like 1-5-1 or 4-2")
        if self.kind not in ("open", "choice", "generation"):
            raise ValueError(f"IPBench task {self.task_id}: kind {self.kind!r} is not open|choice|generation")
        if self.task_id in EXPERT_TASKS:
            raise ValueError(f"IPBench task {self.task_id} is expert-authored; it cannot be built from data")


SPECS: tuple[IPBenchSpec, ...] = (
    IPBenchSpec("1-5-1", "ipc_classification", "open", "exact_match",
                description="title + abstract -> main IPC code; exact match at section/class/subclass/full code"),
    IPBenchSpec("1-5-2", "cpc_classification", "open", "exact_match",
                description="title + abstract -> main CPC code; exact match at section/class/subclass/full code"),
    IPBenchSpec("1-5-1-mc", "ipc_subclass_choice", "choice", "accuracy",
                description="not in the paper: which IPC subclass, 4 options in balanced blocks"),
    IPBenchSpec("1-5-2-mc", "cpc_subclass_choice", "choice", "accuracy",
                description="not in the paper: which CPC subclass, 4 options in balanced blocks"),
    IPBenchSpec("3-3", "patent_match", "choice", "accuracy", description="the cited patent among 4 candidates"),
    IPBenchSpec("4-1", "abstract_generation", "generation", "rouge_l", description="claims -> abstract"),
    IPBenchSpec("4-2", "dependent_claim_generation", "generation", "rouge_l", version="3.0.0",
                description="independent claim 1 -> all its dependent claims (the paper's prompt)"),
)


def task_registry() -> dict[str, IPBenchSpec]:
    """Explicit registry keyed by task id; a duplicate id is an error, never an override."""
    out: dict[str, IPBenchSpec] = {}
    for spec in SPECS:
        if spec.task_id in out:
            raise ValueError(f"duplicate IPBench task id {spec.task_id}")
        out[spec.task_id] = spec
    return out


def item_rng(seed: int, task_id: str, key: str) -> random.Random:
    """Per-item RNG: str seeds hash with sha512 in CPython, so the draw is stable across runs."""
    return random.Random(f"{seed}:{task_id}:{key}")


def family_groups(families: pl.DataFrame) -> dict[str, str]:
    """pub_id -> its widest family: the extended family when known, else the simple one.

    'Same patent' and 'family member' below mean the same group; a publication in no family is its own."""
    out: dict[str, str] = {}
    for kind in ("simple", "extended"):  # extended last, so it wins
        sub = families.filter(pl.col("family_kind") == kind)
        out.update(zip(sub["pub_id"].to_list(), sub["family_id"].to_list()))
    return out


def abstract_pool(family_id: str, seed: int) -> bool:
    """Whether a simple family is reserved for 4-1 (stable: a hash of seed and id, not an RNG draw)."""
    return int(hashlib.sha1(f"{seed}:{family_id}".encode()).hexdigest()[:8], 16) % ABSTRACT_SHARE == 0


def representatives(publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """One English publication per simple family (smallest pub_id), with a title and an abstract.

    Family members repeat the same text; one per family keeps items distinct."""
    simple = families.filter(pl.col("family_kind") == "simple").select("pub_id", "family_id")
    return (publications.filter((pl.col("lang") == "en") & pl.col("abstract").is_not_null()
                                & pl.col("title").is_not_null() & (pl.col("ipc").list.len() > 0))
            .join(simple, on="pub_id", how="left")
            .with_columns(pl.col("family_id").fill_null(pl.col("pub_id")))
            .sort("pub_id").unique(subset="family_id", keep="first", maintain_order=True)
            .select("pub_id", "family_id", "pub_date", "title", "abstract", "ipc", "cpc",
                    pl.col("ipc").list.first().str.slice(0, 3).alias("ipc3")))


def patent_text(df: pl.DataFrame) -> list[str]:
    return [f"Title: {t}\nAbstract: {a}" for t, a in zip(df["title"].to_list(), df["abstract"].to_list())]


def items_frame(task_id: str, questions: list[str], options: list[list[str]], answers: list[str],
                sources: list[list[str]]) -> pl.DataFrame:
    n = len(questions)
    return pl.DataFrame({"task_id": [task_id] * n, "mechanism": ["patent"] * n, "language": ["en"] * n,
                         "question": questions, "options": options, "answer": answers, "source_ids": sources},
                        schema=ITEM_SCHEMA)


def build_classification(reps: pl.DataFrame, task_id: str, scheme: str) -> pl.DataFrame:
    """1-5-1 (IPC) / 1-5-2 (CPC): title + abstract -> the main code (the first symbol), open answer.

    `codes` is the patent's full code list in document order (the main code first), so a scorer can
    also credit any of them; the paper's metric is exact match with the main code at four levels."""
    col = scheme.lower()
    df = reps.filter(pl.col(col).list.len() > 0)
    prompt = CLASSIFICATION_PROMPT.format(scheme=scheme, example=EXAMPLE[scheme])
    items = items_frame(task_id, [f"{prompt}\n{t}" for t in patent_text(df)], [[] for _ in range(df.height)],
                        df[col].list.first().to_list(), [[p] for p in df["pub_id"].to_list()])
    return items.with_columns(df[col].alias("codes"))


def dependents_of(claim_nos: list[int], depends: list[list[int] | None], root: int = 1) -> list[int]:
    """Claims that depend on `root` directly or through another dependent claim, in claim order."""
    found = {root}
    changed = True
    while changed:
        changed = False
        for no, deps in zip(claim_nos, depends):
            if no not in found and set(deps or ()) & found:
                found.add(no)
                changed = True
    return [no for no in claim_nos if no in found and no != root]


def _dependents_text(row: dict) -> str:
    wanted = set(dependents_of(row["nos"], row["deps"]))
    return "\n".join(t for no, t in zip(row["nos"], row["numbered"]) if no in wanted)


def claims_by_pub(claims: pl.LazyFrame) -> pl.LazyFrame:
    """Per publication: all claims numbered, claim 1, and every claim depending on claim 1 (directly or
    through another dependent), numbered, as 4-2's gold."""
    ordered = claims.sort("pub_id", "claim_no")
    numbered = pl.format("{}. {}", pl.col("claim_no"), pl.col("text"))
    per = ordered.group_by("pub_id", maintain_order=True).agg(
        numbered.str.join("\n").alias("claims_text"),
        pl.col("text").filter(pl.col("claim_no") == 1).first().alias("claim1"),
        pl.col("claim_no").alias("nos"), pl.col("depends_on").alias("deps"), numbered.alias("numbered"))
    return per.with_columns(pl.struct("nos", "deps", "numbered").map_elements(
        _dependents_text, return_dtype=pl.String).alias("dependents")).drop("nos", "deps", "numbered")


def build_abstract_generation(reps: pl.LazyFrame, per_pub: pl.LazyFrame) -> pl.LazyFrame:
    """4-1: all claims -> the abstract (`reps` are the families reserved for 4-1)."""
    return (reps.join(per_pub, on="pub_id").filter(pl.col("claims_text").str.len_chars() > 0)
            .select(pl.lit("4-1").alias("task_id"), pl.lit("patent").alias("mechanism"), pl.lit("en").alias("language"),
                    pl.format("Write the abstract of the patent with these claims:\n{}", "claims_text").alias("question"),
                    pl.lit([], dtype=pl.List(pl.String)).alias("options"), pl.col("abstract").alias("answer"),
                    pl.concat_list(pl.col("pub_id")).alias("source_ids"), "pub_date"))


def build_dependent_claims(reps: pl.LazyFrame, per_pub: pl.LazyFrame) -> pl.LazyFrame:
    """4-2, the paper's prompt: the independent claim 1 -> all its dependent claims. Nothing else is shown
    (no description, no abstract: the abstract is 4-1's gold). Carries `pub_date` for the recency cut."""
    return (reps.join(per_pub, on="pub_id")
            .filter(pl.col("claim1").is_not_null() & (pl.col("dependents").str.len_chars() > 0))
            .select(pl.lit("4-2").alias("task_id"), pl.lit("patent").alias("mechanism"), pl.lit("en").alias("language"),
                    pl.format("Write all the dependent claims of this independent claim.\nClaim 1: {}",
                              "claim1").alias("question"),
                    pl.lit([], dtype=pl.List(pl.String)).alias("options"), pl.col("dependents").alias("answer"),
                    pl.concat_list(pl.col("pub_id")).alias("source_ids"), "pub_date"))


def latest(df: pl.DataFrame, max_items: int) -> pl.DataFrame:
    """The `max_items` items of the most recently published patents (the paper draws 4-1/4-2 from the
    latest patents), canonical order; drops `pub_date`."""
    top = df.sort(["pub_date", "source_ids", "question"], descending=[True, False, False], nulls_last=True)
    return top.head(max_items).sort("source_ids", "question").drop("pub_date")


def visible_text(question: str, options: list[str] | None) -> str:
    return "\n".join([question, *(options or [])])


def refuse_cross_task_leaks(tasks: dict[str, pl.DataFrame], group_of: dict[str, str],
                            extra_gold: dict[str, list[str]] | None = None) -> tuple[dict[str, pl.DataFrame], dict]:
    """Drop every item whose question or options hold a gold text of the same family: another task's, or
    its own (a description quoting the claims, a code equal to the prompt's example).

    Gold texts are the answers of the open and generation tasks (a choice item's gold is which option,
    and its text is on show anyway), keyed by the family of the item's first source; `extra_gold` adds
    texts per family (the family's abstracts, which no 4-2 description may hold). Returns the kept
    items and the refused count per task."""
    specs = task_registry()
    gold: dict[str, list[tuple[str, str]]] = {g: [("abstract", t) for t in ts] for g, ts in (extra_gold or {}).items()}
    for task, df in tasks.items():
        if specs[task].kind == "choice":
            continue
        for src, ans in zip(df["source_ids"].to_list(), df["answer"].to_list()):
            if ans:
                gold.setdefault(group_of.get(src[0], src[0]), []).append((task, ans))
    kept, refused = {}, {}
    for task, df in tasks.items():
        keep = []
        for q, opts, src in zip(df["question"].to_list(), df["options"].to_list(), df["source_ids"].to_list()):
            text = visible_text(q, opts)
            groups = {group_of.get(s, s) for s in src}
            keep.append(not any(g_text in text for g in groups for t, g_text in gold.get(g, ())
                                if t != "abstract" or task == "4-2"))
        kept[task] = df.filter(pl.Series(keep, dtype=pl.Boolean))
        refused[task] = df.height - kept[task].height
    return kept, refused
