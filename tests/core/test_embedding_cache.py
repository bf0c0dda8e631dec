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


class SlowLoggingEncoder(CountingEncoder):
    """CountingEncoder that notes each call in a file shared by processes and takes `seconds` per call."""

    def __init__(self, log: str, seconds: float) -> None:
        super().__init__()
        self.log, self.seconds = log, seconds

    def __call__(self, texts: list[str]) -> np.ndarray:
        import os
        import time

        with open(self.log, "a") as fh:
            fh.write(f"{os.getpid()} {len(texts)}\n")
        time.sleep(self.seconds)
        return super().__call__(texts)


def _night_encoding(root: str, texts: list[str], log: str, barrier) -> list[list[float]]:
    """One night's encode call in a process of its own, started at the same moment as another's."""
    cached = EmbeddingCache(Storage(root), "toy", under=()).encoder(SlowLoggingEncoder(log, 2.0), part_size=16)
    barrier.wait()
    return cached(texts).tolist()


def test_two_processes_needing_the_same_batch_encode_it_once(tmp_path):
    """Parallel nights sharing a cache (the suite's lanes start theirs at the same moment): the first holds the
    batch's lock while it encodes, the other waits for its part; both get the same vectors, one encode call each
    batch in all, and no lock is left behind."""
    import multiprocessing

    texts = [f"a claim about valve {i}" for i in range(40)]  # 3 batches of 16
    root, log = str(tmp_path / "shared"), str(tmp_path / "calls.log")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager, ctx.Pool(2) as pool:
        barrier = manager.Barrier(2)
        pending = [pool.apply_async(_night_encoding, (root, texts, log, barrier)) for _ in range(2)]
        first, second = (p.get(timeout=120) for p in pending)
    calls = open(log).read().splitlines()
    assert sorted(int(c.split()[1]) for c in calls) == [8, 16, 16], calls
    np.testing.assert_array_equal(np.asarray(first, dtype=np.float32), CountingEncoder()(texts))
    assert first == second
    assert sorted(p.suffix for p in (tmp_path / "shared" / "toy").iterdir()) == [".parquet"] * 3


def test_a_lock_left_by_a_killed_run_is_taken_over(tmp_path):
    """A run killed while encoding leaves its lock: a holder that no longer runs holds nothing."""
    import subprocess
    import sys

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    cache = EmbeddingCache(Storage(tmp_path), "toy", under=())
    texts = ["a pump", "a valve"]
    lock = tmp_path / "toy" / (cache._part_name(sorted(hashlib.sha256(t.encode()).hexdigest() for t in texts))
                               + ".lock")
    lock.parent.mkdir(parents=True)
    lock.write_text(dead.stdout.strip())
    enc = CountingEncoder()
    np.testing.assert_array_equal(cache.encoder(enc)(texts), CountingEncoder()(texts))
    assert sorted(enc.seen) == texts and not lock.exists()


def test_parts_written_by_another_process_after_the_first_look_are_read_not_encoded(tmp_path):
    mine, theirs = (EmbeddingCache(Storage(tmp_path), "toy", under=()) for _ in range(2))
    assert len(mine) == 0  # looked once, before the other wrote
    theirs.encoder(CountingEncoder())(["a pump", "a valve"])
    enc = CountingEncoder()
    mine.encoder(enc)(["a valve", "a gear", "a pump"])
    assert enc.seen == ["a gear"]
