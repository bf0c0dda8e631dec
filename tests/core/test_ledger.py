"""The ledger takes appended parts (one per save, only the changed rows) and folds them into its base now
and then; writers in several processes do not overwrite one another; the warehouse replaces an item's parts
through the item's index, never by listing the table."""
from __future__ import annotations

from pathlib import Path

from patentfactory.store import ledger as ledger_mod
from patentfactory.store.ledger import LEDGER_FILE, LOG_DIR, Ledger
from patentfactory.store.storage import Storage
from patentfactory.store.warehouse import Warehouse
from schemas import PUBLICATIONS


def _pubs(ids):
    return PUBLICATIONS.from_pylist([{"pub_id": i, "country": "US", "doc_number": i.split("-")[1], "kind": "B2",
                                      "source": "test"} for i in ids])


def test_each_save_appends_only_the_changed_rows(tmp_path: Path):
    st = Storage(tmp_path)
    led = Ledger(st)
    for i in range(20):
        led.record_fetch("uspto_bulk", f"ipg{i:02d}.zip", f"{i:064x}", 100 + i)
        led.record_parse("uspto_bulk", f"ipg{i:02d}.zip", "uspto-1", i, 0)
    parts = st.ls(LOG_DIR)
    assert len(parts) == 40 and not st.exists(LEDGER_FILE)
    assert all(st.read_text(f"{LOG_DIR}/{p}").count("\n") == 1 for p in parts), "a save rewrote other rows"
    again = Ledger(st)
    assert again.items() == led.items() and len(again.items()) == 20
    assert not again.needs_parse("uspto_bulk", "ipg07.zip", f"{7:064x}", "uspto-1")
    assert again.needs_parse("uspto_bulk", "ipg07.zip", f"{8:064x}", "uspto-1")


def test_log_is_folded_into_the_base_now_and_then(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(ledger_mod, "COMPACT_AFTER", 8)
    st = Storage(tmp_path)
    led = Ledger(st)
    for i in range(11):
        led.record_parse("lens", f"export-{i}.jsonl", "lens-2", i, 0)
    assert st.exists(LEDGER_FILE) and len(st.ls(LOG_DIR)) == 3  # 8 folded, 3 appended since
    assert [r["n_records"] for r in Ledger(st).items("lens")] == [0, 1, 10, 2, 3, 4, 5, 6, 7, 8, 9]
    led.compact()
    assert st.ls(LOG_DIR) == [] and len(Ledger(st).items()) == 11


def test_two_writers_do_not_overwrite_each_other(tmp_path: Path):
    """Parse tasks in separate processes each hold a ledger read at their start; both rows survive."""
    st = Storage(tmp_path)
    a, b = Ledger(st), Ledger(st)
    a.record_parse("uspto_bulk", "ipg01.zip", "uspto-1", 5, 0)
    b.record_parse("uspto_bulk", "ipg02.zip", "uspto-1", 7, 1)
    b.compact()  # b folds a's part too: compaction reads the disk, not b's memory
    a.record_parse("uspto_bulk", "ipg03.zip", "uspto-1", 9, 0)
    rows = {r["item"]: r["n_records"] for r in Ledger(st).items()}
    assert rows == {"ipg01.zip": 5, "ipg02.zip": 7, "ipg03.zip": 9}


def test_batch_saves_once_per_batch(tmp_path: Path):
    st = Storage(tmp_path)
    led = Ledger(st)
    with led.batch(every=1000, seconds=1e9):
        for i in range(50):
            led.record_parse("epo_ops", f"EP.{i}.A1/biblio", "ops-1", 1, 0)
        assert st.ls(LOG_DIR) == []
    assert len(st.ls(LOG_DIR)) == 1 and len(Ledger(st).items()) == 50


class _CountingStorage(Storage):
    globs = 0

    def glob(self, pattern: str) -> list[str]:
        _CountingStorage.globs += 1
        return super().glob(pattern)


def test_replacing_an_item_touches_only_its_index(tmp_path: Path):
    wh = Warehouse(_CountingStorage(tmp_path))
    for n in range(30):
        wh.write_item_parts(f"ipg{n:02d}.zip", "00000", {"publications": _pubs([f"US-{n}-B2"])})
    wh.write_item_parts("ipg05.zip", "00001", {"publications": _pubs(["US-105-B2"]), "rejects": _rejects()})
    _CountingStorage.globs = 0
    wh.drop_item("ipg05.zip")
    wh.write_item_parts("ipg05.zip", "00000", {"publications": _pubs(["US-5-B2"])})
    assert _CountingStorage.globs == 0, "replacing one item listed the warehouse"
    ids = Warehouse(Storage(tmp_path)).frame("publications")["pub_id"].to_list()
    assert len(ids) == 30 and "US-105-B2" not in ids and Warehouse(Storage(tmp_path)).frame("rejects").height == 0


def test_warehouse_written_before_the_index_is_indexed_once(tmp_path: Path):
    """Parts named `<item>.<batch>.parquet` by an older release: the first replacement indexes them all."""
    old = Warehouse(Storage(tmp_path))
    for item, batch, ids in (("ipa240104.zip", "00000", ["US-1-A1"]), ("ipa240104.zip", "00001", ["US-2-A1"]),
                             ("ipa240111.zip", "00000", ["US-3-A1"]), ("ipa240104.zip.x", "00000", ["US-4-A1"])):
        old.write_part("publications", f"{item}.{batch}", _pubs(ids))
    wh = Warehouse(Storage(tmp_path))
    wh.drop_item("ipa240104.zip")
    assert sorted(wh.frame("publications")["pub_id"]) == ["US-3-A1", "US-4-A1"]
    assert Warehouse(Storage(tmp_path)).item_parts("ipa240111.zip") == ["publications/ipa240111.zip.00000.parquet"]


def _rejects():
    from schemas import REJECTS
    return REJECTS.from_pylist([{"source": "uspto_bulk", "source_file": "ipg05.zip", "locator": "doc 1",
                                 "error_class": "xml", "message": "bad"}])


def test_ledger_and_item_index_on_s3(s3_env):
    """The same on object storage (moto over HTTP): appended parts read back, folded, an item replaced."""
    from patentfactory.store.storage import s3_storage_options

    st = Storage("s3://bench/wh", s3_storage_options())
    a, b = Ledger(st), Ledger(st)
    a.record_parse("uspto_bulk", "ipg01.zip", "uspto-1", 5, 0)
    b.record_parse("uspto_bulk", "ipg02.zip", "uspto-1", 7, 0)
    assert {r["item"]: r["n_records"] for r in Ledger(st).items()} == {"ipg01.zip": 5, "ipg02.zip": 7}
    b.compact()
    assert st.ls(LOG_DIR) == [] and len(Ledger(st).items()) == 2
    wh = Warehouse(st)
    wh.write_item_parts("ipg01.zip", "00000", {"publications": _pubs(["US-1-B2"])})
    wh.write_item_parts("ipg02.zip", "00000", {"publications": _pubs(["US-2-B2"])})
    wh.drop_item("ipg01.zip")
    assert Warehouse(st).frame("publications")["pub_id"].to_list() == ["US-2-B2"]
