"""The rows of a damaged SQLite file, read without SQLite (issue 20 §2).

When SQLite cannot open or check the database (a damaged schema, a damaged b-tree page, a file
cut short, a hot rollback journal that was itself damaged), the store keeps the file aside and
starts a new one with every row whose checksum still holds. SQLite cannot read those rows any
more, so this module reads the file format itself (https://www.sqlite.org/fileformat2.html):
every table b-tree leaf page, each cell's record (following overflow pages), nothing else. The
pages of a rollback journal are read too (each with SQLite's own page checksum): they hold the
committed version of the pages an interrupted transaction was changing.

Nothing here trusts the file: every length and page number is bounds-checked, loops are cut,
and a cell that does not parse is skipped. Which table a row belongs to is not known (the schema
may be what is damaged): the store recognises its rows by their shape and their checksum.
"""
from __future__ import annotations

import logging
from typing import NamedTuple

log = logging.getLogger(__name__)

DB_MAGIC = b"SQLite format 3\x00"
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")
PAGE_SIZES = (4096, 1024, 512, 2048, 8192, 16384, 32768, 65536)
LEAF_TABLE = 13

Value = int | float | bytes | None


class Row(NamedTuple):
    """One table row: its rowid, its values (text as raw bytes), and where it was read."""

    rowid: int
    values: tuple[Value, ...]
    source: str                 # "db" or "journal" (a journal page: the committed version)


def _varint(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    """A SQLite varint at ``pos`` (at most 9 bytes, all before ``end``) and the position after it."""
    value = 0
    for i in range(9):
        if pos >= end:
            raise ValueError("varint runs past its end")
        b = buf[pos]
        pos += 1
        if i == 8:
            return (value << 8) | b, pos
        value = (value << 7) | (b & 0x7F)
        if b < 0x80:
            return value, pos
    raise ValueError("unreachable")


def _signed(raw: bytes) -> int:
    return int.from_bytes(raw, "big", signed=True)


def record(payload: bytes) -> tuple[Value, ...] | None:
    """The values of one record (the record format), or None if it does not parse."""
    import struct
    try:
        header_size, pos = _varint(payload, 0, len(payload))
        if header_size < 1 or header_size > len(payload):
            return None
        types: list[int] = []
        while pos < header_size:
            t, pos = _varint(payload, pos, header_size)
            types.append(t)
        if pos != header_size:
            return None
        body = header_size
        values: list[Value] = []
        sizes = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}
        for t in types:
            if t == 0:
                values.append(None)
            elif t in sizes:
                n = sizes[t]
                if body + n > len(payload):
                    return None
                values.append(_signed(payload[body:body + n]))
                body += n
            elif t == 7:
                if body + 8 > len(payload):
                    return None
                values.append(struct.unpack(">d", payload[body:body + 8])[0])
                body += 8
            elif t in (8, 9):
                values.append(t - 8)
            elif t >= 12:
                n = (t - 12) // 2
                if body + n > len(payload):
                    return None
                values.append(bytes(payload[body:body + n]))
                body += n
            else:
                return None                # 10, 11: reserved
        return tuple(values) if body == len(payload) else None
    except (ValueError, IndexError):
        return None


class _File:
    """Pages by number (1-based) of one database image."""

    def __init__(self, pages: dict[int, bytes], page_size: int, reserved: int) -> None:
        self.pages = pages
        self.page_size = page_size
        self.usable = page_size - reserved


def _page_size(header: bytes) -> int | None:
    if len(header) < 100 or not header.startswith(DB_MAGIC):
        return None
    raw = int.from_bytes(header[16:18], "big")
    size = 65536 if raw == 1 else raw
    return size if size in PAGE_SIZES else None


def _split(data: bytes, page_size: int) -> dict[int, bytes]:
    return {i // page_size + 1: data[i:i + page_size] for i in range(0, len(data) - page_size + 1, page_size)}


def _freelist(f: _File, header: bytes) -> set[int]:
    """The free pages the header names, or none at all if the list does not hold together
    (a damaged list must not hide live pages)."""
    if len(header) < 40:
        return set()
    trunk, total = int.from_bytes(header[32:36], "big"), int.from_bytes(header[36:40], "big")
    free: set[int] = set()
    while trunk:
        page = f.pages.get(trunk)
        if page is None or trunk in free or len(free) > len(f.pages):
            return set()
        free.add(trunk)
        count = int.from_bytes(page[4:8], "big")
        if 8 + 4 * count > len(page):
            return set()
        for k in range(count):
            leaf = int.from_bytes(page[8 + 4 * k:12 + 4 * k], "big")
            if leaf not in f.pages:
                return set()
            free.add(leaf)
        trunk = int.from_bytes(page[0:4], "big")
    return free if len(free) == total else set()


def _payload(f: _File, page: bytes, pos: int, size: int) -> bytes | None:
    """A cell's whole payload of ``size`` bytes starting at ``pos`` of ``page``, following its
    overflow pages (None if the chain is broken)."""
    u = f.usable
    x = u - 35
    if size <= x:
        return page[pos:pos + size] if pos + size <= u else None
    m = ((u - 12) * 32 // 255) - 23
    k = m + (size - m) % (u - 4)
    local = k if k <= x else m
    if pos + local + 4 > u:
        return None
    out = bytearray(page[pos:pos + local])
    nxt = int.from_bytes(page[pos + local:pos + local + 4], "big")
    seen: set[int] = set()
    while len(out) < size:
        over = f.pages.get(nxt)
        if over is None or nxt in seen:
            return None
        seen.add(nxt)
        out += over[4:u][:size - len(out)]
        nxt = int.from_bytes(over[0:4], "big")
    return bytes(out)


def _leaf_rows(f: _File, number: int, source: str) -> list[Row]:
    page = f.pages[number]
    base = 100 if number == 1 else 0
    if len(page) < base + 8 or page[base] != LEAF_TABLE:
        return []
    cells = int.from_bytes(page[base + 3:base + 5], "big")
    rows: list[Row] = []
    for c in range(cells):
        at = base + 8 + 2 * c
        if at + 2 > len(page):
            break
        pos = int.from_bytes(page[at:at + 2], "big")
        try:
            size, pos = _varint(page, pos, f.usable)
            rowid, pos = _varint(page, pos, f.usable)
        except ValueError:
            continue
        if rowid >= 1 << 63:
            rowid -= 1 << 64
        payload = _payload(f, page, pos, size)
        values = record(payload) if payload is not None else None
        if values is not None:
            rows.append(Row(rowid, values, source))
    return rows


def _journal_pages(journal: bytes, page_size: int) -> dict[int, bytes]:
    """The page images of a rollback journal whose checksums hold (SQLite's own: the header's
    nonce plus every 200th byte), over every header segment; {} if there is no valid header."""
    out: dict[int, bytes] = {}
    pos = 0
    while pos + 28 <= len(journal) and journal[pos:pos + 8] == JOURNAL_MAGIC:
        n_rec = int.from_bytes(journal[pos + 8:pos + 12], "big")
        nonce = int.from_bytes(journal[pos + 12:pos + 16], "big")
        sector = int.from_bytes(journal[pos + 20:pos + 24], "big")
        size = int.from_bytes(journal[pos + 24:pos + 28], "big") or page_size
        if sector < 32 or sector > 65536 or size not in PAGE_SIZES:
            break
        rec = pos + sector
        limit = n_rec if 0 < n_rec < 0xFFFFFFFF else (len(journal) - rec) // (size + 8)
        for _ in range(limit):
            if rec + size + 8 > len(journal):
                break
            number = int.from_bytes(journal[rec:rec + 4], "big")
            data = journal[rec + 4:rec + 4 + size]
            check = int.from_bytes(journal[rec + 4 + size:rec + 8 + size], "big")
            total = nonce
            i = size - 200
            while i > 0:
                total += data[i]
                i -= 200
            if number > 0 and total & 0xFFFFFFFF == check and number not in out:
                out[number] = bytes(data)     # the first image of a page is the committed one
            rec += size + 8
        nxt = -(-rec // sector) * sector       # a further segment starts on a sector boundary
        if nxt <= pos:
            break
        pos = nxt
    return out


def rows(db: bytes, journal: bytes | None = None) -> list[Row]:
    """Every row of every table b-tree leaf page of the database image ``db`` (and of the page
    images of its rollback ``journal``, marked ``journal``), in page order. The page size comes
    from the header, or, if that is damaged, from whichever size yields the most rows."""
    sizes = [s for s in (_page_size(db),) if s is not None] or list(PAGE_SIZES)
    best: list[Row] = []
    for size in sizes:
        reserved = db[20] if len(db) > 20 and _page_size(db) == size and db[20] < 64 else 0
        f = _File(_split(db, size), size, reserved)
        free = _freelist(f, db[:100]) if _page_size(db) == size else set()
        found = [r for n in sorted(f.pages) if n not in free for r in _leaf_rows(f, n, "db")]
        if journal:
            j = _File(dict(f.pages), size, reserved)
            images = _journal_pages(journal, size)
            j.pages.update(images)
            found += [r for n in sorted(images) for r in _leaf_rows(j, n, "journal")]
        if len(found) > len(best):
            best = found
    return best
