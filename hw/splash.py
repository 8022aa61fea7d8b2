"""The first frame: a splash sent to the panel before the rest of the program is imported.

``legatus`` on a Raspberry Pi with the OLED (firmware/cli.py) calls :func:`early` first: with
the display settings the last run used (``panel.json`` in the state directory, written by
:func:`remember` once the device has opened the display with the configuration resolved from the
config file and the settings), it opens the panel and sends :data:`FRAME`, the name "LEGATUS"
drawn in the shipped Terminus font, prebuilt so that no font is loaded. Only PIL.Image,
luma.core's serial interface and hw.panel are imported for it. The device then takes that open
panel over (firmware/device.py) if its configuration is still the same, else it closes it and
opens the right one. No cache (a first start, a new state directory) means no early splash.
The program sends it aside (:class:`Aside`: a thread of its own, while the rest is imported), and
the device's panel thread waits for it when it takes it over.

``python -m firmware.screens.splash`` prints :data:`FRAME` anew, drawn with the shipped fonts (tests
check they agree); nothing here imports the device program.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from PIL.Image import Image

    from hw.config import DisplayConfig

CACHE = "panel.json"
FIELDS = ("driver", "interface", "port", "address", "device", "dc", "rst", "rotate")
SIZE = (128, 64)


def state_dir(arg: str | None) -> Path:
    """The state directory ``legatus`` uses: ``--state-dir``, else $LEGATUS_STATE_DIR, else
    ~/.local/state/legatus (as firmware.store.default_state_dir)."""
    if arg:
        return Path(arg)
    from hw.config import default_state_dir
    return default_state_dir()


def remember(directory: Path, cfg: DisplayConfig) -> None:
    """Keep ``cfg`` for the next start's splash (best effort: a failure only costs the splash)."""
    data = {name: getattr(cfg, name) for name in FIELDS}
    path = directory / CACHE
    try:
        if path.exists() and json.loads(path.read_text()) == data:
            return
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except (OSError, ValueError) as e:
        import logging
        logging.getLogger(__name__).warning("the splash's display settings were not kept in %s (%s): "
                                            "the next start shows no splash", path, e)


def cached(directory: Path) -> dict[str, Any] | None:
    """The display settings :func:`remember` kept, or None."""
    try:
        data = json.loads((directory / CACHE).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or set(data) != set(FIELDS):
        return None
    return data


class _Cfg:
    """The fields of a DisplayConfig (without importing hw.config and dataclasses)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)


def early(state_dir_arg: str | None, serial_interface: Any = None,
          probe: bool = True, aside: bool = False) -> tuple[Any, dict[str, Any]] | Aside | None:
    """Open the panel as the last run did and send the splash; returns (device, its display
    settings) or None (not a Pi, no cache, or the display did not answer: the device program
    then opens it as usual). Never raises.

    ``aside``: the panel is opened and the splash sent on a thread of its own (an :class:`Aside`,
    whose ``result()`` waits for it), so that a bus held low (each transfer waits for its timeout,
    about a second) does not hold the start up: the device takes it over on its panel thread."""
    try:
        from hw.display import probe_hardware
        if probe and not probe_hardware():
            return None
        directory = state_dir(state_dir_arg)
        data = cached(directory)
        if data is None or _in_use(directory):
            return None
        if not aside:
            return _splash(data, serial_interface)
        import luma.core.error  # noqa: F401 - (imported here, not beside the main thread's imports)
        import PIL.Image  # noqa: F401

        import hw.panel  # noqa: F401
        if serial_interface is None and data.get("interface") == "i2c":
            import smbus2  # noqa: F401
        elif serial_interface is None:
            import luma.core.interface.serial  # noqa: F401
        return Aside(lambda: _splash(data, serial_interface))
    except Exception:  # noqa: BLE001 - the splash must never stop the start
        return None


def _splash(data: dict[str, Any], serial_interface: Any) -> tuple[Any, dict[str, Any]] | None:
    """Open the panel with ``data`` and send the splash: (device, data), or None. Never raises."""
    device = None
    try:
        from hw.display import open_display, show
        device = open_display(_Cfg(data), serial_interface)  # type: ignore[arg-type]
        show(device, frame())
        return device, data
    except Exception:  # noqa: BLE001 - the splash must never stop the start
        if device is not None:      # opened, but the frame failed: let go of (kept, its clean-up at exit
            from hw.display import release    # would clear the glass over the device's last frame)
            release(device)
        return None


class Aside:
    """The splash sent on a thread of its own (:func:`early` with ``aside``)."""

    def __init__(self, send: Callable[[], tuple[Any, dict[str, Any]] | None]) -> None:
        import threading
        self._got: tuple[Any, dict[str, Any]] | None = None
        self._send = send
        self._thread = threading.Thread(target=self._run, name="splash", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        self._got = self._send()

    def result(self) -> tuple[Any, dict[str, Any]] | None:
        """The open panel and its settings once the splash is sent, or None (it did not answer)."""
        self._thread.join()
        return self._got


def _in_use(directory: Path) -> bool:
    """Whether another Legatus process holds the state directory (and so the panel)."""
    import fcntl
    try:
        with open(directory / "lock", "rb") as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(f, fcntl.LOCK_UN)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return False


def take_over(early_panel: tuple[Any, dict[str, Any]] | Aside | None, cfg: DisplayConfig) -> Any:
    """The early panel if it was opened with ``cfg``, else None (and it is released). One sent
    aside is waited for (the device's panel thread calls this)."""
    if isinstance(early_panel, Aside):
        early_panel = early_panel.result()
    if early_panel is None:
        return None
    device, data = early_panel
    if data == {name: getattr(cfg, name) for name in FIELDS}:
        return device
    try:
        device.cleanup()
    except Exception as e:  # noqa: BLE001 - a stale splash must not stop the start
        import logging
        logging.getLogger(__name__).info("the splash's panel could not be released (%s)", e)
    return None


def frame() -> Image:
    from PIL import Image as PILImage
    return PILImage.frombytes("1", SIZE, FRAME)


FRAME = bytes.fromhex(
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0070007ffc1ff01ff07ffc701c1ff0000070007ffc3ff83ff87ffc701c3ff8000070007000783c783c0380701c783c00"
    "0070007000701c701c0380701c701c000070007000701c701c0380701c701c0000700070007000701c0380701c700000"
    "00700070007000701c0380701c70000000700070007000701c0380701c70000000700070007000701c0380701c780000"
    "0070007fe071fc701c0380701c3ff0000070007fe071fc7ffc0380701c1ff8000070007000701c7ffc0380701c003c00"
    "0070007000701c701c0380701c001c000070007000701c701c0380701c001c000070007000701c701c0380701c001c00"
    "0070007000701c701c0380701c701c000070007000701c701c0380701c701c000070007000783c701c0380783c783c00"
    "007ffc7ffc3ff8701c03803ff83ff800007ffc7ffc1ff0701c03801ff01ff00000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00ffffffffffffffffffffffffffff000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000"
)
