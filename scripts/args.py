"""Argument types the scripts share: a count refused with a usage line rather than run as nonsense
(``--games 0`` divided by zero, ``--games -3`` printed a table of negative games)."""
from __future__ import annotations

import argparse
from collections.abc import Callable


def at_least(low: int) -> Callable[[str], int]:
    """An argparse ``type=``: a whole number of at least ``low``."""
    def whole(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"{n} is below the least allowed, {low}")
        return n
    whole.__name__ = f"a whole number ≥ {low}"
    return whole
