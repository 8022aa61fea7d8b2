"""Durable files: atomic replace and fsync helpers (POSIX)."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def fsync_dir(path: Path) -> None:
    """fsync a directory so a rename or a new file in it survives a power cut."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: temp file in the same directory, fsync,
    ``os.replace``, fsync the directory. Readers see the old or the new file, never a mix."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def atomic_write_json(path: Path, obj: Any) -> None:
    atomic_write(path, json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode())


def read_json(path: Path) -> Any | None:
    """The JSON in ``path``, or None if it is missing or unreadable (the caller falls back)."""
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
