"""A published version as its users load it: Hugging Face `datasets` (every config, HF split names), the card's
YAML front matter, `sha256sum -c SHA256SUMS`, Croissant validated by `mlcroissant`, and `latest/`."""
from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from patentfactory.store.hf_layout import config_name, hf_split, read_front_matter
from patentfactory.store.publish import Release, publish
from patentfactory.store.storage import Storage
from tests.evaluation.synthetic import publish_patenteb

DAY = date(2026, 11, 23)


def _pap2pat_like() -> Release:
    """The split names Hugging Face rejects or renames: `val` and `nc-test`."""
    df = pl.DataFrame({"paper_text": [f"paper {i}" for i in range(8)], "patent_text": [f"patent {i}" for i in range(8)],
                       "pair_id": [f"P{i}" for i in range(8)], "license": ["cc-by-4.0"] * 8})
    return Release("pap2pat", {"pairs": {"train": df[:4], "val": df[4:5], "test": df[5:7], "nc-test": df[7:]}},
                   {"seed": 1}, [{"source": "x", "item": "a", "sha256": "0" * 64}])


def _pilot_like() -> Release:
    """A zero-shot `eval` split, a `corpus` table, a list column and a struct column."""
    cases = pl.DataFrame({"case_id": ["c1", "c2", "c3"], "issue_type": [["102"], ["103", "112"], []],
                          "year": [2019, 2020, 2021],
                          "origin": [{"text": "api", "labels": "pdf"}, {"text": "ocr", "labels": "api"},
                                     {"text": "api", "labels": "api"}]})
    return Release("pilot", {"all": {"eval": cases}, "decisions": {"corpus": cases.select("case_id", "year")}},
                   {"seed": 1}, [{"source": "x", "item": "a", "sha256": "0" * 64}])


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pub")
    publish_patenteb(str(out))
    for release in (_pap2pat_like(), _pilot_like()):
        publish(Storage(out), release, day=DAY)
    return out


def _versions(root: Path) -> list[Path]:
    return [root / d / (root / d / "LATEST").read_text().strip() for d in ("patenteb", "pap2pat", "pilot")]


def test_front_matter_names_a_config_per_task_with_hf_splits(root):
    folder = root / "pap2pat" / (root / "pap2pat" / "LATEST").read_text().strip()
    meta = read_front_matter((folder / "README.md").read_text())
    assert meta["configs"] == [{"config_name": "pairs", "data_files": [
        {"split": "train", "path": "pairs/train.parquet"}, {"split": "validation", "path": "pairs/val.parquet"},
        {"split": "test", "path": "pairs/test.parquet"}, {"split": "nc_test", "path": "pairs/nc-test.parquet"}]}]
    assert meta["license"] == "other" and "CC-BY" in meta["license_details"] and meta["language"] == ["en"]
    assert meta["size_categories"] == ["n<1K"] and meta["task_categories"] == ["text-generation"]
    card = (folder / "README.md").read_text()
    assert "@inproceedings{knappich-etal-2025-pap2pat" in card and "`nc-test` files load as `nc_test`" in card
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["hf"]["split_names"] == {"nc-test": "nc_test", "test": "test", "train": "train", "val": "validation"}
    assert config_name("retrieval_IN.qrels") == "retrieval_IN-qrels" and hf_split("eval") == "eval"


def test_every_config_loads_with_datasets_from_the_folder(root, tmp_path):
    import datasets

    for folder in _versions(root):
        manifest = json.loads((folder / "manifest.json").read_text())
        names = datasets.get_dataset_config_names(str(folder))
        assert names == manifest["hf"]["configs"] and len(names) == len({f["task"] for f in manifest["files"]})
        for name in names:
            ds = datasets.load_dataset(str(folder), name, cache_dir=str(tmp_path))
            files = [f for f in manifest["files"] if config_name(f["task"]) == name]
            assert {hf_split(f["split"]): f["rows"] for f in files} == {s: d.num_rows for s, d in ds.items()}, name
            for f in files:
                expected = pl.read_parquet(folder / f["path"])
                assert ds[hf_split(f["split"])].to_polars().equals(expected), f"{name}/{f['split']}"
    corpus = datasets.load_dataset(str(_versions(root)[0]), "retrieval_IN-corpus", split="test", cache_dir=str(tmp_path))
    assert corpus.column_names == ["_id", "title", "text"], "the columns mteb's retrieval loader reads"


def test_latest_is_a_path_a_glob_goes_through(root):
    for folder in _versions(root):
        latest = folder.parent / "latest"
        assert latest.is_symlink() and latest.resolve() == folder.resolve()
        assert sorted(p.relative_to(latest) for p in latest.glob("*/*.parquet")) == sorted(
            p.relative_to(folder) for p in folder.glob("*/*.parquet"))
    frame = pl.read_parquet(str(root / "pap2pat" / "latest" / "pairs" / "*.parquet"))
    assert frame.height == 8


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="no sha256sum on this machine")
def test_sha256sums_check_with_coreutils_and_catch_a_changed_byte(root, tmp_path):
    for folder in _versions(root):
        done = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=folder, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        listed = {line.split("  ", 1)[1] for line in (folder / "SHA256SUMS").read_text().splitlines()}
        on_disk = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
        assert on_disk - listed == {"SHA256SUMS", "manifest.json"}
    copy = tmp_path / "copy"
    shutil.copytree(_versions(root)[1], copy)
    (copy / "pairs" / "val.parquet").write_bytes((copy / "pairs" / "val.parquet").read_bytes()[:-1] + b"\0")
    done = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=copy, capture_output=True, text=True)
    assert done.returncode != 0 and "pairs/val.parquet: FAILED" in done.stdout


def test_croissant_validates_and_its_records_are_the_rows(root):
    import mlcroissant as mlc

    for folder in _versions(root):
        manifest = json.loads((folder / "manifest.json").read_text())
        ds = mlc.Dataset(jsonld=str(folder / "croissant.json"))
        meta = ds.metadata.to_json()
        assert meta["version"] == manifest["version"] and len(meta["recordSet"]) == len(manifest["files"])
        for f in manifest["files"]:
            rows = list(ds.records(record_set=f"{f['task']}/{f['split']}"))
            assert len(rows) == f["rows"], f["path"]
    pilot = mlc.Dataset(jsonld=str(_versions(root)[2] / "croissant.json"))
    first = sorted(pilot.records(record_set="all/eval"), key=lambda r: r["all/eval/case_id"])[1]
    assert [v.decode() if isinstance(v, bytes) else v for v in first["all/eval/issue_type"]] == ["103", "112"]
    assert first["all/eval/origin"] == {"all/eval/origin/text": b"ocr", "all/eval/origin/labels": b"api"}


def test_card_and_manifest_state_each_retrieval_tasks_id_convention(tmp_path):
    from transforms.tasks.patenteb import id_conventions
    from tests.evaluation.synthetic import patenteb_tasks

    release = Release("patenteb", patenteb_tasks(), {"seed": 1}, [{"source": "x", "item": "a", "sha256": "0" * 64}],
                      id_conventions=id_conventions(["retrieval_IN", "title2full", "class_text2ipc3"]))
    pub = publish(Storage(tmp_path), release, day=DAY)
    folder = tmp_path / "patenteb" / pub.version
    manifest = json.loads((folder / "manifest.json").read_text())
    assert {t: c["ignore_identical_ids"] for t, c in manifest["id_conventions"].items()} == {
        "retrieval_IN": True, "title2full": False}
    card = (folder / "README.md").read_text()
    assert "| retrieval_IN | family id of the query" in card and "| title2full | `<family id>:<query field>`" in card
    assert "mteb.evaluate(model, patenteb_tasks(" in card and "pf export beir" in card
