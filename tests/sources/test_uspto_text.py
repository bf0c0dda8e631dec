"""text.clean: every fast path gives what the plain rule gives (collapse blanks, strip lines, drop empty lines)."""
import re

import pytest

from sources.uspto_bulk.text import clean


def _rule(text: str) -> str:
    """The rule clean implements, written the slow, obvious way: runs of ASCII blanks and no-break spaces
    become one space; other Unicode spaces (em space, ...) stay inside a line but are stripped at its ends."""
    lines = (re.sub(r"[ \t\f\v\u00a0]+", " ", line).strip() for line in text.replace("\r", "\n").split("\n"))
    return "\n".join(line for line in lines if line)


@pytest.mark.parametrize("text", [
    "one line",
    "one line\n",            # plain line and a final newline: the newline goes, as after any other line
    "one line\n\n",
    "\none line",
    "  a \t b \n\n  c  \r\n",
    "a\u00a0 b",             # a no-break space collapses with the blank beside it
    "x\u2003y\n z",          # an em space inside a line stays
    "\u2003x y\u2003",
    "tab\there\n",
    "",
    " \n \t ",
])
def test_clean_matches_the_rule(text):
    assert clean(text) == _rule(text)


def test_final_newline_of_a_plain_line_is_dropped():
    assert clean("one line\n") == "one line"
    assert clean("  a \t b \n\n  c  \r\n") == "a b\nc"
