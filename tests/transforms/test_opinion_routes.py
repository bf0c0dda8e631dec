"""`pf pilot routes`: each opinion-split route's precision/recall on the reference decisions, side by side; the
LLM route through the real client against the replica's OpenAI-compatible endpoint."""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from patentfactory.cli.main import app
from patentfactory.sim.upstream import Replica
from patentfactory.stages.build_pilot import CLASSIFIER_SCORES, REFERENCE_SCORES
from transforms.opinion_reference import reference_sets

runner = CliRunner()


def _rows(output: str) -> dict[tuple[str, str], list[str]]:
    rows = [[c.strip() for c in ln.split("|")] for ln in output.splitlines() if ln.count("|") == 8]
    assert rows[0][0] == "route"
    return {(r[0], r[1]): r[2:] for r in rows[1:]}


def test_the_rule_route_alone_without_an_endpoint(monkeypatch, tmp_path):
    monkeypatch.delenv("PF_LLM__BASE_URL", raising=False)
    res = runner.invoke(app, ["pilot", "routes", "--data-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    rows = _rows(res.output)
    committed = json.loads(REFERENCE_SCORES.read_text(encoding="utf-8"))
    blind = committed["real"]["blind"]
    assert rows[(committed["splitter"], "real blind")][:2] == [str(blind["decisions"]), str(blind["sentences"])]
    assert rows[(committed["splitter"], "real blind")][2:] == [
        str(blind["roles"][r][k]) for r in ("appellant_arguments", "examiner_findings") for k in ("precision", "recall")
    ] + ["0"]
    assert {s for _, s in rows} == set(reference_sets()) and "PF_LLM__BASE_URL" in res.output
    # the trained route beside the rules, as its committed scores say (its blind batches scored once)
    trained = json.loads(CLASSIFIER_SCORES.read_text(encoding="utf-8"))
    for key, name in (("blind", "real blind"), ("blind_4", "real blind 4"), ("dev", "real dev")):
        part = trained["real"][key]
        assert rows[(trained["splitter"], name)][2:] == [
            str(part["roles"][r][k]) for r in ("appellant_arguments", "examiner_findings") for k in ("precision", "recall")
        ] + [str(part["board_sentences_in_inputs"])]


@pytest.fixture(scope="module")
def replica(tmp_path_factory):
    """A replica whose model knows the real-style decisions' roles (and nothing of the real ones)."""
    world = tmp_path_factory.mktemp("routes-world")
    (world / "truth").mkdir()
    rows = [{"sentences": [t for sec in d["sections"] for p in sec["paragraphs"] for _, t in p.get("sentences", [])],
             "roles": [r for sec in d["sections"] for p in sec["paragraphs"] for r, _ in p.get("sentences", [])]}
            for d in reference_sets()["real-style"]]
    pq.write_table(pa.Table.from_pylist(rows), world / "truth" / "ptab_opinions.parquet")
    with Replica(world) as rep:
        yield rep


def test_the_llm_route_beside_the_rules_when_an_endpoint_is_set(replica, monkeypatch, tmp_path):
    monkeypatch.setenv("PF_LLM__BASE_URL", replica.base_url + "/v1")
    monkeypatch.setenv("PF_LLM__MODEL", "replica")
    res = runner.invoke(app, ["pilot", "routes", "--data-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    rows = _rows(res.output)
    llm = [k for k in rows if k[0].startswith("llm-")]
    assert {s for _, s in llm} == set(reference_sets())
    # a model that knows nothing of the real decisions gives each section its default role: no party sentence
    name = llm[0][0]
    assert rows[(name, "real blind")][3] == "0.0" and rows[(name, "real blind")][5] == "0.0"
    assert float(rows[(name, "real-style")][3]) > 0, "the decisions it knows it attributes"
    assert list(Path(tmp_path).rglob("*")), "answers are cached under --data-dir"


def test_a_new_blind_batch_is_scored_by_one_command(monkeypatch, tmp_path):
    """A batch whose files say `batch: 8` gets its own row per route in `pf pilot routes`, and `--write-scores`
    keeps every committed note and writes the batch's first score as its note (here: a copy of a batch-5 decision
    relabelled as batch 8, the next one since batch 7 was scored, in a copy of the reference folder; the committed
    files are copied, not touched)."""
    import shutil

    from patentfactory.cli.pilot import _write_scores
    from patentfactory.stages import llm_routes
    from patentfactory.config import LLMSettings
    from transforms.opinion_reference import REFERENCE_DIR

    monkeypatch.delenv("PF_LLM__BASE_URL", raising=False)
    ref = tmp_path / "fixtures"
    shutil.copytree(REFERENCE_DIR / "ptab_real", ref / "ptab_real")
    shutil.copytree(REFERENCE_DIR / "ptab_decisions", ref / "ptab_decisions")
    src = (ref / "ptab_real" / "e02-bpai-2002-0884.txt").read_text(encoding="utf-8")
    (ref / "ptab_real" / "h01-copy.txt").write_text(src.replace("batch: 5", "batch: 8").replace(
        "source: ", "source: https://example.invalid/copy-of-"), encoding="utf-8")
    six = len(reference_sets(ref)["real blind 8"])  # the copy, and batch 8's own files once they are committed
    res = runner.invoke(app, ["pilot", "routes", "--reference", str(ref), "--data-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    rows = _rows(res.output)
    routes = {r for r, _ in rows}
    assert len(routes) == 2 and all(rows[(r, "real blind 8")][:1] == [str(six)] for r in routes)
    paths = (tmp_path / "rules.json", tmp_path / "classifier.json")
    shutil.copy(REFERENCE_SCORES, paths[0])
    shutil.copy(CLASSIFIER_SCORES, paths[1])
    splitters = [llm_routes.make_splitter(r, tmp_path, LLMSettings()) for r in ("rules", "classifier")]
    _write_scores(splitters, ref, paths)
    for path, committed_path in zip(paths, (REFERENCE_SCORES, CLASSIFIER_SCORES)):
        new, old = json.loads(path.read_text(encoding="utf-8")), json.loads(committed_path.read_text(encoding="utf-8"))
        assert all(new["real"][k]["note"] == v["note"] for k, v in old["real"].items() if "note" in v)
        part = new["real"]["blind_8"]
        assert part["decisions"] == six and part["note"].startswith(f"First and only blind score, {new['splitter']}")
