"""The doctor's Panel rows (``legatus doctor``, Settings → Hardware) from what the running device, or
the doctor's own try, found: whether the panel answers, where, how well, or why not."""
from __future__ import annotations

from typing import Any

from engine.text import Msg

Row = tuple[str, Any, Msg | None]
"""A row's status, what was found and the fix (firmware.doctor.Check without its label)."""


def panel_rows(live: Any, display: Any) -> list[Row]:
    """The Panel rows of ``live`` (firmware.doctor.Live) with the configured ``display``
    (hw.config.DisplayConfig): none while its first open is under way."""
    if live.panel is False:
        from hw.display import PINS_BUSY
        from hw.service import PERMISSION_DENIED
        fix = None if getattr(live.panel_error, "template", None) in (*PERMISSION_DENIED, PINS_BUSY) else Msg(  # (said:
            "Check that the HAT is seated and the I2C or SPI bus is on; the device opens the panel "  # a group, a pin)
            "again by itself as soon as it answers.")
        return [("fail", Msg("not answering: {}", live.panel_error or "?"), fix)]
    if not live.panel:
        return []
    rows: list[Row] = []
    found = live.panel_address
    if isinstance(found, int) and found != display.address and display.interface == "i2c":
        rows.append(("warn", Msg("answers at {found}, not at {address} as configured", found=f"{found:#04x}",
                                 address=f"{display.address:#04x}"),
                     Msg("Set display.address = {} in the config file (docs/hardware.md); the device finds the panel "
                         "there meanwhile.", f"{found:#04x}")))
    glitches = live.panel_glitches
    if isinstance(glitches, int) and glitches > 0:
        # (transfers that failed once and went through when sent again: firmware.hardware.PanelOutput)
        rows.append(("warn", Msg("answers, but at least {n} transfer failed and went through when sent again",
                                 plural="answers, but at least {n} transfers failed and went through when sent again",
                                 n=glitches),
                     Msg("A noisy I2C bus or a loose contact: check the wiring and keep it short, or lower the I2C "
                         "clock (sudo scripts/install-pi.sh --only-i2c --i2c-baudrate 100000, then reboot).")
                     if display.interface == "i2c" else Msg("Check the wiring or that the HAT is seated.")))
    return rows or [("ok", Msg("answers"), None)]


def at_least(n: int) -> int:
    """``n`` rounded down to 1, 10, 100... (0 stays 0): a count kept in the device's report
    (hardware.json) that changes, and so is written to the card, at each power of ten only."""
    step = 1
    while step * 10 <= n:
        step *= 10
    return step if n > 0 else 0
