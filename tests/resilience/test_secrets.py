"""No credential in any log or artifact: a whole `pf run`, then the ingest CLIs and Prefect flows that take
the ODP key and OPS credentials from the environment, against a replica that records what it was sent."""
from __future__ import annotations

import base64
import json
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from patentfactory.sim.upstream import Replica, server

from .pfrun import FAKE, pf_cmd, pf_env, run_pf

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.long_run, pytest.mark.xdist_group("baseline")]


def secret_forms() -> list[bytes]:
    key, secret, odp = FAKE["EPO_OPS_KEY"], FAKE["EPO_OPS_SECRET"], FAKE["USPTO_ODP_API_KEY"]
    basic = base64.b64encode(f"{key}:{secret}".encode())
    return [key.encode(), secret.encode(), odp.encode(), basic, basic.rstrip(b"="),
            base64.b64encode(secret.encode()).rstrip(b"="), base64.b64encode(odp.encode()).rstrip(b"=")]


def _texts(path: Path) -> list[bytes]:
    """The file's bytes, plus decoded values where the bytes may be compressed (Parquet, zip)."""
    data = path.read_bytes()
    out = [data]
    if path.suffix == ".parquet":
        out.append(json.dumps(pq.read_table(path).to_pylist(), default=str).encode())
    elif data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(path) as zf:
            out += [zf.read(i) for i in zf.infolist() if i.file_size < 256 << 20]
    return out


def leaks(root: Path) -> tuple[int, list[str]]:
    forms = secret_forms()
    found, n = [], 0
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        n += 1
        for blob in _texts(path):
            found += [f"{path.relative_to(root)}: {f[:12]!r}…" for f in forms if f in blob]
    return n, found


def test_nightly_run_with_credentials_leaks_none(baseline):
    n, found = leaks(baseline.home)
    assert n > 100, "the scan saw the run's data, warehouse, ledger, raw cache, published files and logs"
    assert (baseline.home / "prefect_home").is_dir() and list((baseline.home / "logs").iterdir())
    assert not found, found


def test_ingest_cli_and_flows_send_credentials_and_leak_none(baseline, tmp_path: Path, monkeypatch):
    seen: list[dict[str, str]] = []
    real = server.dispatch

    def recording(req):
        seen.append(dict(req.headers))
        return real(req)

    monkeypatch.setattr(server, "dispatch", recording)
    env = pf_env(tmp_path, creds=True, log_level="DEBUG")
    data = str(tmp_path / "data")
    (tmp_path / "numbers.txt").write_text("\n".join(sorted(
        p.parent.name for p in (baseline.home / "data/world/ops").rglob("biblio.xml")))[:2000])
    with Replica(baseline.home / "data" / "world") as rep:
        url = rep.base_url
        steps = {
            "ingest_uspto": pf_cmd("ingest", "uspto", "--from", "1976-01-01", "--to", "2100-01-01",
                                   "--data-dir", data, "--base-url", url),
            "ingest_ptab": pf_cmd("ingest", "ptab", "--data-dir", data, "--base-url", url),
            "ingest_ops": pf_cmd("ingest", "ops", "--numbers", str(tmp_path / "numbers.txt"), "--data-dir", data,
                                 "--base-url", url + "/3.2"),
            "flows": ["python", "-c", (
                "from flows.ingest_uspto import ingest_uspto; from flows.ingest_ptab import ingest_ptab; "
                "from flows.ingest_ops import ingest_ops_flow; "
                f"ingest_uspto(data_dir={data + '2'!r}, base_url={url!r}); "
                f"ingest_ptab(data_dir={data + '2'!r}, base_url={url!r}); "
                f"print(ingest_ops_flow(data_dir={data + '2'!r}, base_url={url + '/3.2'!r}, query='pn=EP'))")],
        }
        for name, cmd in steps.items():
            if cmd[0] == "python":
                import sys
                cmd = [sys.executable, *cmd[1:]]
            ran = run_pf(cmd, env, tmp_path, name)
            assert ran.rc == 0, ran.log.read_text()[-3000:]
    basic = "Basic " + base64.b64encode(f"{FAKE['EPO_OPS_KEY']}:{FAKE['EPO_OPS_SECRET']}".encode()).decode()
    assert any(h.get("X-API-KEY") == FAKE["USPTO_ODP_API_KEY"] for h in seen), "the ODP key was sent"
    assert any(h.get("Authorization") == basic for h in seen), "the OPS credentials were sent"
    n, found = leaks(tmp_path)
    assert n > 20 and not found, found
