"""Caesar!: the board's icons (sword, shield, ship, laurel) drawn as small bitmaps, and tokens drawn
as icon and numbers."""
from __future__ import annotations

from PIL import ImageDraw

from firmware.screens import base
from firmware.screens.caesar.words import icon_of, nums


# -- icons ---------------------------------------------------------------------------------------
def draw_icon(draw: ImageDraw.ImageDraw, x: int, y: int, icon: str, size: int = 12, fill: int = 1) -> int:
    """The token's icon in a ``size``-pixel box at (x, y); returns the width used."""
    s = size - 1
    if icon == "shield+ship":
        half = size // 2 + 2
        draw_icon(draw, x, y + (size - half) // 2, "shield", half, fill)
        draw_icon(draw, x + half, y + (size - half) // 2, "ship", half, fill)
        return 2 * half
    if icon == "sword":
        cx = x + s // 2
        draw.line((cx, y, cx, y + s - 3), fill=fill)                     # blade
        draw.line((cx + 1, y + 1, cx + 1, y + s - 3), fill=fill)
        draw.line((x + 1, y + s - 4, x + s - 1, y + s - 4), fill=fill)   # guard
        draw.line((cx, y + s - 3, cx + 1, y + s), fill=fill)             # grip
    elif icon == "shield":
        draw.polygon([(x + 1, y), (x + s - 1, y), (x + s - 1, y + s // 2), (x + s // 2, y + s),
                      (x + 1, y + s // 2)], outline=fill, fill=0)
        draw.line((x + s // 2, y + 2, x + s // 2, y + s - 2), fill=fill)
    elif icon == "ship":
        draw.polygon([(x, y + s * 2 // 3), (x + s, y + s * 2 // 3), (x + s - 2, y + s), (x + 2, y + s)],
                     fill=fill)                                          # hull
        draw.line((x + s // 2, y, x + s // 2, y + s * 2 // 3), fill=fill)  # mast
        draw.polygon([(x + s // 2 + 1, y + 1), (x + s - 1, y + s // 2), (x + s // 2 + 1, y + s // 2)], fill=fill)
    else:                                                                # wild: a laurel wreath
        draw.arc((x + 1, y + 1, x + s - 1, y + s), 100, 245, fill=fill)     # left branch
        draw.arc((x + 1, y + 1, x + s - 1, y + s), 295, 440, fill=fill)     # right branch
        c = s // 2
        for dy in range(2, s - 1, 3):                                    # leaves outside the branches
            half = max(1, round(((c * c) - (dy - c) ** 2) ** 0.5)) if abs(dy - c) < c else 1
            draw.point((x + c - half - 1, y + dy), fill=fill)
            draw.point((x + c + half + 1, y + dy), fill=fill)
    return size


def draw_tokens(draw: ImageDraw.ImageDraw, x: int, y: int, names: list[str], kind: str = "large") -> int:
    """Tokens as icon + numbers side by side; returns the x after the last one."""
    size = 14 if kind == "large" else 11
    mark = 5 + base.advance(kind)                     # a '…' after a token
    for i, name in enumerate(names):
        need = tokens_width([name], kind) + (mark if i < len(names) - 1 else 0)
        if x + need > base.W:                         # no room for it (and the mark after it)
            base.put(draw, min(x, base.W - base.advance(kind)), y, "…", kind=kind)
            break
        x += draw_icon(draw, x, y + 1, icon_of(name), size) + 1
        x += base.put(draw, x, y, nums(name), kind=kind) + 5
    return x


def tokens_width(names: list[str], kind: str = "large") -> int:
    """The width :func:`draw_tokens` takes for ``names`` (to choose a size that fits)."""
    size = 14 if kind == "large" else 11
    icon = {"shield+ship": 2 * (size // 2 + 2)}
    return sum(icon.get(icon_of(n), size) + 1 + len(nums(n)) * base.advance(kind) + 5 for n in names) - 5
