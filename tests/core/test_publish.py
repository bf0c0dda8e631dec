"""Versioned publish: layout, determinism, atomicity under an injected failure, checks and gates."""
from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import polars as pl
import pytest

from patentfactory.errors import PublishError
from patentfactory.store.inspect import inspect_version, split_target
from patentfactory.store.publish import LeakageCheck, Release, latest_version, publish
from patentfactory.store.publish_options import PublishOptions
from patentfactory.store.storage import Storage

DAY = date(2026, 11, 23)


def _tasks(n: int = 30) -> dict:
    rows = [{"text": f"text {i}", "label": f"H0{i % 3}", "family_id": f"F{i}"} for i in range(n)]
    df = pl.DataFrame(rows)
    return {"class_text2ipc3": {"train": df[: n - 10], "val": df[n - 10: n - 5], "test": df[n - 5:]}}


def _no_family_leak(frames) -> list[str]:
    seen: dict[str, str] = {}
    problems = []
    for task, splits in frames.items():
        for split, df in splits.items():
            for fam in df["family_id"].to_list():
                if seen.setdefault(fam, split) != split:
                    problems.append(f"{task}: family {fam} in {seen[fam]} and {split}")
    return problems


def _release(tasks=None, inputs=None) -> Release:
    return Release(dataset="toy", tasks=tasks or _tasks(), config={"seed": 1},
                   inputs=inputs or [{"source": "x", "item": "a", "sha256": "0" * 64, "parser_version": "1"}],
                   leakage_checks=[LeakageCheck("no_family_in_two_splits", _no_family_leak)],
                   distribution={"H00": 10, "H01": 10, "H02": 10}, distribution_title="IPC3")


def test_layout_manifest_card_and_latest(tmp_path: Path):
    st = Storage(tmp_path)
    pub = publish(st, _release(), day=DAY)
    assert pub.created and pub.version.startswith("2026.11.23-") and len(pub.version) == 19
    vdir = tmp_path / "toy" / pub.version
    assert sorted(p.name for p in (vdir / "class_text2ipc3").iterdir()) == ["test.parquet", "train.parquet", "val.parquet"]
    man = json.loads((vdir / "manifest.json").read_text())
    assert {f["path"]: f["rows"] for f in man["files"]} == {
        "class_text2ipc3/test.parquet": 5, "class_text2ipc3/train.parquet": 20, "class_text2ipc3/val.parquet": 5}
    assert all(len(f["sha256"]) == 64 and len(f["schema_fingerprint"]) == 16 for f in man["files"])
    assert man["leakage"]["no_family_in_two_splits"]["ok"] is True
    card = (vdir / "README.md").read_text()
    assert "| class_text2ipc3 | 20 | 5 | 5 |" in card and "distribution.png" in card
    assert (vdir / "distribution.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "toy" / "LATEST").read_text().strip() == pub.version
    assert inspect_version(st, "toy").ok


def test_same_inputs_give_byte_identical_files(tmp_path: Path):
    a, b = Storage(tmp_path / "a"), Storage(tmp_path / "b")
    va, vb = publish(a, _release(), day=DAY).version, publish(b, _release(), day=DAY).version
    assert va == vb
    for name in ("class_text2ipc3/train.parquet", "README.md", "distribution.png"):
        assert (tmp_path / "a/toy" / va / name).read_bytes() == (tmp_path / "b/toy" / vb / name).read_bytes()


def test_row_order_of_a_build_does_not_change_the_published_bytes(tmp_path: Path):
    """Joins and group-bys reorder rows run to run; the published file must not depend on that."""
    shuffled = {task: {split: df.sample(fraction=1.0, shuffle=True, seed=7) for split, df in splits.items()}
                for task, splits in _tasks().items()}
    assert shuffled["class_text2ipc3"]["train"]["family_id"].to_list() != _tasks()["class_text2ipc3"]["train"]["family_id"].to_list()
    a, b = Storage(tmp_path / "a"), Storage(tmp_path / "b")
    va, vb = publish(a, _release(), day=DAY).version, publish(b, _release(shuffled), day=DAY).version
    name = "class_text2ipc3/train.parquet"
    assert (tmp_path / "a/toy" / va / name).read_bytes() == (tmp_path / "b/toy" / vb / name).read_bytes()


def test_republish_identical_is_a_noop(tmp_path: Path):
    st = Storage(tmp_path)
    first = publish(st, _release(), day=DAY)
    again = publish(st, _release(), day=DAY)
    assert again.version == first.version and again.created is False


def test_injected_failure_leaves_previous_version_and_latest(tmp_path: Path, monkeypatch):
    st = Storage(tmp_path)
    v1 = publish(st, _release(), day=DAY).version
    calls = {"n": 0}
    real_write = Storage.write_bytes

    def flaky(self, rel, data):
        calls["n"] += 1
        if calls["n"] == 3:  # in the middle of staging the parquet files
            raise OSError("disk full (injected)")
        return real_write(self, rel, data)

    monkeypatch.setattr(Storage, "write_bytes", flaky)
    new_inputs = [{"source": "x", "item": "b", "sha256": "1" * 64, "parser_version": "1"}]
    with pytest.raises(PublishError, match="injected"):
        publish(st, _release(_tasks(34), inputs=new_inputs), day=DAY)
    monkeypatch.undo()
    assert latest_version(st, "toy") == v1
    assert sorted(p.name for p in (tmp_path / "toy").iterdir() if not p.name.startswith(".")) == sorted(
        ["LATEST", "latest", v1])
    assert (tmp_path / "toy" / "latest").resolve() == (tmp_path / "toy" / v1).resolve()
    assert not list((tmp_path / "toy" / ".staging").glob("*")), "staging must be cleaned up"
    assert inspect_version(st, "toy").ok


def test_staging_left_by_a_killed_publish_is_swept_later(tmp_path: Path):
    """A SIGKILL skips the cleanup above; the next publish removes staging folders older than a day and
    leaves a younger one (a publish that may still be running) alone."""
    from datetime import datetime, timedelta, timezone

    from patentfactory.store.publish import sweep_stale_staging

    st = Storage(tmp_path)
    now = datetime.now(timezone.utc)
    old_stamp = (now - timedelta(hours=30)).strftime("%Y%m%dT%H%M%SZ")
    young_stamp = (now - timedelta(hours=1)).strftime("%Y%m%dT%H%M%SZ")
    names = {"old": f"2026.01.02-0123abcd-{old_stamp}-deadbeef", "young": f"2026.01.02-0123abcd-{young_stamp}-feedbeef",
             "old_format": "2026.01.02-0123abcd-cafebabe", "foreign": "notes"}
    for name in names.values():
        st.write_bytes(f"toy/.staging/{name}/class_text2ipc3/train.parquet", b"partial")
    publish(st, _release(), day=DAY)
    left = sorted(p.name for p in (tmp_path / "toy" / ".staging").iterdir())
    assert left == sorted([names["young"], names["foreign"]])
    assert sweep_stale_staging(st, "toy", now=now + timedelta(hours=24)) == [names["young"]]


def test_a_young_staging_folder_whose_writer_died_is_swept_at_once(tmp_path: Path):
    """A publish SIGKILLed minutes ago (a killed night resumed at once) leaves a young folder: its `.writer`
    marker names this host and a process that no longer runs, so the next publish removes it; a live writer's
    folder, another host's and one without a marker stay until they are a day old; a marker without its folder
    goes. A finished publish leaves no marker."""
    import os
    import socket
    import subprocess
    import sys
    from datetime import datetime, timezone

    st = Storage(tmp_path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    host = socket.gethostname()
    writers = {"dead": f"{host} {dead.stdout.strip()}", "live": f"{host} {os.getpid()}",
               "other_host": f"not-{host} {dead.stdout.strip()}", "unmarked": None}
    names = {k: f"2026.01.02-0123abcd-{stamp}-{i:08x}" for i, k in enumerate(writers)}
    for key, writer in writers.items():
        st.write_bytes(f"toy/.staging/{names[key]}/class_text2ipc3/train.parquet", b"partial")
        if writer is not None:
            st.write_text(f"toy/.staging/{names[key]}.writer", writer)
    st.write_text("toy/.staging/2026.01.02-0123abcd-gone.writer", writers["dead"])
    publish(st, _release(), day=DAY)
    left = sorted(p.name for p in (tmp_path / "toy" / ".staging").iterdir())
    assert left == sorted([names["live"], names["live"] + ".writer", names["other_host"],
                           names["other_host"] + ".writer", names["unmarked"]])


def test_leakage_failure_refuses_publish(tmp_path: Path):
    tasks = _tasks()
    leaky = tasks["class_text2ipc3"]["test"].with_columns(pl.lit("F0").alias("family_id"))
    tasks["class_text2ipc3"]["test"] = leaky
    with pytest.raises(PublishError, match="family F0"):
        publish(Storage(tmp_path), _release(tasks=tasks), day=DAY)
    assert not (tmp_path / "toy" / "LATEST").exists()


def test_empty_split_is_refused(tmp_path: Path):
    tasks = _tasks()
    tasks["class_text2ipc3"]["val"] = tasks["class_text2ipc3"]["val"].head(0)
    with pytest.raises(PublishError, match="empty"):
        publish(Storage(tmp_path), _release(tasks=tasks), day=DAY)


def test_quality_gate_blocks_big_drop_unless_overridden(tmp_path: Path):
    st = Storage(tmp_path)
    publish(st, _release(_tasks(200)), day=DAY)
    small = _release(_tasks(40), inputs=[{"source": "x", "item": "c", "sha256": "2" * 64, "parser_version": "1"}])
    with pytest.raises(PublishError, match="quality gate"):
        publish(st, small, day=DAY)
    pub = publish(st, small, day=DAY, options=PublishOptions(allow_drop=True))
    man = json.loads((tmp_path / "toy" / pub.version / "manifest.json").read_text())
    assert man["quality"]["override"] is True and man["quality"]["drops"]


def test_inspect_detects_tampering(tmp_path: Path):
    st = Storage(tmp_path)
    v = publish(st, _release(), day=DAY).version
    f = tmp_path / "toy" / v / "class_text2ipc3" / "val.parquet"
    f.write_bytes(f.read_bytes()[:-8] + b"corrupt!")
    rep = inspect_version(st, "toy", v)
    assert not rep.ok and "val.parquet: sha256 mismatch" in rep.problems[0]


def test_split_target():
    assert split_target("data/published/patenteb") == ("data/published", "patenteb", None)
    assert split_target("s3://b/p/patenteb/2026.11.23-0123abcd") == ("s3://b/p", "patenteb", "2026.11.23-0123abcd")
