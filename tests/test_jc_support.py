"""Helpers shared by the Julius Caesar tests (this module holds no tests)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from engine.errors import LegatusError
from firmware.session import Session


class Table:
    """A jc-battle session driven by console lines, as the device and the console drive it."""

    def __init__(self, options: str = "", seed: int = 1) -> None:
        self.session = Session.start(f"new jc-battle {options}".strip(), seed, "test")

    def do(self, line: str) -> dict[str, Any]:
        """Run a line that must succeed; returns the response fields."""
        before = self.session.state_json
        out = self.session.apply(line)
        state = self.session.state
        assert json.loads(json.dumps(state)) == state          # plain JSON data
        if self.session.command(line.split()[0]).mutates is False:  # type: ignore[union-attr]
            assert self.session.state_json == before           # read-only commands change nothing
        return dict(out.fields)

    def fails(self, line: str, code: str, asked: bool = False) -> str:
        """Run a line that must fail with protocol error ``code``; nothing may change. ``asked``: as
        a request asked now (the commands' ``admit`` rules too), not a stored line replayed."""
        before = self.session.state_json
        with pytest.raises(LegatusError) as err:
            self.session.apply(line, asked=asked)
        assert err.value.code == code, err.value.message
        assert self.session.state_json == before
        return err.value.message

    def run(self, *lines: str) -> None:
        for line in lines:
            self.do(line)

    @property
    def battle(self) -> dict[str, Any]:
        return self.session.view()["battle"]

    @property
    def decision(self) -> dict[str, Any] | None:
        return self.battle["decision"]

    def block(self, key: str) -> dict[str, Any]:
        return next(b for b in self.battle["blocks"] if b["key"] == key)

    def odds(self) -> tuple[float, float, float]:
        o = self.do("odds")
        return (o["attacker_wins"], o["attacker_eliminated"], o["defender_holds"])
