"""Settings → Hardware on the running device: ``legatus doctor``'s checks (firmware/doctor.py) with
what the device program found live, or with the stored settings when it found nothing yet."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from firmware import doctor

log = logging.getLogger("firmware.app")       # (the App's log, as before the move)


def device_checks(store: Any) -> list[doctor.Check]:
    """Settings → Hardware's checks on the running device (``store``: the session store): with what
    the device program found live, else with the stored settings (unreadable: the defaults', logged)."""
    root = Path(store.root).absolute()
    got = doctor.live()
    if got is not None:
        found, resolved = got
        return doctor.gather(root, resolved, found)
    try:
        stored = store.load_settings()
    except Exception:  # noqa: BLE001 - unreadable settings: show the defaults' view
        log.exception("the settings could not be read for Settings → Hardware")
        stored = {}
    return doctor.gather(root, doctor.resolve_config(None, stored), None)
