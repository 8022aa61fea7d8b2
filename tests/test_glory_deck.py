"""One event deck, two ways to draw (G-1, G-2, G-19): the device reveals the top card of its shuffled
deck, or the table turns a physical card and names it (``event card=<id>``). An undone event says
«Put the card back on top of the event deck» whichever way it was drawn, so the device's deck must
then stand as the table's: the next reveal is that card. It was true only of the device's own draw:
a card named at the table and undone went back to its shuffled place, and the next reveal showed
the device's top card (E7), not the one the table had just put back on top (E1)."""
from __future__ import annotations

from pathlib import Path

import pytest

from firmware.console import Console
from firmware.session import Session
from firmware.store import Store

SETUP = "new glory players=Anna,Boris seed=5"


def _deck() -> list[str]:
    """The device's shuffled event deck of SETUP, top first (G-2)."""
    return list(Session.start(SETUP, 5, "ref").state["deck"])


def play(state_dir: Path, lines: list[str]) -> list[dict]:
    """``lines`` through the console of the game kept in ``state_dir`` (a run: a start of the device)."""
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        out = [c.request(line) for line in lines]
    finally:
        c.close()
    for line, reply in zip(lines, out):
        assert reply["ok"], (line, reply)
    return out


def test_a_card_named_at_the_table_and_undone_is_the_next_reveal(tmp_path: Path):  # G-1, G-2, G-19
    top, named = _deck()[0], _deck()[3]
    out = play(tmp_path, [SETUP, f"event card={named}", "undo", "event"])
    assert "Put the card back on top of the event deck" in out[2]["undone"]
    assert out[3]["card"]["id"] == named != top
    out = play(tmp_path, ["undo", "event"])                        # undone again, then after a restart
    assert out[1]["card"]["id"] == named
    assert play(tmp_path, ["state"])[0]["state"]["event"]["id"] == named   # the line stored replays it


def test_the_card_put_back_is_on_top_after_a_restart(tmp_path: Path):  # G-2, G-19
    named = _deck()[5]
    play(tmp_path, [SETUP, "event arrow=ccw90 card=" + named, "undo"])
    out = play(tmp_path, ["event arrow=ccw90"])
    assert (out[0]["card"]["id"], out[0]["card"]["arrow"]) == (named, "ccw90")


def test_undos_across_rounds_leave_the_cards_as_the_notices_stacked_them(tmp_path: Path):  # G-1, G-2
    """Round 1's card named at the table, round 2's revealed by the device; both undone: the table
    put round 2's card back on top, then round 1's on it. The device reveals them in that order."""
    deck = _deck()
    named = deck[4]
    out = play(tmp_path, [SETUP, f"event card={named}", "end-round", "event", "undo", "undo", "undo",
                          "event", "end-round", "event"])
    assert out[3]["card"]["id"] == deck[0]
    assert [out[7]["card"]["id"], out[9]["card"]["id"]] == [named, deck[0]]


@pytest.mark.parametrize("second", [3, 0])
def test_the_card_undone_last_is_on_top(tmp_path: Path, second: int):  # G-2, G-19
    """A card named, undone, another named (or the top one) and undone: the latter is on top."""
    deck = _deck()
    out = play(tmp_path, [SETUP, f"event card={deck[6]}", "undo", f"event card={deck[second]}", "undo", "event"])
    assert out[5]["card"]["id"] == deck[second]


def test_the_device_never_draws_its_own_card_differently(tmp_path: Path):  # G-19: undo never re-rolls
    """A card the device revealed and undone is its top card again: shown again, as before, also
    after a card named at the table in a later round was undone."""
    deck = _deck()
    out = play(tmp_path, [SETUP, "event", "undo", "event", "end-round", f"event card={deck[5]}", "undo",
                          "undo", "undo", "event"])
    assert [out[1]["card"]["id"], out[3]["card"]["id"], out[9]["card"]["id"]] == [deck[0]] * 3


def test_a_card_named_where_the_device_revealed_the_same_top_card_later(tmp_path: Path):  # G-19
    """The table's card of round 1 taken again after the undos of round 2's reveal (the device's
    top card, the same as in round 1: the table took another) and of round 1's event: it is the
    card the table put back on top, not a draw the device has shown (it was refused)."""
    deck = _deck()
    out = play(tmp_path, [SETUP, f"event card={deck[4]}", "end-round", "event", "undo", "undo", "undo",
                          f"event card={deck[4]}"])
    assert out[3]["card"]["id"] == deck[0] and out[7]["card"]["id"] == deck[4]


def test_stored_lines_replay_as_they_ran():  # G-19
    """Only a reveal asked now is stored naming the card put back on top; a plain ``event`` stored
    after such an undo (an older Legatus) replays as it ran, the seed's top card."""
    deck = _deck()
    s = Session.start(SETUP, 5, "ref")
    s.apply(f"event card={deck[2]}", asked=True)
    s.undo()
    assert s.as_asked("event") == f"event card={deck[2]}"
    assert s.as_asked("event arrow=cw90") == f"event arrow=cw90 card={deck[2]}"
    assert s.as_asked(f"event card={deck[7]}") == f"event card={deck[7]}"       # the table's card, as typed
    assert s.apply("event").fields["card"]["id"] == deck[0]


def _as_stored_before_the_card_was_kept(state_dir: Path, top: str) -> None:
    """Rewrite the session's undo rows as a Legatus of 27-28.11.2026 stored them: the place of the
    event's draw named by the device's top card (``events:<id>``) and nothing of the card taken."""
    import json
    import sqlite3

    from firmware.storage import crc
    from firmware.store import DB_NAME
    db = sqlite3.connect(state_dir / DB_NAME)
    rows = db.execute("SELECT session, seq, kind, line, sentence FROM actions WHERE kind='undo'").fetchall()
    assert rows
    for sid, seq, kind, line, sentence in rows:
        record = json.loads(line)
        assert record["saw"], record                        # (a record kept now keeps the card)
        record.update(saw=[], drew=[[f"events:{top}", ["card"]]])
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        db.execute("UPDATE actions SET line=?, crc=? WHERE session=? AND seq=?",
                   (text, crc(sid, seq, kind, text, sentence), sid, seq))
    db.commit()
    db.close()


def test_an_undo_stored_before_the_card_was_kept_still_reveals_the_card_put_back(tmp_path: Path):  # G-2, G-19
    """A game stored by the Legatus before this one: its undo of a card named at the table keeps the
    place of the draw but not the card. After the update the next reveal showed the device's top
    card (E7) while the undo had said to put the table's card (E6) back on top; now the session's
    rows are replayed to find it, as for undo rows that keep nothing."""
    deck = _deck()
    named = deck[3]
    play(tmp_path, [SETUP, f"event card={named}", "undo"])
    _as_stored_before_the_card_was_kept(tmp_path, deck[0])
    out = play(tmp_path, ["event"])
    assert out[0]["card"]["id"] == named != deck[0]
    assert play(tmp_path, ["state"])[0]["state"]["event"]["id"] == named   # stored as the card it showed


def test_an_undo_stored_before_of_the_device_s_own_card_reveals_it_again(tmp_path: Path):  # G-19
    """The same older undo row of a card the device revealed: it is its top card again (no re-draw)."""
    deck = _deck()
    play(tmp_path, [SETUP, "event", "undo"])
    _as_stored_before_the_card_was_kept(tmp_path, deck[0])
    assert play(tmp_path, ["event"])[0]["card"]["id"] == deck[0]


@pytest.mark.parametrize("lang, asked, said", [
    ("en", "Take back: round 1's event (Event {n}).",
     "Undone: round 1's event (Event {n}). Put the card back on top of the event deck and take back what it gave."),
    ("ru", "Отменить: событие раунда 1 (Событие {n}).",
     "Отменено: событие раунда 1 (Событие {n}). Верните карту на верх колоды событий и заберите то, что она дала."),
])
def test_an_event_stored_before_its_sentence_named_the_card_says_to_put_it_back(tmp_path: Path, lang, asked, said):  # G-1, G-2
    """A reveal stored by a Legatus of before 28.11 (its sentence ends with who plays first: no
    card name, solo denarii or negative mark) undone after the update: its undo said the reveal
    again («Отменено: Раунд 1: событие 6 (в конце поле повернётся …); первым ходит …», five pages
    to ask), read as the card revealed once more; now it says to put the card back, as a reveal
    stored now does, naming the card by the number the sentence kept."""
    import json
    import sqlite3

    from firmware.storage import crc
    from firmware.store import DB_NAME
    from engine.glory.console import GAME
    from engine.text import from_data
    play(tmp_path, [SETUP, "event"])
    db = sqlite3.connect(tmp_path / DB_NAME)
    (sid, seq, kind, line, sentence), = db.execute(
        "SELECT session, seq, kind, line, sentence FROM actions WHERE line='event'").fetchall()
    stored = json.loads(sentence)
    assert len(stored["a"]) == 8
    stored["a"] = stored["a"][:5]                      # as an older Legatus stored it
    text = json.dumps(stored, ensure_ascii=False)
    db.execute("UPDATE actions SET sentence=?, crc=? WHERE session=? AND seq=?",
               (text, crc(sid, seq, kind, line, text), sid, seq))
    db.commit()
    db.close()
    n = _deck()[0][1:]
    old = from_data(stored)
    from firmware.i18n import set_language, say
    set_language(lang)
    try:
        assert say(GAME.undo_asked(old)) == asked.format(n=n)
    finally:
        set_language("en")
    out = play(tmp_path, [f"settings language={lang}", "undo"])
    assert out[1]["undone"] == said.format(n=n)
