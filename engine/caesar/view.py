"""What ``state`` shows for a Caesar! game, and short log sentences for the session's log."""
from __future__ import annotations

from typing import Any

from engine.caesar.board import PROVINCES
from engine.caesar.flow import expecting
from engine.caesar.model import CRASSUS, HUMAN, Game
from engine.caesar.position import position_of
from engine.caesar.tiles import tile_text
from engine.caesar.tokens import TOKENS


def _names(ids: list[int]) -> list[str]:
    return [TOKENS[t].name for t in ids]


def markers(g: Game, p: int) -> dict[str, int]:
    """Where ``p``'s 12 markers are: ``left``, ``on_board``, ``under_senate``, ``removed``."""
    board = sum(g.slots[x] for x in range(len(PROVINCES)) if g.ctrl[x] == p)
    board += sum(1 for m in g.bmark if m == p)
    return {"left": g.markers[p], "on_board": board, "under_senate": g.senate_markers[p],
            "removed": g.removed[p]}


def tiles_view(g: Game) -> dict[str, Any]:
    """The command tiles: definitions (``tiles=`` syntax), whose they are, the stack and pile."""
    unverified = sorted({t for t in g.deck if t not in g.tile_user})
    return {"deck": g.deck, "stack": len(g.stack), "stack_left": "".join(sorted(g.stack)),
            "played": list(g.played), "last": g.last_tile or None, "revealed": g.revealed or None,
            "definitions": {k: tile_text(v) for k, v in sorted(g.tile_defs.items())},
            "user_defined": list(g.tile_user), "unverified": bool(unverified),
            "unverified_letters": unverified}


def view(g: Game) -> dict[str, Any]:
    """The ``state`` answer (the session adds ``game`` and ``actions``)."""
    n = g.names
    out: dict[str, Any] = {
        "mode": g.mode,
        "position": position_of(g),
        "turn": n[g.turn],
        "step": g.step,
        "next": expecting(g),
        "winner": n[g.winner] if g.winner >= 0 else None,
        "end": g.end or None,
        "turns": g.turns,
        "rules": dict(g.rules) if g.solo else {},
        "inputs": dict(g.inputs),
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
                        "pending": list(g.pending) if g.turn == HUMAN else [],
                        "extra_turn": g.extra and g.turn == HUMAN}
        out["crassus"] = {"row": _names(g.hand[CRASSUS]), "bag": len(g.bag[CRASSUS]),
                          "bag_contents": sorted(_names(g.bag[CRASSUS])),
                          "centurions_face_down": len(g.cent[CRASSUS])}
        out["tiles"] = tiles_view(g)
        out["last_crassus_turn"] = g.last or None
    else:
        out["players"] = {n[p]: {"hand": len(g.hand[p]), "bag": len(g.bag[p]),
                                 "centurions": _names(g.cent[p]), "draws_due": g.due[p]}
                          for p in (0, 1)}
        out["pending"] = list(g.pending)
        out["extra_turn"] = g.extra
    return out


def _other_total(step: dict[str, Any]) -> int:
    return next(v for k, v in step["totals"].items() if k != step["by"])


def log_fragment(step: dict[str, Any]) -> str:
    """A few words for the session log: ``placed sword 5/1 on SC-IT, 5 toward SC (S-9 capture)``."""
    action = step["action"]
    if action == "draw":
        return ("drew " + ", ".join(step["tokens"])) if step["tokens"] else "drew nothing (bag empty)"
    if action == "centurion":
        return f"turned up centurion {step['token']}" if step.get("token") else "no centurion left"
    if action == "discard":
        if step.get("skipped"):
            return "no discard (S-6)"
        return ("returned " + ", ".join(step["tokens"]) + " to his bag") if step["tokens"] else "nothing to discard"
    if action == "play":
        if step.get("step") is None and "rule" in step:
            return step["why"].rstrip(".")
        toward = step["toward"]
        prov = step.get("province") or max(toward, key=lambda k: toward[k])
        rule = f" ({step['rule']} {step['step']})" if step.get("rule") else ""
        down = " face down" if step.get("face_down") else f", {toward[prov]} toward {prov}"
        return f"placed {step['token'].replace(':', ' ')} on {step['space']}{down}{rule}"
    if action == "close":
        x = step["province"]
        if step["winner"] == "none":
            return f"{x} closed, tie ({step['totals'][step['by']]} each)"
        extra = f", border {', '.join(step['border_markers'])}" if step["border_markers"] else ""
        return f"{x} closed {step['totals'][step['by']]}-{_other_total(step)}: {step['winner']} controls it{extra}"
    if action == "bonus":
        b = step["bonus"]
        if b == "senate":
            return f"Senate (+{step['markers']} under Senate)"
        if step.get("removed"):
            return f"{b} removed" + (" with a marker" if step.get("marker_removed") else "")
        if b == "poison":
            return f"poison: {step.get('token') or 'nothing'} back to the bag"
        return f"{b}" + (" discarded" if step.get("discarded") else "")
    return action
