"""Golden equivalence: every document we have parses to exactly the records frozen in a snapshot.

The snapshot (`uspto_parse_snapshot.json`) holds one sha256 per document of its canonical records
(rows of every table and rejects, as sorted JSON), taken from the parser before its speed rewrite.
It covers the generated sample zips under `data/sample/uspto`, the real samples in
`../shared/real-samples/uspto-xml` (read in place), the format fixtures, and the edge-case documents
below, which put entities, tables, comments, namespaces, odd orderings and missing parts where
the field tables and the text flattening must agree with the straightforward XPath reading.

When an output change is intended, refresh it with
`python tests/sources/test_uspto_parse_equivalence.py --update` and say so in the commit.
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # when run as a script to refresh the snapshot
    sys.path.insert(0, str(REPO))

from sources.uspto_bulk import iter_documents, parse_document  # noqa: E402

SNAPSHOT = Path(__file__).with_name("uspto_parse_snapshot.json")
SAMPLE = REPO / "data" / "sample" / "uspto"
FIXTURES = Path(__file__).parent / "fixtures" / "uspto"

_HEAD = b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE %s SYSTEM "%s.dtd" [ ]>\n'

EDGE_GRANT = _HEAD % (b"us-patent-grant", b"us-patent-grant-v45-2014-04-03") + """
<us-patent-grant lang="EN" dtd-version="v4.5 2014-04-03" country="US" date-publ="20150106">
<!-- a comment before the bibliographic data -->
<us-bibliographic-data-grant>
<publication-reference><document-id><doc-number>08925001</doc-number></document-id>
<document-id><country>us</country><doc-number>9999999</doc-number><kind>b2</kind><date>20150106</date></document-id>
</publication-reference>
<application-reference appl-type="design"><document-id><country>US</country><doc-number>13/812,345</doc-number>
<date>20120700</date></document-id></application-reference>
<us-application-series-code>13</us-application-series-code>
<invention-title id="t1">Valve &lsqb;improved&rsqb; for H<sub>2</sub>O <!-- note --> and x<sup>2</sup>
  <?pi inside?>over   two lines &unknownent; &agr;</invention-title>
<classifications-ipcr>
<classification-ipcr><ipc-version-indicator><date>20060101</date></ipc-version-indicator>
<classification-level>A</classification-level><section>F</section><class>16</class><subclass>k</subclass>
<main-group>1</main-group><subgroup>2</subgroup><symbol-position>L</symbol-position></classification-ipcr>
<classification-ipcr><section>B</section><class>01</class><subclass>D</subclass><main-group>53</main-group>
<subgroup></subgroup><symbol-position>F</symbol-position></classification-ipcr>
<classification-ipcr><section>C</section><class>02</class><subclass>F</subclass></classification-ipcr>
<classification-ipcr><section>C</section><class></class><subclass>F</subclass><main-group>1</main-group>
</classification-ipcr>
</classifications-ipcr>
<classification-ipc><edition>7</edition><main-classification>F16K 1/00</main-classification>
<further-classification>B01D53/00</further-classification></classification-ipc>
<classifications-cpc><main-cpc><classification-cpc><section>F</section><class>16</class><subclass>K</subclass>
<main-group>1</main-group><subgroup>226</subgroup></classification-cpc></main-cpc>
<further-cpc><classification-cpc><section>Y</section><class>10</class><subclass>T</subclass>
<main-group>137</main-group><subgroup>7</subgroup></classification-cpc>
<classification-cpc><section>F</section><class>16</class><subclass>K</subclass>
<main-group>1</main-group><subgroup>226</subgroup></classification-cpc></further-cpc></classifications-cpc>
<us-parties>
<us-applicants>
<us-applicant sequence="001" app-type="applicant" designation="us-only">
<orgname>Direct Org &amp; Co.</orgname>
<addressbook><orgname>Book Org</orgname><address><city>Austin</city><state>TX</state></address></addressbook>
</us-applicant>
<us-applicant sequence="002" app-type="applicant-inventor">
<addressbook><last-name>Doe</last-name><first-name>Jane</first-name><address><country>de</country></address>
</addressbook><residence><country>FR</country></residence></us-applicant>
<us-applicant sequence="003" app-type="applicant">
<addressbook><first-name>Solo</first-name><address><country>JPX</country></address></addressbook>
</us-applicant>
</us-applicants>
<inventors>
<inventor sequence="001"><addressbook><last-name>M&#xfc;ller</last-name><first-name>Hans <i>J.</i></first-name>
<address><state>CA</state></address></addressbook></inventor>
<inventor sequence="002"><addressbook><name>Single Name</name><address><country>XX1</country></address>
</addressbook><residence><country>GB</country></residence></inventor>
<inventor sequence="003"><addressbook><last-name>Empty</last-name><address><country></country>
<state>ZZ</state></address></addressbook></inventor>
</inventors>
</us-parties>
<assignees><assignee><addressbook><orgname>Assignee Corp.</orgname><role>02</role>
<address><country>US</country></address></addressbook></assignee>
<assignee><addressbook><last-name>Smith</last-name><first-name>Ann</first-name></addressbook></assignee>
</assignees>
<priority-claims>
<priority-claim sequence="01" kind="national"><country>jp</country><doc-number>2011-123456</doc-number>
<date>20110630</date></priority-claim>
<priority-claim sequence="02" kind="regional"><country>EP</country><doc-number></doc-number><date>2011</date>
</priority-claim>
</priority-claims>
<us-related-documents>
<continuation><relation><parent-doc><document-id><country>US</country><doc-number>12345678</doc-number>
<date>20100101</date></document-id><parent-status>ABANDONED</parent-status></parent-doc>
<parent-doc><document-id><doc-number>PCT/US2009/012345</doc-number></document-id></parent-doc>
<child-doc><document-id><country>US</country><doc-number>13812345</doc-number></document-id></child-doc>
</relation></continuation>
<!-- between relations -->
<us-provisional-application><document-id><country>US</country><doc-number>61/123,456</doc-number>
<date>20090202</date></document-id></us-provisional-application>
<related-publication><document-id><country>US</country><doc-number>20120123456</doc-number><kind>A1</kind>
<date>20120517</date></document-id></related-publication>
<continuation-in-part><relation><parent-doc><document-id><country>US</country><doc-number></doc-number>
</document-id></parent-doc></relation></continuation-in-part>
</us-related-documents>
<us-references-cited>
<us-citation><patcit num="00001"><document-id><country>US</country><doc-number>5093563</doc-number>
<kind>A</kind><name>Small</name><date>19920300</date></document-id></patcit>
<category>cited by examiner</category><classification-national><country>US</country>
<main-classification>137/1</main-classification></classification-national></us-citation>
<us-citation><category>cited by applicant</category><patcit num="00002"><document-id><country>JP</country>
<doc-number>H07-123 &amp; misc</doc-number><kind>A</kind></document-id></patcit></us-citation>
<us-citation><nplcit num="00003"><othercit>Smith et al., &ldquo;Valves&rdquo;, J. Flow
<i>12</i>(3), 2001 &lsqb;online&rsqb;; <sup>1</sup>H-NMR</othercit></nplcit>
<category>X</category></us-citation>
<us-citation><nplcit num="00004"><othercit></othercit></nplcit></us-citation>
<us-citation><patcit num="00005"><document-id><country>US</country><doc-number>D621603</doc-number>
<kind>S</kind></document-id></patcit><category>cited by other</category></us-citation>
<us-citation><patcit num="00006"><document-id><country>US</country><doc-number>RE38000</doc-number>
</document-id></patcit><category>  </category></us-citation>
</us-references-cited>
<number-of-claims>5</number-of-claims>
</us-bibliographic-data-grant>
<abstract id="abstract"><p id="p-0001">First <b>bold</b> abstract &amp; more.</p><p id="p-0002"> </p>
<p id="p-0003">Second with <img id="i1" file="x.tif"/> image and <br/>break.</p></abstract>
<drawings id="DRAWINGS"><figure id="Fig-EMI-D00000" num="00000"><img id="EMI-D00000" file="x.TIF"/></figure>
</drawings>
<description id="description">
<?RELAPP description="Other Patent Relations" end="lead"?>
<heading id="h-0001" level="1">CROSS &lsqb;REFERENCE&rsqb;</heading>
<p id="p-0001" num="0001">This application is a continuation of <figref idref="f1">FIG. 1</figref>.</p>
<?RELAPP description="Other Patent Relations" end="tail"?>
<heading id="h-0002" level="1"></heading>
<p id="p-0002" num="0002">Tabled <tables id="TABLE-US-00001" num="00001"><table><tgroup cols="1"><tbody>
<row><entry>cell &amp; cell</entry></row></tbody></tgroup></table></tables> after table.</p>
<tables id="TABLE-US-00002" num="00002"><table frame="none"><tgroup cols="1"><tbody><row><entry>x</entry>
</row></tbody></tgroup></table></tables>
<description-of-drawings><heading id="h-0003" level="1">DRAWINGS</heading>
<p id="p-0003" num="0003"><figref idref="DRAWINGS">FIG. 1</figref> is a view;</p>
<p id="p-0004" num="0004"><ul><li>item one</li><li>item <b>two</b></li></ul></p></description-of-drawings>
<p id="p-0005" num="0005">   </p>
<p id="p-0006" num="0006">Entity &unknown; and &mgr;m and <!-- hidden --> tail<?pi x?> end.
Second   line	with tabs.</p>
<math id="m1"><mi>x</mi></math>
<us-math id="um1"><img id="EMI-M1" file="m.tif"/></us-math>
<chemistry id="c1"><img id="EMI-C1" file="c.tif"/>Chem text</chemistry>
<p xmlns:m="urn:m" id="p-0007" num="0007">Name<m:table>t</m:table>spaced <m:b>ns</m:b> end</p>
<m:p xmlns:m="urn:m">namespaced paragraph</m:p>
<section><heading>Inner</heading><p>In a section.</p></section>
</description>
<us-claim-statement>What is claimed is:</us-claim-statement>
<claims id="claims">
<claim id="CLM-00001" num="00001"><claim-text>1. A valve comprising:
<claim-text>a body &lsqb;10&rsqb;;</claim-text>
<claim-text>a seat <!-- c -->having H<sub>2</sub>O; and</claim-text>
<claim-text>a stem, <claim-text>the stem sliding.</claim-text></claim-text></claim-text></claim>
<claim id="CLM-00002" num="00002"><claim-text>2. The valve of <claim-ref idref="CLM-00001">claim 1</claim-ref>,
wherein <claim-ref idref="CLM-00099">claim 99</claim-ref> and <claim-ref>claim</claim-ref>.</claim-text></claim>
<claim id="CLM-00003" num="00002"><claim-text>3. The valve of <claim-ref idref="CLM-00002"><claim-text>claims 2
</claim-text></claim-ref> with a table <tables id="t"><table><tgroup cols="1"/></table></tables>.</claim-text>
</claim>
<claim id="CLM-00004"><claim-text>4.The valve of <claim-ref idref="CLM-00003">claim 3</claim-ref> and
<claim-ref idref="CLM-00003">claim 3</claim-ref><br/> again.</claim-text></claim>
<claim id="c5" num="0"><claim-text>5 . A method<?pi in claim?> using <claim-ref idref="CLM-00004">4</claim-ref>
&amp; <claim-ref idref="c5">itself</claim-ref>.</claim-text></claim>
<claim id="CLM-00006" num="00006"></claim>
</claims>
</us-patent-grant>
""".encode()

EDGE_APPLICATION_V40 = _HEAD % (b"us-patent-application", b"us-patent-application-v40-2004-12-02") + """
<us-patent-application lang="de" dtd-version="v4.0 2004-12-02" country="US" date-publ="20050106">
<us-bibliographic-data-application lang="EN" country="US">
<publication-reference><document-id><country>US</country><doc-number>20050004438</doc-number><kind>A1</kind>
</document-id></publication-reference>
<application-reference><document-id><country>US</country><doc-number>10612345</doc-number>
<date>20030702</date></document-id></application-reference>
<classification-ipc><edition>7</edition><main-classification>G09B 023/28</main-classification>
<further-classification>A61B  5/00</further-classification></classification-ipc>
<invention-title>  </invention-title>
<parties>
<applicants>
<applicant sequence="001" app-type="applicant-inventor" designation="us-only">
<addressbook><last-name>Lee</last-name><first-name>Kim</first-name><address><city>X</city><state>NY</state>
</address></addressbook><nationality><country>US</country></nationality>
<residence><country>US</country></residence></applicant>
<applicant sequence="002" app-type="applicant"><addressbook><orgname>Firm GmbH</orgname>
<address><country>DE</country></address></addressbook></applicant>
</applicants>
</parties>
<references-cited>
<citation><patcit num="1"><document-id><country>US</country><doc-number>4240445</doc-number><kind>A</kind>
</document-id></patcit><category>cited by other</category></citation>
<citation><nplcit num="2"><othercit>Plain reference</othercit></nplcit><category>cited by examiner</category>
</citation>
</references-cited>
<priority-claims><priority-claim sequence="01"><country>DE</country><doc-number>102 34 567.8</doc-number>
<date>20020703</date></priority-claim></priority-claims>
</us-bibliographic-data-application>
<abstract>Abstract text straight in the element, <b>no</b> paragraphs.</abstract>
<claims><claim id="CLM-1" num="1"><claim-text>A device.</claim-text></claim>
<claim id="CLM-2" num="2"><claim-text>The device of <claim-ref idref="CLM-1">claim 1</claim-ref>.</claim-text></claim>
</claims>
</us-patent-application>
""".encode()

EDGE_NO_BIB = _HEAD % (b"us-patent-grant", b"x") + b"<us-patent-grant><abstract><p>x</p></abstract></us-patent-grant>"
EDGE_NO_NUMBER = _HEAD % (b"us-patent-grant", b"x") + (
    b"<us-patent-grant><us-bibliographic-data-grant><publication-reference><document-id><country>US</country>"
    b"</document-id></publication-reference></us-bibliographic-data-grant></us-patent-grant>")
EDGE_NAMESPACED = _HEAD % (b"us-patent-grant", b"x") + (
    b'<us-patent-grant xmlns="urn:x"><us-bibliographic-data-grant/></us-patent-grant>')
EDGE_DOCS = {"edge_grant": EDGE_GRANT, "edge_application_v40": EDGE_APPLICATION_V40, "edge_no_bib": EDGE_NO_BIB,
             "edge_no_number": EDGE_NO_NUMBER, "edge_namespaced": EDGE_NAMESPACED}


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))


def document_digest(data: bytes, source_file: str, index: int, offset: int) -> str:
    """sha256 of every record one document becomes (rows of all tables and rejects)."""
    result = parse_document(data, source_file, index, offset)
    records = {"rows": {table: rows for table, rows in result.rows.items() if rows}, "rejects": result.rejects}
    return hashlib.sha256(_canonical(records).encode()).hexdigest()


def corpus(real_samples: Path) -> Iterator[tuple[str, Path]]:
    """(snapshot key, file) for every USPTO file the snapshot covers."""
    for path in sorted(SAMPLE.rglob("*")):
        if path.is_file():
            yield f"sample/{path.relative_to(SAMPLE).as_posix()}", path
    for path in sorted((real_samples / "uspto-xml").iterdir()):
        yield f"real/{path.name}", path
    for path in sorted(FIXTURES.iterdir()):
        yield f"fixtures/{path.name}", path


def file_digests(path: Path) -> list[str]:
    return [document_digest(d.data, path.name, d.index, d.offset) for d in iter_documents(path)]


def digests(real_samples: Path) -> dict[str, list[str]]:
    out = {key: file_digests(path) for key, path in corpus(real_samples)}
    out.update({f"edge/{name}": [document_digest(data, f"{name}.xml", 0, 0)] for name, data in EDGE_DOCS.items()})
    return out


@pytest.fixture(scope="module")
def snapshot() -> dict[str, list[str]]:
    return json.loads(SNAPSHOT.read_text())


def test_snapshot_covers_every_file(real_samples: Path, snapshot: dict[str, list[str]]) -> None:
    keys = {key for key, _ in corpus(real_samples)} | {f"edge/{name}" for name in EDGE_DOCS}
    assert keys == set(snapshot), "files added or removed: refresh the snapshot (see module docstring)"


def test_every_file_parses_to_the_frozen_records(real_samples: Path, snapshot: dict[str, list[str]]) -> None:
    paths = dict(corpus(real_samples))
    changed = [key for key, path in paths.items() if key in snapshot and file_digests(path) != snapshot[key]]
    assert not changed, f"parsed records differ from the snapshot for {changed}"


@pytest.mark.parametrize("name", sorted(EDGE_DOCS))
def test_edge_documents_parse_to_the_frozen_records(name: str, snapshot: dict[str, list[str]]) -> None:
    assert [document_digest(EDGE_DOCS[name], f"{name}.xml", 0, 0)] == snapshot[f"edge/{name}"]


def test_edge_documents_are_parsed_not_rejected() -> None:
    """The two full edge documents must exercise the field tables, not just the reject path."""
    for name in ("edge_grant", "edge_application_v40"):
        result = parse_document(EDGE_DOCS[name], f"{name}.xml", 0, 0)
        assert not result.rejects and result.count("claims") >= 2 and result.count("citations") >= 2, name


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/sources/test_uspto_parse_equivalence.py --update")
    from tests.conftest import REAL_SAMPLES

    SNAPSHOT.write_text(json.dumps(digests(REAL_SAMPLES), indent=1, sort_keys=True) + "\n")
    print(f"wrote {SNAPSHOT}")
