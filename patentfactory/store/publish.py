"""Versioned, atomic, deterministic publish of a dataset's task tables.

Layout: `<root>/<dataset>/<version>/<task>/<split>.parquet`, `manifest.json`, `README.md`
(card with Hugging Face front matter), `distribution.png`, `croissant.json` (Croissant JSON-LD),
`SHA256SUMS` (every file but the manifest, `sha256sum -c` format), then `<root>/<dataset>/LATEST`
(a text file naming the version) and `<root>/<dataset>/latest/` (the same files under a fixed path a
glob goes through: a symlink on a local root, a copy on S3), written last. Everything is staged under
`<dataset>/.staging/…`, re-read and verified, then moved into place; any failure before the move
leaves the previous version and LATEST untouched.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import socket
import subprocess
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import polars as pl
import pyarrow as pa

from schemas import schema_fingerprint

from patentfactory import __version__
from .card import PLOT_FILE, render_card, render_plot
from .croissant import CROISSANT_FILE, croissant
from .hf_layout import configs as hf_configs, hf_split
from .lens_items import delivered_at, export_name
from patentfactory.config import DriftThresholds
from patentfactory.errors import NothingToPublish, PublishError, QualityGateBlocked
from .drift import compare_coverage, compare_files, profile_table
from .parquet_io import ParquetBlob, as_arrow, canonical_order, parquet_bytes
from .processes import process_alive
from .publish_options import PublishOptions
from .storage import Storage

log = logging.getLogger(__name__)
NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$", re.IGNORECASE)
SPLITS = ("train", "val", "test", "nc-test", "eval", "corpus")  # eval: a zero-shot set; corpus: no split
TaskTables = dict[str, dict[str, pa.Table | pl.DataFrame]]


@dataclass(frozen=True)
class LeakageCheck:
    """A dataset-specific check over all task tables; returns a list of problems (empty = ok)."""

    name: str
    check: Callable[[dict[str, dict[str, pl.DataFrame]]], list[str]]


@dataclass
class Release:
    dataset: str
    tasks: TaskTables
    config: dict
    inputs: list[dict]
    leakage_checks: list[LeakageCheck] = field(default_factory=list)
    distribution: dict[str, int] = field(default_factory=dict)
    distribution_title: str = "distribution"
    card_sections: dict[str, str] = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    coverage: dict[str, dict[str, int]] = field(default_factory=dict)  # warehouse counts per year/source/...
    id_conventions: dict[str, dict] = field(default_factory=dict)  # retrieval task -> its query/corpus id rule


@dataclass(frozen=True)
class Published:
    dataset: str
    version: str
    path: str
    created: bool  # False when an identical version already existed


def code_version() -> str:
    """Package version plus the git commit when run from a checkout."""
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        sha = ""
    return f"{__version__}+{sha}" if sha else __version__


def compute_version(day: date, inputs: list[dict], config: dict, code: str) -> str:
    """`YYYY.MM.DD-<8 hex>` of the hash of (input snapshot, config, code version)."""
    payload = json.dumps({"inputs": inputs, "config": config, "code": code}, sort_keys=True, default=str)
    return f"{day:%Y.%m.%d}-{hashlib.sha256(payload.encode()).hexdigest()[:8]}"


def _check_names(release: Release) -> None:
    if not NAME.match(release.dataset):
        raise PublishError(f"bad dataset name {release.dataset!r}", "use letters, digits, '-', '_' only")
    if not release.tasks:
        raise NothingToPublish(f"{release.dataset}: no task has rows in this build",
                               "an empty dataset is never published; the previous version (if any) stays LATEST")
    for task, splits in release.tasks.items():
        if not NAME.match(task):
            raise PublishError(f"bad task name {task!r}", "use letters, digits, '-', '_' only")
        for split, table in splits.items():
            if split not in SPLITS:
                raise PublishError(f"task {task!r}: unknown split {split!r}", f"use one of {', '.join(SPLITS)}")
            if as_arrow(table).num_rows == 0:
                raise PublishError(f"task {task!r} split {split!r} is empty", "never publish an empty split; "
                                   "lower the thresholds for small inputs or drop the task")


def _null_rates(table: pa.Table) -> dict[str, float]:
    n = max(table.num_rows, 1)
    return {c: round(table.column(c).null_count / n, 6) for c in table.column_names}


def _run_leakage(release: Release) -> dict[str, dict]:
    # polars tables are checked as they are: a round trip through Arrow would copy every text twice
    frames = {t: {s: tb if isinstance(tb, pl.DataFrame) else pl.from_arrow(as_arrow(tb)) for s, tb in sp.items()}
              for t, sp in release.tasks.items()}
    results = {}
    for chk in release.leakage_checks:
        problems = list(chk.check(frames))  # type: ignore[arg-type]
        results[chk.name] = {"ok": not problems, "problems": problems[:50]}
    failed = [n for n, r in results.items() if not r["ok"]]
    if failed:
        first = results[failed[0]]["problems"][0]
        raise PublishError(f"leakage check {failed[0]!r} failed: {first}", "fix the split; publish refused")
    return results


def _quality_gate(storage: Storage, dataset: str, files: list[dict], threshold: float, allow_drop: bool) -> dict:
    """Compare row counts with the version LATEST points at; a drop beyond `threshold` is recorded in `drops`."""
    prev = latest_version(storage, dataset)
    result = {"previous_version": prev, "threshold": threshold, "override": allow_drop, "drops": []}
    if not prev or not storage.exists(f"{dataset}/{prev}/manifest.json"):
        return result
    old = {f["path"]: f["rows"] for f in json.loads(storage.read_text(f"{dataset}/{prev}/manifest.json"))["files"]}
    new = {f["path"]: f["rows"] for f in files}
    for path, rows in sorted(old.items()):
        got = new.get(path, 0)
        if got < rows * (1 - threshold):
            result["drops"].append(f"{path}: {rows} -> {got} rows")
    return result


def _refuse_if_blocked(dataset: str, quality: dict) -> None:
    """One line for the first thing that blocks (a degraded column explains a row drop, so it comes first)."""
    drift, prev = quality["drift"], quality["previous_version"]
    problems = ([] if drift["override"] else [(line, "raise the named PF_QUALITY__ setting or pass --allow-drift")
                                               for line in drift["blocked_hints"]])
    if not quality["override"]:
        problems += [(f"{dataset} {d} (>{quality['threshold']:.0%} drop)", "pass --allow-drop")
                     for d in quality["drops"]]
    if problems:
        (line, hint), more = problems[0], (f" (+{len(problems) - 1} more)" if len(problems) > 1 else "")
        raise QualityGateBlocked(f"quality gate: {line} vs {prev}{more}",
                                 f"check the upstream; {hint} to publish anyway (recorded in the manifest)")


def _stage_blobs(release: Release) -> tuple[dict[str, ParquetBlob], list[dict]]:
    blobs, files = {}, []
    for task in sorted(release.tasks):
        for split in sorted(release.tasks[task]):
            table = as_arrow(canonical_order(release.tasks[task][split]))
            blob = parquet_bytes(table)
            rel = f"{task}/{split}.parquet"
            blobs[rel] = blob
            files.append({"path": rel, "task": task, "split": split, "rows": blob.rows, "bytes": len(blob.data),
                          "sha256": blob.sha256, "schema_fingerprint": schema_fingerprint(blob.schema),
                          "columns": table.column_names, "null_rates": _null_rates(table),
                          "profile": profile_table(table)})
    return blobs, files


def _drift_gate(storage: Storage, release: Release, files: list[dict], th: DriftThresholds,
                allow_drift: bool) -> dict:
    """Compare column profiles and warehouse coverage with the version LATEST points at; a figure past
    its threshold blocks publish unless `allow_drift` (then the override and what it allowed are recorded)."""
    prev = latest_version(storage, release.dataset)
    result: dict = {"previous_version": prev, "thresholds": th.model_dump(), "override": allow_drift,
                    "changes": [], "blocked": [], "blocked_hints": []}
    if not prev or not storage.exists(f"{release.dataset}/{prev}/manifest.json"):
        return result
    old = json.loads(storage.read_text(f"{release.dataset}/{prev}/manifest.json"))
    drifts = compare_files(old["files"], files, th) + compare_coverage(old.get("coverage") or {}, release.coverage, th)
    result["changes"] = [{"path": d.path, "column": d.column, "figure": d.figure, "before": d.before,
                          "after": d.after, "blocked": d.blocked, "setting": d.setting} for d in drifts]
    blocked = [d for d in drifts if d.blocked]
    result["blocked"] = [d.line(release.dataset) for d in blocked]
    result["blocked_hints"] = [f"{d.line(release.dataset)} [{d.setting}]" for d in blocked]
    return result


def _same_as_latest(storage: Storage, release: Release, files: list[dict]) -> str | None:
    """LATEST's version when this build's files (path + sha256) and configuration equal it: a version is new
    only when what users download or how it was built changes, not when an input it does not use was added
    (a new weekly file without PTAB decisions leaves PILOT as it was). The manifest then keeps the inputs of
    the build that made those bytes."""
    prev = latest_version(storage, release.dataset)
    if not prev or not storage.exists(f"{release.dataset}/{prev}/manifest.json"):
        return None
    old = json.loads(storage.read_text(f"{release.dataset}/{prev}/manifest.json"))
    same_files = {f["path"]: f["sha256"] for f in old["files"]} == {f["path"]: f["sha256"] for f in files}
    same_config = json.dumps(old.get("config"), sort_keys=True, default=str) == json.dumps(
        release.config, sort_keys=True, default=str)
    return prev if same_files and same_config else None


def deliveries_section(inputs: list[dict]) -> str | None:
    """Which Lens deliveries a build read, in delivery order: where two carry the same publication, the later
    delivery's rows are the ones used (a corrected re-delivery replaces the old rows)."""
    lens = [i for i in inputs if i.get("source") == "lens"]
    if not lens:
        return None
    rows = sorted(((delivered_at(i["item"]) or "", export_name(i["item"]), (i.get("sha256") or "")[:12]) for i in lens))
    lines = [f"- `{name}` delivered {_when(at)}, sha256 `{sha}…`" for at, name, sha in rows]
    newest = rows[-1]
    return (f"{len(rows)} Lens export deliveries, oldest first; where two carry the same publication the later "
            f"delivery's rows are used. Newest: `{newest[1]}` ({_when(newest[0])}).\n\n" + "\n".join(lines))


def _when(stamp: str) -> str:
    if not stamp:
        return "at a time not recorded (ingested as a file, not from the live drop)"
    return f"{stamp[:4]}-{stamp[4:6]}-{stamp[6:8]} {stamp[9:11]}:{stamp[11:13]}:{stamp[13:15]} UTC"


def _hf_section(files: list[dict]) -> dict:
    """What the card's front matter declares: config names and published -> Hugging Face split names."""
    return {"configs": [c["config_name"] for c in hf_configs(files)],
            "split_names": {s: hf_split(s) for s in sorted({f["split"] for f in files})}}


SUMS_FILE = "SHA256SUMS"


def sha256sums(entries: dict[str, str]) -> str:
    """`<sha256>  <path>` lines (GNU `sha256sum -c` format), sorted by path."""
    return "".join(f"{digest}  {rel}\n" for rel, digest in sorted(entries.items()))


def latest_version(storage: Storage, dataset: str) -> str | None:
    rel = f"{dataset}/LATEST"
    return storage.read_text(rel).strip() if storage.exists(rel) else None


def publish(storage: Storage, release: Release, *, day: date | None = None,
            options: PublishOptions = PublishOptions()) -> Published:
    """Publish a release atomically; identical content for an existing version is a no-op.

    `options`: the quality gate's thresholds and overrides (the entry point puts the settings' PF_QUALITY__* in
    them; left unset, DriftThresholds' defaults)."""
    _check_names(release)
    blobs, files = _stage_blobs(release)
    leakage = _run_leakage(release)
    code = code_version()
    version = compute_version(day or datetime.now(timezone.utc).date(), release.inputs, release.config, code)
    final = f"{release.dataset}/{version}"
    same = _same_as_latest(storage, release, files)
    if same is not None:
        log.info("%s: same files and configuration as LATEST %s; no new version", release.dataset, same)
        return Published(release.dataset, same, storage.uri(f"{release.dataset}/{same}"), created=False)
    if storage.exists(f"{final}/manifest.json"):
        old = json.loads(storage.read_text(f"{final}/manifest.json"))
        if {f["path"]: f["sha256"] for f in old["files"]} == {f["path"]: f["sha256"] for f in files}:
            log.info("version %s already published with identical files; nothing to do", version)
            _write_latest(storage, release.dataset, version)
            return Published(release.dataset, version, storage.uri(final), created=False)
        raise PublishError(f"version {version} exists with different content", "the build is not deterministic")
    quality = _quality_gate(storage, release.dataset, files, options.row_drop_threshold, options.allow_drop)
    drift_thresholds = options.drift if options.drift is not None else DriftThresholds()
    quality["drift"] = _drift_gate(storage, release, files, drift_thresholds, options.allow_drift)
    _refuse_if_blocked(release.dataset, quality)
    quality["drift"].pop("blocked_hints")
    manifest = {"dataset": release.dataset, "version": version,
                "created_at": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
                "code_version": code, "config": release.config, "inputs": release.inputs, "files": files,
                "leakage": leakage, "quality": quality, "stats": release.stats,
                "overrides": options.overrides(),
                "coverage": release.coverage, "hf": _hf_section(files)}
    if release.id_conventions:
        manifest["id_conventions"] = release.id_conventions
    if (deliveries := deliveries_section(release.inputs)) is not None:
        release.card_sections = {**release.card_sections, "Lens deliveries": deliveries}
    _write_staged(storage, release, final, blobs, manifest)
    _write_latest(storage, release.dataset, version)
    log.info("published %s %s (%d files)", release.dataset, version, len(files))
    return Published(release.dataset, version, storage.uri(final), created=True)


STALE_STAGING = timedelta(hours=24)
WRITER = ".writer"  # beside a staging folder: the host and pid writing it (`_writer`)
_STAGED_AT = re.compile(r"-(\d{8}T\d{6}Z)-[0-9a-f]{8}$")
_VERSION_DAY = re.compile(r"^(\d{4})\.(\d{2})\.(\d{2})-")


def _staged_at(name: str) -> datetime | None:
    """When a staging folder was started: its `-YYYYMMDDTHHMMSSZ-` stamp, else (older names) its version's day."""
    m = _STAGED_AT.search(name)
    if m:
        return datetime.strptime(m.group(1), "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc)
    m = _VERSION_DAY.match(name)
    if m:
        return datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=timezone.utc) + timedelta(days=1)
    return None


def _writer() -> str:
    """Who writes a staging folder: this host and process (kept beside it as `<folder>.writer`)."""
    return f"{socket.gethostname()} {os.getpid()}"


def _writer_gone(storage: Storage, marker: str) -> bool:
    """Whether the publish that writes a staging folder is dead: its marker names this host and a process that no
    longer runs. No marker, another host or a live process: not known to be gone."""
    try:
        host, pid = storage.read_text(marker).split()
    except (FileNotFoundError, ValueError):
        return False
    return host == socket.gethostname() and pid.isdigit() and not process_alive(int(pid))


def sweep_stale_staging(storage: Storage, dataset: str, now: datetime | None = None,
                        max_age: timedelta = STALE_STAGING) -> list[str]:
    """Remove staging folders a killed publish left behind: those whose writer is known dead (same host, its
    process gone), and any older than `max_age` (a writer on another host); a live publish's folder is left
    alone. Returns the removed names."""
    now = now or datetime.now(timezone.utc)
    removed = []
    names = storage.ls(f"{dataset}/.staging")
    for name in names:
        folder = f"{dataset}/.staging/{name}"
        if name.endswith(WRITER):
            if name.removesuffix(WRITER) not in names:  # its folder was moved into place or swept
                storage.rm(folder)
            continue
        started = _staged_at(name)
        if _writer_gone(storage, folder + WRITER) or (started is not None and now - started > max_age):
            storage.rm(folder, recursive=True)
            storage.rm(folder + WRITER)
            removed.append(name)
    if removed:
        log.info("removed %d stale staging folder(s) of %s: %s", len(removed), dataset, ", ".join(removed))
    return removed


def _write_staged(storage: Storage, release: Release, final: str, blobs: dict[str, ParquetBlob],
                  manifest: dict) -> None:
    sweep_stale_staging(storage, release.dataset)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    staging = f"{release.dataset}/.staging/{manifest['version']}-{stamp}-{uuid.uuid4().hex[:8]}"
    storage.write_text(staging + WRITER, _writer())
    try:
        for rel, blob in blobs.items():
            storage.write_bytes(f"{staging}/{rel}", blob.data)
        plot = render_plot(release.distribution or {"rows": sum(f["rows"] for f in manifest["files"])},
                           release.distribution_title)
        storage.write_bytes(f"{staging}/{PLOT_FILE}", plot)
        card = render_card(manifest, release.card_sections).encode()
        storage.write_bytes(f"{staging}/README.md", card)
        ld = (json.dumps(croissant(manifest, {rel: blob.schema for rel, blob in blobs.items()}), indent=2,
                         ensure_ascii=False) + "\n").encode()
        storage.write_bytes(f"{staging}/{CROISSANT_FILE}", ld)
        manifest["card"] = {"README.md": hashlib.sha256(card).hexdigest(),
                            PLOT_FILE: hashlib.sha256(plot).hexdigest(), CROISSANT_FILE: hashlib.sha256(ld).hexdigest()}
        text = json.dumps(manifest, indent=2, sort_keys=True, default=str) + "\n"
        storage.write_text(f"{staging}/manifest.json", text)
        # every file but the manifest, whose build time would make SHA256SUMS differ between equal builds
        sums = {rel: blob.sha256 for rel, blob in blobs.items()} | manifest["card"]
        storage.write_text(f"{staging}/{SUMS_FILE}", sha256sums(sums))
        for rel, blob in blobs.items():  # verify what landed before making it visible
            if hashlib.sha256(storage.read_bytes(f"{staging}/{rel}")).hexdigest() != blob.sha256:
                raise PublishError(f"staged file {rel} does not match its hash", "storage corrupted the write; retry")
        storage.move_dir(staging, final)
        storage.rm(staging + WRITER)
        storage.rmdir_if_empty(f"{release.dataset}/.staging")  # no empty `.staging/` left in a dataset folder
    except Exception as exc:
        try:
            storage.rm(staging, recursive=True)
            storage.rm(staging + WRITER)
            storage.rmdir_if_empty(f"{release.dataset}/.staging")
        except Exception:  # noqa: BLE001 - cleanup is best effort; the original error matters
            log.warning("could not remove staging folder %s", staging)
        if isinstance(exc, PublishError):
            raise
        raise PublishError(f"publish of {release.dataset} failed: {exc}",
                           "previous version and LATEST are unchanged; fix the cause and rerun") from exc


LATEST_DIR = "latest"


def _write_latest(storage: Storage, dataset: str, version: str) -> None:
    """`LATEST` (the version's name), then `latest/`: a relative symlink locally, a copy of the version on S3
    (object stores have no links; the copy is server-side). A failure to refresh `latest/` is logged: LATEST
    is the record, `latest/` a convenience."""
    storage.write_text(f"{dataset}/LATEST", version + "\n")
    try:
        _point_latest_dir(storage, dataset, version)
    except OSError as exc:
        log.warning("%s: could not refresh %s/ (LATEST says %s): %s", dataset, LATEST_DIR, version, exc)
    if storage.is_s3:  # s3fs caches listings per process: a reader here (eval, datasets) must see the new files
        storage.fs.invalidate_cache()


def _point_latest_dir(storage: Storage, dataset: str, version: str) -> None:
    link = f"{dataset}/{LATEST_DIR}"
    if not storage.is_s3:
        path = Path(storage.path(link))
        tmp = path.with_name(f".{LATEST_DIR}-{uuid.uuid4().hex[:8]}")
        tmp.symlink_to(version, target_is_directory=True)
        if path.exists() and not path.is_symlink():
            storage.rm(link, recursive=True)
        tmp.replace(path)  # atomic swap of the link
        return
    if storage.exists(f"{link}/manifest.json") and json.loads(
            storage.read_text(f"{link}/manifest.json")).get("version") == version:
        return
    src = f"{dataset}/{version}"
    wanted = {rel[len(src) + 1:] for rel in storage.glob(f"{src}/**") if storage.fs.isfile(storage.path(rel))}
    for rel in sorted(wanted - {"manifest.json"}) + ["manifest.json"]:  # the manifest last: it says which version
        storage.fs.copy(storage.path(f"{src}/{rel}"), storage.path(f"{link}/{rel}"))
    for rel in storage.glob(f"{link}/**"):  # files of the previous version that this one does not have
        if storage.fs.isfile(storage.path(rel)) and rel[len(link) + 1:] not in wanted:
            storage.rm(rel)
