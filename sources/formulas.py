"""MathML -> LaTeX through pandoc, as the Pap2Pat paper converts formulas of patents and papers.

pandoc ships inside the `pypandoc-binary` wheel, so no system package is needed. One pandoc process converts
a whole batch (a process per formula would cost ~50 ms each). A formula pandoc cannot read gives None, and
the caller keeps a visible placeholder (`MATH`), never an empty string.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from functools import lru_cache

log = logging.getLogger(__name__)

MATH = "[MATH]"
CHEMISTRY = "[CHEMISTRY]"
_SEP = "PFFORMULASEP"
_INLINE = re.compile(r"^\\\((.*)\\\)$|^\\\[(.*)\\\]$|^\$\$?(.*?)\$?\$$", re.S)
_TABLE = re.compile(r"^\\begin\{(array|matrix)\}(?:\{[^}]*\})?\s*(.*?)\s*\\end\{\1\}$", re.S)
_CELL_SEP = re.compile(r"(?<!\\)&")
_DOLLAR = re.compile(r"(?<!\\)\$")
_MATH_TAG = re.compile(r"<(/?)(?:[A-Za-z_][\w.-]*:)?math\b", re.I)


@lru_cache(maxsize=1)
def pandoc_available() -> bool:
    try:
        import pypandoc

        pypandoc.get_pandoc_version()
        return True
    except Exception:  # noqa: BLE001 - any failure means "no pandoc": callers fall back to placeholders
        log.warning("pandoc is not available; MathML formulas become %s", MATH)
        return False


def _bare(mathml: str) -> str:
    """`<mml:math …>` -> `<math …>`: pandoc's HTML reader knows MathML only without a prefix."""
    text = _MATH_TAG.sub(lambda m: f"<{m.group(1)}math", mathml)
    return re.sub(r"<(/?)[A-Za-z_][\w.-]*:", r"<\1", text).replace("xmlns:mml=", "data-ns=")


def _strip_delimiters(latex: str) -> str:
    latex = latex.strip()
    m = _INLINE.match(latex)
    if m:
        latex = next(g for g in m.groups() if g is not None)
    return latex.strip()


def _unbrace(cell: str) -> str:
    """`{x = 1}` -> `x = 1` when the braces enclose the whole cell."""
    cell = cell.strip()
    if not (cell.startswith("{") and cell.endswith("}")):
        return cell
    depth = 0
    for k, ch in enumerate(cell):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0 and k < len(cell) - 1:
            return cell  # `{a} + {b}`: the first brace closes early
    return cell[1:-1].strip()


def unwrap_table(latex: str) -> str:
    """A one-row `array`/`matrix` (what pandoc makes of an `<mtable>` that only lays out or numbers one display
    formula) -> the formula itself, its cells joined; a table of several rows is a real multi-line display, kept."""
    m = _TABLE.match(latex.strip())
    if not m or "\\\\" in m.group(2):
        return latex
    return " ".join(_unbrace(c) for c in _CELL_SEP.split(m.group(2)) if c.strip())


def mathml_to_latex_many(formulas: Sequence[str]) -> list[str | None]:
    """LaTeX (without `$`/`\\(` delimiters) for each MathML string; None where pandoc gave nothing usable."""
    if not formulas:
        return []
    if not pandoc_available():
        return [None] * len(formulas)
    import pypandoc

    body = f"\n<p>{_SEP}</p>\n".join(f"<p>{_bare(f)}</p>" for f in formulas)
    try:
        out = pypandoc.convert_text(body, "latex", format="html", extra_args=["--wrap=none"])
    except (RuntimeError, OSError) as exc:
        log.warning("pandoc failed on a batch of %d formulas (%s); converting one by one", len(formulas), exc)
        if len(formulas) == 1:
            return [None]
        return [mathml_to_latex_many([f])[0] for f in formulas]
    parts = [p.strip() for p in out.split(_SEP)]
    if len(parts) != len(formulas):  # pandoc merged or dropped a paragraph: fall back to one by one
        if len(formulas) == 1:
            return [_strip_delimiters(out) or None]
        return [mathml_to_latex_many([f])[0] for f in formulas]
    return [_strip_delimiters(p) or None for p in parts]


def escape_dollars(text: str) -> str:
    """A literal `$` in running text as `\\$`, so it cannot open or close a `$…$` formula."""
    return _DOLLAR.sub(r"\\$", text)


def mathml_to_latex(mathml: str) -> str | None:
    """One formula; see `mathml_to_latex_many`."""
    return mathml_to_latex_many([mathml])[0]
