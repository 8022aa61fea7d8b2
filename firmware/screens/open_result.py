"""A result the device showed and the player has not closed yet (a Sword of Rome battle's result,
Julius Caesar's last roll): said again at the next start — after a power cut the table has not lost
what the dice did —, never again once closed. One device setting a game keeps it:

- :class:`OneResult` (``sword.battle``): the one result opened on the device, with the first row the
  player was reading and a figure typed on it and not sent yet (its draft): one write when it is
  opened, one each time either changes, one when it is closed;
- :class:`EveryResult` (``jc.roll``): every result is open until closed (one shown over the serial
  link too); the setting keeps the ones closed (one write when closed, none for reading).

Both say the same: a close the card refused (full, read-only) is kept while the program runs (the
result is not shown again and again with no way out), and said again at the next start, where the
setting still has it open. Reading the setting never raises: a damaged value (a crafted import, a
card's fault the checksum missed) is reported in the log once and dropped — taken as none kept, and
replaced by the next write."""
from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

from firmware.screens.ctx import Ctx

log = logging.getLogger(__name__)


class Shown(NamedTuple):
    """A result kept open: its ``mark`` (what it is), the first row the player was reading
    (``top``) and a figure typed on a form over it and not sent (``draft``, None: no form open)."""

    mark: str
    top: int = 0
    draft: int | None = None


class _Mark:
    """The setting ``key``, whose values ``valid`` matches (whole); closes refused by the card,
    per running program (an App, a test's context)."""

    def __init__(self, key: str, valid: str) -> None:
        self.key = key
        self._valid = re.compile(valid)
        self._refused: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        self._reported: set[str] = set()

    def value(self, ctx: Ctx) -> str:
        """The setting as kept ("" for none, or for a damaged value: reported once, dropped)."""
        raw = ctx.settings.get(self.key)
        if raw is None or raw == "":
            return ""
        if isinstance(raw, str) and self._valid.fullmatch(raw):
            return raw
        said = str(raw)[:80]
        if said not in self._reported:
            self._reported.add(said)
            log.warning("the %s setting is damaged (%r): dropped", self.key, said)
        return ""

    def write(self, ctx: Ctx, value: str) -> bool:
        """Keep ``value`` (no write when it is kept already); False, logged, if the card refused."""
        if ctx.settings.get(self.key) == value:
            return True
        response = ctx.set_setting(self.key, value)
        if not response.get("ok"):
            log.warning("%s=%s was not kept: %s", self.key, value, response.get("message"))
            return False
        return True

    def refused(self, ctx: Ctx) -> set[str]:
        """The marks closed in this run that the card refused to keep closed."""
        return self._refused.get(ctx, set())

    def _closed_here(self, ctx: Ctx, mark: str) -> None:
        self._refused.setdefault(ctx, set()).add(mark)


class OneResult(_Mark):
    """The one result opened on the device and not closed: ``<mark>[@<top>][~<draft>]`` (an older
    Legatus kept the mark alone), ``-`` for none."""

    CLOSED = "-"

    def __init__(self, key: str, mark: str = r"[^@~\s]+") -> None:
        super().__init__(key, rf"-|(?:{mark})(?:@\d{{1,4}})?(?:~\d{{1,4}})?")

    def kept(self, ctx: Ctx) -> Shown | None:
        """The result kept open (None: none, or closed in this run though the card refused it)."""
        value = self.value(ctx)
        if not value or value == self.CLOSED:
            return None
        rest, _sep, draft = value.partition("~")
        mark, _sep, top = rest.partition("@")
        if mark in self.refused(ctx):
            return None
        return Shown(mark, int(top or 0), int(draft) if draft else None)

    def pending(self, ctx: Ctx, mark: str) -> Shown | None:
        """``mark``'s result as kept open, or None when it is not the one open."""
        shown = self.kept(ctx)
        return shown if shown is not None and shown.mark == mark else None

    def open(self, ctx: Ctx, mark: str, top: int = 0, draft: int | None = None) -> None:
        """Keep ``mark``'s result open, read from row ``top``, with ``draft`` typed over it: one
        write, none when it is kept so already. Refused (a full card): logged, and the result is
        not reopened after a power cut, as before it was opened; nothing else changes."""
        if self.write(ctx, mark + (f"@{top}" if top else "") + (f"~{draft}" if draft is not None else "")):
            self.refused(ctx).discard(mark)

    def close(self, ctx: Ctx, mark: str) -> None:
        """``mark``'s result closed (nothing when another is the one open): not said again."""
        value = self.value(ctx)
        if value.partition("~")[0].partition("@")[0] != mark:
            return
        if not self.write(ctx, self.CLOSED):
            self._closed_here(ctx, mark)


class EveryResult(_Mark):
    """Every result open until closed: the setting keeps those closed, as ``read`` reads them and
    ``closing`` writes one more in (``parts`` gives the value as this run names it)."""

    def __init__(self, key: str, valid: str, read: Callable[[str, str], bool],
                 closing: Callable[[str, str], str], parts: Callable[[Ctx, str], list[str]]) -> None:
        super().__init__(key, valid)
        self._read, self._closing, self._parts = read, closing, parts

    def kept(self, ctx: Ctx) -> str:
        """What is closed: first the closes the card refused in this run, then the setting's."""
        return ";".join([*sorted(self.refused(ctx)), *self._parts(ctx, self.value(ctx))])

    def pending(self, ctx: Ctx, mark: str) -> bool:
        """Whether ``mark``'s result is still open (shown and not closed)."""
        return not self._read(self.kept(ctx), mark)

    def close(self, ctx: Ctx, mark: str) -> None:
        """``mark``'s result closed: one write, none when it is closed already."""
        kept = self.kept(ctx)
        if self._read(kept, mark):
            return
        if not self.write(ctx, self._closing(kept, mark)):
            self._closed_here(ctx, mark)
