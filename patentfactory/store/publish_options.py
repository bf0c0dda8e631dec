"""How a publish treats the quality gate, as one value: built once at the entry point (the CLI's and the flows'
`--allow-drop` / `--allow-drift`, the settings' `PF_QUALITY__*`) and handed unchanged to every build's `publish`."""
from __future__ import annotations

from dataclasses import dataclass

from patentfactory.config import DriftThresholds, Settings

ROW_DROP_THRESHOLD = 0.5  # a task split may not lose more than this share of its rows against LATEST


@dataclass(frozen=True)
class PublishOptions:
    """`allow_drop` / `allow_drift`: publish even where the gate sees rows drop / a column degrade (recorded in the
    manifest). `drift`: the drift thresholds; the entry points give the settings' PF_QUALITY__* (`from_settings`),
    None is their defaults."""

    allow_drop: bool = False
    allow_drift: bool = False
    row_drop_threshold: float = ROW_DROP_THRESHOLD
    drift: DriftThresholds | None = None

    @classmethod
    def from_settings(cls, settings: Settings, allow_drop: bool = False, allow_drift: bool = False) -> PublishOptions:
        return cls(allow_drop=allow_drop, allow_drift=allow_drift, drift=settings.quality)

    def overrides(self) -> dict[str, bool]:
        """What the manifest records, and the flags a build flow takes (`**options.overrides()`)."""
        return {"allow_drop": self.allow_drop, "allow_drift": self.allow_drift}
