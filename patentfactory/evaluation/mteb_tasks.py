"""mteb (2.x) task definitions for a published PatenTEB version, loaded by path or `s3://` URL.

    import mteb
    from patentfactory.evaluation.mteb_tasks import patenteb_tasks
    results = mteb.evaluate(model, patenteb_tasks("data/published/patenteb/latest"))

One task per PatenTEB task the version publishes, named `PatenTEB-<task>`:
- retrieval (symmetric and asymmetric): the `<task>-corpus|-queries|-qrels` configs of the test split (mteb's
  `RetrievalDatasetLoader` reads the folder's card; on S3 the same tables through `hf_layout.load_config`),
  `ignore_identical_ids` from the task's id convention (`patenteb_beir.ID_CONVENTIONS`), so mteb, BEIR and
  our eval give one score on the same vectors; main score `ndcg_at_10`.
- classification (`class_text2ipc3`, `class_bloom`): mteb's logistic-regression protocol on `text`/`label`;
  main score `f1` (macro). mteb samples its own training rows: its scores are mteb's, not the paper's probe.
- paraphrase (`para_*`): an mteb STS task on `text1`/`text2` with the 0/1 `label` as its score (range 0–1), as the
  authors register them (their task cards: type STS) and score them (their results table: Pearson r); main score
  `cosine_pearson`, the Pearson r of cosine similarity against the label that our eval reports. (Pair
  classification, mteb's other reading of a labelled pair, would score average precision: not the paper's metric.)
- clustering (`clusters_*`): mteb's clustering on `text`/`label`; main score `v_measure`.
`class_nli_oldnew` has no mteb task type (the paper's probe reads concat(u, v, u − v) to learn the citation
direction; mteb's pair classification scores a symmetric similarity), so it is listed in `NOT_IN_MTEB`.
"""
from __future__ import annotations

from typing import Any

from patentfactory.store.hf_layout import dataset_info, load_config
from transforms.tasks.patenteb import task_specs
from transforms.tasks.patenteb_beir import ignore_identical_ids

NOT_IN_MTEB = {"class_nli_oldnew": "no mteb task type trains a probe on concat(u, v, u - v) of a text pair"}
MAIN_SCORES = {"retrieval": "ndcg_at_10", "asymmetric_retrieval": "ndcg_at_10", "classification": "f1",
               "paraphrase": "cosine_pearson", "clustering": "v_measure"}
_TYPES = {"retrieval": "Retrieval", "asymmetric_retrieval": "Retrieval", "classification": "Classification",
          "paraphrase": "STS", "clustering": "Clustering"}


def task_name(task: str) -> str:
    return f"PatenTEB-{task}"


def _is_remote(uri: str) -> bool:
    return "://" in uri and not uri.startswith("file://")


def _metadata(uri: str, version: str, spec: Any) -> Any:
    from mteb.abstasks.task_metadata import TaskMetadata

    info = dataset_info("patenteb")
    return TaskMetadata(
        name=task_name(spec.name), description=spec.description or f"PatenTEB {spec.name} ({spec.kind})",
        reference=info.paper_url, dataset={"path": uri, "revision": version, "name": spec.name},
        type=_TYPES[spec.kind], category="t2c" if spec.kind in ("classification", "clustering") else "t2t",
        modalities=["text"], eval_splits=["test"], eval_langs=["eng-Latn"], main_score=MAIN_SCORES[spec.kind],
        domains=["Legal", "Engineering"], license="not specified", annotations_creators="derived", dialect=[],
        sample_creation="found", bibtex_citation=info.citation)


class _PublishedVersion:
    """Loading by path (mteb's own loaders over the card's configs) or by URL (the same configs via `load_config`)."""

    storage_options: dict | None = None
    cache_dir: str | None = None  # where `datasets` caches what it read from S3 (default: its own cache)

    def _config(self, name: str) -> Any:
        extra = {"cache_dir": self.cache_dir} if self.cache_dir else {}
        return load_config(self.metadata.dataset["path"], name, self.storage_options, **extra)


def _retrieval_class(spec: Any) -> type:
    from mteb.abstasks.retrieval import AbsTaskRetrieval
    from mteb.abstasks.retrieval_dataset_loaders import RetrievalDatasetLoader, RetrievalSplitData

    class PatenTEBRetrieval(_PublishedVersion, AbsTaskRetrieval):
        def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
            if self.data_loaded:
                return
            uri, task = self.metadata.dataset["path"], self.metadata.dataset["name"]
            self.dataset = {"default": {}}
            for split in self.eval_splits:
                if not _is_remote(uri):
                    self.dataset["default"][split] = RetrievalDatasetLoader(
                        hf_repo=uri, revision=self.metadata.dataset["revision"], split=split, config=task).load()
                    continue
                corpus = self._config(f"{task}-corpus")[split].rename_column("_id", "id")
                queries = self._config(f"{task}-queries")[split].rename_column("_id", "id")
                qrels: dict[str, dict[str, int]] = {}
                for row in self._config(f"{task}-qrels")[split]:
                    qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = int(row["score"])
                self.dataset["default"][split] = RetrievalSplitData(corpus=corpus, queries=queries,
                                                                    relevant_docs=qrels, top_ranked=None)
            self.data_loaded = True

    PatenTEBRetrieval.ignore_identical_ids = ignore_identical_ids(spec.kind)
    return PatenTEBRetrieval


def _columns_class(spec: Any) -> type:
    """Classification, STS (paraphrase) and clustering: the stock loaders, our column names."""
    from mteb.abstasks.classification import AbsTaskClassification
    from mteb.abstasks.clustering import AbsTaskClustering
    from mteb.abstasks.sts import AbsTaskSTS

    base, columns = {
        "classification": (AbsTaskClassification, {"input_column_name": "text", "label_column_name": "label"}),
        "paraphrase": (AbsTaskSTS, {"column_names": ("text1", "text2"), "min_score": 0, "max_score": 1}),
        "clustering": (AbsTaskClustering, {"input_column_name": "text", "label_column_name": "label"}),
    }[spec.kind]

    class PatenTEBColumns(_PublishedVersion, base):  # type: ignore[misc, valid-type]
        def load_data(self, num_proc: int | None = None, **kwargs: Any) -> None:
            if self.data_loaded:
                return
            if not _is_remote(self.metadata.dataset["path"]):
                return super().load_data(num_proc=num_proc, **kwargs)
            self.dataset = self._config(self.metadata.dataset["name"])
            self.dataset_transform(num_proc=num_proc)
            self.data_loaded = True

        def dataset_transform(self, num_proc: int | None = None, **kwargs: Any) -> None:
            if spec.kind == "paraphrase":  # mteb's STS reads its gold from `score`
                self.dataset = self.dataset.rename_column("label", "score")

    for attr, value in columns.items():
        setattr(PatenTEBColumns, attr, value)
    return PatenTEBColumns


def patenteb_tasks(uri: str, storage_options: dict | None = None, tasks: list[str] | None = None,
                   cache_dir: str | None = None) -> list[Any]:
    """One mteb task per PatenTEB task published at `uri` (a version folder, `…/latest`, or `s3://…/<version>`)."""
    import fsspec

    from patentfactory.store.hf_layout import read_front_matter

    opts = storage_options or {}
    fs, root = fsspec.core.url_to_fs(uri, **opts)
    with fs.open(f"{root.rstrip('/')}/manifest.json", "rb") as fh:
        import json

        manifest = json.loads(fh.read())
    with fs.open(f"{root.rstrip('/')}/README.md", "rb") as fh:
        configs = {c["config_name"] for c in read_front_matter(fh.read().decode()).get("configs", [])}
    out = []
    for name, spec in task_specs().items():
        if name in NOT_IN_MTEB or (tasks and name not in tasks) or name not in configs:
            continue
        if spec.kind in ("retrieval", "asymmetric_retrieval") and f"{name}-qrels" not in configs:
            continue  # a version without the retrieval layout
        cls = (_retrieval_class if spec.kind in ("retrieval", "asymmetric_retrieval") else _columns_class)(spec)
        cls.metadata = _metadata(uri, manifest["version"], spec)
        cls.storage_options, cls.cache_dir = storage_options, cache_dir
        cls.__name__ = task_name(name).replace("-", "_")
        out.append(cls())
    return out


__all__ = ["MAIN_SCORES", "NOT_IN_MTEB", "patenteb_tasks", "task_name"]
