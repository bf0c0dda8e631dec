"""The card's counts table orders its split columns the same way in every process: train, val, test, then the
others by name. PILOT publishes `corpus` and `eval` splits; their order used to follow the set's string hashes, so
two runs of the same night wrote different README.md bytes (and SHA256SUMS, manifest)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = """
from patentfactory.store.card import _counts_table
files = [{"task": t, "split": s, "rows": r, "columns": ["a"]} for t, s, r in
         [("all", "eval", 6), ("ocr", "corpus", 14), ("x", "test", 3), ("x", "train", 12), ("x", "val", 3)]]
print(_counts_table({"files": files})[0])
"""


def test_split_columns_do_not_depend_on_the_hash_seed():
    headers = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)}
        out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=REPO, capture_output=True, text=True,
                             check=True)
        headers.add(out.stdout.strip())
    assert headers == {"| task | train | val | test | corpus | eval | fields |"}
