"""Device settings: plain data persisted in ``settings.json`` of the state directory.

Every setting has a fixed list of choices so that bad input is refused with the choices named.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import BadArguments
from engine.text import Msg, N_

# key -> (default, allowed values, label); the labels are said with firmware.i18n._ when shown
SETTINGS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "language": ("en", ("en", "ru", "uk"), N_("Language")),
    "contrast": ("3", ("1", "2", "3", "4", "5"), N_("Contrast")),
    "screen_off": ("120", ("off", "30", "60", "120", "300", "600"), N_("Screen off")),
    "profile": ("adafruit-bonnet", ("adafruit-bonnet", "waveshare-hat"), N_("Buttons")),
    "driver": ("auto", ("auto", "ssd1306", "sh1106"), N_("Display")),
}

CONTRAST_LEVELS = {"1": 8, "2": 48, "3": 128, "4": 192, "5": 255}


def with_defaults(settings: dict[str, Any]) -> dict[str, Any]:
    """All settings, the stored ones over the defaults (unknown stored keys are kept)."""
    out = {key: spec[0] for key, spec in SETTINGS.items()}
    out.update(settings)
    return out


def apply_settings(current: dict[str, Any], changes: Mapping[str, str]) -> dict[str, Any]:
    """New settings with ``changes`` applied; raises BadArguments (nothing applied) on any bad one."""
    for key, value in changes.items():
        if key not in SETTINGS:
            if key.startswith("caesar.") or key.startswith("rules."):
                continue  # free-form game options remembered for 'new' (e.g. Caesar's tiles)
            raise BadArguments(Msg("No setting '{}'. Settings: {}.", key[:40], ", ".join(SETTINGS)))
        allowed = SETTINGS[key][1]
        if value not in allowed:
            raise BadArguments(Msg("{} takes {}; not '{}'.", key, ", ".join(allowed), value[:40]))
    out = dict(current)
    out.update(changes)
    return out


def cycle(settings: dict[str, Any], key: str, step: int = 1) -> dict[str, Any]:
    """The settings with ``key`` moved to its next (or previous) choice."""
    allowed = SETTINGS[key][1]
    value = with_defaults(settings)[key]
    i = allowed.index(value) if value in allowed else 0
    return {**settings, key: allowed[(i + step) % len(allowed)]}
