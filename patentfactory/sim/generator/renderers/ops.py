"""EPO OPS 3.2 responses for EP documents, stored under the REST paths the replica serves:
`ops/published-data/publication/docdb/EP.N.K/biblio.xml`, `.../claims.xml` and
`ops/family/publication/docdb/EP.N.K.xml` (INPADOC = extended family).

Written for every EP application that has a publication inside the render window (both its A
and B documents, so Patent-CR finds the application claims of a recent grant). Application claims
are the invention's claims; B1 claims are the amended ones (entities.claim_revision), in EN, DE, FR.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..entities import claim_revision
from ..ipc import split_symbol
from ..numbering import compact, iso
from ..views import abstract_of, applicant_names, inventor_forms
from . import register
from ._xml import esc, write_text

if TYPE_CHECKING:
    from ..world import World

ROOT = ('<?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" href="/3.2/style/{xsl}.xsl"?>\n'
        '<ops:world-patent-data xmlns="http://www.epo.org/exchange" xmlns:ops="http://ops.epo.org" '
        'xmlns:xlink="http://www.w3.org/1999/xlink">\n')
END = "</ops:world-patent-data>\n"
_DE = {"A ": "Ein ", "The ": "Die ", "method": "Verfahren", "system": "System", "comprising": "umfassend",
       "wherein": "wobei", "claim": "Anspruch", "configured to": "eingerichtet zum", " and ": " und ", " of ": " nach "}
_FR = {"A ": "Un ", "The ": "Le ", "method": "procédé", "system": "système", "comprising": "comprenant",
       "wherein": "dans lequel", "claim": "revendication", "configured to": "configuré pour", " and ": " et ",
       " of ": " selon "}


def _translate(text: str, table: dict[str, str]) -> str:
    """A crude word-map rendering: enough for a non-English claims block that an EN filter must skip."""
    for a, b in table.items():
        text = text.replace(a, b)
    return text


def _docdb(cc: str, num: str, kind: str, days: int | None, indent: str = "") -> str:
    d = f"<date>{compact(days)}</date>" if days is not None else ""
    return (f'{indent}<document-id document-id-type="docdb"><country>{cc}</country><doc-number>{num}</doc-number>'
            f"<kind>{kind}</kind>{d}</document-id>\n")


def _ipcr_text(symbol: str) -> str:
    """OPS's fixed-width IPCR text: 'H04W  84/    20            A I                    '."""
    sec, cls, sub, main, subgrp = split_symbol(symbol)
    return f"{sec}{cls}{sub}{main:>4}/{subgrp:>6}            A I                    "


def _classes(world: World, i: int) -> str:
    ipcr = "".join(f'<classification-ipcr sequence="{k}"><text>{_ipcr_text(s)}</text></classification-ipcr>\n'
                   for k, s in enumerate(world.inv["ipc"][i], 1))
    cpc = "".join(f'<patent-classification sequence="{k}"><classification-scheme office="EP" scheme="CPCI"/>'
                  f"<section>{a}</section><class>{b}</class><subclass>{c}</subclass><main-group>{d}</main-group>"
                  f"<subgroup>{e}</subgroup><classification-value>I</classification-value>"
                  f"<generating-office>EP</generating-office></patent-classification>\n"
                  for k, (a, b, c, d, e) in enumerate((split_symbol(s) for s in world.inv["cpc"][i]), 1))
    return f"<classifications-ipcr>\n{ipcr}</classifications-ipcr>\n<patent-classifications>\n{cpc}</patent-classifications>\n"


def _parties(world: World, p: int, i: int) -> str:
    apps = applicant_names(world, i)
    a_epo = "".join(f'<applicant sequence="{k}" data-format="epodoc"><applicant-name><name>{esc(n.upper())} [{c}]'
                    f"</name></applicant-name></applicant>\n" for k, (n, c) in enumerate(apps, 1))
    a_orig = "".join(f'<applicant sequence="{k}" data-format="original"><applicant-name><name>{esc(n)}</name>'
                     f"</applicant-name></applicant>\n" for k, (n, _) in enumerate(apps, 1))
    forms = inventor_forms(world, p)
    i_epo = "".join(f'<inventor sequence="{k}" data-format="epodoc"><inventor-name><name>{esc(last.upper())} '
                    f"{esc(first.upper())} [{person.country}]</name></inventor-name></inventor>\n"
                    for k, (first, last, person) in enumerate(forms, 1))
    i_orig = "".join(f'<inventor sequence="{k}" data-format="original"><inventor-name><name>{esc(last.upper())}, '
                     f"{esc(first.upper())}, </name></inventor-name></inventor>\n" for k, (first, last, _) in enumerate(forms, 1))
    return f"<parties>\n<applicants>\n{a_epo}{a_orig}</applicants>\n<inventors>\n{i_epo}{i_orig}</inventors>\n</parties>\n"


def _references(world: World, p: int) -> str:
    pubs, c = world.pubs, world.cites
    out = []
    for k in world.cited(p):
        q = int(c["cited"][k])
        cat = c["category"][k] or "A"
        out.append(f'<citation cited-phase="search" cited-by="examiner" sequence="{c["seq"][k]}">\n'
                   f'<patcit dnum-type="publication number" num="{c["seq"][k]}">\n'
                   + _docdb(str(pubs["cc"][q]), pubs["number"][q], str(pubs["kind"][q]), int(pubs["date"][q]))
                   + f"</patcit>\n<category>{cat}</category>\n<rel-claims>1-{3 + q % 9}</rel-claims>\n</citation>\n")
    return f"<references-cited>\n{''.join(out)}</references-cited>\n" if out else ""


def docdb_family_id(world: World, i: int) -> int:
    """OPS `family-id` of invention i: the DOCDB (simple) family, so inventions with one priority set share it."""
    return int(world.inv["simple_id"][i][3:10], 16)


def biblio_xml(world: World, p: int) -> str:
    """published-data/publication/docdb/EP.N.K/biblio response."""
    pubs, i = world.pubs, int(world.pubs["inv"][p])
    num, kind, d = pubs["number"][p], str(pubs["kind"][p]), int(pubs["date"][p])
    a = int(pubs["app"][p])
    anum, adate = world.apps["number"][a], int(world.apps["date"][a])
    prio = "".join(f'<priority-claim sequence="{k}" kind="national"><document-id document-id-type="epodoc">'
                   f"<doc-number>{cc}{iso(pd)[:4]}{pn[-6:]}</doc-number><date>{compact(pd)}</date></document-id>"
                   f"</priority-claim>\n" for k, (cc, pn, pd) in enumerate(world.priorities(i), 1))
    return (ROOT.format(xsl="exchange") + "<exchange-documents>\n"
            f'<exchange-document system="ops.epo.org" family-id="{docdb_family_id(world, i)}" country="EP" doc-number="{num}" kind="{kind}">\n'
            "<bibliographic-data>\n<publication-reference>\n" + _docdb("EP", num, kind, d)
            + f'<document-id document-id-type="epodoc"><doc-number>EP{num}</doc-number><date>{compact(d)}</date>'
              "</document-id>\n</publication-reference>\n" + _classes(world, i)
            + f'<application-reference doc-id="{300000000 + a}">\n' + _docdb("EP", anum, "A", None)
            + f'<document-id document-id-type="epodoc"><doc-number>EP{iso(adate)[:4]}{anum[2:]}</doc-number>'
              f"<date>{compact(adate)}</date></document-id>\n<document-id document-id-type=\"original\">"
              f"<doc-number>{anum}</doc-number></document-id>\n</application-reference>\n"
            + f"<priority-claims>\n{prio}</priority-claims>\n" + _parties(world, p, i)
            + f'<invention-title lang="en">{esc(world.text(i).title.upper())}</invention-title>\n'
            + _references(world, p) + "</bibliographic-data>\n"
            + f'<abstract lang="en">\n<p>{esc(abstract_of(world, p)[0])}</p>\n</abstract>\n'
            + "</exchange-document>\n</exchange-documents>\n" + END)


def claims_xml(world: World, p: int) -> str:
    """published-data/.../claims response: application claims for A1/A2, amended EN/DE/FR claims for B1."""
    pubs, i = world.pubs, int(world.pubs["inv"][p])
    before, after, _ = claim_revision(world, i)
    claims = after if pubs["kind"][p] == "B1" else before
    langs = (("EN", None), ("DE", _DE), ("FR", _FR)) if pubs["kind"][p] == "B1" else (("EN", None),)
    blocks = []
    for lang, table in langs:
        texts = "".join(f"<claim-text>{esc(_translate(c.text, table) if table else c.text)}</claim-text>"
                        for c in claims)
        blocks.append(f'<claims lang="{lang}"><claim>{texts}</claim></claims>')
    return (ROOT.format(xsl="pub-ftxt-claims").rstrip("\n") + '<ftxt:fulltext-documents xmlns="http://www.epo.org/fulltext" '
            'xmlns:ftxt="http://www.epo.org/fulltext"><ftxt:fulltext-document system="ops.epo.org" '
            'fulltext-format="text-only"><bibliographic-data><publication-reference data-format="docdb"><document-id>'
            f"<country>EP</country><doc-number>{pubs['number'][p]}</doc-number><kind>{pubs['kind'][p]}</kind>"
            f"</document-id></publication-reference></bibliographic-data>{''.join(blocks)}</ftxt:fulltext-document>"
            "</ftxt:fulltext-documents>" + END)


def family_xml(world: World, p: int, members: list[int]) -> str:
    """family/publication/docdb/EP.N.K response (INPADOC extended family, legal=false)."""
    pubs = world.pubs
    out = [ROOT.format(xsl="family"), f'<ops:patent-family legal="false" total-result-count="{len(members)}">\n',
           "<ops:publication-reference>\n", _docdb("EP", pubs["number"][p], str(pubs["kind"][p]), None),
           "</ops:publication-reference>\n"]
    for q in members:
        i, a = int(pubs["inv"][q]), int(pubs["app"][q])
        cc, num, kind, d = str(pubs["cc"][q]), pubs["number"][q], str(pubs["kind"][q]), int(pubs["date"][q])
        prio = "".join(f'<priority-claim sequence="{k}" kind="national">\n' + _docdb(pc, pn, "A", pd)
                       + "<priority-active-indicator>YES</priority-active-indicator>\n</priority-claim>\n"
                       for k, (pc, pn, pd) in enumerate(world.priorities(i), 1))
        out.append(f'<ops:family-member family-id="{docdb_family_id(world, i)}">\n<publication-reference>\n'
                   + _docdb(cc, num, kind, d) + f'<document-id document-id-type="epodoc"><doc-number>{cc}{num}'
                   f"</doc-number><date>{compact(d)}</date></document-id>\n</publication-reference>\n"
                   f'<application-reference doc-id="{300000000 + a}">\n'
                   + _docdb(cc, world.apps["number"][a], "A", int(world.apps["date"][a]))
                   + f"</application-reference>\n{prio}</ops:family-member>\n")
    out.append("</ops:patent-family>\n" + END)
    return "".join(out)


@register("ops")
def render_ops(world: World, out: Path) -> list[Path]:
    """biblio, claims and family responses for EP documents of applications active in the window."""
    pubs = world.pubs
    lo, hi = world.spec.window
    ep = pubs["cc"] == "EP"
    apps = np.unique(pubs["app"][ep & (pubs["date"] >= lo) & (pubs["date"] <= hi)])
    sel = np.flatnonzero(ep & np.isin(pubs["app"], apps))
    ext: dict[str, list[int]] = {}
    for i in range(world.n):
        ext.setdefault(world.inv["ext_id"][i], []).extend(world.members(i))
    written = []
    for p in sel.tolist():
        name = f"EP.{pubs['number'][p]}.{pubs['kind'][p]}"
        base = out / "ops" / "published-data" / "publication" / "docdb" / name
        written.append(write_text(base / "biblio.xml", biblio_xml(world, p)))
        written.append(write_text(base / "claims.xml", claims_xml(world, p)))
        members = ext[world.inv["ext_id"][int(pubs["inv"][p])]]
        written.append(write_text(out / "ops" / "family" / "publication" / "docdb" / f"{name}.xml",
                                  family_xml(world, p, members)))
    return written
