"""Why the storage refused, in the reader's words: SQLite's and the system's reasons for the
failures a card shows (I/O errors, a full or read-only card, a damaged file, another program
holding it; a missing file, a file where a folder should be...) as translatable phrases; another
system error by its code; any other reason as its own text (English, as SQLite says it)."""
from __future__ import annotations

import errno
import logging
import os
import sqlite3
from pathlib import Path

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
log = logging.getLogger(__name__)
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


def ask_card(directory: Path, probe: str) -> OSError | None:
    """Why the card refuses writes in ``directory`` now, asked of the card itself (None: it takes
    them): a file ``probe`` made there (and removed), then the file system's flag and free blocks.
    The mount's options are not enough: recent kernels make an ext4 card read-only after an error
    as an "emergency read-only" (the mount still reads rw, statvfs has no ST_RDONLY, every write is
    refused with EROFS); a card with no free block still makes an empty file. The store asks so
    when SQLite names no cause, ``legatus doctor`` for its Storage row: one rule for both."""
    path = directory / probe
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    except OSError as e:
        return e
    try:
        os.close(fd)
        os.unlink(path)
    except OSError as e:
        log.warning("cannot remove %s: %s", path, e)
    try:
        fs = os.statvfs(directory)
    except OSError as e:
        log.warning("cannot ask the file system of %s: %s", directory, e)
        return None
    if fs.f_flag & os.ST_RDONLY:
        return OSError(errno.EROFS, os.strerror(errno.EROFS), str(directory))
    if fs.f_bavail == 0:
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(directory))
    return None
