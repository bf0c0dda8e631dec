"""SemOpenAlex renderer: the world's papers and their authors as N-Quads in SemOpenAlex's vocabulary.

The predicates are the ones the real dump uses (see `real-samples/sparql/semopenalex-data-sample.trig`):
works carry `dcterms:title/abstract/date/creator`, `datacite:doi` (as an https://doi.org/ URL),
`fabio:hasPublicationYear`, `soa:hasAuthorPosition` nodes and `soa:hasLocation` /
`soa:hasBestOaLocation` nodes whose `dcterms:license` is the licence ("pd" for public domain, as in
the real sample); authors carry `foaf:name` and `dbpedia-owl:alternativeName`. Everything sits in
the named graph `soa:context`, like the real sample, so a local SPARQL endpoint loaded with these
quads answers the same queries as https://semopenalex.org/sparql.
"""
from __future__ import annotations

import logging
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from ..names import aliases
from . import register
from .papers import fulltext_form, pmcid

if TYPE_CHECKING:
    from ..world import World

log = logging.getLogger(__name__)
SOA = "https://semopenalex.org/"
PROP = SOA + "property/"
GRAPH = f"<{PROP}context>"
DCT = "http://purl.org/dc/terms/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
FOAF_NAME = "http://xmlns.com/foaf/0.1/name"
ALT_NAME = "https://dbpedia.org/ontology/alternativeName"
DOI = "http://purl.org/spar/datacite/doi"
PUB_YEAR = "http://purl.org/spar/fabio/hasPublicationYear"
HAS_URL = "http://purl.org/spar/fabio/hasURL"
PMCID = "http://purl.org/spar/fabio/hasPubMedCentralId"
XSD = "http://www.w3.org/2001/XMLSchema#"
# world licence id -> the value SemOpenAlex writes on a location
LICENCE_VALUE = {"public-domain": "pd"}
OPEN_LICENCES = {"cc-by", "cc0", "public-domain", "cc-by-nc"}
POSITIONS = ("first", "middle", "last")
EPOCH = date(1970, 1, 1)


def _lit(text: str, datatype: str | None = None) -> str:
    """An N-Quads literal with the escapes the grammar requires."""
    esc = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r"))
    return f'"{esc}"' + (f"^^<{datatype}>" if datatype else "")


def _quad(s: str, p: str, o: str) -> str:
    return f"<{s}> <{p}> {o} {GRAPH} .\n"


def _position(k: int, n: int) -> str:
    return POSITIONS[0] if k == 0 else POSITIONS[2] if k == n - 1 else POSITIONS[1]


def _work_quads(paper: dict) -> Iterator[str]:
    """Quads of one work: metadata, author positions, one location carrying DOI URL and licence."""
    wid = paper["work_id"]
    work = f"{SOA}work/{wid}"
    day = EPOCH + timedelta(days=int(paper["pub_date"]))
    yield _quad(work, RDF_TYPE, f"<{SOA}class/Work>")
    yield _quad(work, DCT + "title", _lit(paper["title"]))
    if paper.get("abstract"):
        yield _quad(work, DCT + "abstract", _lit(paper["abstract"]))
    yield _quad(work, DCT + "date", _lit(day.isoformat(), XSD + "date"))
    yield _quad(work, PUB_YEAR, _lit(str(day.year), XSD + "integer"))
    doi_url = f"https://doi.org/{paper['doi']}"
    yield _quad(work, DOI, _lit(doi_url))
    if fulltext_form(wid, paper["license"]) == "jats":
        yield _quad(work, PMCID, _lit(pmcid(wid)))
    authors = paper["authors"]
    for k, author in enumerate(authors):
        node = f"{SOA}authorposition/{wid}{author['id']}"
        yield _quad(work, DCT + "creator", f"<{SOA}author/{author['id']}>")
        yield _quad(work, PROP + "hasAuthorPosition", f"<{node}>")
        yield _quad(node, RDF_TYPE, f"<{SOA}class/AuthorPosition>")
        yield _quad(node, PROP + "hasAuthor", f"<{SOA}author/{author['id']}>")
        yield _quad(node, PROP + "position", _lit(_position(k, len(authors))))
    loc = f"{SOA}location/{wid}1"
    is_oa = paper["license"] in OPEN_LICENCES
    yield _quad(work, PROP + "hasLocation", f"<{loc}>")
    yield _quad(work, PROP + "hasPrimaryLocation", f"<{loc}>")
    yield _quad(loc, RDF_TYPE, f"<{SOA}class/Location>")
    yield _quad(loc, HAS_URL, _lit(doi_url))
    yield _quad(loc, PROP + "isOa", _lit("true" if is_oa else "false", XSD + "boolean"))
    yield _quad(loc, DCT + "license", _lit(LICENCE_VALUE.get(paper["license"], paper["license"])))
    if is_oa:
        yield _quad(work, PROP + "hasBestOaLocation", f"<{loc}>")
        yield _quad(loc, PROP + "pdfUrl", _lit(f"https://repository.example.org/{wid}.pdf"))


def _author_quads(author_id: str, name: str, alt_names: list[str]) -> Iterator[str]:
    """An author: canonical display name plus every alternative spelling (sorted, deduplicated)."""
    node = f"{SOA}author/{author_id}"
    yield _quad(node, RDF_TYPE, f"<{SOA}class/Author>")
    yield _quad(node, FOAF_NAME, _lit(name))
    for alt in sorted(set(alt_names) - {name}):
        yield _quad(node, ALT_NAME, _lit(alt))


def _authors(world: World) -> dict[str, tuple[str, list[str]]]:
    """author id -> (canonical name, aliases); the paper's own spelling is an alias too."""
    out: dict[str, tuple[str, set[str]]] = {}
    for paper in world.papers:
        for author, pid in zip(paper["authors"], paper.get("person_ids") or [None] * len(paper["authors"])):
            person = world.people[pid] if pid is not None else None
            name = person.name if person is not None else author["name"]
            alts = set(aliases(person)) if person is not None else set(author.get("alt_names") or ())
            entry = out.setdefault(author["id"], (name, set()))
            entry[1].update(alts | {author["name"]})
    return {k: (name, sorted(alts)) for k, (name, alts) in sorted(out.items())}


@register("semopenalex")
def render_semopenalex(world: World, out: Path) -> list[Path]:
    """Write `<out>/semopenalex/works.nq` (works, author positions, locations, authors); deterministic. Works in
    PubMed Central carry their PMCID; the full texts themselves are the `papers` renderer's."""
    path = out / "semopenalex" / "works.nq"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for paper in sorted(world.papers, key=lambda p: p["work_id"]):
            fh.writelines(_work_quads(paper))
        for author_id, (name, alts) in _authors(world).items():
            fh.writelines(_author_quads(author_id, name, alts))
    log.info("semopenalex: %d works -> %s", len(world.papers), path)
    return [path]
