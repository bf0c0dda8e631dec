"""User-facing errors: one clear line plus a hint; the CLI turns them into a non-zero exit."""
from __future__ import annotations

# the root of the hierarchy and the upstream stop live below sources/ (common/errors.py); importable from here
# too, so `patentfactory.errors` stays the one import for every error the CLI reports
from common.errors import PFError, SourceStopped

__all__ = ["PFError", "SourceStopped", "StorageError", "PublishError", "NothingToPublish", "QualityGateBlocked"]


class StorageError(PFError):
    """A root that cannot be read or written."""


class PublishError(PFError):
    """Publishing was refused (leakage, quality gate, empty split) or failed; nothing visible changed."""


class NothingToPublish(PFError):
    """The inputs hold nothing this dataset can be built from (e.g. no matched pairs): not a failure of
    the run; the previous version (if any) stays LATEST and the nightly reports the dataset as skipped."""


class QualityGateBlocked(PublishError):
    """The quality gate refused a version (rows lost or a field degraded against the previous version):
    nothing changed, the previous version stays LATEST; the nightly reports the dataset as blocked, and
    `--allow-drop` / `--allow-drift` publish anyway (recorded in the manifest)."""
