"""A published version folder as a Hugging Face dataset repo: the card's YAML front matter.

The files stay where publish writes them (`<task>/<split>.parquet`); the front matter names one config per
task and maps each file to a Hugging Face split name, so `datasets.load_dataset(<version folder or
s3://…/version>, "<config>")` reads every task with its own columns (without it, every task fell into one
`default` config and the schemas clashed). Retrieval layout tables `<task>.corpus|queries|qrels` become the
configs `<task>-corpus|-queries|-qrels`, the names mteb's retrieval loader asks for. Split names follow
Hugging Face (`^\\w+(\\.\\w+)*$`, `validation` for the dev split): `val` -> `validation`, `nc-test` -> `nc_test`;
the files keep their names (older versions read unchanged), the mapping is in the manifest (`hf.split_names`).
Licence, language, task categories, size category, pretty name and the source paper's BibTeX come from
each dataset's entry in the registry (patentfactory/datasets.py).
"""
from __future__ import annotations

import yaml

from patentfactory.datasets import REGISTRY, DatasetInfo

HF_SPLIT_NAMES = {"val": "validation", "nc-test": "nc_test"}
_LAYOUT_PARTS = ("corpus", "queries", "qrels")


def dataset_info(dataset: str) -> DatasetInfo:
    """The dataset's card entry in the registry; a dataset this project does not know gets a neutral one."""
    entry = REGISTRY.get(dataset)
    return entry.card if entry else DatasetInfo(dataset, (), "Not stated for this dataset.", "", "")


def hf_split(split: str) -> str:
    """Published split name -> Hugging Face split name (`val` -> `validation`, `nc-test` -> `nc_test`)."""
    return HF_SPLIT_NAMES.get(split, split)


def config_name(task: str) -> str:
    """`retrieval_IN.corpus` -> `retrieval_IN-corpus` (mteb's loader names); a task table keeps its name."""
    base, _, part = task.rpartition(".")
    return f"{base}-{part}" if base and part in _LAYOUT_PARTS else task


def size_category(rows: int) -> str:
    """Hugging Face's size bucket for a row count."""
    bounds = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
              (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M")]
    return next((label for limit, label in bounds if rows < limit), "100M<n<1B")


_SPLIT_ORDER = ("train", "validation", "test", "nc_test", "eval", "corpus")


def configs(files: list[dict]) -> list[dict]:
    """One config per task: its files under Hugging Face split names, in train/validation/test order."""
    by_task: dict[str, list[dict]] = {}
    for f in files:
        by_task.setdefault(f["task"], []).append(f)
    out = []
    for task in sorted(by_task, key=config_name):
        entries = sorted(({"split": hf_split(f["split"]), "path": f["path"]} for f in by_task[task]),
                         key=lambda e: (_SPLIT_ORDER.index(e["split"]) if e["split"] in _SPLIT_ORDER else 99,
                                        e["split"]))
        out.append({"config_name": config_name(task), "data_files": entries})
    return out


def front_matter(manifest: dict) -> dict:
    """The card's YAML metadata (Hugging Face dataset card fields) for one published version."""
    info = dataset_info(manifest["dataset"])
    meta: dict = {"pretty_name": info.pretty_name, "license": info.license}
    if info.license == "other":
        meta["license_name"] = "upstream-terms"
        meta["license_details"] = info.license_details
    meta["language"] = list(info.languages)
    if info.task_categories:
        meta["task_categories"] = list(info.task_categories)
    meta["tags"] = list(info.tags)
    meta["size_categories"] = [size_category(sum(f["rows"] for f in manifest["files"]))]
    meta["configs"] = configs(manifest["files"])
    return meta


def render_front_matter(manifest: dict) -> str:
    """`---\\n<yaml>---\\n`: the block a Hugging Face card starts with."""
    return "---\n" + yaml.safe_dump(front_matter(manifest), sort_keys=False, allow_unicode=True, width=1000) + "---\n"


def read_front_matter(card: str) -> dict:
    """The YAML block at the top of a card (empty when there is none)."""
    if not card.startswith("---\n"):
        return {}
    end = card.find("\n---\n", 4)
    return yaml.safe_load(card[4:end]) if end > 0 else {}


def data_files(uri: str, config: str, storage_options: dict | None = None) -> dict[str, str]:
    """{Hugging Face split: file URI} of one config of the version at `uri` (a folder or `s3://…`), read from
    its card: what `datasets.load_dataset("parquet", data_files=…)` takes where a repo path is not accepted."""
    import fsspec

    opts = {k: v for k, v in (storage_options or {}).items() if k not in fsspec.available_protocols()}
    fs, root = fsspec.core.url_to_fs(uri, **opts)
    with fs.open(f"{root.rstrip('/')}/README.md", "rb") as fh:
        meta = read_front_matter(fh.read().decode("utf-8"))
    for entry in meta.get("configs", []):
        if entry["config_name"] == config:
            return {f["split"]: f"{uri.rstrip('/')}/{f['path']}" for f in entry["data_files"]}
    raise KeyError(f"{uri}: no config {config!r}; configs: {', '.join(c['config_name'] for c in meta.get('configs', []))}")


def load_config(uri: str, config: str, storage_options: dict | None = None, **kwargs):
    """`datasets.DatasetDict` of one config of a published version, local or on S3.

    Locally `datasets.load_dataset(<folder>, config)` reads the card itself; `datasets` does not read a repo's
    card from a bucket, so for `s3://` the card's data files go to its Parquet loader (same splits, same rows).
    """
    import datasets

    files = data_files(uri, config, storage_options)
    opts = dict(storage_options) if storage_options is not None else None  # datasets adds keys to the dict it gets
    return datasets.load_dataset("parquet", data_files=files, storage_options=opts, **kwargs)


def loading_section(manifest: dict) -> str:
    """How to load this version with `datasets` (and which split names it shows)."""
    names = [c["config_name"] for c in configs(manifest["files"])]
    renamed = sorted({f["split"] for f in manifest["files"]} & set(HF_SPLIT_NAMES))
    lines = [f"{len(names)} configs, one per task: {', '.join(f'`{n}`' for n in names)}.", "",
             "```python", "from datasets import load_dataset",
             f"ds = load_dataset(\"<this folder, e.g. {manifest['dataset']}/{manifest['version']}>\", "
             f"\"{names[0]}\")", "```", "",
             "From S3 (`datasets` does not read a card from a bucket): "
             "`patentfactory.store.hf_layout.load_config(\"s3://…/<version>\", \"<config>\", storage_options)`, "
             "or `load_dataset(\"parquet\", data_files=…)` with the paths listed above."]
    if manifest["dataset"] == "patenteb":
        lines += ["", "mteb (2.x), one task per PatenTEB task, by path or `s3://` URL:", "", "```python",
                  "from patentfactory.evaluation.mteb_tasks import patenteb_tasks",
                  "mteb.evaluate(model, patenteb_tasks(\"<this folder or s3://…>\"))", "```", "",
                  "BEIR: `pf export beir --root <publish root> --out DIR` writes `DIR/<task>/<split>/` for "
                  "`GenericDataLoader(\"DIR/<task>/test\").load(split=\"test\")`."]
    if renamed:
        lines += ["", "Hugging Face split names: " + ", ".join(f"`{s}` files load as `{hf_split(s)}`" for s in renamed)
                  + " (the Parquet files keep their published names)."]
    return "\n".join(lines)


__all__ = ["DatasetInfo", "HF_SPLIT_NAMES", "config_name", "configs", "data_files", "dataset_info",
           "front_matter", "hf_split", "load_config", "loading_section", "read_front_matter", "render_front_matter",
           "size_category"]
