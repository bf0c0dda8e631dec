"""How a Lens delivery is named in the ledger and the warehouse: `lens_<delivered>_<name>.<sha12><suffix>`
(stages/windows.new_lens_exports writes it); read back here for the card's list of deliveries."""
from __future__ import annotations

import re

_DELIVERY = re.compile(r"^lens_(\d{8}T\d{6}Z)_")


def export_name(item: str) -> str:
    """The drop's file name of a ledger item `[lens_<delivered>_]<stem>.<sha12><suffix>` (see new_lens_exports)."""
    item = _DELIVERY.sub("", item)
    stem, _, rest = item.rpartition(".")
    return f"{stem.rpartition('.')[0]}.{rest}" if "." in stem else item


def delivered_at(item: str) -> str | None:
    """The delivery time (`YYYYMMDDTHHMMSSZ`) a Lens ledger item carries, None for an older item name."""
    m = _DELIVERY.match(item)
    return m.group(1) if m else None
