"""A script file sent to the console as a scripter makes one: saved by Windows Notepad or
PowerShell as "UTF-8" it starts with a byte-order mark (docs/protocol.md, Framing), piped into
``legatus console``, or written to the device's serial link (``cat script.txt > /dev/ttyACM0``)."""
from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_console

BOM = b"\xef\xbb\xbf"


@pytest.fixture
def pty() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_a_script_saved_with_a_byte_order_mark_runs_from_its_first_line(state_dir: Path):
    """Its first line was the unknown command '\\ufeffnew' ("did you mean 'new'?"), and the lines
    after it ran on whatever session the device held: here the draw came from an older bag."""
    run_console(state_dir, ["new bag items=old*5 seed=1"])
    script = BOM + b"new bag items=gold*3,silver*2 seed=7\r\ndraw 2\r\n" + BOM + b"# a second file, cat'ed on\r\nstate\r\n"
    new, draw, state = run_console(state_dir, script)
    assert new["ok"] and new["game"] == "bag", new
    assert draw["ok"] and set(draw["drawn"]) <= {"gold", "silver"}
    left = state["state"]["bag"]["left"]
    assert set(left) <= {"gold", "silver"} and sum(left.values()) == 3      # the new bag's, not the old one's


def test_a_line_of_a_byte_order_mark_alone_gets_no_reply(state_dir: Path):
    assert run_console(state_dir, BOM + b"\r\n" + BOM + b"   \nversion\n" + BOM) == [
        {"ok": True, "version": run_console(state_dir, ["version"])[0]["version"], "protocol": 1}]


def test_the_device_serial_link_reads_a_script_with_a_byte_order_mark(pty: tuple[int, str]):
    """On the device (``legatus --serial``) too: the serial reader queues the line without it."""
    from firmware.serial_reader import serial_reader
    from hw.serial_link import SerialLink, open_serial
    master, path = pty
    link = SerialLink(path, port=open_serial(path), reopen=False)
    events: queue.Queue = queue.Queue()
    threading.Thread(target=serial_reader, args=(link, events), daemon=True).start()
    os.write(master, BOM + b"new dice seed=1\r\n" + BOM + b"# comment\r\nroll 1d6\r\n")
    got = [events.get(timeout=10)[1] for _ in range(2)]
    assert got == [b"new dice seed=1", b"roll 1d6"]
    assert events.empty()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_script_in_utf16_is_refused_saying_so_and_changes_nothing(state_dir: Path, encoding: str):
    """Windows PowerShell 5 writes ``>`` and ``Out-File`` in UTF-16: each line was "not valid UTF-8
    (byte 1)" or "contains a NUL character", which did not say what to change."""
    run_console(state_dir, ["new bag items=old*5 seed=1"])
    script = "new bag items=gold*3 seed=7\r\ndraw 2\r\n".encode(encoding)
    replies = run_console(state_dir, script)
    assert replies and all(r["error"] == "bad_arguments" for r in replies)
    assert sum("UTF-16" in r["message"] for r in replies) >= 2, replies      # (a lone NUL between CR and LF: a NUL)
    assert run_console(state_dir, ["state"])[0]["state"]["bag"]["left"] == {"old": 5}


def test_the_utf16_refusal_is_said_in_the_devices_language(console):
    assert console.request("settings language=uk")["ok"]
    said = console.handle_bytes("version".encode("utf-16-le"))
    assert said is not None and "Рядок у UTF-16" in said and '"bad_arguments"' in said


@pytest.mark.parametrize("lang,typed,meant,said", [
    ("ru", "ыефеу", "state", "клавиатура была в другой раскладке; может быть, «state»?"),
    ("ru", "туц вшсу ыуув=1", "new", "может быть, «new»?"),
    ("uk", "вкфц 2", "draw", "клавіатура була в іншій розкладці; можливо, «draw»?"),
    ("uk", "іцщкв-ефсешсі 3", "sword-tactics", "можливо, «sword-tactics»?"),   # (і where Russian has ы)
    ("en", "руды", "help", "the keyboard was in another layout; did you mean 'help'?"),
])
def test_a_command_typed_in_the_cyrillic_layout_names_the_one_meant(console, lang: str, typed: str, meant: str,
                                                                   said: str):
    """A player at a laptop whose layout was left on Russian or Ukrainian types «ыефеу» for
    "state": it was only an unknown command, with no hint (the typo hint compares letters)."""
    assert console.request(f"settings language={lang}")["ok"]
    out = console.request(typed)
    assert out["error"] == "unknown_command" and said in out["message"], out
    assert console.request("state")["error"] == "no_session"                  # nothing was run


def test_a_cyrillic_word_that_is_no_command_in_any_layout_gets_no_guess(console):
    out = console.request("помощь")
    assert out["error"] == "unknown_command" and "layout" not in out["message"] and "mean" not in out["message"]


def test_a_russian_name_typed_with_e_for_yo_names_the_player(console):   # G-5 fame, G-7 the Senate
    """«fame Семен +1» for the player «Семён» was "Нет игрока «Семен»": Russian writes е for ё
    (ё sits far in a keyboard's corner), so a scripter typing the names the players gave met it."""
    assert console.request("settings language=ru")["ok"]
    assert console.request("new glory players=Семён,Алёна,Вера seed=1")["ok"]
    out = console.request("fame Семен +2")
    assert out["ok"] and out["fame"]["Семён"] == 3, out
    assert console.request("vote алена")["senate"] == ["Алёна"]
    assert console.request("actions")["actions"][0]["line"] == "vote алена"      # (as typed, as a name's case is)


def test_e_for_yo_never_picks_between_two_players(console):
    # A set-up asked now refuses the two as one name (firmware/players.py: one rule for every look-up);
    # a game stored before that named two players so still replays, and each is named by their spelling.
    r = console.request("new glory players=Семён,Семен,Вера seed=1")
    assert r["error"] == "bad_arguments" and "one name" in r["message"], r
    from tests.test_glory_helpers import new, run
    state = new("players=Семён,Семен,Вера")                      # (a stored line: not asked)
    assert run(state, "fame Семен +1")["fame"] == {"Семён": 1, "Семен": 2, "Вера": 1}
    assert run(state, "fame СЕМЁН +1")["fame"] == {"Семён": 2, "Семен": 2, "Вера": 1}


@pytest.mark.parametrize("line", ["roll\u00a02d6 seed=1", "new\u00a0dice seed=1", "roll\u202f2d6\u00a0seed=1",
                                  "roll\u30002d6 seed=1"])
def test_a_request_copied_with_no_break_spaces_runs_as_typed_with_spaces(console, line: str):
    """Copied from a web page, a chat or a Russian text (a no-break space after a short word; macOS
    types one for Option+Space), 'roll\\u00a02d6' looked right and was the unknown command 'roll 2d6'
    (did you mean 'roll'?). Now run, journaled and answered as the line with spaces."""
    plain = console.request(line.replace("\u00a0", " ").replace("\u202f", " ").replace("\u3000", " "))
    assert plain["ok"], plain
    out = console.request(line)
    assert out["ok"], out
    assert {k: v for k, v in out.items() if k != "state"} == {k: v for k, v in plain.items() if k != "state"}
    if "state" in out and out["state"]["game"] == "dice" and out["state"]["rolls"]:
        assert console.request("actions")["actions"][0]["line"] == "roll 2d6 seed=1"


def test_a_line_of_no_break_spaces_is_answered_as_nothing_done(console):
    out = console.request("\u00a0\u00a0")
    assert out["error"] == "bad_arguments" and out["message"] == "The line holds only spaces; nothing was done."


@pytest.mark.parametrize("lang,quotes,said", [
    ("en", "“{}”", 'its quotes must be straight ("), not “”.'),
    ("ru", "«{}»", 'кавычки в нём должны быть прямые ("), а не «».'),
    ("uk", "„{}“", 'лапки в ньому мають бути прямі ("), а не “„.'),
])
def test_json_with_typographic_quotes_says_they_must_be_straight(console, lang: str, quotes: str, said: str):  # C-13
    """A position copied from a word processor or a chat has “ ” (a Russian text «»): the refusal
    said only where the JSON stopped parsing (line 1, column 2)."""
    assert console.request(f"settings language={lang}")["ok"]
    assert console.request("new caesar-solo side=caesar difficulty=easy seed=1")["ok"]
    before = console.request("state")["state"]
    q = quotes.format
    out = console.request("position {" + q("human_side") + ": " + q("pompey") + "}")
    assert out["error"] == "bad_json" and said in out["message"], out
    assert console.request("state")["state"] == before


@pytest.mark.slow
def test_a_scripters_session_over_the_serial_console_on_a_pty(tmp_path: Path, pty: tuple[int, str]):
    """`legatus console --serial PORT` as a scripter drives it from a laptop: a script saved with a
    byte-order mark, CR, LF and CRLF line ends, a line split across writes, a 64 KB line, garbage
    bytes, a UTF-16 line, a no-break space, numbers written otherwise, Cyrillic in ru: one reply
    per line, ending as its request did, each refusal changing nothing, and the program goes on."""
    import json
    import select
    import subprocess
    import sys
    import time

    from tests.conftest import ROOT
    master, path = pty
    proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "console", "--serial", path, "--state-dir",
                             str(tmp_path / "s")], cwd=ROOT, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stderr is not None and b"ready" in proc.stderr.readline()    # the port is open
        got = bytearray()

        def ask(*writes: bytes, n: int = 1) -> list[bytes]:
            for w in writes:
                os.write(master, w)
                time.sleep(0.05)
            out: list[bytes] = []
            end = time.monotonic() + 30
            while len(out) < n and time.monotonic() < end:
                if b"\n" in got:
                    i = got.index(b"\n") + 1
                    out.append(bytes(got[:i]))
                    del got[:i]
                    continue
                if select.select([master], [], [], 0.2)[0]:
                    got.extend(os.read(master, 65536))
            assert len(out) == n, (writes, out)
            return out

        def one(*writes: bytes) -> dict:
            return json.loads(ask(*writes)[0])

        assert one(BOM + b"new bag items=gold*3,silver*2 seed=7\r\n")["game"] == "bag"
        state = one(b"state\n")["state"]
        assert ask(b"draw 02\r")[0].endswith(b"}\r\n")                       # CR in, CRLF out
        assert one(b"draw +1\r\n")["error"] == "bad_arguments"
        assert one(b"dr", b"aw ", b"1\n")["drawn"]                           # a line split across writes
        assert one(b"undo\n")["ok"]
        assert one(b"x" * 65536 + b"\n")["error"] == "line_too_long"
        assert one(b"\xff\xfe\x80garbage\n")["error"] == "bad_arguments"
        assert "UTF-16" in one("state".encode("utf-16-le") + b"\n")["message"]
        assert one("state\u00a0\n".encode())["state"] == state
        assert one("settings language=ru\n".encode())["ok"]
        assert "может быть, «state»" in one("ыефеу\n".encode())["message"]
        assert one("put золото\n".encode())["error"] == "illegal_move"
        assert one(b"reveal\n")["error"] == "illegal_move"
        assert one(b"state\n")["state"] == state                             # every refusal changed nothing
        assert one(b"end\n")["ok"] and one(b"reveal\n")["seed"] == 7
        assert one(b"undo\n")["error"] == "game_over"
        assert one(b"quit\n") == {"ok": True, "bye": True}
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("typed", ["Мар'яна", "мар’яна", "МАРʼЯНА"])
def test_a_ukrainian_name_is_named_with_any_apostrophe(console, typed: str):   # G-5 fame
    """«Марʼяна» set up with one apostrophe was "Немає гравця «Мар'яна»" when typed with another
    (' on a laptop, ’ on a phone, ʼ the Ukrainian layout's)."""
    assert console.request("settings language=uk")["ok"]
    assert console.request("new glory players=Марʼяна,Дарія seed=1")["ok"]
    out = console.request(f"fame {typed} +2")
    assert out["ok"] and out["fame"]["Марʼяна"] == 3, out
