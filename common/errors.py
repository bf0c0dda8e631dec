"""The errors every layer may raise: one clear line plus a hint; the CLI turns them into a non-zero exit.

Here, below `sources/`, so a source can raise them; the publishing errors built on them live in
patentfactory/errors.py.
"""
from __future__ import annotations


class PFError(Exception):
    """An error the user can act on: `message` says what, `hint` says what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} (hint: {self.hint})"


class SourceStopped(PFError):
    """An upstream service asked us to stop (EPO OPS black throttling or quota): not retried now. What was
    fetched is cached and recorded, so the next run resumes; the previous version stays LATEST and the
    nightly reports the dataset as deferred, not failed."""
