"""`evaluate_dataset`: the dataset's scorer from the registry (patentfactory/datasets.py), run over one version.

PatenTEB has its own protocol (retrieval corpora, probes, clustering) over its task registry; the
other datasets are scored task by task from their train/test frames. An unknown dataset name is a
user error with the known names as the hint.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import polars as pl

from ..datasets import NAMES, get_dataset
from ..errors import PFError
from patentfactory.store.storage import Storage
from ..store.embedding_cache import cache_for
from ..encoder_model import DEFAULT_MODEL_PACKAGE
from .encoders import Encoder, load_encoder
from .patenteb import PatenTEBEvalConfig
from .published import PublishedVersion, open_version
from .results import EvalResult, Score, Skipped, SkipTask

log = logging.getLogger(__name__)
FrameScorer = Callable[[str, pl.DataFrame | None, pl.DataFrame | None], list[Score]]
KNOWN_DATASETS = NAMES  # every registered dataset has a scorer (patentfactory/datasets.py)


def evaluate_frames(pv: PublishedVersion, scorer: FrameScorer) -> EvalResult:
    """Apply a frame scorer to every published task (train may be absent; test is required, or a zero-shot
    `eval` split for a task published without train/test, PILOT's `all/eval`)."""
    result = EvalResult(pv.dataset, pv.version)
    for task in pv.tasks():
        try:
            test = pv.read(task, "test")
            if test is None and "train" not in pv.splits(task):
                test = pv.read(task, "eval")
            result.scores.extend(scorer(task, pv.read(task, "train"), test))
        except SkipTask as exc:
            result.skipped.append(Skipped(task, str(exc)))
    return result


def evaluate_dataset(root: str | Path | Storage, dataset: str, version: str | None = None, *,
                     model_path: str | Path | None = None, encoder: Encoder | None = None,
                     max_queries: int | None = None, data_dir: str | Path | None = None,
                     embeddings: str | None = None) -> EvalResult:
    """Score one published version (default: LATEST) of `dataset` under `root` with the baselines.

    `encoder` overrides the sentence model (PatenTEB only); otherwise `model_path` or the packaged
    all-MiniLM-L6-v2 is loaded. `max_queries` caps the distinct queries per retrieval task. The packaged model
    reads and fills the embedding cache `embeddings` (the settings' PF_PATHS__EMBEDDING_CACHE, passed by the
    entry point), else that of `data_dir`, so texts the build already encoded are not encoded again.
    """
    entry = get_dataset(dataset, "evaluation")
    if max_queries is not None and max_queries <= 0:
        raise PFError(f"--max-queries must be positive, got {max_queries}", "e.g. --max-queries 1000")
    storage = root if isinstance(root, Storage) else Storage(root)
    pv = open_version(storage, dataset, version)
    log.info("evaluating %s %s under %s", dataset, pv.version, storage.url)
    if entry.protocol == "patenteb":
        enc = encoder or load_encoder(model_path, cache=cache_for(data_dir, DEFAULT_MODEL_PACKAGE, embeddings))
        return entry.scorer()(pv, enc, PatenTEBEvalConfig(max_queries=max_queries))
    return evaluate_frames(pv, entry.scorer())
