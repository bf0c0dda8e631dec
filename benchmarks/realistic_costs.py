"""CPU and memory of parse, `pf parse` and ingest on realistic USPTO weekly files, and the warehouse's zstd level.

Weekly files of distinct documents (benchmarks/uspto_parse.build_weekly: the real v4 documents of
`../shared/real-samples/uspto-xml`, each copy renumbered and its words redrawn, structure and sizes kept):
applications at `--mb` and 4x`--mb` MB (default 20 and 80), grants at `--mb`. Each stage runs in its own child
process, measured by the operating system (CPU = user + system, peak RSS of that process):
  parse:     sources.uspto_bulk.parse_file + Arrow conversion of every batch (no output);
  pf parse:  `pf parse uspto FILE --out OUT.parquet`, the whole command (start-up included);
  ingest:    what `pf ingest uspto` does per weekly file (raw cache, ledger, parse, warehouse parts) into a
             fresh warehouse, the whole process.
Printed: CPU s per MB of XML and per 1,000 documents, peak RSS, and each size's ratio to the `--mb` file's
(the baseline, measured in the same run). Then a size-against-CPU table of the warehouse's Parquet codec over
the `--mb` application file's tables (zstd levels, snappy), ratios against zstd 6, and the level chosen: the
cheapest whose bytes are within 5 % of the smallest.
Last line: `pf_parse_rss_growth: <peak RSS at 4x--mb / at --mb> ratio` (goal <= 1.2).
Usage: python benchmarks/realistic_costs.py [--mb 20]
"""
from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from uspto_parse import build_weekly, seed_documents  # noqa: E402

MEASURE = ("import json, resource, subprocess, sys; rc = subprocess.run(sys.argv[1:]).returncode; "
           "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
           "print(json.dumps({'rc': rc, 'cpu': u.ru_utime + u.ru_stime, 'rss_mb': u.ru_maxrss / 1024}))")
PARSE = ("import sys; from sources.uspto_bulk import parse_file\n"
         "n = 0\nfor b in parse_file(sys.argv[1]):\n    n += b.count('publications'); b.to_arrow()\nprint(n)")
INGEST = ("import sys, logging; logging.disable(logging.INFO)\n"
          "from pathlib import Path\nfrom patentfactory.stages.ingest import ingest_files\n"
          "from patentfactory.stages.ingest_files import USPTO_PARSER_VERSION, stores_for\n"
          "from sources.uspto_bulk import parse_file\n"
          "s = ingest_files(stores_for(sys.argv[2]), 'uspto_bulk', [Path(sys.argv[1])], parse_file, USPTO_PARSER_VERSION)\n"
          "assert s.failed == 0, s")
LEVELS = (("zstd", 1), ("zstd", 3), ("zstd", 6), ("zstd", 9), ("zstd", 12), ("snappy", None))


def measure(cmd: list[str]) -> dict:
    """One command in a fresh measuring process: its CPU and peak RSS as the OS accounts them."""
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", MEASURE, *cmd], capture_output=True, text=True, cwd=REPO)
    got = json.loads(res.stdout.strip().splitlines()[-1])
    assert got["rc"] == 0, res.stderr[-2000:]
    got["wall"] = time.perf_counter() - t
    return got


def docs_in(path: Path) -> int:
    return path.with_suffix(".xml").read_bytes().count(b"<?xml ")


def codec_table(zip_path: Path) -> list[tuple[str, int, float]]:
    """(codec, bytes, CPU s) writing the file's parsed tables as the warehouse does (one part per batch)."""
    import pyarrow.parquet as pq

    from sources.uspto_bulk import parse_file

    batches = [b.to_arrow() for b in parse_file(str(zip_path))]
    out = []
    for codec, level in LEVELS:
        size, c = 0, time.process_time()
        for tables in batches:
            for table in tables.values():
                buf = io.BytesIO()
                pq.write_table(table, buf, compression=codec, compression_level=level, row_group_size=50_000,
                               write_statistics=True, use_dictionary=True)
                size += buf.tell()
        out.append((f"{codec} {level}" if level else codec, size, time.process_time() - c))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=20)
    args = ap.parse_args()
    pf = [sys.executable, "-c", "import sys; from patentfactory.cli.main import app; sys.exit(app(prog_name='pf'))"]
    rows = []
    with tempfile.TemporaryDirectory(prefix="pf-realistic-") as tmp:
        root = Path(tmp)
        files = []
        for kind, mb in (("applications", args.mb), ("applications", 4 * args.mb), ("grants", args.mb)):
            path = root / f"{kind[:3]}{mb}"
            nbytes = build_weekly(path, mb, seed_documents(kind))
            files.append((kind, mb, path.with_suffix(".zip"), nbytes / 2**20, docs_in(path)))
        for kind, mb, path, xml_mb, ndocs in files:
            stages = {"parse": [sys.executable, "-c", PARSE, str(path)],
                      "pf parse": [*pf, "parse", "uspto", str(path), "--out", str(root / f"out{mb}{kind}.parquet")],
                      "ingest": [sys.executable, "-c", INGEST, str(path), str(root / f"data{mb}{kind}")]}
            for stage, cmd in stages.items():
                if kind == "grants" and stage == "ingest":
                    continue
                m = measure(cmd)
                rows.append((kind, mb, stage, xml_mb, ndocs, m))
        codecs = codec_table(files[0][2])
    base = {(r[0], r[2]): r[5] for r in rows if r[1] == args.mb}
    print(f"{'file':18s} {'stage':9s} {'docs':>6s} {'CPU s':>7s} {'s/MB':>6s} {'s/1k docs':>9s} {'RSS MB':>7s}"
          f" {'CPU vs ' + str(args.mb) + 'MB':>11s} {'RSS vs':>7s}")
    for kind, mb, stage, xml_mb, ndocs, m in rows:
        b = base[(kind, stage)]
        print(f"{kind + ' ' + str(mb) + ' MB':18s} {stage:9s} {ndocs:6d} {m['cpu']:7.1f} {m['cpu'] / xml_mb:6.3f}"
              f" {m['cpu'] / ndocs * 1000:9.1f} {m['rss_mb']:7.0f} {m['cpu'] / b['cpu']:11.2f} {m['rss_mb'] / b['rss_mb']:7.2f}")
    app = {(mb, stage): (m["cpu"], x, n) for kind, mb, stage, x, n, m in rows if kind == "applications"}
    for stage in ("parse", "pf parse", "ingest"):
        (c0, x0, n0), (c1, x1, n1) = app[(args.mb, stage)], app[(4 * args.mb, stage)]
        print(f"marginal {stage:9s} (applications {args.mb} -> {4 * args.mb} MB): {(c1 - c0) / (x1 - x0):.3f} CPU s/MB, "
              f"{(c1 - c0) / (n1 - n0) * 1000:.1f} CPU s/1k docs, fixed {c0 - (c1 - c0) / (x1 - x0) * x0:.1f} CPU s")
    ref = next(c for c in codecs if c[0] == "zstd 6")
    smallest = min(c[1] for c in codecs)
    chosen = min((c for c in codecs if c[1] <= 1.05 * smallest), key=lambda c: c[2])
    print(f"\nwarehouse codec over the {args.mb} MB application file's tables (one part per table per batch)")
    print(f"{'codec':10s} {'MB':>7s} {'CPU s':>7s} {'size vs zstd 6':>15s} {'CPU vs zstd 6':>14s}")
    for name, size, cpu in codecs:
        print(f"{name:10s} {size / 2**20:7.2f} {cpu:7.2f} {size / ref[1]:15.2f} {cpu / ref[2]:14.2f}")
    print(f"chosen: {chosen[0]} (cheapest within 5 % of the smallest)")
    rss = {mb: m["rss_mb"] for kind, mb, stage, _x, _n, m in rows if kind == "applications" and stage == "pf parse"}
    print(f"pf_parse_rss_growth: {rss[4 * args.mb] / rss[args.mb]:.2f} ratio")


if __name__ == "__main__":
    main()
