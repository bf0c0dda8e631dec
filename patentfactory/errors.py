"""User-facing errors: one clear line plus a hint; the CLI turns them into a non-zero exit."""
from __future__ import annotations


class PFError(Exception):
    """An error the user can act on: `message` says what, `hint` says what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} (hint: {self.hint})"


class StorageError(PFError):
    """A root that cannot be read or written."""


class PublishError(PFError):
    """Publishing was refused (leakage, quality gate, empty split) or failed; nothing visible changed."""


class NothingToPublish(PFError):
    """The inputs hold nothing this dataset can be built from (e.g. no matched pairs): not a failure of
    the run; the previous version (if any) stays LATEST and the nightly reports the dataset as skipped."""


class SourceStopped(PFError):
    """An upstream service asked us to stop (EPO OPS black throttling or quota): not retried now. What was
    fetched is cached and recorded, so the next run resumes; the previous version stays LATEST and the
    nightly reports the dataset as deferred, not failed."""


class QualityGateBlocked(PublishError):
    """The quality gate refused a version (rows lost or a field degraded against the previous version):
    nothing changed, the previous version stays LATEST; the nightly reports the dataset as blocked, and
    `--allow-drop` / `--allow-drift` publish anyway (recorded in the manifest)."""
