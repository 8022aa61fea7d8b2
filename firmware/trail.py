"""A session's effective actions (:class:`Trail`), held in memory or read back from the store when
first needed, and a read-only column of them (:class:`Column`: the lines, the sentences)."""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

Entry = tuple[int, str, Any]   # (the store's row number ``seq``, 0 if none; the line; its sentence)
Older = Callable[[int], list[Entry]]
TRAIL_CHUNK = 256              # older actions read at a time
HELD = 512                     # the newest actions a stored trail keeps in memory (it holds up to twice that)


class Trail:
    """The effective actions of a session, oldest first: each one's line, its log sentence and the
    store's row number (``seq``). A new session holds all of them; a long session resumed from
    storage holds only the newest (those after its newest checkpoint, and the log's), and
    ``older`` (the store) reads earlier ones — checked — the first time anything needs them: undo
    past the checkpoint, a page of ``actions``, the draw record at the end. So a restart costs
    the same however long the session is (issue 20 §3). ``older(n)`` returns up to ``n`` entries
    just before the oldest one held, newest first (none: there is nothing older), or raises
    (firmware/storage.py ``DamagedRecord``) when the record of one is damaged.

    Memory stays bounded however long the session runs: once the store gives ``reread`` (``seq``
    → an ``older`` reading back from just before row ``seq``), a trail holding more than twice
    :data:`HELD` entries lets the older ones go (read again, checked, if anything needs them).
    ``memo``: what a reader of the whole trail keeps to carry its work on (History's fingerprint,
    firmware/history.py), as ``(depth, value)``: dropped when an undo takes the trail below
    ``depth``."""

    def __init__(self, entries: list[Entry] | None = None, first: int = 0, older: Older | None = None) -> None:
        entries = entries or []
        self._seqs = [e[0] for e in entries]
        self._lines = [e[1] for e in entries]
        self._sentences = [e[2] for e in entries]
        self.first = first                 # how many older actions are not held (yet)
        self.older = older
        self.reread: Callable[[int], Older] | None = None
        self.memo: tuple[int, Any] | None = None

    def __len__(self) -> int:
        return self.first + len(self._lines)

    def held(self) -> int:
        """How many entries are in memory."""
        return len(self._lines)

    def need(self, index: int) -> None:
        """Hold every entry from ``index`` (0-based, oldest first) on."""
        while index < self.first:
            got = self.older(max(TRAIL_CHUNK, self.first - index)) if self.older is not None else []
            got = got[: self.first]
            if not got:
                raise LookupError(f"action {index + 1} of {len(self)} is not held and cannot be read")
            got.reverse()
            self._seqs[:0] = [e[0] for e in got]
            self._lines[:0] = [e[1] for e in got]
            self._sentences[:0] = [e[2] for e in got]
            self.first -= len(got)

    def _at(self, index: int) -> int:
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("trail index out of range")
        self.need(index)
        return index - self.first

    def line(self, index: int) -> str:
        return self._lines[self._at(index)]

    def sentence(self, index: int) -> Any:
        return self._sentences[self._at(index)]

    def seq(self, index: int) -> int:
        return self._seqs[self._at(index)]

    def lines_from(self, start: int, stop: int | None = None) -> list[str]:
        stop = len(self) if stop is None else stop
        if start >= stop:
            return []
        self.need(start)
        return self._lines[start - self.first: stop - self.first]

    def append(self, seq: int, line: str, sentence: Any) -> None:
        self._seqs.append(seq)
        self._lines.append(line)
        self._sentences.append(sentence)
        if len(self._lines) > 2 * HELD:
            self._let_go()

    def _let_go(self) -> None:
        """Keep the newest :data:`HELD` entries in memory when the store can read the others again."""
        cut = len(self._lines) - HELD
        if self.reread is None or cut <= 0 or self._seqs[cut] <= 0:
            return
        self.older = self.reread(self._seqs[cut])
        del self._seqs[:cut], self._lines[:cut], self._sentences[:cut]
        self.first += cut

    def pop(self) -> Entry:
        self.need(len(self) - 1)
        entry = self._seqs.pop(), self._lines.pop(), self._sentences.pop()
        if self.memo is not None and len(self) < self.memo[0]:
            self.memo = None
        return entry

    @property
    def lines(self) -> Column:
        return Column(self, self.line)

    @property
    def sentences(self) -> Column:
        return Column(self, self.sentence)


class Column(Sequence[Any]):
    """A read-only view of one field of a :class:`Trail` (its lines or its sentences), as a list:
    ``len``, ``[i]``, slices (a prefix ``[:n]`` stays a view, reading nothing), iteration (reads
    every older action still unread), ``==`` with a list."""

    def __init__(self, trail: Trail, get: Callable[[int], Any], stop: int | None = None) -> None:
        self._trail = trail
        self._get = get
        self._stop = stop

    def __len__(self) -> int:
        n = len(self._trail)
        return n if self._stop is None else min(self._stop, n)

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> Any: ...

    def __getitem__(self, index: int | slice) -> Any:
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if start == 0 and step == 1:
                return Column(self._trail, self._get, stop)        # a prefix: still lazy
            if step == 1 and self._get == self._trail.line:
                return self._trail.lines_from(start, stop)
            return [self._get(i) for i in range(start, stop, step)]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("index out of range")
        return self._get(index)

    def __iter__(self) -> Iterator[Any]:
        n = len(self)
        if n:
            self._trail.need(0)
        return (self._get(i) for i in range(n))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Column, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        raise TypeError("a Column is not hashable")

    def __repr__(self) -> str:
        return f"Column({len(self)} entries)"
