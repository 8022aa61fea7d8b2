"""The typed responses (engine/replies.py, engine/<game>/replies.py): every builder's line says the
TypedDict of its response (``Line[R]``); here each is run through a session and its response must
hold every key its TypedDict requires, so a type that promises a field the console does not give
fails here (mypy cannot see that). And a ``Line`` is only its text to the journal."""
from __future__ import annotations

import json
import typing
from collections.abc import Callable
from typing import Any

import pytest

from engine import actions as common
from engine.actions import Line
from engine.caesar import actions as caesar
from engine.glory import actions as glory
from engine.jc import actions as jc
from engine.sword import actions as sword
from tests.fakectx import FakeCtx


def _typeddicts(cls: type) -> list[type]:
    """``cls`` and the TypedDicts it extends."""
    out = [cls]
    for base in getattr(cls, "__orig_bases__", ()):
        if typing.is_typeddict(base):
            out += _typeddicts(base)
    return out


def required(cls: type) -> set[str]:
    """The keys a TypedDict requires (read from each class's own annotations: with postponed
    annotations ``__required_keys__`` does not see ``NotRequired``)."""
    keys: set[str] = set()
    for part in _typeddicts(cls):
        total = part.__dict__.get("__total__", True)
        for key, ann in part.__dict__.get("__annotations__", {}).items():
            text = ann if isinstance(ann, str) else getattr(ann, "__forward_arg__", repr(ann))
            if text.startswith("NotRequired["):
                continue
            if total or text.startswith("Required["):
                keys.add(key)
    return keys


def reply_type(builder: Callable[..., Line[Any]]) -> type:
    """The ``R`` of a builder's ``Line[R]``."""
    hint = typing.get_type_hints(builder)["return"]
    (arg,) = typing.get_args(hint)
    return typing.cast(type, arg)


def check(ctx: FakeCtx, builder: Callable[..., Line[Any]], *args: Any, **kwargs: Any) -> dict[str, Any]:
    line = builder(*args, **kwargs)
    response: dict[str, Any] = ctx.run(line)
    assert response["ok"], (line, response)
    cls = reply_type(builder)
    missing = required(cls) - set(response)
    assert not missing, f"{line!r} answered without {sorted(missing)} ({cls.__name__} requires them)"
    return response


def test_required_reads_not_required_and_totality():
    from engine.caesar.replies import Step
    from engine.replies import NewReply, RevealReply
    assert required(NewReply) == {"ok", "game"}                 # error, message, state, commitment, share: not
    assert required(RevealReply) == {"ok", "seed", "share", "commitment", "ended"}
    assert required(Step) == set()                              # total=False: a step's action says its fields


def test_a_line_is_its_text_to_the_journal():
    line = jc.fire("c_leg10", [1, 2, 3])
    assert isinstance(line, str) and type(str(line)) is str and str(line) == "fire c_leg10 dice=1,2,3"
    assert json.dumps({"line": line}) == '{"line": "fire c_leg10 dice=1,2,3"}'
    assert common.with_share(common.new_dice(), "ab12") == "new dice share=ab12"


def test_the_session_s_own_replies():
    ctx = FakeCtx()
    check(ctx, common.new_dice)
    check(ctx, common.roll, 3, 6, 1)
    check(ctx, common.reroll, [1, 2])
    assert len(check(ctx, common.rolls, 5)["rolls"]) == 2
    check(ctx, common.state)
    check(ctx, common.log, 5)
    check(ctx, common.undo)
    check(ctx, common.settings, "contrast", "4")
    check(ctx, common.commit)
    check(ctx, common.players)
    check(ctx, common.kit_new, "items", [("gold", 2)])
    check(ctx, common.kit_state)
    check(ctx, common.new_bag, "items", [("gold", 2), ("silver", 1)])
    assert check(ctx, common.bag, "draw")["drawn"]


def test_julius_caesar_replies():  # J-1, J-4..J-8, J-14, J-15, J-17..J-19
    ctx = FakeCtx()
    check(ctx, jc.new, "caesar", False, "digital")
    blocks = check(ctx, jc.roster, "caesar")["blocks"]
    assert blocks and {"id", "rating", "status"} <= set(blocks[0])
    check(ctx, jc.add, "attacker", "c_leg10", 3)
    check(ctx, jc.add, "defender", "p_leg1", 3)
    check(ctx, jc.start)
    check(ctx, jc.odds)
    advice = check(ctx, jc.advise)
    assert advice["options"] and {"action", "block", "attacker_wins"} <= set(advice["best"])
    turn = check(ctx, jc.auto)["turn"]
    assert {"action", "dice", "hit_dice", "hits", "applied", "lost"} <= set(turn)
    check(ctx, jc.next_battle, "pompey", False, "digital")
    free = [b["id"] for side in ("caesar", "pompey") for b in check(ctx, jc.roster, side)["blocks"]
            if b["status"] == "available" and b["kind"] == "legion"]
    check(ctx, jc.add, "defender", next(b for b in free if b.startswith("c_")), 2)
    check(ctx, jc.add, "attacker", next(b for b in free if b.startswith("p_")), 2)
    assert {"rounds", "result", "winner"} <= set(check(ctx, jc.fight))
    check(ctx, jc.control, "Roma", "caesar")
    assert check(ctx, jc.lose, "p_scipio")["result"] == "reduced"
    check(ctx, jc.deal)
    hand = check(ctx, jc.hand, "caesar")["hand"]
    check(ctx, jc.discard, "caesar", hand[0])
    check(ctx, jc.play, "caesar", hand[1])
    check(ctx, jc.next_battle, "caesar", False, "digital")
    winter = check(ctx, jc.winter)
    assert {"step", "title", "done", "text"} <= set(winter["checklist"][0])


def test_sword_replies():  # W-1, W-10..W-13
    ctx = FakeCtx()
    check(ctx, sword.new, ["romans", "gauls", "carthage"])
    check(ctx, sword.consuls)
    check(ctx, sword.tactics, 3, 0, 2)
    check(ctx, sword.naval, 0, True, None, 4)
    check(ctx, sword.check, "siege", [2, 3])
    battle = check(ctx, sword.battle, 4, 3, 0, 0)
    assert {"units", "dice", "modifier", "total", "losses"} <= set(battle["attacker"])
    assert ctx.view() is not None and ctx.view()["last"]["kind"] == "battle"   # type: ignore[typeddict-item]
    check(ctx, sword.vp, "gauls", 1)
    check(ctx, sword.desperate, ["gauls"])
    check(ctx, sword.unrest, 2)
    check(ctx, sword.advance)
    check(ctx, sword.victory, "gauls")


def test_glory_replies():  # G-4..G-10
    ctx = FakeCtx()
    check(ctx, glory.new, ["Jack", "Mary"], False, True)
    check(ctx, glory.event)
    check(ctx, glory.fame, "Jack", 3)
    check(ctx, glory.vote, "Mary")
    check(ctx, glory.farm, "Jack")
    check(ctx, glory.tax, "Mary", 4)
    check(ctx, glory.medal, "Jack", glory_medal())
    check(ctx, glory.end_round)
    check(ctx, glory.event)
    check(ctx, glory.pick, 5)                  # (intrigues are activated from round 2, G-1)


def glory_medal() -> str:
    from engine.glory.tables import tables
    return str(next(iter(tables()["medals"])))


@pytest.mark.parametrize("side", ["caesar", "pompey"])
def test_caesar_replies(side: str):  # C-5..C-10, S-2, S-8
    ctx = FakeCtx()
    check(ctx, caesar.new_solo, side, "normal")
    check(ctx, caesar.guide)
    view = ctx.view()
    assert view is not None
    if view["turn"] != "human":                                   # type: ignore[typeddict-item]
        check(ctx, caesar.decide)
        check(ctx, caesar.crassus)
    m = check(ctx, caesar.moves)["moves"][0]
    here, other = list(m["toward"])                               # the province the play faces, and the other
    check(ctx, caesar.preview, m["space"], m["token"], here)
    step = check(ctx, caesar.play, m["space"], m["token"].split(":")[0], m["toward"][here], m["toward"][other],
                 here)["play"]
    assert step["action"] == "play" and {"space", "token", "toward"} <= set(step)


def test_the_fair_draw_replies():  # PROTOCOL.md third round: share, end, reveal
    ctx = FakeCtx()
    check(ctx, common.new_bag, "items", [("gold", 2), ("silver", 1)])
    assert check(ctx, common.share, "ab12")["share"] == "ab12"
    check(ctx, common.bag, "draw")
    assert check(ctx, common.end)["ended"] == "ended"
    assert check(ctx, common.reveal)["share"] == "ab12"


def test_caesar_duel_replies():  # C-5, C-6
    ctx = FakeCtx()
    check(ctx, caesar.new_duel)
    view = ctx.view()
    assert view is not None
    assert check(ctx, caesar.hand, view["turn"])["hand"]       # type: ignore[typeddict-item]
