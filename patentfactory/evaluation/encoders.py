"""Text encoders for the embedding baselines: the offline all-MiniLM-L6-v2 or a local model folder.

Loaded on the CPU with the hub switched off, so eval never downloads anything; an `Encoder` is a
plain callable so tests and other models can be plugged in without sentence-transformers.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..encoder_model import packaged_model_path, shared_model
from ..errors import PFError

if TYPE_CHECKING:
    from ..store.embedding_cache import EmbeddingCache

log = logging.getLogger(__name__)
DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"


@dataclass(frozen=True)
class Encoder:
    """A named texts -> L2-normalised embeddings function."""

    name: str
    encode: Callable[[list[str]], np.ndarray]
    # PatenTEB tasks share texts (full_text is the target of several tasks and the input of the probes):
    # each distinct text is encoded once per run. Holds ~1.5 kB per text for a 384-dim model.
    cache: dict[str, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts` (each distinct text encoded once per encoder), rows L2-normalised."""
        missing = sorted(set(texts) - self.cache.keys())
        if missing:
            emb = np.asarray(self.encode(missing), dtype=np.float32)
            emb = emb / np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12)
            self.cache.update(zip(missing, emb))
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([self.cache[t] for t in texts])


def load_encoder(model_path: str | Path | None = None, batch_size: int = 64,
                 cache: "EmbeddingCache | None" = None) -> Encoder:
    """The packaged all-MiniLM-L6-v2, or a SentenceTransformer saved at `model_path`, on the CPU.

    `cache` (the packaged model only): the build's embedding cache, read and filled; the model is loaded only
    when a text is missing from it."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if model_path is None:
        path, name = packaged_model_path(), DEFAULT_MODEL_NAME
    else:
        path, name = Path(model_path), Path(model_path).name
        if not path.is_dir():
            raise PFError(f"model folder {path} does not exist",
                          "pass a local SentenceTransformer folder with --model, or leave it out for all-MiniLM-L6-v2")

    def encode(texts: list[str]) -> np.ndarray:
        return shared_model(str(path), "cpu").encode(texts, batch_size=batch_size, normalize_embeddings=True,
                                                    convert_to_numpy=True, show_progress_bar=False)

    if cache is not None and model_path is None:
        return Encoder(name=name, encode=cache.encoder(encode))
    return Encoder(name=name, encode=encode)
