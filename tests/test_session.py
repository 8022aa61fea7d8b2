"""Sessions as replays of (setup, seed, actions): undo restores the generator, state is repeatable."""
import json

import pytest

from engine.errors import BadArguments, IllegalMove, NothingToUndo, UnknownCommand
from firmware.session import Session, parse_line


def test_parse_line_splits_args_options_and_rest():
    req = parse_line("  play SC-SD ship:5/1 SC  seed=4 ")
    assert req.command == "play" and req.args == ("SC-SD", "ship:5/1", "SC")
    assert req.opts == {"seed": "4"} and req.rest == "SC-SD ship:5/1 SC  seed=4"


def test_undo_restores_the_generator_so_the_same_command_draws_the_same():
    s = Session.start("new bag items=a*5,b*5,c*5", 99, "x")
    first = s.apply("draw 3").fields["drawn"]
    roll = s.apply("roll 5d20").fields["dice"]
    s.undo()
    s.undo()
    assert s.apply("draw 3").fields["drawn"] == first
    assert s.apply("roll 5d20").fields["dice"] == roll


def test_identical_inputs_give_identical_state():
    lines = ["draw 2", "roll 3d6", "put a", "draw", "reroll 1,2"]
    views = []
    for _ in range(2):
        s = Session.start("new bag items=a*4,b*4 seed=5", 5, "sid")
        for line in lines:
            try:
                s.apply(line)
            except IllegalMove:
                pass
        views.append(json.dumps(s.view(), sort_keys=True))
    assert views[0] == views[1]


def test_failed_command_changes_nothing():
    s = Session.start("new bag items=a*2", 1, "x")
    before = s.state_json
    with pytest.raises(IllegalMove):
        s.apply("draw 3")
    with pytest.raises(BadArguments):
        s.apply("roll 3x6")
    with pytest.raises(UnknownCommand):
        s.apply("fly")
    assert s.state_json == before and s.lines == []


def test_nothing_to_undo_at_the_start():
    s = Session.start("new dice", 1, "x")
    with pytest.raises(NothingToUndo):
        s.undo()


def test_a_rebuilt_session_can_still_undo_past_its_checkpoints_without_re_rolling():
    from firmware.session import CHECKPOINT_EVERY
    s = Session.start("new dice", 4, "x")
    n = 2 * CHECKPOINT_EVERY + 5
    outs = [s.apply("roll 3d6").fields["dice"] for _ in range(n)]
    checkpoints = {d: s._state_json_at(d) for d in (CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY)}
    t = Session.start("new dice", 4, "x")
    t.rebuild(s.lines, s.sentences, [], checkpoints)
    assert t.state_json == s.state_json
    for _ in range(CHECKPOINT_EVERY + 10):          # back across a checkpoint
        t.undo()
    assert t.apply("roll 3d6").fields["dice"] == outs[n - CHECKPOINT_EVERY - 10]


def test_only_a_few_states_stay_in_memory_when_the_store_can_load_checkpoints():
    from firmware.session import CHECKPOINT_EVERY, CHECKPOINTS_IN_RAM
    s = Session.start("new dice", 4, "x")
    stored: dict[int, str] = {}
    s.loader = stored.get
    for _ in range(20 * CHECKPOINT_EVERY):
        s.apply("roll 2d6")
        if len(s.lines) % CHECKPOINT_EVERY == 0:
            stored[len(s.lines)] = s.state_json
    assert len(s._checkpoints) <= CHECKPOINTS_IN_RAM + 1
    expect = Session.start("new dice", 4, "x")
    for line in s.lines[: 3 * CHECKPOINT_EVERY + 7]:
        expect.apply(line)
    assert s._state_json_at(3 * CHECKPOINT_EVERY + 7) == expect.state_json   # read back from the loader
