"""The drawing toolkit: the frame, the fonts, text, the title bar, big digits, word wrap.

A screen keeps its own UI state (cursor, page) in attributes; ``render`` reads only those and the
:class:`~firmware.screens.ctx.Ctx` it is given, and returns a fresh image: the same inputs give the
same pixels. The widgets (lists, scroll text, figures, dice, odds, questions) are in
:mod:`firmware.screens.widgets`; what the keys mean is its one key table (docs/keys.md).
"""
from __future__ import annotations

import io
import logging
import re
import zlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, cast, overload

from PIL import Image, ImageDraw, ImageFont

log = logging.getLogger(__name__)

W, H = 128, 64
LINE = 12             # pixels between text rows (the body font's cell height)
CHAR_W = 6            # the body font's advance, pixels (monospace)
COLS = W // CHAR_W    # 21 characters per row
TITLE_H = 11          # the inverted title bar
ROWS = 4              # body rows under the title bar (5 text rows on the panel with the title)

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
# kind -> (file, pixel size, advance): Terminus Font (assets/fonts/PROVENANCE.md), monospace.
FONTS: dict[str, tuple[str, int, int]] = {
    "body": ("ter-u12n_unicode.pcf.gz", 12, 6),
    "bold": ("ter-u12b_unicode.pcf.gz", 12, 6),
    "large": ("ter-u16b_unicode.pcf.gz", 16, 8),   # the key line of a decision: 16 columns
    "big": ("ter-u24b_unicode.pcf.gz", 24, 12),
    "huge": ("ter-u32b_unicode.pcf.gz", 32, 16),
}
REPLACEMENT = "\ufffd"   # drawn for a character the font lacks


UNREADABLE: list[tuple[str, str]] = []    # font files that could not be read, and why (the App says so)


@lru_cache(maxsize=None)
def font(kind: str = "body") -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The shipped bitmap font of ``kind`` (see FONTS), loaded once. If the file cannot be read
    (a damaged install), Pillow's built-in font is used so the device still shows something.

    The file is inflated into memory once: FreeType reading the ``.pcf.gz`` itself inflates it
    again from its start for each glyph it loads, 4 ms a row of text here (a frame of 7 rows took
    30 ms, half a second on a Pi Zero 2 W), 0.015 ms from memory (about 0.25 MB a font)."""
    name, size, _ = FONTS[kind]
    try:
        data = (FONT_DIR / name).read_bytes()
        if name.endswith(".gz"):
            data = zlib.decompress(data, 16 + zlib.MAX_WBITS)       # 16+: the gzip wrapper
        return ImageFont.truetype(io.BytesIO(data), size)
    except (OSError, zlib.error) as e:
        log.error("the font %s cannot be read (%s); Pillow's built-in font is used", name, e)
        UNREADABLE.append((name, getattr(e, "strerror", None) or str(e)))
        # Pillow's bitmap font (Latin-1): load_default_imagefont from Pillow 10.1, load_default
        # before it (Debian Bookworm's Pillow 9.4 on the Pi)
        built_in = getattr(ImageFont, "load_default_imagefont", None) or ImageFont.load_default
        return cast("ImageFont.ImageFont", built_in())


def advance(kind: str = "body") -> int:
    """Pixels per character in the font of ``kind``."""
    return FONTS[kind][2]


def cell_height(kind: str = "body") -> int:
    return FONTS[kind][1]


@lru_cache(maxsize=8)
def _missing_mask(kind: str) -> bytes | None:
    """The font's default glyph (None: the font cannot say, e.g. Pillow's Latin-1 built-in one)."""
    try:
        return bytes(font(kind).getmask("\ue000"))  # a private-use point: the font's default glyph
    except Exception as e:  # noqa: BLE001 - a font that cannot draw it has no default glyph to compare
        log.info("the %s font has no default glyph (%s)", kind, e)
        return None


@lru_cache(maxsize=4096)
def has_glyph(ch: str, kind: str = "body") -> bool:
    """Whether the font of ``kind`` draws ``ch`` (a single character) with a glyph of its own.

    A character drawn exactly like the font's default glyph has none, unless it is printable
    ASCII (Terminus's default glyph is its own '?'): those are all in the font. Only the
    characters asked about are rendered (not all of ASCII at the first call: ~14 ms at start)."""
    if ch == " ":
        return True
    if not ch.isprintable():
        return False
    try:
        mask = bytes(font(kind).getmask(ch))
    except Exception as e:  # noqa: BLE001 - any font trouble means: no glyph
        log.warning("the %s font cannot render %r (%s)", kind, ch, e)
        return False
    default = _missing_mask(kind)
    return default is None or mask != default or 33 <= ord(ch) < 127


def missing(s: str, kind: str = "body") -> set[str]:
    """The characters of ``s`` that the font of ``kind`` cannot draw."""
    return {ch for ch in set(s) if not has_glyph(ch, kind)}


def drawable(s: object, kind: str = "body") -> str:
    """``s`` as text with every character the font lacks replaced by U+FFFD (visible, never an
    exception); tabs and newlines become spaces."""
    text_ = str(s)
    if all(has_glyph(ch, kind) for ch in set(text_)):
        return text_
    mark = REPLACEMENT if has_glyph(REPLACEMENT, kind) else "?"     # the built-in font lacks U+FFFD
    return "".join(ch if has_glyph(ch, kind) else (" " if ch in "\t\n\r" else mark) for ch in text_)


# -- drawing -----------------------------------------------------------------------------------
def frame() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("1", (W, H), 0)
    return img, ImageDraw.Draw(img)


def hint_place(title: str, hint: str) -> tuple[str, str]:
    """Where a form's key hint goes: ``(beside the title, under the rows)``: beside a whole title
    when both fit the title bar (:data:`COLS`), else under the rows (never a cut title)."""
    if not hint or len(title) + 1 + len(hint) <= COLS:
        return hint, ""
    return "", hint


def clip(text: str, width: int = COLS) -> str:
    """Cut ``text`` to ``width`` characters, ending with '…' when cut. A text the device writes
    itself must fit where it is drawn (tests/test_no_clipped_text.py walks every screen in every
    language and fails on any cut): this is the last guard, never the layout."""
    return text if len(text) <= width else text[: width - 1] + "…"


def clip_name(name: str, width: int) -> str:
    """A name a person typed (a player's name, a bag's item, the players' share word) cut to
    ``width`` characters, ending with '…' when longer: the one cut made on purpose, as a column
    cannot grow with what is typed (the full name is on the screens that show it alone)."""
    return name if len(name) <= width else name[: width - 1] + "…"


# When a list, every text drawn is appended as (x, y, text, kind): tests and scripts/bench_presses.py
# read what a screen shows (rows wider than the panel, console syntax, replacement glyphs).
TRACE: list[tuple[int, int, str, str]] | None = None


def traced(render: Callable[[], Image.Image]) -> tuple[Image.Image, list[tuple[int, int, str, str]]]:
    """The frame ``render()`` draws and every text drawn in it, as (x, y, text, kind): :data:`TRACE`
    is on for the call and off after it, even when it raises (a frame checked by a test or a
    script: tests/test_no_clipped_text.py, scripts/monkey.py)."""
    global TRACE
    TRACE = []
    try:
        img = render()
        return img, list(TRACE)
    finally:
        TRACE = None


def frame_dropped() -> None:
    """The frame drawn so far is not the one shown (the screen on top changed while it was drawn:
    the App draws the new top instead): its texts leave :data:`TRACE`, which holds the shown frame's."""
    if TRACE is not None:
        TRACE.clear()


def put(draw: ImageDraw.ImageDraw, x: int, y: int, s: object, fill: int = 1, kind: str = "body") -> int:
    """Draw ``s`` in the font of ``kind`` with its cell's top-left at (x, y); returns the width.
    Never raises: missing glyphs show as U+FFFD."""
    if TRACE is not None:
        TRACE.append((x, y, str(s), kind))
    t = drawable(s, kind)
    try:
        draw.text((x, y), t, font=font(kind), fill=fill)
    except Exception:  # noqa: BLE001 - a screen must never end the program
        log.warning("text %r drawn in ASCII: the font failed", t, exc_info=True)
        draw.text((x, y), t.encode("ascii", "replace").decode(), font=font(kind), fill=fill)
    return len(t) * advance(kind)


def text(draw: ImageDraw.ImageDraw, x: int, y: int, s: str, invert: bool = False,
         kind: str = "body") -> None:
    """Draw ``s`` with its top-left at (x, y); ``invert`` draws a filled box behind it."""
    if invert:
        draw.rectangle((x - 1, y, x + len(str(s)) * advance(kind), y + cell_height(kind) - 1), fill=1)
    put(draw, x, y, s, fill=0 if invert else 1, kind=kind)


@lru_cache(maxsize=4096)
def reaches_top(ch: str, kind: str = "body") -> bool:
    """Whether ``ch`` lights the top row of its cell in the font of ``kind`` (the mark above
    a capital: Ґ Ї Ё Й, the apostrophe ʼ)."""
    mask = font(kind).getmask(drawable(ch, kind))
    return any(mask.getpixel((x, 0)) for x in range(mask.size[0])) and mask.size[1] >= cell_height(kind)


def title_bar(draw: ImageDraw.ImageDraw, title: str, status: str = "") -> None:
    """An inverted bar on top with ``title`` left and ``status`` (whose turn, counts) right; when
    they stand within two columns of each other the bar is cut between them (a one-pixel dark
    column), so that they never read as one phrase («Приказ Б A: сохранить», «Battle defender
    wins») and neither is shortened.

    The text stands a pixel up, so that the 11-pixel bar holds the font's 12-pixel cell but its
    top row, which only the marks above a few capitals use (Ґ Ї Ё Й ʼ): a title with one of them
    is drawn a pixel lower in a 12-pixel bar, whole (its descenders on the bar's last row)."""
    status = str(status)
    room = COLS - (len(status) + 1 if status else 0)
    shown = clip(str(title), room)
    y = 0 if any(reaches_top(ch) for ch in set(shown + status)) else -1
    draw.rectangle((0, 0, W - 1, TITLE_H + y), fill=1)
    put(draw, 1, y, shown, fill=0)
    if status:
        x = W - len(status) * CHAR_W - 1
        put(draw, x, y, status, fill=0)
        end = 1 + len(shown.rstrip()) * CHAR_W
        if x - end <= 2 * CHAR_W:            # a word space or two apart: a cut in the bar between them
            mid = (end + x) // 2 - 1         # (the middle of the blank columns: a glyph's last is blank)
            draw.line((mid, 0, mid, TITLE_H + y), fill=0)


def row_y(i: int) -> int:
    """Top pixel of content row ``i`` (0-based, under the title bar)."""
    return TITLE_H + 1 + i * LINE


def lines(draw: ImageDraw.ImageDraw, rows: Sequence[str], start: int = 0) -> None:
    """Plain text rows under the title bar."""
    for i, s in enumerate(rows[: ROWS - start]):
        text(draw, 1, row_y(i + start), clip(str(s)))


def big(img: Image.Image, x: int, y: int, s: str, scale: int = 3) -> int:
    """Draw ``s`` in a large font (scale 1: body 12 px, 2: 24 px, 3+: 32 px; crisp bitmap
    glyphs) with its cell's top-left at (x, y); returns the width drawn."""
    kind = BIG_KINDS.get(scale, "huge")
    return put(ImageDraw.Draw(img), x, y, s, kind=kind)


BIG_KINDS = {1: "body", 2: "big", 3: "huge"}


def big_width(s: str, scale: int = 3) -> int:
    return len(str(s)) * advance(BIG_KINDS.get(scale, "huge"))


BREAKS = ("-", "–", "—", "/", "_")  # a long word may break after one of these (kept at the row's end)


# A number or a code (a seed, a fair-draw code, a game's id: figures, with Latin letters or not),
# an opening bracket or quote and a stop after it included: a hyphen added where it breaks would
# read as a minus or as one of its characters («174850297213279734-» / «32.»).
_CODE = re.compile(r"[(«]?[+−-]?(?=[0-9A-Za-z]*\d)[0-9A-Za-z]+[)»,.:;!?]*")


def split_word(word: str, width: int) -> list[str]:
    """``word`` in pieces of at most ``width`` characters: each but the last ends after the word's
    own hyphen, dash, slash or underscore (a path) when one falls within it («Італія–» /
    «Цизальпійська»), else with a hyphen added at the cut; never a word cut without a mark. A
    number or a code (:data:`_CODE`: «17485029721327973432.») is cut with no mark: every
    character of it is its own."""
    if _CODE.fullmatch(word) and width > 1:
        pieces = [word[k:k + width] for k in range(0, len(word), width)]
        if len(pieces) > 1 and len(pieces[-1]) < width and not any(ch.isalnum() for ch in pieces[-1]):   # never a stop alone: «2.»
            pieces[-2:] = [pieces[-2][:-1], pieces[-2][-1] + pieces[-1]]
        return pieces
    out: list[str] = []
    while len(word) > width > 1:
        at = max(word.rfind(mark, 1, width) for mark in BREAKS)
        if at > 0:
            out.append(word[:at + 1])
            word = word[at + 1:]
        else:
            out.append(word[:width - 1] + "-")
            word = word[width - 1:]
    out.append(word)
    return out


def code_rows(code: str, width: int) -> list[str]:
    """``code`` (a players' share, typed as it is: any characters, a hyphen of its own too) on
    rows of ``width`` characters, cut with no mark: a hyphen added would read as one of its
    characters («Share:» / «abcdefghijklmnopqrs» / «tuvwxyz»)."""
    return [code[k:k + width] for k in range(0, len(code), width)] or [code]


_NUMBER = re.compile(r"[(«]?[+−-]?\d+(?:[.,]\d+)?")     # «1», «(1», «2.5»; not «1,» ending a clause
_STEPS = re.compile(r"[IVX]+(?:→(?:[IVX]+|-))?")     # a block's strength or its change: «III», «II→I», «I→-»
_NAMED = re.compile(r"[+−-]?\d+(?:[.,]\d+)?[)»,.:;!?]*")   # a name's number: «1», «10)», «2,» («Legio 2, …»)
# Russian and Ukrainian one-letter words (prepositions, conjunctions) that stay with the next word
ONE_LETTER = frozenset("вВсСкКуУоОиИаАяЯйЙіІзЗ")


def keeps_next(word: str, following: str) -> bool:
    """Whether ``word`` stays on the row of the word after it (a typographer's tie, not a space to
    break at): a number before its noun («1 / marker», «(1 / ПО)») or the next number of a list
    without commas (dice rolled: «fires 1 4 / 6, 1 hit» read as a six and a hit), an arrow before where it
    points («marker → / Syria»), a one-letter Russian or Ukrainian word («й / викладіть»,
    «с / полем», «(в / настройках»), an equals sign with its result («5,2,2+3 = / 12» -> «5,2,2+3 / = 12»), a
    one-letter abbreviation with the word before it («49 до / н. э.» -> «49 до н. э.»); and a
    dash never begins a row («слово / — ...»). (A name's number stays with
    the name instead, «Legio 1 / loses», and a paragraph's last word of one or two letters with the
    word before it, «hold B.»: :func:`_tied`.)"""
    return (bool(_NUMBER.fullmatch(word)) and (following[:1].isalpha() or bool(_NAMED.fullmatch(following)))
            or word.endswith("→")
            or word.lstrip("(«") in ONE_LETTER or following in ("—", "–") or word == "="
            or following[:1].islower() and following[1:2] == ".")


def _tied(words: list[str], width: int) -> list[str]:
    """``words`` with the ties of :func:`keeps_next` made (a space that is not broken at), as
    long as what is tied fits a row.

    A number after a name is that name's and stays with it, an opening bracket or quote before the
    name and a stop after the number too («(Легіон 10», «Legio 1,»); a word in small letters after
    it goes on the sentence and may begin the next row («Legio 1 / loses», «Round 3 / has»), but
    a unit in capitals stays with the number as after any number: a score («Помпей 8 ПО», «Caesar
    2 VP»), a block's strength («(Легіон 10 II→I)»). When the name, the number and the unit do not
    fit a row, the number goes on with its unit («Максиміліан» / «12 ПО»): a figure read apart
    from what it counts is a figure of nothing, a name before it still names; but a block's
    strength stays on the next row («(Легіон 10» / «II→I)»): the number is the name's."""
    def name(k: int) -> bool:        # «Legio», «(Блок», «no.»: the number after it is its own («Legio 1»)
        bare = words[k].lstrip("(«") if k >= 0 else ""
        return k >= 0 and (bare[:1].isupper() and bare.isalpha() or words[k] in NUMBER_SIGNS)

    def number(k: int) -> bool:      # (one opening a bracket or a quote is not a name's: «Dice (2 / steps)?»
        return bool(_NAMED.fullmatch(words[k]))                  # is «Dice / (2 steps)?»)

    def unit(k: int, steps: bool = True) -> bool:    # «ПО», «VP)», a block's steps «II→I)» (not with
        bare = words[k].rstrip(")»,.:;!?")           # steps=False): no small letter, not a one-letter «І»
        return (bare not in ONE_LETTER and not any(ch.islower() for ch in bare) and any(ch.isalpha() for ch in bare)
                and (steps or not _STEPS.fullmatch(bare)))

    out: list[str] = []
    for k, word in enumerate(words):
        last = k == len(words) - 1 and len(word) <= 2        # «hold / B.»: no short word left alone
        named = k > 0 and number(k - 1) and name(k - 2)     # the word before is a name's number
        tie = (last or number(k) and name(k - 1) or k > 0 and words[k - 1] in NUMBER_SIGNS and word[:1].isdigit()
               or k > 0 and keeps_next(words[k - 1], word)
               and not (named and word[:1].isalpha() and not unit(k)))
        if out and tie and len(out[-1]) + 1 + len(word) <= width:
            out[-1] += TIE + word
        elif (out and named and unit(k, steps=False) and keeps_next(words[k - 1], word) and out[-1].endswith(TIE + words[k - 1])
              and len(words[k - 1]) + 1 + len(word) <= width):
            # the name, its number and the word after do not fit a row: the number goes on with it
            out[-1] = out[-1][:-len(TIE + words[k - 1])]
            out.append(words[k - 1] + TIE + word)
        else:
            out.append(word)
    return out


def tied(s: str, width: int) -> str:
    """``s`` with its typographer's ties (:func:`_tied`) made: the spaces not to break at are
    :data:`TIE` (a list label wrapped by its own rules keeps them too: «Мешочек и / колода» would
    leave the one-letter «и» at a row's end)."""
    return " ".join(_tied([w for w in _BREAKS.split(s) if w], width))     # (a text's own TIE kept, as wrap keeps it)


NUMBER_SIGNS = ("no.", "No.", "№", "#")     # a number after one of these is its: «Senate token no. 1»
TIE = "\u00a0"     # a space the wrap does not break at (drawn as a space; a text may hold it too)
_BREAKS = re.compile(r"[^\S\u00a0]+")      # the spaces the wrap may break at: any but TIE


def wrap(s: str, width: int = COLS) -> list[str]:
    """Greedy word wrap to ``width`` characters, never breaking a typographer's tie
    (:func:`keeps_next`); a word longer than a row is broken by :func:`split_word` (after its own
    dash or hyphen, else with a hyphen added); a word that fits a row may break after its own dash
    or hyphen between words (:func:`dash_breaks`: «границу Галлия–» / «Цизальпинская Галлия») when
    that saves a row."""
    return [row.replace(TIE, " ") for row in _wrap(s, width)]


def _wrap(s: str, width: int) -> list[str]:
    out: list[str] = []
    for line in s.split("\n"):
        para = line.lstrip(" ")     # two or more leading spaces indent each of the paragraph's rows
        spaces = len(line) - len(para)      # (a figure under its name; one is a fragment's word space)
        indent = " " * min(spaces, width // 4) if para and spaces >= 2 else ""
        out += [indent + row for row in _wrap_para(para, width - len(indent))]
    return out


# A dash or hyphen a word that fits a row may break after: between two words of three letters or
# more («Галлия–Испания», «Д'Артаньян-Ґонта»); never in a number («5–3», «2-3»), a rule ID or a code
# («S-11», «SC-IT»: no lower-case letter before the mark), nor leaving a particle («кто-то», «по-русски»).
_DASH_BREAK = re.compile(r"(?<=[^\W\d_]{2})(?<=[^\W\d_A-ZА-ЯЁЇІЄҐ])[-–—](?=[^\W\d_]{3})")


def dash_breaks(word: str) -> list[int]:
    """Where ``word`` may break after its own dash or hyphen (the index just after the mark)."""
    return [m.end() for m in _DASH_BREAK.finditer(word)
            if re.search(r"[^\W\d_]{3}$", word[:m.start()])]


def _wrap_para(para: str, width: int) -> list[str]:
    words = _tied(_BREAKS.split(para.strip()) if para.strip() else [], width)   # (a text's own TIE kept)
    plain = _greedy(words, width, dashes=False)
    dashed = _greedy(words, width, dashes=True)
    return dashed if len(dashed) < len(plain) else plain     # a dash breaks a word only to save a row


def _greedy(words: list[str], width: int, dashes: bool) -> list[str]:
    out: list[str] = []
    cur = ""
    for word in words:
        if len(word) > width:
            if cur:
                out.append(cur)
                cur = ""
            *whole, word = split_word(word, width)
            out += whole
        if not cur:
            cur = word
        elif len(cur) + 1 + len(word) <= width:
            cur += " " + word
        else:
            room = width - len(cur) - 1
            at = max((k for k in dash_breaks(word) if k <= room), default=0) if dashes else 0
            out.append(cur + " " + word[:at] if at else cur)
            cur = word[at:]
    out.append(cur)
    return out


# -- titles said when read ---------------------------------------------
class Said:
    """A screen's title given as English text (marked with ``N_``) and said in the current
    language whenever it is read: ``title = Said(N_("Games"))``; a game's or History's screen
    passes its domain's ``_`` (``Said(N_("Medals"), _)``) so the title is said in its words. Setting it on an instance
    replaces the text for that instance only."""

    def __init__(self, text: str, gettext: Callable[[str], str] | None = None) -> None:
        self.text = text
        self.gettext = gettext           # a game's or History's own words (its text.py ``_``)

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_said_{name}"

    @overload
    def __get__(self, obj: None, owner: Any = None) -> Said: ...

    @overload
    def __get__(self, obj: object, owner: Any = None) -> str: ...

    def __get__(self, obj: object, owner: Any = None) -> str | Said:
        if obj is None:
            return self
        if self.gettext is not None:
            return self.gettext(str(getattr(obj, self.slot, self.text)))
        from firmware.i18n import _
        return _(str(getattr(obj, self.slot, self.text)))

    def __set__(self, obj: object, value: str) -> None:
        setattr(obj, self.slot, value)
