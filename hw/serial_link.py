"""pyserial adapter: open the console's serial port (UART, USB gadget or URL).

``serial`` is imported inside :func:`open_serial` so importing this module is
cheap. The returned object is a binary file: ``readline(n)``, ``write(bytes)``
and ``flush()``.
"""
from __future__ import annotations

import errno
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import serial

DEFAULT_BAUD = 115200


def _link_errors() -> tuple[type[BaseException], ...]:
    """What a read, write or flush raises when the link goes away: pyserial's SerialException
    (an OSError), ValueError on a closed port, and termios.error, which pyserial's ``flush``
    (tcdrain) lets through on a hung-up tty and which is not an OSError."""
    try:
        import termios
    except ImportError:              # not POSIX: pyserial has no termios path there
        return (OSError, ValueError)
    return (OSError, ValueError, termios.error)


LINK_ERRORS = _link_errors()


class SerialError(Exception):
    """The serial port cannot be opened; ``port`` names it and the message says what to do."""

    def __init__(self, port: str, message: str) -> None:
        super().__init__(message)
        self.port = port


def open_serial(port: str, baud: int = DEFAULT_BAUD, timeout: float | None = None) -> serial.Serial:
    """Open ``port`` (a device path such as ``/dev/ttyGS0`` or a pyserial URL such as ``loop://``).

    ``baud`` is in bit/s; ``timeout`` is the read timeout in seconds (None:
    block until the line or byte count is complete). Device ports are locked
    exclusively. Raises SerialError if the port is missing, not permitted, in
    use, or the URL or settings are invalid.
    """
    import serial

    try:
        return serial.serial_for_url(port, baudrate=baud, timeout=timeout, exclusive=True)
    except serial.SerialException as e:
        raise SerialError(port, _explain(port, e)) from e
    except ValueError as e:  # unknown URL scheme, bad baud rate or timeout
        raise SerialError(port, f"cannot open serial port {port!r}: {e}; check the port name "
                                "and baud rate") from e


def _explain(port: str, e: OSError) -> str:
    code = e.errno
    if code == errno.ENOENT:
        return (f"serial port {port} does not exist: check the port name (ls /dev/serial0 "
                "/dev/ttyGS0); /dev/ttyGS0 needs the USB gadget (dtoverlay=dwc2 and "
                "modules-load=dwc2,g_serial)")
    if code in (errno.EACCES, errno.EPERM):
        return (f"permission denied on serial port {port}: add the user to the 'dialout' "
                "group (sudo usermod -aG dialout $USER) and log in again")
    if code in (errno.EBUSY, errno.EAGAIN):
        return f"serial port {port} is in use by another program (is legatus already running?)"
    return f"cannot open serial port {port}: {e}; check the port name"
