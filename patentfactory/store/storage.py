"""A storage root that is a local path or `s3://bucket/prefix`, through fsspec.

Everything above this module speaks relative paths; only here do we know whether bytes land on a
disk or in object storage. Writes are atomic per object: local files go to a temporary name and are
renamed; S3 PUTs are atomic by nature.
"""
from __future__ import annotations

import io
import os
import posixpath
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import fsspec

from patentfactory.config import S3Settings, s3_settings
from patentfactory.errors import StorageError


def s3_storage_options(s3: S3Settings | None = None) -> dict:
    """s3fs options from the settings' S3 section (PF_S3_ENDPOINT_URL and the standard AWS variables)."""
    return (s3 or s3_settings()).storage_options()


class Storage:
    """Relative-path I/O under one root (`/abs/dir`, `rel/dir` or `s3://bucket/prefix`)."""

    def __init__(self, root: str | Path, storage_options: dict | None = None) -> None:
        root = str(root)
        self.is_s3 = root.startswith("s3://")
        if self.is_s3:
            self.fs = fsspec.filesystem("s3", **(storage_options if storage_options is not None else s3_storage_options()))
            self.root = root[len("s3://"):].rstrip("/")
        else:
            self.fs = fsspec.filesystem("file")
            self.root = str(Path(root).expanduser().resolve())
        self.url = ("s3://" + self.root) if self.is_s3 else self.root

    def __repr__(self) -> str:
        return f"Storage({self.url!r})"

    def path(self, *parts: str) -> str:
        """Absolute path (for fsspec) of a relative path under the root."""
        rel = posixpath.join(*parts) if parts else ""
        return posixpath.join(self.root, rel) if rel else self.root

    def uri(self, *parts: str) -> str:
        """A URI other tools (polars, duckdb, pyarrow) accept."""
        p = self.path(*parts)
        return "s3://" + p if self.is_s3 else p

    def _at(self, root: str) -> "Storage":
        """Another root on the same filesystem (its client shared, not made again)."""
        other = Storage.__new__(Storage)
        other.fs, other.is_s3 = self.fs, self.is_s3
        other.root = root
        other.url = ("s3://" + root) if self.is_s3 else root
        return other

    def sub(self, *parts: str) -> "Storage":
        return self._at(self.path(*parts))

    def parent(self) -> "Storage":
        """The folder above the root, on the same filesystem."""
        return self._at(posixpath.dirname(self.root.rstrip("/")))

    def check_writable(self) -> None:
        """Fail early with a clear message when the root cannot take a write."""
        probe = f".pf-write-probe-{uuid.uuid4().hex}"
        try:
            self.write_bytes(probe, b"ok")
            self.rm(probe)
        except Exception as exc:  # noqa: BLE001 - any backend error means "not writable"
            raise StorageError(f"storage root {self.url} is not writable: {exc}",
                               "choose another --out/--warehouse or fix permissions/credentials") from None

    def exists(self, rel: str) -> bool:
        return self.fs.exists(self.path(rel))

    def read_bytes(self, rel: str) -> bytes:
        with self.fs.open(self.path(rel), "rb") as fh:
            return fh.read()

    def read_text(self, rel: str) -> str:
        return self.read_bytes(rel).decode("utf-8")

    def write_bytes(self, rel: str, data: bytes) -> None:
        with self.open_write(rel) as fh:
            fh.write(data)

    def write_text(self, rel: str, text: str) -> None:
        self.write_bytes(rel, text.encode("utf-8"))

    @contextmanager
    def open_write(self, rel: str) -> Iterator[BinaryIO]:
        """Write a whole object; readers never see it half-written."""
        target = self.path(rel)
        if self.is_s3:
            buf = io.BytesIO()
            yield buf
            self.fs.pipe_file(target, buf.getvalue())
            return
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = f"{target}.tmp-{uuid.uuid4().hex[:8]}"
        try:
            with open(tmp, "wb") as fh:
                yield fh
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)

    def open_read(self, rel: str) -> BinaryIO:
        return self.fs.open(self.path(rel), "rb")

    def ls(self, rel: str = "") -> list[str]:
        """Names (not paths) directly under `rel`; empty when it does not exist."""
        p = self.path(rel)
        if not self.fs.exists(p):
            return []
        return sorted(posixpath.basename(x.rstrip("/")) for x in self.fs.ls(p, detail=False))

    def glob(self, pattern: str) -> list[str]:
        """Relative paths matching `pattern` under the root, sorted."""
        base = self.root.rstrip("/") + "/"
        return sorted(x[len(base):] if x.startswith(base) else x for x in self.fs.glob(self.path(pattern)))

    def size(self, rel: str) -> int:
        return int(self.fs.size(self.path(rel)))

    def modified(self, rel: str) -> float:
        """When the object was last written (POSIX seconds): a file's mtime, an S3 object's LastModified."""
        info = self.fs.info(self.path(rel))
        stamp = info.get("mtime") or info.get("LastModified") or info.get("last_modified") or info.get("created")
        return stamp.timestamp() if hasattr(stamp, "timestamp") else float(stamp or 0)

    def rmdir_if_empty(self, rel: str) -> None:
        """Remove an empty local folder (object stores have no folders); a folder someone just wrote into stays."""
        if not self.is_s3:
            try:
                os.rmdir(self.path(rel))
            except OSError:
                pass

    def rm(self, rel: str, recursive: bool = False) -> None:
        p = self.path(rel)
        if self.fs.exists(p):
            self.fs.rm(p, recursive=recursive)

    def move_dir(self, src: str, dst: str) -> None:
        """Move a folder: a rename locally (atomic), copy-then-delete on S3."""
        if self.is_s3:
            for rel in self.glob(f"{src}/**"):
                if self.fs.isfile(self.path(rel)):
                    self.fs.copy(self.path(rel), self.path(dst + rel[len(src):]))
            self.rm(src, recursive=True)
            return
        os.makedirs(os.path.dirname(self.path(dst)), exist_ok=True)
        os.rename(self.path(src), self.path(dst))
