"""The storage's refusals say why in the reader's words: SQLite's and the system's reasons for the
faults a card shows, translated; any other reason kept as its own text (firmware/store/reasons.py)."""
from __future__ import annotations

import errno
import re
import sqlite3

import pytest

from engine.text import Msg
from firmware.i18n import domain
from firmware.store.reasons import LONGEST, reason

SAY = domain("legatus").say
SAVE = "Could not save ({}): nothing was changed. Check the card; Legatus tries again at the next change."
FAULTS = [sqlite3.OperationalError("disk I/O error"), sqlite3.OperationalError("database or disk is full"),
          sqlite3.OperationalError("attempt to write a readonly database"),
          sqlite3.OperationalError("database is locked"),
          sqlite3.DatabaseError("database disk image is malformed"), sqlite3.DatabaseError("file is not a database"),
          sqlite3.OperationalError("unable to open database file"),
          OSError(errno.EIO, "Input/output error"), OSError(errno.ENOSPC, "No space left on device"),
          OSError(errno.EROFS, "Read-only file system"), PermissionError(errno.EACCES, "Permission denied"),
          FileNotFoundError(errno.ENOENT, "No such file or directory"), NotADirectoryError(errno.ENOTDIR, "Not a directory"),
          IsADirectoryError(errno.EISDIR, "Is a directory"), FileExistsError(errno.EEXIST, "File exists"),
          OSError(errno.EBUSY, "Device or resource busy"), OSError(errno.ENAMETOOLONG, "File name too long"),
          OSError(errno.ENODEV, "No such device"), OSError(errno.EDQUOT, "Disk quota exceeded"),
          OSError(errno.EPERM, "Operation not permitted")]


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("fault", FAULTS, ids=str)
def test_a_known_fault_is_said_in_the_language_of_the_reader(fault, lang):
    said = SAY(Msg(SAVE, reason(fault)), lang)
    assert not re.search(r"[A-Za-z]", said.replace("Legatus", "")), said


def test_the_same_fault_from_sqlite_or_the_system_is_said_alike():
    for a, b in ((0, 7), (1, 8), (2, 9)):
        assert reason(FAULTS[a]) == reason(FAULTS[b])


def test_an_unknown_reason_keeps_its_own_text_cut_to_a_line():
    assert reason(sqlite3.OperationalError("no such savepoint: x")) == "no such savepoint: x"
    assert len(reason(RuntimeError("y" * 500))) == LONGEST


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_system_error_none_of_the_known_is_said_by_its_code_not_in_english(lang):
    """The system's reason (strerror) is English: inside a ru/uk sentence on the storage-trouble
    screen it read «Нельзя использовать каталог …: Invalid cross-device link». An error none of
    the known is said by its code; its English text stays in the log."""
    said = SAY(Msg(SAVE, reason(OSError(errno.EXDEV, "Invalid cross-device link"))), lang)
    assert "EXDEV" in said and "Invalid" not in said and not re.search(r"[A-Za-z]", said.replace("Legatus", "")
                                                                      .replace("EXDEV", "")), said
    assert reason(OSError("a reason of ours, with no code")) == "a reason of ours, with no code"
