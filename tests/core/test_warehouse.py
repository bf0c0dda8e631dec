"""Warehouse parts, ledger skipping, raw cache and schema validation errors."""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow as pa
import pytest

from patentfactory.errors import StorageError
from patentfactory.store.ledger import Ledger
from patentfactory.store.rawcache import RawCache
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import CorruptTableError, Warehouse
from schemas import CLAIMS, PUBLICATIONS, SchemaError, validate


def _pubs(ids):
    return PUBLICATIONS.from_pylist([{"pub_id": i, "country": "US", "doc_number": i.split("-")[1], "kind": "B2",
                                      "source": "test"} for i in ids])


def test_parts_replace_instead_of_duplicating(tmp_path: Path):
    wh = Warehouse(Storage(tmp_path))
    wh.write_part("publications", "ipg240102.zip", _pubs(["US-1-B2", "US-2-B2"]))
    wh.write_part("publications", "ipg240102.zip", _pubs(["US-1-B2", "US-2-B2"]))  # rerun of the same item
    wh.write_part("publications", "ipg240109.zip", _pubs(["US-3-B2"]))
    assert wh.frame("publications")["pub_id"].sort().to_list() == ["US-1-B2", "US-2-B2", "US-3-B2"]


def test_lean_frame_equals_frame_without_the_skipped_columns(real_samples, tmp_path: Path):
    """The memory-lean reader big builds use gives frame()'s rows and types, minus the skipped columns."""
    from sources.uspto_bulk import parse_file

    wh = Warehouse(Storage(tmp_path))
    for i, res in enumerate(parse_file(real_samples / "uspto-xml" / "grant_us10000000b2_14643719.xml")):
        for table, arrow in res.to_arrow().items():
            wh.write_part(table, f"a.{i}", arrow)
    wh.write_part("publications", "b", _pubs(["US-1-B2"]))
    wh.write_part("publications", "c", _pubs(["US-1-B2"]).set_column(PUBLICATIONS.schema.names.index("source"), "source", pa.array(["later"])))
    for table, skip in (("publications", ("raw",)), ("claims", ("depends_on", "is_independent")), ("citations", ())):
        expected = wh.frame(table).drop(list(skip))
        assert wh.lean_frame(table, skip=skip).equals(expected), table
        assert expected.height > 0
    assert wh.lean_frame("publications").filter(pl.col("pub_id") == "US-1-B2")["source"].to_list() == ["later"]
    (tmp_path / "citations" / "b.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(CorruptTableError, match=r"citations.*b\.parquet"):
        wh.lean_frame("citations")


def test_part_written_before_a_nullable_column_existed_reads_it_as_null(tmp_path: Path):
    """Schema evolution: parts keep working when a table gains a nullable column (no forced re-ingest)."""
    wh = Warehouse(Storage(tmp_path))
    old = _pubs(["US-1-B2"]).drop_columns(["cited_by_count"])
    (tmp_path / "publications").mkdir(parents=True)
    import pyarrow.parquet as pq

    pq.write_table(old, tmp_path / "publications" / "old.parquet")
    wh.write_part("publications", "new", PUBLICATIONS.from_pylist([
        {"pub_id": "US-2-B2", "country": "US", "doc_number": "2", "source": "lens", "cited_by_count": 3}]))
    for frame in (wh.frame("publications"), wh.lean_frame("publications", skip=("raw",))):
        assert dict(zip(frame["pub_id"], frame["cited_by_count"])) == {"US-1-B2": None, "US-2-B2": 3}
        assert frame.schema["cited_by_count"] == pl.Int32
    pq.write_table(old.drop_columns(["source"]), tmp_path / "publications" / "broken.parquet")
    with pytest.raises(CorruptTableError, match="broken.parquet"):
        wh.frame("publications")
    with pytest.raises(CorruptTableError, match="broken.parquet"):
        wh.lean_frame("publications")


def test_corrupt_part_is_named_with_a_hint(tmp_path: Path):
    st = Storage(tmp_path)
    wh = Warehouse(st)
    wh.write_part("publications", "a", _pubs(["US-1-B2"]))
    (tmp_path / "publications" / "a.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(CorruptTableError, match=r"publications.*a\.parquet") as err:
        wh.read("publications")
    assert "rm " in err.value.hint


def test_validate_names_table_column_and_row():
    bad = pa.table({"pub_id": ["US-1-B2", "US-1-B2"], "claim_no": [1, None], "text": ["a", "b"],
                    "depends_on": [[], []], "is_independent": [True, False]})
    with pytest.raises(SchemaError, match=r"table 'claims': column 'claim_no' is null at row 1"):
        validate(bad, CLAIMS)
    dup = bad.set_column(1, "claim_no", pa.array([1, 1], pa.int32()))
    with pytest.raises(SchemaError, match=r"duplicate key .* at rows \[0, 1\]"):
        validate(dup, CLAIMS)
    with pytest.raises(SchemaError, match="missing column 'is_independent'"):
        validate(bad.drop(["is_independent"]), CLAIMS)


def test_ledger_skips_done_items_and_reparses_on_change(tmp_path: Path):
    st = Storage(tmp_path)
    led = Ledger(st)
    assert led.needs_parse("uspto", "ipg240102.zip", "aa", "v4-1")
    led.record_fetch("uspto", "ipg240102.zip", "aa", 10)
    led.record_parse("uspto", "ipg240102.zip", "v4-1", 5, 0)
    again = Ledger(st)  # reloaded from disk, as a second run would
    assert not again.needs_parse("uspto", "ipg240102.zip", "aa", "v4-1")
    assert again.needs_parse("uspto", "ipg240102.zip", "aa", "v4-2"), "parser change re-parses"
    assert again.needs_parse("uspto", "ipg240102.zip", "bb", "v4-1"), "new bytes re-parse"
    again.record_fetch("uspto", "ipg240102.zip", "bb", 11)
    assert again.get("uspto", "ipg240102.zip")["parsed_at"] is None


def test_raw_cache_is_content_addressed(tmp_path: Path):
    cache = RawCache(Storage(tmp_path))
    a = cache.put_bytes("lens", b"hello", ".csv")
    b = cache.put_bytes("lens", b"hello", ".csv")
    assert a == b and a.rel.endswith(".csv") and a.sha256 in a.rel
    src = tmp_path / "x.zip"
    src.write_bytes(b"zipbytes")
    item = cache.put_file("uspto", src)
    assert Path(cache.local_path(item)).read_bytes() == b"zipbytes"


def test_unwritable_root_is_a_clear_error(tmp_path: Path):
    ro = tmp_path / "ro"
    ro.mkdir()
    (ro / "f").write_text("x")
    with pytest.raises(StorageError, match="not writable"):
        Storage(ro / "f" / "sub").check_writable()


def test_ledger_batch_defers_writes_and_always_flushes(tmp_path: Path):
    """Inside batch() the file is rewritten every N changes, not per change; leaving (even by an error) saves."""
    st = Storage(tmp_path)
    led = Ledger(st)
    writes = []
    real_write = led._write
    led._write = lambda: (writes.append(1), real_write())  # count the rewrites of the ledger file
    with pytest.raises(RuntimeError), led.batch(every=3, seconds=3600):
        for i in range(7):
            led.record_fetch("ops", f"item{i}", f"{i:064d}", 10)
        assert len(writes) == 2 and len(Ledger(st).items("ops")) == 6  # after changes 3 and 6
        raise RuntimeError("killed mid-batch")
    assert len(writes) == 3 and [r["item"] for r in Ledger(st).items("ops")] == [f"item{i}" for i in range(7)]
    led.record_parse("ops", "item0", "1", 1, 0)  # outside a batch: written at once
    assert len(writes) == 4 and Ledger(st).get("ops", "item0")["parsed_at"]
