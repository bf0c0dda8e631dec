"""Publish to and inspect from `s3://` through a local S3 server (moto in server mode, real HTTP)."""
from __future__ import annotations

import json
from datetime import date

import pytest
import polars as pl

from patentfactory.store.inspect import inspect_version
from patentfactory.store.publish import Release, latest_version, publish
from patentfactory.store.storage import Storage, s3_storage_options

pytestmark = pytest.mark.services


def test_publish_inspect_and_read_back_on_s3(s3_env):
    st = Storage("s3://bench/pub", s3_storage_options())
    df = pl.DataFrame({"text": [f"t{i}" for i in range(12)], "label": ["a", "b", "c"] * 4})
    rel = Release("toy", {"cls": {"train": df[:8], "test": df[8:]}}, {"seed": 1},
                  [{"source": "x", "item": "a", "sha256": "0" * 64, "parser_version": "1"}],
                  distribution={"a": 4, "b": 4, "c": 4})
    pub = publish(st, rel, day=date(2026, 11, 23))
    assert pub.path == f"s3://bench/pub/toy/{pub.version}"
    assert latest_version(st, "toy") == pub.version
    assert inspect_version(st, "toy").ok
    assert not st.glob("toy/.staging/**/*.parquet"), "staging removed after the move"
    opts = {"aws_endpoint_url": s3_env["PF_S3_ENDPOINT_URL"], "aws_allow_http": "true",
            "aws_access_key_id": "test", "aws_secret_access_key": "test", "aws_region": "us-east-1"}
    back = pl.read_parquet(f"s3://bench/pub/toy/{pub.version}/cls/train.parquet", storage_options=opts)
    assert back.equals(df[:8])


def test_every_config_loads_with_datasets_from_s3_and_latest_is_a_prefix(s3_env, tmp_path, monkeypatch):
    import datasets

    from patentfactory.store.hf_layout import load_config, read_front_matter
    from tests.evaluation.synthetic import publish_patenteb

    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)  # the hub stays unused: the files are on moto
    opts = s3_storage_options()
    pub = publish_patenteb("s3://bench/pub")
    st = Storage("s3://bench/pub", opts)
    meta = read_front_matter(st.read_text(f"patenteb/{pub.version}/README.md"))
    manifest = json.loads(st.read_text(f"patenteb/{pub.version}/manifest.json"))
    assert [c["config_name"] for c in meta["configs"]] == manifest["hf"]["configs"]
    for where in (pub.path, "s3://bench/pub/patenteb/latest"):
        for config in manifest["hf"]["configs"]:
            ds = load_config(where, config, opts, cache_dir=str(tmp_path / "hf"))
            files = [f for f in manifest["files"] if f["task"].replace(".", "-") == config]
            assert {manifest["hf"]["split_names"][f["split"]]: f["rows"] for f in files} == {
                s: d.num_rows for s, d in ds.items()}, f"{where} {config}"
    assert st.read_text("patenteb/latest/SHA256SUMS") == st.read_text(f"patenteb/{pub.version}/SHA256SUMS")
    corpus = load_config(pub.path, "retrieval_IN-corpus", opts, split="test", cache_dir=str(tmp_path / "hf"))
    assert corpus.column_names == ["_id", "title", "text"]


def test_mteb_tasks_load_a_version_by_s3_url(s3_env, tmp_path, monkeypatch):
    import datasets

    from patentfactory.evaluation.mteb_tasks import patenteb_tasks
    from tests.evaluation.synthetic import paraphrase, publish_patenteb

    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", False)  # the hub stays unused: the files are on moto
    pub = publish_patenteb("s3://bench/pub")
    tasks = {t.metadata.name: t for t in patenteb_tasks(pub.path, s3_storage_options(), cache_dir=str(tmp_path))}
    retrieval, probe = tasks["PatenTEB-retrieval_IN"], tasks["PatenTEB-class_text2ipc3"]
    retrieval.load_data()
    split = retrieval.dataset["default"]["test"]
    local = {p: pl.read_parquet(f"{pub.path}/retrieval_IN.{p}/test.parquet", storage_options={
        "aws_endpoint_url": s3_env["PF_S3_ENDPOINT_URL"], "aws_allow_http": "true", "aws_access_key_id": "test",
        "aws_secret_access_key": "test", "aws_region": "us-east-1"}) for p in ("corpus", "queries", "qrels")}
    assert sorted(split["corpus"]["id"]) == sorted(local["corpus"]["_id"])
    assert sum(len(v) for v in split["relevant_docs"].values()) == local["qrels"].height
    probe.load_data()
    assert probe.dataset["train"].num_rows == 128 and probe.dataset["test"].num_rows == 8
    para = tasks["PatenTEB-para_problem"]  # STS by URL too: the 0/1 label is mteb's `score`
    para.load_data()
    assert sorted(para.dataset["test"]["score"]) == sorted(paraphrase()["label"].to_list())
