"""Re-verify a published version: every file's bytes, sha256 and row count against the manifest."""
from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field

import pyarrow.parquet as pq

from patentfactory.errors import PFError
from .publish import latest_version
from .storage import Storage


@dataclass
class Inspection:
    dataset: str
    version: str
    manifest: dict
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def split_target(target: str) -> tuple[str, str, str | None]:
    """`ROOT/DATASET[/VERSION]` -> (root, dataset, version); a version looks like YYYY.MM.DD-xxxxxxxx."""
    t = target.rstrip("/")
    head, _, last = t.rpartition("/")
    if len(last) >= 10 and last[:4].isdigit() and last[4] == ".":
        root, _, dataset = head.rpartition("/")
        return root or ".", dataset, last
    return head or ".", last, None


def read_manifest(storage: Storage, dataset: str, version: str | None = None) -> tuple[str, dict]:
    """(version, manifest) of the given version or the one `LATEST` names; clear errors when absent."""
    version = version or latest_version(storage, dataset)
    if not version:
        raise PFError(f"no published version of {dataset!r} under {storage.url}",
                      f"run `pf build {dataset} --out {storage.url}` first, or check the root")
    rel = f"{dataset}/{version}/manifest.json"
    if not storage.exists(rel):
        raise PFError(f"{storage.uri(dataset, version)} has no manifest.json",
                      f"the version is incomplete or absent; `pf inspect {storage.url}/{dataset}` lists it")
    return version, json.loads(storage.read_text(rel))


def inspect_version(storage: Storage, dataset: str, version: str | None = None) -> Inspection:
    version, manifest = read_manifest(storage, dataset, version)
    report = Inspection(dataset, version, manifest)
    for f in manifest["files"]:
        path = f"{dataset}/{version}/{f['path']}"
        if not storage.exists(path):
            report.problems.append(f"{f['path']}: missing")
            continue
        data = storage.read_bytes(path)
        if hashlib.sha256(data).hexdigest() != f["sha256"]:
            report.problems.append(f"{f['path']}: sha256 mismatch")
        elif pq.ParquetFile(io.BytesIO(data)).metadata.num_rows != f["rows"]:
            report.problems.append(f"{f['path']}: row count mismatch")
    for name, res in manifest.get("leakage", {}).items():
        if not res.get("ok"):
            report.problems.append(f"leakage check {name} recorded as failed")
    return report
