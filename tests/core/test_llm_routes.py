"""The LLM routes (stages/llm_routes.py) with the real client against the replica: the opinion split beside the
rule splitter on the same decisions, answers checked (no invented or missing sentence; n short bullets that copy
nothing), one retry then the rule route (flagged, counted), and reruns that send nothing.

Cases: a decision written the way real PTAB decisions are (hand-labelled below), the sample world's decisions as
read from their PDFs' text layer, and the real Pap2Pat golden patent (its sections and its LLM-written bullets).
"""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from common.ptab_cover import strip_cover
from patentfactory.config import Settings
from patentfactory.sim.upstream import Replica, routes_llm
from patentfactory.stages import llm_routes
from patentfactory.stages.llm_checks import check_bullets, check_split, copied_run, split_parts
from patentfactory.stages.llm_routes import FALLBACK_FLAG, LLMBulletWriter, LLMChunkWriter, LLMSplitter
from patentfactory.store.llm_cache import LLMCache
from patentfactory.store.storage import Storage
from sources.llm import ChatClient, InvalidAnswer
from sources.ptab_pdf import parse_decision_pdf
from transforms import opinions
from transforms.opinion_classifier import ClassifierSplitter
from transforms.outlines import LEVELS, add_outlines, iter_sections, num_characters, section_bullets

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
F, E, A, P = "facts", "examiner_findings", "appellant_arguments", "ptab_opinion"
# (paragraph, [(sentence, role)]) in the voice of real ex parte decisions; None: a sub-heading (no role)
REAL_STYLE = [
    ("STATEMENT OF THE CASE", None),
    (None, [("Appellant appeals under 35 U.S.C. § 134(a) from the Examiner's decision to reject claims 1–7.", F),
            ("We have jurisdiction under 35 U.S.C. § 6(b).", F)]),
    (None, [("The claims are directed to a wireless sensor node that adjusts its sampling rate based on the "
             "remaining battery charge.", F),
            ("Claims 1 and 5 are independent.", F)]),
    ("REJECTIONS", None),
    (None, [("Claims 1–4 stand rejected under 35 U.S.C. § 103 as unpatentable over Kim and Ortega.", E),
            ("Claims 5–7 stand rejected under 35 U.S.C. § 112(b) as indefinite.", E)]),
    ("ANALYSIS", None),
    ("Rejection of claims 1–4 under 35 U.S.C. § 103", None),
    (None, [("The Examiner finds that Kim teaches a sensor node with a sampling controller, and relies on Ortega "
             "for adjusting the rate based on battery charge (Final Act. 4–5).", E),
            ("According to the Examiner, it would have been obvious to combine the references to extend battery "
             "life (Final Act. 5).", E)]),
    (None, [("Appellant argues that Ortega adjusts the transmission power, not the sampling rate "
             "(Appeal Br. 6–8).", A),
            ("Appellant further contends that the Examiner's reason to combine lacks rational underpinning "
             "(Appeal Br. 9).", A)]),
    (None, [("Appellant's argument is not persuasive.", P),
            ("Ortega expressly describes lowering the sampling frequency when the charge falls below a threshold "
             "(Ortega col. 3, ll. 10–25).", P),
            ("The Examiner's proposed combination therefore rests on what Ortega teaches, not on hindsight.", P),
            ("The rejection of claims 1–4 is therefore sustained.", P)]),
    ("Rejection of claims 5–7 under 35 U.S.C. § 112(b)", None),
    (None, [("The Examiner determines that the term “substantially continuous” in claim 5 renders the claim "
             "indefinite because the Specification provides no standard for measuring it (Final Act. 7).", E)]),
    (None, [("Appellant responds that paragraph 41 of the Specification explains the term by reference to a "
             "maximum gap of two seconds between samples (Reply Br. 3).", A)]),
    (None, [("We agree with Appellant.", P),
            ("A person of ordinary skill in the art, reading paragraph 41, would understand the scope of the term "
             "with reasonable certainty.", P),
            ("The rejection of claims 5–7 is reversed.", P)]),
    ("DECISION", None),
    (None, [("The Examiner's decision to reject claims 1–4 is affirmed, and to reject claims 5–7 is reversed.",
             P)]),
]


def real_style() -> tuple[str, list[tuple[str, str]]]:
    """The decision's text and its hand labels (STATEMENT OF THE CASE and ANALYSIS only, as the split)."""
    pars, truth, section = ["DECISION ON APPEAL"], [], None
    for head, sents in REAL_STYLE:
        if head:
            pars.append(head)
            section = head if head in ("STATEMENT OF THE CASE", "ANALYSIS", "DECISION") else section
        else:
            pars.append(" ".join(s for s, _ in sents))
            truth += [(r, s) for s, r in sents] if section != "DECISION" else []
    return "\n\n".join(pars), truth


def sample_decisions() -> list[tuple[str, list[tuple[str, str]]]]:
    """The sample world's text-layer decision PDFs as the ingest reads them, with the generator's truth."""
    rows = pq.read_table(SAMPLE / "truth" / "ptab_opinions.parquet").to_pylist()
    out = []
    for row in rows:
        if row["image_only"]:
            continue
        text = parse_decision_pdf((SAMPLE / "ptab" / "pdfs" / f"{row['document_identifier']}.pdf").read_bytes())
        out.append((strip_cover(text.layout_text)[0], list(zip(row["roles"], row["sentences"]))))
    return out


@pytest.fixture(scope="module")
def cases() -> list[tuple[str, list[tuple[str, str]]]]:
    return [real_style(), *sample_decisions()]


@pytest.fixture(scope="module")
def replica(tmp_path_factory, cases):
    """A world whose truth holds the sample's decisions and the hand-labelled real-style one."""
    world = tmp_path_factory.mktemp("llm-world")
    (world / "truth").mkdir()
    rows = pq.read_table(SAMPLE / "truth" / "ptab_opinions.parquet", columns=["sentences", "roles"]).to_pylist()
    text, labels = cases[0]
    rows.append({"sentences": [s for _, s in labels], "roles": [r for r, _ in labels]})
    pq.write_table(pa.Table.from_pylist(rows), world / "truth" / "ptab_opinions.parquet")
    with Replica(world) as rep:
        yield rep


def client(rep: Replica, data: Path, model: str = "replica") -> ChatClient:
    return ChatClient(rep.base_url + "/v1", model, LLMCache(Storage(data)), concurrency=2)


def _f1(split: opinions.OpinionSplit, truth: list[tuple[str, str]]) -> dict:
    return opinions.score_roles([(s.role, s.text) for s in split.sentences], truth)


def test_llm_route_beside_rule_route_on_the_same_decisions(replica, cases, tmp_path):
    llm, rules = LLMSplitter(client(replica, tmp_path)), opinions.RuleSplitter()
    llm.prefetch([t for t, _ in cases])
    by_route = {"rules": [], "llm": []}
    for text, truth in cases:
        for name, splitter in (("rules", rules), ("llm", llm)):
            by_route[name].append(_f1(splitter.split(text), truth))
    table = {name: opinions.f1_table(c) for name, c in by_route.items()}
    print("\nrole | rules F1 | llm F1 | support\n" + "\n".join(
        f"{r} | {table['rules'][r]['f1']} | {table['llm'][r]['f1']} | {table['llm'][r]['support']}"
        for r in opinions.ROLES))
    assert llm.counts == {"llm": len(cases)}, llm.counts
    for role in opinions.ROLES:
        assert table["llm"][role]["f1"] >= 0.95 and table["llm"][role]["f1"] >= table["rules"][role]["f1"] - 1e-9
    # the real-style decision: no sentence in the Board's voice reaches an input role on the LLM route
    split = llm.split(cases[0][0])
    board = {s for r, s in cases[0][1] if r == P}
    assert [s.text for s in split.sentences if s.text in board and s.role != P] == []
    assert [s.text for s in split.sentences] == [s for _, s in cases[0][1]], "headings left out, nothing else"


def test_split_check_refuses_invented_missing_repeated_sentences(cases):
    text, truth = cases[0]
    parts = split_parts(text)
    good = {"sentences": [{"text": s, "role": r} for r, s in truth]}
    assert [s.role for s in check_split(good, parts)] == [r for r, _ in truth]
    spaced = {"sentences": [{"text": "  " + s.replace(" ", "\n ", 1), "role": r} for r, s in truth]}
    assert len(check_split(spaced, parts)) == len(truth), "whitespace is not a change"
    bad = {
        "invented": [*good["sentences"][:3], {"text": "The Board finds the claims novel.", "role": P},
                     *good["sentences"][3:]],
        "altered": [{**good["sentences"][0], "text": good["sentences"][0]["text"].replace("claims", "claim")},
                    *good["sentences"][1:]],
        "left without a role": good["sentences"][:4] + good["sentences"][5:],
        "repeated": good["sentences"][:5] + good["sentences"][4:],
        "last one missing": good["sentences"][:-1],
        "empty": [*good["sentences"], {"text": "  ", "role": F}],
    }
    for name, answer in bad.items():
        with pytest.raises(InvalidAnswer):
            check_split({"sentences": answer}, parts)
            print("accepted:", name)


def test_a_bad_answer_is_asked_once_more_then_goes_to_the_rules_counted(replica, cases, tmp_path):
    text = cases[0][0]
    sloppy = LLMSplitter(client(replica, tmp_path, "replica-sloppy"))
    before = routes_llm.served["replica-sloppy"]
    split = sloppy.split(text)
    assert routes_llm.served["replica-sloppy"] == before + 2 and sloppy.counts == {"llm": 1}
    assert FALLBACK_FLAG not in split.flags and routes_llm.INVENTED not in [s.text for s in split.sentences]
    broken = LLMSplitter(client(replica, tmp_path, "replica-broken"))
    split = broken.split(text)
    assert broken.counts == {"fallback": 1} and "not found in the source" in broken.reasons[0]
    assert FALLBACK_FLAG in split.flags and split.sentences == opinions.RuleSplitter().split(text).sentences
    # a rerun replays both answers from the cache: the same outcome, no request
    served = dict(routes_llm.served)
    again = LLMSplitter(client(replica, tmp_path, "replica-broken"))
    assert again.split(text).flags == split.flags and dict(routes_llm.served) == served
    assert again.counts == {"fallback": 1} and again.client.stats.cache_hits == 2


def _golden(real_samples: Path) -> list[dict]:
    return json.loads((real_samples / "pap2pat" / "patent.json").read_text())["sections"]


def test_real_pap2pat_bullets_pass_the_check_and_copying_fails(real_samples):
    """The release's own LLM-written bullets are what the check lets through; a copied run is not."""
    checked = 0
    for _, sec in iter_sections(_golden(real_samples)):
        for level in LEVELS:
            bullets = sec.get(f"outline_{level}") or []
            if bullets:
                assert check_bullets({"bullets": bullets}, sec["paragraphs"], len(bullets)) == bullets
                checked += len(bullets)
        if sec["paragraphs"]:
            words = sec["paragraphs"][0].split()[:7]
            assert copied_run(" ".join(words), sec["paragraphs"][0])
            with pytest.raises(InvalidAnswer, match="copies"):
                check_bullets({"bullets": [" ".join(words)]}, sec["paragraphs"], 1)
    assert checked >= 20
    with pytest.raises(InvalidAnswer, match="not 2"):
        check_bullets({"bullets": ["describe strains"]}, ["Some text."], 2)


def test_llm_outlines_of_the_real_patent_beside_the_offline_writer(replica, real_samples, tmp_path):
    def bare(secs: list[dict]) -> list[dict]:
        return [{"title": s["title"], "paragraphs": s["paragraphs"], "subsections": bare(s["subsections"])}
                for s in secs]

    writer = LLMBulletWriter(client(replica, tmp_path))
    sections = bare(_golden(real_samples))
    ours, offline = add_outlines(sections, writer), add_outlines(sections, llm_routes.offline_writer())
    for (_, sec), (_, off) in zip(iter_sections(ours), iter_sections(offline)):
        source = "\n".join(sec["paragraphs"])
        for level, c in LEVELS.items():
            assert len(sec[f"outline_{level}"]) == section_bullets(sec["paragraphs"], c)
            assert len(off[f"outline_{level}"]) == len(sec[f"outline_{level}"])
            for b in sec[f"outline_{level}"]:
                assert 2 <= len(b.split()) <= 12 and not copied_run(b, source), b
        print(sec["title"], "| llm:", sec["outline_medium"], "| offline:", off["outline_medium"])
    assert writer.counts["fallback"] == 0 and writer.counts["llm"] > 0
    served = routes_llm.served["replica"]
    assert add_outlines(sections, LLMBulletWriter(client(replica, tmp_path))) == ours
    assert routes_llm.served["replica"] == served, "a rerun sent a request"


def test_a_copying_model_hands_the_section_to_the_offline_writer(replica, real_samples, tmp_path):
    sec = next(s for _, s in iter_sections(_golden(real_samples)) if num_characters(s["paragraphs"]) > 2000)
    writer = LLMBulletWriter(client(replica, tmp_path, "replica-broken"))
    got = writer(sec["paragraphs"], 3)
    assert got == llm_routes.offline_writer()(sec["paragraphs"], 3)
    assert writer.counts == {"fallback": 1} and "copies" in writer.reasons[0]
    sloppy = LLMBulletWriter(client(replica, tmp_path, "replica-sloppy"))
    assert len(sloppy(sec["paragraphs"], 3)) == 3 and sloppy.counts == {"llm": 1}


def test_prefetch_asks_every_section_concurrently_and_the_build_pass_sends_nothing(replica, real_samples, tmp_path):
    sections = [{"title": s["title"], "paragraphs": s["paragraphs"], "subsections": []}
                for _, s in iter_sections(_golden(real_samples))]
    writer = LLMBulletWriter(client(replica, tmp_path))
    served = routes_llm.served["replica"]
    llm_routes.prefetch_outlines(writer, lambda w: add_outlines(sections, w))
    wanted = len({(tuple(s["paragraphs"]), n) for s in sections for c in LEVELS.values()  # the same question once
                  if (n := section_bullets(s["paragraphs"], c))})
    assert routes_llm.served["replica"] - served == wanted == writer.counts["llm"]
    built = add_outlines(sections, writer)
    assert routes_llm.served["replica"] - served == wanted and all(s["outline_long"] for s in built if s["paragraphs"])
    llm_routes.prefetch_outlines(llm_routes.offline_writer(), lambda w: pytest.fail("the offline route records"))


def test_chunk_route_sends_the_authors_chunk_with_headings_and_counts(replica, real_samples, tmp_path):
    """The default LLM route (outline_chunk.v1): one request per chunk of the real patent's description, its headings
    each with its bullet count, N and W; every section gets exactly its budget; one request per level here (the
    description fits the window); the prefetch asks those and the build pass sends nothing."""
    from patentfactory.stages.llm_routes import chunk_message
    from transforms.outlines import chunk_parts

    def bare(secs: list[dict]) -> list[dict]:
        return [{"title": s["title"], "paragraphs": s["paragraphs"], "subsections": bare(s["subsections"])}
                for s in secs]

    sections = bare(_golden(real_samples))
    chunks = {level: chunk_parts(sections, c) for level, c in LEVELS.items()}
    assert [len(c) for c in chunks.values()] == [1, 1, 1]
    message = chunk_message(chunks["long"][0], LEVELS["long"])
    titles = [s["title"] for _, s in iter_sections(sections)]
    assert message.startswith(f"N = {sum(p.n for p in chunks['long'][0])}\nW = 100\n")
    assert all(f" {t} (" in message for t in titles) and "bullet points)" in message
    assert sections[0]["subsections"][0]["paragraphs"][0] in message  # the text goes with its headings
    writer = LLMChunkWriter(client(replica, tmp_path))
    served = routes_llm.served["replica"]
    llm_routes.prefetch_outlines(writer, lambda w: add_outlines(sections, w))
    assert routes_llm.served["replica"] - served == 3 == writer.counts["llm"]
    built = add_outlines(sections, writer)
    assert routes_llm.served["replica"] - served == 3, "the build pass sent a request"
    for (_, sec), (_, gold) in zip(iter_sections(built), iter_sections(_golden(real_samples))):
        for level, c in LEVELS.items():
            assert len(sec[f"outline_{level}"]) == section_bullets(sec["paragraphs"], c) == \
                len(gold.get(f"outline_{level}") or [])
            assert all(not copied_run(b, "\n".join(sec["paragraphs"])) for b in sec[f"outline_{level}"])
    assert llm_routes.route_config(writer)["instruction"] == "outline_chunk.v1"
    broken = LLMChunkWriter(client(replica, tmp_path, "replica-broken"))
    got = add_outlines(sections, broken)
    assert broken.counts == {"fallback": 3} and "heading" in broken.reasons[0] and "copies" in broken.reasons[0]
    assert got == add_outlines(sections, llm_routes.offline_writer())  # the offline writer took every section


def test_the_route_follows_the_settings_unless_named(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import patentfactory.cli.pap2pat  # noqa: F401  (registers `pf build pap2pat`)
    from patentfactory.cli.main import app
    from patentfactory.errors import PFError

    def llm():  # the settings an entry point would build from this environment
        return Settings.load().llm

    monkeypatch.delenv("PF_LLM__BASE_URL", raising=False)
    monkeypatch.setenv("PF_LLM__MODEL", "replica")
    # the default offline split is the trained route since classifier-4 (leave-one-batch-out CV on real decisions)
    assert isinstance(llm_routes.make_splitter(None, tmp_path, llm()), ClassifierSplitter)
    assert llm_routes.make_writer(None, tmp_path, llm()) is llm_routes.offline_writer()
    assert isinstance(llm_routes.make_writer("llm", tmp_path, llm()), LLMBulletWriter), "cache-only: a rebuild offline"
    monkeypatch.setenv("PF_LLM__BASE_URL", "http://127.0.0.1:9/v1")
    assert isinstance(llm_routes.make_splitter(None, tmp_path, llm()), LLMSplitter)
    assert isinstance(llm_routes.make_writer(None, tmp_path, llm()), LLMChunkWriter)
    assert isinstance(llm_routes.make_splitter("rules", tmp_path, llm()), opinions.RuleSplitter)
    monkeypatch.delenv("PF_LLM__MODEL")
    with pytest.raises(PFError, match="PF_LLM__MODEL"):
        llm_routes.make_splitter(None, tmp_path, llm())
    res = CliRunner().invoke(app, ["build", "pap2pat", "--data-dir", str(tmp_path), "--out", str(tmp_path / "out"),
                                   "--outliner", "gpt"])
    assert res.exit_code != 0 and "unknown outliner 'gpt'" in res.output, res.output


def test_an_input_longer_than_the_context_goes_to_the_rules_once(replica, cases, tmp_path):
    """HTTP 400 'maximum context length': not retried, not asked again on a rerun, counted as a fallback."""
    text = cases[0][0]
    small = LLMSplitter(client(replica, tmp_path, "replica-small"))
    split = small.split(text)
    assert small.counts == {"fallback": 1} and "maximum context length" in small.reasons[0]
    assert FALLBACK_FLAG in split.flags
    rerun = LLMSplitter(client(replica, tmp_path, "replica-small"))
    assert rerun.split(text).flags == split.flags and rerun.client.stats.requests == 0
