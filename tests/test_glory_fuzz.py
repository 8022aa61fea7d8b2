"""Random games (hypothesis): invariants of the fame track, milestones and Senate (G-5..G-7) and
of final scoring (G-8..G-15) hold whatever the sequence of commands or the score sheet."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMove
from engine.glory.console import SCORE
from engine.game import Request
from engine.rng import Rng
from tests.test_glory_helpers import new, run

PLAYERS = ["Jack", "Henry", "Mary", "Ross"]

step = st.one_of(
    st.tuples(st.just("fame"), st.sampled_from(PLAYERS), st.integers(-12, 15).filter(bool)),
    st.tuples(st.just("vote"), st.sampled_from(PLAYERS), st.integers(1, 2)),
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(step, max_size=40), st.integers(1, 4))
def test_track_and_senate_invariants(steps: list[tuple[str, str, int]], n: int):
    players = PLAYERS[:n]
    s = new("players=" + ",".join(players))
    best = {p: 1 for p in players}
    placed: list[str] = []
    for kind, who, x in steps:
        if who not in players:
            continue
        before = dict(s["fame"])
        if kind == "fame":
            out = run(s, f"fame {who} {x:+d}")
            assert out["fame"][who] == max(1, before[who] + x)                      # G-5
        else:
            column = placed[-5:]
            for _ in range(x):                    # G-7: 5 vote pieces each, none left once all 5 are in
                if column.count(who) >= 5:
                    with pytest.raises(IllegalMove):
                        run(s, f"vote {who} n={x}")
                    break
                column = (column + [who])[-5:]
            else:
                out = run(s, f"vote {who} n={x}")
                placed += [who] * x
                assert out["senate"] == placed[-5:]                                  # G-7
                assert out["fame_gained"] == 2 * out["supremacies"]
        for p in players:
            best[p] = max(best[p], s["fame"][p])
    for p in players:
        earned = s["earned"][p]
        assert s["fame"][p] >= 1
        assert len(earned) == len(set(earned)) <= 4                                  # G-6: 1 + 4
        assert (5 in earned) == (best[p] >= 5)
        for m in (12, 21, 30):
            if best[p] >= m:
                assert m in earned                                                   # passed it: earned
    for m in (12, 21, 30):                                                           # one step per earner
        assert s["markers"][str(m)] == m - sum(m in s["earned"][p] for p in players)
    assert json.loads(json.dumps(s)) == s


player_sheet = st.fixed_dictionaries({
    "track": st.integers(1, 30), "flipped": st.booleans(),
    "sets": st.fixed_dictionaries({"tools": st.integers(0, 1), "weapons": st.integers(0, 1),
                                   "clothing": st.integers(0, 1)}),
    "pantheon": st.tuples(st.integers(0, 5), st.booleans()),     # own parts; the level they reach finished
    "objectives": st.integers(0, 20), "denarii": st.integers(0, 40),
})


def _pantheon(drawn: tuple[int, bool]) -> dict[str, int]:
    """G-12: own parts, and how many levels they finished (foundation 2 own + 1, temple 3 more + 1);
    ``common`` says how many common parts go on, their kinds given by :func:`_common_parts_in_order`."""
    own, finished = drawn
    common = (2 if own == 5 and finished else 1) if own >= 3 or (own == 2 and finished) else 0
    return {"own": own, "common": common}


def _common_parts_in_order(players: list[dict]) -> None:
    """The players finished their levels in the order listed: gold, silver (no silver foundation
    with 1-3 players), then bronze, for the foundations and for the temples (G-12)."""
    taken = {"foundation": 0, "temple": 0}
    kinds = {"foundation": ["gold", "silver" if len(players) >= 4 else "bronze"], "temple": ["gold", "silver"]}
    for pl in players:
        common = pl["pantheon"].pop("common")
        for level in ("foundation", "temple")[:common]:
            kind = (kinds[level] + ["bronze"] * 4)[taken[level]]
            taken[level] += 1
            pl["pantheon"][kind] = pl["pantheon"].get(kind, 0) + 1


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(player_sheet, min_size=1, max_size=4),
       st.lists(st.tuples(st.sampled_from([2, 3, 4]), st.lists(st.integers(0, 4), min_size=4, max_size=4)),
                max_size=4),
       st.lists(st.integers(0, 3), max_size=5), st.integers(-1, 3))
def test_score_invariants(sheets, fields, senate, warrior):
    names = PLAYERS[:len(sheets)]
    players = [{"name": n, **s, "pantheon": _pantheon(s["pantheon"])} for n, s in zip(names, sheets)]
    _common_parts_in_order(players)
    if 0 <= warrior < len(players):
        players[warrior]["medals"] = ["warrior"]
    data = {"players": players,
            "battlefields": [{"shield": sh, "legions": dict(zip(names, counts))} for sh, counts in fields],
            "senate": [names[i] for i in senate if i < len(names)]}
    out = SCORE.handler(Request("score", rest=json.dumps(data)), Rng(1))
    rows = out["scores"]
    for row in rows.values():
        assert row["total"] == sum(v for k, v in row.items() if k != "total")
    best = max(r["total"] for r in rows.values())
    if len(players) == 1:      # G-17: the Emperor's solo is won by a title; it has no places
        assert out["winners"] == (names if out["solo"]["rank"] else []) and out["places"] == {}
    else:
        assert out["winners"] and all(rows[w]["total"] == best for w in out["winners"])  # G-15
        assert out["ranking"][0] in out["winners"]
    for f in out["battlefields"]:
        if not f["conquered"]:
            assert f["places"] == []                                                 # G-9
        places = sorted({pl["place"] for pl in f["places"]})
        assert places == list(range(1, len(places) + 1))                             # never skipped
        for pl in f["places"]:
            if pl["tied"]:
                assert pl["points"] == 0
    assert sum(r["politics"] for r in rows.values()) == sum([1, 2, 3, 5, 6][:len(data["senate"])])  # G-10
