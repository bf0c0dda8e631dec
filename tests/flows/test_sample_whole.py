"""`make run` (the nightly on the embedded sample world, seed 1337) shows every dataset whole (issue 19 item 1).

Every task and split the full build publishes comes out non-empty on the sample run, and eval scores each
(no task skipped, no "no task scorable"). The expected sets come from the task registries, not from what a
build happened to publish, so a task or split gone missing fails here.
"""
from __future__ import annotations

from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from transforms.tasks.ipbench import task_registry as ipbench_tasks
from transforms.tasks.patenteb import task_specs

from .conftest import SAMPLE_NIGHT

pytestmark = [pytest.mark.slow, pytest.mark.services, pytest.mark.xdist_group(SAMPLE_NIGHT)]  # the session's night

PAP2PAT = {("pairs", s) for s in ("train", "val", "test", "nc-test")}
PATENTCR = {("claim_revision", s) for s in ("train", "test")}
PILOT = {("all", "eval")} | {(t, s) for t in ("base", "merge", "split_claim") for s in ("train", "val", "test")}
PILOT_CORPUS = {("ptab_ocr", "corpus"), ("opinion_split", "corpus")}  # corpus releases: published, not scored


def expected() -> dict[str, set[tuple[str, str]]]:
    teb = {(name, split) for name, spec in task_specs().items() for split in spec.splits}
    ipb = {(task_id, "test") for task_id in ipbench_tasks()}
    return {"patenteb": teb, "pap2pat": PAP2PAT, "patentcr": PATENTCR, "pilot": PILOT | PILOT_CORPUS, "ipbench": ipb}


def published_rows(out: Path, dataset: str, version: str) -> dict[tuple[str, str], int]:
    root = out / dataset / version
    return {(f.parent.name, f.stem): pq.ParquetFile(f).metadata.num_rows for f in root.glob("*/*.parquet")}


@pytest.fixture(scope="module")
def sample_run(sample_night) -> tuple[Path, dict]:
    """The session's sample night (tests/flows/conftest.py), also read by tests/flows/test_nightly.py."""
    return sample_night.out, sample_night.result


def test_every_task_and_split_is_published_non_empty(sample_run):
    out, result = sample_run
    assert not result["deferred"] and not result["blocked"], (result["deferred"], result["blocked"])
    for dataset, want in expected().items():
        assert result[dataset] is not None, f"{dataset} not published"
        rows = published_rows(out, dataset, result[dataset]["version"])
        missing = sorted(want - set(rows))
        assert not missing, f"{dataset}: not published: {missing}"
        empty = sorted(k for k, n in rows.items() if n == 0)
        assert not empty, f"{dataset}: published empty: {empty}"
    assert len(expected()["patenteb"]) == 13 * 3 + 2, "15 PatenTEB tasks: 13 with train/val/test, 2 test-only"


def test_eval_scores_every_task(sample_run):
    out, result = sample_run
    for dataset, want in expected().items():
        ev = result["eval"][dataset]
        assert ev["overall"], f"eval {dataset}: no task scorable"
        corpus = {t for t, _ in PILOT_CORPUS} if dataset == "pilot" else set()
        assert set(ev["skipped"]) <= corpus, f"eval {dataset}: skipped {ev['skipped']}"
        scores = pl.read_parquet(ev["scores"])
        scored = {t.split(":", 1)[0] for t in scores["task"].unique().to_list()}
        tasks = {task for task, _ in want} - corpus
        assert tasks <= scored, f"eval {dataset}: not scored: {sorted(tasks - scored)}"
        assert scores["value"].is_not_null().all() and scores["value"].is_finite().all()


def test_cards_state_the_sample_thresholds(sample_run):
    out, result = sample_run
    for dataset in expected():
        card = (out / dataset / result[dataset]["version"] / "README.md").read_text(encoding="utf-8")
        assert "## Thresholds" in card, f"{dataset} card has no Thresholds section"
    teb = (out / "patenteb" / result["patenteb"]["version"] / "README.md").read_text(encoding="utf-8")
    assert "Profile `sample`: family split train/val/test = 0.5/0.25/0.25" in teb
    assert "Lowered from SPEC's defaults (split 0.8/0.1/0.1" in teb


def test_patenteb_scores_do_not_depend_on_the_batches_texts_were_encoded_in(sample_run):
    """Eval reads vectors from the embedding cache, encoded in whatever batches an earlier build or eval formed;
    rescoring the sample's PatenTEB with vectors from shuffled batches of random sizes gives the same scores.parquet."""
    import random

    import numpy as np

    from patentfactory.evaluation import Encoder, evaluate_dataset, load_encoder

    out, result = sample_run
    version = result["patenteb"]["version"]
    published = pl.read_parquet(result["eval"]["patenteb"]["scores"])
    model = load_encoder()
    seen: list[str] = []  # the texts eval encodes, collected with a model-free stand-in
    evaluate_dataset(out, "patenteb", version,
                     encoder=Encoder("collect", lambda ts: seen.extend(ts) or np.ones((len(ts), 4), np.float32)))
    texts = sorted(set(seen))
    assert len(texts) > 100
    rng, order, vectors = random.Random(1), texts[:], {}
    rng.shuffle(order)
    while order:  # batches unlike the published run's: another order, random sizes
        size = rng.randint(3, 64)
        batch, order = order[:size], order[size:]
        vectors.update(zip(batch, np.asarray(model.encode(batch))))
    shuffled = evaluate_dataset(out, "patenteb", version,
                                encoder=Encoder(model.name, lambda ts: np.stack([vectors[t] for t in ts])))
    assert shuffled.frame().equals(published), "a score changed with the batches"
