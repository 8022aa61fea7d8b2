"""The console protocol end to end through a subprocess: framing, every error code, junk input."""
import json
import os
import random
import subprocess

import pytest

from firmware.console_lines import MAX_LINE, answered, edited
from tests.conftest import ROOT, console_cmd, run_console


def test_common_commands_end_to_end(state_dir):
    r = run_console(state_dir, [
        "help", "version", "roll 2d6+1", "new bag items=gold*3,silver*2,bronze seed=7",
        "draw 2", "state", "undo", "draw 2", "put gold", "log 3", "roll 1d20"])
    help_, ver, roll, new, draw, state, undo, redraw, put, log, roll2 = r
    assert {"help", "version", "new", "state", "undo", "log", "roll"} <= set(help_["commands"])
    assert ver == {"ok": True, "version": ver["version"], "protocol": 1}
    assert len(roll["dice"]) == 2 and roll["total"] == sum(roll["dice"]) + 1
    assert new["game"] == "bag" and new["state"]["bag"]["size"] == 6
    assert state["state"]["bag"]["size"] == 4
    assert undo["undone"].startswith("Undone: Drew") and undo["state"]["bag"]["size"] == 6
    assert redraw["drawn"] == draw["drawn"]                       # undo never re-draws
    assert put["ok"] and "gold" in draw["drawn"]
    assert log["log"][-1] == "Put gold back in the bag." and len(log["log"]) == 3
    assert roll2["ok"] and roll2["state"]["rolls"][-1]["dice"] == roll2["dice"]


def test_a_roll_without_a_session_refuses_an_option_it_does_not_know(console):
    """Wrong options are bad_arguments (docs/protocol.md): without a session ``roll 2d6 foo=1``
    rolled as if nothing were wrong (in a session it was refused); ``seed=`` is its one option."""
    out = console.request("roll 2d6 foo=1")
    assert out["ok"] is False and out["error"] == "bad_arguments" and "foo" in out["message"]
    one, two = console.request("roll 2d6 seed=5"), console.request("roll 2d6 seed=5")
    assert one["ok"] and one == two and len(one["dice"]) == 2


def test_session_survives_restart_with_the_same_state(state_dir):
    first = run_console(state_dir, ["new bag items=a*9,b*9 seed=1", "draw 3", "roll 4d6", "state"])
    again = run_console(state_dir, ["state"])
    assert again[0]["state"] == first[-1]["state"]


def test_every_error_code(state_dir):
    r = run_console(state_dir, [
        "state", "undo", "log", "draw",                         # no_session
        "frobnicate",                                           # unknown_command
        "roll 3x6", "new", "new bag items=", "new nope",        # bad_arguments
        "new bag items=a*2 seed=1",
        "draw 3", "put zzz",                                    # illegal_move
        "undo",                                                 # nothing_to_undo
    ])
    codes = [x.get("error") for x in r]
    assert codes == ["no_session"] * 4 + ["unknown_command"] + ["bad_arguments"] * 4 + [
                     None, "illegal_move", "illegal_move", "nothing_to_undo"]
    assert all(x["message"] for x in r if not x["ok"])


def test_line_too_long_bad_utf8_and_framing(state_dir):
    data = (b"new dice seed=1\r\n" + b"\n" + b"# a comment\n" + b"roll " + b"9" * 5000 + b"\n"
            + b"\xff\xfe roll 1d6\n" + b"version\r\n" + b"x" * MAX_LINE + b"\n")
    r = run_console(state_dir, data)
    assert [x.get("error") for x in r] == [None, "line_too_long", "bad_arguments", None, "unknown_command"]
    assert "(byte 1)" in r[2]["message"]                 # counted from 1, as a person counts
    late = run_console(state_dir, b"version\xff\n")[0]
    assert late["error"] == "bad_arguments" and "(byte 8)" in late["message"]


def test_a_bare_cr_ends_a_line_on_stdin_as_on_the_serial_link(state_dir):
    """The same framing on both: CR, LF and CRLF each end one line (a CRLF never adds an empty one)."""
    r = run_console(state_dir, b"version\rnew bag items=a*2 seed=1\r\nstate\rfrobnicate\ndraw\r")
    assert [x.get("error") for x in r] == [None, None, None, "unknown_command", None]
    assert "'frobnicate'" in r[3]["message"] and r[4]["drawn"] == ["a"]


def test_a_reply_ends_in_crlf_when_its_request_ended_with_cr(state_dir):
    """A raw-mode terminal needs the CR to go back to the first column; LF requests get LF as before."""
    proc = subprocess.run(console_cmd(state_dir), input=b"version\rversion\nversion\r\nx\r", capture_output=True,
                          timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    out = proc.stdout
    assert out.count(b"\n") == 4 and out.count(b"}\r\n") == 3
    assert out.split(b"\n")[1].endswith(b"}") and out.endswith(b"}\r\n")


@pytest.mark.parametrize(("typed", "line"), [
    (b"verss\x7fion", b"version"),            # DEL: what most terminals send for Backspace
    (b"verss\x08ion", b"version"),            # BS (Ctrl-H)
    (b"roll 2d8\x7f\x7fd6", b"roll 2d6"),
    (b"\x7f\x08state", b"state"),             # at the start of a line: nothing to erase
    ("players forget Анна\x7f\x7fя".encode(), "players forget Аня".encode()),   # a whole letter, not a byte
    (b"ab\x7f\x7f\x7f", b""),                 # all erased (answered all the same: see below)
    (b"\xff\x80\x80\x7f", b"\xff\x80"),       # junk: one byte at a time (the UTF-8 error is reported)
])
def test_backspace_and_del_erase_the_character_before_them(typed: bytes, line: bytes) -> None:
    """A person at `screen` or PuTTY who mistypes presses Backspace: the terminal sends DEL (or BS)
    and shows the letter gone, so the line sent must be the one seen, not 'verss\\x7fion' (which
    answered unknown_command with the raw DEL in its message)."""
    assert edited(typed) == line


@pytest.mark.parametrize(("typed", "line"), [
    (b"draw 3\x15version", b"version"),        # Ctrl-U: the terminal's line kill
    (b"new bag items=a\x03state", b"state"),   # Ctrl-C: the line is abandoned, as at a shell
    (b"undo\x03", b""),                        # ... and nothing is run
    ("Анна\x15Аня".encode(), "Аня".encode()),
])
def test_ctrl_u_and_ctrl_c_discard_what_was_typed_before_them(typed: bytes, line: bytes) -> None:
    """A person who gives up on a line presses Ctrl-C (a shell abandons the line) or Ctrl-U (a
    terminal's kill character): what was typed before it was kept, glued to what followed (the
    line answered an error for the whole, never what the person typed last)."""
    assert edited(typed) == line


def test_a_line_erased_to_nothing_is_answered_and_changes_nothing(console):
    """PROTOCOL.md: every line that is not empty or a comment (as sent) gets exactly one response.
    A line its Backspaces, Ctrl-U or Ctrl-C left empty (or a comment) is answered bad_arguments,
    nothing run; what is left after them otherwise is the request."""
    assert json.loads(console.handle_bytes(b"new bag items=a*2 seed=1"))["ok"]
    for raw in (b"draw\x03", b"\x7f", b"draw\x15", b"dr\x7f\x7f# a comment", b"  \x08"):
        r = json.loads(console.handle_bytes(raw))
        assert r["error"] == "bad_arguments" and "erased" in r["message"], raw
    assert json.loads(console.handle_bytes(b"stat\x7f\x7fate"))["state"]["actions"] == 0
    assert json.loads(console.handle_bytes(b"undo\x03draw"))["drawn"] == ["a"]
    assert console.handle_bytes(b"# draw\x03") is None and console.handle_bytes(b"") is None   # a comment as sent


def test_a_tab_separates_the_words_after_the_command_word_only(console):
    """docs/protocol.md (Framing) said a tab separates words as a space does; PROTOCOL.md's words
    are separated by spaces, and the command word ends at a space only: a tab between options
    splits them, a tab after the command word makes it an unknown command (the docs now say so)."""
    r = json.loads(console.handle_bytes(b"settings language=en\tcontrast=2"))
    assert r["ok"] and r["settings"]["contrast"] == "2"
    r = json.loads(console.handle_bytes(b"help\tx"))
    assert r["error"] == "unknown_command" and "help\tx" in r["message"]


def test_a_reply_is_one_line_for_every_line_splitter_and_sends_no_terminal_control(console):
    """A reply quotes what was sent (here the unknown command). U+2028, U+2029 and NEL (U+0085)
    went out raw: Python's str.splitlines() — conftest.run_console's own idiom — cut the one reply
    in two; C1 controls (U+009B is CSI to a terminal) went to the terminal raw. JSON escapes them
    now (\\u2028 …), so the text a program decodes is unchanged."""
    sent = "fr\u2028o\u2029b\u0085x\u009b2J"
    reply = console.handle_bytes(sent.encode())
    assert len(reply.splitlines()) == 1
    assert not any(c in reply for c in "\u2028\u2029\u0085\u009b")
    assert sent in json.loads(reply)["message"]


def test_json_commands_report_bad_json(state_dir):
    # the glory 'score' command takes JSON (a sessionless command)
    r = run_console(state_dir, ["score {not json"])
    assert r[0]["error"] in ("bad_json", "unknown_command")


def test_3000_random_and_malformed_lines_each_get_one_reply_and_change_nothing(state_dir):
    rng = random.Random(2026)
    words = ["draw", "put", "roll", "undo", "new", "state", "log", "help", "card", "reroll",
             "bag", "items=", "seed=x", "1d6", "-1", "99999999999999999999", "{", "}", "\"", "=", "=="]
    junk: list[bytes] = []
    for i in range(3000):
        kind = i % 6
        if kind == 0:
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"")
        elif kind == 1:
            line = b"\xc3\x28" + bytes(rng.randrange(128, 256) for _ in range(10))
        elif kind == 2:
            line = b"roll " + b"7" * 5000
        elif kind == 3:
            line = ("score " + rng.choice(["{", "[1,", "{\"players\":", "nul", "{}"])).encode()
        elif kind == 4:
            line = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 6))).encode()
            if line.split(b" ")[0] in (b"new", b"undo", b"draw", b"put", b"roll", b"card", b"reroll"):
                line = b"x" + line       # keep the session unchanged: no real mutating command
        else:
            line = b"put " + bytes(rng.randrange(33, 127) for _ in range(rng.randrange(1, 30)))
        line = line.replace(b"\r", b"")
        junk.append(line)
    setup = b"new bag items=a*3,b*3 seed=4\ndraw\nstate\n"
    body = b"".join(l + b"\n" for l in junk)
    r = run_console(state_dir, setup + body + b"state\n", timeout=120)
    expected_replies = 3 + sum(1 for l in junk if answered(l)) + 1   # (as sent: Backspace bytes or not)
    assert len(r) == expected_replies
    assert all(isinstance(x, dict) and "ok" in x for x in r)
    assert all(x["ok"] or x["error"] != "internal_error" for x in r)
    assert r[-1]["state"] == r[2]["state"]


def test_extra_words_and_repeated_options_are_refused(state_dir):
    r = run_console(state_dir, ["new bag items=a*3 items=b*2", "new bag items=a*3 seed=1",
                                "state extra", "undo 3", "version 2", "draw", "state"])
    assert [x.get("error") for x in r] == ["bad_arguments", None, "bad_arguments", "bad_arguments",
                                           "bad_arguments", None, None]
    assert "twice" in r[0]["message"]
    assert r[-1]["state"]["actions"] == 1          # 'undo 3' did not undo anything


def test_reroll_positions_are_one_based_in_reply_and_state(state_dir):
    r = run_console(state_dir, ["new dice seed=2", "roll 4d6", "reroll 2,4", "rolls 1", "rolls 1 2", "rolls 1 foo=1"])
    assert r[2]["rerolled"] == [2, 4] and r[3]["rolls"][-1]["rerolled"] == [2, 4]
    # extra words and unknown options are bad_arguments (docs/protocol.md); both were ignored
    assert [x.get("error") for x in r[4:]] == ["bad_arguments", "bad_arguments"]


def test_undone_sentence_keeps_the_game_terms_in_ru_and_uk(state_dir):
    """The log says the step in the rulebook's words: Caesar!'s wild token is «универсальный» /
    «універсальний» (C-3), not the shared catalog's «универсал»; 'Undone: …' of his whole turn
    names it by his command tile as the log does («приказ А» / «тайл A»: the turn itself stays in
    the Log above it), the same after a restart (the undone step read back from the journal)."""
    from firmware.console import Console
    from firmware.store import Store
    for lang, prefix, term, tile in (("ru", "Отменено: ", "универсальный 2/2", ("приказ А", "приказом А")),
                                     ("uk", "Скасовано: ", "універсальний 2/2", ("тайл A", "тайлом A"))):
        d = state_dir / lang
        d.mkdir()
        c = Console(Store(d))
        c.request(f"settings language={lang}")
        c.request("new caesar-solo side=caesar difficulty=normal seed=3")
        assert c.request("crassus")["steps"][0]["tokens"][0] == "wild:2/2"
        said = c.request("log 1")["log"][0]
        assert term in said and tile[0] in said
        undone = c.request("undo")["undone"]
        assert undone.startswith(prefix) and tile[1] in undone, undone
        assert c.request("log 2")["log"][0] == said                  # the turn's sentence stays in the Log
        assert c.request("crassus")["ok"]
        c.close()
        store = Store(d)
        c = Console(store, store.resume())
        again = c.request("log 1")["log"][0]          # read back from the journal
        assert term in again
        assert c.request("undo")["undone"] == undone
        c.close()


def test_extra_words_are_refused_not_ignored(state_dir):
    """Bad input gets a clear message and changes nothing: ``settings language ru`` (no '=')
    used to answer ok with the language unchanged, ``log 1 2`` / ``log 1 x=2`` dropped the rest."""
    r = run_console(state_dir, ["new bag items=a*2 seed=1", "draw", "log 1 2", "log 1 x=2", "log 1",
                                "settings language ru", "settings", "settings language=uk", "log 1 2"])
    _, _, extra, opt, one, words, shown, uk, uk_extra = r
    for bad in (extra, opt, words, uk_extra):
        assert bad["ok"] is False and bad["error"] == "bad_arguments", bad
    assert "settings language=ru" in words["message"] and "'language'" in words["message"]
    assert one["log"] == ["Drew a from the bag."]
    assert shown["settings"]["language"] == "en"
    assert uk["settings"]["language"] == "uk"
    assert uk_extra["message"] == "Формат: log [N]."


def test_bad_json_is_said_in_the_players_language(state_dir):
    """bad_json says where the JSON breaks in the player's language (it glued Python's English
    parser reason, 'Expecting property name…', into the ru/uk sentence)."""
    r = run_console(state_dir, ["settings language=ru", "new caesar-solo side=caesar difficulty=easy seed=1",
                                "position {nope", "settings language=uk", "position [1,", "state"])
    bad, tail = r[2], r[4]
    assert bad["error"] == tail["error"] == "bad_json"
    assert bad["message"] == "«position»: JSON не читается (строка 1, столбец 2)."
    assert tail["message"] == "«position»: JSON не читається (рядок 1, стовпець 4)."
    assert r[5]["state"]["actions"] == 0


def test_a_closed_output_ends_the_console_without_a_traceback(state_dir):
    """`legatus console | head -1`: the reader goes away; the console ends cleanly (it printed a
    BrokenPipeError traceback and exited 1), saying that every acknowledged action is kept."""
    import subprocess

    from tests.conftest import ROOT, console_cmd
    proc = subprocess.Popen(console_cmd(state_dir), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(b"new bag items=a*3 seed=1\n")
    proc.stdin.flush()
    assert b'"ok":true' in proc.stdout.readline()
    proc.stdout.close()                          # the reader is gone
    try:
        proc.stdin.write(b"draw\n" * 20000)
        proc.stdin.close()
    except BrokenPipeError:                      # it may have ended already
        pass
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "the output was closed; every acknowledged action is saved" in err
    state = run_console(state_dir, ["state"])[0]["state"]
    assert state["game"] == "bag"


def test_help_after_the_end_lists_only_what_is_answered(state_dir):
    """PROTOCOL.md third round: an ended session answers only state, log, reveal, history,
    export, new (else game_over); help listed the game's commands and undo still."""
    r = run_console(state_dir, ["new bag items=a*2 seed=1", "help", "end", "help", "draw", "undo", "roll 1d6"])
    running, ended = set(r[1]["commands"]), set(r[3]["commands"])
    assert {"draw", "put", "undo", "end", "share", "roll"} <= running
    assert not {"draw", "put", "undo", "end", "share", "roll"} & ended
    assert {"state", "log", "reveal", "history", "export", "new", "help", "version"} <= ended
    assert r[4]["error"] == r[5]["error"] == r[6]["error"] == "game_over"
    # the refusal names every command the ended session still answers (it left out actions)
    from firmware.console import AFTER_END
    assert all(f" {name}" in r[4]["message"] for name in AFTER_END | {"history", "export", "new"}), r[4]["message"]


def test_the_console_start_without_a_session_loads_no_module_its_first_reply_does_not_need(state_dir):
    # the start to the first reply (scripts/bench.py cold_start: <= 1.5x `import PIL.Image`): no
    # dataclasses (which loads inspect, ast, dis: about 3 ms, and each class made takes more), no
    # shutil (which loads bz2 and lzma; argparse asked it for the terminal's width), no tempfile
    import subprocess
    import sys
    code = ("import sys; from firmware import cli; rc = cli.main(['console', '--state-dir', sys.argv[1]]); "
            "print(sorted(m for m in ('dataclasses', 'inspect', 'shutil', 'bz2', 'lzma', 'tempfile') "
            "if m in sys.modules), rc, file=sys.stderr)")
    for _ in range(2):               # the first start makes the database, the second opens it
        out = subprocess.run([sys.executable, "-c", code, str(state_dir)], input=b"version\n", capture_output=True,
                             check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert json.loads(out.stdout)["version"]
        assert out.stderr.decode().strip().splitlines()[-1] == "[] 0"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_console_started_at_a_terminal_says_how_to_use_it_on_stderr_only(state_dir, lang):
    """A new owner who runs `legatus console` in a terminal met a silent wait for a line. At a
    terminal it now says, in the device's language, how to go on (on stderr: every stdout line stays
    a reply, PROTOCOL.md); a script's piped input gets no such line."""
    import subprocess
    run_console(state_dir, [f"settings language={lang}"])
    master, slave = os.openpty()
    proc = subprocess.Popen(console_cmd(state_dir), stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(slave)
    try:
        os.write(master, b"version\nquit\n")
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    replies = [json.loads(line) for line in out.decode().splitlines()]
    assert replies[0]["protocol"] == 1 and all(r["ok"] for r in replies), replies
    told = err.decode()
    assert "'help'" in told.replace("«help»", "'help'") and "docs/protocol.md" in told, told
    assert lang == "en" or any("а" <= ch <= "я" for ch in told.lower()), told
    piped = subprocess.run(console_cmd(state_dir), input=b"version\n", capture_output=True, timeout=60, cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert b"docs/protocol.md" not in piped.stderr


def test_ctrl_c_at_a_terminal_ends_the_console_quietly_keeping_what_was_answered(state_dir):
    """docs/protocol.md: at a local terminal Ctrl-C is no 0x03 byte but an interrupt (SIGINT, what
    the terminal sends the program): the console ends quietly, exit code 0 and no traceback, and
    every request answered before it stays done."""
    import signal
    import subprocess
    import time
    master, slave = os.openpty()
    proc = subprocess.Popen(console_cmd(state_dir), stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    os.close(slave)
    try:
        os.write(master, b"new bag items=a*2 seed=1\ndraw\n")
        assert proc.stdout is not None
        replies = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert all(r["ok"] for r in replies), replies
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    assert proc.returncode == 0 and b"Traceback" not in err and out == b"", err
    assert run_console(state_dir, ["state"])[0]["state"]["actions"] == 1


def test_a_setting_given_the_value_it_has_writes_nothing(state_dir):
    """SD wear (a device runs for weeks on its card): choosing the language already chosen
    (Settings → Language, A on its ticked row) or any setting at the value it has is answered as
    before but writes nothing: the database file's change counter (its header's bytes 24-27, which
    every committed write moves) stays. A real change still writes."""
    from firmware import i18n
    from firmware.console import Console
    from firmware.store import Store
    c = Console(Store(state_dir), None)
    counter = lambda: (state_dir / "legatus.db").read_bytes()[24:28]  # noqa: E731
    try:
        assert c.request("settings language=ru contrast=2")["ok"]
        before = counter()
        for line in ("settings language=ru", "settings contrast=2 language=ru"):
            r = c.request(line)
            assert r["ok"] and r["settings"]["language"] == "ru" and r["settings"]["contrast"] == "2", r
            assert counter() == before, f"{line!r} wrote the database"
        assert c.request("settings contrast=4")["settings"]["contrast"] == "4"
        assert counter() != before
    finally:
        c.close()
        i18n.set_language("en")


def _device_speaks(state_dir, lang):
    """``state_dir``'s device set to ``lang`` (Settings → Language), the test's language English again."""
    from firmware.console import Console
    from firmware.i18n import set_language
    from firmware.store import Store
    console = Console(Store(state_dir), None)
    try:
        assert console.request(f"settings language={lang}")["ok"]
    finally:
        console.close()
        set_language("en")
    return state_dir


@pytest.fixture
def english_after():
    from firmware.i18n import set_language
    yield
    set_language("en")                  # (run_console spoke the device's language in this process)


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("lang,said", [
    ("en", "legatus: serial port /dev/ttyLEGATUS9 does not exist: check the port name (ls /dev/serial0"),
    ("ru", "legatus: последовательного порта /dev/ttyLEGATUS9 нет: проверьте имя порта (ls /dev/serial0"),
    ("uk", "legatus: послідовного порту /dev/ttyLEGATUS9 немає: перевірте назву порту (ls /dev/serial0"),
])
def test_a_serial_port_that_cannot_be_opened_is_said_in_the_devices_language_and_makes_nothing(
        tmp_path, capsys, lang, said):
    """QA (cli): ``legatus console --serial PORT`` with a port that is not there made the state
    directory (its database and lock) before it said so and stopped (exit status 2), and said it in
    English on a Russian or Ukrainian device. The port is opened first now: a refusal leaves nothing
    behind, and says why in the device's language."""
    from firmware.console import run_console
    st = tmp_path / "st"
    if lang != "en":
        _device_speaks(st, lang)
    made = sorted(p.name for p in st.iterdir()) if st.exists() else []
    assert run_console(str(st), "/dev/ttyLEGATUS9") == 2
    err = capsys.readouterr().err
    assert err.startswith(said) and len(err.splitlines()) == 1, err
    assert (sorted(p.name for p in st.iterdir()) if st.exists() else []) == made     # nothing made


@pytest.mark.usefixtures("english_after")
@pytest.mark.parametrize("lang,said", [
    ("en", "legatus: Another Legatus process is using "),
    ("ru", "legatus: Каталог "),
    ("uk", "legatus: Каталог "),
])
def test_a_state_directory_another_legatus_holds_is_said_in_the_devices_language(tmp_path, capsys, lang, said):
    """``legatus console`` beside a running device (or another console) on a Russian or Ukrainian
    device said "Another Legatus process is using …" in English: the store that would have said it
    in the device's words could not be opened. It is read (read-only) for the refusal."""
    from firmware.console import run_console
    from firmware.store import Store
    st = _device_speaks(tmp_path / "st", lang) if lang != "en" else tmp_path / "st"
    held = Store(st)
    try:
        assert run_console(str(st)) == 2
    finally:
        held.close()
    err = capsys.readouterr().err
    assert err.startswith(said) and "systemctl stop legatus" in err, err
    assert lang == "en" or "Another Legatus" not in err


@pytest.mark.parametrize("lang,said", [
    ("en", "legatus: the output was closed; every acknowledged action is saved."),
    ("ru", "legatus: вывод закрыт; все подтверждённые действия сохранены."),
    ("uk", "legatus: виведення закрито; усі підтверджені дії збережено."),
])
def test_a_closed_output_is_said_in_the_devices_language(state_dir, lang, said):
    """`legatus console | head -1` on a Russian or Ukrainian device: the one line saying the
    acknowledged actions are kept was English."""
    from tests.conftest import ROOT, console_cmd
    assert run_console(state_dir, [f"settings language={lang}"])[0]["ok"]
    proc = subprocess.Popen(console_cmd(state_dir), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(b"version\n")
    proc.stdin.flush()
    assert b'"ok":true' in proc.stdout.readline()
    proc.stdout.close()
    try:
        proc.stdin.write(b"version\n" * 20000)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    err = proc.stderr.read().decode("utf-8")
    assert proc.wait(timeout=60) == 0 and err.strip() == said, err


def test_a_state_directory_that_cannot_be_used_is_refused_in_one_line(tmp_path):
    """``legatus console --state-dir DIR`` where DIR cannot be made (a file stands in its way)
    printed the store's log line first, English with the system's errno ("cannot use the state
    directory …: [Errno 20] Not a directory: …"), then the refusal: a refusal says only itself."""
    (tmp_path / "file").write_text("")
    proc = subprocess.run(console_cmd(tmp_path / "file" / "st"), input=b"version\n", capture_output=True, timeout=60,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2 and not proc.stdout, err
    assert err.splitlines() == [f"legatus: Cannot use the state directory {tmp_path / 'file' / 'st'}: a file stands "
                                "where a folder should be. Pick another with --state-dir or LEGATUS_STATE_DIR."], err


def test_a_recovered_database_is_said_in_the_devices_language(state_dir):
    """`legatus console` on a Russian device whose database was damaged and salvaged said what was
    found in English: the line was printed before the console, which speaks the device's language
    stored in the salvaged settings, was made."""
    assert all(r["ok"] for r in run_console(state_dir, ["settings language=ru", "new bag items=a*3 seed=1", "draw"]))
    path = state_dir / "legatus.db"
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    proc = subprocess.run(console_cmd(state_dir), input=b"state\n", capture_output=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 0 and json.loads(proc.stdout)["state"]["game"] == "bag", err
    assert "\nlegatus: Базу не удалось прочитать (записи повреждены); она сохранена как legatus.db.damaged-1" in \
        "\n" + err, err


def test_help_without_a_session_lists_only_what_is_answered_now(console):
    """`help` with no session lists the sessionless game commands (PROTOCOL.md: The Sword of Rome
    "no session needed"; Glory's `score <json>`): each is answered without one, with the examples
    the protocol gives; the common commands that need a session refuse with `no_session` and say
    how to start one; nothing listed is an unknown command."""
    names = console.request("help")["commands"]
    assert {"sword-tactics", "sword-battle", "sword-odds", "score"} <= set(names)
    for line in ("sword-tactics 4 die=3", "sword-battle att=3 def=2 mod=0 att-dice=1,2,3 def-dice=4,5,6",
                 "sword-odds mod=1", 'score {"players": [{"name": "Jack", "track": 29}]}'):
        assert console.request(line)["ok"], line
    for name in names:
        if name == "quit":
            continue
        r = console.request(name)
        assert r.get("error") != "unknown_command", (name, r)
        if r.get("error") == "no_session":
            assert name in ("state", "undo", "log", "actions", "reveal") and "'new <game>'" in r["message"], r
