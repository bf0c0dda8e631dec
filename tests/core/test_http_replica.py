"""The shared HTTP session against the local replica's injected faults (real sockets, no mocks)."""
from __future__ import annotations

import json
import zipfile
from datetime import date
from pathlib import Path

import pytest

from patentfactory.sim.upstream import Replica
from patentfactory.sim.upstream.faults import Faults, FaultSpecError
from sources.http import HttpClient, HttpError, RetryPolicy, retry_after_seconds
from sources.odp_bulk import fetch_bulk_file, list_product_files, odp_client, parse_product_listing

pytestmark = pytest.mark.services


@pytest.fixture()
def world(tmp_path: Path) -> Path:
    (tmp_path / "uspto" / "PTGRXML").mkdir(parents=True)
    for name in ("ipg240102.zip", "ipg240109.zip", "ipg240116.zip"):
        with zipfile.ZipFile(tmp_path / "uspto" / "PTGRXML" / name, "w") as zf:
            zf.writestr(name.replace(".zip", ".xml"), "<?xml version='1.0'?>\n<x/>\n" * 5000)
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)) * 4000)
    return tmp_path


def _client(base: str, sleeps: list[float], attempts: int = 4) -> HttpClient:
    return HttpClient(base, timeout=(2, 1.0), retry=RetryPolicy(attempts=attempts, backoff=0.01, max_backoff=2),
                      sleep=sleeps.append)


def test_retries_429_honouring_retry_after(world):
    sleeps: list[float] = []
    with Replica(world, faults="429*2,retry_after=1") as rep:
        resp = _client(rep.base_url, sleeps).get("/health")
    assert resp.status_code == 200 and resp.json()["status"] == "ok"
    assert len(sleeps) == 2 and all(s >= 1.0 for s in sleeps), sleeps


def test_503_burst_then_success_and_exhaustion(world):
    sleeps: list[float] = []
    with Replica(world, faults="503*3") as rep:
        assert _client(rep.base_url, sleeps, attempts=4).get("/health").status_code == 200
        assert rep.faults.injected["503"] == 3
    with Replica(world, faults="500*10") as rep:
        with pytest.raises(HttpError, match="failed after 3 attempts: HTTP 500"):
            _client(rep.base_url, [], attempts=3).get("/health")


def test_timeout_and_truncated_body_are_retried(world):
    sleeps: list[float] = []
    with Replica(world, faults="timeout*1,stall=1.5") as rep:
        assert _client(rep.base_url, sleeps).get("/health").status_code == 200
    with Replica(world, faults="truncate@/files*1") as rep:
        body = _client(rep.base_url, sleeps).get("/files/blob.bin").content
    assert body == (world / "blob.bin").read_bytes()


def test_download_resumes_with_range(world, tmp_path):
    dest = tmp_path / "out" / "blob.bin"
    dest.parent.mkdir()
    part = dest.with_name("blob.bin.part")
    part.write_bytes((world / "blob.bin").read_bytes()[:1000])  # an earlier interrupted download
    with Replica(world) as rep:
        HttpClient(rep.base_url).download("/files/blob.bin", dest, expected_size=(world / "blob.bin").stat().st_size)
    assert dest.read_bytes() == (world / "blob.bin").read_bytes() and not part.exists()


def test_odp_listing_and_fetch_against_replica(world, tmp_path):
    with Replica(world, faults="429*1,retry_after=0") as rep:
        client = odp_client(rep.base_url, api_key="test-key", min_after_429=0.01)
        files = list_product_files(client, "PTGRXML", date(2024, 1, 1), date(2024, 1, 10))
        assert [f.name for f in files] == ["ipg240102.zip", "ipg240109.zip"]
        path = fetch_bulk_file(client, files[0], tmp_path / "dl")
    assert zipfile.ZipFile(path).namelist() == ["ipg240102.xml"]


def test_listing_parser_on_real_recorded_response(real_samples):
    payload = json.loads((real_samples / "ptab-odp" / "get_bulk_product.raw.json").read_text())
    files = parse_product_listing(payload, "PTGRXML")
    names = [f.name for f in files]
    assert "ipg240102.zip" in names and "ipg240109.zip" in names
    assert all(n.endswith(".zip") for n in names), "DTDs and documents are not data files"
    jan9 = next(f for f in files if f.name == "ipg240109.zip")
    assert jan9.size == 171326087 and jan9.data_date == date(2024, 1, 9)
    assert jan9.url.endswith("/PTGRXML/2024/ipg240109.zip")


def test_fault_spec_errors_and_retry_after_forms():
    with pytest.raises(FaultSpecError, match="bad fault rule"):
        Faults("418=0.5")
    with pytest.raises(FaultSpecError, match="not a number"):
        Faults("seed=abc")
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
