"""The splash as the screens draw it with the shipped fonts: hw/splash.py keeps it as raw bytes
(:data:`hw.splash.FRAME`, so the adapters import nothing of the device program); ``python -m
firmware.screens.splash`` prints those bytes anew and the tests check that they agree."""
from __future__ import annotations

from PIL import Image, ImageDraw

from firmware.screens import base

SIZE = (base.W, base.H)


def build() -> Image.Image:
    """The splash: LEGATUS in the largest font, underlined."""
    img = Image.new("1", SIZE, 0)
    name = "LEGATUS"
    x = (SIZE[0] - base.big_width(name, 3)) // 2
    base.big(img, x, 12, name, scale=3)
    ImageDraw.Draw(img).line((x, 48, SIZE[0] - 1 - x, 48), fill=1)
    return img


if __name__ == "__main__":
    data = build().tobytes().hex()
    print("FRAME = bytes.fromhex(")
    for i in range(0, len(data), 96):
        print(f'    "{data[i:i + 96]}"')
    print(")")
