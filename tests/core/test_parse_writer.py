"""`pf parse`'s writer streams: one row group per parser batch, nothing of a batch held once written; a key
reported twice keeps its last row, as in the warehouse."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from patentfactory.store.parse_writer import write_parsed
from sources.uspto_bulk import parse_file


def test_batches_become_row_groups_and_the_last_row_per_key_wins(real_samples: Path, tmp_path: Path):
    path = real_samples / "uspto-xml" / "ipg120327.two.xml"
    batches = list(parse_file(path, batch_docs=1))
    assert len(batches) == 2
    again = list(parse_file(path, batch_docs=1))[0]  # the first document reported again, later, changed
    for row in again.rows["publications"]:
        row["title"] = "reported again"
    out = tmp_path / "pubs.parquet"
    counts = write_parsed([*batches, again], out, "publications")
    pubs = pl.read_parquet(out)
    assert counts["publications"] == pubs.height == 2 and pubs["pub_id"].is_unique().all()
    first_id = again.rows["publications"][0]["pub_id"]
    assert pubs.filter(pl.col("pub_id") == first_id)["title"].to_list() == ["reported again"]
    claims = pq.ParquetFile(tmp_path / "pubs.claims.parquet")
    assert claims.metadata.num_rows == counts["claims"] == sum(b.count("claims") for b in batches)
    assert pq.ParquetFile(tmp_path / "pubs.citations.parquet").num_row_groups == 3  # streamed, one per batch
    assert not list(tmp_path.glob("*.partial"))


def test_a_failing_input_leaves_no_partial_files(real_samples: Path, tmp_path: Path):
    def results():
        yield from parse_file(real_samples / "uspto-xml" / "ipg120327.two.xml", batch_docs=1)
        raise OSError("truncated")

    out = tmp_path / "pubs.parquet"
    with pytest.raises(OSError, match="truncated"):
        write_parsed(results(), out, "publications")
    assert list(tmp_path.iterdir()) == []
