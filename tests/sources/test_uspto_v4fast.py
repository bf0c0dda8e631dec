"""The one-pass XSLT reading of v4 documents gives exactly the `Doc` of the element-by-element reading.

The snapshot test pins the records; this one pins the two v4 readings to each other on every v4
document we have, including the edge documents with their entities turned into character references
and their namespaced elements left out (so the stylesheet, not the fallback, reads the odd orderings,
tables, comments, claim references and empty parts), and checks which documents take the fallback.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sources.uspto_bulk import iter_documents
from sources.uspto_bulk.parse import detect_format
from sources.uspto_bulk.safexml import parse_xml
from sources.uspto_bulk.v4 import parse_v4
from sources.uspto_bulk.v4fast import parse_v4_fast
from tests.sources.test_uspto_parse_equivalence import EDGE_APPLICATION_V40, EDGE_GRANT, corpus

_NAMED = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);)[A-Za-z_][\w.\-]*;")
_MATHML = re.compile(rb"<(?:\w+:)?math[\s>/]")


def _without_entities(data: bytes) -> bytes:
    return _NAMED.sub(b"&#x2603;", data)


def _without_namespaces(data: bytes) -> bytes:
    return b"\n".join(line for line in data.split(b"\n") if b"xmlns" not in line)


def _stylesheet_readable(data: bytes) -> bytes:
    """The edge document as the stylesheet reads it: no entities, namespaces or MathML formula."""
    return _without_namespaces(_without_entities(data)).replace(b'<math id="m1"><mi>x</mi></math>', b"")


def v4_documents(real_samples: Path) -> list[tuple[str, bytes]]:
    docs = [(f"{key}#{d.index}", d.data) for key, path in corpus(real_samples) for d in iter_documents(path)]
    docs = [(key, data) for key, data in docs if detect_format(data) == "v4"]
    for name, data in (("edge_grant", EDGE_GRANT), ("edge_application_v40", EDGE_APPLICATION_V40)):
        docs.append((f"{name}-no-entities", _without_namespaces(_without_entities(data))))
    return docs


def test_fast_reading_equals_the_element_reading(real_samples: Path) -> None:
    docs = v4_documents(real_samples)
    fast = 0
    for key, data in docs:
        root = parse_xml(data)
        doc = parse_v4_fast(root, data)
        if doc is not None:
            fast += 1
            assert doc == parse_v4(root), key
    with_mathml = sum(1 for _key, data in docs if _MATHML.search(data))  # LaTeX needs pandoc: element reading
    assert with_mathml >= 2 and fast == len(docs) - with_mathml, "a document without entities or MathML: fallback"
    assert len(docs) > 40


@pytest.mark.parametrize("change", [
    lambda d: d,  # named entities (&lsqb; ...): XSLT does not see entity nodes
    lambda d: _without_entities(d),  # a namespaced <m:table> inside a paragraph
    lambda d: _without_namespaces(_without_entities(d)).replace(b"</abstract>", "\ue001</abstract>".encode()),
    lambda d: _without_namespaces(_without_entities(d)).replace(b"</abstract>", b"&#xE000;</abstract>"),
])
def test_documents_the_stylesheet_cannot_read_take_the_fallback(change) -> None:
    data = change(EDGE_GRANT)
    assert parse_v4_fast(parse_xml(data), data) is None


def test_mathml_documents_take_the_element_reading_and_keep_their_formula() -> None:
    """A formula's LaTeX comes from pandoc, which the stylesheet cannot call: MathML documents are read element by
    element, and the formula stays in the text as LaTeX (it used to be flattened to 'x=')."""
    math = b'<maths id="M1"><math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi><mo>=</mo></math></maths>'
    data = _without_namespaces(_without_entities(EDGE_GRANT)).replace(b"Second   line", math + b" line")
    root = parse_xml(data)
    assert parse_v4_fast(root, data) is None
    assert any("$x =$ line" in (text or "") for _heading, text in parse_v4(root).paragraphs)


def test_chemistry_and_image_formulas_read_alike_and_leave_a_token() -> None:
    """`<chemistry>` and an image-only `<maths>` are placeholders in both readings, inside a paragraph and between
    paragraphs ('a compound of formula <chemistry/> and' lost the formula before)."""
    chem = (b'<chemistry id="CHEM-US-00001" num="00001"><img id="EMI-C1" file="x.TIF" alt="chemical structure"/>'
            b'</chemistry>')
    maths = b'<maths id="MATH-US-00001" num="00001"><img id="EMI-M1" file="m.TIF" alt="embedded image"/></maths>'
    base = _stylesheet_readable(EDGE_GRANT)
    assert not _MATHML.search(base)
    data = base.replace(b"Second   line", b"a compound of formula " + chem + b" and " + maths + b" line")
    data = data.replace(b"<heading", chem + b"<heading", 1)
    assert data.count(b"<chemistry") == base.count(b"<chemistry") + 2
    root = parse_xml(data)
    fast, slow = parse_v4_fast(root, data), parse_v4(root)
    assert fast is not None and fast == slow
    texts = [text or "" for _heading, text in fast.paragraphs]
    assert any("a compound of formula [CHEMISTRY] and [MATH] line" in t for t in texts)
    assert "[CHEMISTRY]" in texts and not any("Chem text" in t for t in texts)  # the token stands for it all


def test_threads_read_the_same_docs(real_samples: Path) -> None:
    """Each thread compiles its own stylesheet; documents parsed in threads read as in the main thread."""
    from concurrent.futures import ThreadPoolExecutor

    docs = [data for _key, data in v4_documents(real_samples)]

    def read(data: bytes) -> object:
        return parse_v4_fast(parse_xml(data), data)

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(read, docs)) == [read(data) for data in docs]


def test_a_document_the_fast_reading_trips_over_is_read_as_before() -> None:
    """A value the shared converters refuse (an IPC main group `²`: a digit to isdigit, not to int) fails
    the fast reading; parse_document then rejects it exactly as the element reading does."""
    from sources.uspto_bulk import parse_document

    data = _stylesheet_readable(EDGE_GRANT).replace(
        b"<main-group>1</main-group><subgroup>2</subgroup>",
        "<main-group>²</main-group><subgroup>2</subgroup>".encode())
    root = parse_xml(data)
    with pytest.raises(ValueError) as fast_error:
        parse_v4_fast(root, data)
    with pytest.raises(ValueError) as element_error:
        parse_v4(root)
    result = parse_document(data, "x.xml", 0, 0)
    assert [r["message"] for r in result.rejects] == [str(element_error.value)] == [str(fast_error.value)]
