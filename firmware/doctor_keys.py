"""The doctor's Buttons rows (``legatus doctor``, Settings → Hardware) for keys held down far longer than
anyone holds one: pressed as their pins opened (held at boot, or stuck), or for over a minute while the
device runs. Such a key gives no event until it is released (hw.keys.KeyFilter)."""
from __future__ import annotations

from typing import Any

from engine.text import Msg
from firmware.doctor_panel import Row


def held_rows(live: Any) -> list[Row]:
    """The rows of ``live`` (firmware.doctor.Live): its ``held_keys`` and ``stuck_keys`` (key → pin)."""
    from hw.keys import key_label
    rows: list[Row] = []
    if live.held_keys:
        n = len(live.held_keys)
        rows.append(("warn", Msg("pressed since the start: {keys}", plural="pressed since the start: {keys}", n=n,
                                 keys=Msg.join([key_label(k, p) for k, p in live.held_keys.items()])), _fix(n)))
    if live.stuck_keys:
        n = len(live.stuck_keys)
        rows.append(("warn", Msg("held down for over a minute: {keys}", plural="held down for over a minute: {keys}",
                                 n=n, keys=Msg.join([key_label(k, p) for k, p in live.stuck_keys.items()])), _fix(n)))
    return rows


def _fix(n: int) -> Msg:
    return Msg("If nobody is holding it, it is stuck: something lying on it, or a worn or shorted switch. It does "
               "nothing until it is released; the other keys work.",
               plural="If nobody is holding them, they are stuck: something lying on them, or worn or shorted "
                      "switches. They do nothing until they are released; the other keys work.", n=n)
