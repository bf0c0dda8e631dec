"""The synthetic world: determinism, real wire formats, and ground truth that matches the files."""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from lxml import etree

from patentfactory.sim.generator import WorldSpec, build_world, generate_world
from patentfactory.sim.generator.ipc import CLASSES
from patentfactory.sim.generator.renderers import available, register
from common.patent_ids import app_id, normalise_pub_id

pytestmark = pytest.mark.services

SCALE, SEED = 200, 11
PARSER = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False, huge_tree=True)
GRANT_DOCTYPE = '<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v45-2014-04-03.dtd" [ ]>'
APP_DOCTYPE = '<!DOCTYPE us-patent-application SYSTEM "us-patent-application-v44-2014-04-03.dtd" [ ]>'
XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>'


def _digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def world_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("world") / "a"
    generate_world(out, SCALE, SEED)
    return out


@pytest.fixture(scope="module")
def truth(world_dir: Path) -> dict:
    return {p.stem: pq.read_table(p).to_pylist() for p in (world_dir / "truth").glob("*.parquet")}


@pytest.fixture(scope="module")
def lens_records(world_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (world_dir / "lens" / "lens-export.jsonl").read_text("utf-8").splitlines()]


def _documents(zip_path: Path) -> list[str]:
    with zipfile.ZipFile(zip_path) as zf:
        names = zf.namelist()
        assert names == [zip_path.stem + ".xml"]
        text = zf.read(names[0]).decode("utf-8")
    docs = [XML_DECL + d for d in text.split(XML_DECL) if d.strip()]
    assert docs and text.startswith(XML_DECL)
    return docs


def test_small_scale_is_complete(world_dir: Path) -> None:
    """Its speed (was `< 30 s` here, flaky under load) is benchmarks/generate_world.py's figure."""
    meta = json.loads((world_dir / "world.json").read_text())
    assert meta["scale"] == SCALE and meta["seed"] == SEED and meta["renderers"][:3] == ["uspto", "lens", "ops"]
    assert set(meta["renderers"]) == set(available())
    for name in ("families", "publications", "citations", "paper_pairs", "papers", "ptab_labels", "claim_revisions"):
        assert (world_dir / "truth" / f"{name}.parquet").is_file()
    assert list((world_dir / "uspto" / "PTGRXML").glob("ipg*.zip"))
    assert list((world_dir / "uspto" / "APPXML").glob("ipa*.zip"))
    assert list((world_dir / "ops" / "published-data" / "publication" / "docdb").glob("EP.*.*/claims.xml"))
    assert list((world_dir / "ops" / "family" / "publication" / "docdb").glob("EP.*.xml"))


def test_same_seed_same_bytes_other_seed_differs(world_dir: Path, tmp_path: Path) -> None:
    generate_world(tmp_path / "b", SCALE, SEED)
    assert _digest(world_dir) == _digest(tmp_path / "b")
    generate_world(tmp_path / "c", SCALE, SEED + 1)
    other = _digest(tmp_path / "c")
    assert other["lens/lens-export.jsonl"] != _digest(world_dir)["lens/lens-export.jsonl"]


def test_uspto_weekly_files_parse_with_doctype(world_dir: Path, truth: dict) -> None:
    seen = set()
    for folder, doctype, root_tag, weekday in (("PTGRXML", GRANT_DOCTYPE, "us-patent-grant", 1),
                                               ("APPXML", APP_DOCTYPE, "us-patent-application", 3)):
        for zp in sorted((world_dir / "uspto" / folder).glob("*.zip")):
            for doc in _documents(zp):
                assert doc.splitlines()[1] == doctype
                root = etree.fromstring(doc.encode(), PARSER)
                assert root.tag == root_tag and root.get("date-publ")[2:] == zp.stem[3:]
                assert np.datetime64(f"{root.get('date-publ')[:4]}-{root.get('date-publ')[4:6]}-"
                                     f"{root.get('date-publ')[6:]}").astype("datetime64[D]").astype(int) % 7 == (weekday - 3) % 7
                ids = {c.get("id") for c in root.iter("claim")}
                assert all(ref.get("idref") in ids for ref in root.iter("claim-ref"))
                pub = root.find("*/publication-reference/document-id")
                seen.add(f"US-{pub.findtext('doc-number')}-{pub.findtext('kind')}")
                if root_tag == "us-patent-grant":
                    assert root.find("us-bibliographic-data-grant/us-parties/inventors") is not None
                    assert root.find("description/heading") is not None
    lo = json.loads((world_dir / "world.json").read_text())["render_window"]["from"]
    window = {r["pub_id"] for r in truth["publications"] if r["country"] == "US" and r["pub_date"].isoformat() >= lo}
    assert seen == window


def test_ops_files_parse(world_dir: Path, truth: dict) -> None:
    revisions = {r["ep_number"]: r for r in truth["claim_revisions"]}
    files = sorted((world_dir / "ops").rglob("*.xml"))
    assert files
    for path in files:
        root = etree.fromstring(path.read_bytes(), PARSER)
        assert root.tag == "{http://ops.epo.org}world-patent-data"
        if path.name == "claims.xml":
            _, num, kind = path.parent.name.split(".")
            blocks = list(root.iter("{http://www.epo.org/fulltext}claims"))
            langs = [c.get("lang") for c in blocks]
            assert langs[0] == "EN"
            en = [t.text for t in blocks[0].iter("{http://www.epo.org/fulltext}claim-text")]
            if kind == "B1" and f"EP-{num}" in revisions:
                assert langs == ["EN", "DE", "FR"]
                assert en == revisions[f"EP-{num}"]["claims_after"]


def test_lens_csv_header_matches_real_export(world_dir: Path, real_samples: Path, lens_records: list[dict]) -> None:
    if not (real_samples / "README.md").is_file():
        pytest.skip("the real samples' README (which records the Lens CSV header) is in ../shared only")
    readme = (real_samples / "README.md").read_text("utf-8")
    real_header = re.search(r'`("#",Jurisdiction,[^`]+)`', readme).group(1)
    text = (world_dir / "lens" / "lens-export.csv").read_text("utf-8")
    assert text.splitlines()[0] == real_header
    rows = list(csv.reader(io.StringIO(text)))
    assert all(len(r) == 37 for r in rows)
    assert len(rows) - 1 == len(lens_records)
    assert re.fullmatch(r"\d{3}(-\d{3}){4}", rows[1][4]) and re.fullmatch(r"[A-Z]{2} \S+ [A-Z]\d?", rows[1][3])


def test_lens_jsonl_has_real_record_shape(real_samples: Path, lens_records: list[dict]) -> None:
    real = [json.loads(x) for x in (real_samples / "lens" / "lens_api_biopoly.jsonl").read_text("utf-8-sig").splitlines()]
    real_keys = set().union(*(r.keys() for r in real))
    common = set.intersection(*(set(r.keys()) for r in real))
    real_biblio = set().union(*(r["biblio"].keys() for r in real))
    for rec in lens_records:
        assert common <= rec.keys() <= real_keys and "lens_id" in rec
        assert rec["biblio"].keys() <= real_biblio
        assert set(rec["families"]) == {"simple_family", "extended_family"}
    assert sum(bool(r["biblio"]["references_cited"]["citations"]) for r in lens_records) > len(lens_records) / 2


def test_ipc3_distribution_is_skewed_over_real_classes(truth: dict) -> None:
    assert len(CLASSES) >= 40 and {"A61", "H04", "G06", "H01", "C07", "B65"} <= {c.ipc3 for c in CLASSES}
    inv = {r["invention_id"]: r["ipc3"] for r in truth["publications"]}
    counts = sorted(Counter(inv.values()).values(), reverse=True)
    assert counts[0] / len(inv) > 3 * float(np.median(counts)) / len(inv)
    symbol = re.compile(r"^[A-H]\d\d[A-Z] \d{1,3}/\d{2,4}$")
    assert all(symbol.match(s) for r in truth["publications"] for s in r["ipc"] + r["cpc"])


SEGMENT_RULES = [(1, r"PROBLEM TO BE SOLVED:.*SOLUTION:"), (2, r"PROBLEM:.*SOLUTION:"), (3, r"PURPOSE:.*CONSTITUTION:"),
                 (4, r"\[problem\].*\[solution\]"), (5, r"FIELD:.*SUBSTANCE:.*EFFECT:"), (6, r"SOLUTION:.*EFFECT:"),
                 (7, r"SOLUTION:")]


def test_segmented_abstracts_cover_all_seven_patterns(truth: dict) -> None:
    pubs = truth["publications"]
    found = set()
    for r in pubs:
        detected = next((k for k, rx in SEGMENT_RULES if re.search(rx, r["abstract"], re.S)), 0)
        assert detected == r["abstract_pattern"], r["abstract"]
        found.add(detected)
    assert found == set(range(8))
    assert any("SELECTED DRAWING: Figure 1" in r["abstract"] for r in pubs)


def test_truth_matches_rendered_lens(truth: dict, lens_records: list[dict]) -> None:
    lens_ids = {f"{r['jurisdiction']}-{r['doc_number']}-{r['kind']}" for r in lens_records}
    fam = truth["families"]
    assert {r["pub_id"] for r in fam} == lens_ids
    assert all(normalise_pub_id(p) == p for p in lens_ids)
    simple = {}
    for r in fam:
        simple.setdefault(r["simple_family_id"], set()).add(r["pub_id"])
    for rec in lens_records:
        members = {f"{m['document_id']['jurisdiction']}-{m['document_id']['doc_number']}-{m['document_id']['kind']}"
                   for m in rec["families"]["simple_family"]["members"]}
        me = f"{rec['jurisdiction']}-{rec['doc_number']}-{rec['kind']}"
        assert me in members and any(members == s for s in simple.values())
    assert len({r["extended_family_id"] for r in fam}) < len(simple)
    apps = {r["app_id"] for r in truth["publications"]}
    assert all(app_id(*a.split("-", 1)) == a for a in apps)


def test_inventor_names_vary_across_documents(truth: dict, lens_records: list[dict]) -> None:
    by_pub = {r["pub_id"]: r["inventors"] for r in truth["publications"]}
    spellings: dict[int, set[str]] = {}
    for rec in lens_records:
        people = by_pub[f"{rec['jurisdiction']}-{rec['doc_number']}-{rec['kind']}"]
        for person, rendered in zip(people, rec["biblio"]["parties"]["inventors"]):
            spellings.setdefault(person["person_id"], set()).add(rendered["extracted_name"]["value"])
    assert any(len(s) > 1 for s in spellings.values())
    counts = Counter(p["person_id"] for r in truth["publications"] for p in r["inventors"])
    assert max(counts.values()) > 3  # prolific inventors recur across inventions
    assert any(re.search(r"[^\x00-\x7f]", p["name"]) for r in truth["publications"] for p in r["inventors"])


def test_citations_consistent_and_never_to_the_future(truth: dict, lens_records: list[dict]) -> None:
    dates = {r["pub_id"]: r["pub_date"] for r in truth["publications"]}
    patent = [c for c in truth["citations"] if c["cited_pub_id"]]
    assert patent and all(dates[c["cited_pub_id"]] < dates[c["citing_pub_id"]] for c in patent)
    assert {c["cited_by"] for c in patent} == {"examiner", "applicant"}
    ipc3 = {r["pub_id"]: r["ipc3"] for r in truth["publications"]}
    same = sum(ipc3[c["cited_pub_id"]] == ipc3[c["citing_pub_id"]] for c in patent) / len(patent)
    assert 0.6 < same < 0.98
    rendered = {(f"{r['jurisdiction']}-{r['doc_number']}-{r['kind']}",
                 "{jurisdiction}-{doc_number}-{kind}".format(**c["patcit"]["document_id"]))
                for r in lens_records for c in r["biblio"]["references_cited"]["citations"] if "patcit" in c}
    assert rendered == {(c["citing_pub_id"], c["cited_pub_id"]) for c in patent}


def test_entities_for_other_benchmarks(truth: dict) -> None:
    pairs = truth["paper_pairs"]
    assert any(p["is_true"] for p in pairs) and any(not p["is_true"] for p in pairs)
    for p in pairs:
        if p["relation"] in ("true", "near_miss_topic"):
            assert -365 <= p["day_delta"] <= 730
        if p["relation"] == "near_miss_date":
            assert not -365 <= p["day_delta"] <= 730
    assert truth["ptab_labels"] and all(r["issue_types"] and r["board_authorities"] for r in truth["ptab_labels"])
    for r in truth["claim_revisions"]:
        after = r["claims_after"]
        assert len(after) <= len(r["claims_before"])
        assert [int(c.split(".")[0]) for c in after] == list(range(1, len(after) + 1))
        for k, c in enumerate(after, 1):
            m = re.search(r"of claim (\d+)", c)
            assert m is None or int(m.group(1)) < k


def test_registry_discovers_and_rejects_duplicates() -> None:
    found = available()
    assert {"uspto", "lens", "ops"} <= set(found)
    with pytest.raises(ValueError):
        register("lens")(lambda world, out: [])


def test_shared_priorities_make_extended_families_differ() -> None:
    world = build_world(WorldSpec(scale=400, seed=3, shared_priority_rate=0.3))
    simple, ext = world.inv["simple_id"], world.inv["ext_id"]
    assert len(set(ext.tolist())) < len(set(simple.tolist())) == 400


def test_weekly_files_from_the_1970s_render_and_parse(tmp_path: Path) -> None:
    """The zip format has no dates before 1980: 1978-79 weekly files carry a 1980-01-01 stamp, not a crash."""
    from sources.uspto_bulk import parse_file

    spec = WorldSpec(scale=3000, seed=5, start="1976-01-01", end="1990-12-31", render_from="1976-01-01",
                     render_to="1980-06-30", renderers=("uspto",))
    generate_world(tmp_path, 3000, 5, spec)
    early = sorted((tmp_path / "uspto").rglob("ip?7[6-9]*.zip"))
    assert early, "the world has weekly files from 1978-79"
    for zp in early:
        assert zipfile.ZipFile(zp).infolist()[0].date_time[:3] == (1980, 1, 1)
        pubs = [p for batch in parse_file(zp) for p in batch.rows.get("publications", [])]
        assert pubs and all(p["pub_date"].year == int("19" + zp.stem[3:5]) for p in pubs)
