"""Helpers for the Glory of Rome tests (no tests here): run commands the way the session does."""
from __future__ import annotations

import json
from typing import Any

from engine.game import GameRules, Request
from engine.glory.console import GAME


def parse(line: str) -> Request:
    """A request line split like the console does: words, ``key=value`` options, the rest."""
    command, _, rest = line.strip().partition(" ")
    args: list[str] = []
    opts: dict[str, str] = {}
    for word in rest.split():
        key, eq, value = word.partition("=")
        if eq and key:
            opts[key] = value
        else:
            args.append(word)
    return Request(command, tuple(args), opts, rest.strip())


def new(options: str = "players=Jack,Henry,Mary,Ross", seed: int = 1, game: GameRules = GAME) -> dict[str, Any]:
    """``new <game> <options>`` as the session calls it (the game name already taken off)."""
    req = parse("new " + options)
    state = game.new(Request(f"new {game.name}", req.args, req.opts, req.rest), seed)
    round_trip = json.loads(json.dumps(state))
    assert round_trip == state
    return round_trip


def run(state: dict[str, Any], line: str, game: GameRules = GAME, asked: bool = False) -> dict[str, Any]:
    """Run one command on a copy (kept only if it succeeds, after a JSON round trip); a
    read-only command must leave the state alone. ``asked``: a request asked now, which keeps its
    command's ``admit`` rule too (a stored line replayed does not)."""
    req = parse(line)
    cmd = game.commands[req.command]
    work = json.loads(json.dumps(state))
    out = cmd.handler(work, req)
    if asked and cmd.admit is not None:
        cmd.admit(json.loads(json.dumps(state)), req)
    if cmd.mutates:
        state.clear()
        state.update(json.loads(json.dumps(work)))
    else:
        assert work == state, f"read-only '{req.command}' changed the state"
    return out.fields
