"""Lens.org exports: the modern 37-column CSV (multi-values joined by `;;`) and JSON Lines in the
Lens patent API record shape, for every member of every family across jurisdictions.

The CSV has citation counts only, so PatenTEB's citation graph comes from the JSONL's
`biblio.references_cited`. Both files are written a record at a time (bounded memory).
"""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson ships with prefect
    _orjson = None

from ..names import fold
from ..numbering import day, iso
from ..views import LANG, abstract_of, applicant_names, display_key, inventor_forms
from . import register

if TYPE_CHECKING:
    from ..world import World

CSV_HEADER = ('"#",Jurisdiction,Kind,Display Key,Lens ID,Publication Date,Publication Year,Application Number,'
              "Application Date,Priority Numbers,Earliest Priority Date,Title,Abstract,Applicants,Inventors,Owners,URL,"
              "Document Type,Has Full Text,Cites Patent Count,Cited by Patent Count,Simple Family Size,"
              "Simple Family Members,Simple Family Member Jurisdictions,Extended Family Size,Extended Family Members,"
              "Extended Family Member Jurisdictions,Sequence Count,CPC Classifications,IPCR Classifications,"
              "US Classifications,NPL Citation Count,NPL Resolved Citation Count,NPL Resolved Lens ID(s),"
              "NPL Resolved External ID(s),NPL Citations,Legal Status")
PHASE = {("US", "examiner"): "EXA", ("US", "applicant"): "APP", ("WO", "examiner"): "ISR"}
TWENTY_YEARS = 20 * 365 + 5


def dumps(rec: dict[str, Any]) -> str:
    """One compact JSON line (orjson when installed: same bytes as json.dumps compact, ~10x faster)."""
    if _orjson is not None:
        return _orjson.dumps(rec, option=_orjson.OPT_APPEND_NEWLINE).decode("utf-8")
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n"


def lens_name(text: str) -> str:
    """Lens 'extracted_name' style: ASCII-folded upper case without punctuation ('SAMSUNG ELECTRONICS CO LTD')."""
    return " ".join(fold(text).upper().replace(".", "").replace(",", "").split())


def lens_app_number(cc: str, number: str, days: int) -> str:
    """Lens writes US application numbers with the filing year in front ('201514863446')."""
    return f"{iso(days)[:4]}{number}" if cc == "US" else number


def _doc(world: World, q: int, with_date: bool = True) -> dict[str, Any]:
    pubs = world.pubs
    d: dict[str, Any] = {"jurisdiction": str(pubs["cc"][q]), "doc_number": pubs["number"][q], "kind": str(pubs["kind"][q])}
    if with_date:
        d["date"] = pubs["iso"][q]
    return d


def _references(world: World, p: int) -> dict[str, Any]:
    c, cc = world.cites, str(world.pubs["cc"][p])
    cites = [{"sequence": int(c["seq"][k]), "patcit": {"document_id": _doc(world, int(c["cited"][k])),
                                                       "lens_id": world.pubs["lens_id"][int(c["cited"][k])]},
              "cited_phase": PHASE.get((cc, str(c["by"][k])), "SEA")} for k in world.cited(p)]
    npl = [{"sequence": len(cites) + j + 1, "nplcit": {"text": t}, "cited_phase": "APP"}
           for j, t in enumerate(world.npl.get(p, []))]
    out: dict[str, Any] = {"citations": cites + npl}
    if npl:
        out["npl_count"] = len(npl)
    out["patent_count"] = len(cites)
    return out


def _priority_claims(world: World, i: int) -> dict[str, Any]:
    prios = world.priorities(i)
    claims = [{"jurisdiction": cc, "doc_number": lens_app_number(cc, num, d),
               "kind": "P" if cc == "US" and num[:2] in ("60", "61", "62", "63") else "A", "date": iso(d),
               "sequence": k} for k, (cc, num, d) in enumerate(prios, 1)]
    return {"claims": claims, "earliest_claim": {"date": iso(prios[0][2])}}


def _biblio(world: World, p: int) -> dict[str, Any]:
    pubs, i = world.pubs, int(world.pubs["inv"][p])
    a = int(pubs["app"][p])
    cc, adate = str(pubs["cc"][p]), int(world.apps["date"][a])
    forms = inventor_forms(world, p)
    citing = world.citing(p)
    return {"publication_reference": _doc(world, p),
            "application_reference": {"jurisdiction": cc, "doc_number": lens_app_number(cc, world.apps["number"][a], adate),
                                      "kind": "A", "date": world.apps["iso"][a]},
            "priority_claims": _priority_claims(world, i),
            "invention_title": [{"text": world.text(i).title, "lang": "en"}],
            "parties": {"applicants": [{"residence": c, "extracted_name": {"value": lens_name(n)}}
                                       for n, c in applicant_names(world, i)],
                        "inventors": [{"residence": person.country, "sequence": k,
                                       "extracted_name": {"value": lens_name(f"{last} {first}")}}
                                      for k, (first, last, person) in enumerate(forms, 1)]},
            "classifications_ipcr": {"classifications": [{"symbol": s.replace(" ", "")} for s in world.inv["ipc"][i]]},
            "classifications_cpc": {"classifications": [{"symbol": s.replace(" ", "")} for s in world.inv["cpc"][i]]},
            "references_cited": _references(world, p),
            "cited_by": {"patents": [{"document_id": _doc(world, int(q), False), "lens_id": world.pubs["lens_id"][int(q)]}
                                     for q in citing], "patent_count": len(citing)}}


def _legal(world: World, p: int) -> dict[str, Any]:
    pubs = world.pubs
    adate = int(world.apps["date"][pubs["app"][p]])
    end = day(world.spec.end)
    log = [f"Application Filing Date: {iso(adate)}"]
    if str(pubs["kind"][p]).startswith("B"):
        term = adate + TWENTY_YEARS
        log += [f"Granted Date: {iso(int(pubs['date'][p]))}", f"Expiration Date: {iso(term)}"]
        return {"granted": True, "grant_date": iso(int(pubs["date"][p])), "anticipated_term_date": iso(term),
                "calculation_log": log, "patent_status": "EXPIRED" if term < end else "ACTIVE"}
    status = "PENDING" if end - adate < 5 * 365 else "DISCONTINUED" if p % 3 else "ACTIVE"
    return {"calculation_log": log, "patent_status": status}


def _family(world: World, pubs_of: list[int]) -> dict[str, Any]:
    return {"members": [{"document_id": _doc(world, q), "lens_id": world.pubs["lens_id"][q]} for q in pubs_of],
            "size": len(pubs_of)}


def record(world: World, p: int, ext_members: list[int]) -> dict[str, Any]:
    """One Lens API patent record (key order as in the real export)."""
    pubs, i = world.pubs, int(world.pubs["inv"][p])
    cc, kind, d = str(pubs["cc"][p]), str(pubs["kind"][p]), int(pubs["date"][p])
    rec: dict[str, Any] = {"lens_id": pubs["lens_id"][p], "jurisdiction": cc, "doc_number": pubs["number"][p],
                           "kind": kind, "date_published": iso(d),
                           "doc_key": f"{cc}_{pubs['number'][p]}_{kind}_{iso(d).replace('-', '')}",
                           "docdb_id": 400000000 + p * 17 + world.spec.seed % 17, "lang": LANG[cc],
                           "biblio": _biblio(world, p),
                           "families": {"simple_family": _family(world, list(world.members(i))),
                                        "extended_family": _family(world, ext_members)},
                           "legal_status": _legal(world, p),
                           "abstract": [{"text": abstract_of(world, p)[0], "lang": "en"}]}
    if LANG[cc] == "en":
        rec["claims"] = [{"claims": [{"claim_text": [c.text.replace("\n", " ")]} for c in world.text(i).claims],
                          "lang": "en"}]
    rec["publication_type"] = "GRANTED_PATENT" if kind.startswith("B") else "PATENT_APPLICATION"
    return rec


def _csv_row(n: int, rec: dict[str, Any], world: World, p: int) -> list[Any]:
    """The 37 CSV cells of one record, derived from the JSON record (one source of truth)."""
    b, fam = rec["biblio"], rec["families"]
    sf, ef = fam["simple_family"]["members"], fam["extended_family"]["members"]
    key = lambda m: display_key(m["document_id"]["jurisdiction"], m["document_id"]["doc_number"], m["document_id"]["kind"])  # noqa: E731
    jur = lambda ms: ";;".join(sorted({m["document_id"]["jurisdiction"] for m in ms}))  # noqa: E731
    ar = b["application_reference"]
    prios = ";;".join(f"{c['jurisdiction']} {c['doc_number']} {c['kind']}" for c in b["priority_claims"]["claims"])
    refs = b["references_cited"]["citations"]
    npl = [r["nplcit"]["text"] for r in refs if "nplcit" in r]
    granted = rec["publication_type"] == "GRANTED_PATENT"
    applicants = ";;".join(a["extracted_name"]["value"] for a in b["parties"]["applicants"])
    return [n, rec["jurisdiction"], rec["kind"], display_key(rec["jurisdiction"], rec["doc_number"], rec["kind"]),
            rec["lens_id"], rec["date_published"], rec["date_published"][:4],
            f"{ar['jurisdiction']} {ar['doc_number']} {ar['kind']}", ar["date"], prios,
            b["priority_claims"]["earliest_claim"]["date"], b["invention_title"][0]["text"], rec["abstract"][0]["text"],
            applicants, ";;".join(x["extracted_name"]["value"] for x in b["parties"]["inventors"]),
            applicants if granted else "", f"https://www.lens.org/lens/patent/{rec['lens_id']}",
            "Granted Patent" if granted else "Patent Application", str(LANG[rec["jurisdiction"]] == "en").lower(),
            b["references_cited"]["patent_count"], b["cited_by"]["patent_count"], len(sf), ";;".join(map(key, sf)),
            jur(sf), len(ef), ";;".join(map(key, ef)), jur(ef), 0,
            ";;".join(c["symbol"] for c in b["classifications_cpc"]["classifications"]),
            ";;".join(c["symbol"] for c in b["classifications_ipcr"]["classifications"]), "", len(npl), 0, "", "",
            ";;".join(npl), rec["legal_status"]["patent_status"]]


@register("lens")
def render_lens(world: World, out: Path) -> list[Path]:
    """lens-export.jsonl and lens-export.csv, records in invention (priority-date) order."""
    folder = out / "lens"
    folder.mkdir(parents=True, exist_ok=True)
    ext: dict[str, list[int]] = {}
    for i in range(world.n):
        ext.setdefault(world.inv["ext_id"][i], []).extend(world.members(i))
    jl_path, csv_path = folder / "lens-export.jsonl", folder / "lens-export.csv"
    with open(jl_path, "w", encoding="utf-8", newline="\n") as jl, open(csv_path, "w", encoding="utf-8", newline="") as fh:
        fh.write(CSV_HEADER + "\n")
        writer = csv.writer(fh, lineterminator="\n")
        n = 0
        for i in range(world.n):
            for p in world.members(i):
                n += 1
                rec = record(world, p, ext[world.inv["ext_id"][i]])
                jl.write(dumps(rec))
                writer.writerow(_csv_row(n, rec, world, p))
    return [jl_path, csv_path]

