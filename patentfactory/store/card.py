"""Dataset card (README.md) and its distribution plot, both derived from the manifest only.

No timestamps in either, so the same inputs give the same card and PNG bytes. The card starts with
Hugging Face YAML front matter (`hf_layout`: one config per task, split names, licence, citation).
"""
from __future__ import annotations

import io
import json

import matplotlib

from .hf_layout import dataset_info, loading_section, render_front_matter

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLOT_FILE = "distribution.png"


def render_plot(distribution: dict[str, int], title: str, top: int = 40) -> bytes:
    """Bar chart of the largest `top` categories (label or domain distribution)."""
    items = sorted(distribution.items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    fig, ax = plt.subplots(figsize=(max(6, 0.28 * len(items) + 2), 4), dpi=100)
    ax.bar([k for k, _ in items], [v for _, v in items], color="#3b6ea5")
    ax.set_title(title)
    ax.set_ylabel("count")
    ax.tick_params(axis="x", labelrotation=90, labelsize=7)
    return png_bytes(fig)


def png_bytes(fig: "plt.Figure") -> bytes:
    """Lay out, render and close a figure; no Software/time metadata, so the bytes are reproducible."""
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _split_order(split: str) -> tuple[int, str]:
    """train, val, test, then any other split by name (PILOT's corpus, eval): the same column order every run."""
    known = ("train", "val", "test")
    return (known.index(split), "") if split in known else (len(known), split)


def _counts_table(manifest: dict) -> list[str]:
    splits = sorted({f["split"] for f in manifest["files"]}, key=_split_order)
    tasks = sorted({f["task"] for f in manifest["files"]})
    rows = {(f["task"], f["split"]): f["rows"] for f in manifest["files"]}
    lines = ["| task | " + " | ".join(splits) + " | fields |", "|---|" + "---:|" * len(splits) + "---|"]
    for task in tasks:
        fields = next(f["columns"] for f in manifest["files"] if f["task"] == task)
        cells = [f"{rows[(task, s)]:,}" if (task, s) in rows else "–" for s in splits]
        lines.append(f"| {task} | " + " | ".join(cells) + f" | {', '.join(fields)} |")
    total = [f"{sum(v for (t, s), v in rows.items() if s == sp):,}" for sp in splits]
    lines.append("| **total** | " + " | ".join(total) + " | |")
    return lines


def _null_rates(manifest: dict) -> list[str]:
    lines = ["| file | column | null rate |", "|---|---|---:|"]
    for f in manifest["files"]:
        for col, rate in sorted(f.get("null_rates", {}).items()):
            if rate > 0:
                lines.append(f"| {f['path']} | {col} | {rate:.3f} |")
    return lines if len(lines) > 2 else ["No nulls in any published column."]


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) >= 1 else f"{v:.3f}"
    return str(v)


def _changes(manifest: dict, limit: int = 60) -> list[str]:
    """What moved since the previous version (quality gate v2 figures), blocked or not."""
    drift = manifest.get("quality", {}).get("drift", {})
    prev = drift.get("previous_version")
    if not prev:
        return ["First version of this dataset: nothing to compare with."]
    changes = drift.get("changes", [])
    lines = [f"Compared with `{prev}`. Thresholds: "
             + ", ".join(f"{k} {v}" for k, v in sorted(drift.get("thresholds", {}).items()))
             + f"; override (`--allow-drift`) used: {drift.get('override', False)}.", ""]
    if not changes:
        return lines + ["No column moved beyond the reporting floor (1 point of empty rate, 5 % of median "
                        "length, 0.02 label TVD)."]
    lines += ["| file | column | figure | before | after | past threshold |", "|---|---|---|---:|---:|---|"]
    for ch in changes[:limit]:
        lines.append(f"| {ch['path']} | {ch['column']} | {ch['figure']} | {_fmt(ch['before'])} | "
                     f"{_fmt(ch['after'])} | {'**yes** (' + ch['setting'] + ')' if ch['blocked'] else 'no'} |")
    if len(changes) > limit:
        lines.append(f"\n{len(changes) - limit} more in manifest.json (`quality.drift.changes`).")
    return lines


def _id_conventions(manifest: dict) -> list[str]:
    """Which ids a retrieval task's queries and corpus carry, and whether identical ids are ignored."""
    conv = manifest.get("id_conventions") or {}
    lines = ["| task | query id | query's own document in corpus | ignore_identical_ids |", "|---|---|---|---|"]
    for task, c in sorted(conv.items()):
        lines.append(f"| {task} | {c['query_id']} | {'yes' if c['own_document_in_corpus'] else 'no'} | "
                     f"{c['ignore_identical_ids']} |")
    rules = sorted({c["rule"] for c in conv.values()})
    return lines + [""] + [f"- {r}" for r in rules] + [
        "", "Our eval, BEIR (`EvaluateRetrieval.evaluate`) and mteb (the task definitions in "
        "`patentfactory.evaluation.mteb_tasks`) give the same score when run with the setting above."]


def _citation(manifest: dict) -> list[str]:
    info = dataset_info(manifest["dataset"])
    if not info.citation:
        return ["No source paper recorded for this dataset."]
    return [f"This dataset rebuilds the benchmark of {info.paper_url} from public sources; cite the paper:", "",
            "```bibtex", info.citation, "```"]


def render_card(manifest: dict, sections: dict[str, str]) -> str:
    """Markdown card: front matter, counts per task/split, checks, quality gate, provenance and extra sections."""
    info = dataset_info(manifest["dataset"])
    out = [render_front_matter(manifest).rstrip("\n"), "", f"# {manifest['dataset']} — version {manifest['version']}", "",
           f"Code version `{manifest['code_version']}`. Files are Parquet (zstd); layout "
           f"`<task>/<split>.parquet`; hashes in `manifest.json`.", "", "## Tasks and sizes", ""]
    out += _counts_table(manifest)
    out += ["", "## Loading", "", loading_section(manifest), "",
            "Files: `SHA256SUMS` (every file but `manifest.json`; check with `sha256sum -c SHA256SUMS` in this "
            "folder) and `croissant.json` "
            "(Croissant 1.0 JSON-LD of every file and its columns). `../LATEST` holds the newest version's name; "
            "`../latest/` holds a copy of it (a path a glob can go through)."]
    if manifest.get("id_conventions"):
        out += ["", "## Retrieval ids", ""] + _id_conventions(manifest)
    out += ["", "## Licence", "", f"`{info.license}`: {info.license_details}", "", "## Citation", ""]
    out += _citation(manifest)
    out += ["", f"![distribution]({PLOT_FILE})", "", "## Leakage checks", ""]
    for name, res in sorted(manifest["leakage"].items()):
        out.append(f"- **{name}**: {'passed' if res['ok'] else 'FAILED: ' + '; '.join(res['problems'][:5])}")
    q = manifest.get("quality", {})
    out += ["", "## Quality gate", "", f"Compared with previous version: `{q.get('previous_version') or 'none'}`; "
            f"threshold {q.get('threshold')}; override used: {q.get('override', False)}.", ""]
    for line in q.get("drops", []):
        out.append(f"- drop: {line}")
    out += ["", "### Null rates", ""] + _null_rates(manifest)
    out += ["", "## Changes since the previous version", ""] + _changes(manifest)
    for title, body in sections.items():
        out += ["", f"## {title}", "", body.rstrip()]
    out += ["", "## Configuration", "", "```json", json.dumps(manifest["config"], indent=2, sort_keys=True), "```",
            "", "## Inputs", "", f"{len(manifest['inputs'])} upstream items (see manifest.json for sha256 of each)."]
    return "\n".join(out) + "\n"
