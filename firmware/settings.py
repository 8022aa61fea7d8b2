"""Device settings: plain data kept in the ``settings`` table of the store (firmware/store/).

Every setting has a fixed list of choices so that bad input is refused with the choices named;
free-form game options (``caesar.…``, ``rules.…``) are bounded in size and number. A stored value
that is not allowed (damage, a crafted import) is reported and its default used.
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


MAX_KEY = 40           # characters of a free-form key (``caesar.…``, ``rules.…``)
MAX_VALUE = 512        # characters of a free-form value (Caesar's tiles need about 150)
MAX_FREE = 32          # free-form keys remembered at once


def _free_form(key: str) -> bool:
    return key.startswith(("caesar.", "rules.", "jc.", "sword."))


def refusal(key: Any, value: Any) -> Msg | None:
    """Why ``key=value`` cannot be a setting (None if it can)."""
    if not isinstance(key, str) or not isinstance(value, str):
        return Msg("A setting needs a name and a value in words.")
    if key in SETTINGS:
        allowed = SETTINGS[key][1]
        if value not in allowed:
            return Msg("{} takes {}; not '{}'.", key, ", ".join(allowed), value[:40])
        return None
    if not _free_form(key):
        return Msg("No setting '{}'. Settings: {}.", key[:40], ", ".join(SETTINGS))
    if len(key) > MAX_KEY:
        return Msg("A setting's name has at most {} characters; '{}…' has {}.", MAX_KEY, key[:24], len(key))
    if len(value) > MAX_VALUE:
        return Msg("The value of {} has at most {} characters, not {}.", key, MAX_VALUE, len(value))
    if not value.isprintable():
        return Msg("The value of {} holds a control character.", key)
    return None


def valid_settings(settings: Mapping[Any, Any]) -> tuple[dict[str, Any], list[str]]:
    """The stored settings that can be used, and the names of those that cannot (a damaged or
    crafted value: its default is used). A key this version does not know is kept as it is
    (a newer Legatus may have written it) when it is a short word with a short value."""
    good: dict[str, Any] = {}
    wrong: list[str] = []
    free = 0
    for key, value in settings.items():
        why = refusal(key, value)
        if why is None and _free_form(key):
            free += 1
            if free > MAX_FREE:
                why = Msg("At most {} game options are remembered; {} would be.", MAX_FREE, free)
        if why is None:
            good[key] = value
        elif (isinstance(key, str) and key not in SETTINGS and not _free_form(key) and len(key) <= MAX_KEY
              and key.isprintable() and isinstance(value, str) and len(value) <= MAX_VALUE):
            good[key] = value
        else:
            wrong.append((key if isinstance(key, str) else repr(key))[:MAX_KEY])
    return good, wrong


def apply_settings(current: dict[str, Any], changes: Mapping[str, str]) -> dict[str, Any]:
    """New settings with ``changes`` applied; raises BadArguments (nothing applied) on any bad one."""
    for key, value in changes.items():
        why = refusal(key, value)
        if why is not None:
            raise BadArguments(why)
    out = dict(current)
    out.update(changes)
    free = [k for k in out if _free_form(k)]
    if len(free) > MAX_FREE:
        raise BadArguments(Msg("At most {} game options are remembered; {} would be.", MAX_FREE, len(free)))
    return out


def cycle(settings: dict[str, Any], key: str, step: int = 1) -> dict[str, Any]:
    """The settings with ``key`` moved to its next (or previous) choice."""
    allowed = SETTINGS[key][1]
    value = with_defaults(settings)[key]
    i = allowed.index(value) if value in allowed else 0
    return {**settings, key: allowed[(i + step) % len(allowed)]}
