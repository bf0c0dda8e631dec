"""Field paths compiled to tag-dispatch walks: the XPath subset the field tables use, minus an XPath call each.

A simple path is child steps joined by `/` (`addressbook/address/country`), `*` for any element child,
alternatives joined by `|` and an optional final `@attribute`. A `Paths` compiles several of them into
one trie whose levels map a child's tag to (the paths that end there, the next level), so one walk over
a context visits only the branches some path continues into, in document order: "first match" and "all
matches" mean exactly what they mean in XPath. Anything else (`//`, predicates, `..`, functions) is
evaluated by lxml's XPath, compiled once.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from lxml import etree

_SIMPLE = re.compile(r"^(?:[A-Za-z_][\w.\-]*|\*)(?:/(?:[A-Za-z_][\w.\-]*|\*))*(?:/@[A-Za-z_][\w.\-]*)?$")
Hit = etree._Element | str  # an element, or an attribute's value


def is_simple(path: str) -> bool:
    """True if every alternative of `path` is child steps with an optional final `@attribute`."""
    return all(_SIMPLE.match(alt.strip()) for alt in path.split("|"))


class _Level:
    """One level of the trie: child tag -> (labels of the paths ending at that child, next level or None)."""

    __slots__ = ("alts", "by_tag")

    def __init__(self, alts: tuple[tuple[tuple[str, ...], int], ...]) -> None:
        self.alts = alts  # (remaining steps, label)
        self.by_tag: dict[object, tuple[tuple[int, ...], _Level | None]] = {}

    def on(self, tag: object) -> tuple[tuple[int, ...], _Level | None]:
        hit = self.by_tag.get(tag)
        if hit is None:
            is_element = isinstance(tag, str)  # comments, PIs and entities have factory functions as tags
            rest = [(steps[1:], label) for steps, label in self.alts
                    if steps[0] == tag or (steps[0] == "*" and is_element)]
            ends = tuple(dict.fromkeys(label for steps, label in rest if not steps))
            deeper = tuple((steps, label) for steps, label in rest if steps)
            hit = self.by_tag[tag] = (ends, _Level(deeper) if deeper else None)
        return hit


class Paths:
    """Several simple paths compiled into one walk; `first` gives each path's first hit in document order."""

    def __init__(self, paths: Sequence[str]) -> None:
        bad = [p for p in paths if not is_simple(p)]
        if bad:
            raise ValueError(f"not simple child paths: {bad}")
        alts, self._labels = [], []  # label -> (path index, attribute or None)
        for index, path in enumerate(paths):
            for alt in path.split("|"):
                steps = alt.strip().split("/")
                attr = steps.pop()[1:] if steps[-1].startswith("@") else None
                alts.append((tuple(steps), len(self._labels)))
                self._labels.append((index, attr))
        self._size = len(paths)
        self._top = _Level(tuple(alts))

    def first(self, context: etree._Element) -> list[Hit | None]:
        """Per path, its first element (or attribute value) under `context`, else None."""
        found: list[Hit | None] = [None] * self._size
        self._first(context, self._top, found)
        return found

    def _first(self, context: etree._Element, level: _Level, found: list[Hit | None]) -> None:
        by_tag = level.by_tag
        for child in context:
            tag = child.tag
            ends, deeper = by_tag.get(tag) or level.on(tag)
            if ends:
                for label in ends:
                    index, attr = self._labels[label]
                    if found[index] is None:
                        found[index] = child if attr is None else child.get(attr)
            if deeper is not None:
                self._first(child, deeper, found)

    def groups(self, context: etree._Element) -> list[list[etree._Element]]:
        """Per (attribute-free) path, every element it selects under `context`, in document order."""
        out: list[list[etree._Element]] = [[] for _ in range(self._size)]
        self._groups(context, self._top, out)
        return out

    def _groups(self, context: etree._Element, level: _Level, out: list[list[etree._Element]]) -> None:
        by_tag = level.by_tag
        for child in context:
            tag = child.tag
            ends, deeper = by_tag.get(tag) or level.on(tag)
            if ends:
                for label in ends:
                    group = out[self._labels[label][0]]
                    if not group or group[-1] is not child:  # two alternatives of one path may meet
                        group.append(child)
            if deeper is not None:
                self._groups(child, deeper, out)


class Selection:
    """Named simple paths answered by one walk over a context: `{name: [elements]}` or `{name: first}`."""

    def __init__(self, **paths: str) -> None:
        if any("@" in path for path in paths.values()):
            raise ValueError("a Selection selects elements; read attributes with a FieldTable")
        self.names = tuple(paths)
        self._paths = Paths(list(paths.values()))

    def __call__(self, context: etree._Element | None) -> dict[str, list[etree._Element]]:
        if context is None:
            return {name: [] for name in self.names}
        return dict(zip(self.names, self._paths.groups(context)))

    def first(self, context: etree._Element) -> dict[str, etree._Element | None]:
        return dict(zip(self.names, self._paths.first(context)))


_WALKS: dict[str, Paths | None] = {}
_XPATHS: dict[str, etree.XPath] = {}


def walk_of(path: str) -> Paths | None:
    """The compiled walk of a simple path (None for other paths); compiled once per path string."""
    try:
        return _WALKS[path]
    except KeyError:
        walk = _WALKS[path] = Paths([path]) if is_simple(path) else None
        return walk


def xpath_of(path: str) -> etree.XPath:
    found = _XPATHS.get(path)
    if found is None:
        found = _XPATHS[path] = etree.XPath(path)
    return found


def select(context: etree._Element, path: str) -> list:
    """The elements `path` selects under `context`, in document order (XPath's answer for other paths)."""
    walk = walk_of(path) if "@" not in path else None
    return walk.groups(context)[0] if walk is not None else list(xpath_of(path)(context))
