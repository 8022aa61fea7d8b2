"""The draws shown and undone in the fair-draw record (docs/fairness.md §6, "What was undone").

Undo never re-draws (PROTOCOL.md: "repeating the same command gives the same draw"), but the record
used to hold only the draws that stand, so scripts/verify_draws.py said "all match" over a game
whose draws had been seen and taken back without a word of them. The record now carries every
action and undo as made (``steps``) with their draws, and the script checks each draw undone from
its stream where it stood and says what the same place drew afterwards: the same item, another
request (a kit roll of other dice takes the dice shown), or nothing."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from firmware.console import Console
from firmware.store import Store
from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "verify_draws.py"


def ok(console: Console, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def _verify(record: dict[str, Any], tmp_path: Path, name: str = "record") -> subprocess.CompletedProcess[str]:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run([sys.executable, str(SCRIPT), "--record", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})


def _other(items: list[str], got: str) -> str:
    return next(x for x in items if x != got)


def _drawn_undone_drawn_again(console: Console) -> str:
    """A committed bag game: one draw, undone, drawn again, ended; the item drawn."""
    ok(console, "commit")
    ok(console, "new bag items=gold*3,lead*3")
    got = ok(console, "draw")["drawn"][0]
    ok(console, "undo")
    ok(console, "draw")
    ok(console, "end")
    return str(got)


def test_a_draw_shown_undone_and_drawn_again_is_checked_and_said(state_dir: Path, tmp_path: Path):
    """A bag draw undone and drawn again (the same item), one undone and never drawn again, a roll
    undone and another roll in its place, across a restart between them: all in the record's
    steps, each checked, each said."""
    store = Store(state_dir)
    console = Console(store, store.resume())
    ok(console, "commit")
    ok(console, "new bag items=gold*3,lead*3")
    first = ok(console, "draw")["drawn"]
    ok(console, "undo")
    assert ok(console, "draw")["drawn"] == first            # undo never re-draws
    console.close()
    store = Store(state_dir)                                 # a restart between the draw and its undo
    console = Console(store, store.resume())
    second = ok(console, "draw")["drawn"]
    ok(console, "undo")
    shown = ok(console, "roll 3d6")["dice"]
    ok(console, "undo")
    ok(console, "roll 2d8")
    ok(console, "end")
    record = ok(console, "export format=draws")["record"]
    console.close()
    assert record["actions"] == ["draw", "roll 2d8", "end"]
    assert record["undone"] == 3 and record["setup"] == 1
    assert [s[0] for s in record["steps"]] == ["do", "undo", "do", "do", "undo", "do", "undo", "do", "do"]
    assert record["steps"][0] == ["do", "draw", [["bag", "draw", first[0]]]]
    assert record["steps"][3] == ["do", "draw", [["bag", "draw", second[0]]]]
    assert [e[3] for e in record["steps"][5][2]] == shown

    out = _verify(record, tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    said = out.stdout
    assert "undone: 3 actions taken back by undo; 5 draws shown and undone" in said, said
    assert f'step 1 (draw), undone: ["bag", "draw", "{first[0]}"]; drawn again at step 3 (draw): the same' in said
    assert f'step 4 (draw), undone: ["bag", "draw", "{second[0]}"]; not drawn again' in said
    assert said.count("its place in the stream went to step 8 (roll 2d8)") == 2, said   # 2 of the 3 dice
    assert "1 drawn again the same, 2 places taken by another request" in said
    assert said.rstrip().endswith("8 draws checked: all match")    # standing: a bag draw, 2 dice; undone: 5


def test_cards_shown_and_undone_are_dealt_again_first(console: Console, tmp_path: Path):
    """A side deck's cards shown one by one and undone stay on top through a shuffle (``keep``):
    the record shows each undone and dealt again, the same cards first, though one request deals
    both; cards dealt to several players at once (Glory's objectives) are paired card by card."""
    ok(console, "commit")
    ok(console, "new dice")
    ok(console, "kit new cards=a,b,c,d,e")
    ok(console, "kit shuffle")
    first = ok(console, "kit card")["cards"]
    second = ok(console, "kit card")["cards"]
    ok(console, "undo")
    ok(console, "undo")
    ok(console, "kit shuffle")
    assert ok(console, "kit card 3")["cards"][:2] == first + second
    ok(console, "end")
    record = ok(console, "export format=draws")["record"]
    out = _verify(record, tmp_path)
    assert out.returncode == 0, out.stdout
    for step, card in ((3, first[0]), (4, second[0])):
        assert (f'step {step} (kit card), undone: ["kit-deck", "card", ["{card}"]]; drawn again at step 8 '
                "(kit card 3): the same") in out.stdout, out.stdout
    assert "undo re-drew nothing: 2 drawn again the same" in out.stdout


def test_an_undone_draw_changed_in_the_record_is_a_mismatch(console: Console, tmp_path: Path):
    """The undone draws are checked, not only listed: one changed, or steps that do not lead to
    the draws that stand, fail the check (exit status 1)."""
    got = _drawn_undone_drawn_again(console)
    record = ok(console, "export format=draws")["record"]
    assert _verify(record, tmp_path).returncode == 0
    changed = json.loads(json.dumps(record))
    changed["steps"][0][2][0][2] = _other(["gold", "lead"], got)       # the draw undone said another item
    out = _verify(changed, tmp_path, "changed")
    assert out.returncode == 1 and "MISMATCH at step 1 (draw), draw 0" in out.stdout, out.stdout
    dropped = json.loads(json.dumps(record))
    dropped["steps"] = dropped["steps"][2:]                            # the undone draw left out
    out = _verify(dropped, tmp_path, "dropped")
    assert out.returncode == 1 and "MISMATCH" in out.stdout, out.stdout


def test_the_check_says_whether_anything_was_undone(console: Console, tmp_path: Path):
    """Nothing undone is said as such; a record without the word (an older Legatus filed it) says
    that it does not say, rather than nothing."""
    ok(console, "commit")
    ok(console, "new bag items=gold*3,lead*3")
    ok(console, "draw 2")
    ok(console, "end")
    record = ok(console, "export format=draws")["record"]
    assert record["undone"] == 0 and "steps" not in record
    out = _verify(record, tmp_path)
    assert out.returncode == 0 and "nothing was undone: every draw shown stands" in out.stdout, out.stdout
    older = {k: v for k, v in record.items() if k != "undone"}
    out = _verify(older, tmp_path, "older")
    assert out.returncode == 0 and "draws shown and undone: this record does not say" in out.stdout, out.stdout


def test_a_record_made_again_from_the_sessions_rows_keeps_what_was_undone(state_dir: Path, tmp_path: Path):
    """A damaged fair-draw record is made again at start from the ended session's rows
    (firmware/store/mending.py): the draws shown and undone are in it as in the one first filed."""
    import sqlite3

    from firmware.store import DB_NAME
    store = Store(state_dir)
    console = Console(store, store.resume())
    got = _drawn_undone_drawn_again(console)
    ok(console, "new dice")                                 # the ended session archived: only its rows tell
    console.close()
    db = sqlite3.connect(state_dir / DB_NAME)
    db.execute("UPDATE fair SET data = CAST(CAST(data AS BLOB) || x'ff' AS TEXT)")
    db.commit()
    db.close()
    store = Store(state_dir)
    console = Console(store, store.resume())
    try:
        assert "made again from its saved actions" in ok(console, "state").get("recovered", "")
        record = ok(console, "export format=draws")["record"]
    finally:
        console.close()
    assert record["undone"] == 1 and record["steps"][0] == ["do", "draw", [["bag", "draw", got]]]
    out = _verify(record, tmp_path)
    assert out.returncode == 0 and "drawn again at step 3 (draw): the same" in out.stdout, out.stdout
