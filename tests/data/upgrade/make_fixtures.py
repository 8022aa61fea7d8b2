"""Make the fixtures of tests/test_upgrade.py again: state directories written by OLDER revisions of
Legatus, each played through its own console, and the old version's answers on a copy of each.

    git worktree add /tmp/old_88523287 88523287     # (and 7e234d67, 70e8819a, 4ba6dc41; remove after)
    .venv/bin/python tests/data/upgrade/make_fixtures.py /tmp       # /tmp/old_<rev> each

Each revision runs in a subprocess with PYTHONPATH=<its worktree> (the same venv). ``@caesar N`` in
a script plays N turns of Caesar! (the first legal placement found, else the command the game's
``next`` hint names). Journals are kept as files (their times are set by the test), databases as
SQL dumps with their ``user_version``."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
SCRIPTS = HERE / "old_scripts"
# fixture: (revision, language, whether it knows people=, the scripts played, requests asked after 'state')
FIXTURES = {
    "journal_full": ("88523287", "uk", False, ["kit", "jc", "glory", "sword", "caesar", "end_solo"], []),
    # the same play as journal_full by the first revision with History: what History should list
    "db_same_play": ("70e8819a", "uk", False, ["kit", "jc", "glory", "sword", "caesar", "end_solo"], ["history 100"]),
    "journal_mid_jc": ("7e234d67", "ru", False, ["mid_jc"], ["auto", "undo", "auto"]),
    # a campaign whose stored lines an update refused (J-4/J-19 guards added 2026-11-26): next-battle
    # and winter over a set-up holding blocks, owner of a placed block
    "journal_mid_jc_setup": ("88523287", "ru", False, ["mid_jc_setup"], ["auto", "undo", "auto", "fight"]),
    "db_mid_jc_setup": ("70e8819a", "uk", False, ["mid_jc_setup"], ["auto", "undo", "auto", "fight"]),
    "journal_mid_bag": ("88523287", "uk", False, ["mid_bag"], ["draw 1", "undo", "draw 1", "card 1"]),
    "db_full": ("4ba6dc41", "ru", True, ["kit", "jc", "glory", "sword", "caesar", "end_solo"], ["history 100"]),
    "db_mid_bag": ("4ba6dc41", "ru", True, ["mid_bag"], ["draw 1", "undo", "draw 1", "card 1"]),
    "db_mid_jc": ("70e8819a", "en", False, ["mid_jc"], ["auto", "undo", "auto"]),
    "db_mid_caesar": ("4ba6dc41", "ru", True, ["mid_caesar"], ["draw", "undo", "draw", "crassus"]),
    "db_mid_glory": ("70e8819a", "en", False, ["mid_glory"], ["end-round", "event", "undo", "event"]),
}

DRIVER = r'''
import json, re, sys
from pathlib import Path
from firmware.console import Console
from firmware.store import Store

state_dir, people, lines = sys.argv[1], sys.argv[2] == "1", json.loads(sys.stdin.read())
store = Store(Path(state_dir))
console = Console(store, store.resume())
answers = []
TOKENS = [f"{i}:{a}/{b}" for i in ("wild", "sword", "shield", "ship")
          for a, b in ((6, 0), (5, 1), (4, 2), (3, 3), (2, 4), (1, 5), (0, 6), (2, 2), (3, 1), (1, 3))]
try:
    from engine.caesar.board import SPACES
except ImportError:
    SPACES = ()


def ask(line, keep=True):
    reply = json.loads(console.handle_text(line) or "null")
    if keep:
        answers.append([line, reply])
    return reply


def caesar(turns):
    for _ in range(turns):
        st = ask("state", False)["state"]
        if st.get("winner") or st.get("end"):
            return
        if st["turn"] == "crassus" and st.get("mode") == "solo":
            ask("crassus")
            continue
        hand = st["human"]["hand"] if st.get("mode") == "solo" else (st.get("players") or st)[st["turn"]]["hand"]
        hand = TOKENS if isinstance(hand, int) else hand
        placed = next((f"play {s} {t} {p}" for s in SPACES if s not in st["position"]["spaces"]
                       for t in hand for p in s.split("-")
                       if ask(f"play {s} {t} {p}", False)["ok"] and not ask("undo", False) is None), None)
        if placed is not None:
            ask(placed)
            continue
        hint = st.get("next") or ""
        named = re.findall(r"\(([a-z][a-z-]*)", hint) + re.findall(r"(?:send|надішліть|отправьте) ([a-z-]+)", hint)
        for word in [x for n in named for x in (n, f"{n} skip")] + ["draw", "close", "bonus", "discard", "pass"]:
            if ask(word, False)["ok"]:
                answers.append([word, None])
                break
        else:
            return


for line in lines:
    if not people and " people=" in line:
        line = " ".join(w for w in line.split() if not w.startswith("people="))
    if line.startswith("@caesar"):
        caesar(int(line.split()[1]))
    else:
        ask(line)
print(json.dumps(answers, ensure_ascii=False))
'''


def run(code: Path, state_dir: Path, people: bool, lines: list[str]) -> list[list[object]]:
    out = subprocess.run([sys.executable, "-c", DRIVER, str(state_dir), "1" if people else "0"],
                         input=json.dumps(lines), env=dict(os.environ, PYTHONPATH=str(code)),
                         capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return list(json.loads(out.stdout))


def dump(played: Path, dest: Path) -> None:
    """``played`` as a fixture: its database as an SQL dump, every other file (not the lock) as it is."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir()
    for p in played.rglob("*"):
        if p.is_file() and p.name not in ("lock", "legatus.db") and not p.name.startswith("legatus.db-"):
            (dest / p.relative_to(played)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(p, dest / p.relative_to(played))
    if (played / "legatus.db").exists():
        db = sqlite3.connect(played / "legatus.db")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        text = "\n".join(db.iterdump())
        db.close()
        (dest / "legatus.sql").write_text(f"PRAGMA user_version={version};\n{text}\n", encoding="utf-8")


def downgraded(old_root: Path) -> dict[str, object]:
    """A journal-era card updated (by this code), then run again by the journal-era Legatus, which
    sees none of the games and journals new ones: journal_after_downgrade."""
    code = old_root / "old_88523287"
    with tempfile.TemporaryDirectory() as tmp:
        played = Path(tmp) / "state"
        script = (SCRIPTS / "mid_bag.txt").read_text(encoding="utf-8").splitlines()
        run(code, played, False, ["settings language=uk", *script])
        run(HERE.parent.parent.parent, played, False, ["state"])
        run(code, played, False, ["new dice seed=5", "roll 2d6", "new bag items=a*2,b*2 seed=6", "draw 1"])
        dump(played, HERE / "journal_after_downgrade")
        said = run(code, played, False, ["state", "draw 1"])
    return {"revision": "88523287", "requests": [x[0] for x in said], "answers": [x[1] for x in said]}


def main(old_root: Path) -> None:
    answers = {"journal_after_downgrade": downgraded(old_root)}
    for name, (rev, lang, people, scripts, asks) in FIXTURES.items():
        code = old_root / f"old_{rev}"
        with tempfile.TemporaryDirectory() as tmp:
            played = Path(tmp) / "state"
            lines = [f"settings language={lang}"]
            for script in scripts:
                lines += (SCRIPTS / f"{script}.txt").read_text(encoding="utf-8").splitlines()
            run(code, played, people, [x for x in lines if x.strip()])
            dump(played, HERE / name)
            said = run(code, played, people, ["state", *asks])
            answers[name] = {"revision": rev, "requests": [x[0] for x in said], "answers": [x[1] for x in said]}
    text = json.dumps(answers, ensure_ascii=False, indent=0, sort_keys=True)
    (HERE / "old_answers.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
