"""Content-addressed cache of text embeddings, so a nightly rebuild only encodes texts it has not seen.

Dense encoding is most of build-patenteb's time on a CPU (about 60–120 texts/s on 2 cores with
all-MiniLM-L6-v2); the nightly corpus changes little, so vectors are kept per (model, sha256(text)) as
Parquet parts under `<data>/cache/embeddings/<model>/` (or PF_PATHS__EMBEDDING_CACHE, shared by data dirs).
Eval reads the same cache: a night scores a new version encoding only the texts no earlier build or eval saw.
Its scores, written to 5 decimals, do not depend on which batch a text was encoded in (the vectors differ by
~1e-7; tests/flows/test_sample_whole.py rescores the sample build with vectors from shuffled batches).
A part is written only after its batch is encoded, so a killed run keeps every finished part and loses at most one batch of work.

Several processes sharing one local cache (parallel nights, test workers) encode a batch once: the first to
reach a batch holds `part-<key>.lock` (O_EXCL, its pid inside) while it encodes; another that needs the same
batch waits for the part instead of encoding it too, and takes a lock over whose holder is gone (a killed run).
Before encoding, parts that other processes wrote since this one last looked are read. On `s3://` no lock is
taken (two writers of one part write the same bytes).

Fan-out (issue 18): `encoder(encode, fill=...)` hands the missing texts, in chunks, to `fill`, which may
encode them anywhere (tasks on the flow's runner, Dask workers) as long as each chunk ends as a part here
(`EmbeddingCache.put`); the parts are where the chunks meet, named by their content, one writer each.
"""
from __future__ import annotations

import hashlib
import io
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from common import progress

from .processes import process_alive
from .storage import Storage

log = logging.getLogger(__name__)
Encoder = Callable[[list[str]], np.ndarray]
Fill = Callable[[list[list[str]]], None]
PART_SIZE = 4096
LOCK_POLL_S = 0.5
LOCK_STALE_S = 3600.0  # a lock this old is taken over even if its pid is alive (reused pid, another host)


def cache_for(data_dir: str | Path | None, model: str, shared: str | None = None) -> "EmbeddingCache | None":
    """`shared` (the settings' PF_PATHS__EMBEDDING_CACHE, shared by data dirs) when given, else
    `<data_dir>/cache/embeddings`, else None."""
    if shared:
        return EmbeddingCache(Storage(shared), model, under=())
    return EmbeddingCache(Storage(data_dir), model) if data_dir is not None else None


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Vectors by text hash for one model; `encoder(encode)` wraps an encoder with lookup + fill."""

    def __init__(self, storage: Storage, model: str, under: tuple[str, ...] = ("cache", "embeddings")) -> None:
        """`storage`: a data dir (the cache lives `under` it) or, with `under=()`, the cache's own root."""
        self.storage = storage.sub(*under, model)
        self._vectors: dict[str, np.ndarray] | None = None
        self._parts: set[str] = set()  # the parts read into _vectors

    def _load(self) -> dict[str, np.ndarray]:
        if self._vectors is None:
            self._vectors, self._parts = {}, set()
            self._read_new_parts()
        return self._vectors

    def _read_new_parts(self) -> None:
        """Read the parts not read yet (written by this process's fan-out or by another process)."""
        assert self._vectors is not None
        for rel in sorted(set(self.storage.glob("part-*.parquet")) - self._parts):
            self._read_part(rel)

    def _read_part(self, rel: str) -> None:
        assert self._vectors is not None
        table = pq.read_table(io.BytesIO(self.storage.read_bytes(rel)))
        keys = table.column("key").to_pylist()
        flat = table.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        vectors = flat.reshape(len(keys), -1) if keys else flat.reshape(0, 0)
        self._vectors.update(zip(keys, vectors))
        self._parts.add(rel)

    def __len__(self) -> int:
        return len(self._load())

    @staticmethod
    def _part_name(keys: list[str]) -> str:
        return f"part-{text_key(''.join(keys))[:16]}.parquet"

    def _store(self, keys: list[str], vectors: np.ndarray) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        column = pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1)), vectors.shape[1])
        buf = io.BytesIO()
        pq.write_table(pa.table({"key": keys, "vector": column}), buf, compression="zstd")
        name = self._part_name(keys)
        self.storage.write_bytes(name, buf.getvalue())
        progress.advance("embedding", len(keys))
        self._load().update(zip(keys, vectors))
        self._parts.add(name)

    def _encode_part(self, keys: list[str], texts: list[str], encode: Encoder) -> None:
        """Encode one batch into its part, unless another process has it or is encoding it (then its part is read)."""
        name = self._part_name(keys)
        lock = None if self.storage.is_s3 else self._lock(name)
        try:
            if self.storage.exists(name):  # written while this process waited, or before it last looked
                self._read_part(name)
                progress.advance("embedding", len(keys))
                return
            self._store(keys, np.asarray(encode(texts)))
        finally:
            if lock is not None:
                lock.unlink(missing_ok=True)

    def _lock(self, name: str) -> "Path":
        """Hold `<part>.lock`, waiting while a live process holds it; a dead or stale holder's lock is taken over."""
        lock = Path(self.storage.path(name + ".lock"))
        lock.parent.mkdir(parents=True, exist_ok=True)
        waited = False
        while True:
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if not _held(lock):
                    lock.unlink(missing_ok=True)
                    continue
                if not waited:
                    log.info("another process is encoding %s; waiting for its part", name)
                    waited = True
                time.sleep(LOCK_POLL_S)
                continue
            with os.fdopen(fd, "w") as fh:
                fh.write(str(os.getpid()))
            return lock

    def put(self, texts: list[str], encode: Encoder) -> int:
        """Encode the texts this cache lacks as one part (keys sorted: the same chunk gives the same bytes)."""
        known = self._load()
        missing = sorted({text_key(t): t for t in texts if text_key(t) not in known}.items())
        if missing:
            self._encode_part([k for k, _ in missing], [t for _, t in missing], encode)
        return len(missing)

    def encoder(self, encode: Encoder | None, part_size: int = PART_SIZE, fill: Fill | None = None) -> Encoder:
        def cached(texts: list[str]) -> np.ndarray:
            known = self._load()
            keys = [text_key(t) for t in texts]
            missing = sorted({k: t for k, t in zip(keys, texts) if k not in known}.items())
            progress.expect("embedding", len(missing))
            if fill is not None and missing:  # the chunks' parts are written elsewhere, read in below
                fill([[t for _, t in missing[i:i + part_size]] for i in range(0, len(missing), part_size)])
            if missing:  # parts the fan-out wrote, or another process sharing the cache, since the last look
                self._read_new_parts()
                missing = [(k, t) for k, t in missing if k not in known]
                if missing and encode is None and fill is not None:
                    raise RuntimeError(f"{len(missing)} texts still lack a vector after the fan-out")
            started = time.monotonic()
            for start in range(0, len(missing), part_size):
                batch = missing[start:start + part_size]
                self._encode_part([k for k, _ in batch], [t for _, t in batch], encode)
                done = start + len(batch)
                rate = done / max(time.monotonic() - started, 1e-9)
                log.info("embedded %d/%d new texts (%.0f/s, %d cached)", done, len(missing), rate,
                         len(texts) - len(missing))
            if not texts:
                return np.zeros((0, 0), dtype=np.float32)
            return np.stack([known[k] for k in keys])

        return cached


def _held(lock: Path) -> bool:
    """Whether the lock's holder still runs (same host) and the lock is not stale; unreadable: held (just made)."""
    try:
        text, age = lock.read_text().strip(), time.time() - lock.stat().st_mtime
    except FileNotFoundError:
        return False
    if not text.isdigit():  # created, its pid not written yet (or never: a holder killed in between)
        return age < 10
    return age <= LOCK_STALE_S and process_alive(int(text))
