"""Issue 20 §3: a session's state — hence its memory, its checkpoints and every reply that shows
it — stays the same size however long the session runs; the whole history stays available a page
at a time (``actions``). A year of finished games costs the start a checksum per game, not a parse.
Speed is measured by scripts/bench_storage.py, not here."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.bag import HISTORY_KEPT
from firmware import fairness, history
from firmware.console import Console
from firmware.session import Session
from firmware.store import Store


def _cycle(session: Session, lines: list[str], n: int) -> None:
    for i in range(n):
        line = lines[i % len(lines)]
        if "{drawn}" in line:
            line = line.format(drawn=session.view()["bag"]["drawn"][0])
        session.apply(line)


def test_a_bag_and_its_deck_keep_their_newest_events_and_count_them_all():
    s = Session.start("new bag items=gold*3,silver*2 cards=c*4", 1, "x")
    lines = ["draw", "put {drawn}", "card", "discard c", "reshuffle"]
    _cycle(s, lines, 200)                              # 80 bag and 121 deck events: past the newest 50
    size = len(s.state_json)
    _cycle(s, lines, 900)
    assert len(s.state_json) <= size + 64              # digits of counters and generators, nothing more
    view = s.view()
    assert len(view["bag"]["history"]) == HISTORY_KEPT and view["bag"]["events"] == 440
    assert len(view["deck"]["history"]) == HISTORY_KEPT and view["deck"]["events"] == 1 + 660
    assert len(s.lines) == 1100 and s.sentences[0] is not None       # the whole history: ``actions``
    assert view["bag"]["history"][-1] in ({"draw": ["gold"]}, {"draw": ["silver"]}, {"put": "gold"},
                                          {"put": "silver"})


def test_a_side_bag_beside_a_game_stays_the_same_size():
    s = Session.start("new sword players=romans,gauls", 1, "x")
    s.apply("kit new items=x*3")
    for _ in range(60):
        s.apply("kit draw")
        s.apply("kit put x")
    size = len(s.state_json)
    for _ in range(600):
        s.apply("kit draw")
        s.apply("kit put x")
    assert len(s.state_json) <= size + 64
    assert len(s.apply("kit-state").fields["kit"]["bag"]["history"]) == HISTORY_KEPT


def test_julius_caesar_keeps_its_newest_battles_in_state():
    s = Session.start("new jc-battle", 1, "x")
    cycle = ["add attacker rating=C3 strength=3", "add defender rating=B2 strength=2", "fight", "next-battle"]
    for i in range(4 * 45):
        s.apply(cycle[i % 4])
    size = len(s.state_json)
    for i in range(4 * 60):
        s.apply(cycle[i % 4])
    history = s.view()["history"]
    assert len(history) == 40 and history[-1]["number"] == 105
    assert len(s.state_json) <= size + 400             # battle numbers grow a digit, nothing more


def _finished_games(state_dir: Path, n: int) -> None:
    """``n`` Julius Caesar battles fought, each session ended (a History row and a fair-draw record each)."""
    c = Console(Store(state_dir), None)
    try:
        for i in range(n):
            for line in (f"new jc-battle seed={i}", "add attacker c_leg10", "add defender p_pompeius", "fight", "end"):
                assert c.request(line)["ok"], line
    finally:
        c.close()


def test_the_start_up_check_decodes_no_history_or_fair_draw_record(state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """Damage is a checksum that fails (issue 20 §2): the start checks each History and fair-draw
    row's checksum and decodes none of them, so a year of games does not slow every start."""
    _finished_games(state_dir, 3)
    decoded: list[Any] = []
    entry, fair_decoded = history._entry, fairness._decoded
    monkeypatch.setattr(history, "_entry", lambda row: decoded.append(row) or entry(row))
    monkeypatch.setattr(fairness, "_decoded", lambda *row: decoded.append(row) or fair_decoded(*row))
    store = Store(state_dir)
    try:
        assert store.recovery is None and decoded == []
        shown = history.games(store.db, None)               # decoded when History is read
        assert len(shown) == 6 and len(decoded) == 6        # each session: its battle and its ended row
    finally:
        store.close()


def _old_fingerprint(header: dict[str, Any], lines: list[str], part: str) -> str:
    """History's fingerprint as it was first written (stored records keep it: it must not change)."""
    from engine.rng import sha256_hex
    words = sorted(w for w in str(header.get("line", "")).split() if not w.startswith("seed="))
    return sha256_hex(json.dumps([header.get("game"), words, str(header.get("seed")), lines, part]).encode())


def test_a_long_session_holds_a_bounded_trail_and_its_records_keep_their_fingerprints(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch):
    """A Julius Caesar campaign of many battles, live and after a restart: the trail in memory stays
    bounded (older actions are read again, checked, when needed: undo far back), every battle's
    History record keeps the fingerprint the whole lines give (J-13: each battle a record), and the
    state is the one a full replay gives."""
    from firmware import trail
    monkeypatch.setattr(trail, "HELD", 8)
    cycle = ["add attacker rating=C3 strength=3", "add defender rating=B2 strength=2", "fight", "next-battle"]
    c = Console(Store(state_dir), None)
    try:
        assert c.request("new jc-battle seed=1")["ok"]
        ref = Session.start(c.session.header["line"], 1, "ref")      # the line as stored (rolls=apart)
        for i in range(4 * 15):
            assert c.request(cycle[i % 4])["ok"]
            ref.apply(cycle[i % 4])
            assert c.session.trail.held() <= 2 * 8
        c.close()
        c = Console(Store(state_dir), None)
        c = Console(c.store, c.store.resume())
        for i in range(4 * 5):
            assert c.request(cycle[i % 4])["ok"]
            ref.apply(cycle[i % 4])
        assert c.session.trail.held() <= 2 * 8 and c.session.state_json == ref.state_json
        header = c.session.header
        rows = c.store.db.execute("SELECT part, depth, record FROM history WHERE sid=?", (header["sid"],)).fetchall()
        assert len(rows) == 20
        lines = list(ref.lines)
        for part, depth, record in rows:
            assert json.loads(record)["fp"] == _old_fingerprint(header, lines[:depth], part), part
        for _ in range(30):                                    # back past what memory holds
            assert c.request("undo")["ok"]
            ref.undo()
        assert c.session.state_json == ref.state_json
        for i in range(3):
            assert c.request(cycle[i])["ok"]
            ref.apply(cycle[i])
        assert history.fingerprint(header, c.session.lines, "x") == _old_fingerprint(header, list(ref.lines), "x")
        for line in ("undo", "undo", "add defender rating=A1 strength=1", cycle[2], cycle[3]):   # other lines
            # where the digest was (a set-up holding blocks refuses next-battle, J-4)
            assert c.request(line)["ok"], line
            ref.undo() if line == "undo" else ref.apply(line)
        assert history.fingerprint(header, c.session.lines, "x") == _old_fingerprint(header, list(ref.lines), "x")
        assert c.session.state_json == ref.state_json
    finally:
        c.close()


def test_undo_and_redo_across_a_checkpoint_keep_one_checkpoint_there(state_dir: Path):
    """The database grows with what is played, not with undo churn (a device on the shelf for weeks,
    an SD card): a checkpoint (a whole state, every CHECKPOINT_EVERY effective actions) whose action
    was undone can never stand again, so doing the action again replaces it rather than adding a
    copy beside it; the session resumes to the same state after a restart, and undo still goes
    back past the checkpoint."""
    from firmware.session import CHECKPOINT_EVERY
    ref = Session.start("new dice seed=1", 1, "ref")
    c = Console(Store(state_dir), None)
    try:
        assert c.request("new dice seed=1")["ok"]
        for _ in range(CHECKPOINT_EVERY - 1):
            assert c.request("roll 2d6")["ok"]
            ref.apply("roll 2d6")
        for _ in range(30):                                 # the checkpoint's action, undone, done again
            assert c.request("roll 2d6")["ok"] and c.request("undo")["ok"]
        assert c.request("roll 2d6")["ok"]
        ref.apply("roll 2d6")
        sid = c.store._session_id
        depths = [d for (d,) in c.store.db.execute("SELECT depth FROM checkpoints WHERE session=?", (sid,))]
        assert depths == [CHECKPOINT_EVERY]
        c.close()
        c = Console(Store(state_dir), None)
        c = Console(c.store, c.store.resume())
        assert c.session.state_json == ref.state_json
        for _ in range(2):
            assert c.request("undo")["ok"]
            ref.undo()
        assert c.session.state_json == ref.state_json
    finally:
        c.close()
