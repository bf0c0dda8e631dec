"""The one IPC normaliser over every era's spelling: APS `ICL`, PATDOC `B511`, pap/v4 `classification-ipc` text,
v4 `classification-ipcr` parts, OPS text, DOCDB padding, Lens. One group gives one symbol, padded or short.

Each era is checked on the real files in real-samples/uspto-xml (pap v1.5, v4.0 text, v4.2-4.5 ipcr): every group
a file holds, written the other eras' ways, reads back as the symbol the parser stored. APS and PATDOC have no
real sample there, so their checks use the repo fixtures in those formats and variants of them.
"""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from sources.uspto_bulk import parse_file
from sources.uspto_bulk.convert import ipc_from_parts
from sources.uspto_bulk.parse import parse_document
from sources.records import ParseResult
from common.ipc_symbols import normalise_ipc

FIXTURES = Path(__file__).parents[1] / "sources" / "fixtures" / "uspto"


def era_forms(subclass: str, main: int, sub: str) -> list[str]:
    """One group as each source era writes it (sub: the subgroup's significant digits, >= 2)."""
    padded_sub = sub.ljust(6, "0")
    fixed = f"{subclass}{main:>3}{sub}"  # APS ICL, PATDOC B511: main group right-aligned in 3 columns
    forms = [f"{subclass} {main}/{sub}", f"{subclass}{main}/{sub}", f"{subclass}{main:03d}/{sub}",  # Lens, v4, pap
             f"{subclass}{main:>4}/{sub:>6}  A I", f"{subclass}{main:04d}{padded_sub}",  # OPS text, DOCDB
             fixed, f"{subclass} {main}/{sub} (2006.01)", f"{subclass} {main:02d}/{sub}0",
             ipc_from_parts(subclass[0], subclass[1:3], subclass[3], f"{main:03d}", sub),  # v4 ipcr parts
             ipc_from_parts(subclass[0], subclass[1:3], subclass[3], str(main), sub + "00")]
    if main < 10 and len(sub) == 2:
        forms.append(" ".join(fixed.split()))  # the two blanks collapsed by text extraction: 'B32B 302'
    return forms


SUBGROUPS = st.one_of(st.integers(0, 99).map(lambda n: f"{n:02d}"),
                      st.tuples(st.integers(0, 99), st.integers(1, 99)).map(
                          lambda t: f"{t[0]:02d}{t[1]}".rstrip("0")).filter(lambda s: len(s) > 2))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["B32B", "H04L", "A61K", "C07D", "G06F", "F16B", "H01L", "A44B"]),
       st.integers(1, 999), SUBGROUPS)
def test_every_era_form_gives_one_symbol(subclass, main, sub):
    symbols = {normalise_ipc(f) for f in era_forms(subclass, main, sub)}
    assert symbols == {f"{subclass} {main}/{sub}"}


def test_issue_31_one_digit_main_group():
    assert normalise_ipc("B32B  302") == normalise_ipc("B32B 302") == normalise_ipc("B32B 3/02") == "B32B 3/02"
    assert normalise_ipc("F16B  212") == "F16B 2/12" and normalise_ipc("A44B 2100") == "A44B 21/00"
    assert normalise_ipc("C07D48704") == "C07D 487/04" and normalise_ipc("H01L 218238") == "H01L 21/8238"
    assert normalise_ipc("B32B   02") is None and normalise_ipc("B32B 0/02") is None  # no main group: no guess


def _symbol_parts(el: etree._Element) -> tuple[str, int, str]:
    def part(name: str) -> str:
        return (el.findtext(name) or "").strip()
    return part("section") + part("class") + part("subclass"), int(part("main-group")), part("subgroup")


def _docs(path: Path) -> list[bytes]:
    text = path.read_bytes()
    return [b"<?xml" + d for d in text.split(b"<?xml")[1:]]


def _parsed(path: Path) -> ParseResult:
    out = ParseResult()
    for batch in parse_file(path):
        out.extend(batch)
    assert out.rejects == []
    return out


def test_v4_ipcr_era_on_real_files(real_samples: Path):
    """v4.2-4.5 (2006-now): structured ipcr parts; each, written every other era's way, gives the stored symbol."""
    checked = 0
    for name in ("grant_us10000000b2_14643719.xml", "ipa20180000016.xml", "ipa20200022300.xml", "ipg08672134.xml",
                 "ipg100824-hyphenated.xml", "ipa130117.one.xml"):
        path = real_samples / "uspto-xml" / name
        pubs = _parsed(path).rows["publications"]
        for data, pub in zip(_docs(path), pubs):
            root = etree.fromstring(data.split(b"]>", 1)[-1] if b"<!DOCTYPE" in data else data)
            bib = next(iter(root))
            parts = [_symbol_parts(el) for el in bib.iter("classification-ipcr")]
            assert parts, name
            for subclass, main, sub in parts:
                sig = sub[:2] + sub[2:].rstrip("0")
                symbol = f"{subclass} {main}/{sig}"
                assert symbol in pub["ipc"], (name, symbol, pub["ipc"])
                assert {normalise_ipc(f) for f in era_forms(subclass, main, sig)} == {symbol}
                checked += 1
    assert checked >= 10


def test_text_era_ipc_on_real_files(real_samples: Path):
    """pap v1.5 (2001) `<ipc>C12N001/20</ipc>` and v4.0 (2004) `<main-classification>A61B005/00`: padded main
    groups in text; the parser's symbols equal every other era's spelling of the same group."""
    for name, tag in (("pa20010031492.xml", "ipc"), ("US20050004437A1.xml", "main-classification")):
        data = (real_samples / "uspto-xml" / name).read_bytes()
        (pub,) = parse_document(data, name, 0, 0).rows["publications"]
        raw = [t.strip() for t in re.findall(rb"<classification-ipc>(.*?)</classification-ipc>", data, re.S)
               for t in re.findall(rf"<{tag}>([^<]*)</{tag}>".encode(), t)]
        assert raw and pub["ipc"], name
        for text in raw:
            m = re.fullmatch(rb"([A-H]\d\d[A-Z])0*(\d+)/(\d+)", text)
            assert m, text
            subclass, main, sub = m.group(1).decode(), int(m.group(2)), m.group(3).decode()
            symbol = normalise_ipc(text.decode())
            assert symbol in pub["ipc"] and symbol == f"{subclass} {main}/{sub}"
            assert {normalise_ipc(f) for f in era_forms(subclass, main, sub)} == {symbol}


def test_aps_and_patdoc_fixed_field_eras():
    """APS `ICL  F16B  212` and PATDOC `<B511>` hold the fixed-field form; the PATDOC parser reads its text with
    the blanks as written, so a one-digit main group survives (issue 31: `B32B  302` gave no IPC)."""
    aps = _parsed(FIXTURES / "aps_pftaps19990105.txt").rows["publications"][0]
    assert aps["ipc"] == [normalise_ipc("F16B 2/12"), normalise_ipc("A44B0021000000")]
    data = (FIXTURES / "patdoc_us06715000.xml").read_bytes()
    (pub,) = parse_document(data, "pg040406.xml", 0, 0).rows["publications"]
    assert pub["ipc"] == ["H04L 29/06", "G06F 15/16"]
    variant = data.replace(b"<B511><PDAT>H04L 2906</PDAT>", b"<B511><PDAT>B32B  302</PDAT>") \
        .replace(b"<B512><PDAT>G06F 1516</PDAT>", b"<B512><PDAT>A61K  3170</PDAT>")
    assert variant != data
    (pub,) = parse_document(variant, "pg040406.xml", 0, 0).rows["publications"]
    # 'A61K  3170' is 3/170 (= 3/17); with the blanks collapsed it would read as 31/70
    assert pub["ipc"] == ["B32B 3/02", "A61K 3/17"] and pub["ipc3"] == "B32"
