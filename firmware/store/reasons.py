"""Why the storage refused, in the reader's words: SQLite's and the system's reasons for the
failures a card shows (I/O errors, a full or read-only card, a damaged file, another program
holding it) as translatable phrases; any other reason as its own text (English, as SQLite says it)."""
from __future__ import annotations

import errno
import sqlite3

from engine.text import Msg

_SQLITE = (   # (words in SQLite's message, the reason said), first match wins
    ("disk i/o error", Msg("the card did not answer a read or a write")),
    ("is full", Msg("the storage is full")),
    ("readonly", Msg("the storage is read-only")),
    ("locked", Msg("another program was using the records")),
    ("malformed", Msg("the records are damaged")),
    ("not a database", Msg("the records are damaged")),
    ("unable to open", Msg("the records could not be opened")),
)
_ERRNO = {
    errno.EIO: _SQLITE[0][1],
    errno.ENOSPC: _SQLITE[1][1],
    errno.EROFS: _SQLITE[2][1],
    errno.EACCES: Msg("Legatus may not write there"),
    errno.EPERM: Msg("Legatus may not write there"),
}
LONGEST = 80          # characters of a reason nobody translated


def reason(e: BaseException) -> Msg | str:
    """``e`` (a ``sqlite3.Error`` or an ``OSError``) as a phrase for a sentence such as "Could
    not save ({}): nothing was changed."; its own text, cut to LONGEST, when it is none of the known."""
    if isinstance(e, OSError) and e.errno in _ERRNO:
        return _ERRNO[e.errno]
    if isinstance(e, (sqlite3.Error, OSError)):
        text = str(e).lower()
        for words, said in _SQLITE:
            if words in text:
                return said
    return str(e)[:LONGEST]
