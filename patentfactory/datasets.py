"""The one registry of the datasets this project rebuilds: one `Dataset` entry each (the pattern of mteb's tasks).

An entry declares what everything else reads by name: the live sources its build needs (the live nightly defers
it when one of them stopped), its plain-Python builder (stages/, what `pf build` runs), its Prefect flow (the
deployment entrypoint in prefect.yaml), how `pf eval` and the `evaluate` flow score it, and what its card states
besides the files (licence, paper, citation: the card's front matter, Licence and Citation sections, Croissant).
The nightly's summary, eval's known datasets, the CLI's help and the deployment check
(tests/core/test_dataset_registry.py) all read `DATASETS`; adding a dataset is one entry here plus its modules.

Builders, flows and scorers are named as `module:function` (flows as prefect.yaml writes them) and imported
only when used: this module sits below stages/, evaluation/ and flows/, so all of them may read it.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from patentfactory.errors import PFError

_PUBLIC_DOMAIN = ("US patent documents and PTAB decisions are works of the US Government (17 U.S.C. 105, public "
                  "domain in the US).")


@dataclass(frozen=True)
class DatasetInfo:
    """What a card states about one dataset besides its files."""

    pretty_name: str
    task_categories: tuple[str, ...]
    license_details: str
    citation: str  # BibTeX of the paper the dataset rebuilds
    paper_url: str
    tags: tuple[str, ...] = ("patents",)
    languages: tuple[str, ...] = ("en",)
    license: str = "other"
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Dataset:
    """One rebuilt dataset. `protocol`: how eval applies `score`: `frames` calls it per published task with its
    train and test frames; `patenteb` is PatenTEB's own protocol (retrieval corpora, probes, clustering)."""

    name: str  # the folder under the publish root, the argument of `pf eval` and the nightly's summary line
    needs: tuple[str, ...]  # live sources the build reads
    build: str  # "module:function", the stages/ builder
    flow: str  # "flows/<file>.py:<function>", the build flow (its deployment's entrypoint)
    score: str  # "module:function", eval's scorer
    card: DatasetInfo
    protocol: Literal["frames", "patenteb"] = "frames"

    @property
    def flow_name(self) -> str:
        """The flow's (and its deployments') name: `build-<name>`."""
        return f"build-{self.name}"

    def builder(self) -> Callable[..., Any]:
        return load(self.build)

    def flow_function(self) -> Callable[..., Any]:
        return load(self.flow)

    def scorer(self) -> Callable[..., Any]:
        return load(self.score)


def load(ref: str) -> Callable[..., Any]:
    """`package.module:function` or `flows/file.py:function` -> the function."""
    module, _, attr = ref.partition(":")
    if module.endswith(".py"):
        module = module.removesuffix(".py").replace("/", ".")
    return getattr(importlib.import_module(module), attr)


DATASETS: tuple[Dataset, ...] = (
    Dataset(
        name="patenteb", needs=("uspto_bulk", "lens"),
        build="patentfactory.stages.build_patenteb:build_and_publish_patenteb",
        flow="flows/build_patenteb.py:build_patenteb",
        score="patentfactory.evaluation.patenteb:evaluate_patenteb", protocol="patenteb",
        card=DatasetInfo(
        "PatenTEB (rebuilt)", ("text-retrieval", "text-classification", "sentence-similarity", "feature-extraction"),
        "Texts from patent publications (title, abstract, first claim) of Lens.org records. " + _PUBLIC_DOMAIN
        + " Lens record metadata: see the Lens terms of use.",
        """@article{ayaou2025patenteb,
  title = {PatenTEB: A Comprehensive Benchmark and Model Family for Patent Text Embedding},
  author = {Ayaou, Iliass and Cavallucci, Denis},
  journal = {arXiv preprint arXiv:2510.22264},
  year = {2025},
}""", "https://arxiv.org/abs/2510.22264", tags=("patents", "mteb", "embedding", "retrieval"))),
    Dataset(
        name="patentcr", needs=(),
        build="patentfactory.stages.build_patentcr:build_and_publish_patentcr",
        flow="flows/build_patentcr.py:build_patentcr",
        score="patentfactory.evaluation.baselines:score_patentcr",
        card=DatasetInfo(
        "Patent-CR (rebuilt)", ("text-generation",),
        "Claims of EP A and B publications retrieved through EPO OPS; reuse of EPO patent documents under the "
        "EPO's terms for patent information.",
        """@inproceedings{jiang2025patentcr,
  title = {Patent-CR: A Dataset for Patent Claim Revision},
  author = {Jiang, Lekang and Scherz, Pascal A. and Goetz, Stephan},
  booktitle = {Proceedings of NAACL 2025 (Volume 1: Long Papers)},
  pages = {2300--2314},
  year = {2025},
}""", "https://arxiv.org/abs/2412.02549", tags=("patents", "text-revision"))),
    Dataset(
        name="ipbench", needs=("uspto_bulk", "lens"),
        build="patentfactory.stages.build_ipbench:build_and_publish_ipbench",
        flow="flows/build_ipbench.py:build_ipbench",
        score="patentfactory.evaluation.zero_shot:score_ipbench",
        card=DatasetInfo(
        "IPBench patent tasks (rebuilt)", ("multiple-choice", "question-answering"),
        "Items built from patent publications and their citations. " + _PUBLIC_DOMAIN,
        """@article{wang2025ipbench,
  title = {IPBench: Benchmarking the Knowledge of Large Language Models in Intellectual Property},
  author = {Wang, Qiyao and Chen, Guhong and Wang, Hongbo and others},
  journal = {arXiv preprint arXiv:2504.15524},
  year = {2025},
}""", "https://arxiv.org/abs/2504.15524", tags=("patents", "intellectual-property"))),
    Dataset(
        name="pilot", needs=("ptab_odp", "uspto_bulk"),
        build="patentfactory.stages.build_pilot:build_and_publish_pilot",
        flow="flows/build_pilot.py:build_pilot",
        score="patentfactory.evaluation.baselines:score_pilot",
        card=DatasetInfo(
        "PILOT-Bench (rebuilt)", ("text-classification",),
        "PTAB ex parte appeal decisions and USPTO patent documents. " + _PUBLIC_DOMAIN,
        """@inproceedings{jang2025pilotbench,
  title = {PILOT-Bench: A Benchmark for Legal Reasoning in the Patent Domain with IRAC-Aligned Classification Tasks},
  author = {Jang, Yehoon and Lee, Chaewon and Min, Hyun-seok and Choi, Sungchul},
  booktitle = {Proceedings of the Natural Legal Language Processing Workshop 2025},
  year = {2025},
}""", "https://arxiv.org/abs/2601.04758", tags=("patents", "legal"))),
    Dataset(
        name="pap2pat", needs=("uspto_bulk",),
        build="patentfactory.stages.build_pap2pat:publish_pap2pat",
        flow="flows/build_pap2pat.py:build_pap2pat",
        score="patentfactory.evaluation.baselines:score_pap2pat",
        card=DatasetInfo(
        "Pap2Pat (rebuilt)", ("text-generation",),
        "US patent applications (" + _PUBLIC_DOMAIN + ") paired with papers under CC-BY, CC0 or public domain "
        "licences; each pair records its paper's licence (`license` column).",
        """@inproceedings{knappich-etal-2025-pap2pat,
  title = {{PAP}2{PAT}: Benchmarking Outline-Guided Long-Text Patent Generation with Patent-Paper Pairs},
  author = {Knappich, Valentin and H{\\"a}tty, Anna and Razniewski, Simon and Friedrich, Annemarie},
  booktitle = {Findings of the Association for Computational Linguistics: ACL 2025},
  pages = {9524--9554},
  year = {2025},
  doi = {10.18653/v1/2025.findings-acl.496},
}""", "https://aclanthology.org/2025.findings-acl.496/", tags=("patents", "long-form-generation"))),
)


def _index(entries: tuple[Dataset, ...]) -> dict[str, Dataset]:
    by_name: dict[str, Dataset] = {}
    for entry in entries:
        if entry.name in by_name:
            raise ValueError(f"dataset {entry.name!r} is registered twice")
        by_name[entry.name] = entry
    return by_name


REGISTRY = _index(DATASETS)
NAMES = tuple(REGISTRY)


def get_dataset(name: str, what: str = "dataset") -> Dataset:
    """The registered dataset `name`; any other name is a user error that lists the known ones."""
    if name not in REGISTRY:
        raise PFError(f"no {what} defined for dataset {name!r}", f"known datasets: {', '.join(NAMES)}")
    return REGISTRY[name]
