"""Fair draws (issue 12; PROTOCOL.md "Added in version 1"): the commitment, ``reveal``, the seed
never shown before it, and draws replayed by the standalone scripts/verify_draws.py (which does
not import Legatus) against real console sessions."""
from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.fairness import commitment
from tests.conftest import ROOT, run_console

SCRIPT = ROOT / "scripts" / "verify_draws.py"


def ok(console, line: str) -> dict:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def test_the_commitment_is_sha256_of_the_documented_text():
    assert commitment(0) == hashlib.sha256(b"legatus-seed:0").hexdigest()
    assert commitment(18446744073709551615) == hashlib.sha256(b"legatus-seed:18446744073709551615").hexdigest()
    assert commitment(1) != commitment(10) and len(commitment(7)) == 64 and commitment(7) == commitment(7).lower()


def test_new_without_seed_commits_and_reveal_opens_it(console):
    new = ok(console, "new bag items=gold*3,silver*2")
    assert len(new["commitment"]) == 64 and new["state"]["commitment"] == new["commitment"]
    assert ok(console, "state")["state"]["commitment"] == new["commitment"]
    ok(console, "draw 2")
    seed = ok(console, "reveal")["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**64
    assert commitment(seed) == new["commitment"]
    assert ok(console, "reveal")["seed"] == seed                         # the draws stay as they are
    assert ok(console, "state")["state"]["bag"]["size"] == 3


def test_reveal_in_a_session_started_with_a_seed_just_returns_it(console):
    new = ok(console, "new dice seed=42")
    assert "commitment" not in new and "commitment" not in new["state"]
    assert ok(console, "reveal")["seed"] == 42
    assert console.request("reveal now")["error"] == "bad_arguments"


SESSIONS = {
    "bag": ["new bag items=gold*3,silver*2,bronze cards=legio*3,senator", "draw 2", "card", "roll 3d6", "undo",
            "roll 2d6", "kit new items=a*2,b", "kit draw"],
    "caesar": ["new caesar-solo difficulty=normal", "crassus", "draw", "decide", "moves"],
    "jc": ["new jc-battle", "add attacker c_leg10", "add defender p_pompeius", "fight", "deal", "next-battle"],
    "glory": ["new glory players=Ann,Bob,Cid", "event", "end-round", "deal"],
    "sword": ["new sword players=romans,gauls", "battle att=3 def=2 mod=1", "consuls", "advance"],
}


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_the_secret_seed_appears_nowhere_before_reveal(console, state_dir, name):
    replies = [console.handle_text(line) for line in SESSIONS[name]]
    replies += [console.handle_text(x) for x in ("state", "log 500", "help", "history", "export format=csv")]
    replies.append(console.handle_text("new dice seed=1"))                # ends the game (archived/abandoned)
    replies += [console.handle_text(x) for x in ("history", "export format=csv", "export format=bgstats")]
    # the seed of the first session: from the database header, where it must stay
    db = sqlite3.connect(state_dir / "legatus.db")
    header = json.loads(db.execute("SELECT header FROM sessions ORDER BY id LIMIT 1").fetchone()[0])
    rows = [r[0] for r in db.execute("SELECT record FROM history")]
    db.close()
    seed = str(header["seed"])
    assert header.get("committed") is True and "seed=" not in header["line"]
    assert len(seed) >= 6
    for text in replies + rows:
        assert text is None or seed not in text, text
    assert json.loads(replies[0])["commitment"] == commitment(int(seed))


def test_the_same_line_with_the_revealed_seed_replays_every_draw(console):
    first = ok(console, "new caesar-solo difficulty=hard")
    ok(console, "crassus")
    state = ok(console, "state")["state"]
    seed = ok(console, "reveal")["seed"]
    ok(console, f"new caesar-solo difficulty=hard seed={seed}")
    ok(console, "crassus")
    again = ok(console, "state")["state"]
    assert commitment(seed) == first["commitment"]
    assert again["position"] == state["position"] and again["human"] == state["human"]


def _verify(tmp_path: Path, requests: list[str], replies: list[dict], *extra: str) -> subprocess.CompletedProcess:
    (tmp_path / "requests.txt").write_text("".join(l + "\n" for l in requests), encoding="utf-8")
    (tmp_path / "replies.jsonl").write_text("".join(json.dumps(r) + "\n" for r in replies), encoding="utf-8")
    return subprocess.run([sys.executable, str(SCRIPT), "--requests", str(tmp_path / "requests.txt"),
                           "--replies", str(tmp_path / "replies.jsonl"), *extra],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})


BAG_SESSION = ["new bag items=gold*3,silver*2,bronze,lead*4 cards=legio*4,senator*2,eagle", "draw 2", "roll 3d6+1",
               "reroll 1,3", "draw 20", "card 2", "undo", "card 3", "put gold", "draw 3", "kit new items=a*2,b*5",
               "kit draw 2", "shuffle", "card 1", "discard legio", "reshuffle", "card 2", "roll 2d10-1", "draw 4",
               "reveal"]


def test_verify_draws_replays_a_real_bag_session_and_catches_a_changed_draw(state_dir, tmp_path):
    replies = run_console(state_dir, BAG_SESSION)
    assert replies[4]["ok"] is False                                     # refused: skipped by the script
    seed, com = replies[-1]["seed"], replies[0]["commitment"]
    good = _verify(tmp_path, BAG_SESSION, replies, "--seed", str(seed), "--commitment", com)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "commitment OK" in good.stdout and "all match" in good.stdout
    assert good.stdout.count("->") >= 10
    short = _verify(tmp_path, BAG_SESSION, replies, "--seed", str(seed), "--commitment", com[:8])
    assert short.returncode == 0                                         # the 8 characters on the panel
    wrong = _verify(tmp_path, BAG_SESSION, replies, "--seed", str(seed + 1), "--commitment", com)
    assert wrong.returncode == 1 and "MISMATCH" in wrong.stdout
    tampered = [dict(r) for r in replies]
    i = BAG_SESSION.index("draw 3")
    first = tampered[i]["drawn"][0]
    tampered[i]["drawn"] = ["silver" if first != "silver" else "gold"] + tampered[i]["drawn"][1:]
    bad = _verify(tmp_path, BAG_SESSION, tampered, "--seed", str(seed))
    assert bad.returncode == 1 and "MISMATCH" in bad.stdout


def test_verify_draws_replays_dice_rolls(state_dir, tmp_path):
    lines = ["new dice", "roll 4d6", "reroll 2,4", "roll d20+3", "undo", "roll d20+3", "roll 10d10", "reveal"]
    replies = run_console(state_dir, lines)
    seed = replies[-1]["seed"]
    res = _verify(tmp_path, lines, replies, "--seed", str(seed), "--commitment", replies[0]["commitment"])
    assert res.returncode == 0, res.stdout
    assert "5 draws compared: all match" in res.stdout


def test_the_script_does_not_import_legatus():
    source = SCRIPT.read_text(encoding="utf-8")
    for word in ("from engine", "import engine", "from firmware", "import firmware"):
        assert word not in source


def test_a_reopened_secret_seed_game_keeps_its_seed_secret_and_its_draws(state_dir):
    """Games → Earlier games reopens an unfinished bag drawn in secret: the same draws come back,
    with the same commitment, and the seed is still on no line, reply or screen until ``reveal``."""
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3,c*3,d*3", "draw 3"], [], state_dir)
    try:
        first = app.console.session
        seed, drawn = int(first.header["seed"]), first.view()["bag"]["drawn"]
        promise = first.view()["commitment"]
        assert app.run("new dice seed=4")["ok"]
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "bag"))
        again = app.console.session
        assert again.view()["bag"]["drawn"] == drawn and again.view()["commitment"] == promise
        assert again.header.get("committed") is True and "seed=" not in again.header["line"]
        replies = [json.dumps(app.run(x)) for x in ("state", "log 50", "history", "export format=csv", "draw")]
        for text in replies + [again.header["line"], app.console.handle_text("state") or ""]:
            assert str(seed) not in text, text
        assert app.run("reveal")["seed"] == seed and commitment(seed) == promise
    finally:
        app.console.close()


def test_reopening_a_game_with_a_given_seed_reuses_the_line_as_it_was(state_dir):
    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    app = app_with(["new bag items=a*3,b*3 seed=77", "draw 2", "new dice seed=4"], [], state_dir)
    try:
        assert reopen(app, next(a for a in archived(app.archives()) if a.game == "bag"))
        assert app.console.session.header["line"] == "new bag items=a*3,b*3 seed=77"
        assert "commitment" not in app.console.session.view()
    finally:
        app.console.close()
