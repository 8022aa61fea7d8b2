"""What ``state`` shows for a Caesar! game, and short log sentences for the session's log."""
from __future__ import annotations

from typing import Any, cast

from engine.caesar.board import PROVINCE_INDEX, PROVINCES, SPACE_INDEX
from engine.caesar.flow import expecting
from engine.caesar.model import CRASSUS, HUMAN, Game
from engine.caesar.position import position_of
from engine.caesar.terms import (DISCARDED_WORDS, REMOVED_HARDER_LOG_WORDS, REMOVED_LOG_WORDS, bonus, province,
                                 space, step_name, token_named)
from engine.caesar.tiles import tile_text
from engine.caesar.tokens import TOKENS
from engine.caesar.turns import turn_view
from engine.caesar.replies import NewStack
from engine.caesar.views import CaesarGameView, Inputs, LastTurn, Markers, PlayerTurn, TilesView
from engine.caesar.text import Msg
from engine.text import from_data


def _names(ids: list[int]) -> list[str]:
    return [TOKENS[t].name for t in ids]


def markers(g: Game, p: int) -> Markers:
    """Where ``p``'s 12 markers are: ``left``, ``on_board``, ``under_senate``, ``removed``."""
    board = sum(g.slots[x] for x in range(len(PROVINCES)) if g.ctrl[x] == p)
    board += sum(1 for m in g.bmark if m == p)
    return {"left": g.markers[p], "on_board": board, "under_senate": g.senate_markers[p],
            "removed": g.removed[p]}


def tiles_view(g: Game) -> TilesView:
    """The command tiles: definitions (``tiles=`` syntax), whose they are, the stack and pile."""
    unverified = sorted({t for t in g.deck if t not in g.tile_user})
    return {"deck": g.deck, "stack": len(g.stack), "stack_left": "".join(sorted(g.stack)),
            "played": list(g.played), "last": g.last_tile or None, "revealed": g.revealed or None,
            "definitions": {k: tile_text(v) for k, v in sorted(g.tile_defs.items())},
            "user_defined": list(g.tile_user), "unverified": bool(unverified),
            "unverified_letters": unverified}


def view(g: Game) -> CaesarGameView:
    """The ``state`` answer (the session adds ``game`` and ``actions``)."""
    n = g.names
    out: CaesarGameView = {
        "mode": g.mode,
        "position": position_of(g),
        "turn": n[g.turn],
        "step": g.step,
        "next": expecting(g),
        "winner": n[g.winner] if g.winner >= 0 else None,
        "end": g.end or None,
        "turns": g.turns,
        "rules": dict(g.rules) if g.solo else {"edition": g.rules["edition"]},
        "inputs": cast(Inputs, dict(g.inputs)),      # tiles, crassus_bag, human_bag (engine/caesar/model.py)
        "markers": {n[p]: markers(g, p) for p in (0, 1)},
    }
    if g.border_control:
        out["bonus_pool"] = len(g.pool)
        out["bonus_pool_left"] = sorted(g.pool)     # face down at the table; for physical input
    if g.solo:
        out["difficulty"] = g.difficulty
        out["side"] = g.human_side
        out["crassus_side"] = "pompey" if g.human_side == "caesar" else "caesar"
        out["human"] = {"hand": _names(g.hand[HUMAN]), "bag": len(g.bag[HUMAN]),
                        "bag_contents": sorted(_names(g.bag[HUMAN])),
                        "centurions": _names(g.cent[HUMAN]), "draws_due": g.due[HUMAN],
                        "draws_done": g.drawn[HUMAN],
                        "pending": list(g.pending) if g.turn == HUMAN else [],
                        "extra_turn": g.extra and g.turn == HUMAN}
        out["crassus"] = {"row": _names(g.hand[CRASSUS]), "bag": len(g.bag[CRASSUS]),
                          "bag_contents": sorted(_names(g.bag[CRASSUS])),
                          "centurions_face_down": len(g.cent[CRASSUS])}
        out["tiles"] = tiles_view(g)
        out["last_crassus_turn"] = None
        if g.last:
            steps = saved_steps(g.last["steps"])
            his = cast(LastTurn, {"tile": g.last["tile"], "steps": steps, **turn_view(g, g.last, steps, "crassus")})
            if "new_stack" in g.last:                # S-5: the box's stack ran out in this turn
                his["new_stack"] = cast(NewStack, {**g.last["new_stack"], "text": from_data(g.last["new_stack"]["text"])})
            out["last_crassus_turn"] = his
    else:
        out["players"] = {n[p]: {"hand": len(g.hand[p]), "bag": len(g.bag[p]),
                                 "centurions": _names(g.cent[p]), "draws_due": g.due[p],
                                 "draws_done": g.drawn[p]}
                          for p in (0, 1)}
        out["pending"] = list(g.pending)
        out["extra_turn"] = g.extra
    out["last_player_turn"] = None
    if g.mine:
        steps = saved_steps(g.mine["steps"])
        out["last_player_turn"] = cast(PlayerTurn, {"by": g.mine["by"], "steps": steps,
                                                    **turn_view(g, g.mine, steps, g.mine["by"])})
    return out


def _tokens(names: list[str]) -> tuple[Msg, ...]:
    return Msg.join([token_named(n) for n in names])


def log_fragment(step: dict[str, Any], you: bool = False, private: bool = False, which: bool = False) -> Msg:
    """A few words for the session log: ``placed sword 5/1 on Sicilia–Italia, 5 toward Sicilia (S-9
    Capture)`` (the rule ID is a log detail). ``you``: the placement is the solo player's own,
    said in the second person with its subject (``You: placed …``, «Вы: кладёте …»). ``private``:
    a duel, where a token placed face down (C-21) is not shown to the opponent: its log (which the
    device shows to whoever holds it) does not name it either. ``which``: a Senate token says the
    province it came from (one placement gave several, C-16: they are not said in the closures' order)."""
    action = step["action"]
    if action == "draw":
        return Msg("drew {}", _tokens(step["tokens"])) if step["tokens"] else Msg("drew nothing (bag empty)")
    if action == "centurion":
        return (Msg("turned up centurion {}", token_named(step["token"])) if step.get("token")
                else Msg("no centurion left"))
    if action == "discard":
        if step.get("skipped"):
            return Msg("no discard (S-6)")
        return Msg("returned {} to his bag", _tokens(step["tokens"])) if step["tokens"] else Msg("nothing to discard")
    if action == "play":
        if step.get("step") is None and "rule" in step:
            return Msg("{}", step["why"])
        toward = step["toward"]
        prov = step.get("province") or max(toward, key=lambda k: toward[k])
        where = space(SPACE_INDEX[step["space"]])
        tok = token_named(step["token"])
        drawn = step.get("bonus") if step.get("face_down") else None     # C-21: the set-aside bonus drawn
        if drawn:
            if private:
                return Msg("placed a token on {} face down and drew the face-down bonus {}", where, bonus(drawn))
            return (Msg("You: placed {} on {} face down and drew the face-down bonus {}", tok, where, bonus(drawn))
                    if you else Msg("placed {} on {} face down and drew the face-down bonus {}", tok, where,
                                    bonus(drawn)))
        if step.get("face_down") and private:
            return Msg("placed a token on {} face down", where)
        if step.get("face_down"):
            return Msg("You: placed {} on {} face down", tok, where) if you else Msg("placed {} on {} face down", tok, where)
        to = province(PROVINCE_INDEX[prov])
        if you:
            return Msg("You: placed {} on {}, {} toward {}", tok, where, toward[prov], to)
        if step.get("rule"):
            return Msg("placed {} on {}, {} toward {} ({} {})", tok, where, toward[prov], to, step["rule"],
                       step_name(step["step"]))
        return Msg("placed {} on {}, {} toward {}", tok, where, toward[prov], to)
    if action == "close":
        return _close_fragment(step)
    if action == "bonus":
        b = step["bonus"]
        if b == "senate" and which and step.get("from"):
            return Msg("Senate ({where}): {n} control marker under the Senate",
                       plural="Senate ({where}): {n} control markers under the Senate", n=step["markers"],
                       where=province(PROVINCE_INDEX[step["from"]]))
        if b == "senate":
            return Msg("Senate: {n} control marker under the Senate", plural="Senate: {n} control markers under "
                       "the Senate", n=step["markers"])
        if step.get("removed") and b in REMOVED_LOG_WORDS:
            return Msg(REMOVED_HARDER_LOG_WORDS[b] if step.get("marker_removed") else REMOVED_LOG_WORDS[b])
        if b == "poison":
            return Msg("poison: {} back to the bag", token_named(step["token"]) if step.get("token") else Msg("nothing"))
        if step.get("discarded") and b in DISCARDED_WORDS:
            return Msg(DISCARDED_WORDS[b])
        return bonus(b)
    return Msg("{}", action)


def _close_fragment(step: dict[str, Any]) -> Msg:
    """A closure for the log, both totals in one order (you or Caesar first), then who controls it."""
    x = province(PROVINCE_INDEX[step["province"]])
    totals = step["totals"]
    solo = "human" in totals
    a, b = (totals["human"], totals["crassus"]) if solo else (totals["caesar"], totals["pompey"])
    w = step["winner"]
    if w == "none":
        head = (Msg("{} closed in a tie, you {}–{} Crassus: nobody controls it", x, a, b) if solo
                else Msg("{} closed in a tie, Caesar {}–{} Pompey: nobody controls it", x, a, b))
    elif solo:
        head = (Msg("{} closed, you {}–{} Crassus: you control it", x, a, b) if w == "human"
                else Msg("{} closed, you {}–{} Crassus: Crassus controls it", x, a, b))
    else:
        head = (Msg("{} closed, Caesar {}–{} Pompey: Caesar controls it", x, a, b) if w == "caesar"
                else Msg("{} closed, Caesar {}–{} Pompey: Pompey controls it", x, a, b))
    if step["border_markers"]:
        return Msg("{}, border {}", head, Msg.join([space(SPACE_INDEX[b]) for b in step["border_markers"]]))
    return head


def saved_steps(data: list[Any]) -> list[dict[str, Any]]:
    """Steps kept as data in the game (``g.last``) with their sentences as Msg again."""
    return [{k: from_data(v) if k in ("text", "why") else v for k, v in step.items()} for step in data]
