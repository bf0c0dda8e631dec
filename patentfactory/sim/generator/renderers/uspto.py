"""USPTO bulk full text: weekly `ipgYYMMDD.zip` (grants, v4.5, Tuesdays) and `ipaYYMMDD.zip`
(applications, v4.4, Thursdays), each one `.xml` member of concatenated documents, every document
with its own XML declaration and DOCTYPE, as in the real weekly files.

Only US publications dated inside the render window are written, so small worlds stay small.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..numbering import compact
from ..text import Claim
from ..views import abstract_of, applicant_names, inventor_forms
from . import register
from ._xml import esc, write_zip
from ._xml_us import classifications, description, parties, priority_claims, references

if TYPE_CHECKING:
    from ..world import World

GRANT_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
              '<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v45-2014-04-03.dtd" [ ]>\n'
              '<us-patent-grant lang="EN" dtd-version="v4.5 2014-04-03" file="US{num}-{d}.XML" status="PRODUCTION" '
              'id="us-patent-grant" country="US" date-produced="{prod}" date-publ="{d}">\n')
APP_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE us-patent-application SYSTEM "us-patent-application-v44-2014-04-03.dtd" [ ]>\n'
            '<us-patent-application lang="EN" dtd-version="v4.4 2014-04-03" file="US{num}{kind}-{d}.XML" '
            'status="PRODUCTION" id="us-patent-application" country="US" date-produced="{prod}" date-publ="{d}">\n')


def _doc_id(cc: str, num: str, kind: str | None, days: int | None) -> str:
    parts = [f"<country>{cc}</country>", f"<doc-number>{num}</doc-number>"]
    if kind:
        parts.append(f"<kind>{kind}</kind>")
    if days is not None:
        parts.append(f"<date>{compact(days)}</date>")
    return "<document-id>\n" + "\n".join(parts) + "\n</document-id>\n"


def claims_xml(claims: list[Claim]) -> str:
    """`<claims>` with nested claim-text for elements and claim-ref idref for dependencies."""
    out = ['<us-claim-statement>What is claimed is:</us-claim-statement>\n<claims id="claims">\n']
    for c in claims:
        out.append(f'<claim id="CLM-{c.num:05d}" num="{c.num:05d}">\n')
        if c.depends_on:
            ref = c.depends_on[0]
            out.append(f'<claim-text>{c.num}. {esc(c.preamble)} <claim-ref idref="CLM-{ref:05d}">claim {ref}'
                       f'</claim-ref>{esc(c.body)}</claim-text>\n')
        else:
            inner = "".join(f"<claim-text>{esc(e)}</claim-text>\n" for e in c.elements)
            out.append(f"<claim-text>{c.num}. {esc(c.preamble)}\n{inner}</claim-text>\n")
        out.append("</claim>\n")
    out.append("</claims>\n")
    return "".join(out)


def _related(world: World, p: int) -> str:
    """us-related-documents: the earlier pre-grant publication of a grant, and US provisionals."""
    i = int(world.pubs["inv"][p])
    parts = []
    for q in world.members(i):
        if q != p and world.pubs["cc"][q] == "US" and world.pubs["kind"][q] == "A1" and world.pubs["kind"][p] != "A1":
            parts.append("<related-publication>\n" + _doc_id("US", world.pubs["number"][q], "A1",
                                                             int(world.pubs["date"][q])) + "</related-publication>\n")
    for cc, num, d in world.priorities(i):
        if cc == "US" and num[:2] in ("60", "61", "62", "63"):
            parts.append("<us-provisional-application>\n" + _doc_id("US", num, None, d) + "</us-provisional-application>\n")
    return f"<us-related-documents>\n{''.join(parts)}</us-related-documents>\n" if parts else ""


def _biblio(world: World, p: int, grant: bool) -> str:
    """The bibliographic block of a grant or an application, in v4.x element order."""
    pubs, i = world.pubs, int(world.pubs["inv"][p])
    a = int(pubs["app"][p])
    t = world.text(i)
    app_day = int(world.apps["date"][a])
    out = ["<publication-reference>\n", _doc_id("US", pubs["number"][p], str(pubs["kind"][p]), int(pubs["date"][p])),
           '</publication-reference>\n<application-reference appl-type="utility">\n',
           _doc_id("US", world.apps["number"][a], None, app_day), "</application-reference>\n",
           f"<us-application-series-code>{str(world.apps['number'][a])[:2]}</us-application-series-code>\n",
           priority_claims(world, i)]
    if grant:
        out.append(f"<us-term-of-grant>\n<us-term-extension>{(p * 37) % 900}</us-term-extension>\n</us-term-of-grant>\n")
    out.append(classifications(world.inv["ipc"][i], world.inv["cpc"][i], int(pubs["date"][p])))
    out.append(f'<invention-title id="d2e{53 + p % 40}">{esc(t.title)}</invention-title>\n')
    if grant:
        out.append(references(world, p))
        out.append(f"<number-of-claims>{len(t.claims)}</number-of-claims>\n<us-exemplary-claim>1</us-exemplary-claim>\n"
                   "<figures>\n<number-of-drawing-sheets>2</number-of-drawing-sheets>\n"
                   "<number-of-figures>2</number-of-figures>\n</figures>\n")
    out.append(_related(world, p))
    out.append(parties(world, p, inventor_forms(world, p), applicant_names(world, i), grant))
    return "".join(out)


def document(world: World, p: int) -> str:
    """One complete grant (B1/B2) or application (A1) XML document."""
    pubs = world.pubs
    grant = pubs["kind"][p] != "A1"
    d = compact(int(pubs["date"][p]))
    prod = compact(int(pubs["date"][p]) - 7)
    t = world.text(int(pubs["inv"][p]))
    abstract, _ = abstract_of(world, p)
    if grant:
        head = GRANT_HEAD.format(num=pubs["number"][p], d=d, prod=prod) + "<us-bibliographic-data-grant>\n"
        tail_bib = "</us-bibliographic-data-grant>\n"
    else:
        head = APP_HEAD.format(num=pubs["number"][p], kind="A1", d=d, prod=prod) + \
            '<us-bibliographic-data-application lang="EN" country="US">\n'
        tail_bib = "</us-bibliographic-data-application>\n"
    body = [head, _biblio(world, p, grant), tail_bib,
            f'<abstract id="abstract">\n<p id="p-0001" num="0000">{esc(abstract)}</p>\n</abstract>\n',
            description(t.description), claims_xml(t.claims),
            "</us-patent-grant>\n" if grant else "</us-patent-application>\n"]
    return "".join(body)


def _weekly(world: World, out: Path, grants: bool) -> list[Path]:
    """Group in-window US publications by publication day (one weekday per product) and write the zips."""
    pubs = world.pubs
    lo, hi = world.spec.window
    kind_ok = pubs["kind"] != "A1" if grants else pubs["kind"] == "A1"
    sel = np.flatnonzero((pubs["cc"] == "US") & kind_ok & (pubs["date"] >= lo) & (pubs["date"] <= hi))
    prefix, folder = ("ipg", "PTGRXML") if grants else ("ipa", "APPXML")
    written = []
    for days in np.unique(pubs["date"][sel]).tolist():
        members = sel[pubs["date"][sel] == days]
        members = members[np.argsort(pubs["number"][members].astype(str), kind="stable")]
        stem = f"{prefix}{compact(days)[2:]}"
        payload = "".join(document(world, int(p)) for p in members).encode("utf-8")
        written.append(write_zip(out / "uspto" / folder / f"{stem}.zip", f"{stem}.xml", payload, days))
    return written


@register("uspto")
def render_uspto(world: World, out: Path) -> list[Path]:
    """Weekly grant and application zips for the render window."""
    return _weekly(world, out, grants=True) + _weekly(world, out, grants=False)

