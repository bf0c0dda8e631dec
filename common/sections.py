"""Document sections as nested `{title, paragraphs, subsections}` dicts: the shape every full-text reader
(JATS, GROBID TEI, USPTO descriptions) produces for Pap2Pat."""
from __future__ import annotations


def prune(sections: list[dict]) -> list[dict]:
    """Drop sections with neither paragraphs nor (non-empty) subsections."""
    out = []
    for sec in sections:
        subs = prune(sec["subsections"])
        if sec["paragraphs"] or subs:
            out.append({"title": sec["title"], "paragraphs": sec["paragraphs"], "subsections": subs})
    return out
