"""Renderer registry: each module in this package renders the world in one source's wire format.

A renderer is a function `(world, out_dir) -> list[Path]` registered under a name with
`@register("name")`. Modules are discovered (any non-underscore module in this package), so a new
source (PTAB decisions, SPARQL results, PDFs) is added by dropping a module here; nothing else
changes. Registration rejects duplicate names.
"""
from __future__ import annotations

import importlib
import logging
import pkgutil
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from ..world import World

log = logging.getLogger(__name__)
Renderer = Callable[["World", Path], list[Path]]
_REGISTRY: dict[str, Renderer] = {}


def register(name: str) -> Callable[[Renderer], Renderer]:
    """Decorator: register a renderer under `name` (unique)."""
    def wrap(fn: Renderer) -> Renderer:
        if name in _REGISTRY and _REGISTRY[name] is not fn:
            raise ValueError(f"renderer {name!r} registered twice")
        _REGISTRY[name] = fn
        return fn
    return wrap


def available() -> dict[str, Renderer]:
    """All renderers, after importing every module of this package (sorted by name)."""
    for mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        if not mod.startswith("_"):
            importlib.import_module(f"{__name__}.{mod}")
    return dict(sorted(_REGISTRY.items()))


CORE = ("uspto", "lens", "ops")


def default_names() -> tuple[str, ...]:
    """Every registered renderer: the core ones first, then the others by name."""
    found = available()
    return tuple(n for n in CORE if n in found) + tuple(n for n in found if n not in CORE)


def render(world: World, out: Path, names: tuple[str, ...] | None = None) -> dict[str, list[Path]]:
    """Run the named renderers (default: all) in the given order; unknown names are an error."""
    found = available()
    names = default_names() if names is None else names
    unknown = [n for n in names if n not in found]
    if unknown:
        raise ValueError(f"unknown renderer(s) {unknown}; available: {sorted(found)}")
    written: dict[str, list[Path]] = {}
    for name in names:
        written[name] = sorted(found[name](world, out))
        log.info("renderer %s wrote %d files", name, len(written[name]))
    return written
