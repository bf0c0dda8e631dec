"""PatenTEB end to end on a hand-built world: every task, exact fields, caps, leak-free splits, determinism."""
from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta

import polars as pl
import pytest

from schemas import CITATIONS, CLAIMS, FAMILIES, PUBLICATIONS
from transforms.splits import check_no_family_leak
from transforms.tasks import TaskRegistry, TaskSpec
from transforms.segments import has_empty_marker
from transforms.tasks.patenteb import (
    ID_COLUMNS, PATENTEB_TASKS, PatenTEBParams, build_patenteb, cap_train_rows, leak_checked, published_columns,
)
from transforms.tasks.patenteb_builders import build_retrieval
from transforms.tasks.patenteb_context import plan_train_queries, prepare_context

CLASSES = ("A61", "C07", "G06", "H04")
VOCAB = {
    "A61": "patient implant catheter dose tablet therapy wound syringe".split(),
    "C07": "compound benzene synthesis ligand ester amine reagent polymer".split(),
    "G06": "processor memory neural cache compiler register pixel software".split(),
    "H04": "antenna carrier packet modulation channel handover beam router".split(),
}
SHARED = "device method system unit layer member portion surface".split()
ABSTRACTS = (
    "PROBLEM TO BE SOLVED: To reduce {a}.\nSOLUTION: A {b} is used. EFFECT: Better {c}. More. SELECTED DRAWING: Fig 1",
    "PROBLEM: {a} loss in {c}. SOLUTION: a {b} with {c}.",
    "PURPOSE: To improve {a}. CONSTITUTION: A {b} is provided on {c}.",
    "[Problem] to avoid {a} [Solution] the {b} holds {c}",
    "FIELD: chemistry, {a} science. SUBSTANCE: {b} of formula I. EFFECT: {c} is stable. USE: drug.",
    "A {a} apparatus. SOLUTION: {b} added. EFFECT: faster {c}. Extra sentence.",
    "Known {a} is slow. SOLUTION: use {b} near {c}.",
    "An apparatus with {a} and {b} for {c}.",
)


def _words(rng: random.Random, cls: str, n: int) -> str:
    return " ".join(rng.choice(VOCAB[cls] + SHARED) for _ in range(n))


def _family_classes(i: int) -> list[str]:
    main = CLASSES[i % 4]
    if i % 3 == 0:
        return [main, CLASSES[(i + 1) % 4]]
    return [main]


def _publication(rng: random.Random, i: int, member: int, classes: list[str]) -> dict:
    cls = classes[0]
    year = 1975 if i % 37 == 5 else 1985 + (i % 30)
    words = {k: _words(rng, cls, 4) for k in "abc"}
    ipc = [f"{c}{chr(66 + j)} {i % 9 + 1}/0{j}" for j, c in enumerate(classes)]
    inventor = f"Inventor {i % 12}"  # one name on 25 families: a person only where an applicant joins them
    return {
        "pub_id": f"{'US' if member == 0 else 'EP'}-{100000 + i * 100 + member}-{'B2' if member == 0 else 'A1'}",
        "country": "US" if member == 0 else "EP", "doc_number": str(100000 + i * 100 + member),
        "kind": "B2" if member == 0 else "A1", "pub_date": date(year, 1 + i % 12, 1) + timedelta(days=member),
        "app_date": date(year - 1, 1 + i % 12, 1), "title": f"{_words(rng, cls, 3)} number {i}",
        "abstract": ABSTRACTS[i % len(ABSTRACTS)].format(**words) + f" {_words(rng, cls, 12)} id{i}",
        "lang": "en" if member == 0 else "de", "ipc": ipc, "ipc3": ipc[0][:3],
        "inventors": [{"name": inventor, "first": None, "last": None, "country": "US"},
                      {"name": f"Helper {i}", "first": None, "last": None, "country": "DE"}],
        "applicants": [{"name": f"Applicant {i % 24 // 12} GmbH", "country": "DE", "kind": "applicant"}],
        "source": "lens",
    }


def _citations_of(i: int, n: int) -> list[int]:
    """Same-class, next-class and a far neighbour: IN, OUT and MIXED pairs all occur."""
    if i % 41 == 7:
        return []
    targets = {(i + 4 * k) % n for k in range(1, 8)} | {(i + 1) % n, (i + 2) % n, (i + 3) % n}
    return sorted(j for j in targets if j != i and j % 43 != 10)  # families 10, 53, ... are never cited


def make_world(n_families: int = 300, seed: int = 7, big_family: bool = True) -> dict[str, pl.LazyFrame]:
    """publications / claims / citations / families as the warehouse would hold them."""
    rng = random.Random(seed)
    pubs, claims, cites, fams = [], [], [], []
    for i in range(n_families):
        classes = _family_classes(i)
        members = 51 if (big_family and i == 11) else (2 if i % 2 else 1)
        for m in range(members):
            pub = _publication(rng, i, m, classes)
            pubs.append(pub)
            fams.append({"family_id": f"F{i:04d}", "pub_id": pub["pub_id"], "family_kind": "simple"})
            claims += [{"pub_id": pub["pub_id"], "claim_no": 2, "text": "The device of claim 1.", "depends_on": [1],
                        "is_independent": False},
                       {"pub_id": pub["pub_id"], "claim_no": 1, "text": f"A {_words(rng, classes[0], 10)}.",
                        "depends_on": [], "is_independent": True}]
        for seq, j in enumerate(_citations_of(i, n_families)):
            cites.append({"citing_pub_id": f"US-{100000 + i * 100}-B2", "seq": seq,
                          "cited_pub_id": f"US-{100000 + j * 100}-B2", "cited_by": "examiner"})
        cites.append({"citing_pub_id": f"US-{100000 + i * 100}-B2", "seq": 99, "cited_npl": "Some paper"})
    fams.append({"family_id": "X0001", "pub_id": pubs[0]["pub_id"], "family_kind": "extended"})

    def lazy(spec, rows):
        return pl.from_arrow(spec.from_pylist(rows)).lazy()

    return {"publications": lazy(PUBLICATIONS, pubs), "claims": lazy(CLAIMS, claims),
            "citations": lazy(CITATIONS, cites), "families": lazy(FAMILIES, fams)}


SMALL = PatenTEBParams(
    seed=3, min_families_per_ipc3=20, negative_depth=60, negative_sources=("bm25",),
    cluster_ipc_min_size=2, cluster_ipc_max_size=8, cluster_inventor_min_size=4, cluster_inventor_max_size=12,
    max_positives_per_query=3, max_triplets_per_query=4,
    complete_families_only=False,  # a small world, as the sample profile builds it (too few segmented abstracts)
)


@pytest.fixture(scope="module")
def world() -> dict[str, pl.LazyFrame]:
    return make_world()


@pytest.fixture(scope="module")
def context(world):
    return prepare_context(world["publications"], world["claims"], world["citations"], world["families"], SMALL)


@pytest.fixture(scope="module")
def built(world):
    return build_patenteb(world["publications"], world["claims"], world["citations"], world["families"], SMALL)


def test_every_task_present_with_exact_fields(built):
    tasks, _ = built
    assert [t for t in tasks if "." not in t] == PATENTEB_TASKS.names() and len(PATENTEB_TASKS.names()) == 15
    for spec in (t.spec for t in PATENTEB_TASKS):
        assert set(tasks[spec.name]) == set(spec.splits)
        for split, df in tasks[spec.name].items():
            assert df.columns == [*spec.fields, *ID_COLUMNS[spec.kind]] == published_columns(spec), (spec.name, split)
            ids = df.select(ID_COLUMNS[spec.kind])
            assert ids.null_count().sum_horizontal().item() == 0, (spec.name, split)
    for name, splits in tasks.items():
        if name not in ("clusters_ext_full_ipc", "clusters_inventor", "effect2substance"):
            assert splits["train"].height > 0, name
        assert splits["test"].height > 0, name


def test_selection_funnel_and_stats(built):
    tasks, stats = built
    funnel = stats["funnel"]
    assert funnel["simple_families"] == 300
    assert funnel["size_ok"] == 299  # the 51-member family is over the cap
    assert funnel["year_ok"] < 300 and funnel["cited_ok"] < 300
    assert stats["selected_families"] == sum(stats["families_by_split"].values()) <= funnel["eligible"]
    assert stats["domains"] == 4
    assert stats["negatives"]["bm25"] > 0 and stats["negatives"]["dense"] == 0
    leaks = check_no_family_leak(leak_checked(tasks))  # publish gates on this check (tests/core: a leak refuses publish)
    assert leaks.ok, leaks.violations
    assert stats["cross_split_pairs_dropped"] > 0
    assert set(stats["params"]) >= {"seed", "min_families_per_ipc3", "bloom_cutoff"}


def test_every_retrieval_split_is_triplets_within_the_caps(built):
    tasks, stats = built
    for name in ("retrieval_IN", "retrieval_MIXED", "retrieval_OUT"):
        for split, df in tasks[name].items():
            assert df.height > 0 and df.select(pl.all().null_count()).sum_horizontal().item() == 0, (name, split)
            per_q = df.group_by("query_id").agg(pl.col("pos_id").n_unique().alias("p"), pl.len().alias("t"))
            assert per_q["p"].max() <= SMALL.max_positives_per_query
            if split == "train":
                assert per_q["t"].max() <= SMALL.max_triplets_per_query
            else:  # one triplet per positive: the qrels keep every positive
                assert (per_q["t"] == per_q["p"]).all(), (name, split)
            assert (df["neg_id"] != df["query_id"]).all() and (df["neg_id"] != df["pos_id"]).all()
    assert sum(stats["null_negatives"].values()) == 0
    lost = stats["retrieval_without_negative"]
    assert sum(v["queries"] for per in lost.values() for v in per.values()) > 0, "the toy world lacks some negatives"


def test_negatives_follow_the_rules_in_every_split(world, built, context):
    """Never the query's family, never in its citation network, from the relation the SPEC names."""
    from transforms.citations import family_citation_edges
    from transforms.ipc import domain_relation

    tasks, _ = built
    edges = family_citation_edges(world["citations"], world["families"], "simple").collect()
    linked = set(zip(edges["citing_family"], edges["cited_family"])) | set(zip(edges["cited_family"],
                                                                                edges["citing_family"]))
    sets = context.families.select("family_id", "ipc3_set")
    allowed = {"retrieval_IN": {"FULL_MIX", "PART_MIX"}, "retrieval_MIXED": {"PART_MIX"}, "retrieval_OUT": {"OUT"}}
    for name, rels in allowed.items():
        for split, df in tasks[name].items():
            assert not any((q, n) in linked for q, n in zip(df["query_id"], df["neg_id"])), (name, split)
            got = (df.select("query_id", "neg_id")
                   .join(sets.rename({"family_id": "query_id", "ipc3_set": "a"}), on="query_id")
                   .join(sets.rename({"family_id": "neg_id", "ipc3_set": "b"}), on="neg_id")
                   .select(domain_relation(pl.col("a"), pl.col("b")).alias("r"))["r"])
            assert set(got) <= rels, (name, split, set(got))


def test_ids_join_rows_back_to_their_families(built, context):
    tasks, _ = built
    fams = context.families.select("family_id", "pub_id", "full_text", "split")
    for split, df in tasks["retrieval_IN"].items():
        for fam, pub, text in (("query_id", "q_pub_id", "q_text"), ("neg_id", "neg_pub_id", "neg_text")):
            joined = df.join(fams, left_on=fam, right_on="family_id")
            assert joined.height == df.height and (joined[pub] == joined["pub_id"]).all()
            assert (joined[text] == joined["full_text"]).all() and (joined["split"] == split).all()
    for split, df in tasks["class_text2ipc3"].items():
        joined = df.join(fams, on="family_id")
        assert (joined["text"] == joined["full_text"]).all() and (joined["split"] == split).all()


def test_retrieval_layout_matches_the_triplets(built):
    tasks, _ = built
    for name in ("retrieval_IN", "title2full"):
        for split, df in tasks[name].items():
            corpus, queries, qrels = (tasks[f"{name}.{p}"][split] for p in ("corpus", "queries", "qrels"))
            assert corpus.columns == ["_id", "title", "text"] and queries.columns == ["_id", "text"]
            assert qrels.columns == ["query-id", "corpus-id", "score"] and (qrels["score"] == 1).all()
            assert corpus["_id"].is_unique().all() and queries["_id"].is_unique().all()
            if name == "retrieval_IN":
                assert set(zip(qrels["query-id"], qrels["corpus-id"])) == set(zip(df["query_id"], df["pos_id"]))
                assert set(corpus["_id"]) == set(df["pos_id"]) | set(df["neg_id"])
            else:  # a title is not its document: its id says so, and never equals a corpus id
                assert set(zip(qrels["query-id"], qrels["corpus-id"])) == {
                    (f"{q}:title", d) for q, d in zip(df["query_id"], df["doc_id"])}
                assert not set(queries["_id"]) & set(corpus["_id"])


def test_no_family_in_two_splits(built):
    tasks, _ = built
    assert check_no_family_leak(leak_checked(tasks)).ok
    split_of = {}
    for split, df in tasks["class_text2ipc3"].items():
        for text in df["text"]:
            assert split_of.setdefault(text, split) == split


def test_labels_and_segments(built):
    tasks, _ = built
    assert set(pl.concat(list(tasks["class_text2ipc3"].values()))["label"]) == set(CLASSES)
    assert set(pl.concat(list(tasks["class_bloom"].values()))["label"]) <= {"early", "late", "normal"}
    assert set(pl.concat(list(tasks["class_nli_oldnew"].values()))["label"]) == {0, 1}
    for name in ("para_problem", "para_solution"):
        labels = pl.concat(list(tasks[name].values()))["label"]
        assert set(labels) == {0, 1} and 0.08 <= labels.mean() <= 0.3, (name, labels.mean())
    p2f = pl.concat(list(tasks["problem2full"].values()))
    assert all(prob not in full for prob, full in p2f.select("problem", "full_text").iter_rows())
    for name in ("problem2full", "effect2full", "problem2solution", "effect2substance", "title2full"):
        targets = pl.concat(list(tasks[name].values())).get_column(PATENTEB_TASKS.get(name).spec.fields[1])
        assert not targets.to_frame().select(has_empty_marker(pl.col(targets.name)).any()).item(), name
    assert not p2f["full_text"].str.contains(r"PROBLEM( TO BE SOLVED)?:|PURPOSE:|\[(?i:problem)\]").any()
    t2f = pl.concat(list(tasks["title2full"].values()))
    assert all(not full.startswith(title) for title, full in t2f.select("title", "full_text").iter_rows())
    assert all("SELECTED DRAWING" not in t for t in pl.concat(list(tasks["class_text2ipc3"].values()))["text"])


def test_clusters_come_from_every_split_and_drop_out_of_bounds(built):
    tasks, stats = built
    for name, lo, hi in (("clusters_inventor", 4, 12), ("clusters_ext_full_ipc", 2, 8)):
        df = tasks[name]["test"]
        sizes = df.group_by("label").len()
        assert sizes.height > 0 and sizes["len"].min() >= lo and sizes["len"].max() <= hi, name
        assert df["family_id"].is_unique().all()
        info = stats["clusters"][name]
        assert info["pool_families"] == stats["selected_families"], "the pool is every selected family"
        assert 0 < info["families_in_test_split"] < info["families"], "test and non-test families both"
    ipc = stats["clusters"]["clusters_ext_full_ipc"]
    assert ipc["dropped_large"] > 0 and stats["clusters"]["clusters_inventor"]["dropped_large"] > 0, "dropped, not cut"
    inv = tasks["clusters_inventor"]["test"]
    assert inv["label"].str.contains(" inventor#").all(), "only the name shared with an applicant forms a cluster"


def test_a_name_alone_never_joins_two_families(built):
    _, stats = built
    people = stats["inventors"]
    # "Inventor k" is on ~25 families with two applicants: it splits into (at least) two inventors per name
    assert people["name_groups_split"] >= 12


def test_determinism_same_seed_identical_frames(world, built):
    again, _ = build_patenteb(world["publications"], world["claims"], world["citations"], world["families"], SMALL)
    tasks, _ = built
    for name, splits in tasks.items():
        for split, df in splits.items():
            assert df.equals(again[name][split]), (name, split)


def test_other_seed_changes_split(world, built):
    other, _ = build_patenteb(world["publications"], world["claims"], world["citations"], world["families"],
                              PatenTEBParams(**{**SMALL.__dict__, "seed": 99}))
    assert not other["class_text2ipc3"]["test"].equals(built[0]["class_text2ipc3"]["test"])


def test_cross_split_duplicates_removed_and_counted(world):
    pubs = world["publications"].with_columns(
        pl.when(pl.col("pub_id").str.slice(3, 6).cast(pl.Int64) % 1000 < 500).then(pl.lit("Same title"))
        .otherwise(pl.col("title")).alias("title"))
    tasks, stats = build_patenteb(pubs, world["claims"], world["citations"], world["families"], SMALL)
    assert stats["removed_duplicates"]["title2full"] > 0
    owners = {s for s, df in tasks["title2full"].items() if "Same title" in set(df["title"])}
    assert owners == {"test"}
    assert check_no_family_leak(leak_checked(tasks)).ok


def test_train_cap_keeps_stratum_minimum():
    df = pl.DataFrame({"text": [f"t{i}" for i in range(100)], "label": ["a"] * 95 + ["b"] * 5,
                       "_stratum": ["a"] * 95 + ["b"] * 5})
    capped = cap_train_rows(df, ["text", "label"], max_rows=20, min_per_stratum=3, seed=0)
    counts = dict(capped.group_by("_stratum").len().iter_rows())
    assert counts["b"] == 3 and counts["a"] == 19


def test_train_cap_quota_does_not_overflow_on_large_strata():
    df = pl.DataFrame({"text": [str(i) for i in range(100_000)], "_stratum": ["a"] * 60_000 + ["b"] * 40_000})
    counts = dict(cap_train_rows(df, ["text"], max_rows=50_000, min_per_stratum=3, seed=0)
                  .group_by("_stratum").len().iter_rows())
    assert counts == {"a": 30_000, "b": 20_000}


def test_train_queries_chosen_before_mining_when_the_cap_can_bite(world):
    params = replace(SMALL, max_train_rows=60, min_rows_per_stratum=2)
    ctx = prepare_context(world["publications"], world["claims"], world["citations"], world["families"], params)
    train = ctx.pairs.filter(pl.col("split") == "train")
    every = train.select("q_family", pl.col("relation_group").alias("group")).unique()
    planned = ctx.train_queries
    assert plan_train_queries(ctx.pairs, ctx.families, SMALL).sort("q_family", "group").equals(
        every.sort("q_family", "group"))  # under the default cap nothing is planned away
    assert 0 < planned.height < every.height
    assert ctx.negatives.filter(pl.col("split") == "train").select("q_family", "group").unique().join(
        planned, on=["q_family", "group"],
                                                                   how="anti").height == 0
    bound = (train.join(planned.rename({"group": "relation_group"}), on=["q_family", "relation_group"], how="semi")
             .group_by("q_family", "relation_group").len()
             .join(ctx.families.select(pl.col("family_id").alias("q_family"), "ipc3"), on="q_family"))
    per_stratum_slack = bound.group_by("relation_group", "ipc3").agg(pl.col("len").max())["len"].sum()
    assert bound["len"].sum() <= 3 * params.max_train_rows + per_stratum_slack
    strata = train.join(ctx.families.select(pl.col("family_id").alias("q_family"), "ipc3"), on="q_family")
    assert bound.select("relation_group", "ipc3").n_unique() == strata.select("relation_group", "ipc3").n_unique()
    for group in ("IN", "MIXED", "OUT"):  # published train rows: whole planned queries, nothing else
        rows = build_retrieval(ctx, group, ("train",))["train"]
        texts = ctx.families.select("family_id", "full_text")
        chosen = planned.filter(pl.col("group") == group).join(texts, left_on="q_family", right_on="family_id")
        assert set(rows["q_text"]) <= set(chosen["full_text"])
        n_pos = train.filter(pl.col("relation_group") == group).group_by("q_family").len()
        mined = ctx.negatives.filter((pl.col("split") == "train") & (pl.col("group") == group)).select("q_family")
        kept = chosen.join(mined.unique(), on="q_family", how="semi").join(n_pos, on="q_family")
        assert set(rows["query_id"]) == set(kept["q_family"]), "a planned query with a negative, nothing else"
        assert rows.height >= kept["len"].clip(upper_bound=params.max_triplets_per_query).sum()


def test_registry_rejects_duplicates_and_bad_specs():
    with pytest.raises(ValueError, match="duplicate"):
        TaskRegistry("x", [PATENTEB_TASKS.get("title2full")] * 2)
    with pytest.raises(ValueError):
        TaskSpec(name="bad", fields=("a", "a"), kind="retrieval", split="test_only", metric="m", version="1.0.0")
    with pytest.raises(ValueError):
        TaskSpec(name="bad", fields=("a",), kind="nope", split="test_only", metric="m", version="1.0.0")
    with pytest.raises(ValueError):
        TaskSpec(name="bad", fields=("a",), kind="retrieval", split="test_only", metric="m", version="1")


def test_representative_prefers_english_with_abstract_then_earliest():
    from transforms.selection import choose_representatives

    pubs = pl.LazyFrame({
        "pub_id": ["JP-1-A", "US-2-B2", "US-3-A1", "EP-4-A1", "US-5-B1"],
        "pub_date": [date(1990, 1, 1), date(1995, 1, 1), date(1992, 1, 1), date(1979, 1, 1), date(1991, 1, 1)],
        "lang": ["ja", "en", "en", "en", "en"],
        "title": ["t", "t", "t", "t", "t"],
        "abstract": ["a", "a", None, "a", "a"],
    })
    fams = pl.LazyFrame({"family_id": ["F1", "F1", "F1", "F2", "F2"],
                         "pub_id": ["JP-1-A", "US-2-B2", "US-3-A1", "EP-4-A1", "US-5-B1"],
                         "family_kind": ["simple"] * 5})
    reps = dict(choose_representatives(pubs, fams, min_year=1980).collect().iter_rows())
    assert reps == {"F1": "US-2-B2", "F2": "US-5-B1"}  # EP-4 is before 1980


def test_family_text_takes_a_members_first_claim_when_the_representative_has_none():
    """A JP representative without claims keeps its (segmented) abstract, and the family text still ends in a
    first claim: that of the member with claims (English first, then earliest)."""
    from transforms.selection import assemble_family_texts, choose_representatives

    pubs = pl.LazyFrame({
        "pub_id": ["JP-1-A", "CN-2-A", "US-3-A1", "JP-4-A", "JP-5-A"],
        "pub_date": [date(1990, 1, 1), date(1991, 1, 1), date(1992, 1, 1), date(1993, 1, 1), date(1994, 1, 1)],
        "lang": ["en", "zh", "en", "en", "en"], "title": ["t1", "t2", "t3", "t4", "t5"],
        "abstract": ["PROBLEM: a. SOLUTION: b.", "a", "a", "PROBLEM: c.", "a"],
        "app_date": [date(1989, 1, 1)] * 5, "inventors": [None] * 5, "ipc": [["H01L"]] * 5},
        schema_overrides={"inventors": pl.List(pl.Struct({"name": pl.String})), "ipc": pl.List(pl.String)})
    fams = pl.LazyFrame({"family_id": ["F1", "F1", "F1", "F2", "F3"],
                         "pub_id": ["JP-1-A", "CN-2-A", "US-3-A1", "JP-4-A", "JP-5-A"], "family_kind": ["simple"] * 5})
    claims = pl.LazyFrame({"pub_id": ["CN-2-A", "US-3-A1", "JP-4-A"], "claim_no": [1, 1, 1],
                           "text": ["A device.", "A lamp.", "A cell."]})
    reps = choose_representatives(pubs.drop("lang").with_columns(pl.lit("en").alias("lang")), fams, min_year=1980)
    texts = {r["family_id"]: r for r in assemble_family_texts(reps, pubs, claims, " | ", fams).collect().iter_rows(
        named=True)}
    assert texts["F1"]["pub_id"] == "JP-1-A" and texts["F1"]["abstract"].startswith("PROBLEM")
    assert texts["F1"]["full_text"] == "t1 | PROBLEM: a. SOLUTION: b. | A lamp.", "the English member's claim"
    assert texts["F2"]["claim1"] == "A cell." and texts["F3"]["claim1"] is None
    assert assemble_family_texts(reps, pubs, claims).collect().filter(
        pl.col("family_id") == "F1")["claim1"].item() is None, "without families: the representative's own only"


def test_complete_families_only_keeps_the_papers_population(world, context):
    """The paper's completeness filter is the default (the full profile's population): every selected family has
    a segmented abstract; the sample profile keeps the other reading. Both count the same candidates."""
    from patentfactory.stages.build_patenteb import make_params

    assert PatenTEBParams().complete_families_only and make_params(1, "full").complete_families_only
    assert not make_params(1, "sample").complete_families_only, "a small world keeps every task"
    params = replace(SMALL, complete_families_only=True, min_families_per_ipc3=1)
    ctx = prepare_context(world["publications"], world["claims"], world["citations"], world["families"], params)
    assert 0 < ctx.stats["selected_families"] == ctx.stats["segmented_families"]
    assert ctx.families["seg_pattern"].null_count() == 0
    assert context.stats["selected_families"] > context.stats["segmented_families"], "off: incomplete ones kept"
    on, off = ctx.stats["completeness"], context.stats["completeness"]
    assert on["applied"] and not off["applied"]
    assert (on["candidates"], on["complete"]) == (off["candidates"], off["complete"]), "counted before the filter"
    assert on["complete"] == ctx.stats["selected_families"] and on["incomplete"] == on["candidates"] - on["complete"]
    assert off["complete"] >= context.stats["segmented_families"], "the per-IPC3 minimum may drop complete ones"


def test_texts_truncated_to_token_budget_and_counted(world):
    from transforms.selection import count_whitespace_tokens

    params = PatenTEBParams(**{**SMALL.__dict__, "max_tokens": 25})
    tasks, stats = build_patenteb(world["publications"], world["claims"], world["citations"], world["families"],
                                  params, count_tokens=count_whitespace_tokens)
    assert stats["truncated_texts"] > 0
    texts = pl.concat(list(tasks["class_text2ipc3"].values()))["text"].to_list()
    assert max(count_whitespace_tokens(texts)) <= 25


def test_family_text_joins_title_abstract_first_claim_with_separator():
    from transforms.selection import assemble_family_texts

    reps = pl.LazyFrame({"family_id": ["F1", "F2"], "pub_id": ["P1", "P2"]})
    pubs = pl.LazyFrame({"pub_id": ["P1", "P2"], "title": ["T1", "T2"], "abstract": ["A1", None],
                         "app_date": [None, None], "inventors": [[], []], "ipc": [[], []]},
                        schema_overrides={"app_date": pl.Date})
    claims = pl.LazyFrame({"pub_id": ["P1", "P1", "P2"], "claim_no": [2, 1, 1], "text": ["C2", "C1", "D1"]})
    out = assemble_family_texts(reps, pubs, claims, separator=" [SEP] ").collect().sort("family_id")
    assert out["full_text"].to_list() == ["T1 [SEP] A1 [SEP] C1", "T2 [SEP] D1"]


def test_a_family_only_cited_from_outside_the_export_counts_as_cited(world):
    """Lens reports citers that are not in the export: `cited_by_count` alone makes a family "cited"."""
    from transforms.citations import family_citation_edges
    from transforms.tasks.patenteb_context import plan_family_selection

    edges = family_citation_edges(world["citations"], world["families"], "simple")

    def flags(pubs: pl.LazyFrame) -> pl.DataFrame:
        return plan_family_selection(pubs, world["claims"], world["families"], edges, SMALL)[0].collect()

    before = flags(world["publications"])
    never_cited = before.filter(~pl.col("cited_ok") & pl.col("year_ok") & pl.col("size_ok"))["family_id"].to_list()
    assert "F0053" in never_cited  # families 10, 53, ... have no citer in the warehouse
    reported = world["publications"].with_columns(
        pl.when(pl.col("pub_id") == "EP-105301-A1").then(3).otherwise(None).cast(pl.Int32).alias("cited_by_count"))
    after = flags(reported)
    row = after.filter(pl.col("family_id") == "F0053").row(0, named=True)
    assert row["cited_ok"] and row["n_cited_by"] == 0 and row["n_cited_reported"] == 3
    assert after["cited_ok"].sum() == before["cited_ok"].sum() + 1
    # a reported 0 does not make a family uncited that the warehouse shows cited
    zeros = world["publications"].with_columns(pl.lit(0, dtype=pl.Int32).alias("cited_by_count"))
    assert flags(zeros)["cited_ok"].equals(before["cited_ok"])


def test_card_departures_carry_the_builds_counts(built):
    from patentfactory.stages.patenteb_card import departures, sizes

    _, stats = built
    text = departures(stats, SMALL, "sample", 0.01)
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(bullets) >= 8 and all(any(ch.isdigit() for ch in b) for b in bullets), "every departure has a count"
    lost = stats["retrieval_without_negative"]["MIXED"]["train"]
    assert f"train {lost['queries']} queries / {lost['positives']} pairs" in text
    people = stats["inventors"]
    assert f"{people['name_groups_split']} of {people['name_groups']} name groups" in text
    assert f"IPC 200–1000 → {SMALL.cluster_ipc_min_size}–{SMALL.cluster_ipc_max_size}" in text and "×0.01" in text
    inv = stats["clusters"]["clusters_inventor"]
    assert f"clusters_inventor {inv['families_in_test_split']} of {inv['families']}" in text
    assert "Null negatives published: 0." in text and "rows still holding an empty marker: 0." in text
    ipc = stats["class_labels"]["class_text2ipc3"]
    assert f"class_text2ipc3** has {len({c for per in ipc.values() for c in per})} classes" in text
    assert set(stats["class_labels"]["class_bloom"]) <= {"train", "val", "test"}
    no_claim = stats["texts_without_claim"]
    assert f"them: {no_claim['claim_from_another_member']} texts" in text
    assert f"first claim: {no_claim['families']} of {stats['selected_families']}" in text
    neg = stats["negatives_published"]
    assert f"BM25 {neg['bm25']:,}, dense {neg['dense']:,}" in text
    comp = stats["completeness"]
    assert "**Population** (not the paper's)" in text and \
        f"{comp['incomplete']:,} of {comp['candidates']:,} eligible families with a text have none" in text
    paper = departures({**stats, "completeness": {**comp, "applied": True}}, SMALL, "full", None)
    assert "**Population** (the paper's)" in paper and \
        f"{comp['complete']:,} of {comp['candidates']:,} eligible families with a text are complete" in paper
    from patentfactory.stages.patenteb_card import reproducing
    assert f"({stats['selected_families']:,} families here, 150,000 in the paper)" in reproducing(stats)
    table = sizes(stats)
    assert f"| retrieval_IN | 150,000 / 15,806 / 15,809 | {stats['rows']['retrieval_IN']['train']:,} /" in table


def test_every_published_table_meets_its_schema(built):
    import pyarrow as pa

    from schemas import SchemaError, validate
    from schemas.patenteb import patenteb_table

    tasks, _ = built
    for name, splits in tasks.items():
        for split, df in splits.items():
            if df.height:
                validate(df.to_arrow(), patenteb_table(name))
    doubled = tasks["retrieval_IN"]["test"].head(1).vstack(tasks["retrieval_IN"]["test"].head(1))
    with pytest.raises(SchemaError):
        validate(doubled.to_arrow(), patenteb_table("retrieval_IN"))  # a duplicate triplet breaks the key
    with pytest.raises(SchemaError):
        validate(pa.table({"_id": ["a"], "title": [""], "text": [None]}, schema=pa.schema(
            [("_id", pa.string()), ("title", pa.string()), ("text", pa.string())])), patenteb_table("title2full.corpus"))
