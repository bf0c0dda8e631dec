"""A small PatenTEB-shaped release with realistic patent sentences on clearly separated topics.

Topics share no content words, so a query's positive is the only on-topic document of a retrieval
corpus: BM25 and the sentence model should both rank it first (NDCG@10 near 1).
"""
from __future__ import annotations

from datetime import date

import polars as pl

from patentfactory.store.publish import Published, Release, publish
from patentfactory.store.storage import Storage

DAY = date(2026, 11, 23)
TOPICS: dict[str, list[str]] = {
    "H01": [
        "A photovoltaic solar panel with bifacial silicon cells that convert sunlight into electricity.",
        "Solar cell module in which crystalline silicon wafers absorb sunlight and generate photovoltaic current.",
        "A tandem perovskite solar cell raising the photovoltaic conversion efficiency of silicon modules.",
        "Mounting frame that tilts photovoltaic solar modules toward the sun to maximise captured sunlight.",
        "An anti-reflective coating on the glass cover of a solar panel increases light absorption by the cells.",
        "Inverter circuit that tracks the maximum power point of a photovoltaic array under partial shading.",
    ],
    "B60": [
        "A hydraulic brake system for a passenger vehicle with an anti-lock controller acting on each wheel.",
        "Vehicle braking device where brake pads clamp a disc rotor and an ABS valve prevents wheel lock.",
        "Regenerative braking of an electric car recovers kinetic energy while friction brakes stop the wheels.",
        "Brake caliper with a floating piston that presses the pads against the rotating wheel disc.",
        "Electronic stability control modulates brake pressure on individual wheels of the automobile.",
        "A parking brake actuator locks the rear wheels of the vehicle with an electric motor.",
    ],
    "A61": [
        "An oral tablet for controlled release of a drug that dissolves slowly in the patient's stomach.",
        "Pharmaceutical capsule formulation delivering the active drug with sustained release to the patient.",
        "Transdermal patch administering a medicament through the skin of the patient over several days.",
        "Injectable hydrogel depot releasing an antibody drug into the tissue of the patient.",
        "A dosage regimen of the pharmaceutical compound reduces inflammation in arthritis patients.",
        "Inhaler device that delivers a powdered drug formulation to the lungs of an asthma patient.",
    ],
    "H04": [
        "A wireless base station antenna array that forms beams toward mobile handsets in a cellular network.",
        "Beamforming antenna for cellular radio communication steering signals to mobile user equipment.",
        "Handover procedure of a mobile terminal between two base stations of a wireless network.",
        "A radio receiver demodulates orthogonal frequency division multiplexed signals from the antenna.",
        "Network slicing allocates radio resources of the cellular base station to different services.",
        "A mobile phone antenna with a tunable matching circuit covering several frequency bands.",
    ],
}
DISTRACTORS = [  # negatives on topics no query is about: the trivially separable case
    "An inkjet printhead ejects droplets of ink through piezoelectric nozzles onto paper.",
    "Wind turbine rotor blade with a serrated trailing edge that lowers aerodynamic noise.",
    "Irrigation controller schedules sprinkler valves from soil moisture readings in the field.",
    "A bicycle derailleur shifts the chain between rear sprockets with an indexed cable.",
]
TITLES = {"H01": "Bifacial photovoltaic solar module", "B60": "Anti-lock hydraulic vehicle brake",
          "A61": "Sustained release drug capsule", "H04": "Cellular base station beamforming antenna"}
CODES = sorted(TOPICS)


def _next(code: str) -> str:
    return CODES[(CODES.index(code) + 1) % len(CODES)]


def _fid(code: str, i: int) -> str:
    return f"F-{code}-{i}"


def retrieval_in() -> pl.DataFrame:
    """Each query has two on-topic positives; its negative is an off-topic distractor. Family ids as published."""
    rows = []
    for k, (code, s) in enumerate(TOPICS.items()):
        neg, neg_id = DISTRACTORS[k], f"F-X-{k}"
        rows += [(s[0], s[j], neg, _fid(code, 0), _fid(code, j), neg_id, f"P-{code}-0", f"P-{code}-{j}", f"P-X-{k}")
                 for j in (1, 3)]
    return pl.DataFrame(rows, schema=["q_text", "pos_text", "neg_text", "query_id", "pos_id", "neg_id", "q_pub_id",
                                      "pos_pub_id", "neg_pub_id"], orient="row")


def retrieval_in_layout() -> dict[str, dict[str, pl.DataFrame]]:
    """retrieval_IN's corpus / queries / qrels, as the build publishes them."""
    from transforms.tasks.patenteb_beir import beir_tables

    rows = retrieval_in()
    docs = pl.concat([rows.select(pl.col("pos_id").alias("family_id"), pl.col("pos_text").alias("text_no_title")),
                      rows.select(pl.col("neg_id").alias("family_id"), pl.col("neg_text").alias("text_no_title"))]
                     ).unique("family_id").with_columns(pl.lit("").alias("title"))
    return beir_tables("retrieval_IN", ("q_text", "pos_text", "neg_text"), "retrieval", {"test": rows}, docs)


def title2full() -> pl.DataFrame:
    """Ids only in the rows (no layout tables): eval builds the qrels from `query_id` / `doc_id`."""
    return pl.DataFrame([(TITLES[c], f"{s[4]} {s[5]}", _fid(c, 4), _fid(c, 4), f"P-{c}-4") for c, s in TOPICS.items()],
                        schema=["title", "full_text", "query_id", "doc_id", "pub_id"], orient="row")


def classification() -> dict[str, pl.DataFrame]:
    prefixes = ["", "In one embodiment, ", "According to the invention, ", "The disclosure describes that ",
                "In a preferred example, ", "It is claimed that ", "The present application provides that ",
                "Optionally, "]
    train = [(p + s[i], c) for c, s in TOPICS.items() for i in range(4) for p in prefixes]
    test = [(s[i], c) for c, s in TOPICS.items() for i in (4, 5)]
    return {"train": pl.DataFrame(train, schema=["text", "label"], orient="row"),
            "test": pl.DataFrame(test, schema=["text", "label"], orient="row")}


def nli() -> dict[str, pl.DataFrame]:
    """label 1: query's topic sorts before the target's (a learnable direction, not asserted on)."""
    rows = [(TOPICS[a][i], TOPICS[b][j], int(a < b)) for a in CODES for b in CODES if a != b
            for i, j in ((0, 1), (2, 3), (4, 5))]
    df = pl.DataFrame(rows, schema=["q_text", "t_text", "label"], orient="row").with_row_index("_i")
    test = pl.col("_i") % 4 == 0
    return {"train": df.filter(~test).drop("_i"), "test": df.filter(test).drop("_i")}


def paraphrase() -> pl.DataFrame:
    """Positives: two sentences of one topic; negatives: sentences of different topics."""
    rows = [(s[i], s[i + 1], 1) for s in TOPICS.values() for i in (0, 2)]
    rows += [(TOPICS[c][i], TOPICS[_next(c)][i + 1], 0) for c in CODES for i in (0, 2)]
    return pl.DataFrame(rows, schema=["text1", "text2", "label"], orient="row")


def clusters() -> pl.DataFrame:
    return pl.DataFrame([(t, c) for c, s in TOPICS.items() for t in s], schema=["text", "label"], orient="row")


def patenteb_tasks() -> dict[str, dict[str, pl.DataFrame]]:
    """Some tasks of each kind; effect2full has no test split and `legacy_task` is not a PatenTEB task."""
    return {
        "retrieval_IN": {"test": retrieval_in()},
        **retrieval_in_layout(),
        "title2full": {"test": title2full()},
        "effect2full": {"train": pl.DataFrame({"effect": ["reduces wear"], "full_text": ["A brake pad."]})},
        "class_text2ipc3": classification(),
        "class_nli_oldnew": nli(),
        "para_problem": {"test": paraphrase()},
        "clusters_inventor": {"test": clusters()},
        "legacy_task": {"test": pl.DataFrame({"text": ["x"], "label": ["y"]})},
    }


def publish_patenteb(root: str, tasks: dict | None = None) -> Published:
    release = Release(dataset="patenteb", tasks=tasks or patenteb_tasks(), config={"seed": 1},
                      inputs=[{"source": "synthetic", "item": "topics", "sha256": "0" * 64}])
    return publish(Storage(root), release, day=DAY)
