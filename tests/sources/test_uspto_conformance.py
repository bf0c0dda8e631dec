"""Conformance: every real USPTO file in ../shared/real-samples/uspto-xml parses to the values read by hand."""
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from schemas import CITATIONS, CLAIMS, DESCRIPTIONS, PUBLICATIONS, validate
from sources.records import ParseResult
from sources.uspto_bulk import detect_format, iter_documents, parse_file

# file -> (documents, format, {pub_id: expectations}); values read from the XML by hand.
EXPECTED: dict[str, tuple[int, str, dict[str, dict]]] = {
    "grant_us10000000b2_14643719.xml": (1, "v4", {"US-10000000-B2": dict(
        title="Coherent LADAR using intra-pixel quadrature detection", n_claims=20,
        claim1="A laser detection and ranging (LADAR) system, comprising:", dep=(2, [1]),
        ipc=["G01S 7/48", "G01S 7/486", "G01S 7/491", "G01S 13/89"], ipc3="G01",
        cpc_first="G01S 7/4863", inventor="Joseph Marron", app_id="US-14643719", pub_date=date(2018, 6, 19),
        citation=("US-5093563-A", "examiner"), doc_type="utility")}),
    "ipg120327.two.xml": (2, "v4", {
        "US-D656308-S1": dict(title="Replaceable cartridge for a pain management system", n_claims=1,
                              claim1="The ornamental design for the replaceable cartridge", ipc=[], ipc3=None,
                              inventor="Kin-Joe Sham", citation=("US-D621603-S", "examiner"), doc_type="design",
                              app_id="US-29379369", assignee="OrthoCor Medical, Inc."),
        "US-D656309-S1": dict(title="Universal remote control accessory for a mobile device", n_claims=1,
                              citation=("US-D406191-S", "examiner"), doc_type="design")}),
    "ipg120327.18.xml": (18, "v4", {
        "US-D656296-S1": dict(title="Ready to eat snack piece", n_claims=1, doc_type="design", inventor="Nicole Cavin"),
        "US-D656313-S1": dict(title="Handbag", n_claims=1, doc_type="design", inventor="Jean-Louis Dumas")}),
    "ipa130117.one.xml": (2, "v4", {
        "US-20130014308-A1": dict(title="TYPING-MATE", claim1="A finger nail tip cover appliance",
                                  ipc=["A41D 13/08"], doc_type="application", inventor="Yennifer Feliciano"),
        "US-20130014306-A1": dict(title="TACTICAL MIXED MARTIAL ARTS GLOVE", ipc=["A41D 13/08", "A41D 19/02"],
                                  claim1="An improved glove employable by a user for mixed martial arts",
                                  related=("provisional", "61433841"))}),
    "ipg100824-hyphenated.xml": (1, "v4", {"US-7783348-B2": dict(
        title="Stimulation device for treating osteoarthritis", n_claims=25, dep=(2, [1]),
        claim1="A portable, non-invasive device for providing therapeutic treatment to a knee joint",
        ipc=["A61N 1/18"], ipc3="A61", citation=("US-4240445-A", "other"), assignee="OrthoCor Medical, Inc.")}),
    "ipa20200022300.xml": (1, "v4", {"US-20200022300-A1": dict(
        title="SYSTEM FOR CONTROLLING THE OPERATION OF AN ACTUATOR MOUNTED ON A SEED PLANTING IMPLEMENT",
        n_claims=19, claim1="A system for controlling an operation of an actuator mounted on a seed planting",
        dep=(4, [3]), ipc3="A01", inventor="Joel John Octave Gervais", app_id="US-16039511",
        applicant="CNH Industrial Canada, Ltd.", doc_type="application")}),
    "ipa20180000016.xml": (1, "v4", {"US-20180000016-A1": dict(
        title="LIGHT EMITTING DEVICE AND PLANT CULTIVATION METHOD", n_claims=11, ipc3="A01",
        inventor="Mika AMIYA", priority=("JP", date(2016, 6, 29)), table=True)}),
    "ipg08672134.xml": (1, "v4", {"US-8672134-B2": dict(
        title="Child-resistant medication container", n_claims=43, ipc=["B65D 83/04", "B65D 85/42"],
        inventor="Peter John Sprada", citation=("US-6460693-B1", "applicant"), priority=("EP", date(2008, 4, 9)),
        assignee="Merck Serono SA")}),
    "pa20010031492.xml": (1, "pap", {"US-20010031492-A1": dict(
        title="Assay reagent", n_claims=17, claim1="A method of making a non-viable preparation of prokaryotic",
        dep=(3, [2]), ipc=["C12N 1/20", "C12N 5/06"], ipc3="C12", inventor="Jay Lewington",
        app_id="US-09728320", pub_date=date(2001, 10, 18), priority=("GB", date(1998, 6, 2)),
        assignee="Azur Environmental", doc_type="application", table=True)}),
    "US20050004437A1.xml": (1, "v4", {"US-20050004437-A1": dict(
        title="Simulation device for playful evaluation and display of blood sugar levels", n_claims=10,
        claim1="A simulation device for displaying and evaluating blood sugar readings", dep=(4, [3]),
        ipc=["A61B 5/00"], inventor="Heiner Kaufmann", priority=("CH", date(2001, 10, 26)),
        related=("continuation", "CH2002000573"))}),
}


def _parse(path: Path) -> ParseResult:
    out = ParseResult()
    for batch in parse_file(path):
        out.extend(batch)
    return out


@pytest.fixture(scope="module")
def samples(real_samples: Path) -> Path:
    return real_samples / "uspto-xml"


def test_every_sample_file_is_covered(samples: Path) -> None:
    assert sorted(p.name for p in samples.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_counts_format_and_schemas(samples: Path, name: str) -> None:
    n_docs, fmt, _ = EXPECTED[name]
    docs = list(iter_documents(samples / name))
    assert len(docs) == n_docs
    assert [d.index for d in docs] == list(range(n_docs))
    assert all(detect_format(d.data) == fmt for d in docs)
    result = _parse(samples / name)
    assert result.rejects == []
    assert result.count("publications") == n_docs
    tables = result.to_arrow()
    for spec in (PUBLICATIONS, CLAIMS, DESCRIPTIONS):
        validate(tables[spec.name], spec)
    if "citations" in tables:
        validate(tables["citations"], CITATIONS)
    raws = [p["raw"] for p in result.rows["publications"]]
    assert raws == [f"{name}#{d.index}@{d.offset}" for d in docs]


def _check(result: ParseResult, pid: str, exp: dict) -> None:
    pub = next(p for p in result.rows["publications"] if p["pub_id"] == pid)
    claims = {c["claim_no"]: c for c in result.rows["claims"] if c["pub_id"] == pid}
    paras = [d for d in result.rows["descriptions"] if d["pub_id"] == pid]
    cits = [c for c in result.rows.get("citations", []) if c["citing_pub_id"] == pid]
    assert pub["title"] == exp["title"] and pub["source"] == "uspto_bulk"
    checks = {
        "n_claims": lambda v: len(claims) == v and sorted(claims) == list(range(1, v + 1)),
        "claim1": lambda v: claims[1]["text"].startswith(v) and claims[1]["is_independent"],
        "dep": lambda v: claims[v[0]]["depends_on"] == v[1] and not claims[v[0]]["is_independent"],
        "ipc": lambda v: pub["ipc"] == v, "ipc3": lambda v: pub["ipc3"] == v,
        "cpc_first": lambda v: pub["cpc"][0] == v,
        "inventor": lambda v: pub["inventors"][0]["name"] == v,
        "assignee": lambda v: v in [a["name"] for a in pub["applicants"] if a["kind"] == "assignee"],
        "applicant": lambda v: pub["applicants"][0] == {"name": v, "country": "CA", "kind": "applicant"},
        "app_id": lambda v: pub["app_id"] == v, "pub_date": lambda v: pub["pub_date"] == v,
        "doc_type": lambda v: pub["doc_type"] == v,
        "citation": lambda v: (cits[0]["cited_pub_id"], cits[0]["cited_by"]) == v and cits[0]["seq"] == 1,
        "priority": lambda v: (pub["priorities"][0]["country"], pub["priorities"][0]["date"]) == v,
        "related": lambda v: (pub["related"][0]["relation"], pub["related"][0]["number"]) == v,
        "table": lambda v: any((p["text"] or "").endswith("[TABLE]") for p in paras) == v,
    }
    for key, value in exp.items():
        if key != "title":
            assert checks[key](value), f"{pid}: {key} expected {value!r}"
    assert paras and all("\ufffd" not in (p["text"] or p["heading"]) for p in paras)
    assert [p["para_no"] for p in paras] == list(range(len(paras)))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_values(samples: Path, name: str) -> None:
    result = _parse(samples / name)
    for pid, exp in EXPECTED[name][2].items():
        _check(result, pid, exp)


def test_pap_entities_and_headings(samples: Path) -> None:
    """`&lsqb;0001&rsqb;` paragraph numbers dropped, `&trade;` mapped, section names as headings."""
    result = _parse(samples / "pa20010031492.xml")
    paras = [p for p in result.rows["descriptions"] if p["text"] is not None]  # not the bare EXAMPLE n headings
    assert paras[0]["heading"] == "Summary of the invention"
    assert paras[0]["text"].startswith("This application is a continuation of PCT/GB99/01730")
    assert any("Zeocin\u2122" in p["text"] for p in paras)
    assert not any("&" in p["text"] and ";" in p["text"].split("&", 1)[1][:8] for p in paras)
    assert any("OD630" in p["text"] for p in paras), "subscripts kept as text"


def test_design_and_nested_claim_text(samples: Path) -> None:
    result = _parse(samples / "grant_us10000000b2_14643719.xml")
    claim1 = next(c for c in result.rows["claims"] if c["claim_no"] == 1)["text"]
    lines = claim1.split("\n")
    assert lines[1].startswith("a two-dimensional array of detector elements")
    assert lines[-1].startswith("a processor coupled to the data bus")
    npl = [c for c in result.rows["citations"] if c["cited_npl"]]
    assert npl and npl[-1]["cited_npl"].startswith("Marron et al.") and npl[-1]["cited_pub_id"] is None


def test_v42_npl_citation_and_multi_doc_order(samples: Path) -> None:
    result = _parse(samples / "ipg120327.18.xml")
    ids = [p["pub_id"] for p in result.rows["publications"]]
    assert ids == [f"US-D6562{n:02d}-S1" for n in range(96, 100)] + [f"US-D6563{n:02d}-S1" for n in range(0, 14)]
    assert any(c["cited_npl"] and c["cited_npl"].startswith("Football Shaped Cookies")
               for c in result.rows["citations"])
