"""Fair draws: a session started without ``seed=`` commits to its secret seed.

``commitment(seed)`` is the lowercase hex SHA-256 of the UTF-8 text ``legatus-seed:<seed>`` (the
seed in decimal), shown at the start of the game and in ``state``; ``reveal`` later shows the seed,
and anyone can check the commitment and replay every draw (docs/fairness.md).
"""
from __future__ import annotations

import hashlib


def commitment(seed: int) -> str:
    """The public commitment to ``seed`` (64 lowercase hex characters)."""
    return hashlib.sha256(f"legatus-seed:{seed}".encode()).hexdigest()
