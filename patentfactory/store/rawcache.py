"""Raw cache: upstream bytes stored once, named by their sha256, never edited."""
from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .storage import Storage

CHUNK = 1 << 20


@dataclass(frozen=True)
class RawItem:
    sha256: str
    bytes: int
    rel: str  # path relative to the cache storage


def sha256_file(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


class RawCache:
    """`<root>/<source>/<aa>/<sha256><suffix>`; the suffix keeps the format visible (.zip, .xml, .pdf)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def rel_for(self, source: str, sha: str, suffix: str = "") -> str:
        return f"{source}/{sha[:2]}/{sha}{suffix}"

    def put_file(self, source: str, path: str | Path) -> RawItem:
        path = Path(path)
        sha = sha256_file(path)
        rel = self.rel_for(source, sha, "".join(path.suffixes[-1:]))
        if not self.storage.exists(rel):
            with open(path, "rb") as src, self.storage.open_write(rel) as dst:
                shutil.copyfileobj(src, dst, CHUNK)
        return RawItem(sha, path.stat().st_size, rel)

    def put_bytes(self, source: str, data: bytes, suffix: str = "") -> RawItem:
        sha = hashlib.sha256(data).hexdigest()
        rel = self.rel_for(source, sha, suffix)
        if not self.storage.exists(rel):
            self.storage.write_bytes(rel, data)
        return RawItem(sha, len(data), rel)

    def open(self, item: RawItem) -> BinaryIO:
        return self.storage.open_read(item.rel)

    def local_path(self, item: RawItem) -> str:
        """A local file path for parsers that need one (zip members); only for local roots."""
        if self.storage.is_s3:
            raise ValueError("raw cache on S3 has no local path; download first")
        return os.path.join(self.storage.root, item.rel)
