"""The layers hold: pyproject.toml's import-linter contracts pass on the tree and fail on an upward import."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("patentfactory", "flows", "transforms", "sources", "schemas", "common")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")], cwd=root,
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_tree_keeps_its_layers():
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Contracts: 2 kept, 0 broken." in run.stdout


@pytest.fixture(scope="module")
def copy_of_tree(tmp_path_factory) -> Path:
    """The six packages and pyproject.toml, copied, so a bad import can be added without touching the tree."""
    root = tmp_path_factory.mktemp("layers")
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, root / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.md"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("sources/_upward.py", "from transforms import families", "sources is not allowed to import transforms"),
    ("patentfactory/store/_upward.py", "from patentfactory.stages import windows",
     "patentfactory.store is not allowed to import patentfactory.stages"),
    ("patentfactory/stages/_upward.py", "from patentfactory.evaluation import run",
     "patentfactory.stages is not allowed to import patentfactory.evaluation"),
    ("flows/_upward.py", "from patentfactory.cli import main", "flows is not allowed to import patentfactory.cli"),
    ("common/_upward.py", "from patentfactory import errors", "common is not allowed to import patentfactory"),
    ("patentfactory/datasets.py", "from patentfactory.store import storage",
     "patentfactory.datasets is not allowed to import patentfactory.store"),
])
def test_an_upward_import_breaks_the_contract(copy_of_tree: Path, module: str, line: str, broken: str):
    bad = copy_of_tree / module
    original = bad.read_text() if bad.exists() else None
    header = original if original is not None else '"""An import against the layers."""\n'
    bad.write_text(f"{header}{line}\n")
    try:
        run = lint_imports(copy_of_tree)
    finally:
        bad.write_text(original) if original is not None else bad.unlink()
    assert run.returncode == 1, run.stdout
    assert broken in run.stdout
    assert f"{module[:-3].replace('/', '.')} ->" in run.stdout  # the offending line is named
