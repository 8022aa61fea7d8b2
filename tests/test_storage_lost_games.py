"""A finished game whose History record AND saved session both took damage (the brief: "nothing
acknowledged is ever lost; damage is always reported"). Found by the kit helper: one bad byte in
each, and History listed 62 of 63 games; the start said only that a History record was damaged.
The damage is made as ``scripts/storage_faults.py bitflip`` makes it (one bit of the file), at
the rows ``layout`` finds."""
from __future__ import annotations

from pathlib import Path

import pytest

from firmware.console import Console
from firmware.store import DB_NAME, Store
from scripts.storage_faults import layout
from tests.test_history import games, ok, play_caesar_to_the_end


def _cell_bytes(data: bytes, needle: bytes, columns: int | None = None) -> int:
    """The file offset of ``needle`` inside the one table row (cell) holding it (of a table with
    that many ``columns``: a sessions row has 5)."""
    _size, pages = layout(data)
    found = [a + data[a:b].index(needle) for cells in pages.values() for c in cells for a, b in c.spans
             if needle in data[a:b] and columns in (None, len(c.values))]
    assert len(found) == 1, found
    return found[0]


def _finished_and_put_aside(d: Path) -> list[dict]:
    store = Store(d)
    c = Console(store, store.resume())
    play_caesar_to_the_end(c)                   # C-12: recorded as finished
    ok(c, "new dice seed=1")                    # its session put aside (archived)
    before = games(c)
    c.close()
    return before


def _flip(d: Path, *offsets: int) -> None:
    """One bit of the database file at each offset (storage_faults.bitflip's damage)."""
    buf = bytearray((d / DB_NAME).read_bytes())
    for at in offsets:
        buf[at] ^= 1
    (d / DB_NAME).write_bytes(bytes(buf))


def _restart(d: Path) -> tuple[str, list[dict], Console]:
    store = Store(d)
    c = Console(store, store.resume())
    return ok(c, "state").get("recovered", ""), games(c), c


def test_one_bad_byte_in_a_finished_games_record_and_in_its_saved_session_loses_nothing(state_dir: Path):
    """The session's header is put back exactly (the one-byte change its CRC-32 allows, and only
    one), so the History record is worked out again from its actions as when the session alone
    is whole. Before: the session and its actions were set aside and the game was gone."""
    before = _finished_and_put_aside(state_dir)
    data = (state_dir / DB_NAME).read_bytes()
    _flip(state_dir, _cell_bytes(data, b'"status": "finished"') + 12,
          _cell_bytes(data, b"seed=21 edition", 5) + 6)                 # the session's header: seed=21 → seed=20
    said, after, c = _restart(state_dir)
    try:
        keys = ("game", "status", "mode", "players", "result", "seed", "finished")
        assert [{k: g[k] for k in keys} for g in after] == [{k: g[k] for k in keys} for g in before]
        assert "put back exactly" in said and "back in History" in said
        assert c.store.db.execute("SELECT count(*) FROM damaged WHERE what='session'").fetchone()[0] == 1  # (kept)
        assert ok(c, "export format=draws id=1")["ok"]
    finally:
        c.close()
    said, after, c = _restart(state_dir)        # whole now: nothing more to say, nothing lost
    c.close()
    assert said == "" and len(after) == 1


def test_a_session_header_with_more_damage_is_put_back_from_its_ended_games_fair_draw_record(state_dir: Path):
    """Two bad bytes in the header: nothing tells them apart by the checksum alone, but the game
    ended when it was replaced, and its fair-draw record keeps the header: written as the row
    writes it, it gives the row's checksum, so it is the header exactly."""
    before = _finished_and_put_aside(state_dir)
    data = (state_dir / DB_NAME).read_bytes()
    at = _cell_bytes(data, b"seed=21 edition", 5)
    _flip(state_dir, _cell_bytes(data, b'"status": "finished"') + 12, at + 5, at + 6)
    said, after, c = _restart(state_dir)
    try:
        keys = ("game", "status", "mode", "players", "result", "seed", "finished")
        assert [{k: g[k] for k in keys} for g in after] == [{k: g[k] for k in keys} for g in before]
        assert "put back exactly" in said and "back in History" in said
    finally:
        c.close()


JC = ["new jc-battle seed=20", "add attacker c_leg10", "add defender p_pompeius", "fight", "new dice"]


@pytest.mark.parametrize("language, says", [
    ("en", ["1 game could not be restored to History", "Not restored: Julius Caesar, finished on {day}; "
                                                        "players: {players}."]),
    ("ru", ["1 партию не удалось вернуть в Историю", "Не восстановлена партия Юлий Цезарь, окончена {day}; "
                                                     "игроки: {players}."]),
    ("uk", ["1 партію не вдалося повернути до Історії", "Не відновлено партію Юлій Цезар, завершену {day}; "
                                                        "гравці: {players}."])])
def test_a_finished_game_that_cannot_be_restored_is_said_with_what_is_still_known_of_it(state_dir: Path,
                                                                                       language: str,
                                                                                       says: list[str]):
    """The kit helper's case: a Julius Caesar battle fought, its session put aside by a new game
    before it ended (no fair-draw record), then a bad byte in its History record and two in its
    session's header: the game cannot be worked out again. The start says so in whole sentences,
    with the game, the day it finished and its players its damaged record still shows; the
    damaged bytes are kept, marked as not restored (never said "written again"). Before: only
    «1 History record was damaged»."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    ok(c, f"settings language={language}")
    for line in JC:
        ok(c, line)
    [before] = games(c)
    c.close()
    data = (state_dir / DB_NAME).read_bytes()
    at = _cell_bytes(data, b"seed=20 cleopatra", 5)
    _flip(state_dir, _cell_bytes(data, b'"status": "finished"') + 12, at + 5, at + 6)
    said, after, c = _restart(state_dir)
    try:
        from firmware.export_dates import local
        day = local(before["finished"]).strftime("%d.%m.%Y")
        players = ", ".join(p["name"] for p in before["players"])
        assert after == [] and players
        for sentence in says:
            assert sentence.format(day=day, players=players) in said, said
        reasons = dict(c.store.db.execute("SELECT what, reason FROM damaged WHERE what IN ('history', 'session')"))
        assert reasons == {"history": "checksum; not restored", "session": "checksum"}
    finally:
        c.close()


def test_what_a_damaged_record_still_tells_never_makes_up_players():
    """A dice or bag session's record names nobody (said without players); a record whose player
    does not read gives none (said «not readable»), never the others alone as if they were all."""
    from firmware.history_rebuild import known

    def raw(players: str) -> bytes:
        record = ('{"finished": "2026-11-20T10:00:00Z", "game": "dice", "players": ' + players
                  + ', "status": "ended"}')
        return b"\x1f".join([b"7", b"abc", b"ended", b"0", b"0", b"1", record.encode()])
    assert known(raw("[]"))[1:] == ("2026-11-20T10:00:00Z", [])
    assert known(raw('[{"name": "Anna"}, {"name": "Boris"}]'))[2] == ["Anna", "Boris"]
    assert known(raw('[{"name": "Anna"}, {"nbme": "Boris"}]'))[2] is None
    assert str(known(raw("[]"))[0]) == "Dice"
