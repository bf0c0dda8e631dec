"""Publish to and inspect from `s3://` through a local S3 server (moto in server mode, real HTTP)."""
from __future__ import annotations

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
