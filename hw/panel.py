"""Page packing and frame diffing for 1-bit page-addressed OLED controllers (SSD1306, SH1106).

The controllers' display RAM is organised in *pages*: 8 pixel rows high, one byte per column,
bit i of a byte the pixel in row 8*page + i. :func:`pack` turns a 1-bit image into that layout
with Pillow alone (no per-pixel Python loop); :func:`changes` compares two packed frames and
returns the rectangles (pages x columns) worth sending, runs of changed columns merged where a
new address command would cost more than resending the unchanged bytes in between.

:class:`PagedPanel` holds the diffing ``display(image)``: it sends only what changed since the
last frame through the device's ``command()``/``data()``, and so through luma's serial interface.
:class:`Ssd1306` and :class:`Sh1106` are the 128x64 controllers themselves, on luma's serial
interface but without luma.oled's device classes (whose import alone cost ~20 ms and whose
constructor ~25 ms of per-pixel tables, before the first frame): the same initialisation
commands as luma.oled 3.x sends (tests/test_hw_display.py compares them), and the display is
switched on only after the first frame has been written, so the panel never shows the random RAM
of power-on and no blank frame is sent first.
"""
from __future__ import annotations

import atexit
import re
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from PIL.Image import Image

PAGE_ROWS = 8
# Bus bytes spent to start a rectangle besides its pixels: luma's I2C interface writes one
# message per command()/data() call, each an address byte and a control byte, so SSD1306's
# window (0x21 c0 c1 0x22 p0 p1) costs 2+6+2 and SH1106's page address (0xB0|p, low, high) 2+3+2.
WINDOW_OVERHEAD = 10
PAGE_OVERHEAD = 7


class Rect(NamedTuple):
    """Pages ``page0..page1`` and columns ``col0..col1`` (inclusive) of the panel's RAM."""

    page0: int
    page1: int
    col0: int
    col1: int

    def size(self) -> int:
        return (self.page1 - self.page0 + 1) * (self.col1 - self.col0 + 1)


def pack(image: Image) -> bytes:
    """``image`` (mode "1", the panel's own orientation, height a multiple of 8) as RAM bytes:
    page after page, ``width`` bytes each; bit i of byte ``page * width + x`` is pixel
    (x, 8 * page + i).

    Rotating the image a quarter turn clockwise makes each panel column a row whose packed
    bytes (most significant bit first, as mode "1" packs) are that column's pages from the
    bottom one up, each with its top pixel in the least significant bit: exactly the RAM byte.
    """
    from PIL import Image as PILImage

    width, height = image.size
    if height % PAGE_ROWS:
        raise ValueError(f"the panel height must be a multiple of 8 rows, got {height}")
    if image.mode != "1":
        image = image.convert("1")
    pages = height // PAGE_ROWS
    columns = image.transpose(PILImage.Transpose.ROTATE_270).tobytes()
    return b"".join(columns[pages - 1 - page::pages] for page in range(pages))


@cache
def _run_pattern(gap: int) -> re.Pattern[bytes]:
    """Non-zero bytes, with at most ``gap`` zero bytes between two of them."""
    return re.compile(rb"[^\x00](?:\x00{0,%d}[^\x00])*" % gap)


def _runs(old: bytes, new: bytes, gap: int) -> list[tuple[int, int]]:
    """Runs (first, last) of differing bytes, runs at most ``gap`` equal bytes apart merged."""
    n = len(new)
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(n, "big")
    return [(m.start(), m.end() - 1) for m in _run_pattern(gap).finditer(diff)]


def changes(old: bytes | None, new: bytes, width: int, multi_page: bool) -> list[Rect]:
    """What to send to turn RAM holding ``old`` into ``new`` (both from :func:`pack`).

    ``old`` None means the RAM is unknown: everything is sent. ``multi_page`` (SSD1306's
    column/page window) lets one rectangle span pages when that costs fewer bus bytes than one
    per page; without it (SH1106's page addressing) every rectangle is one page high.
    """
    pages = len(new) // width
    if len(new) != pages * width or (old is not None and len(old) != len(new)):
        raise ValueError("frames must be whole pages of the same size")
    if multi_page:
        whole = [Rect(0, pages - 1, 0, width - 1)]
    else:
        whole = [Rect(p, p, 0, width - 1) for p in range(pages)]
    if old is None:
        return whole
    overhead = WINDOW_OVERHEAD if multi_page else PAGE_OVERHEAD
    rects = _changed(old, new, width, pages, multi_page, overhead)
    if sum(r.size() for r in rects) + overhead * len(rects) >= pages * width + overhead * len(whole):
        return whole                   # scattered changes all over: the whole frame is cheaper
    return rects


def _changed(old: bytes, new: bytes, width: int, pages: int, multi_page: bool,
             overhead: int) -> list[Rect]:
    rects: list[Rect] = []
    for page in range(pages):
        start = page * width
        a, b = old[start:start + width], new[start:start + width]
        if a == b:
            continue
        for col0, col1 in _runs(a, b, overhead):
            rect = Rect(page, page, col0, col1)
            if multi_page and rects and rects[-1].page1 == page - 1:
                last = rects[-1]
                merged = Rect(last.page0, page, min(last.col0, col0), max(last.col1, col1))
                if merged.size() <= last.size() + rect.size() + overhead:
                    rects[-1] = merged
                    continue
            rects.append(rect)
    return rects


def region(frame: bytes, width: int, rect: Rect) -> bytes:
    """The bytes of ``frame`` inside ``rect``, page after page (the order the RAM fills)."""
    return b"".join(frame[p * width + rect.col0:p * width + rect.col1 + 1]
                    for p in range(rect.page0, rect.page1 + 1))


class PagedPanel:
    """``display`` sends only what changed (a mixin: the class provides ``command``, ``data``,
    ``preprocess`` and the panel's ``_w``/``_h``).

    The frame last sent is kept in ``_frame`` (None: the panel's RAM is unknown, so the next
    frame is sent whole). :meth:`invalidate` forgets it, for a full refresh after wake-up, a
    contrast change or a bus error; a failed send forgets it too.
    """

    #: True for SSD1306 (column/page window, horizontal addressing as luma sets it up);
    #: False for SH1106 (page addressing only, columns shifted by ``_page_address_offset``).
    window_addressing = True
    _frame: bytes | None = None

    # provided by the device class
    _w: int
    _h: int
    command: Any
    data: Any
    preprocess: Any

    def invalidate(self) -> None:
        """Forget what the panel holds: the next frame is sent whole."""
        self._frame = None

    def display(self, image: Image) -> None:
        """Show ``image`` (mode "1", the device's ``size``), sending only the changed parts."""
        frame = pack(self.preprocess(image))
        old, self._frame = self._frame, None      # unknown until the send has completed
        for rect in changes(old, frame, self._w, self.window_addressing):
            self._send(rect, region(frame, self._w, rect))
        self._frame = frame

    def _send(self, rect: Rect, data: bytes) -> None:
        if self.window_addressing:
            start = getattr(self, "_colstart", 0)
            self.command(0x21, start + rect.col0, start + rect.col1,   # column address
                         0x22, rect.page0, rect.page1)                 # page address
            self.data(list(data))
            return
        col = getattr(self, "_page_address_offset", 0) + rect.col0
        n = rect.col1 - rect.col0 + 1
        for i, page in enumerate(range(rect.page0, rect.page1 + 1)):
            self.command(0xB0 | page, col & 0x0F, 0x10 | col >> 4)
            self.data(list(data[i * n:(i + 1) * n]))


# -- the controllers -------------------------------------------------------------------------------
DISPLAYOFF, DISPLAYON, SETCONTRAST = 0xAE, 0xAF, 0x81
# To the panel's own orientation: ``rotate`` quarter turns clockwise (as luma.core rotates).
_TO_PANEL = {1: "ROTATE_270", 2: "ROTATE_180", 3: "ROTATE_90"}


class Panel(PagedPanel):
    """A 1-bit OLED controller on a luma serial interface (``command(*bytes)``, ``data(bytes)``,
    ``cleanup()``), with the attributes and methods of a luma device that Legatus uses: ``size``,
    ``mode``, ``rotate``, ``persist``, ``display``, ``contrast``, ``show``, ``hide``, ``clear``,
    ``cleanup``. Subclasses give the initialisation commands."""

    INIT: tuple[int, ...] = ()
    CONTRAST = 0x7F
    mode = "1"

    def __init__(self, serial_interface: Any, width: int = 128, height: int = 64,
                 rotate: int = 0) -> None:
        if height % PAGE_ROWS or not 0 <= rotate <= 3:
            raise ValueError(f"unsupported panel {width}x{height}, rotate {rotate}")
        self._serial_interface = serial_interface
        self._w, self._h = width, height
        self.rotate = rotate
        self.width, self.height = (width, height) if rotate % 2 == 0 else (height, width)
        self.size = (self.width, self.height)
        self.persist = False
        self._dark = True              # switched on after the first frame is in the RAM
        self.command(*self.INIT)
        self.contrast(self.CONTRAST)
        atexit.register(self._at_exit)

    # luma's device interface
    def command(self, *cmd: int) -> None:
        self._serial_interface.command(*cmd)

    def data(self, data: Any) -> None:
        self._serial_interface.data(data)

    def preprocess(self, image: Image) -> Image:
        if not self.rotate:
            return image
        from PIL import Image as PILImage
        return image.transpose(getattr(PILImage.Transpose, _TO_PANEL[self.rotate]))

    def display(self, image: Image) -> None:
        super().display(image)
        if self._dark:
            self.show()

    def contrast(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ValueError(f"contrast {level} is outside 0..255")
        self.command(SETCONTRAST, level)

    def restore(self) -> None:
        """Send the set-up again (without switching the display off: on a panel that kept it,
        nothing changes on the glass) and forget what the RAM holds, so the next ``display``
        sends the whole frame and switches the display on: a panel reset by a power dip since
        the last frame comes back."""
        init = self.INIT[1:] if self.INIT[:1] == (DISPLAYOFF,) else self.INIT
        self.command(*init)
        self.invalidate()
        self._dark = True

    def show(self) -> None:
        """Switch the display on."""
        self.command(DISPLAYON)
        self._dark = False

    def hide(self) -> None:
        """Switch the display off (its RAM is kept)."""
        self.command(DISPLAYOFF)

    def wake(self) -> None:
        """Switch the display back on after :meth:`hide`, unless it was set up anew since its last
        frame (opened again, or :meth:`restore`: its RAM may be random): then the next
        ``display`` switches it on, once the frame is in the RAM."""
        if not self._dark:
            self.show()

    def clear(self) -> None:
        from PIL import Image as PILImage
        self.display(PILImage.new("1", self.size))

    def cleanup(self) -> None:
        """Switch off and clear the panel (unless ``persist``), then release the bus."""
        atexit.unregister(self._at_exit)
        if not self.persist:
            self.hide()
            self.clear()
        self._serial_interface.cleanup()

    def release(self) -> None:
        """Close the bus without sending anything (the panel stopped answering)."""
        atexit.unregister(self._at_exit)
        self._serial_interface.cleanup()

    def _at_exit(self) -> None:    # pragma: no cover - at interpreter exit
        try:
            self.cleanup()
        except Exception:  # noqa: BLE001 - the bus may be gone already
            pass


class Ssd1306(Panel):
    """SSD1306, 128x64: horizontal addressing inside a column/page window."""

    INIT = (0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1, 0xC8,
            0xDA, 0x12, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6)
    CONTRAST = 0xCF
    window_addressing = True
    _colstart = 0


class Sh1106(Panel):
    """SH1106, 128x64 of its 132 RAM columns (the panel starts at column 2): page addressing."""

    INIT = (0xAE, 0x20, 0x10, 0xB0, 0xC8, 0x00, 0x10, 0x40, 0xA1, 0xA6, 0xA8, 0x3F, 0xA4, 0xD3,
            0x00, 0xD5, 0xF0, 0xD9, 0x22, 0xDA, 0x12, 0xDB, 0x20, 0x8D, 0x14)
    CONTRAST = 0x7F
    window_addressing = False
    _page_address_offset = 2


DRIVERS: dict[str, type[Panel]] = {"ssd1306": Ssd1306, "sh1106": Sh1106}
