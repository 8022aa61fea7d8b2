"""Durable files and the pieces every stored record shares: the row checksum (:func:`crc`), what a
start found wrong (:class:`Recovery`), the refusal when nothing could be saved
(:class:`StorageError`), and directories that survive a power cut (:func:`make_dirs`)."""
from __future__ import annotations

import logging
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from engine.errors import LegatusError
from engine.text import Msg

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger(__name__)


def crc(*fields: object) -> int:
    """CRC-32 of a row's fields joined by a separator no field contains (0x1F), so any changed
    byte of a row is detected. ``bytes`` fields are taken as they are (the raw bytes SQLite
    stored, checked *before* they are decoded); anything else as the UTF-8 of ``str(field)``.
    A text field and its raw UTF-8 bytes give the same checksum."""
    return zlib.crc32(b"\x1f".join([f if isinstance(f, bytes) else str(f).encode("utf-8", "surrogateescape")
                                    for f in fields]))      # (a list: join makes one of a generator anyway)


def stored_language(path: Path) -> str | None:
    """The language stored in the settings of the database at ``path`` (Settings → Language),
    read-only, its row's checksum checked: None when none was chosen, the file is missing or
    cannot be read, or the row is damaged. Nothing is created or changed."""
    import json
    import sqlite3
    try:
        if not path.is_file():
            return None
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=0.5)
        try:
            row = db.execute("SELECT CAST(value AS BLOB), CAST(crc AS INTEGER) FROM settings "
                             "WHERE key = 'language'").fetchone()
        finally:
            db.close()
        if row is None or crc(b"language", row[0]) != row[1]:
            return None
        value = json.loads(row[0].decode("utf-8"))
    except (OSError, ValueError, sqlite3.Error) as e:
        log.info("the language setting cannot be read from %s (%s)", path, e)
        return None
    return value if isinstance(value, str) else None


def unchanged_since(db: sqlite3.Connection) -> tuple[int, int, int] | None:
    """What says whether ``db`` may read differently than when this was last taken: its own
    writes (``total_changes``), the schema's version and another connection's commits
    (``data_version``). A read kept with it is good while it is equal. None when even that cannot
    be read (a card in trouble): read again, so the failure is seen and said."""
    import sqlite3
    try:
        row = db.execute("SELECT * FROM pragma_schema_version, pragma_data_version").fetchone()
    except sqlite3.Error as e:
        log.warning("the database cannot say whether it changed (%s): read again", e)
        return None
    return (db.total_changes, int(row[0]), int(row[1]))


class Recovery(NamedTuple):
    """What reading stored data found wrong and what was done about it (a sentence for a
    person, said in the language chosen when it is shown)."""

    message: Msg

    def sentence(self) -> str:
        from firmware.i18n import say
        return say(self.message)

    def sentences(self) -> list[str]:
        """Each thing found, said on its own (one paragraph each on the panel)."""
        from firmware.i18n import say
        message = self.message
        if message.template == " ".join("{}" for _ in message.args) and message.args:
            return [say(note) for note in message.args]
        return [say(message)]

    @classmethod
    def of(cls, notes: list[Msg]) -> Recovery | None:
        """One Recovery saying every note in turn (None if there is none)."""
        if not notes:
            return None
        if len(notes) == 1:
            return cls(notes[0])
        return cls(Msg(" ".join("{}" for _ in notes), *notes))


class StorageError(LegatusError):
    """Nothing could be saved (disk full, read-only, I/O error, directory gone): the request is
    refused and nothing changed; reading goes on, and the next change tries again."""

    code = "storage_error"


class DamagedRecord(StorageError):
    """The record of an older action, read when first needed (undo past the newest checkpoint, a
    page of ``actions``, the draw record), is damaged: what needed it is refused, nothing changed,
    and the damage is reported from then on (``state`` answers ``recovered``)."""


def fsync_dir(path: Path) -> None:
    """fsync a directory so a rename or a new file in it survives a power cut."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dirs(path: Path) -> list[Path]:
    """Create ``path`` and any missing parents so that they survive a power cut: each directory
    created and its parent are fsync'd before this returns. Returns the directories created
    (outermost first). Raises OSError."""
    missing: list[Path] = []
    p = Path(path)
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    missing.reverse()
    for d in missing:
        try:
            os.mkdir(d, 0o700)          # the owner's only (XDG): the database holds secret seeds
        except FileExistsError:
            pass
    synced: set[Path] = set()
    for d in missing:                   # the new entry in its parent, then the directory itself
        for target in (d.parent, d):
            if target not in synced:
                fsync_dir(target)
                synced.add(target)
    return missing


def make_private(path: Path, new: bool = False) -> None:
    """Take group and other access away from the file (or directory) ``path`` (it holds a running game's secret
    seed: docs/fairness.md §9), e.g. a database an older Legatus left 0644. A file that cannot be
    changed (another owner, read-only storage) is logged and left as it is. A ``new`` file (just
    made under the umask) is made private without a word: nobody had left it readable."""
    try:
        mode = os.stat(path).st_mode & 0o7777
        if mode & 0o077:
            os.chmod(path, mode & 0o700)
            if not new:
                log.info("%s was readable by other users; now by its owner only", path)
    except OSError as e:
        log.warning("cannot make %s readable by its owner only: %s", path, e)


def private_leftovers(root: Path, db_name: str) -> None:
    """Make private what an earlier Legatus kept aside in the state directory ``root`` and left
    readable by others: ``imported-N/`` (the journal files of the Legatus before it, a running
    game's seed among them) and ``<db_name>.damaged-N`` (a damaged database kept for a bug report).
    One listing of ``root``; what cannot be read or changed is logged."""
    try:
        entries = list(os.scandir(root))
    except OSError as e:
        log.warning("cannot list %s to keep what it set aside private: %s", root, e)
        return
    for entry in entries:
        try:
            if entry.name.startswith("imported-") and entry.is_dir(follow_symlinks=False):
                make_private(Path(entry.path))
            elif entry.name.startswith(db_name + ".damaged-") and entry.is_file(follow_symlinks=False):
                make_private(Path(entry.path))
        except OSError as e:
            log.warning("cannot check %s: %s", entry.path, e)


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
