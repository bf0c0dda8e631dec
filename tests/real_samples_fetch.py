"""The real samples on a fresh clone: where `../shared/real-samples` is absent, fetch each file from its public
origin pinned by commit (`<origin>/<repo>/<commit>/<path in repo>`, raw.githubusercontent.com by default), check
its sha256 and cache it; the tests read the cache as they would read `../shared`.

`real_samples.lock` (committed) lists every file: its path under real-samples, source repo, path in repo, commit,
sha256, as the provenance tables of the samples' READMEs give them (`volume/pap2pat/`: the commit and path rule
its README states, sha256 of the recorded bytes). Regenerate it from a checkout that has `../shared`:
`python -m tests.real_samples_fetch --write-lock`.
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

LOCK = Path(__file__).with_name("real_samples.lock")
DEFAULT_ORIGIN = "https://raw.githubusercontent.com"
PAP2PAT = ("boschresearch/Pap2Pat", "3bc8bd9838084ff3793eb36a2d100937fa29673d", "Pap2Pat/data")  # volume/README.md


@dataclass(frozen=True)
class Entry:
    path: str  # under real-samples/
    repo: str
    path_in_repo: str
    commit: str
    sha256: str


@dataclass
class Fetched:
    root: Path
    downloaded: int = 0
    cached: int = 0
    failed: list[str] = field(default_factory=list)  # "<path>: <why>"

    @property
    def ok(self) -> bool:
        return not self.failed


def read_lock(path: Path = LOCK) -> list[Entry]:
    rows = [line.split("\t") for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return [Entry(*row) for row in rows]


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def url_of(entry: Entry, origin: str) -> str:
    return f"{origin.rstrip('/')}/{entry.repo}/{entry.commit}/{urllib.parse.quote(entry.path_in_repo)}"


def fetch(entries: list[Entry], cache: Path, origin: str = DEFAULT_ORIGIN, timeout: float = 30) -> Fetched:
    """Every entry into `cache/<path>`: kept when its sha256 matches, else downloaded, checked, then moved in.
    A download that fails or does not match is recorded in `failed`, never written into the cache."""
    out = Fetched(cache)
    for entry in entries:
        target = cache / entry.path
        if target.is_file() and sha256_of(target) == entry.sha256:
            out.cached += 1
            continue
        try:
            with urllib.request.urlopen(url_of(entry, origin), timeout=timeout) as resp:
                data = resp.read()
        except OSError as exc:
            out.failed.append(f"{entry.path}: {exc}")
            continue
        got = hashlib.sha256(data).hexdigest()
        if got != entry.sha256:
            out.failed.append(f"{entry.path}: sha256 {got[:12]}… is not the pinned {entry.sha256[:12]}…")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.part")
        tmp.write_bytes(data)
        tmp.replace(target)
        out.downloaded += 1
    return out


def default_cache() -> Path:
    base = os.environ.get("PF_REAL_SAMPLES_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return Path(base) / "patentfactory" / "real-samples"


def provide(shared: Path, cache: Path | None = None, origin: str | None = None) -> tuple[Path | None, str]:
    """(folder holding the real samples, one line saying where they came from or what is skipped and why)."""
    if shared.is_dir():
        return shared, f"real samples: {shared}"
    entries = read_lock()
    origin = origin or os.environ.get("PF_REAL_SAMPLES_ORIGIN") or DEFAULT_ORIGIN
    got = fetch(entries, cache or default_cache(), origin)
    if got.ok:
        return got.root, (f"real samples: {shared} absent; {len(entries)} files from {origin} pinned by commit and "
                          f"sha256 in {got.root} ({got.downloaded} downloaded, {got.cached} cached)")
    return None, (f"real samples: {shared} absent and {len(got.failed)} of {len(entries)} files not fetched from "
                  f"{origin} (first: {got.failed[0]}); skipping the tests that read real files")


# ---- the lock, from the READMEs' provenance tables --------------------------------------------------------------

_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")


def lock_from_readmes(root: Path) -> list[Entry]:
    """Entries of every provenance table (`| path or file | source repo | path in repo | commit | … | sha256 |`)
    of the READMEs under `root`, plus `volume/pap2pat/` by its README's rule."""
    entries = []
    for readme in sorted(root.rglob("README.md")):
        base, header = readme.parent.relative_to(root), None
        for line in readme.read_text().splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| path |") or line.startswith("| file |"):
                header = cells if "source repo" in cells else None
            elif header and _ROW.match(line):
                row = dict(zip(header, cells))
                rel = (row.get("path") or row["file"]).strip("`")
                rel = rel if (root / rel).is_file() else str(base / rel)
                entries.append(Entry(rel, row["source repo"], row["path in repo"].strip("`"),
                                     row["commit"].split("`")[1], row["sha256"].strip("`")))
            elif not line.startswith("|"):
                header = None
    repo, commit, prefix = PAP2PAT
    for path in sorted((root / "volume" / "pap2pat").rglob("*")):
        if path.is_file() and path.name != "README.md":
            rel = path.relative_to(root / "volume" / "pap2pat")
            entries.append(Entry(str(path.relative_to(root)), repo, f"{prefix}/{rel}", commit, sha256_of(path)))
    return entries


def write_lock(root: Path, path: Path = LOCK) -> int:
    entries = lock_from_readmes(root)
    lines = ["# path\trepo\tpath_in_repo\tcommit\tsha256 (written by tests/real_samples_fetch.py --write-lock)"]
    lines += ["\t".join((e.path, e.repo, e.path_in_repo, e.commit, e.sha256)) for e in entries]
    path.write_text("\n".join(lines) + "\n")
    return len(entries)


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    if sys.argv[1:] == ["--write-lock"]:
        shared = Path(os.environ.get("PF_SHARED_DIR", Path(__file__).resolve().parents[1].parent / "shared"))
        print(f"{write_lock(shared / 'real-samples')} entries written to {LOCK}")
    else:
        print("usage: python -m tests.real_samples_fetch --write-lock")
