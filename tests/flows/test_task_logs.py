"""Every flow task logs one `counts {json}` line (records in/out/rejected) through the Prefect run logger,
with the counts the stage returned: per weekly file, per flow total, per Lens ingest."""
from __future__ import annotations

import logging
import shutil
from datetime import date
from pathlib import Path

import pytest

from flows.ingest_lens import ingest_lens
from flows.ingest_uspto import ingest_uspto
from flows.observe import log_counts, parse_counts
from patentfactory.sim.generator import WorldSpec
from patentfactory.sim.upstream import Replica

pytestmark = pytest.mark.services

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def counts(self, stage: str) -> list[tuple[logging.LogRecord, dict]]:
        found = [(r, parse_counts(r.getMessage())) for r in self.records]
        return [(r, c) for r, c in found if c and c["stage"] == stage]


@pytest.fixture()
def run_logs():
    """Records of Prefect's run loggers (`prefect.flow_runs`, `prefect.task_runs`; they do not reach root)."""
    handler, logger = _Records(), logging.getLogger("prefect")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    for name in ("prefect.flow_runs", "prefect.task_runs"):
        logging.getLogger(name).setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old_level)


def test_uspto_ingest_logs_counts_per_file_and_total(tmp_path: Path, run_logs, shared_world):
    world, data = tmp_path / "world", tmp_path / "data"
    shutil.copytree(shared_world(150, 3, WorldSpec(150, 3, renderers=("uspto",))), world)  # changed below
    bad = sorted((world / "uspto" / "PTGRXML").glob("*.zip"))[0]
    bad.write_bytes(bad.read_bytes()[:200])  # truncated upstream zip: one reject, one failed file
    with Replica(world) as rep:
        result = ingest_uspto(str(data), rep.base_url, date(2000, 1, 1), date(2100, 1, 1))

    per_file = run_logs.counts("parse-uspto-weekly-file")
    assert len(per_file) == result["files"] - result["skipped"] > 2
    assert all(r.name == "prefect.task_runs" and r.counts == c for r, c in per_file), "run logger + record.counts"
    by_file = {c["file"]: c for _r, c in per_file}
    assert by_file[bad.name] | {"records_out": 0, "rejected": 1, "failed": 1} == by_file[bad.name]
    assert sum(c["records_out"] for c in by_file.values()) == result["records"]["publications"]
    assert sum(c["rejected"] for c in by_file.values()) == result["rejects"] == 1
    assert all(c["records_in"] == c["records_out"] + c["rejected"] for c in by_file.values())

    [(record, total)] = run_logs.counts("ingest-uspto")
    assert record.name == "prefect.flow_runs"
    assert total["records_out"] == result["records"]["publications"] and total["rejected"] == result["rejects"]
    assert total["tables"] == result["records"] and total["files"] == total["listed"] == result["files"]


def test_lens_ingest_logs_counts(tmp_path: Path, run_logs):
    lens = tmp_path / "lens-export.jsonl"
    shutil.copy(SAMPLE / "lens" / "lens-export.jsonl", lens)
    result = ingest_lens([str(lens)], data_dir=str(tmp_path / "data"))
    [(_record, counts)] = run_logs.counts("ingest-lens-files")
    assert counts["records_out"] == result["records"]["publications"] > 0
    assert counts["rejected"] == result["rejects"] and counts["tables"] == result["records"]


def test_log_counts_outside_a_run_uses_std_logging(caplog):
    with caplog.at_level(logging.INFO, logger="flows.observe"):
        payload = log_counts("adhoc", records_in=3, records_out=2, rejected=1, note="x")
    assert parse_counts(caplog.records[-1].getMessage()) == payload
    assert payload == {"event": "counts", "stage": "adhoc", "records_in": 3, "records_out": 2, "rejected": 1,
                       "note": "x"}
