"""Property tests of the one normaliser over generated numbers, written in every form a source writes.

Each strategy draws a number's identity (what makes two numbers the same document or application) and renders it
the ways the USPTO (v4 XML, PATDOC SGML/XML, APS), the PTAB, Lens (JSON and CSV), EPO OPS (DOCDB, epodoc,
original) and citing text write it. Every form of one number must give one key; two identities never share one.
"""
from __future__ import annotations

import re

import polars as pl
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from common.patent_ids import (PatentIdError, app_id, app_join_key, app_join_key_expr, app_key_expr,
                                   normalise_app_id, normalise_pub_id, pub_id)

US_SERIES = [f"{s:02d}" for s in range(2, 19)] + ["29", "35", "60", "61", "62", "63", "90", "95"]
OFFICES = ["US", "EP", "JP", "CN", "DE", "GB", "KR", "IB"]
KINDS = ["", "A1", "A2", "B1", "B2", "E", "S", "S1", "P2", "P3", "H", "A"]
PREFIXES = ["D", "RE", "PP", "H", "T", "AI"]


def _grouped(n: int) -> str:
    return f"{n:,}"


# --- applications -------------------------------------------------------------------------------------------

@st.composite
def us_app(draw):
    series, serial, year = draw(st.sampled_from(US_SERIES)), draw(st.integers(0, 999_999)), draw(
        st.integers(1990, 2030))
    s8 = f"{series}{serial:06d}"
    forms = [("US", s8),                                          # v4 XML doc-number, PTAB applicationNumberText
             ("US", f"{series}/{serial:06d}"),                    # PATDOC B210
             ("US", f"{series}/{serial // 1000:03d},{serial % 1000:03d}"),  # printed form '62/130,600'
             ("US", f"{year}{s8}"),                               # Lens doc_number, DOCDB since 2011
             ("US", f"US{year}{s8}"), ("US", f"US {series}/{serial:06d}"), ("US", f"US{s8}"),
             ("us ", f" {s8} ")]
    if series.startswith("0"):
        forms += [("US", f"{int(series)}/{serial:06d}"), ("US", f"{int(series)}{serial:06d}")]
    texts = [f"US {series}/{_grouped(serial)}", f"US{year}{s8}", f"US-{s8}", f"US {year} {s8}"]
    return ("US", series, serial), forms, texts


@st.composite
def pct_app(draw):
    office, year = draw(st.sampled_from(OFFICES)), draw(st.integers(1978, 2030))
    serial = draw(st.integers(1, 99_999 if year < 2004 else 999_999))
    forms = [("WO", f"PCT/{office}{year}/{serial:06d}"), ("WO", f"{office}{year}{serial:06d}"),  # original, DOCDB
             ("WO", f"WO{year}{office}{serial}"), ("PCT", f"{office}{year}/{serial:06d}"),     # epodoc
             ("WO", f"PCT{office}{year}{serial:06d}"), ("WO", f"PCT / {office} {year} / {serial}")]
    texts = [f"PCT/{office}{year}/{serial:06d}", f"WO{year}{office}{serial}", f"WO-{office}{year}{serial:06d}"]
    if year < 2004:  # two-digit years and 5-digit serials before 2004
        forms += [("WO", f"PCT/{office}{year % 100:02d}/{serial:05d}"), ("WO", f"{office}{year % 100:02d}{serial:05d}")]
        texts += [f"PCT/{office}{year % 100:02d}/{serial:05d}"]
    return ("WO", office, year, serial), forms, texts


@st.composite
def ep_app(draw):
    year, serial, check = draw(st.integers(1978, 2030)), draw(st.integers(0, 999_999)), draw(st.integers(0, 9))
    yy = f"{year % 100:02d}"
    forms = [("EP", f"{yy}{serial:06d}"), ("EP", f"EP{yy}{serial:06d}"), ("EP", f"EP{year}0{serial:06d}"),
             ("EP", f"{yy}{serial:06d}.{check}"), ("EP", f"{yy} {serial // 1000:03d} {serial % 1000:03d}.{check}")]
    texts = [f"EP{year}0{serial:06d}", f"EP {yy}{serial:06d}.{check}", f"EP-{yy}{serial:06d}"]
    return ("EP", year, serial), forms, texts


APPS = st.one_of(us_app(), pct_app(), ep_app())


@settings(max_examples=250, deadline=None)
@given(APPS)
def test_every_form_of_one_application_gives_one_key(app):
    identity, forms, texts = app
    keys = {app_id(c, n) for c, n in forms} | {normalise_app_id(t) for t in texts}
    assert len(keys) == 1, (identity, keys)
    key = keys.pop()
    assert app_join_key(key) == key and normalise_app_id(key) == key  # a key is its own key


@settings(max_examples=250, deadline=None)
@given(APPS, APPS)
def test_distinct_applications_never_share_a_key(a, b):
    assume(a[0] != b[0])
    assert app_id(*a[1][0]) != app_id(*b[1][0])


@settings(max_examples=50, deadline=None)
@given(st.lists(APPS, min_size=1, max_size=20))
def test_key_expression_is_the_python_rule(apps):
    forms = [f for _, fs, _ in apps for f in fs]
    df = pl.DataFrame({"c": [c for c, _ in forms], "n": [n for _, n in forms]})
    assert df.select(app_key_expr(pl.col("c"), pl.col("n")))["c"].to_list() == [app_id(c, n) for c, n in forms]
    stored = pl.DataFrame({"app_id": [f"US-{y}{k[4:]}" for y, k in zip(range(1990, 2030), [
        app_id(c, n) for c, n in forms if c == "US"])] + [app_id(c, n) for c, n in forms]})
    assert stored.select(app_join_key_expr())["app_id"].to_list() == [app_join_key(a) for a in stored["app_id"]]


# --- publications -------------------------------------------------------------------------------------------

@st.composite
def us_grant(draw):
    n, kind = draw(st.integers(1, 12_999_999)), draw(st.sampled_from(["", "A", "B1", "B2"]))
    forms = [f"US{n}{kind}", f"US {_grouped(n)} {kind}", f"US-{n}-{kind}", f"US{n:08d}{kind}", f"US {n:08d} {kind}"]
    return ("US", "", n, kind), forms, [("US", f"{n:08d}", kind), ("US", _grouped(n), kind)]


@st.composite
def us_prefixed(draw):
    prefix, n = draw(st.sampled_from(PREFIXES)), draw(st.integers(1, 999_999))
    kind = draw(st.sampled_from(["", "E", "S", "S1", "P2", "H", "I4"]))
    forms = [f"US{prefix}{n:06d}{kind}", f"US {prefix}{_grouped(n)} {kind}", f"US-{prefix}{n}-{kind}",
             f"{prefix}{_grouped(n)} {kind}", f"{prefix}{n}{kind}", f"{prefix} {n:06d}{kind}"]
    return ("US", prefix, n, kind), forms, [("US", f"{prefix}{n:06d}", kind), ("US", f"{prefix}{_grouped(n)}", kind)]


@st.composite
def us_pgpub(draw):
    year, serial, kind = draw(st.integers(2001, 2030)), draw(st.integers(1, 9_999_999)), draw(
        st.sampled_from(["A1", "A2", "A9", ""]))
    forms = [f"US{year}/{serial:07d} {kind}", f"US{year}{serial:07d}{kind}", f"US {year}/{serial:07d}{kind}",
             f"US-{year}{serial:07d}-{kind}"]
    if serial < 1_000_000:
        forms.append(f"US{year}{serial:06d}{kind}")  # DOCDB drops a digit of padding
    return ("US", "pgpub", year, serial, kind), forms, [("US", f"{year}{serial:07d}", kind)]


@st.composite
def wo_pub(draw):
    year, kind = draw(st.integers(1978, 2030)), draw(st.sampled_from(["", "A1", "A2", "A3"]))
    serial = draw(st.integers(1, 99_999 if year < 2002 else 999_999))
    forms = [f"WO{year}/{serial:06d}{kind}", f"WO {year}/{serial:06d} {kind}", f"WO{year}{serial:06d}{kind}",
             f"WO-{year}{serial:06d}-{kind}"]
    fields = [("WO", f"{year}{serial:06d}", kind), ("WO", f"{year}/{serial:06d}", kind)]
    if year < 2004:  # 'WO 99/12345' and DOCDB 'WO9912345', 'WO02054790'
        yy = f"{year % 100:02d}"
        digits = f"{serial:05d}" if year < 2002 else f"{serial:06d}"
        forms += [f"WO {yy}/{digits} {kind}", f"WO{yy}{digits}{kind}"]
        fields += [("WO", f"{yy}{digits}", kind), ("WO", f"{yy}/{digits}", kind)]
    return ("WO", year, serial, kind), forms, fields


@st.composite
def other_pub(draw):
    cc, n, kind = draw(st.sampled_from(["EP", "DE", "GB", "FR", "CA"])), draw(st.integers(1, 9_999_999)), draw(
        st.sampled_from(["", "A1", "B1", "C2", "T2"]))
    forms = [f"{cc}{n}{kind}", f"{cc} {n:07d} {kind}", f"{cc}.{n}.{kind}", f"{cc}-{n}-{kind}",
             f"{cc} {_grouped(n)}{kind}"]
    return (cc, n, kind), forms, [(cc, str(n), kind), (cc, f"{n:07d}", kind)]


PUBS = st.one_of(us_grant(), us_prefixed(), us_pgpub(), wo_pub(), other_pub())


@settings(max_examples=300, deadline=None)
@given(PUBS)
def test_every_form_of_one_publication_gives_one_id(pub):
    identity, texts, fields = pub
    ids = {normalise_pub_id(t) for t in texts} | {pub_id(*f) for f in fields}
    assert len(ids) == 1, (identity, ids)
    canon = ids.pop()
    assert normalise_pub_id(canon) == canon


@settings(max_examples=300, deadline=None)
@given(PUBS, PUBS)
def test_distinct_publications_never_share_an_id(a, b):
    assume(a[0] != b[0])
    assert normalise_pub_id(a[1][0]) != normalise_pub_id(b[1][0])


# known prefixes only, or (outside US, WO, JP) an office's letters-and-digits number as written, with a serial
_CANON_PUB = (r"^(?:[A-Z]{2}-(?:(?:RE|PP|RX|AI|D|H|T|X|S|I|M)(?=\d))?\d+|(?!US|WO|JP)[A-Z]{2}-(?=(?:[A-Z]*\d){4})"
              r"[A-Z0-9]+)-(?:[A-Z]\d?)?$")
_CANON_APP = r"^[A-Z]{2}-[A-Z0-9]+$"
JUNK = st.one_of(st.text(max_size=30), st.text(alphabet="PCTWOUSREDH0123456789/-., ", max_size=24))


@settings(max_examples=300, deadline=None)
@given(JUNK, st.sampled_from(["", "US", "WO", "EP", "PCT", "JP", "X", "??"]))
def test_unreadable_text_is_a_clear_reject_never_a_crash_or_a_mangled_id(text, country):
    """Whatever comes in: a canonical id that reads back as itself, or PatentIdError (a counted reject)."""
    pubs = (lambda: normalise_pub_id(text), lambda: pub_id(country, text, ""))
    apps = (lambda: normalise_app_id(text, country), lambda: app_id(country, text))
    for reads, pattern, again in ((pubs, _CANON_PUB, normalise_pub_id), (apps, _CANON_APP, app_join_key)):
        for read in reads:
            try:
                out = read()
            except PatentIdError:
                continue
            assert re.match(pattern, out) and again(out) == out, (text, country, out)


def test_issue_31_examples():
    """The numbers other projects' files tripped on."""
    assert normalise_pub_id("WO2004/012345") == normalise_pub_id("WO2004012345") == "WO-2004012345-"
    assert normalise_pub_id("WO2004012345A1") == "WO-2004012345-A1"
    assert normalise_pub_id("RE38,123") == "US-RE38123-" and normalise_pub_id("PP12345") == "US-PP12345-"
    assert normalise_pub_id("D512345") == "US-D512345-"
    for not_a_number in ("H04L", "H04", "D0", "T1X"):  # IPC subclasses and the like are not US numbers
        try:
            raise AssertionError(f"{not_a_number} read as {normalise_pub_id(not_a_number)}")
        except PatentIdError:
            pass
    assert normalise_app_id("PCT/US2004/012345") == app_id("WO", "US2004012345") == "WO-US2004012345"
    for pct in ("PCT/US2004/012345", "PCT/US04/12345"):
        try:
            normalise_pub_id(pct)
            raise AssertionError(f"{pct} read as a publication")
        except PatentIdError as exc:
            assert "PCT application" in str(exc)
    assert app_id("US", "201562130600") == app_id("US", "62/130,600") == "US-62130600"
