"""The embedding cache: only unseen texts reach the encoder, vectors survive a restart unchanged."""
from __future__ import annotations

import hashlib

import numpy as np

from patentfactory.config import Settings
from patentfactory.store.embedding_cache import EmbeddingCache
from patentfactory.store.storage import Storage


class CountingEncoder:
    """Deterministic 8-d vectors from the text's hash; records every text it was asked to encode."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.seen += texts
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[:8], dtype=np.uint8) for t in texts]
        return np.asarray(rows, dtype=np.float32) / 255.0


def test_only_new_texts_are_encoded_and_vectors_survive_a_restart(tmp_path):
    enc = CountingEncoder()
    cached = EmbeddingCache(Storage(tmp_path), "toy-model").encoder(enc, part_size=2)
    first = cached(["a pump", "a valve", "a pump", "a gear"])
    assert sorted(enc.seen) == ["a gear", "a pump", "a valve"]
    np.testing.assert_array_equal(first, CountingEncoder()(["a pump", "a valve", "a pump", "a gear"]))
    assert len(list((tmp_path / "cache/embeddings/toy-model").glob("part-*.parquet"))) == 2

    enc2 = CountingEncoder()
    again = EmbeddingCache(Storage(tmp_path), "toy-model").encoder(enc2)(["a gear", "a rotor", "a pump"])
    assert enc2.seen == ["a rotor"]
    np.testing.assert_array_equal(again, CountingEncoder()(["a gear", "a rotor", "a pump"]))


def test_models_do_not_share_vectors(tmp_path):
    EmbeddingCache(Storage(tmp_path), "model-a").encoder(CountingEncoder())(["a pump"])
    enc = CountingEncoder()
    EmbeddingCache(Storage(tmp_path), "model-b").encoder(enc)(["a pump"])
    assert enc.seen == ["a pump"]


def test_chunks_filled_elsewhere_meet_in_the_cache_with_the_serial_bytes(tmp_path):
    """A fan-out (`fill`) that encodes each chunk in its own thread and cache writes the serial run's parts."""
    from concurrent.futures import ThreadPoolExecutor

    texts = [f"a part number {i}" for i in range(11)] + ["a part number 3"]
    serial = EmbeddingCache(Storage(tmp_path / "serial"), "toy").encoder(CountingEncoder(), part_size=3)(texts)

    def fill(chunks: list[list[str]]) -> None:
        assert [len(c) for c in chunks] == [3, 3, 3, 2]
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda c: EmbeddingCache(Storage(tmp_path / "fanned"), "toy").put(c, CountingEncoder()),
                          chunks))

    fanned = EmbeddingCache(Storage(tmp_path / "fanned"), "toy").encoder(None, part_size=3, fill=fill)(texts)
    np.testing.assert_array_equal(fanned, serial)
    parts = {d: {p.name: p.read_bytes() for p in (tmp_path / d / "cache/embeddings/toy").glob("*.parquet")}
             for d in ("serial", "fanned")}
    assert len(parts["fanned"]) == 4 and parts["fanned"] == parts["serial"]


def test_data_dirs_share_the_cache_named_by_the_setting(tmp_path, monkeypatch):
    from patentfactory.stages.build_patenteb import MODEL_PACKAGE, embedding_cache

    monkeypatch.delenv("PF_PATHS__EMBEDDING_CACHE", raising=False)
    enc = CountingEncoder()
    assert embedding_cache(tmp_path / "a").put(["a pump", "a gear"], enc) == 2
    assert list((tmp_path / "a" / "cache" / "embeddings" / MODEL_PACKAGE).glob("part-*.parquet")), "default: per data dir"
    monkeypatch.setenv("PF_PATHS__EMBEDDING_CACHE", str(tmp_path / "shared"))
    shared = Settings.load().paths.embedding_cache  # what an entry point passes down
    assert embedding_cache(tmp_path / "b", shared).put(["a pump", "a gear"], enc) == 2, "the shared cache starts empty"
    assert embedding_cache(tmp_path / "c", shared).put(["a pump", "a rotor"], enc) == 1, "c reads what b encoded"
    assert sorted(enc.seen) == ["a gear", "a gear", "a pump", "a pump", "a rotor"]
    assert len(list((tmp_path / "shared" / MODEL_PACKAGE).glob("part-*.parquet"))) == 2
    assert not (tmp_path / "b" / "cache").exists() and not (tmp_path / "c" / "cache").exists()


def test_a_part_is_never_seen_half_written(tmp_path):
    """Storage writes to a temporary name and renames: while a part is being written, a reader's glob neither lists
    it nor sees the earlier bytes of the same name change under it."""
    store = Storage(tmp_path)
    store.write_bytes("part-a.parquet", b"old")
    with store.open_write("part-a.parquet") as fh, store.open_write("part-b.parquet") as fh2:
        fh.write(b"new, half")
        fh2.write(b"half")
        assert store.glob("part-*.parquet") == ["part-a.parquet"]
        assert store.read_bytes("part-a.parquet") == b"old"
    assert store.glob("part-*.parquet") == ["part-a.parquet", "part-b.parquet"]
    assert store.read_bytes("part-a.parquet") == b"new, half"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["part-a.parquet", "part-b.parquet"], "no temporary left"


def _fill_shared(root: str, texts: list[str]) -> int:
    """One writer process (an xdist worker, a night's task): encodes its texts into the shared cache, 3 a part."""
    cache = EmbeddingCache(Storage(root), "toy", under=())
    return sum(cache.put(texts[i:i + 3], CountingEncoder()) for i in range(0, len(texts), 3))


def test_two_processes_fill_one_shared_cache_while_a_reader_reads_it(tmp_path):
    """The test session's shared cache (tests/conftest.py): two processes write overlapping parts at once while a
    third reads the folder again and again; every part it lists parses, nothing is lost, every vector is right."""
    import multiprocessing

    texts = [f"a claim about gear {i}" for i in range(60)]
    root = str(tmp_path / "shared")
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pending = [pool.apply_async(_fill_shared, (root, texts)), pool.apply_async(_fill_shared, (root, texts[::-1]))]
        seen = []
        while not all(p.ready() for p in pending):
            seen.append(len(EmbeddingCache(Storage(root), "toy", under=())))  # raises on a half-written part
        encoded = [p.get() for p in pending]
    assert seen == sorted(seen), "a reader never loses a vector it saw"
    assert 60 <= sum(encoded) <= 120, encoded  # the same text twice only where both wrote it at the same moment
    cached = EmbeddingCache(Storage(root), "toy", under=()).encoder(None)(texts)
    np.testing.assert_array_equal(cached, CountingEncoder()(texts))
    assert not [p for p in (tmp_path / "shared" / "toy").iterdir() if not p.name.endswith(".parquet")]
