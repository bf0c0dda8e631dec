"""Pap2Pat published table: fields, nested document types, splits and the leakage check.

Splits follow the released dataset: `nc-test` (non-contaminated) = pairs whose patent was published
on or after the cut-off (2024-01-01); from the rest, with `random.Random(seed)` over the sorted
pair ids, train is drawn first, then test, and val is what remains. The paper's sizes are
train 1000 / val 242 / test 500 out of 1,742 non-nc pairs; other pool sizes keep those shares
(≈ 57 % / 14 % / 29 % of the pool, i.e. 55 % / 13 % / 28 % of all pairs with nc-test ≈ 4 %).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

import polars as pl
import pyarrow as pa

from transforms.outlines import LEVELS, outline_levels

TASK = "pairs"
SPLITS = ("train", "val", "test", "nc-test")
STRS = pa.list_(pa.string())
EVIDENCE = ("author_overlap", "day_delta", "title_min", "title_max", "abstract_min", "abstract_max", "margin")
OUTLINE_COLUMNS = tuple(f"outline_{name}" for name in outline_levels())


def section_type(depth: int = 3, outlines: bool = True) -> pa.DataType:
    """Arrow type of a section with at most `depth` levels (Arrow has no recursive types)."""
    fields = [("title", pa.string()), ("paragraphs", STRS)]
    if depth > 1:
        fields.append(("subsections", pa.list_(section_type(depth - 1, outlines))))
    if outlines:
        fields += [(f"outline_{name}", STRS) for name in LEVELS] + [("num_characters", pa.int64())]
    return pa.struct(fields)


def document_type(outlines: bool, claims: bool) -> pa.DataType:
    """`patent.json` / `paper.json` as a struct column (golden field names)."""
    fields = [("id", pa.string()), ("authors", STRS), ("title", pa.string()), ("date", pa.string()),
              ("abstract", pa.string()), ("sections", pa.list_(section_type(3, outlines)))]
    return pa.struct(fields + ([("claims", STRS)] if claims else []))


SCHEMA = pa.schema([
    ("pair_id", pa.string()), ("pub_id", pa.string()), ("work_id", pa.string()), ("doi", pa.string()),
    ("license", pa.string()), ("patent_app_date", pa.date32()), ("patent_pub_date", pa.date32()),
    ("paper_date", pa.date32()), ("author_overlap", pa.float64()), ("day_delta", pa.int32()),
    ("title_min", pa.float64()), ("title_max", pa.float64()), ("abstract_min", pa.float64()),
    ("abstract_max", pa.float64()), ("margin", pa.float64()), ("paper_fulltext", pa.bool_()),
    ("paper_text", pa.string()), ("patent_text", pa.string()), *[(c, pa.string()) for c in OUTLINE_COLUMNS],
    ("patent", document_type(outlines=True, claims=True)), ("paper", document_type(outlines=False, claims=False)),
])


@dataclass(frozen=True)
class SplitParams:
    """SPEC: seed 1337, nc-test from 2024-01-01; the paper's train/val/test sizes set the shares."""
    seed: int = 1337
    cutoff: date = date(2024, 1, 1)
    sizes: tuple[int, int, int] = (1000, 242, 500)  # train, val, test


def split_sizes(pool: int, sizes: tuple[int, int, int]) -> tuple[int, int, int]:
    """(train, val, test) for a pool of non-nc pairs, in the paper's proportions; val takes the rounding."""
    total = sum(sizes)
    train, test = round(pool * sizes[0] / total), round(pool * sizes[2] / total)
    return train, pool - train - test, test


def split_pairs(pairs: pl.DataFrame, params: SplitParams = SplitParams()) -> pl.DataFrame:
    """(pair_id, patent_pub_date) -> (pair_id, split); deterministic for a seed and a set of pairs."""
    nc = pairs.filter(pl.col("patent_pub_date") >= params.cutoff)["pair_id"].sort().to_list()
    pool = pairs.filter(~pl.col("pair_id").is_in(nc))["pair_id"].sort().to_list()
    n_train, _, n_test = split_sizes(len(pool), params.sizes)
    rng = random.Random(params.seed)
    train = set(rng.sample(pool, n_train))
    rest = [p for p in pool if p not in train]
    test = set(rng.sample(rest, n_test))
    split = {**{p: "train" for p in train}, **{p: "test" for p in test},
             **{p: "val" for p in rest if p not in test}, **{p: "nc-test" for p in nc}}
    return pl.DataFrame({"pair_id": list(split), "split": list(split.values())},
                        schema={"pair_id": pl.String, "split": pl.String}).sort("pair_id")


def no_pair_member_in_two_splits(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """Leakage check: a patent or a paper appears in one split only."""
    problems = []
    for col in ("pub_id", "work_id"):
        seen: dict[str, str] = {}
        for split, df in sorted(frames.get(TASK, {}).items()):
            for key in df[col].to_list():
                if seen.setdefault(key, split) != split:
                    problems.append(f"{col} {key} in {seen[key]} and {split}")
    return problems
