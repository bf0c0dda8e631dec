"""IPBench tasks buildable from structured patent data (English): declarations plus pure builders.

IPBench has 20 tasks, most written by experts; five can be derived from the warehouse: IPC and CPC
classification (1-5-1, 1-5-2), patent match (3-3), abstract generation (4-1) and dependent-claim
generation (4-2). Every item has the same fields (ITEM_FIELDS). Choice distractors are drawn with a
per-item seeded RNG from the same IPC3 neighbourhood, so a rebuild gives byte-identical items and a
distractor is never trivially far from the answer. Option drawing is per-item Python on purpose:
item counts are capped (`max_items`), and a seeded `random.Random` per item is what keeps it stable.
"""
from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

log = logging.getLogger(__name__)
ITEM_FIELDS = ("task_id", "mechanism", "language", "question", "options", "answer", "source_ids")
ITEM_SCHEMA = {"task_id": pl.String, "mechanism": pl.String, "language": pl.String, "question": pl.String,
               "options": pl.List(pl.String), "answer": pl.String, "source_ids": pl.List(pl.String)}
EXPERT_TASKS = ("1-1", "1-2", "1-3", "1-4", "1-6", "1-7", "2-1", "2-2", "2-3", "2-4", "2-5", "3-1", "3-2",
                "3-4", "3-5", "4-3")
SECTIONS = tuple("ABCDEFGH")
_TASK_ID = re.compile(r"^\d-\d(?:-\d)?$")
IPC_LEVELS = {"section": 1, "class": 3, "subclass": 4}


@dataclass(frozen=True)
class IPBenchSpec:
    """One published IPBench task: id as in the paper, kind (choice | generation), metric, version."""

    task_id: str
    name: str
    kind: str
    metric: str
    version: str = "1.0.0"
    mechanism: str = "patent"
    description: str = ""

    def __post_init__(self) -> None:
        if not _TASK_ID.match(self.task_id):
            raise ValueError(f"IPBench task id {self.task_id!r} must look like 1-5-1 or 4-2")
        if self.kind not in ("choice", "generation"):
            raise ValueError(f"IPBench task {self.task_id}: kind {self.kind!r} is not choice|generation")
        if self.task_id in EXPERT_TASKS:
            raise ValueError(f"IPBench task {self.task_id} is expert-authored; it cannot be built from data")


SPECS: tuple[IPBenchSpec, ...] = (
    IPBenchSpec("1-5-1", "ipc_classification", "choice", "accuracy", description="IPC at section/class/subclass"),
    IPBenchSpec("1-5-2", "cpc_classification", "choice", "accuracy", description="CPC subclass"),
    IPBenchSpec("3-3", "patent_match", "choice", "accuracy", description="most relevant patent among candidates"),
    IPBenchSpec("4-1", "abstract_generation", "generation", "rouge_l", description="claims -> abstract"),
    IPBenchSpec("4-2", "dependent_claim_generation", "generation", "rouge_l",
                description="independent claim + description -> dependent claims"),
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


def pick_distractors(answer: str, near: list[str], far: list[str], k: int, rng: random.Random) -> list[str]:
    """`k` distinct non-answer labels, the same-neighbourhood ones (`near`) first, then `far`."""
    near_c = sorted(set(near) - {answer})
    far_c = sorted(set(far) - {answer} - set(near_c))
    chosen = rng.sample(near_c, min(k, len(near_c)))
    return chosen + rng.sample(far_c, min(k - len(chosen), len(far_c)))


def shuffled_options(answer: str, distractors: list[str], rng: random.Random) -> list[str]:
    options = [answer, *distractors]
    rng.shuffle(options)
    return options


def representatives(publications: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """One English publication per simple family (smallest pub_id), with a title and an abstract.

    Family members repeat the same text; one per family keeps items distinct."""
    simple = families.filter(pl.col("family_kind") == "simple").select("pub_id", "family_id")
    return (publications.filter((pl.col("lang") == "en") & pl.col("abstract").is_not_null()
                                & pl.col("title").is_not_null() & (pl.col("ipc").list.len() > 0))
            .join(simple, on="pub_id", how="left")
            .with_columns(pl.col("family_id").fill_null(pl.col("pub_id")))
            .sort("pub_id").unique(subset="family_id", keep="first", maintain_order=True)
            .select("pub_id", "family_id", "title", "abstract", "ipc", "cpc",
                    pl.col("ipc").list.first().str.slice(0, 3).alias("ipc3")))


def patent_text(df: pl.DataFrame) -> list[str]:
    return [f"Title: {t}\nAbstract: {a}" for t, a in zip(df["title"].to_list(), df["abstract"].to_list())]


def _items(task_id: str, questions: list[str], options: list[list[str]], answers: list[str],
           sources: list[list[str]]) -> pl.DataFrame:
    n = len(questions)
    return pl.DataFrame({"task_id": [task_id] * n, "mechanism": ["patent"] * n, "language": ["en"] * n,
                         "question": questions, "options": options, "answer": answers, "source_ids": sources},
                        schema=ITEM_SCHEMA)


def _label_items(reps: pl.DataFrame, task_id: str, labels: list[str | None], level: str, scheme: str,
                 parent: Callable[[str], str], seed: int, k: int) -> pl.DataFrame:
    """Multiple-choice items 'which <scheme> <level>' with distractors sharing the answer's parent."""
    vocab = sorted({x for x in labels if x} | (set(SECTIONS) if level == "section" else set()))
    by_parent: dict[str, list[str]] = {}
    for lab in vocab:
        by_parent.setdefault(parent(lab), []).append(lab)
    q, opts, ans, src = [], [], [], []
    for pid, text, label in zip(reps["pub_id"].to_list(), patent_text(reps), labels):
        rng = item_rng(seed, f"{task_id}:{level}", pid)
        dis = pick_distractors(label, by_parent.get(parent(label), []), vocab, k, rng) if label else []
        if len(dis) < k:
            continue
        q.append(f"Which {scheme} {level} does this patent belong to?\n{text}")
        opts.append(shuffled_options(label, dis, rng))
        ans.append(label)
        src.append([pid])
    return _items(task_id, q, opts, ans, src)


def build_ipc_classification(reps: pl.DataFrame, seed: int, k: int = 3) -> pl.DataFrame:
    """1-5-1: section (distractors: other sections), class (same section), subclass (same IPC3)."""
    parents = {"section": lambda s: "", "class": lambda s: s[:1], "subclass": lambda s: s[:3]}
    first = reps["ipc"].list.first().to_list()
    parts = [_label_items(reps, "1-5-1", [f[:n] if f else None for f in first], level, "IPC", parents[level], seed, k)
             for level, n in IPC_LEVELS.items()]
    return pl.concat(parts)


def build_cpc_classification(reps: pl.DataFrame, seed: int, k: int = 3) -> pl.DataFrame:
    """1-5-2: CPC subclass of the first CPC symbol; distractors from the same class (IPC3-like)."""
    first = [c[0][:4] if c else None for c in reps["cpc"].to_list()]
    return _label_items(reps, "1-5-2", first, "subclass", "CPC", lambda s: s[:3], seed, k)


def match_pairs(reps: pl.LazyFrame, citations: pl.LazyFrame, families: pl.LazyFrame) -> pl.LazyFrame:
    """(query, target) pairs for 3-3: the query cites the target, both representatives, different families.

    A citation to any member of a family points at that family's representative."""
    simple = families.filter(pl.col("family_kind") == "simple").select("pub_id", "family_id")
    rep_of = simple.join(reps.select("family_id", pl.col("pub_id").alias("rep")), on="family_id")
    edges = (citations.filter(pl.col("cited_pub_id").is_not_null())
             .join(rep_of.select(pl.col("pub_id").alias("citing_pub_id"), pl.col("rep").alias("query")),
                   on="citing_pub_id")
             .join(rep_of.select(pl.col("pub_id").alias("cited_pub_id"), pl.col("rep").alias("target")),
                   on="cited_pub_id")
             .filter(pl.col("query") != pl.col("target")))
    return edges.select("query", "target").unique().sort("query", "target").unique(subset="query", keep="first")


def build_patent_match(reps: pl.DataFrame, pairs: pl.DataFrame, cited_by: dict[str, set[str]], seed: int,
                       k: int = 3) -> pl.DataFrame:
    """3-3: query patent + candidates (the cited patent, and `k` same-IPC3 patents it does not cite)."""
    text = dict(zip(reps["pub_id"].to_list(), patent_text(reps)))
    ipc3 = dict(zip(reps["pub_id"].to_list(), reps["ipc3"].to_list()))
    pool: dict[str, list[str]] = {}
    for pid, c in ipc3.items():
        pool.setdefault(c, []).append(pid)
    q, opts, ans, src = [], [], [], []
    for query, target in pairs.iter_rows():
        excluded = cited_by.get(query, set()) | {query, target}
        near = [p for p in pool.get(ipc3[target], []) if p not in excluded]
        rng = item_rng(seed, "3-3", query)
        dis = pick_distractors(target, near, [], k, rng)
        if len(dis) < k:
            continue
        ids = shuffled_options(target, dis, rng)
        q.append("Which candidate patent is most relevant to (cited by) this patent?\n" + text[query])
        opts.append([text[i] for i in ids])
        ans.append(text[target])
        src.append([query, *ids])
    return _items("3-3", q, opts, ans, src)


def claims_by_pub(claims: pl.LazyFrame) -> pl.LazyFrame:
    """Per publication: all claims numbered, claim 1, and claim 1's direct dependents."""
    ordered = claims.sort("pub_id", "claim_no")
    numbered = pl.format("{}. {}", pl.col("claim_no"), pl.col("text"))
    is_dep1 = pl.col("depends_on").list.contains(1) & ~pl.col("is_independent").fill_null(False)
    return ordered.group_by("pub_id", maintain_order=True).agg(
        numbered.str.join("\n").alias("claims_text"),
        pl.col("text").filter(pl.col("claim_no") == 1).first().alias("claim1"),
        numbered.filter(is_dep1).str.join("\n").alias("dependents"))


def build_abstract_generation(reps: pl.LazyFrame, per_pub: pl.LazyFrame) -> pl.LazyFrame:
    """4-1: all claims -> the abstract."""
    return (reps.join(per_pub, on="pub_id").filter(pl.col("claims_text").str.len_chars() > 0)
            .select(pl.lit("4-1").alias("task_id"), pl.lit("patent").alias("mechanism"), pl.lit("en").alias("language"),
                    pl.format("Write the abstract of the patent with these claims:\n{}", "claims_text").alias("question"),
                    pl.lit([], dtype=pl.List(pl.String)).alias("options"), pl.col("abstract").alias("answer"),
                    pl.concat_list(pl.col("pub_id")).alias("source_ids")))


def build_dependent_claims(reps: pl.LazyFrame, per_pub: pl.LazyFrame, descriptions: pl.LazyFrame) -> pl.LazyFrame:
    """4-2: independent claim 1 + description -> its dependent claims.

    The description is the publication's paragraphs; without one (Lens exports carry none) the
    abstract stands in, and the build reports how many items used it."""
    desc = (descriptions.sort("pub_id", "para_no").group_by("pub_id", maintain_order=True)
            .agg(pl.col("text").str.join("\n").alias("description")))
    return (reps.join(per_pub, on="pub_id").join(desc, on="pub_id", how="left")
            .filter(pl.col("claim1").is_not_null() & (pl.col("dependents").str.len_chars() > 0))
            .select(pl.lit("4-2").alias("task_id"), pl.lit("patent").alias("mechanism"), pl.lit("en").alias("language"),
                    pl.format("Write the dependent claims of claim 1.\nClaim 1: {}\nDescription: {}", "claim1",
                              pl.coalesce("description", "abstract")).alias("question"),
                    pl.lit([], dtype=pl.List(pl.String)).alias("options"), pl.col("dependents").alias("answer"),
                    pl.concat_list(pl.col("pub_id")).alias("source_ids"),
                    pl.col("description").is_null().alias("description_fallback")))
