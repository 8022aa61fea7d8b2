"""Sessions stored before the fair-draw streams (header ``v`` 1, one generator per session) keep
replaying exactly (issue 20 §1). The fixtures were written by the code as it was before the
change (tests/golden/make_v1_sessions.py.txt, run on commit c6cdacb): every game's session
headers and action rows, the resulting state, and the database file itself."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from firmware.session import Session
from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "golden"
FIXTURE = json.loads((GOLDEN / "v1_sessions.json").read_text(encoding="utf-8"))["sessions"]


def comparable(state_json: str) -> dict:
    """A state as the draws and the game left it. The changes of representation since version 1:
    a bag or deck keeps only its newest events (``history``) and counts them all (``events``), so
    that its state stays small (issue 20 §3), and a bag its items in the order listed (``order``);
    Caesar!'s words and records (issue 23); the place of
    a Julius Caesar battle's events and Glory's first player of each round (issue 24) and who has
    taken income this round (``taxed``, G-4), the blocks of a finished Julius Caesar battle and the game's
    J-2 Cleopatra rule (``turn``, the only rule those lines played: any other is compared) and its
    campaign's pool of blocks free for levy (disbanded or returned by a winter, kept since); the Sword of
    Rome's most recent battle, kept beside its last roll for the retreat losses entered after it
    (W-5), and the turn its consuls were drawn in (W-10: drawn once per reinforcement phase).
    Everything else is compared as stored."""
    from engine.bag import HISTORY_KEPT
    state = json.loads(state_json)
    for holder in (state, state.get("kit") or {}):
        for part in ("bag", "deck"):
            if isinstance(holder.get(part), dict):
                holder[part].pop("events", None)
                holder[part].pop("order", None)        # a bag's items in the order listed (kept since: which
                                                       # item of a bag made again is which; no draw reads it)
                holder[part]["history"] = holder[part]["history"][-HISTORY_KEPT:]
    if "rules" in state and "names" in state:          # Caesar! (issue 23): the words and records around
        for key in ("end", "end_data", "mine", "latest", "drawn"):    # the draws changed, not the draws: the
            state.pop(key, None)                       # end sentence, the turn records for resuming (and the
            #                                            draws made of those owed, «1/2» after a restart), and
        if isinstance(state.get("last"), dict):        # the rules' new entries (edition, harder-when)
            state["last"] = [(x["action"], x.get("tokens"), x.get("token"), x.get("space"))
                             for x in state["last"].get("steps", [])]
        state["rules"] = {k: v for k, v in state["rules"].items() if k not in ("edition", "harder-when")}
    if isinstance(state.get("battle"), dict):          # Julius Caesar (issue 24): an event keeps its place
        for e in state["battle"].get("events", []):    # in the battle log (``after``), around the draws;
            e.pop("after", None)                       # the battle's end is one sentence per side now
            if e.get("event") == "end":                # ("Pompey holds the field"), its facts as stored
                e.pop("msg", None)
                e.pop("text", None)
        if state["battle"].get("cleopatra") == "turn":  # J-2: the Cleopatra rule, chosen at new (an old
            del state["battle"]["cleopatra"]           # line: her next battle turn, as it played; kept
        if state.get("rules") == {"cleopatra": "turn"}:   # here if a replay took any other)
            del state["rules"]
        for h in state.get("history", []):             # a finished battle keeps the ids of its blocks
            if isinstance(h, dict):                    # (the device's Add list: the last battle's first)
                h.pop("blocks", None)
                h.pop("survivors", None)               # (and those that came out of it, with their side)
        if isinstance(state.get("campaign"), dict):    # the levy pool (disbanded blocks: none was kept)
            state["campaign"].pop("pool", None)
    if "factions" in state and "desperate" in state:   # the Sword of Rome (W-5): its most recent battle,
        state.pop("last_battle", None)                 # a copy of a battle's fields, beside ``last``;
        state["consuls"].pop("turn", None)             # (W-10) the turn the consuls were last drawn in
    if "seats" in state and isinstance(state.get("history"), list):   # Glory (issue 24): who played first
        for e in state["history"]:                     # in each round (History's start player)
            if isinstance(e, dict):
                e.pop("first", None)
        state.pop("taxed", None)                       # and who has taken income this round (G-4)
    return state


def _replay(header: dict, actions: list[list[str]]) -> Session:
    session = Session.from_header(header)
    for kind, line in actions:
        if kind == "do":
            session.apply(line)
        else:
            session.undo()
    return session


def test_the_fixture_covers_every_game_with_draws():
    games = {s["header"]["game"] for s in FIXTURE}
    assert {"bag", "dice", "caesar-solo", "caesar-duel", "jc-battle", "glory", "sword"} <= games
    assert all(s["header"]["v"] == 1 for s in FIXTURE)
    assert any(s["header"].get("committed") for s in FIXTURE) and any(not s["header"].get("committed") for s in FIXTURE)


@pytest.mark.parametrize("i", range(len(FIXTURE)), ids=[f"{s['header']['game']}-{i}" for i, s in enumerate(FIXTURE)])
def test_a_session_stored_before_v2_replays_to_the_same_state(i):
    stored = FIXTURE[i]
    session = _replay(stored["header"], stored["actions"])
    assert comparable(session.state_json) == comparable(stored["state"])


def test_a_database_written_before_v2_resumes_exactly(tmp_path: Path):
    from firmware.store import Store
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    shutil.copy(GOLDEN / "v1_sessions.db", state_dir / "legatus.db")
    store = Store(state_dir)
    try:
        session = store.resume()
        assert session is not None
        current = next(s for s in FIXTURE if s["header"]["sid"] == session.header["sid"])
        assert comparable(session.state_json) == comparable(current["state"])
        archived = store.archives(100)
        assert len(archived) == len(FIXTURE) - 1
        for entry in archived:
            stored = next(s for s in FIXTURE if s["header"]["sid"] == entry["header"]["sid"])
            session = Session.from_header(entry["header"])
            for line in entry["lines"]:
                session.apply(line)
            assert comparable(session.state_json) == comparable(stored["state"])
    finally:
        store.close()
