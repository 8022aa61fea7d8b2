"""luma.oled adapter: open the OLED, ship pixels, contrast and blanking.

luma is imported inside the functions so that importing this module (and the
console's cold start) stays cheap. Every hardware failure is raised as
:class:`DisplayError`, which the program catches to run on without a display.

The devices :func:`open_display` returns are :class:`hw.panel.Ssd1306` and
:class:`hw.panel.Sh1106` on :class:`I2C` (smbus2) or luma.core's SPI interface: a frame
sends only the pages and columns that changed since the last one (luma.oled's
device classes, not used, send every byte, read pixels with
``Image.getdata()`` and take ~45 ms to import and construct). The next frame is
sent whole after :func:`invalidate`, a contrast change, waking the panel, or an
error.
"""
from __future__ import annotations

import errno
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.text import Msg, N_

if TYPE_CHECKING:
    from PIL.Image import Image

    from hw.config import DisplayConfig

    from hw.panel import Panel as LumaDevice

WIDTH, HEIGHT = 128, 64
MODEL_PATH = Path("/proc/device-tree/model")
I2C_ADAPTERS = Path("/sys/class/i2c-adapter")   # the kernel's I2C buses, /dev node (i2c-dev) or not


class DisplayError(Exception):
    """The display cannot be opened or stopped answering; the message (a :class:`engine.text.Msg`,
    ``args[0]``: said in the player's language by the doctor and Settings → Hardware) says what to
    check, with the technical detail (the bus, the errno) as a value inside the sentence."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message)


def probe_hardware(model_path: Path = MODEL_PATH) -> bool:
    """True if this looks like a Raspberry Pi with GPIO (``model_path`` names one)."""
    try:
        model = model_path.read_bytes()
    except OSError:
        return False
    return b"Raspberry Pi" in model


def open_display(cfg: DisplayConfig, serial_interface: Any = None) -> LumaDevice:
    """Open a 128x64 ``cfg.driver`` OLED over ``cfg.interface``, rotated ``cfg.rotate``.

    ``serial_interface`` (e.g. luma's ``noop()``) replaces the I2C/SPI bus,
    for tests. Raises DisplayError if the bus, the device or a needed module
    is missing or not permitted.
    """
    from luma.core.error import Error as LumaError

    from hw.panel import DRIVERS

    driver = DRIVERS[cfg.driver]
    owned = serial_interface is None
    if serial_interface is None:
        try:
            serial_interface = _open_bus(cfg)
        except (LumaError, OSError, ImportError) as e:
            raise DisplayError(_explain(cfg, e)) from e
        except Exception as e:  # lgpio.error (not an OSError): luma's SPI sets up DC and RST with rpi-lgpio
            if cfg.interface != "spi":
                raise
            raise DisplayError(_explain_pins(cfg, e)) from e
    try:
        return driver(serial_interface, width=WIDTH, height=HEIGHT, rotate=cfg.rotate)
    except (LumaError, OSError) as e:
        if owned:
            serial_interface.cleanup()
            other = _other_address(cfg) if getattr(e, "errno", None) in NOT_THERE else None
            if other is not None:
                return other
        bus, error = _bus_path(cfg), str(e) or type(e).__name__
        if cfg.interface != "i2c":
            raise DisplayError(Msg(
                "no {driver} display answered on {bus} ({error}): check the wiring or that the HAT is seated, "
                "and display.driver in the config file", driver=cfg.driver, bus=bus, error=error)) from e
        if owned and cfg.address in PANEL_ADDRESSES:         # (the other was tried too)
            raise DisplayError(Msg(
                "no {driver} display answered on {bus} at {address} or {other} ({error}): check the wiring or "
                "that the HAT is seated, and display.driver/address in the config file (i2cdetect -y {port} "
                "lists what answers)", driver=cfg.driver, bus=bus, address=f"{cfg.address:#04x}",
                other=f"{PANEL_ADDRESSES[1 - PANEL_ADDRESSES.index(cfg.address)]:#04x}", error=error,
                port=cfg.port)) from e
        raise DisplayError(Msg(
            "no {driver} display answered on {bus} at {address} ({error}): check the wiring or that the HAT is "
            "seated, and display.driver/address in the config file (i2cdetect -y {port} lists what answers)",
            driver=cfg.driver, bus=bus, address=f"{cfg.address:#04x}", error=error, port=cfg.port)) from e


PANEL_ADDRESSES = (0x3C, 0x3D)
"""The two addresses of an SSD1306/SH1106 on I2C (a jumper or resistor on the module chooses)."""
NOT_THERE = (errno.EREMOTEIO, errno.ENXIO, errno.EIO)
"""What a transfer to an address nobody acknowledges fails with (the other address is then tried;
not after a timeout, ETIMEDOUT: a bus held low answers nowhere, and each try would cost its
timeout, about a second, on the main loop)."""


def _other_address(cfg: DisplayConfig) -> LumaDevice | None:
    """The panel at the other of :data:`PANEL_ADDRESSES` when none answers at ``cfg.address``
    (a module set to 0x3D, or swapped for one): opened and logged with the setting that says so,
    or None."""
    if cfg.interface != "i2c" or cfg.address not in PANEL_ADDRESSES:
        return None
    from luma.core.error import Error as LumaError

    from hw.panel import DRIVERS
    address = PANEL_ADDRESSES[1 - PANEL_ADDRESSES.index(cfg.address)]
    try:
        bus = I2C(cfg.port, address)
    except OSError:
        return None
    try:
        device = DRIVERS[cfg.driver](bus, width=WIDTH, height=HEIGHT, rotate=cfg.rotate)
    except (LumaError, OSError):
        bus.cleanup()
        return None
    device.found_at = address          # type: ignore[attr-defined]  # (the doctor says so: firmware.doctor.Live)
    import logging
    # Said once a run: a panel at 0x3D that keeps failing (a loose contact) is opened again every few
    # seconds, and each open logged this anew (the log's "said once" of such a panel undone).
    if (cfg.port, cfg.address, address) not in _FOUND_ELSEWHERE:
        _FOUND_ELSEWHERE.add((cfg.port, cfg.address, address))
        logging.getLogger(__name__).warning(
            "display: nothing answers at %#04x on /dev/i2c-%d but a panel does at %#04x: using it (set "
            "display.address = %#04x in the config file to say so)", cfg.address, cfg.port, address, address)
    return device


_FOUND_ELSEWHERE: set[tuple[int, int, int]] = set()
"""(bus, the address configured, the one the panel answered at) already said in the log this run."""


def found_at(device: object) -> int | None:
    """The I2C address ``device`` was found at when that is not the configured one, else None."""
    address = getattr(device, "found_at", None)
    return address if isinstance(address, int) else None


def show(device: LumaDevice, image: Image) -> None:
    """Send ``image`` (converted to the device's mode) to the display.

    Raises ValueError if its size differs from ``device.size`` and
    DisplayError if the display stopped answering.
    """
    if image.size != device.size:
        raise ValueError(f"image is {image.size[0]}x{image.size[1]} px, "
                         f"the display {device.size[0]}x{device.size[1]} px")
    if image.mode != device.mode:
        image = image.convert(device.mode)
    _send(device, device.display, image)


def invalidate(device: LumaDevice) -> None:
    """Make the next :func:`show` send the whole frame (e.g. the panel may have lost it)."""
    forget = getattr(device, "invalidate", None)
    if forget is not None:
        forget()


def set_contrast(device: LumaDevice, level: int) -> None:
    """Set the contrast to ``level`` (0..255; raises ValueError outside, DisplayError on failure).

    The next frame is sent whole."""
    if isinstance(level, bool) or not isinstance(level, int) or not 0 <= level <= 255:
        raise ValueError(f"contrast level must be an integer 0..255, got {level!r}")
    invalidate(device)
    _send(device, device.contrast, level)


def blank(device: LumaDevice, blanked: bool) -> None:
    """Switch the panel off (``blanked``) or back on; the image is kept (but the next frame
    after switching on is sent whole). Raises DisplayError."""
    if not blanked:
        invalidate(device)
    # (hw.panel's wake: a panel set up anew is switched on by its next frame, not before it)
    _send(device, device.hide if blanked else getattr(device, "wake", device.show))


NOP = 0xE3   # "no operation" on both the SSD1306 and the SH1106


def probe(device: LumaDevice) -> None:
    """Check that the panel still answers: one no-op command (an I2C panel that is gone does
    not acknowledge it; SPI has no acknowledgement, so an SPI panel always passes). Raises
    DisplayError."""
    _send(device, device.command, NOP)


def refresh(device: LumaDevice) -> None:
    """Check that the panel still answers and set it up again (:meth:`hw.panel.Panel.restore`;
    a plain luma device gets the no-op of :func:`probe`): a panel whose power dipped answers like
    one that did not, but dark and with random RAM. The caller then sends the frame (it goes
    whole) or switches the display off. Raises DisplayError."""
    restore = getattr(device, "restore", None)
    if restore is None:
        probe(device)
        return
    _send(device, restore)


def release(device: LumaDevice) -> None:
    """Let go of a panel that stopped answering: its bus is closed and nothing more is sent to
    it (not even the switch-off at exit). Never raises."""
    forget = getattr(device, "release", None)
    try:
        if forget is not None:
            forget()
        else:
            device.cleanup()
    except Exception as e:  # noqa: BLE001 - the bus is gone already: nothing to do
        import logging
        logging.getLogger(__name__).debug("display: releasing the panel failed too (%s)", e)


def disown(device: LumaDevice) -> None:
    """Send nothing to ``device`` at exit (its clean-up would switch it off and clear it, on the
    exiting thread): another thread still waits on its bus, held low, and lets go of it itself."""
    import atexit
    hook = getattr(device, "_at_exit", None)
    if hook is not None:
        atexit.unregister(hook)


def _send(device: LumaDevice, method: Any, *args: Any) -> None:
    from luma.core.error import Error as LumaError

    try:
        method(*args)
    except (LumaError, OSError) as e:
        invalidate(device)
        raise DisplayError(Msg("the display stopped answering ({}); check its connection",
                               str(e) or type(e).__name__)) from e


class I2C:
    """An I2C serial interface for the panel, as luma.core's ``i2c`` with its own smbus2 bus:
    a command() is one ``write_i2c_block_data`` (control byte 0x00), a data() one ``i2c_rdwr``
    message (control byte 0x40) per 4,096 bytes. Importing luma.core.interface.serial instead
    costs ~5 ms more before the splash (its class bodies import multiprocessing). Errors are
    smbus2's OSErrors (the callers explain them)."""

    def __init__(self, port: int, address: int) -> None:
        import smbus2

        self._addr = address
        self._msg = smbus2.i2c_msg.write
        self._bus = smbus2.SMBus(port)

    def command(self, *cmd: int) -> None:
        self._bus.write_i2c_block_data(self._addr, 0x00, list(cmd))

    def data(self, data: Any) -> None:
        data = list(data)
        for i in range(0, len(data), 4096):
            self._bus.i2c_rdwr(self._msg(self._addr, [0x40] + data[i:i + 4096]))

    def cleanup(self) -> None:
        self._bus.close()


def _open_bus(cfg: DisplayConfig) -> Any:
    if cfg.interface == "i2c":
        return I2C(cfg.port, cfg.address)
    from luma.core.interface.serial import spi
    return spi(port=cfg.port, device=cfg.device, gpio_DC=cfg.dc, gpio_RST=cfg.rst)


def _bus_path(cfg: DisplayConfig) -> str:
    if cfg.interface == "i2c":
        return f"/dev/i2c-{cfg.port}"
    return f"/dev/spidev{cfg.port}.{cfg.device}"


PINS_BUSY = N_("the {driver} display's DC pin (GPIO{dc}) or RST pin (GPIO{rst}) is used by another program or an "
               "overlay ({error}): stop that program or remove the overlay, or set display.dc and display.rst in the "
               "config file to the pins the display is wired to")
"""An SPI panel's DC or RST pin held elsewhere (it says its own fix: the doctor adds no other)."""


def _explain_pins(cfg: DisplayConfig, e: BaseException) -> Msg:
    """An SPI panel's DC and RST pins that would not be set up (RPi.GPIO's API, rpi-lgpio on Bookworm:
    lgpio's own error, ``'GPIO busy'``, ``'can not open gpiochip'``, no errno): what holds them."""
    from hw.service import gpio_denied, permission_denied
    error = str(e).strip("'\"") or type(e).__name__
    chip = gpio_denied()
    if chip is not None:                 # the user not in 'gpio' (or the service not restarted since)
        return permission_denied(chip, "gpio")
    if "busy" in error.lower():
        return Msg(PINS_BUSY, driver=cfg.driver, dc=cfg.dc, rst=cfg.rst, error=error)
    return Msg("cannot set up the {driver} display's DC and RST pins (GPIO{dc}, GPIO{rst}): {error}",
               driver=cfg.driver, dc=cfg.dc, rst=cfg.rst, error=f"{type(e).__name__}: {error}")


def _explain(cfg: DisplayConfig, e: BaseException) -> Msg:
    """An actionable sentence for an error raised while opening the bus."""
    from luma.core.error import DeviceNotFoundError, DevicePermissionError, UnsupportedPlatform

    bus = _bus_path(cfg)
    kind = cfg.interface
    error = str(e) or type(e).__name__
    if isinstance(e, (ImportError, UnsupportedPlatform)):
        return Msg("the {kind} display cannot use {bus} ({error}): install the missing module (python3-spidev and "
                   "python3-rpi-lgpio for SPI; scripts/install-pi.sh does) or run without a display",
                   kind=kind.upper(), bus=bus, error=error)
    code = getattr(e, "errno", None)
    if isinstance(e, DevicePermissionError) or code in (errno.EACCES, errno.EPERM):
        from hw.service import permission_denied
        return permission_denied(bus, kind)
    if (isinstance(e, DeviceNotFoundError) or code == errno.ENOENT) and kind == "i2c" and \
            (I2C_ADAPTERS / f"i2c-{cfg.port}").exists():     # the bus is on, its /dev node is not made
        return Msg("{bus} does not exist though the I2C bus is on: the i2c-dev module is not loaded (sudo modprobe "
                   "i2c-dev; sudo raspi-config nonint do_i2c 0 loads it at every boot)", bus=bus)
    if isinstance(e, DeviceNotFoundError) or code == errno.ENOENT:
        return Msg("{bus} does not exist: enable {kind} (sudo raspi-config nonint do_{group} 0, then reboot) or set "
                   "display.port in the config file", bus=bus, kind=kind.upper(), group=kind)
    return Msg("cannot open {bus} for the {driver} display: {error}", bus=bus, driver=cfg.driver,
               error=f"{type(e).__name__}: {e}")
