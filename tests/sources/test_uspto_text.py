"""text.clean: every fast path gives what the plain rule gives (collapse blanks, strip lines, drop empty lines)."""
import re

import pytest

from sources.uspto_bulk.text import clean


def _rule(text: str) -> str:
    """The rule clean implements, written the slow, obvious way: runs of ASCII blanks and no-break spaces
    become one space; other Unicode spaces (em space, ...) stay inside a line but are stripped at its ends."""
    lines = (re.sub(r"[ \t\f\v\u00a0]+", " ", line).strip() for line in text.replace("\r", "\n").split("\n"))
    return "\n".join(line for line in lines if line)


@pytest.mark.parametrize("text", [
    "one line",
    "one line\n",            # plain line and a final newline: the newline goes, as after any other line
    "one line\n\n",
    "\none line",
    "  a \t b \n\n  c  \r\n",
    "a\u00a0 b",             # a no-break space collapses with the blank beside it
    "x\u2003y\n z",          # an em space inside a line stays
    "\u2003x y\u2003",
    "tab\there\n",
    "",
    " \n \t ",
])
def test_clean_matches_the_rule(text):
    assert clean(text) == _rule(text)


def test_final_newline_of_a_plain_line_is_dropped():
    assert clean("one line\n") == "one line"
    assert clean("  a \t b \n\n  c  \r\n") == "a b\nc"


@pytest.mark.parametrize("name,formulas", [("grant_us10000000b2_14643719.xml", 2),  # v4.5 <maths> with MathML
                                           ("ipg100824-hyphenated.xml", 1),          # v4.2 <maths> with MathML
                                           ("pa20010031492.xml", 1)])                # pap v1.5 <math-cwu>
def test_real_formulas_become_latex_not_a_trail_of_symbols(real_samples, name, formulas):
    """Each formula of the real file is one `$...$` LaTeX token in its paragraph (the MathML leaves were a
    column of single characters before), and no formula is lost."""
    from pathlib import Path

    from sources.uspto_bulk import parse_document

    data = Path(real_samples / "uspto-xml" / name).read_bytes()
    texts = [r["text"] or "" for r in parse_document(data, name, 0, 0).rows["descriptions"]]
    latex = [m for t in texts for m in re.findall(r"\$[^$\n]+\$", t)]
    assert len(latex) == formulas == len(re.findall(rb"<math[\s>]", data))
    assert all("\\" in x or "=" in x for x in latex) and not any("\n=\n" in t for t in texts)


def test_chemistry_and_image_only_formulas_leave_their_token():
    """A chemical structure (v4 `<chemistry>`, pap `<chemistry-cwu>`, PATDOC `<CHEM-US>`) and a formula with no
    MathML (`<maths>` holding an image, `<MATH-US>`) leave a token where they stood, as tables do."""
    from lxml import etree

    from sources.uspto_bulk.text import flatten

    for chem, maths in (('<chemistry id="CHEM-US-00001" num="00001"><img id="EMI-C1" file="a.TIF"/></chemistry>',
                         '<maths id="MATH-US-00001" num="00001"><img id="EMI-M1" file="b.TIF"/></maths>'),
                        ('<chemistry-cwu id="CHEM-US-00001"><number>1</number><image id="EMI-C1"/></chemistry-cwu>',
                         '<math-cwu id="MATH-US-00001"><number>1</number><image id="EMI-M1"/></math-cwu>'),
                        ('<CHEM-US ID="CHEM-US-00001"><EMI ID="EMI-C1" FILE="a.TIF"/></CHEM-US>',
                         '<MATH-US ID="MATH-US-00001"><EMI ID="EMI-M1" FILE="b.TIF"/></MATH-US>')):
        p = etree.fromstring(f"<p>a compound of formula {chem} and the rate {maths} where k is</p>")
        assert flatten(p) == "a compound of formula [CHEMISTRY] and the rate [MATH] where k is"


def test_a_weekly_file_converts_its_formulas_in_batches_as_one_document_does(real_samples, tmp_path):
    """parse_file sends each yielded batch's formulas to pandoc at once; the rows equal the per-document parse,
    whatever the batch size, and no marker is left behind."""
    from sources.uspto_bulk import iter_documents, parse_document, parse_file
    from sources.uspto_bulk.text import FORMULA_OPEN

    weekly = tmp_path / "ipg-mixed.xml"
    weekly.write_bytes(b"".join((real_samples / "uspto-xml" / n).read_bytes() for n in (
        "grant_us10000000b2_14643719.xml", "ipg120327.two.xml", "ipg100824-hyphenated.xml")))
    one_by_one = [parse_document(d.data, weekly.name, d.index, d.offset).rows for d in iter_documents(weekly)]
    expected = [r for rows in one_by_one for r in rows["descriptions"]]
    assert sum("$" in r["text"] for r in expected if r["text"]) == 3
    for size in (1, 2, 100):
        got = [r for batch in parse_file(weekly, batch_docs=size) for r in batch.rows["descriptions"]]
        assert got == expected and not any(FORMULA_OPEN in (r["text"] or "") for r in got), size
