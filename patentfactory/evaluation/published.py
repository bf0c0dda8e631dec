"""Read a published version through `Storage` only (local or s3://): its manifest and split tables.

Eval reads what users read: the Parquet files and `manifest.json`, never the warehouse.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import polars as pl

from patentfactory.store.inspect import read_manifest
from patentfactory.store.storage import Storage


@dataclass(frozen=True)
class PublishedVersion:
    storage: Storage
    dataset: str
    version: str
    manifest: dict

    def splits(self, task: str) -> set[str]:
        """Splits of `task` listed in the manifest (empty when the task was not published)."""
        return {f["split"] for f in self.manifest["files"] if f["task"] == task}

    def tasks(self) -> list[str]:
        return sorted({f["task"] for f in self.manifest["files"]})

    def read(self, task: str, split: str) -> pl.DataFrame | None:
        """One split as a DataFrame, or None when the manifest does not list it."""
        if split not in self.splits(task):
            return None
        data = self.storage.read_bytes(f"{self.dataset}/{self.version}/{task}/{split}.parquet")
        return pl.read_parquet(io.BytesIO(data))


def open_version(storage: Storage, dataset: str, version: str | None = None) -> PublishedVersion:
    """The given version, or the one `LATEST` names; a clear error when there is none."""
    version, manifest = read_manifest(storage, dataset, version)
    return PublishedVersion(storage, dataset, version, manifest)
