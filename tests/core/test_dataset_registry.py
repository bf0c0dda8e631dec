"""The dataset registry (patentfactory/datasets.py) is what the nightly, eval, the CLI and the deployments read."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest
import yaml
from prefect.logging import disable_run_logger
from typer.testing import CliRunner

import patentfactory.cli.evaluate  # noqa: F401  (registers `pf eval`)
import patentfactory.cli.run  # noqa: F401  (registers `pf build patenteb`)
from flows.nightly_live import defer_stopped, summary_lines
from patentfactory.cli.main import app
from patentfactory.datasets import DATASETS, NAMES, REGISTRY, Dataset, _index, get_dataset
from patentfactory.errors import PFError
from patentfactory.evaluation import evaluate_dataset
from patentfactory.store.hf_layout import dataset_info

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.mark.parametrize("entry", DATASETS, ids=lambda e: e.name)
def test_every_entry_resolves_to_its_builder_flow_and_scorer(entry: Dataset):
    build = inspect.signature(entry.builder())
    assert list(build.parameters)[:2] == ["data_dir", "out_root"], entry.build
    assert "publish_options" in build.parameters, entry.build
    flow = entry.flow_function()
    assert flow.name == entry.flow_name == f"build-{entry.name}"
    assert {"data_dir", "out", "allow_drop", "allow_drift"} <= set(flow.parameters.properties)
    scorer = list(inspect.signature(entry.scorer()).parameters)
    assert scorer[:3] == (["pv", "encoder", "cfg"] if entry.protocol == "patenteb" else ["task", "train", "test"])
    assert entry.card.pretty_name and entry.card.citation.startswith("@")
    assert set(entry.needs) <= {"uspto_bulk", "lens", "ptab_odp"}


def test_a_name_registered_twice_is_refused():
    with pytest.raises(ValueError, match="'pilot' is registered twice"):
        _index(DATASETS + (REGISTRY["pilot"],))


def test_every_registered_dataset_has_a_deployment_and_every_build_deployment_is_registered():
    doc = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    builds = {d["entrypoint"] for d in doc["deployments"] if Path(d["entrypoint"].split(":")[0]).name.startswith("build_")}
    assert builds == {e.flow for e in DATASETS}


def test_the_cli_offers_every_registered_dataset():
    help_eval = runner.invoke(app, ["eval", "--help"], terminal_width=200)
    assert help_eval.exit_code == 0
    assert " | ".join(NAMES) in help_eval.output
    help_build = runner.invoke(app, ["build", "--help"], terminal_width=200)
    assert all(name in help_build.output for name in NAMES), help_build.output


def test_eval_knows_exactly_the_registered_datasets(tmp_path: Path):
    with pytest.raises(PFError) as err:
        evaluate_dataset(tmp_path, "nope")
    assert str(err.value) == f"no evaluation defined for dataset 'nope' (hint: known datasets: {', '.join(NAMES)})"
    assert get_dataset("pilot") is REGISTRY["pilot"]


def test_the_nightly_summary_has_one_line_per_registered_dataset_and_defers_by_needs():
    lines = summary_lines({"skipped": {n: "why" for n in NAMES}})
    assert [line.split(":")[0] for line in lines] == list(NAMES)
    failed = {name: "boom" for name in NAMES}
    deferred = {"source:ptab_odp": "USPTO_ODP_API_KEY is not set"}
    with disable_run_logger():
        defer_stopped(failed, deferred)
    needing = {e.name for e in DATASETS if "ptab_odp" in e.needs}
    assert needing == {"pilot"}
    assert set(failed) == set(NAMES) - needing and needing <= set(deferred)


def test_the_card_states_what_the_registry_says():
    for entry in DATASETS:
        assert dataset_info(entry.name) is entry.card
    assert dataset_info("toy").citation == ""
