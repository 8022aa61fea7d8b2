"""The rules' data files (``engine/data/*.json``, installed beside the engine as package data).

Read with a plain ``open`` beside this module, as firmware reads its fonts and catalogs: Legatus is
installed as files (pip into a virtual environment, never a zip), and ``importlib.resources``
cost each start about 8 ms of processor time here for its own imports (zipfile, tempfile,
shutil, lzma, bz2), about 0.1 s on a Pi Zero 2 W, before the first frame of a resumed game.
"""
from __future__ import annotations

import json
import os
from typing import Any

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def read_json(name: str) -> Any:
    """The parsed JSON of ``engine/data/<name>``."""
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)
