"""The cost of the fair-draw record with undone draws (docs/fairness.md §6; scripts/bench_fair.py
measures it as ratios to a yardstick).

The record replays every action and undo of the game (``steps``). It kept a JSON copy of the whole
state, the tape of every draw so far included, before every action, and replayed every action made
again after its undo: a game of 200 dice rolls with 300 undo-and-redo pairs took 0.36 s here,
about 5 s on a Pi Zero 2 W, in History's "Send the draw record" (a key waits for it). Now only the
actions that an undo takes back have their state kept, without the tape, and an action made again
on the state its undo restored takes back the state it had led to. The record must not change by
a byte: the tests compare it with the plain replay (every state kept whole, every step replayed) on
games of every kind with undos, and check that the work no longer grows with the undos."""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from firmware import fairness
from firmware.console import Console
from firmware.store import Store


def plain_steps(header: dict[str, Any], steps: Sequence[Sequence[str]]
                ) -> tuple[list[list[Any]], list[str], list[list[Any]]]:
    """The replay as it was first written: the whole state kept as JSON before every action, every
    action replayed (the reference the record must equal)."""
    from firmware.session import Session
    session = Session.from_header(header, [])
    state = session.state
    before: list[str] = []
    standing: list[str] = []
    out: list[list[Any]] = []
    for step in steps:
        if step[0] == "undo":
            state = json.loads(before.pop())
            standing.pop()
            session.trail.pop()
            out.append(["undo"])
            continue
        line = str(step[1])
        before.append(json.dumps(state))
        drawn = len(state["rng"]["tape"])
        fairness._replay(session, state, line)
        standing.append(line)
        out.append(["do", line, state["rng"]["tape"][drawn:]])
    return out, standing, state["rng"]["tape"]


def ok(console: Console, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def caesar_line(console: Console, rnd: random.Random) -> str | None:
    """The next step of a Caesar! solo game (random human placements, bonuses skipped, Auto-Crassus's
    turns); None once it has a winner."""
    st = ok(console, "state")["state"]
    if st["winner"]:
        return None
    if st["turn"] == "crassus":
        return "crassus"
    if st["step"] != "play":
        return f"{st['human']['pending'][0]} skip" if st["human"]["pending"] else "draw"
    moves = ok(console, "moves")
    pick = rnd.choice(moves["moves"] + moves["face_down"])
    if pick.get("face_down"):
        return f"play {pick['space']} {pick['token']} down"
    prov, first = next(iter(pick["toward"].items()))
    other = pick["toward"][next(k for k in pick["toward"] if k != prov)]
    return f"play {pick['space']} {pick['token'].split(':')[0]}:{first}/{other} {prov}"


def played(console: Console, start: str, lines: list[str] | None, rnd: random.Random) -> dict[str, Any]:
    """A game whose actions are ``lines`` (refused ones skipped; None: Caesar! solo to its winner),
    with undos made at random: one undo made again with the same line, two undone and made again,
    an undo followed by another line, an undo left standing; ended; its filed record (header,
    lines, steps)."""
    ok(console, "commit")
    ok(console, start)
    for i in range(10_000 if lines is None else len(lines)):
        line = caesar_line(console, rnd) if lines is None else lines[i]
        if line is None:
            break
        if not console.request(line)["ok"]:
            continue
        if lines is None:
            pick = rnd.random()
            if pick < 0.4:
                ok(console, "undo")
                ok(console, line)
            elif pick < 0.5:
                ok(console, "undo")
            continue
        pick = rnd.random()
        if pick < 0.3:
            ok(console, "undo")
            ok(console, line)
        elif pick < 0.4:
            ok(console, "undo")
            if console.request("undo")["ok"]:
                console.request(rnd.choice(lines))  # (the action undone first: maybe another line)
            console.request(line)
        elif pick < 0.5:
            ok(console, "undo")
            console.request(rnd.choice(lines))
        elif pick < 0.55:
            ok(console, "undo")
    ok(console, "end")
    sid = str(console.session.header["sid"])
    return fairness.filed(console.store.db, [sid])[sid]


GAMES: dict[str, tuple[str, list[str] | None]] = {
    "caesar-solo": ("new caesar-solo difficulty=hard share=t", None),
    "jc-battle": ("new jc-battle share=t", ["deal", "add attacker rating=C3 strength=3",
                                            "add defender rating=B2 strength=2", "fight", "next-battle", "winter"]),
    "glory": ("new glory players=Ann,Bob,Cid share=t", ["event", "fame Ann +1", "end-round"]),
    "sword": ("new sword players=romans,gauls share=t", ["battle att=3 def=3", "battle att=5 def=4 mod=1", "advance"]),
    "dice": ("new dice share=t", ["roll 2d6", "roll 3d6", "roll 1d8"]),
    "bag": ("new bag items=gold*9,silver*6,lead*9 cards=a*3,b*4 share=t", ["draw", "draw", "card", "reshuffle"]),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_record_is_the_plain_replays_byte_for_byte(state_dir: Path, game: str, monkeypatch: pytest.MonkeyPatch):
    """Every game with undos of every pattern: the same record as the plain replay, byte for
    byte, and it shows the undone draws (it would not if the steps did not lead to the actions)."""
    store = Store(state_dir)
    console = Console(store, store.resume())
    start, lines = GAMES[game]
    rec = played(console, start, None if lines is None else lines * 12, random.Random(game))
    console.close()
    steps = rec["steps"]
    assert sum(1 for s in steps if s[0] == "undo") >= 5, steps
    got = fairness.draw_record(rec["header"], list(rec["lines"]), steps)
    monkeypatch.setattr(fairness, "_steps", plain_steps)
    want = fairness.draw_record(rec["header"], list(rec["lines"]), steps)
    assert got.get("undone", 0) >= 5 and "steps" in got, got.keys()
    assert json.dumps(got, ensure_ascii=False) == json.dumps(want, ensure_ascii=False)


def test_the_work_does_not_grow_with_undos_made_again(console: Console, monkeypatch: pytest.MonkeyPatch):
    """200 rolls, 300 of them undone and made again: the record replays each action once for the
    actions that stand and once for the steps (not again for each undo), and the states it keeps
    for the undos hold no draw of the tape (it copied every draw so far for every action)."""
    ok(console, "commit")
    ok(console, "new dice share=t")
    ok(console, "end")
    sid = str(console.session.header["sid"])
    header = fairness.filed(console.store.db, [sid])[sid]["header"]
    steps: list[list[str]] = []                 # (as the store would give them: written here, for speed)
    for i in range(200):
        steps.append(["do", "roll 2d6"])
        steps += [["undo"], ["do", "roll 2d6"]] * (1 + i % 2)
    steps.append(["do", "end"])
    rec = {"header": header, "lines": ["roll 2d6"] * 200 + ["end"], "steps": steps}
    replays = 0
    kept_draws = 0
    replay, dumps = fairness._replay, json.dumps

    def counted(*args: Any) -> None:
        nonlocal replays
        replays += 1
        replay(*args)

    def counted_dumps(obj: Any, *args: Any, **kw: Any) -> str:
        nonlocal kept_draws
        if isinstance(obj, dict) and isinstance(obj.get("rng"), dict):
            kept_draws += len(obj["rng"].get("tape") or ())
        return dumps(obj, *args, **kw)
    monkeypatch.setattr(fairness, "_replay", counted)
    monkeypatch.setattr(fairness.json, "dumps", counted_dumps)
    out = fairness.draw_record(rec["header"], list(rec["lines"]), rec["steps"])
    assert out["undone"] == 300 and len(out["actions"]) == 201
    assert replays <= 2 * 201, replays          # was 201 + 501: every action made again replayed
    assert kept_draws == 0, kept_draws          # was every draw so far, before each of 501 actions
