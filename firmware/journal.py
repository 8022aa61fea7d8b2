"""The session journal of the journal-file era (before the SQLite store), kept to read and import
old state directories (firmware/migrate.py): one checksummed line per accepted action.

Line format: ``<crc32 of the JSON, 8 lowercase hex> <JSON object>\\n``. The first line is the
session header (``{"v": 1, "game": ..., "line": "new ...", "seed": N, "sid": "..."}``); every
later line is an action (``{"line": "play ..."}``) or an undo (``{"undo": 1}``). On reading, the
first line that is torn (no newline), fails its checksum or is not JSON ends the good part: that
line and everything after it are moved aside to ``<journal>.bad-<n>`` and the journal is cut
back to the good part.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from engine.text import Msg
from firmware.storage import Recovery, atomic_write, crc

log = logging.getLogger(__name__)


def encode(record: dict[str, Any]) -> bytes:
    """One journal line for ``record`` (with its newline)."""
    body = json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    return b"%08x " % crc(body) + body + b"\n"


def decode(line: bytes) -> dict[str, Any] | None:
    """The record in a complete journal line, or None if it is torn or corrupt."""
    if not line.endswith(b"\n") or len(line) < 11 or line[8:9] != b" ":
        return None
    body = line[9:-1]
    try:
        if int(line[:8], 16) != crc(body):
            return None
        record = json.loads(body)
    except (ValueError, RecursionError) as e:
        log.warning("a journal line does not parse: %s", e)
        return None
    return record if isinstance(record, dict) else None


def read(path: Path) -> tuple[list[dict[str, Any]], Recovery | None]:
    """Read every good record; move a bad tail aside (see module doc). Missing file → ``[]``."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], None
    records: list[dict[str, Any]] = []
    pos = 0
    torn = False
    while pos < len(data):
        end = data.find(b"\n", pos)
        line = data[pos:] if end < 0 else data[pos:end + 1]
        record = decode(line)
        if record is None:
            torn = end < 0
            break
        records.append(record)
        pos += len(line)
    if pos == len(data):
        return records, None
    bad = data[pos:]
    n = 1
    while path.with_name(f"{path.name}.bad-{n}").exists():
        n += 1
    aside = path.with_name(f"{path.name}.bad-{n}")
    atomic_write(aside, bad)
    atomic_write(path, data[:pos])
    after = max(len(records) - 1, 0)
    if torn:
        why = Msg("The journal ended in a torn line after action {after}; {n} byte was kept aside in {file}.",
                  plural="The journal ended in a torn line after action {after}; {n} bytes were kept aside in {file}.",
                  n=len(bad), after=after, file=aside.name)
    else:
        why = Msg("The journal was damaged at line {line} (after action {after}); {n} byte was kept aside in {file}.",
                  plural="The journal was damaged at line {line} (after action {after}); {n} bytes were kept aside "
                         "in {file}.", n=len(bad), line=len(records) + 1, after=after, file=aside.name)
    log.warning("%s", why)
    return records, Recovery(why)
