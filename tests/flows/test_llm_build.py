"""PILOT built on the LLM route end to end: the sample world's decisions ingested through the replica, split by the
replica's chat-completions endpoint; the manifest and card name route, model and instruction version; a rerun
sends nothing and publishes nothing new; the cache alone rebuilds the version with no endpoint; an endpoint that
is down defers the build (SourceStopped); the plan counts the cache's misses; `--splitter` picks the route."""
from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from patentfactory.config import Settings
from patentfactory.errors import SourceStopped
from patentfactory.sim.upstream import Replica, routes_llm
from patentfactory.stages import plan
from patentfactory.stages.build_pilot import build_and_publish_pilot
from patentfactory.stages.ingest_ptab import ingest_ptab
from patentfactory.stages.llm_plan import llm_costs
from patentfactory.store.inspect import inspect_version
from patentfactory.store.storage import Storage
from tests.conftest import free_port
from transforms import opinions

pytestmark = [pytest.mark.slow, pytest.mark.services]
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
TRUTH = str(SAMPLE / "truth" / "ptab_opinions.parquet")


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    """The sample's PTAB decisions in a warehouse (PDF text layer and OCR), and the replica left running."""
    data = tmp_path_factory.mktemp("llm-build") / "data"
    with Replica(SAMPLE) as rep:
        stats = ingest_ptab(data, rep.base_url, date(2000, 1, 1), date(2100, 1, 1), "replica-key")
        assert stats["pdfs"] == stats["records"] > 0
        yield rep, data


def _env(monkeypatch, base_url: str | None, model: str | None = "replica") -> None:
    for name, value in (("PF_LLM__BASE_URL", base_url), ("PF_LLM__MODEL", model), ("PF_LLM__ATTEMPTS", "2")):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)


def test_pilot_on_the_llm_route_and_beside_the_rules(setup, tmp_path, monkeypatch):
    rep, data = setup
    out = tmp_path / "published"
    _env(monkeypatch, rep.base_url + "/v1")  # set: the LLM route is the default
    served = routes_llm.served["replica"]
    pub = build_and_publish_pilot(data, str(out), truth=TRUTH, llm=Settings.load().llm)
    asked = routes_llm.served["replica"] - served
    report = inspect_version(Storage(out), "pilot", pub.version)
    assert report.ok, report.problems
    route = report.manifest["config"]["split_route"]
    assert route["route"] == "llm" and route["model"] == "replica" and route["instruction"] == "opinion_split.v1"
    assert len(route["instruction_sha256"]) == 64 and report.manifest["config"]["splitter"] == "llm-opinion_split.v1"
    card = (out / "pilot" / pub.version / "README.md").read_text()
    assert "Route `llm`: model `replica`, instruction `opinion_split.v1`" in card
    assert f"{asked} decisions answered by the model; 0 decisions" in card, "every decision asked once, none fell back"
    llm_f1 = report.manifest["stats"]["role_agreement"]["roles"]

    # a rerun: no request, the same version
    again = build_and_publish_pilot(data, str(out), truth=TRUTH, llm=Settings.load().llm)
    assert routes_llm.served["replica"] - served == asked and again.version == pub.version and not again.created

    # no endpoint: the cache alone rebuilds the same version
    _env(monkeypatch, None)
    res = CliRunner().invoke(_app(), ["build", "pilot", "--data-dir", str(data), "--out", str(out), "--truth",
                                      TRUTH, "--splitter", "llm"])
    assert res.exit_code == 0 and f"unchanged pilot {pub.version}" in res.output, res.output

    # the rule route on the same cases, side by side
    rules = build_and_publish_pilot(data, str(out), truth=TRUTH, splitter="rules")
    manifest = inspect_version(Storage(out), "pilot", rules.version).manifest
    assert manifest["config"]["split_route"] == {"route": "rules", "name": opinions.RuleSplitter.name}
    rules_f1 = manifest["stats"]["role_agreement"]["roles"]
    print("\nrole | rules F1 | llm F1\n" + "\n".join(f"{r} | {rules_f1[r]['f1']} | {llm_f1[r]['f1']}" for r in llm_f1))
    assert all(llm_f1[r]["f1"] >= rules_f1[r]["f1"] for r in llm_f1)
    res = CliRunner().invoke(_app(), ["build", "pilot", "--data-dir", str(data), "--out", str(out),
                                      "--splitter", "gemini"])
    assert res.exit_code != 0 and "unknown splitter 'gemini'" in res.output


def test_endpoint_down_defers_and_the_plan_counts_misses(setup, tmp_path, monkeypatch):
    rep, data = setup
    fresh = tmp_path / "data"
    shutil.copytree(data, fresh, ignore=shutil.ignore_patterns("llm"))
    _env(monkeypatch, f"http://127.0.0.1:{free_port()}/v1")
    with pytest.raises(SourceStopped, match="unavailable"):
        build_and_publish_pilot(fresh, str(tmp_path / "published"), llm=Settings.load().llm)

    _env(monkeypatch, rep.base_url + "/v1")
    settings = Settings.load()
    served = routes_llm.served["replica"]
    before = {c.dataset: c for c in llm_costs(settings, fresh)}
    assert before["pilot"].requests > 0 and before["pilot"].input_tokens > 1000 * before["pilot"].requests // 10
    assert before["pilot"].cached == 0 and before["pap2pat"].requests == 0  # no applications in this warehouse
    line = plan._llm(settings, str(fresh)).line()
    assert line.startswith(f"llm: replica at {rep.base_url}/v1: pilot {before['pilot'].requests} requests")
    assert routes_llm.served["replica"] == served, "the plan sent a request"
    build_and_publish_pilot(fresh, str(tmp_path / "published"), llm=settings.llm)
    after = {c.dataset: c for c in llm_costs(settings, fresh)}
    assert after["pilot"].requests == 0 and after["pilot"].cached == before["pilot"].requests


def test_pilot_on_the_trained_classifier_route(setup, tmp_path, monkeypatch):
    """`--splitter classifier`: no endpoint needed; the manifest names the route and its settings, the card reports
    where its blind figure comes from (batch 7), the spent batches it was trained on and its leave-one-batch-out
    figures, and the publish step's Board-voice check ran on its output."""
    _, data = setup
    _env(monkeypatch, None)
    out = tmp_path / "published"
    res = CliRunner().invoke(_app(), ["build", "pilot", "--data-dir", str(data), "--out", str(out), "--truth", TRUTH,
                                      "--splitter", "classifier"])
    assert res.exit_code == 0, res.output
    version = res.output.split()[2]
    report = inspect_version(Storage(out), "pilot", version)
    assert report.ok, report.problems
    config = report.manifest["config"]
    assert config["splitter"] == "classifier-5" and config["split_route"]["route"] == "classifier"
    assert "no_board_voice_in_inputs" in json.dumps(report.manifest)
    pooled = report.manifest["stats"]["reference_scores"]["real"]["pooled_blind"]
    card = (out / "pilot" / version / "README.md").read_text()
    assert "Route `classifier`: `classifier-5`" in card and "Splitter `classifier-5` (a logistic regression" in card
    assert "the blind figure of this splitter comes from batch 7" in card and "Leave-one-batch-out cross-validation" in card
    assert f"Blind batches 1-6 ({pooled['decisions']} decisions) were each scored once when fresh" in card
    assert report.manifest["stats"]["role_agreement"]["roles"]["appellant_arguments"]["f1"] > 0


def _app():
    import patentfactory.cli.pilot  # noqa: F401  (registers `pf build pilot`)
    from patentfactory.cli.main import app
    return app


def test_the_nightly_defers_pilot_when_the_endpoint_is_down(setup, tmp_path, monkeypatch):
    """The flow `build-pilot` as the nightly runs it: a down endpoint is a deferral with one line, not a failure."""
    from prefect import flow

    from flows.build_pilot import build_pilot
    from flows.nightly import _outcome

    rep, data = setup
    fresh = tmp_path / "data"
    shutil.copytree(data, fresh, ignore=shutil.ignore_patterns("llm"))
    _env(monkeypatch, f"http://127.0.0.1:{free_port()}/v1")

    @flow
    def night() -> tuple:
        failed: dict[str, str] = {}
        deferred: dict[str, str] = {}
        state = build_pilot(data_dir=str(fresh), out=str(tmp_path / "published"), return_state=True)
        return _outcome("pilot", state, failed, deferred, {}), failed, deferred

    result, failed, deferred = night()
    assert result is None and failed == {} and list(deferred) == ["pilot"]
    assert "LLM endpoint" in deferred["pilot"] and "\n" not in deferred["pilot"]


def test_pap2pat_outlines_by_the_llm_over_a_whole_build(tmp_path, monkeypatch):
    """The sample's pairs built on the LLM outline route: every bullet of every published outline is a short
    phrase, n per section and level as the rule says, and no run of 6 words of its patent; a rerun sends nothing."""
    from patentfactory.sim.upstream.sparql import sparql_replica
    from patentfactory.stages.build_pap2pat import ingest_semopenalex, publish_pap2pat
    from patentfactory.stages.ingest_files import ingest_uspto
    from patentfactory.stages.llm_checks import MAX_BULLET_WORDS, copied_run
    from transforms.outlines import LEVELS, section_bullets

    data, out = tmp_path / "data", tmp_path / "published"
    with Replica(SAMPLE) as rep, sparql_replica([SAMPLE / "semopenalex" / "works.nq"]) as sparql:
        ingest_uspto(data, rep.base_url, date(2005, 1, 1), date(2100, 1, 1), "key", ("APPXML",))
        ingest = ingest_semopenalex(data, sparql)
        _env(monkeypatch, rep.base_url + "/v1")
        served = routes_llm.served["replica"]
        pub = publish_pap2pat(data, str(out), ingest=ingest, llm=Settings.load().llm)
        asked = routes_llm.served["replica"] - served
        again = publish_pap2pat(data, str(out), ingest=ingest, llm=Settings.load().llm)
        assert routes_llm.served["replica"] - served == asked > 0 and again.version == pub.version
    report = inspect_version(Storage(out), "pap2pat", pub.version)
    assert report.ok, report.problems
    assert report.manifest["config"]["outline_route"]["instruction"] == "outline_chunk.v1"
    import polars as pl

    pairs = pl.concat([pl.read_parquet(p) for p in (out / "pap2pat" / pub.version / "pairs").glob("*.parquet")])
    checked = 0

    def walk(secs: list[dict] | None):
        for sec in secs or []:
            yield sec
            yield from walk(sec.get("subsections"))

    for doc, text in zip(pairs["patent"].to_list(), pairs["patent_text"].to_list()):
        for sec in walk(doc["sections"]):
            for level, c in LEVELS.items():
                bullets = sec[f"outline_{level}"] or []
                assert len(bullets) == section_bullets(sec["paragraphs"], c)
                for b in bullets:
                    assert len(b.split()) <= MAX_BULLET_WORDS and not copied_run(b, text), b
                    checked += 1
    assert pairs.height > 0 and checked >= pairs.height
    card = (out / "pap2pat" / pub.version / "README.md").read_text()
    assert "Route `llm`: model `replica`, instruction `outline_chunk.v1`" in card
    assert "one request per chunk of the description" in card and "with its headings" in card
