"""hw.panel / hw.display: only changed pages and columns go to the panel, and the panel ends up
holding the frame — checked by decoding the command/data stream luma's serial interface receives
into a model of the controller's display RAM (SSD1306 and SH1106, every rotation)."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from hw.config import DisplayConfig
from hw.display import DisplayError, blank, invalidate, open_display, set_contrast, show
from hw.panel import PAGE_OVERHEAD, WINDOW_OVERHEAD, Rect, changes, pack

FULL = 128 * 64 // 8
# luma rotates the logical image clockwise by ``rotate`` quarter turns before sending it
TO_PANEL = {0: None, 1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180,
            3: Image.Transpose.ROTATE_90}


class Controller:
    """A serial interface (luma's seam: ``command``/``data``/``cleanup``) that plays the display
    RAM of an SSD1306 or SH1106 as their datasheets describe it, and counts the bus bytes (one
    I2C message per call: address byte + control byte + payload, as luma's i2c sends them)."""

    # commands followed by argument bytes (everything else here takes none)
    ARGS = {"ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1,
                        0xD9: 1, 0xDA: 1, 0xDB: 1},
            "sh1106": {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}}

    def __init__(self, kind: str, seed: int = 0) -> None:
        self.kind = kind
        self.columns = 128 if kind == "ssd1306" else 132
        rng = random.Random(seed)          # RAM content at power-on is undefined
        self.ram = [bytearray(rng.randbytes(self.columns)) for _ in range(8)]
        self.mode = 2                      # SSD1306 resets to page addressing
        self.window = (0, 127, 0, 7)       # columns c0..c1, pages p0..p1 (horizontal mode)
        self.page = self.col = 0
        self.bytes = self.messages = 0
        self.pixel_bytes = 0
        self.on = False                    # display off (0xAE) at reset

    # -- luma's serial interface ------------------------------------------------------------------
    def command(self, *cmd: int) -> None:
        self.messages += 1
        self.bytes += 2 + len(cmd)
        args = self.ARGS[self.kind]
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = args.get(op, 0)
            assert i + n < len(cmd), f"command {op:#04x} is missing its arguments"
            self._command(op, cmd[i + 1:i + 1 + n])
            i += 1 + n

    def data(self, data: Any) -> None:
        data = list(data)
        self.messages += 1
        self.bytes += 2 + len(data)
        self.pixel_bytes += len(data)
        for byte in data:
            self._write(byte)

    def cleanup(self) -> None:
        pass

    # -- the controller ---------------------------------------------------------------------------
    def _command(self, op: int, args: tuple[int, ...]) -> None:
        paged = self.kind == "sh1106" or self.mode == 2
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif self.kind == "ssd1306" and op == 0x20:
            self.mode = args[0] & 3
        elif self.kind == "ssd1306" and op in (0x21, 0x22) and not paged:
            c0, c1, p0, p1 = self.window
            if op == 0x21:
                self.window = (args[0] & 0x7F, args[1] & 0x7F, p0, p1)
                self.col = args[0] & 0x7F
            else:
                self.window = (c0, c1, args[0] & 7, args[1] & 7)
                self.page = args[0] & 7
        elif 0xB0 <= op <= 0xB7 and paged:
            self.page = op & 7
        elif op <= 0x0F and paged:
            self.col = (self.col & 0xF0) | op
        elif 0x10 <= op <= 0x1F and paged:
            self.col = (self.col & 0x0F) | (op & 0x0F) << 4

    def _write(self, byte: int) -> None:
        assert self.col < self.columns, f"{self.kind}: write past column {self.columns - 1}"
        self.ram[self.page][self.col] = byte
        if self.kind == "sh1106":
            self.col += 1                  # no wrap: a write past the end is a bug (asserted)
        elif self.mode == 2:
            self.col = (self.col + 1) % 128
        else:                              # horizontal addressing inside the window
            c0, c1, p0, p1 = self.window
            self.col += 1
            if self.col > c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1

    def panel(self) -> Image.Image:
        """What the 128x64 panel shows, in its own orientation (SH1106: RAM columns 2..129);
        all dark while the display is off."""
        off = 0 if self.kind == "ssd1306" else 2
        px = bytes(255 if self.on and self.ram[y >> 3][x + off] >> (y & 7) & 1 else 0
                   for y in range(64) for x in range(128))
        return Image.frombytes("L", (128, 64), px).convert("1")


def expected_panel(frame: Image.Image, rotate: int) -> Image.Image:
    t = TO_PANEL[rotate]
    return frame if t is None else frame.transpose(t)


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def opened(kind: str, rotate: int = 0, seed: int = 0) -> tuple[Any, Controller]:
    ctl = Controller(kind, seed)
    device = open_display(DisplayConfig(driver=kind, rotate=rotate), ctl)
    return device, ctl


def naive_pack(img: Image.Image) -> bytes:
    w, h = img.size
    px = img.convert("1").load()
    assert px is not None
    return bytes(sum(1 << i for i in range(8) if px[x, 8 * p + i])
                 for p in range(h // 8) for x in range(w))


# -- packing and planning -------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(128, 64), (128, 32), (64, 128), (8, 8), (132, 16)]), st.randoms())
def test_pack_matches_the_ram_layout_bit_for_bit(size: tuple[int, int], rnd: random.Random) -> None:
    w, h = size
    img = Image.frombytes("1", size, rnd.randbytes((w + 7) // 8 * h))
    assert pack(img) == naive_pack(img)


def test_pack_refuses_a_height_that_is_not_whole_pages() -> None:
    with pytest.raises(ValueError, match="multiple of 8"):
        pack(Image.new("1", (128, 60)))


def test_changes_merge_close_runs_and_keep_distant_ones_apart() -> None:
    old = bytes(FULL)
    new = bytearray(old)
    new[3 * 128 + 10] = new[3 * 128 + 14] = 1          # 3 equal bytes apart: one rect
    new[3 * 128 + 100] = 1                              # far away: its own rect
    assert changes(old, bytes(new), 128, multi_page=True) == [Rect(3, 3, 10, 14), Rect(3, 3, 100, 100)]
    assert changes(old, old, 128, multi_page=True) == []
    assert changes(None, old, 128, multi_page=True) == [Rect(0, 7, 0, 127)]
    assert changes(None, old, 128, multi_page=False) == [Rect(p, p, 0, 127) for p in range(8)]


def bus_cost(rects: list[Rect], multi_page: bool) -> int:
    overhead = WINDOW_OVERHEAD if multi_page else PAGE_OVERHEAD
    return sum(r.size() + overhead * (1 if multi_page else r.page1 - r.page0 + 1) for r in rects)


@pytest.mark.parametrize("multi_page", [True, False])
@settings(max_examples=60, deadline=None)
@example(spans=[(262, 115), (420, 22), (693, 24), (753, 73), (386, 19), (525, 52), (16, 125), (156, 109),
                (646, 34), (842, 79), (951, 24), (985, 25), (934, 2), (726, 7), (588, 71), (441, 103), (6, 2)])
@given(spans=st.lists(st.tuples(st.integers(0, FULL - 1), st.sampled_from([1, 2, 3, 12, 40, 128])), max_size=150))
def test_changes_never_cost_more_than_the_whole_frame(multi_page: bool, spans: list[tuple[int, int]]) -> None:
    old = bytes(FULL)
    new = bytearray(old)
    for at, n in spans:
        new[at:at + n] = b"\x01" * len(new[at:at + n])
    rects = changes(old, bytes(new), 128, multi_page)
    assert bus_cost(rects, multi_page) <= bus_cost(changes(None, bytes(new), 128, multi_page), multi_page)
    covered = bytearray(old)                     # and every changed byte is inside a rect
    for r in rects:
        for p in range(r.page0, r.page1 + 1):
            covered[p * 128 + r.col0:p * 128 + r.col1 + 1] = new[p * 128 + r.col0:p * 128 + r.col1 + 1]
    assert covered == new


def test_changes_span_pages_only_with_window_addressing() -> None:
    old = bytes(FULL)
    new = bytearray(old)
    for p in (2, 3):                                    # a bar 2 pages high
        new[p * 128 + 5:p * 128 + 60] = b"\xff" * 55
    assert changes(old, bytes(new), 128, multi_page=True) == [Rect(2, 3, 5, 59)]
    assert changes(old, bytes(new), 128, multi_page=False) == [Rect(2, 2, 5, 59), Rect(3, 3, 5, 59)]
    new = bytearray(old)
    new[2 * 128 + 1] = new[3 * 128 + 120] = 1           # far apart: a window over both costs more
    assert changes(old, bytes(new), 128, multi_page=True) == [Rect(2, 2, 1, 1), Rect(3, 3, 120, 120)]


# -- the panel holds the frame, after any sequence of frames --------------------------------------
def _apply(prev: Image.Image, step: Any) -> Image.Image:
    if isinstance(step, bytes):
        w, h = prev.size
        return Image.frombytes("1", prev.size, step[:(w + 7) // 8 * h])
    img = prev.copy()
    draw = ImageDraw.Draw(img)
    for x, y, dx, dy, fill in step:
        draw.rectangle((x, y, x + dx, y + dy), fill=fill)
    return img


rects = st.lists(st.tuples(st.integers(0, 127), st.integers(0, 127), st.integers(0, 40),
                           st.integers(0, 20), st.sampled_from([0, 1])), max_size=4)
steps = st.lists(st.one_of(rects, st.binary(min_size=FULL, max_size=FULL)), min_size=1, max_size=6)


@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seq=steps, seed=st.integers(0, 2**16))
def test_panel_holds_every_frame(kind: str, rotate: int, seq: list[Any], seed: int) -> None:
    device, ctl = opened(kind, rotate, seed)
    assert not ctl.on and ctl.pixel_bytes == 0    # the power-on RAM is never shown, nor cleared
    frame = Image.new("1", device.size)
    for step in seq:
        frame = _apply(frame, step)
        show(device, frame)
        assert ctl.on and same(ctl.panel(), expected_panel(frame, rotate))


@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_full_refresh_after_wake_contrast_invalidate_and_error(kind: str) -> None:
    device, ctl = opened(kind)
    frame = Image.new("1", (128, 64))
    ImageDraw.Draw(frame).rectangle((0, 0, 20, 20), fill=1)
    show(device, frame)
    actions: list[Callable[[], None]] = [lambda: set_contrast(device, 10), lambda: blank(device, False),
                                         lambda: invalidate(device)]
    for again in actions:
        again()
        ctl.pixel_bytes = 0
        show(device, frame)                      # nothing changed, but sent whole
        assert ctl.pixel_bytes == FULL
    ctl.pixel_bytes = 0
    show(device, frame)
    assert ctl.pixel_bytes == 0                  # and then nothing at all
    # a bus error mid-frame: the panel's RAM is unknown, the next frame goes whole
    broken = frame.copy()
    ImageDraw.Draw(broken).rectangle((50, 30, 60, 40), fill=1)
    real = ctl.data
    ctl.data = lambda data: (_ for _ in ()).throw(OSError(5, "I/O error"))  # type: ignore[method-assign]
    with pytest.raises(DisplayError, match="stopped answering"):
        show(device, broken)
    ctl.data = real                              # type: ignore[method-assign]
    ctl.ram = [bytearray(b"\x55" * ctl.columns) for _ in range(8)]   # garbage after the glitch
    ctl.pixel_bytes = 0
    show(device, broken)
    assert ctl.pixel_bytes == FULL and same(ctl.panel(), broken)


# -- fewer bytes ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["ssd1306", "sh1106"])
def test_a_cursor_move_sends_a_few_bytes(kind: str) -> None:
    device, ctl = opened(kind)

    def menu(row: int) -> Image.Image:
        img = Image.new("1", (128, 64))
        draw = ImageDraw.Draw(img)
        for r in range(5):
            draw.text((10, 2 + 12 * r), f"item {r}", fill=1)
        draw.polygon([(1, 3 + 12 * row), (6, 7 + 12 * row), (1, 11 + 12 * row)], fill=1)
        return img

    show(device, menu(0))
    full = ctl.bytes
    ctl.bytes = 0
    show(device, menu(1))
    assert 0 < ctl.bytes <= 60 < full / 10
    assert same(ctl.panel(), menu(1))
    ctl.bytes = 0
    show(device, menu(1))
    assert ctl.bytes == 0                         # an unchanged frame sends nothing


def test_real_list_cursor_move_sends_only_the_rows_that_changed(state_dir: Any) -> None:
    from firmware.screens import base
    from tests.screens import app_with
    app = app_with([], [], state_dir)
    try:
        device, ctl = opened("ssd1306")
        show(device, app.render())
        ctl.bytes = 0
        app.handle("down")
        show(device, app.render())
        # the inverted cursor bar leaves one row and enters the next: their pages, no others
        pages = (2 * base.LINE + 7) // 8 + 1             # two text rows cover at most 4 pages
        assert ctl.bytes <= pages * 128 + 10 < 1034 * 2 // 3
        assert same(ctl.panel(), app.render())
    finally:
        app.console.close()


def test_luma_getdata_is_never_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow 14 removes Image.getdata(): opening, showing and cleaning up must not call it."""
    def gone(*_: Any, **__: Any) -> None:
        raise AssertionError("Image.getdata() called")
    monkeypatch.setattr(Image.Image, "getdata", gone)
    for kind in ("ssd1306", "sh1106"):
        device, ctl = opened(kind, rotate=2)
        show(device, Image.new("1", (128, 64), 1))
        device.cleanup()
        assert same(ctl.panel(), Image.new("1", (128, 64)))


def test_device_loop_refreshes_whole_after_contrast_and_wake(state_dir: Any) -> None:
    from firmware.device import Loop
    from firmware.device_hardware import OledOutput
    from tests.screens import app_with
    app = app_with([], [], state_dir)
    clock = [0.0]
    try:
        device, ctl = opened("ssd1306")
        loop = Loop(app, OledOutput(device), clock=lambda: clock[0])
        loop.redraw()
        assert same(ctl.panel(), app.render())
        ctl.pixel_bytes = 0
        loop.handle(("key", "down"))
        assert 0 < ctl.pixel_bytes < FULL // 2 and same(ctl.panel(), app.render())
        assert app.set_setting("contrast", "5")["ok"]
        ctl.pixel_bytes = 0
        loop.redraw()                                  # same frame, new contrast: sent whole
        assert ctl.pixel_bytes == FULL
        assert app.set_setting("screen_off", "30")["ok"]
        clock[0] += 31
        loop.tick()                                    # idle: blanked
        ctl.pixel_bytes = 0
        loop.handle(("key", "down"))                   # wakes, not acted on: sent whole
        assert ctl.pixel_bytes == FULL and same(ctl.panel(), app.render())
    finally:
        app.console.close()
