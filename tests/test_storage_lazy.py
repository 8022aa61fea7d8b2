"""A restart reads only what resuming needs (issue 20 §3): the newest checkpoint that stands, the
rows after it and the log's; older actions are read, and checked, the first time something needs
them (undo past the checkpoint, ``actions`` pages, the draw record). The session after a restart is
the one before it, whatever was done, and a damaged older row found later is reported then."""
from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from firmware.console import Console
from firmware.session import CHECKPOINT_EVERY, MAX_LOG, Session
from firmware.store import DB_NAME, Store

SETUP = "new bag items=a*150,b*150,c*150 cards=x*6 seed=11"


def _open(d: Path) -> Console:
    store = Store(d)
    return Console(store, store.resume())


@pytest.mark.slow
def test_random_actions_undos_and_restarts_give_the_session_a_full_replay_gives(tmp_path: Path):
    rng = random.Random(5)
    ref = Session.start(SETUP, 11, "ref")
    c = _open(tmp_path)
    assert c.request(SETUP.replace("seed=11", "seed=11"))["ok"]
    ops = ["draw", "put a", "put b", "draw 2", "card", "shuffle", "roll 2d6"]
    restarts = 0
    for step in range(1800):
        r = rng.random()
        if r < 0.06 and ref.lines:
            assert c.request("undo")["ok"]
            ref.undo()
        elif r < 0.065:
            for _ in range(rng.randrange(1, 3 * CHECKPOINT_EVERY)):      # a long way back
                if not ref.lines:
                    break
                assert c.request("undo")["ok"]
                ref.undo()
        elif r < 0.075:
            c.close()
            c = _open(tmp_path)
            restarts += 1
            assert c.store.recovery is None
            held = c.session.trail.held()
            assert held <= len(ref.lines) and (step < 3 * MAX_LOG or held < len(ref.lines))
        else:
            line = rng.choice(ops)
            got = c.request(line)
            if got["ok"]:             # (as stored: a draw asked again after an undone one is pinned to it)
                ref.apply(c.session.lines[-1])
            else:
                assert got["error"] in ("illegal_move", "bad_arguments"), got
        assert c.session.state_json == ref.state_json, step
    assert restarts > 5
    c.close()
    c = _open(tmp_path)
    try:
        assert c.session.trail.held() < len(ref.lines)                   # older actions not read yet
        assert c.session.view() == ref.view()
        page = c.request(f"actions 500 before={len(ref.lines) + 1}")
        assert [a["line"] for a in page["actions"]] == list(reversed(ref.lines))[:500]
        everything = []
        before = len(ref.lines) + 1
        while before:
            got = c.request(f"actions 500 before={before}")
            everything += [a["line"] for a in got["actions"]]
            before = got["before"]
        assert everything == list(reversed(list(ref.lines)))
        assert [str(x) for x in _said(c.session.sentences)] == [str(x) for x in _said(ref.sentences)]
        for _ in range(len(ref.lines)):                                 # back to the start
            assert c.request("undo")["ok"]
            ref.undo()
            assert c.session.state_json == ref.state_json
        assert c.request("undo")["error"] == "nothing_to_undo"
    finally:
        c.close()


def _said(sentences):
    from firmware.log_sentences import said
    return [said(x) for x in sentences]


@pytest.mark.slow
def test_the_log_after_a_restart_is_the_log_before_it(tmp_path: Path):
    c = _open(tmp_path)
    assert c.request("new dice seed=3")["ok"]
    for i in range(3 * MAX_LOG // 2):
        assert c.request("roll 2d6")["ok"]
        if i % 7 == 3:
            assert c.request("undo")["ok"]
    for _ in range(30):                               # undo across the rows a restart reads
        assert c.request("undo")["ok"]
    want = c.request("log 500")["log"]
    c.close()
    c = _open(tmp_path)
    try:
        from firmware.log_sentences import Stored
        # a restart keeps the sentences as stored (decoding the newest 500 was a third of a start)
        assert sum(isinstance(x, Stored) for x in c.session.log) > 400
        assert c.request("log 500")["log"][-499:] == want[-499:]
        assert not any(isinstance(x, Stored) for x in c.request("log 500")["log"])      # said when read
    finally:
        c.close()


@pytest.mark.slow
def test_a_damaged_old_row_is_reported_when_first_needed_and_the_refused_undo_changes_nothing(tmp_path: Path):
    c = _open(tmp_path)
    assert c.request("new dice seed=4")["ok"]
    n = 8 * CHECKPOINT_EVERY + 5
    for _ in range(n):
        assert c.request("roll 2d6")["ok"]
    c.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("UPDATE actions SET line='roll 9d6' WHERE seq=5")          # an old row, its old checksum
    db.commit()
    db.close()
    c = _open(tmp_path)
    try:
        st = c.request("state")
        assert st["ok"] and st["state"]["actions"] == n and "recovered" not in st   # not needed: not read
        assert c.request("roll 1d6")["ok"]
        depth = n + 1
        refused = None
        for _ in range(n):
            r = c.request("undo")
            if not r["ok"]:
                refused = r
                break
            depth -= 1
        assert refused is not None and refused["error"] == "storage_error" and "row 5" in refused["message"]
        assert CHECKPOINT_EVERY >= depth - 5 >= 0                        # stopped just before it was needed
        assert c.request("state")["state"]["actions"] == depth           # the refused undo changed nothing
        assert "row 5" in c.request("state")["recovered"]                # and it is said from now on
        page = c.request("actions 500")
        assert page["ok"] or page["error"] == "storage_error"
        assert c.request("roll 1d6")["ok"]                               # the game goes on
    finally:
        c.close()
    c = _open(tmp_path)
    try:
        assert c.request("state")["state"]["actions"] == depth + 1       # what was acknowledged is there
    finally:
        c.close()
