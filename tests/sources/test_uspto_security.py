"""Hostile inputs: entity bombs, XXE, zip-slip, zip bombs, truncated archives, a bad document mid-file."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lxml import etree

from sources.uspto_bulk import (
    Limits, TruncatedArchiveError, UnsafeArchiveError, UnsafeXMLError, iter_documents, parse_document, parse_file,
    parse_xml,
)
from sources.uspto_bulk.safexml import safe_parser
from sources.uspto_bulk.text import flatten

FIXTURES = Path(__file__).parent / "fixtures" / "uspto"

LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE us-patent-grant [
<!ENTITY lol "lol">
<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<us-patent-grant><us-bibliographic-data-grant><invention-title>&lol9;</invention-title>
</us-bibliographic-data-grant></us-patent-grant>
"""

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE us-patent-grant [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<us-patent-grant><us-bibliographic-data-grant><invention-title>&xxe;</invention-title>
</us-bibliographic-data-grant></us-patent-grant>
"""

MINI = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v45-2014-04-03.dtd" [ ]>
<us-patent-grant lang="EN" dtd-version="v4.5 2014-04-03" country="US">
<us-bibliographic-data-grant>
<publication-reference><document-id><country>US</country><doc-number>{num}</doc-number><kind>B2</kind>
<date>20180619</date></document-id></publication-reference>
<invention-title>Widget {num}</invention-title>
</us-bibliographic-data-grant>
<claims><claim id="CLM-00001" num="00001"><claim-text>1. A widget.</claim-text></claim></claims>
</us-patent-grant>
"""


def _mini(num: int) -> bytes:
    return MINI.format(num=num).encode()


def test_billion_laughs_refused_with_reason() -> None:
    with pytest.raises(UnsafeXMLError, match="internal text entity"):
        parse_xml(LAUGHS)
    result = parse_document(LAUGHS, "evil.xml", 3, 120)
    assert result.count("publications") == 0
    (rej,) = result.rejects
    assert rej["locator"] == "doc=3@120" and rej["error_class"] == "UnsafeXMLError"


def test_safe_parser_alone_does_not_expand_entities() -> None:
    """Second line of defence: even without the pre-check the parser leaves entities unexpanded."""
    try:
        root = etree.fromstring(LAUGHS, safe_parser())
    except etree.XMLSyntaxError as exc:  # libxml2's own amplification guard refused it: also safe
        assert "amplification" in str(exc) or "entity" in str(exc).lower()
        return
    title = root.find(".//invention-title")
    assert len(flatten(title)) < 100
    assert "lollollol" not in etree.tostring(root).decode()


def test_external_entity_is_never_read() -> None:
    with pytest.raises(UnsafeXMLError, match="external entity"):
        parse_xml(XXE)
    root = etree.fromstring(XXE, safe_parser())
    text = etree.tostring(root).decode() + flatten(root)
    assert "root:" not in text
    rej = parse_document(XXE, "evil.xml", 0, 0).rejects[0]
    assert "root:" not in rej["message"] and rej["error_class"] == "UnsafeXMLError"


def test_ndata_image_entities_are_allowed() -> None:
    data = (FIXTURES / "patdoc_us06715000.xml").read_bytes()
    assert parse_document(data, "p.xml", 0, 0).count("publications") == 1


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


@pytest.mark.parametrize("name", ["../../etc/evil.xml", "/abs/evil.xml", "a/../../evil.xml", "C:\\evil.xml"])
def test_zip_slip_member_names_refused(tmp_path: Path, name: str) -> None:
    path = _zip(tmp_path / "ipg240102.zip", {"ipg240102.xml": _mini(1), name: _mini(2)})
    with pytest.raises(UnsafeArchiveError, match="unsafe member name"):
        list(iter_documents(path))


def test_zip_bomb_by_ratio_refused(tmp_path: Path) -> None:
    path = _zip(tmp_path / "ipg240109.zip", {"ipg240109.xml": b"<" + b" " * (20 << 20)})
    with pytest.raises(UnsafeArchiveError, match="compression ratio"):
        list(iter_documents(path))


def test_zip_bomb_by_declared_size_refused(tmp_path: Path) -> None:
    path = _zip(tmp_path / "ipg240116.zip", {"ipg240116.xml": _mini(1) * 50})
    with pytest.raises(UnsafeArchiveError, match="declares"):
        list(iter_documents(path, Limits(max_member_bytes=1000)))


def test_zip_lying_about_size_is_caught(tmp_path: Path) -> None:
    """A member that decompresses to more than it declares never gets past the declared size."""
    good = _zip(tmp_path / "ok.zip", {"ipg.xml": _mini(1) + _mini(2)})
    raw = bytearray(good.read_bytes())
    real = len(_mini(1) + _mini(2))
    for marker in (b"PK\x03\x04", b"PK\x01\x02"):  # patch uncompressed size in local + central headers
        pos = raw.find(marker)
        field_at = pos + (22 if marker == b"PK\x03\x04" else 24)
        assert int.from_bytes(raw[field_at:field_at + 4], "little") == real
        raw[field_at:field_at + 4] = (real // 2).to_bytes(4, "little")
    liar = tmp_path / "liar.zip"
    liar.write_bytes(bytes(raw))
    with pytest.raises((UnsafeArchiveError, TruncatedArchiveError)):
        list(iter_documents(liar))


def test_truncated_zip_raises_specific_error(tmp_path: Path) -> None:
    good = _zip(tmp_path / "full.zip", {"ipg240123.xml": b"".join(_mini(n) for n in range(10000000, 10000200))})
    cut = tmp_path / "ipg240123.zip"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(TruncatedArchiveError):
        list(parse_file(cut))


def test_corrupt_deflate_stream_raises_specific_error(tmp_path: Path) -> None:
    payload = b"".join(_mini(n) for n in range(10000000, 10000300))
    good = _zip(tmp_path / "full.zip", {"ipg.xml": payload})
    raw = bytearray(good.read_bytes())
    for i in range(200, 400):  # scramble compressed bytes, headers untouched
        raw[i] ^= 0x5A
    bad = tmp_path / "bad.zip"
    bad.write_bytes(bytes(raw))
    with pytest.raises(TruncatedArchiveError):
        list(iter_documents(bad))


def test_malformed_document_in_the_middle_others_continue(tmp_path: Path) -> None:
    broken = _mini(10000002).replace(b"</claims>", b"</claimz>")
    unknown = b'<?xml version="1.0"?>\n<!DOCTYPE sequence-cwu SYSTEM "x.dtd" [ ]>\n<sequence-cwu/>\n'
    truncated = _mini(10000004)[:300]
    docs = [_mini(10000001), broken, _mini(10000003), unknown, truncated, _mini(10000005)]
    path = _zip(tmp_path / "ipg180619.zip", {"ipg180619.xml": b"".join(docs)})
    (result,) = list(parse_file(path))
    assert [p["pub_id"] for p in result.rows["publications"]] == [
        "US-10000001-B2", "US-10000003-B2", "US-10000005-B2"]
    offsets = [sum(len(d) for d in docs[:i]) for i in range(len(docs))]
    assert [r["locator"] for r in result.rejects] == [f"doc={i}@{offsets[i]}" for i in (1, 4)]
    assert [r["error_class"] for r in result.rejects] == ["XMLSyntaxError", "XMLSyntaxError"]
    assert result.skipped == {"sequence-cwu": 1}  # a sequence listing is no patent: counted, not a reject
    assert result.rejects[0]["snippet"].startswith("<?xml") and all(r["source_file"] == "ipg180619.zip"
                                                                      for r in result.rejects)
    assert set(result.to_arrow()) == {"publications", "claims", "rejects"}


def test_invalid_utf8_is_rejected_not_replaced() -> None:
    data = _mini(10000009).replace(b"Widget", b"Wid\xffget")
    result = parse_document(data, "f.xml", 0, 0)
    assert result.count("publications") == 0 and result.rejects[0]["error_class"] == "XMLSyntaxError"


def test_duplicate_publication_in_a_file_is_a_reject(tmp_path: Path) -> None:
    path = tmp_path / "ipg.xml"
    path.write_bytes(_mini(10000001) + _mini(10000001))
    (result,) = list(parse_file(path))
    assert result.count("publications") == 1
    assert "duplicate publication US-10000001-B2" in result.rejects[0]["message"]
    result.to_arrow()


def test_empty_file_is_a_reject_not_an_empty_result(tmp_path: Path) -> None:
    path = tmp_path / "ipg000000.xml"
    path.write_bytes(b"\n\n")
    (result,) = list(parse_file(path))
    assert result.rejects[0]["locator"] == "file" and "no documents" in result.rejects[0]["message"]
