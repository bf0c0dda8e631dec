"""Stage: warehouse -> PatenTEB task tables -> versioned publish.

Reads the canonical tables, derives simple families (written back to the warehouse as the
`families` table), builds all 15 tasks with the offline sentence-transformers model for dense
negatives and token counting, and publishes with the family/text leakage check.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import polars as pl

from schemas import validate
from schemas.patenteb import patenteb_table
from transforms.families import build_families
from transforms.family_sizes import check_reported_sizes
from transforms.splits import check_no_family_leak
from transforms.tasks.patenteb import PatenTEBParams, build_patenteb, id_conventions, leak_checked, task_specs

from patentfactory.config import EMBED_CHUNK
from patentfactory.encoder_model import DEFAULT_MODEL_PACKAGE, packaged_model_path, shared_model
from patentfactory.store.drift import coverage_of
from patentfactory.store.embedding_cache import EmbeddingCache, Fill, cache_for
from patentfactory.store.ledger import Ledger
from patentfactory.store.publish import LeakageCheck, Published, Release, publish
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
from patentfactory.stages.memory import within_budget
from patentfactory.stages.patenteb_card import departures, reproducing, sizes

log = logging.getLogger(__name__)
MODEL_PACKAGE = DEFAULT_MODEL_PACKAGE  # eval's default encoder: one name for both, so they share cached vectors

# Thresholds for small worlds (the embedded sample); stated in the card. SPEC defaults otherwise.
# Splits 50/25/25: val and test of a few hundred families then hold citation pairs of every relation and
# paraphrase pairs. Clusters come from all families (as in the paper); their size bounds are the paper's
# scaled by SAMPLE_CLUSTER_SCALE, never below 2 (a cluster of one is no cluster). The paper's completeness filter
# is off: a small world has too few segmented abstracts for every task (the embedded sample: 57 of 226 families;
# with the filter 44 remain and retrieval_MIXED, retrieval_OUT/test, para_problem/test and effect2substance/val
# come out empty); the card states which population built the version and counts the other.
SAMPLE_CLUSTER_SCALE = 0.01


def scaled_bound(size: int, scale: float) -> int:
    return max(2, round(size * scale))


_SPEC = PatenTEBParams()
SAMPLE_OVERRIDES: dict[str, Any] = {
    "min_families_per_ipc3": 5, "min_rows_per_stratum": 2, "cluster_families_from": "all",
    "split_fractions": (0.5, 0.25, 0.25), "complete_families_only": False,
    **{k: scaled_bound(getattr(_SPEC, k), SAMPLE_CLUSTER_SCALE) for k in (
        "cluster_ipc_min_size", "cluster_ipc_max_size", "cluster_inventor_min_size", "cluster_inventor_max_size")},
}


@lru_cache(maxsize=1)
def load_model() -> Any:
    """all-MiniLM-L6-v2 from its pip package (never from a hub), on a GPU when there is one, else the CPU.

    The same loaded model as eval's default encoder (`shared_model`), so a night loads it once."""
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    import torch

    return shared_model(str(packaged_model_path()), "cuda" if torch.cuda.is_available() else "cpu")


@lru_cache(maxsize=1)
def load_tokenizer() -> Any:
    """The model's own tokenizer.json through `tokenizers` (what the model's fast tokenizer wraps): token counts
    without loading torch and the weights, which a night whose texts are all in the embedding cache never needs."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(packaged_model_path() / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def count_tokens(texts: list[str]) -> list[int]:
    """Tokens per text with [CLS]/[SEP], untruncated: the same counts as the model's tokenizer."""
    return [len(e.ids) for e in load_tokenizer().encode_batch(list(texts), add_special_tokens=True)]


def encode_texts(texts: list[str]) -> Any:
    """L2-normalised embeddings; the model is loaded on the first call (only for texts the cache lacks)."""
    return load_model().encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)


def model_functions() -> tuple[Callable[[list[str]], Any], Callable[[list[str]], list[int]]]:
    return encode_texts, count_tokens


def embedding_cache(data_dir: str | Path, shared: str | None = None) -> EmbeddingCache:
    """`shared` (the settings' PF_PATHS__EMBEDDING_CACHE, shared by data dirs) when given, else
    `<data_dir>/cache/embeddings`."""
    cache = cache_for(data_dir, MODEL_PACKAGE, shared)
    assert cache is not None
    return cache


def embed_texts(data_dir: str | Path, texts: list[str], shared: str | None = None) -> int:
    """One chunk of the dense encoding into the embedding cache (a fan-out task's body); returns texts encoded."""
    return embedding_cache(data_dir, shared).put(texts, model_functions()[0])


def make_params(seed: int, profile: str, overrides: dict[str, Any] | None = None) -> PatenTEBParams:
    base = PatenTEBParams(seed=seed)
    extra = dict(SAMPLE_OVERRIDES) if profile == "sample" else {}
    extra.update(overrides or {})
    return replace(base, **extra)


def _leak_check(frames: dict[str, dict[str, pl.DataFrame]]) -> list[str]:
    """Family / text leak over the task tables; clustering pools (all splits by design) and the retrieval
    layouts (views of the checked retrieval rows, by id) take no part."""
    report = check_no_family_leak(leak_checked(frames))
    return [f"{v['kind']} shared by splits {v['splits']} in tasks {v['tasks']}" for v in report.violations]


def _spec_thresholds() -> str:
    d = PatenTEBParams()
    return (f"split {'/'.join(f'{x:g}' for x in d.split_fractions)}, {d.min_families_per_ipc3} families per IPC3, "
            f"{d.min_rows_per_stratum} rows per stratum, clusters {d.cluster_ipc_min_size}–{d.cluster_ipc_max_size} "
            f"(IPC) / {d.cluster_inventor_min_size}–{d.cluster_inventor_max_size} (inventor) from "
            f"{d.cluster_families_from!r} families")


def _card_sections(stats: dict, params: PatenTEBParams, profile: str, pubs: pl.DataFrame, dropped: list[str]) -> dict:
    dates = pubs.select(pl.col("pub_date").min().alias("lo"), pl.col("pub_date").max().alias("hi")).row(0)
    sources = ", ".join(sorted(pubs["source"].unique().to_list()))
    keep = {k: stats[k] for k in ("selected_families", "completeness", "truncated_texts", "negatives_published",
                                  "removed_duplicates_total", "dropped_cross_split_pairs", "inventors",
                                  "retrieval_without_negative", "clusters") if k in stats}
    return {
        "Provenance": (f"Sources: {sources}. Publications dated {dates[0]} to {dates[1]} (`pub_date` = publication "
                       "date; `app_date` = filing date; priorities carry priority dates). Families: `simple` = same "
                       "priority set (DOCDB-like), derived by `transforms.families`, joined where EPO OPS reports one DOCDB "
                       "family-id. Text = title + abstract + first "
                       f"claim joined by {params.separator!r}, token counts by all-MiniLM-L6-v2's tokenizer. \"Cited at least "
                       "once\" counts citing families in the warehouse or, when larger, the citing patents a source "
                       "reports (Lens `cited_by`, citers outside the export included; "
                       f"{stats.get('funnel', {}).get('cited_only_by_source_count', 0)} families qualified by that "
                       "count alone)."),
        "Thresholds": (f"Profile `{profile}`: family split train/val/test = "
                       f"{'/'.join(f'{x:g}' for x in params.split_fractions)}, min families per IPC3 = "
                       f"{params.min_families_per_ipc3}, min train rows per stratum = {params.min_rows_per_stratum}, clusters "
                       f"{params.cluster_ipc_min_size}–{params.cluster_ipc_max_size} (IPC) / "
                       f"{params.cluster_inventor_min_size}–{params.cluster_inventor_max_size} (inventor), clusters drawn from "
                       f"{params.cluster_families_from!r} families. "
                       + (f"Lowered from SPEC's defaults ({_spec_thresholds()}) for the small sample world."
                          if profile == "sample" else "SPEC defaults.")),
        "Departures from the paper": departures(stats, params, profile,
                                                SAMPLE_CLUSTER_SCALE if profile == "sample" else None),
        "Sizes against the paper's Table 1": sizes(stats),
        "Reproducing the paper": reproducing(stats),
        "Build statistics": "```json\n" + json.dumps(keep, indent=2, sort_keys=True, default=str) + "\n```",
        "Not published": ("Empty task splits in this build (never published empty): " + ", ".join(dropped))
        if dropped else "Every task split of the build had rows.",
    }


@within_budget("build-patenteb")
def build_and_publish_patenteb(data_dir: str | Path, out_root: str, seed: int = 1337, profile: str = "sample",
                               overrides: dict[str, Any] | None = None,
                               publish_options: PublishOptions = PublishOptions(), use_model: bool = True,
                               embed_fill: Fill | None = None, embeddings: str | None = None,
                               embed_chunk: int = EMBED_CHUNK) -> Published:
    """`embed_fill`: encodes missing texts in chunks of `embed_chunk` elsewhere (flows/build_patenteb.py fans them
    out). `embeddings`: the shared embedding cache (the settings' PF_PATHS__EMBEDDING_CACHE); None: the data dir's."""
    root = Storage(data_dir)
    wh = Warehouse(root.sub("warehouse"))
    pubs = wh.lean_frame("publications", skip=("raw",))
    if pubs.height == 0:
        from patentfactory.errors import PFError
        raise PFError(f"the warehouse under {root.uri('warehouse')} has no publications",
                      "run `pf ingest lens|uspto ...` (or `pf run`) first")
    reported = wh.frame("reported_families").lazy()
    families = build_families(pubs.lazy(), reported).collect()
    wh.write_part("families", "derived", families.to_arrow())
    params = make_params(seed, profile, overrides)
    encode, count = model_functions() if use_model else (None, None)
    if encode is not None:
        encode = embedding_cache(data_dir, embeddings).encoder(encode, embed_chunk, fill=embed_fill)
    tasks, stats = build_patenteb(pubs.lazy(), wh.lean_frame("claims", skip=("depends_on", "is_independent")).lazy(),
                                  wh.lean_frame("citations").lazy(), families.lazy(), params,
                                  encode=encode, count_tokens=count)
    stats["reported_family_sizes"] = check_reported_sizes(reported, families.lazy())  # the sources' sizes vs ours
    dropped = sorted(f"{t}/{s}" for t, sp in tasks.items() for s, df in sp.items() if df.height == 0)
    tasks = {t: {s: df for s, df in sp.items() if df.height} for t, sp in tasks.items()}
    tasks = {t: sp for t, sp in tasks.items() if sp}
    for name, splits in tasks.items():  # the published contract (schemas/patenteb.py): columns, types, keys
        for df in splits.values():
            validate(df.to_arrow(), patenteb_table(name))
    labels = pl.concat([df.select("label") for df in tasks.get("class_text2ipc3", {}).values()] or
                       [pl.DataFrame({"label": ["none"]})])
    release = Release(
        dataset="patenteb", tasks=tasks,
        config={"params": params.as_dict(), "profile": profile, "model": MODEL_PACKAGE if use_model else None,
                "tasks": {n: s.version for n, s in task_specs().items()}},
        inputs=Ledger(root.sub("warehouse")).snapshot(),
        leakage_checks=[LeakageCheck("no_family_or_text_in_two_splits", _leak_check)],
        distribution=dict(labels.group_by("label").len().iter_rows()), distribution_title="families per IPC3 domain",
        card_sections=_card_sections(stats, params, profile, pubs, dropped),
        stats={k: v for k, v in stats.items() if k != "params"},
        coverage=coverage_of(pubs.lazy()), id_conventions=id_conventions(list(tasks)))
    return publish(Storage(out_root), release, options=publish_options)
