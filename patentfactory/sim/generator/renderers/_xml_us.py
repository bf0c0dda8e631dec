"""Blocks of the USPTO v4.x bibliographic XML (classifications, citations, parties, description)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ipc import split_symbol
from ..names import Person
from ..numbering import compact
from ._xml import CITIES, esc

if TYPE_CHECKING:
    from ..world import World

_IPCR = ("<classification-ipcr>\n<ipc-version-indicator><date>20060101</date></ipc-version-indicator>\n"
         "<classification-level>A</classification-level>\n<section>{0}</section>\n<class>{1}</class>\n"
         "<subclass>{2}</subclass>\n<main-group>{3}</main-group>\n<subgroup>{4}</subgroup>\n"
         "<symbol-position>{5}</symbol-position>\n<classification-value>I</classification-value>\n"
         "<action-date><date>{6}</date></action-date>\n<generating-office><country>US</country></generating-office>\n"
         "<classification-status>B</classification-status>\n<classification-data-source>H</classification-data-source>\n"
         "</classification-ipcr>\n")
_CPC = ("<classification-cpc>\n<cpc-version-indicator><date>20130101</date></cpc-version-indicator>\n"
        "<section>{0}</section>\n<class>{1}</class>\n<subclass>{2}</subclass>\n<main-group>{3}</main-group>\n"
        "<subgroup>{4}</subgroup>\n<symbol-position>{5}</symbol-position>\n"
        "<classification-value>I</classification-value>\n<action-date><date>{6}</date></action-date>\n"
        "<generating-office><country>US</country></generating-office>\n<classification-status>B</classification-status>\n"
        "<classification-data-source>H</classification-data-source>\n<scheme-origination-code>C</scheme-origination-code>\n"
        "</classification-cpc>\n")
_PCT_KIND = {"EP": "regional", "WO": "international"}


def classifications(ipc: list[str], cpc: list[str], days: int) -> str:
    """classifications-ipcr then classifications-cpc (main-cpc + further-cpc); first symbol is F(irst)."""
    d = compact(days)
    ipcr = "".join(_IPCR.format(*split_symbol(s), "F" if k == 0 else "L", d) for k, s in enumerate(ipc))
    main = _CPC.format(*split_symbol(cpc[0]), "F", d)
    further = "".join(_CPC.format(*split_symbol(s), "L", d) for s in cpc[1:])
    further = f"<further-cpc>\n{further}</further-cpc>\n" if further else ""
    return (f"<classifications-ipcr>\n{ipcr}</classifications-ipcr>\n<classifications-cpc>\n<main-cpc>\n{main}"
            f"</main-cpc>\n{further}</classifications-cpc>\n")


def _foreign_number(cc: str, num: str) -> str:
    """Priority numbers as the USPTO prints them (JP '2016-128835')."""
    return f"{num[:4]}-{num[4:]}" if cc == "JP" else num


def priority_claims(world: World, i: int) -> str:
    """Foreign priority claims (US provisionals go to us-related-documents instead)."""
    rows = [(cc, num, d) for cc, num, d in world.priorities(i) if cc != "US"]
    if not rows:
        return ""
    items = "".join(f'<priority-claim sequence="{k:02d}" kind="{_PCT_KIND.get(cc, "national")}">\n<country>{cc}</country>\n'
                    f"<doc-number>{_foreign_number(cc, num)}</doc-number>\n<date>{compact(d)}</date>\n</priority-claim>\n"
                    for k, (cc, num, d) in enumerate(rows, 1))
    return f"<priority-claims>\n{items}</priority-claims>\n"


def cited_number(cc: str, num: str, kind: str) -> str:
    """Cited document numbers as US grants print them: '2003/0076485', 'WO 2005/080928', '2016-128835'."""
    if cc == "US" and kind == "A1":
        return f"{num[:4]}/{num[4:]}"
    if cc == "WO":
        return f"WO {num[:4]}/{num[4:]}"
    if cc == "JP":
        return f"{num[:4]}-{num[4:]}"
    return num


def _cited_name(world: World, q: int) -> str:
    people = world.inventors(int(world.pubs["inv"][q]))
    return people[0].last + (" et al." if len(people) > 1 else "")


def references(world: World, p: int) -> str:
    """us-references-cited: patcit (with 'cited by examiner/applicant') then nplcit."""
    pubs, c = world.pubs, world.cites
    out, num = [], 0
    for k in world.cited(p):
        q = int(c["cited"][k])
        num += 1
        cc, kind = str(pubs["cc"][q]), str(pubs["kind"][q])
        month = compact(int(pubs["date"][q]))[:6] + "00"
        out.append(f'<us-citation>\n<patcit num="{num:05d}">\n<document-id>\n<country>{cc}</country>\n'
                   f"<doc-number>{cited_number(cc, pubs['number'][q], kind)}</doc-number>\n<kind>{kind}</kind>\n"
                   f"<name>{esc(_cited_name(world, q))}</name>\n<date>{month}</date>\n</document-id>\n</patcit>\n"
                   f"<category>{c['category'][k]}</category>\n</us-citation>\n")
    for text in world.npl.get(p, []):
        num += 1
        out.append(f'<us-citation>\n<nplcit num="{num:05d}">\n<othercit>{esc(text)}</othercit>\n</nplcit>\n'
                   "<category>cited by applicant</category>\n</us-citation>\n")
    return f"<us-references-cited>\n{''.join(out)}</us-references-cited>\n" if out else ""


def _address(cc: str) -> str:
    city, state = CITIES.get(cc, ("Unknown", ""))
    st = f"<state>{state}</state>\n" if state else ""
    return f"<address>\n<city>{esc(city)}</city>\n{st}<country>{cc}</country>\n</address>\n"


def parties(world: World, p: int, forms: list[tuple[str, str, Person]], applicants: list[tuple[str, str]],
            grant: bool) -> str:
    """us-parties (applicants, inventors), assignees, and for grants the examiner."""
    seq = "{:03d}" if grant else "{:02d}"
    org = int(world.inv["org"][int(world.pubs["inv"][p])]) >= 0
    apps = []
    for k, (name, cc) in enumerate(applicants, start=1 if grant else 0):
        who = (f"<orgname>{esc(name)}</orgname>\n" if org else
               f"<last-name>{esc(name.rsplit(' ', 1)[-1])}</last-name>\n<first-name>{esc(name.rsplit(' ', 1)[0])}</first-name>\n")
        cat = ' applicant-authority-category="assignee"' if org else ' applicant-authority-category="inventor"'
        apps.append(f'<us-applicant sequence="{seq.format(k)}" app-type="applicant" designation="us-only"{cat}>\n'
                    f"<addressbook>\n{who}{_address(cc)}</addressbook>\n<residence>\n<country>{cc}</country>\n"
                    "</residence>\n</us-applicant>\n")
    invs = "".join(f'<inventor sequence="{seq.format(k)}" designation="us-only">\n<addressbook>\n'
                   f"<last-name>{esc(last)}</last-name>\n<first-name>{esc(first)}</first-name>\n{_address(person.country)}"
                   "</addressbook>\n</inventor>\n" for k, (first, last, person) in enumerate(forms, start=1 if grant else 0))
    out = [f"<us-parties>\n<us-applicants>\n{''.join(apps)}</us-applicants>\n<inventors>\n{invs}</inventors>\n</us-parties>\n"]
    if org:
        name, cc = applicants[0]
        out.append(f"<assignees>\n<assignee>\n<addressbook>\n<orgname>{esc(name)}</orgname>\n<role>02</role>\n"
                   f"{_address(cc)}</addressbook>\n</assignee>\n</assignees>\n")
    if grant:
        ex = world.people[(p * 7919) % len(world.people)]
        out.append(f"<examiners>\n<primary-examiner>\n<last-name>{esc(ex.last)}</last-name>\n<first-name>{esc(ex.first)}"
                   f"</first-name>\n<department>{2100 + p % 1700}</department>\n</primary-examiner>\n</examiners>\n")
    return "".join(out)


def description(paras: list[tuple[str, str]]) -> str:
    """description with headings and numbered paragraphs, BRFSUM/DETDESC processing instructions kept."""
    out = ['<description id="description">\n<?BRFSUM description="Brief Summary" end="lead"?>\n']
    h = pn = 0
    for kind, text in paras:
        if kind == "heading":
            h += 1
            if text == "DETAILED DESCRIPTION":
                out.append('<?BRFSUM description="Brief Summary" end="tail"?>\n'
                           '<?DETDESC description="Detailed Description" end="lead"?>\n')
            out.append(f'<heading id="h-{h:04d}" level="{2 if text.startswith("Example ") else 1}">{esc(text)}</heading>\n')
        else:
            pn += 1
            out.append(f'<p id="p-{pn + 1:04d}" num="{pn:04d}">{esc(text)}</p>\n')
    out.append('<?DETDESC description="Detailed Description" end="tail"?>\n</description>\n')
    return "".join(out)
