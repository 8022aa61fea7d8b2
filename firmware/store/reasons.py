"""Why the storage refused, in the reader's words: SQLite's and the system's reasons for the
failures a card shows (I/O errors, a full or read-only card, a damaged file, another program
holding it; a missing file, a file where a folder should be...) as translatable phrases; another
system error by its code; any other reason as its own text (English, as SQLite says it)."""
from __future__ import annotations

import errno
import sqlite3

from engine.text import N_, Msg

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
    errno.EDQUOT: _SQLITE[1][1],
    errno.EROFS: _SQLITE[2][1],
    errno.EACCES: Msg("Legatus has no permission there"),         # (to read or to write)
    errno.EPERM: Msg("Legatus has no permission there"),
    errno.ENOENT: Msg("there is no such file or folder"),
    errno.ENOTDIR: Msg("a file stands where a folder should be"),
    errno.EISDIR: Msg("a folder stands where a file should be"),
    errno.EEXIST: Msg("something of that name is already there"),
    errno.EBUSY: Msg("another program is holding it"),
    errno.ENAMETOOLONG: Msg("the name is too long"),
    errno.ENODEV: Msg("the card is not there"),
    errno.ENXIO: Msg("the card is not there"),
}
STORED_BEFORE = (N_("Legatus may not write there"),)     # said by notes stored before (kept in the catalogs)
LONGEST = 80          # characters of a reason nobody translated


def reason(e: BaseException) -> Msg | str:
    """``e`` (a ``sqlite3.Error`` or an ``OSError``) as a phrase for a sentence such as "Could
    not save ({}): nothing was changed."; a system error none of the known by its code (``EXDEV``:
    the system's own text is English, for the log only); any other reason its own text, cut to
    LONGEST."""
    if isinstance(e, OSError) and e.errno in _ERRNO:
        return _ERRNO[e.errno]
    if isinstance(e, (sqlite3.Error, OSError)):
        text = str(e).lower()
        for words, said in _SQLITE:
            if words in text:
                return said
    if isinstance(e, OSError) and isinstance(e.errno, int):
        return Msg("the system refused it (error {})", errno.errorcode.get(e.errno, str(e.errno)))
    return str(e)[:LONGEST]
