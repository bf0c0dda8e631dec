"""Conformance on real files at volume (`../shared/real-samples/volume/`): every patent document of every era's
weekly-file slice parsed, its claims counted as the XML holds them, no rejects; every Lens record kept.

The expected figures are read from the files themselves here, independently of the parsers: documents by their
DOCTYPE, claims with lxml (in recover mode, which reads the 2001 SGML-style files too), Lens rows with `csv`.
"""
from __future__ import annotations

import csv
import re
import zipfile
from collections import Counter
from dataclasses import asdict
from datetime import date
from pathlib import Path

import polars as pl
import pytest
from lxml import etree

from schemas import PUBLICATIONS, REPORTED_FAMILIES, validate
from sources.lens import parse_lens_csv
from sources.uspto_bulk import parse_file
from transforms.families import build_families
from transforms.family_sizes import check_reported_sizes

USPTO_FILES = ("grants_2001_sample.xml", "applications_sample_2001.xml", "ipg050104.small.xml",
               "ipg060103.small.xml", "ipg090106.small.xml", "ipg120103.small.xml")
LENS_FILE = "drones_fulltext_families_5884.csv"
PATENT_CLAIM_TAG = {"us-patent-grant": "claim", "us-patent-application": "claim", "PATDOC": "CLM",
                    "patent-application-publication": "claim"}
_START = re.compile(rb"(?:<\?xml[^>]*\?>\s*)?<!DOCTYPE\s+([\w.\-]+)")
_LENIENT = etree.XMLParser(recover=True, resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True)


def xml_documents(data: bytes) -> list[tuple[str, bytes]]:
    """(DOCTYPE name, bytes) of each document, cut at each declaration-or-DOCTYPE."""
    starts = list(_START.finditer(data))
    ends = [m.start() for m in starts[1:]] + [len(data)]
    return [(m.group(1).decode(), data[m.start():end]) for m, end in zip(starts, ends)]


def claims_in(kind: str, doc: bytes) -> int:
    body = re.sub(rb"<!DOCTYPE[^\[>]*(?:\[.*?\]\s*)?>", b"", doc, count=1, flags=re.S)  # v2.4's is not XML
    return sum(1 for _ in etree.fromstring(body, _LENIENT).iter(PATENT_CLAIM_TAG[kind]))


@pytest.fixture(scope="module")
def volume(real_samples: Path) -> Path:
    return real_samples / "volume"


@pytest.mark.parametrize("name", USPTO_FILES)
def test_every_patent_document_parsed_with_its_claims(volume: Path, name: str) -> None:
    data = (volume / "uspto" / name).read_bytes()
    docs = xml_documents(data)
    patents = [(kind, doc) for kind, doc in docs if kind in PATENT_CLAIM_TAG]
    others = Counter(kind for kind, _ in docs if kind not in PATENT_CLAIM_TAG)
    results = list(parse_file(volume / "uspto" / name))
    pubs = [p for r in results for p in r.rows["publications"]]
    claims = Counter(c["pub_id"] for r in results for c in r.rows["claims"])
    assert [r for res in results for r in res.rejects] == []
    assert len(pubs) == len(patents) >= 23
    assert [claims[p["pub_id"]] for p in pubs] == [claims_in(kind, doc) for kind, doc in patents]
    skipped: Counter[str] = Counter()
    for r in results:
        skipped.update(r.skipped)
    assert skipped == others  # ipg060103: its 2 sequence-cwu listings, counted by kind
    for r in results:
        validate(PUBLICATIONS.from_pylist(r.rows["publications"]), PUBLICATIONS)


def test_2001_patdoc_v24_fields_as_v25(volume: Path) -> None:
    """The first grant of the 2001 file, every field family v2.5 gives, values as the XML holds them."""
    (result,) = list(parse_file(volume / "uspto" / "grants_2001_sample.xml"))
    pub = result.rows["publications"][0]
    assert (pub["pub_id"], pub["kind"], pub["pub_date"], pub["app_id"], pub["app_date"], pub["title"]) == (
        "US-6314555-B1", "B1", date(2001, 11, 6), "US-09125727", date(1998, 8, 25), "Software system generation")
    assert pub["ipc"] == ["G06F 9/94"] and pub["doc_type"] == "utility"
    assert pub["priorities"] == [{"country": "EP", "number": "97305600", "date": date(1997, 7, 25)}]
    assert pub["inventors"][0]["name"] == "Divine T Ndumu" and pub["applicants"][0]["country"] == "GB"
    assert pub["abstract"].startswith("A system for building collaborative software agents")
    mine = [c for c in result.rows["claims"] if c["pub_id"] == pub["pub_id"]]
    assert len(mine) == 40 and mine[0]["is_independent"] and mine[1]["depends_on"] == [1]  # "as in claim 1"
    cites = [c for c in result.rows["citations"] if c["citing_pub_id"] == pub["pub_id"]]
    assert cites[0]["cited_pub_id"] == "US-5421013-" and cites[0]["cited_by"] == "examiner"
    assert sum(1 for d in result.rows["descriptions"] if d["pub_id"] == pub["pub_id"]) > 100
    related = result.rows["publications"][1]["related"]
    assert related == [{"relation": "continuation-in-part", "country": "US", "number": "08965788",
                        "date": date(1997, 11, 7)}]


def test_2001_weekly_file_zipped_reads_the_same(volume: Path, tmp_path: Path) -> None:
    bare = volume / "uspto" / "grants_2001_sample.xml"
    zipped = tmp_path / "pg011106.zip"
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(bare, "pg011106.xml")
    ids = [[p["pub_id"] for r in parse_file(path) for p in r.rows["publications"]] for path in (bare, zipped)]
    assert ids[0] == ids[1] and len(ids[0]) == 23


@pytest.fixture(scope="module")
def lens_volume(volume: Path):
    path = volume / "lens" / LENS_FILE
    with open(path, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return rows, parse_lens_csv(path, LENS_FILE)


def test_lens_records_in_equal_publications_out(lens_volume) -> None:
    rows, result = lens_volume
    assert result.rejects == [] and result.count("publications") == len(rows) == 5884
    pubs = {p["pub_id"]: p for p in result.rows["publications"]}
    assert len(pubs) == len(rows)
    by_key = {r["Publication Number"]: r for r in rows}
    # the number forms of that layout, each kept and read
    wo = next(p for p in pubs.values() if p["raw"] and '"US 2006/0000980 W"' in p["raw"])
    assert wo["app_id"] == "WO-US2006000980" and wo["country"] == "WO"
    assert "EP-259054-B9" in pubs and "IN-1442CH2015-A" in pubs and "IT-PI20130081-A1" in pubs
    assert "AU-PO505497-D0" in pubs and "IN-4304DEN2015-A" in pubs
    first = pubs["AT-556755-T"]  # 'FR 1051751 A 20100311;;FR 1054449 A 20100607': numbers and filing dates
    assert first["priorities"] == [{"country": "FR", "number": "1051751", "date": date(2010, 3, 11)},
                                   {"country": "FR", "number": "1054449", "date": date(2010, 6, 7)}]
    assert sum(len(p["flags"]) for p in pubs.values()) == 0, "every number of this export has a rule"
    assert by_key["AT 556755 T"]["Simple Family Size"] == "11"


def test_lens_reported_family_sizes_kept_and_checked(lens_volume) -> None:
    rows, result = lens_volume
    tables = result.to_arrow()
    validate(tables["reported_families"], REPORTED_FAMILIES)
    reported = pl.from_arrow(tables["reported_families"])
    sizes = {(r["family_kind"], r["pub_id"]): r["family_size"] for r in reported.iter_rows(named=True)}
    pubs = {r["Publication Number"]: p["pub_id"] for r, p in zip(rows, result.rows["publications"])}
    for r in rows:
        pid = pubs[r["Publication Number"]]
        assert sizes[("simple", pid)] == int(r["Simple Family Size"])
        assert sizes[("extended", pid)] == int(r["Extended Family Size"])
    families = build_families(pl.from_arrow(tables["publications"]).lazy(), reported.lazy())
    check = check_reported_sizes(reported.lazy(), families)
    singles = sum(1 for r in rows if r["Simple Family Size"] == "1")
    simple = check["lens simple"]
    assert simple["reported"] == len(rows) and simple["match"] >= singles
    assert simple["match"] + simple["mismatch"] + simple["incomplete"] + simple["absent"] == len(rows)
    assert simple["mismatch"] == 0 and check["lens extended"]["mismatch"] == 0


def test_a_field_that_does_not_normalise_costs_nothing_but_a_flag(volume: Path, tmp_path: Path) -> None:
    """A real row of the export with its application number, one priority and one class symbol made unreadable: the
    record is kept, the values as written sit in the `*_raw` columns, the flags are counted by the ingest."""
    from patentfactory.stages.ingest import IngestStats, ingest_files
    from patentfactory.stages.ingest_files import stores_for

    text = (volume / "lens" / LENS_FILE).read_text(encoding="utf-8-sig")
    header, first, second = text.splitlines()[:3]
    assert "AT 33585 A" in first and ",A01K47/00,A01K47/00," in first
    bad = first.replace(",AT 33585 A,", ",AT ??/x A,").replace("AT 33585 A 19850206", "AT 33585 A 19850206;;XX ? A") \
        .replace(",A01K47/00,A01K47/00,", ",A01K47/00,not a class,")
    path = tmp_path / "bad.csv"
    path.write_text("\n".join([header, bad, second]) + "\n", encoding="utf-8")
    result = parse_lens_csv(path, path.name)
    assert result.rejects == [] and result.count("publications") == 2
    pub = result.rows["publications"][0]
    assert (pub["pub_id"], pub["app_id"], pub["app_id_raw"]) == ("AT-399980-B", None, "AT ??/x A")
    assert pub["priorities"] == [{"country": "AT", "number": "33585", "date": date(1985, 2, 6)}]
    assert pub["priorities_raw"] == ["XX ? A"] and pub["classes_raw"] == ["not a class"] and pub["ipc"] == []
    assert pub["flags"] == ["app_id", "priority", "classification"] and result.rows["publications"][1]["flags"] == []
    validate(result.to_arrow()["publications"], PUBLICATIONS)
    stats = ingest_files(stores_for(tmp_path / "data"), "lens", [path], lambda p: [parse_lens_csv(p, p.name)], "t")
    assert (stats.records["publications"], stats.rejects) == (2, 0)
    assert stats.flags == {"app_id": 1, "priority": 1, "classification": 1}
    again = IngestStats("lens")
    again.merge(asdict(stats))
    assert again.flags == stats.flags


def test_ingest_counts_non_patent_documents_by_kind(volume: Path, tmp_path: Path) -> None:
    from patentfactory.stages.ingest import ingest_files
    from patentfactory.stages.ingest_files import merge_stats, stores_for

    stats = ingest_files(stores_for(tmp_path / "data"), "uspto_bulk", [volume / "uspto" / "ipg060103.small.xml"],
                         parse_file, "t")
    assert (stats.records["publications"], stats.rejects, stats.not_patents) == (25, 0, {"sequence-cwu": 2})
    assert merge_stats("uspto_bulk", [asdict(stats), asdict(stats)])["not_patents"] == {"sequence-cwu": 4}


def test_uspto_unreadable_application_and_priority_kept_raw_and_flagged(volume: Path) -> None:
    """The first 2001 grant with its application number and its EP priority made unreadable: the document keeps
    its rows, the values as written move to `app_id_raw` / `priorities_raw`, flagged; unflagged rows lack the keys."""
    from patentfactory.stages.ingest import IngestStats
    from sources.uspto_bulk import parse_document

    data = (volume / "uspto" / "grants_2001_sample.xml").read_bytes()
    first = xml_documents(data)[0][1]
    bad = first.replace(b"<B210><DNUM><PDAT>09125727", b"<B210><DNUM><PDAT>n/a", 1) \
        .replace(b"<B310><DNUM><PDAT>97305600", b"<B310><DNUM><PDAT>97?305600", 1)
    assert bad.count(b"n/a") == 1 and bad.count(b"97?305600") == 1
    result = parse_document(bad, "grants_2001_sample.xml", 0, 0)
    assert result.rejects == [] and result.count("claims") == 40
    pub = result.rows["publications"][0]
    assert (pub["pub_id"], pub["app_id"], pub["app_id_raw"]) == ("US-6314555-B1", None, "n/a")
    assert (pub["priorities"], pub["priorities_raw"], pub["flags"]) == ([], ["EP 97?305600"], ["app_id", "priority"])
    validate(PUBLICATIONS.from_pylist([pub]), PUBLICATIONS)
    stats = IngestStats("uspto_bulk")
    stats.see(result)
    assert stats.flags == {"app_id": 1, "priority": 1}
    clean = parse_document(first, "grants_2001_sample.xml", 0, 0).rows["publications"][0]
    assert "flags" not in clean and clean["app_id"] == "US-09125727"


@pytest.mark.parametrize("chunk", [997, 65536])
def test_2001_documents_cut_at_their_doctype_whatever_the_chunks(volume: Path, chunk: int) -> None:
    """Streaming: a DOCTYPE split across two chunks still starts the next document; cuts fall where the file's own
    DOCTYPEs are."""
    from sources.uspto_bulk import Limits, split_stream

    data = (volume / "uspto" / "grants_2001_sample.xml").read_bytes()
    pieces = [data[i:i + chunk] for i in range(0, len(data), chunk)]
    docs = list(split_stream(pieces, Limits(chunk_bytes=chunk)))
    assert [d.offset for d in docs] == [m.start() for m in re.finditer(rb"<!DOCTYPE PATDOC", data)]
    assert b"".join(d.data for d in docs) == data[docs[0].offset:]


UNREADABLE_IPC = "?? NOT A CLASS"
IPC_TEXT = {"grants_2001_sample.xml": rb"(<B511><PDAT>)[^<]*",  # PATDOC v2.4 fixed-field IPC
            "applications_sample_2001.xml": rb"(<classification-ipc-primary>\s*<ipc>)[^<]*",  # pap v1.5
            "ipg050104.small.xml": rb"(<classification-ipc>\s*<edition>\d+</edition>\s*<main-classification>)[^<]*"}


@pytest.mark.parametrize("name", sorted(IPC_TEXT))
def test_a_classification_that_does_not_normalise_costs_nothing_but_a_flag(volume: Path, tmp_path: Path,
                                                                              name: str) -> None:
    """A real document whose IPC text is unreadable is kept whole: the symbol as written in `classes_raw`, flagged
    'classification', everything else as parsed from the untouched document."""
    kind, doc = next((k, d) for k, d in xml_documents((volume / "uspto" / name).read_bytes()) if k in PATENT_CLAIM_TAG)
    broken, n = re.subn(IPC_TEXT[name], rb"\g<1>" + UNREADABLE_IPC.encode(), doc, count=1)
    assert n == 1, "the fixture's IPC element moved"
    rows = {}
    for label, data in (("clean", doc), ("broken", broken)):
        (tmp_path / f"{label}.xml").write_bytes(data)
        results = list(parse_file(tmp_path / f"{label}.xml"))
        assert not [r for res in results for r in res.rows.get("rejects", [])]
        (rows[label],) = [p for res in results for p in res.rows["publications"]]
    clean, broken_row = rows["clean"], rows["broken"]
    assert not clean.get("classes_raw") and not clean.get("flags")
    assert broken_row["classes_raw"] == [UNREADABLE_IPC] and broken_row["flags"] == ["classification"]
    assert broken_row["pub_id"] == clean["pub_id"] and broken_row["title"] == clean["title"]
    assert len(broken_row["ipc"]) == len(clean["ipc"]) - 1  # the unreadable one is out of `ipc`, nothing else
