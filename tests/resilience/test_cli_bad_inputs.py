"""Every file-taking `pf` command meets every bad file with one `error:` line, one `hint:` line and exit 2:
no traceback (unless PF_DEBUG=1), no half-written success. Each command runs as a real process of its own (the
77 file cases forked from a zygote that imported the heavy libraries once: `pfzygote`)."""
from __future__ import annotations

import queue
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from . import make_bad_inputs as bad
from .pfrun import pf_cmd, pf_env
from .pfzygote import Zygote

pytestmark = pytest.mark.services

COMMANDS = {
    **{f"parse {s}": ["parse", s, "{file}", "--out", "{tmp}/out.parquet"] for s in ("uspto", "lens", "ops", "ptab",
                                                                                     "sparql")},
    "ingest lens": ["ingest", "lens", "{file}", "--data-dir", "{tmp}/data"],
    "ingest ops": ["ingest", "ops", "--numbers", "{file}", "--data-dir", "{tmp}/data",
                   "--base-url", "http://127.0.0.1:9/3.2"],  # nothing listens: the file must be refused first
}


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(pf_cmd(*args), env=env, cwd=cwd, capture_output=True, text=True, errors="replace",
                          timeout=120)


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> dict[str, Path]:
    return bad.cli_bad_files(tmp_path_factory.mktemp("bad_files"))


@pytest.fixture(scope="module")
def zygotes():
    """Two zygotes, one per thread of the pool below."""
    pool: queue.Queue[Zygote] = queue.Queue()
    made = [Zygote() for _ in range(2)]
    for z in made:
        pool.put(z)
    yield pool
    for z in made:
        z.close()


@pytest.mark.parametrize("command", list(COMMANDS))
def test_bad_file_is_one_error_line_with_a_hint(command: str, bad_files: dict[str, Path], tmp_path: Path, zygotes):
    env = pf_env(tmp_path, creds=False, log_level="WARNING")
    runs = {case: [a.format(file=path, tmp=tmp_path / case) for a in COMMANDS[command]]
            for case, path in bad_files.items()}

    def run(args: list[str]) -> subprocess.CompletedProcess:
        z = zygotes.get()
        try:
            return z.run(args, env, tmp_path)
        finally:
            zygotes.put(z)

    with ThreadPoolExecutor(2) as pool:
        done = dict(zip(runs, pool.map(run, runs.values())))
    for case, ran in done.items():
        both = ran.stdout + ran.stderr
        lines = [ln.strip() for ln in ran.stderr.splitlines() if ln.strip()]
        errors = [ln for ln in lines if ln.startswith("error:")]
        where = f"{command} {case}: rc={ran.returncode}\n{both[-1500:]}"
        assert ran.returncode == 2, where
        assert "Traceback" not in both, where
        assert len(errors) == 1 and lines[lines.index(errors[0]) + 1].startswith("hint: "), where
        assert not [ln for ln in lines if " ERROR " in ln or " CRITICAL " in ln], where
        assert not (tmp_path / case / "out.parquet").exists(), where
    assert not Path("/tmp/pf-evil.xml").exists()


def test_pf_debug_shows_the_traceback(bad_files: dict[str, Path], tmp_path: Path):
    env = {**pf_env(tmp_path, creds=False, log_level="WARNING"), "PF_DEBUG": "1"}
    ran = _run(["parse", "uspto", str(bad_files["zip_slip"]), "--out", str(tmp_path / "o.parquet")], env, tmp_path)
    assert ran.returncode != 0 and "Traceback" in ran.stderr and "UnsafeArchiveError" in ran.stderr


def test_a_good_file_next_to_a_bad_one_is_still_refused_as_a_whole(bad_files: dict[str, Path], tmp_path: Path):
    """`pf parse` writes nothing when one of its files is unreadable: no output that silently lacks a file."""
    good = tmp_path / "good.xml"
    good.write_bytes(bad.ops_biblio(4000001))
    env = pf_env(tmp_path, creds=False, log_level="WARNING")
    ran = _run(["parse", "ops", str(good), str(bad_files["truncated"]), "--out", str(tmp_path / "o.parquet")],
               env, tmp_path)
    assert ran.returncode == 2 and "truncated.xml" in ran.stderr and not (tmp_path / "o.parquet").exists()
    ran = _run(["parse", "ops", str(good), "--out", str(tmp_path / "o.parquet")], env, tmp_path)
    assert ran.returncode == 0 and "publications: 1" in ran.stdout


def test_pf_ingest_uspto_reports_unsafe_and_truncated_weekly_files(tmp_path: Path, shared_world):
    """Weekly files from the (replica) ODP API: a zip-slip and a truncated zip are one error line naming a file;
    the good weeks are ingested, and nothing escapes the data folder."""
    from datetime import date as _date

    from patentfactory.sim.generator import WorldSpec
    from patentfactory.sim.upstream import Replica
    from patentfactory.store.storage import Storage
    from patentfactory.store.warehouse import Warehouse

    world = tmp_path / "world"
    shutil.copytree(shared_world(150, 3, WorldSpec(150, 3, renderers=("uspto",))), world)  # changed below
    weeks = sorted((world / "uspto" / "PTGRXML").glob("*.zip"))
    assert len(weeks) >= 3
    bad.zip_slip(weeks[0])
    cut = weeks[1].read_bytes()
    weeks[1].write_bytes(cut[: len(cut) // 2])
    env = pf_env(tmp_path, creds=False, log_level="WARNING")
    with Replica(world) as rep:
        ran = _run(["ingest", "uspto", "--from", str(_date(1970, 1, 1)), "--to", str(_date(2100, 1, 1)),
                    "--data-dir", str(tmp_path / "data"), "--base-url", rep.base_url], env, tmp_path)
    errors = [ln for ln in ran.stderr.splitlines() if ln.startswith("error:")]
    assert ran.returncode == 2 and "Traceback" not in ran.stdout + ran.stderr, ran.stderr
    assert len(errors) == 1 and "2 of" in errors[0] and weeks[0].name in errors[0], ran.stderr
    assert Warehouse(Storage(tmp_path / "data" / "warehouse")).frame("publications").height > 0
    assert not Path("/tmp/pf-evil.xml").exists()


# --- bad options and environments (issue 32): one error line, the right hint, a non-zero exit ---------------
SAMPLE_WORLD = Path(__file__).resolve().parents[2] / "data" / "sample"
NO_S3_CREDS = {"AWS_ACCESS_KEY_ID": None, "AWS_SECRET_ACCESS_KEY": None, "AWS_SESSION_TOKEN": None,
               "AWS_PROFILE": None, "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_CONFIG_FILE": "/nonexistent",
               "AWS_EC2_METADATA_DISABLED": "true", "PF_S3_ENDPOINT_URL": None, "AWS_ENDPOINT_URL": None}
BAD_OPTIONS = {  # name: (args, words the error line must carry, words the hint must carry)
    "ptab month 13": (["ingest", "ptab", "--from", "2024-13-01", "--data-dir", "{tmp}/d"], ["--from", "2024-13-01"],
                      ["YYYY-MM-DD"]),
    "ptab reversed": (["ingest", "ptab", "--from", "2024-03-01", "--to", "2024-01-01", "--data-dir", "{tmp}/d"],
                      ["after", "--to"], ["swap"]),
    "uspto reversed": (["ingest", "uspto", "--from", "2024-03-01", "--to", "2024-01-01", "--data-dir", "{tmp}/d"],
                       ["after", "--to"], ["swap"]),
    "port out of range": (["upstream", "serve", str(SAMPLE_WORLD), "--port", "99999"], ["99999"], ["1-65535"]),
    "port in use": (["upstream", "serve", str(SAMPLE_WORLD), "--port", "{busy}"], ["already in use"], ["--port"]),
    "unreachable upstream": (["ingest", "ptab", "--base-url", "http://127.0.0.1:{closed}", "--from", "2024-01-01",
                              "--to", "2024-01-31", "--data-dir", "{tmp}/d"], ["failed after"], ["reachable"]),
    "inspect s3 without credentials": (["inspect", "s3://pf-no-such-bucket/pub/patenteb"], ["credentials"],
                                       ["AWS_ACCESS_KEY_ID"]),
    "eval s3 without credentials": (["eval", "patenteb", "--root", "s3://pf-no-such-bucket/pub"], ["credentials"],
                                    ["AWS_ACCESS_KEY_ID"]),
    "unknown profile": (["run", "--profile", "huge", "--data-dir", "{tmp}/d", "--out", "{tmp}/p"], ["--profile"],
                        ["sample"]),
}


def test_bad_options_and_environments_are_one_line_with_the_right_hint(tmp_path: Path):
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]  # bound then closed: nothing listens there
    env = pf_env(tmp_path, creds=True, log_level="WARNING")
    env.update({k: v for k, v in NO_S3_CREDS.items() if v is not None})
    for k in [k for k, v in NO_S3_CREDS.items() if v is None]:
        env.pop(k, None)
    fill = {"tmp": str(tmp_path), "busy": str(busy.getsockname()[1]), "closed": str(closed)}
    runs = {name: [a.format(**fill) for a in args] for name, (args, _, _) in BAD_OPTIONS.items()}
    try:
        with ThreadPoolExecutor(3) as pool:
            done = dict(zip(runs, pool.map(lambda a: _run(a, env, tmp_path), runs.values())))
    finally:
        busy.close()
    for name, ran in done.items():
        _, says, hints = BAD_OPTIONS[name]
        both = ran.stdout + ran.stderr
        lines = [ln.strip() for ln in ran.stderr.splitlines() if ln.strip()]
        errors = [i for i, ln in enumerate(lines) if ln.startswith("error:")]
        where = f"{name}: rc={ran.returncode}\n{both[-1500:]}"
        assert ran.returncode == 2 and "Traceback" not in both, where
        assert len(errors) == 1 and lines[errors[0] + 1].startswith("hint: "), where
        assert all(w in lines[errors[0]] for w in says) and all(w in lines[errors[0] + 1] for w in hints), where
    assert not (tmp_path / "d" / "warehouse").exists(), "a refused range fetched nothing"


def test_inspect_help_renders(tmp_path: Path):
    ran = _run(["inspect", "--help"], pf_env(tmp_path, creds=False, log_level="WARNING"), tmp_path)
    assert ran.returncode == 0 and "ROOT/DATASET[/VERSION]" in ran.stdout and "Traceback" not in ran.stderr
