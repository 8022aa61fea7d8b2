"""The new user's first hour: what README.md and docs/ show must be what the program does now."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from scripts import screenshots

ROOT = Path(__file__).resolve().parents[1]
SCREENS = ROOT / "docs" / "screens"


def _shots() -> list[tuple[str, list[str], list[str], str]]:
    by_name = {name: (setup, keys) for name, setup, keys in screenshots.SHOTS}
    return ([(name, setup, keys, "en") for name, setup, keys in screenshots.SHOTS]
            + [(f"{name}-{lang}", *by_name[name], lang) for lang in ("ru", "uk") for name in screenshots.LANG_SHOTS])


@pytest.mark.parametrize("name,setup,keys,lang", _shots(), ids=[s[0] for s in _shots()])
def test_the_tour_pictures_are_the_screens_of_today(name: str, setup: list[str], keys: list[str], lang: str,
                                                    tmp_path: Path) -> None:
    """docs/screens/*.png (the README's tour) were rendered by scripts/screenshots.py from this code:
    a screen or a seed's draws that changed since leaves a picture of a program that is gone."""
    img = screenshots.shoot(name, setup, keys, tmp_path, lang)
    stored = Image.open(SCREENS / f"{name}.png").convert("1")
    assert stored.size == img.size == (128, 64)
    diff = ImageChops.logical_xor(img.convert("1"), stored)
    assert diff.getbbox() is None, (f"docs/screens/{name}.png is out of date (pixels differ in {diff.getbbox()}): "
                                    "run .venv/bin/python scripts/screenshots.py and look at the pictures")


def test_the_caesar_home_picture_is_the_home_screen(tmp_path: Path) -> None:
    """The README's caption says 'Caesar!: your move': his unseen play opens first, so the shot
    must go through it to the game's home."""
    setup, keys = {n: (s, k) for n, s, k in screenshots.SHOTS}["caesar-home"]
    app_img = screenshots.shoot("caesar-home", setup, keys, tmp_path)
    # the home screen's title bar reads "Caesar!" with "solo" on its right: compare with the screen itself
    from firmware.app import App
    from firmware.console import Console
    from firmware.screens.caesar.home import CaesarHome
    from firmware.store import Store
    from tests.screens import on_dummy
    console = Console(Store(tmp_path / "home"), None)
    try:
        for line in setup:
            assert console.request(line)["ok"]
        his = console.request("state")["state"]["last_crassus_turn"]     # read, as the shot read it
        assert console.request(f"settings caesar.read={his['read_id']}:99")["ok"]
        app = App(console)
        app.push(CaesarHome())
        home = app.render()
    finally:
        console.close()
    assert ImageChops.logical_xor(on_dummy(app_img).convert("1"), on_dummy(home).convert("1")).getbbox() is None


def test_every_picture_and_link_of_the_readme_and_docs_exists() -> None:
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = md.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" in target:
                continue
            assert (md.parent / target).exists(), f"{md.relative_to(ROOT)} links to {target}, which does not exist"


def _cells(row: str) -> int:
    """The cells of a Markdown table row, as GitHub splits them: at every ``|`` not escaped as
    ``\\|`` (a ``|`` inside backticks splits a cell too)."""
    return len(re.split(r"(?<!\\)\|", row.strip().removeprefix("|").removesuffix("|")))


def test_every_table_of_the_readme_and_docs_is_whole() -> None:
    """docs/protocol.md's table of how to start had its last row (``--state-dir DIR``) cut off by a
    paragraph, so it showed as a line of pipes; docs/protocol/jc.md's ``joins caesar|pompey`` split
    a cell, and the row lost its end. Each row of a table must follow the header or another row,
    with the header's number of cells."""
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        lines = md.read_text(encoding="utf-8").split("\n")
        in_code, header = False, 0
        for n, line in enumerate(lines, 1):
            if line.startswith("```"):
                in_code = not in_code
            if in_code or not line.startswith("|"):
                header = 0
                continue
            where = f"{md.relative_to(ROOT)}:{n}"
            if not header:
                assert n < len(lines) and re.fullmatch(r"\|[-:| ]+\|\s*", lines[n]), f"{where}: a table row outside a table"
                header = _cells(line)
            assert _cells(line) == header, f"{where}: {_cells(line)} cells where the header has {header}"


def test_every_option_of_legatus_and_its_subcommands_is_documented() -> None:
    """`legatus --help` had options no page named (--script, --config, --version): each option of
    `legatus`, `legatus console` and `legatus doctor` is in README.md or docs/, and each key name
    the README gives for --script is one the simulator takes."""
    import argparse

    from firmware.cli import _parser
    from firmware.screens.widgets.keys import KEYS
    docs = "\n".join(md.read_text(encoding="utf-8") for md in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])
    parser = _parser()
    parsers = {"legatus": parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            parsers.update({f"legatus {name}": sub for name, sub in action.choices.items()})
    for name, p in parsers.items():
        for action in p._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert re.search(re.escape(option) + r"\b", docs), f"{name} {option} is not in README.md or docs/"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"`--script FILE` \(.*?— `([^`]*)`", readme, re.S)
    assert said and sorted(said.group(1).split()) == sorted(KEYS), "the README's --script keys are the simulator's"


SCRIPTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "scripts").rglob("*.py")
                 if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_answers_help_with_its_usage(script: str) -> None:
    """`--help` prints a usage line and exits 0: it neither runs a benchmark of minutes nor ends
    in a traceback (bench_serial.py read it as a byte count, presses/caesar.py as a language)."""
    import subprocess
    import sys
    module = script[:-3].replace("/", ".")
    run = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "usage:" in run.stdout.lower(), (script, run.returncode, run.stdout[-300:], run.stderr[-300:])
    assert "Traceback" not in run.stderr


def test_caesar_difficulty_refuses_bad_tiles_with_a_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/caesar_difficulty.md's --tiles rerun: a wrong tile was a traceback (BadArguments)."""
    from scripts import caesar_difficulty
    with pytest.raises(SystemExit) as stop:
        caesar_difficulty.main(["--games", "1", "--tiles", "A:...;B:..."])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--tiles: tiles=: '...' on tile A is not an action" in err and "Command tiles" in err


@pytest.mark.parametrize("content,said", [(None, "cannot be read"), (b"xx\n", "not the JSON of 'export format=draws'"),
                                          (b"\xff\xfe", "not the JSON of 'export format=draws'")])
def test_verify_draws_says_what_is_wrong_with_a_record_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            content: bytes | None, said: str) -> None:
    """docs/fairness.md, Checking: a missing, non-JSON or non-UTF-8 --record file was a traceback."""
    from scripts import verify_draws
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SystemExit) as stop:
        verify_draws.main(["--record", str(path)])
    assert stop.value.code == 2 and said in capsys.readouterr().err


def test_verify_draws_says_the_console_refused_the_export_rather_than_mismatch(tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The README's `export format=draws > record.json` on a device with no finished game keeps the
    console's refusal in the file; verify_draws.py then said "MISMATCH: not a draw record ('seed')",
    as if a draw did not match. It says the export was refused, and why (exit status 2)."""
    from scripts import verify_draws
    path = tmp_path / "record.json"
    path.write_text('{"ok":false,"error":"bad_arguments","message":"The history is empty: no game has finished yet."}\n')
    with pytest.raises(SystemExit) as stop:
        verify_draws.main(["--record", str(path)])
    out = capsys.readouterr()
    assert stop.value.code == 2 and "MISMATCH" not in out.out + out.err
    assert "the console refused the export (bad_arguments: The history is empty: no game has finished yet.)" in out.err


def test_verify_draws_checks_a_cyrillic_record_on_an_output_that_is_not_utf8(tmp_path: Path) -> None:
    """docs/fairness.md, Checking: a record with Russian bag items (the line and the draws name
    them) ended in a UnicodeEncodeError traceback, not a check, where the output is not UTF-8 (a C
    locale; on Windows, the script's output redirected to a file). Now such names are escaped."""
    import json
    import subprocess
    import sys

    from firmware.console import Console
    from firmware.store import Store
    console = Console(Store(tmp_path / "st"), None)
    try:
        for line in ("new bag items=золото*3,серебро*2 seed=5", "draw 2", "end"):
            assert console.request(line)["ok"], line
        record = console.request("export format=draws")["record"]
    finally:
        console.close()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run([sys.executable, "scripts/verify_draws.py", "--record", str(path)], cwd=ROOT,
                         capture_output=True, timeout=60, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    out = run.stdout.decode("ascii")
    assert run.returncode == 0 and "2 draws checked: all match" in out, run.stderr[-600:]
    assert "\\u0437\\u043e\\u043b" in out           # золото, escaped


@pytest.mark.parametrize("code", ["zz", "725c15c", "725c15cd" + "0" * 57, "725c15cg"])
def test_verify_draws_refuses_a_code_that_is_no_commitment_rather_than_calling_it_a_mismatch(
        capsys: pytest.CaptureFixture[str], code: str) -> None:
    """docs/fairness.md, Checking: a code of the wrong length or with a letter past f was answered
    "commitment (given) MISMATCH", as if the device had cheated, where the code was mistyped."""
    from scripts import verify_draws
    with pytest.raises(SystemExit) as stop:
        verify_draws.main(["--seed", "16606857429674130743", "--commitment", code])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert "8 to 64 hex characters" in captured.err and "MISMATCH" not in captured.out
    assert verify_draws.main(["--seed", "16606857429674130743", "--commitment", "725C15CD"]) == 0   # any case


@pytest.mark.parametrize("argv,said", [
    (["scripts/screenshots.py", "--game", "bogus"], "invalid choice: 'bogus'"),
    (["scripts/bench_storage.py", "--only", "bogus"], "--only: no case bogus"),
    # a count below its least ran as nonsense or a traceback: --games 0 divided by zero, --games -3
    # printed a table of negative games, a language the harness refused was an AssertionError
    (["scripts/caesar_difficulty.py", "--games", "0"], "--games: 0 is below the least allowed, 1"),
    (["scripts/caesar_difficulty.py", "--games", "-3"], "--games: -3 is below the least allowed, 1"),
    (["scripts/caesar_fuzz.py", "--games", "-1"], "--games: -1 is below the least allowed, 0"),
    (["scripts/bench_presses.py", "--lang", "xx"], "invalid choice: 'xx'"),
    (["scripts/bench_serial.py", "-5"], "bytes: -5 is below the least allowed, 1"),
    (["scripts/bench_storage.py", "--history", "-3"], "--history: -3 is below the least allowed, 0"),
    (["scripts/bench_storage.py", "--actions", "x"], "--actions: 'x' is not a whole number"),
    (["scripts/screenshots.py", "/proc/legatus-shots"], "cannot write the pictures to /proc/legatus-shots"),
    (["scripts/storage_faults.py", "bitflip", "--trials", "-1"], "--trials: -1 is below the least allowed, 1"),
    (["scripts/storage_faults.py", "inject", "--step", "0"], "--step: 0 is below the least allowed, 1"),
    (["scripts/i18n.py", "compile", "legatuss"], "no catalog legatuss"),
    (["scripts/i18n.py", "check", "legatus"], "check (no arguments)"),
])
def test_a_script_refuses_an_unknown_name_with_a_usage_line(argv: list[str], said: str) -> None:
    """screenshots.py --game bogus was a ModuleNotFoundError traceback; bench_storage.py --only
    bogus printed an empty table; bad counts and an output directory that cannot be made, below."""
    import subprocess
    import sys
    run = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr, run.stderr[-500:]


# -- the console examples of the docs, run against the real console ---------------------------------
PROTOCOL_DOCS = [ROOT / "docs" / "protocol.md", *sorted((ROOT / "docs" / "protocol").glob("*.md"))]


def _examples() -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Every code block of the protocol docs with requests (``> line``) and the README's console
    example (``printf '…' | legatus console``): (where, [(request, the reply shown or None)]). A reply
    may run over several lines (joined without their indent); ``< `` before it is optional."""
    found: list[tuple[str, list[tuple[str, str | None]]]] = []
    for md in PROTOCOL_DOCS:
        text = md.read_text(encoding="utf-8")
        for block in re.finditer(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
            steps: list[tuple[str, str | None]] = []
            for line in block.group(1).splitlines():
                if line.startswith("> "):
                    steps.append((line[2:].rstrip(), None))
                elif steps and line.strip():
                    part = line.removeprefix("< ").strip()
                    request, shown = steps[-1]
                    steps[-1] = (request, part if shown is None else shown + part)
            if steps:
                found.append((f"{md.relative_to(ROOT)}:{text[:block.start()].count(chr(10)) + 1}", steps))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^\$ printf '([^']*)' \| \.venv/bin/legatus console\n(.*?)^```", readme, re.S | re.M)
    assert block, "the README's console example is gone"
    requests = block.group(1).split("\\n")[:-1]
    replies = [re.sub(r"\s+<- .*$", "", line).strip() for line in block.group(2).splitlines()]
    assert len(requests) == len(replies), "the README shows a reply for each request"
    found.append(("README.md", list(zip(requests, replies))))
    return found


def _shown_as_pattern(shown: str) -> str:
    """A reply as the docs show it: exact bytes, but ``...`` or ``…`` stands for anything left out."""
    return "".join(".*?" if part in ("...", "…") else re.escape(part) for part in re.split(r"(\.\.\.|…)", shown))


@pytest.mark.parametrize("where,steps", _examples(), ids=[e[0] for e in _examples()])
def test_every_console_example_of_the_docs_is_what_the_console_answers(
        where: str, steps: list[tuple[str, str | None]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/protocol.md, docs/protocol/*.md and the README show requests and their replies: each
    block, run from a fresh state directory, gives those replies byte for byte (but where ``...`` or
    ``…`` leaves a part out), and a request shown without its reply succeeds. Their replies had
    gone stale (a state without ``people``, History without ``role``, a battle whose dice had
    changed with the draws' streams, examples that could not run without what came before)."""
    import json
    import time

    import firmware.history
    from firmware.console import Console
    from firmware.store import Store
    monkeypatch.setattr(firmware.history, "_now", lambda: "2026-11-23T02:40:25Z")   # the History example's time,
    monkeypatch.setattr(firmware.history, "_clock_unsynced", lambda: False)          # with the clock set,
    monkeypatch.setenv("TZ", "Europe/Rome")                                          # in Rome (playDate is local)
    time.tzset()
    console = Console(Store(tmp_path), None)
    try:
        for request, shown in steps:
            reply = console.request(request)
            got = json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
            if shown is None:
                assert reply["ok"], (where, request, got)
            else:
                assert re.fullmatch(_shown_as_pattern(shown), got, re.S), (where, request, shown, got)
    finally:
        console.close()
        monkeypatch.undo()          # TZ as it was, and the clock read again in it
        time.tzset()


def test_the_readmes_export_commands_write_a_sheet_and_a_record_that_checks(tmp_path: Path) -> None:
    """The README said `export format=csv` gives a sheet a spreadsheet opens as it is, but the
    console answers a JSON line with the sheet inside: its commands to files, run as written (with
    this test's Python for `.venv/bin/…` and `python3`), give a UTF-8 sheet with a byte-order
    mark and CRLF, and a draw record verify_draws.py checks."""
    import csv
    import subprocess
    import sys
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## History and fair draws"):readme.index("## A tour of the screens")]
    commands = [line[2:] for line in section.splitlines() if line.startswith("$ ")]
    assert len(commands) == 3, commands
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LEGATUS_STATE_DIR": str(tmp_path / "st")}
    legatus = [sys.executable, "-m", "firmware.cli", "console"]
    subprocess.run(legatus, input="commit\nnew bag items=золото*3,silver*2 share=3-1-6\ndraw 2\nend\n", text=True,
                   env=env, check=True, capture_output=True, timeout=60)
    (tmp_path / "scripts").symlink_to(ROOT / "scripts")
    for command in commands:
        command = command.replace(".venv/bin/legatus console", " ".join(legatus)).replace("python3 ", f"{sys.executable} ")
        run = subprocess.run(["sh", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, (command, run.stdout[-500:], run.stderr[-500:])
    sheet = (tmp_path / "history.csv").read_bytes()
    assert sheet.startswith(b"\xef\xbb\xbfid,game,") and b"\r\n" in sheet
    rows = list(csv.DictReader(sheet.decode("utf-8-sig").splitlines()))
    assert [(r["game"], r["status"], r["share"]) for r in rows] == [("bag", "ended", "3-1-6")]
    assert "2 draws checked: all match" in run.stdout


def test_i18n_update_of_a_domain_the_code_does_not_use_writes_nothing() -> None:
    """`scripts/i18n.py update legatuss` (a typo) wrote and compiled empty legatuss.po/.mo catalogs
    for both languages; now it names the domains there are and changes nothing."""
    import subprocess
    import sys
    locale = ROOT / "firmware" / "locale"
    before = sorted(p.name for p in locale.rglob("*") if p.is_file())
    try:
        run = subprocess.run([sys.executable, "scripts/i18n.py", "update", "legatuss"], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 2 and "no domain legatuss" in run.stderr and "legatus" in run.stderr, run.stderr
        assert sorted(p.name for p in locale.rglob("*") if p.is_file()) == before
    finally:                    # a failing run must not leave the typo's catalogs in the tree
        for made in locale.glob("*/LC_MESSAGES/legatuss.*"):
            made.unlink()


# -- the menu paths the docs give (Settings → Language, History → Fair draw → Show the seed…) ------
ROOTS = ["main menu", "Games", "Dice & bags", "Log", "Settings", "About", "History"]


def _menu_paths() -> list[tuple[str, str]]:
    """Every ``A → B → …`` of README.md and docs/ that starts at an entry of the main menu (or
    "main menu"): (where, the text from that entry on, lines joined)."""
    found = []
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = " ".join(md.read_text(encoding="utf-8").replace("*", "").split())
        for m in re.finditer(r"(?<![\w&])(" + "|".join(map(re.escape, ROOTS)) + r") → ", text):
            found.append((f"{md.relative_to(ROOT)}: …{text[m.start():m.start() + 70]}…", text[m.start():]))
    return found


def _bare_app(root: Path) -> Any:
    from firmware.app import App
    from firmware.console import Console
    from firmware.store import Store
    console = Console(Store(root), None)
    assert console.request("settings language=en")["ok"]
    return App(console)


# the states a documented path may need: none; a game running without a seed, nothing drawn (Fair
# draw: Players' share…, Show the seed…); one that drew; an ended one (History: Send the draw record)
MENU_STATES = [[], ["commit", "new bag items=a*3"], ["new bag items=a*3", "draw"], ["new bag items=a*3", "draw", "end"]]


def _walk(app: Any, text: str) -> str | None:
    """Follow the path ``text`` starts with from the main menu: after each ``→`` the longest label
    of the screen's rows that the text goes on with (its trailing … optional); the path ends where
    no ``→`` follows that label. None when it leads through, else what failed. A step that names
    no row but "a …"/"an …" (History → a game) is any row: the walk ends there."""
    if not text.startswith("main menu → "):
        text = "main menu → " + text
    done = "main menu"
    rest = text[len("main menu → "):]
    while True:
        screen = app.stack[-1]
        if not hasattr(screen, "items"):
            return f"{done!r} opens no list"
        if re.match(r"an? ", rest):
            return None
        rows = [r for r in screen.items(app) if r.label]
        fits = [r for r in rows if re.match(re.escape(str(r.label).rstrip("…")) + r"(?!\w)", rest, re.I)]
        if not fits:
            return f"no row {rest[:30]!r} after {done!r}; its rows: {[str(r.label) for r in rows]}"
        row = max(fits, key=lambda r: len(str(r.label)))
        rest = rest[len(str(row.label).rstrip("…")):].removeprefix("…")
        done += f" → {row.label}"
        if not rest.startswith(" → "):
            return None
        rest = rest[len(" → "):]
        assert row.run is not None, done
        row.run(app)


def test_every_menu_path_of_the_readme_and_docs_is_on_the_device(tmp_path: Path) -> None:
    """The docs send the reader down menu paths (Settings → Language, History → Fair draw → Show
    the seed…, Games → Earlier games): each path leads through rows the device shows, in one of
    a few states (a game running with its seed secret, one ended)."""
    from firmware.i18n import set_language
    paths = _menu_paths()
    assert len(paths) >= 15, paths
    from firmware.screens.menu import MainMenu
    app = _bare_app(tmp_path / "menu")
    try:
        entries = {str(r.label) for r in MainMenu().items(app)}
        assert set(ROOTS[1:]) - {"Log"} <= entries and "Log" not in entries, "the main menu's entries changed"
        assert app.console.request("new dice")["ok"]        # the Log: only while a session runs
        app._view_stale = True
        assert set(ROOTS[1:]) <= {str(r.label) for r in MainMenu().items(app)}, "the main menu's entries changed"
    finally:
        app.console.close()
    apps = []
    for n, setup in enumerate(MENU_STATES):
        app = _bare_app(tmp_path / str(n))
        for line in setup:
            assert app.console.request(line)["ok"], line
        apps.append(app)
    try:
        for where, text in paths:
            failed = []
            for app in apps:
                app.to_root()
                why = _walk(app, text)
                if why is None:
                    break
                failed.append(why)
            else:
                pytest.fail(f"{where}: {failed}")
    finally:
        for app in apps:
            app.console.close()
        set_language("en")


# -- what the docs name: files, and the options of the scripts they run ------------------------------
NAMED_BUT_GONE = {"firmware/store.py": "README.md's history of the module that became the package firmware/store/"}


def _docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_file_the_readme_and_docs_name_exists() -> None:
    """A path of this repository the docs name (`firmware/dice_guess.py`, `hw/profiles.toml`,
    `engine/data/julius_caesar_{blocks,map,cards}.json`) is there: a module moved or renamed
    leaves the reader looking for it."""
    named = 0
    for md in _docs():
        text = md.read_text(encoding="utf-8")
        for m in re.finditer(r"(?<![\w/.~$-])((?:engine|firmware|hw|scripts|tests|docs)/[\w./{},-]*)", text):
            path = m.group(1).rstrip(".,")
            if path in NAMED_BUT_GONE or "<" in text[m.end():m.end() + 1]:
                continue
            brace = re.search(r"\{([^}]*)\}", path)
            for each in ([path[:brace.start()] + part + path[brace.end():] for part in brace.group(1).split(",")]
                         if brace else [path]):
                named += 1
                assert (ROOT / each).exists(), f"{md.relative_to(ROOT)} names {each}, which does not exist"
    assert named > 100
    for path in NAMED_BUT_GONE:
        assert not (ROOT / path).exists(), f"{path} exists again: take it out of NAMED_BUT_GONE"


def test_every_option_the_docs_give_a_script_is_one_it_takes() -> None:
    """`scripts/soak.py --games 4 --presses 20000 --trace`, `scripts/verify_draws.py --record …`:
    each option the docs write after a script is in that script's --help."""
    import subprocess
    import sys
    given: dict[str, set[str]] = {}
    for md in _docs():
        text = md.read_text(encoding="utf-8")
        spans = re.findall(r"`([^`]*scripts/[\w/]+\.py[^`]*)`", text)
        spans += re.findall(r"^\s*(?:\$ )?(?:\.venv/bin/)?python3? (scripts/[\w/]+\.py.*)$", text, re.M)
        for span in spans:
            m = re.search(r"(scripts/[\w/]+\.py)(.*)", span)
            assert m
            given.setdefault(m.group(1), set()).update(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", m.group(2)))
    assert sum(map(len, given.values())) >= 15, given
    for script, options in sorted(given.items()):
        if not options:
            continue
        run = subprocess.run([sys.executable, "-m", script[:-3].replace("/", "."), "--help"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert not [o for o in options if not re.search(re.escape(o) + r"\b", run.stdout)], (script, options, run.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("edition,heading", [("mixed", "# How strong is Auto-Crassus?"),
                                             ("ru", "Russian rulebook (`--edition ru`):"),
                                             ("uk", "Ukrainian rulebook (`--edition uk`):")])
def test_the_difficulty_tables_are_what_the_script_measures_now(capsys: pytest.CaptureFixture[str], edition: str,
                                                                heading: str) -> None:
    """docs/caesar_difficulty.md's tables (1,000 games each, seed 0) are the script's output for
    this code, row for row: the mixed rules' table had a figure of an older Auto-Crassus (hard,
    base game: 14.5 turns a game, now 14.4)."""
    from scripts import caesar_difficulty
    doc = (ROOT / "docs" / "caesar_difficulty.md").read_text(encoding="utf-8")
    after = doc[doc.index(heading):]
    table = re.search(r"^(\| game \|.*?)\n(?!\|)", after, re.S | re.M)
    assert table
    caesar_difficulty.main(["--games", "1000", "--markdown", "--edition", edition])
    measured = [line for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    assert measured == table.group(1).splitlines()


def test_the_pin_table_of_hardware_md_is_the_profiles() -> None:
    """docs/hardware.md's table of the keys' BCM pins per board is hw/profiles.toml's, key for key
    (a HAT wired by the page and run by the profile must answer)."""
    import tomllib
    profiles = tomllib.loads((ROOT / "hw" / "profiles.toml").read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    header = re.search(r"^\| logical key \|(.*)\|$", page, re.M)
    assert header
    boards = [c.strip().strip("`") for c in header.group(1).split("|")]
    assert sorted(boards) == sorted(profiles), boards
    rows = re.findall(r"^\| `(\w+)` +\|(.*)\|$", page[header.end():page.index("| display")], re.M)
    for board_index, board in enumerate(boards):
        shown = {}
        for key, cells in rows:
            pin = re.match(r"\s*(\d+)", cells.split("|")[board_index])
            if pin:
                shown[key] = int(pin.group(1))
        assert shown == profiles[board]["pins"], (board, shown)


def test_the_readme_names_the_python_the_package_requires() -> None:
    """A new user with Python 3.10 got only pip's "requires a different Python" after following the
    README: it says which Python first, the one setup.cfg requires."""
    import configparser
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    least = re.fullmatch(r">=\s*(\d+\.\d+)", cfg["options"]["python_requires"].strip())
    assert least
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    before = readme[:readme.index("The first command starts the companion")]
    assert f"Python {least.group(1)} or newer" in before and f"python{least.group(1)} -m venv" in before.replace("\n", " ")


@pytest.mark.parametrize("setup", [[], ["new bag items=a*3 cards=x*2"], ["new dice"], ["new caesar-solo side=caesar seed=1"],
                                   ["new caesar-duel seed=1"], ["new jc-battle attacker=caesar seed=1"],
                                   ["new glory players=Ann,Bob,Cy seed=1"], ["new sword players=romans,gauls seed=1"]],
                         ids=["none", "bag", "dice", "caesar-solo", "caesar-duel", "jc-battle", "glory", "sword"])
def test_every_command_help_lists_is_in_the_protocol_docs(setup: list[str], tmp_path: Path) -> None:
    """`help` lists the commands of the session's game; each is documented (`name …` in
    docs/protocol.md or docs/protocol/<game>.md), and docs/protocol.md's list of games for `new`
    is the console's."""
    from firmware.console import Console
    from firmware.store import Store
    docs = "\n".join(md.read_text(encoding="utf-8") for md in PROTOCOL_DOCS)
    console = Console(Store(tmp_path), None)
    try:
        for line in setup:
            assert console.request(line)["ok"], line
        commands = console.request("help")["commands"]
        refused = console.request("new no-such-game")
    finally:
        console.close()
    assert len(commands) > 15
    assert not [c for c in commands if not re.search(r"`" + re.escape(c) + r"[ `\[]", docs)]
    games = re.search(r"Games: (.*)\.$", refused["message"])
    assert games, refused
    listed = re.search(r"Games: ((?:`[\w-]+`(?:, )?)+)\.", docs)
    assert listed and sorted(re.findall(r"`([\w-]+)`", listed.group(1))) == sorted(games.group(1).split(", "))


def test_the_settings_docs_protocol_md_lists_are_the_devices() -> None:
    """docs/protocol.md's `settings` row gives each setting's values and the free options' limits:
    they are firmware/settings.py's (a value added or dropped there left the page behind)."""
    from firmware import settings
    row = next(line for line in (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `settings "))
    for key, (_default, allowed, _label) in settings.SETTINGS.items():
        shown = re.search(rf"`{key}` ([\w/–-]+)", row)
        assert shown, key
        values = shown.group(1)
        if "–" in values:
            low, high = values.split("–")
            assert list(allowed) == [str(n) for n in range(int(low), int(high) + 1)], (key, values)
        else:
            assert values.split("/") == list(allowed), (key, values)
    limits = re.search(r"a name of at most (\d+) characters, a value of at most (\d+), at most (\d+) of them", row)
    assert limits and tuple(map(int, limits.groups())) == (settings.MAX_KEY, settings.MAX_VALUE, settings.MAX_FREE)
