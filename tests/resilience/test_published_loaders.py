"""The versions a whole `pf run` publishes, read the way their users read them: Hugging Face `datasets` (every
config of every dataset), `sha256sum -c SHA256SUMS`, `mlcroissant`, and the `latest/` path."""
from __future__ import annotations

import json
import shutil
import subprocess

import pyarrow.parquet as pq
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.xdist_group("baseline")]  # the session's whole-run baseline


def _versions(baseline):
    root = baseline.home / "pub"
    return [(root / d / v, d) for d, v in sorted(baseline.versions.items())]


def test_every_config_of_every_dataset_loads_with_datasets(baseline, tmp_path):
    import datasets

    for folder, dataset in _versions(baseline):
        manifest = json.loads((folder / "manifest.json").read_text())
        names = datasets.get_dataset_config_names(str(folder))
        assert names == manifest["hf"]["configs"], dataset
        for name in names:
            ds = datasets.load_dataset(str(folder), name, cache_dir=str(tmp_path / "hf"))
            files = [f for f in manifest["files"] if name in (f["task"], f["task"].replace(".", "-"))]
            assert {manifest["hf"]["split_names"][f["split"]]: f["rows"] for f in files} == {
                s: d.num_rows for s, d in ds.items()}, f"{dataset}/{name}"
            for f in files:  # same columns as the Parquet file
                assert ds[manifest["hf"]["split_names"][f["split"]]].column_names == f["columns"]
        assert (folder.parent / "latest").resolve() == folder.resolve()


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="no sha256sum on this machine")
def test_sha256sums_check_with_coreutils(baseline):
    for folder, dataset in _versions(baseline):
        done = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=folder, capture_output=True, text=True)
        assert done.returncode == 0, f"{dataset}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
        listed = {line.split("  ", 1)[1] for line in (folder / "SHA256SUMS").read_text().splitlines()}
        on_disk = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
        assert on_disk - listed == {"SHA256SUMS", "manifest.json"}, dataset


def test_croissant_validates_and_reads_records(baseline):
    import mlcroissant as mlc

    for folder, dataset in _versions(baseline):
        ds = mlc.Dataset(jsonld=str(folder / "croissant.json"))
        manifest = json.loads((folder / "manifest.json").read_text())
        first = min(manifest["files"], key=lambda f: f["rows"])
        record = f"{first['task']}/{first['split']}"
        rows = list(ds.records(record_set=record))
        assert len(rows) == first["rows"] == pq.read_metadata(folder / first["path"]).num_rows, dataset
