"""The terminal simulator driven by a key script (no TTY), and its braille renderer."""
import os
import subprocess
import sys

import pytest
from PIL import Image

from firmware.terminal import _DOTS, parse_keys, to_braille
from tests.conftest import ROOT


def test_braille_maps_each_2x4_cell_to_its_dots():
    img = Image.new("1", (4, 4), 0)
    img.putpixel((0, 0), 1)   # dot 1
    img.putpixel((1, 3), 1)   # dot 8
    img.putpixel((2, 1), 1)   # second cell, dot 2
    assert to_braille(img) == chr(0x2800 | 0x01 | 0x80) + chr(0x2800 | 0x02)


def test_terminal_keys_map_to_logical_buttons():
    assert parse_keys(b"\x1b[A\x1b[Bab\rBq") == ["up", "down", "a", "b", "press", "b:hold", "quit"]


def _frames(out: str) -> list[tuple[str, list[str]]]:
    frames = []
    for block in out.split("--- frame after: ")[1:]:
        head, *rows = block.rstrip("\n").split("\n")
        frames.append((head, rows))
    return frames


def test_scripted_simulator_rolls_dice_undoes_and_blanks(tmp_path):
    script = tmp_path / "keys.txt"
    # first start: the language question (A keeps English); Dice & bags (2nd item) -> Dice, roll,
    # hold B -> confirm undo, then idle past screen-off
    script.write_text("a\ndown\na\na\na\nb:hold\na\nb\nwait 200\nup\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"),
                           "--script", str(script)], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    frames = _frames(proc.stdout)
    heads = [h for h, _ in frames]
    assert heads[0] == "start" and "wait 200 (blank)" in heads
    for _, rows in frames:
        assert len(rows) == 16 and all(len(r) == 64 for r in rows)
    blank = dict(frames)["wait 200 (blank)"]
    assert all(ch == "\u2800" for row in blank for ch in row)
    # the key after blanking only wakes the panel: the same frame as before the blank comes back
    before_blank = frames[heads.index("wait 200 (blank)") - 1][1]
    assert frames[-1][0] == "up" and frames[-1][1] == before_blank
    # the console sees what the UI did: one roll, then undone
    c = subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir",
                        str(tmp_path / "st")], input="log\n", capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=60)
    log = c.stdout
    assert "Rolled 2d6" in log and "Undone: Rolled 2d6" in log


def test_the_key_that_wakes_the_screen_shows_its_frame_once(tmp_path):
    """A --script run printed the frame after the key that woke the blanked screen twice, both
    "--- frame after: down": read as two frames, as if the key had done something besides waking."""
    script = tmp_path / "keys.txt"
    script.write_text("a\nwait 200\ndown\ndown\n")
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"),
                           "--script", str(script)], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr
    frames = _frames(proc.stdout)
    assert [h for h, _ in frames] == ["start", "a", "wait 200 (blank)", "down", "down"]
    assert frames[3][1] == frames[1][1] and frames[4][1] != frames[3][1]      # woken as it was; then moved


def test_sigterm_ends_a_long_script_as_it_ends_the_device(tmp_path):
    """SIGTERM (or SIGHUP, or ``timeout``) did not stop a --script run: the quit it asked for went on
    a queue only the interactive loop reads, and a long script went on to its end. It stops before
    the next key now, with what was done saved and the log's normal stop."""
    import signal
    import time
    script = tmp_path / "keys.txt"
    script.write_text("a\n" + "down\nup\n" * 20000)
    out = tmp_path / "frames.txt"
    with out.open("wb") as frames:
        proc = subprocess.Popen([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"), "--script",
                                 str(script)], stdout=frames, stderr=subprocess.PIPE, cwd=ROOT,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            deadline = time.monotonic() + 60
            while b"frame after: down" not in out.read_bytes() and time.monotonic() < deadline:
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0, err.decode()
    assert 2 < out.read_bytes().count(b"--- frame after:") < 40002
    assert "stop: legatus ended normally" in (tmp_path / "st" / "legatus.log").read_text(encoding="utf-8")


def test_scripted_frames_are_utf8_whatever_the_locale(tmp_path):
    """``legatus --script`` under a non-UTF-8 locale (here PYTHONIOENCODING=ascii) ended at its
    first frame in a UnicodeEncodeError traceback; its frames are data, written in UTF-8 as the
    console writes its replies."""
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"), "--script", "-"],
                          input=b"down\n", capture_output=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr[-600:]
    frames = _frames(proc.stdout.decode("utf-8"))
    assert [head for head, _ in frames] == ["start", "down"] and all(len(rows) == 16 for _, rows in frames)


def test_simulator_without_a_terminal_explains_what_to_do(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--state-dir", str(tmp_path)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2 and "--script" in proc.stderr


@pytest.mark.parametrize("lang,said", [("", "legatus: the simulator needs a terminal for its keys"),
                                       ("ru_RU.UTF-8", "legatus: симулятору нужен терминал для нажатий кнопок")])
def test_the_simulator_refused_a_terminal_says_only_that_and_makes_no_state_directory(tmp_path, lang, said):
    """QA (cli): ``legatus --sim`` without a terminal made the state directory (its database, lock
    and log file) and printed "INFO … created the state directory" and "INFO … start: legatus …
    (clock not set)" before its refusal (exit status 2). A refused command line now says the one
    line, in the player's language (the locale's where no device language is stored, as argparse's
    refusals), and leaves nothing behind."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(PYTHONPATH=str(ROOT), LANG=lang or "C.UTF-8", LEGATUS_STATE_DIR=str(tmp_path / "default"))
    for argv in (["--sim"], ["--sim", "--state-dir", str(tmp_path / "st")]):
        proc = subprocess.run([sys.executable, "-m", "firmware.cli", *argv], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=60, cwd=ROOT, env=env)
        err = proc.stderr.decode("utf-8")
        assert proc.returncode == 2 and err.startswith(said) and len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []


def test_scripted_simulator_in_russian_makes_a_bag_with_a_cyrillic_item(tmp_path):
    script = tmp_path / "keys.txt"
    # first start: Русский; Кубики и мешочки -> Мешочки и колоды -> Свой мешочек -> золото (the
    # first common name, under «Ввести название…») two of them, A on the count starts; then draw
    # from it (the fair-draw code box over the new-bag list goes with its first key); no locale:
    # the list opens on English
    keys = ["down", "a", "down", "a", "down", "a", "a", "down", "right", "right", "a", "a"]
    script.write_text("\n".join(keys) + "\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"}
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"),
                           "--script", str(script)], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "screen error" not in proc.stderr
    c = subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir",
                        str(tmp_path / "st")], input="state\ndraw 5\n", capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=60)
    state, refused = c.stdout.splitlines()[:2]
    assert '"bag":{"left":{"золото":1}' in state and '"drawn":["золото"]' in state
    assert "В мешочке 1 предмет; нельзя вытянуть 5." in refused   # the console speaks Russian


def test_ctrl_c_before_the_keys_are_taken_over_says_so_without_a_traceback(tmp_path, monkeypatch,
                                                                           capsys):
    # Ctrl-C while the program starts (before the device loop handles keys): a line, status 130
    from firmware import cli, logs
    import firmware.device

    def interrupted(args: object, splash: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(firmware.device, "run_device", interrupted)
    monkeypatch.setattr("firmware.terminal.terminal_problem", lambda: None)    # (as in a terminal)
    monkeypatch.setattr(logs, "setup", lambda **k: None)                  # (the test's own logging)
    monkeypatch.setattr(logs, "remember_state_dir", lambda d: None)
    assert cli.main(["--sim", "--state-dir", str(tmp_path)]) == 130
    err = capsys.readouterr().err
    assert "Ctrl-C" in err and "Traceback" not in err


@pytest.mark.parametrize("text,said", [
    ("a\npresss\ndown\n", "line 2: 'presss' is not a key"),
    ("a\nwait\n", "line 2: 'wait': wait takes a number of seconds"),
    ("wait soon\n", "line 1: 'wait soon': wait takes a number of seconds"),
    # an infinite or astronomic wait: the simulated clock never moved again, no later wait blanked
    ("a\nwait inf\nwait 200\n", "line 2: 'wait inf': wait takes a number of seconds from 0 to 86400"),
    ("wait 1e400\n", "line 1: 'wait 1e400': wait takes a number of seconds from 0 to 86400"),
    ("wait 1e300\n", "line 1: 'wait 1e300': wait takes a number of seconds from 0 to 86400"),
    (None, "cannot be read"),
])
def test_a_script_with_a_line_that_is_not_a_key_is_refused_before_anything_runs(tmp_path, text, said):
    """A typo in a --script file was a key silently not pressed (the run went on a key short), a
    bad 'wait' or a missing file ended in a traceback; now: one line saying where, exit status 2,
    and no state directory made."""
    script = tmp_path / "keys.txt"
    if text is not None:
        script.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"),
                           "--script", str(script)], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2, proc.stderr
    assert said in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("legatus: --script ") and "firmware.device" not in proc.stderr, proc.stderr
    assert "--- frame" not in proc.stdout and not (tmp_path / "st").exists()


@pytest.mark.parametrize("lang,text,said", [
    ("ru", "a\npresss\n", "legatus: --script {}, строка 2: «presss» — не кнопка; по одной в строке: up, down, "),
    ("uk", "wait soon\n", "legatus: --script {}, рядок 1: «wait soon»: після wait потрібне число секунд від 0 до 86400"),
    ("ru", None, "legatus: --script {}: не удаётся прочитать (такого файла или папки нет)"),
    ("uk", b"a\n\xff\n", "legatus: --script {}: не вдається прочитати (це не текст у UTF-8: байт 3)"),
])
def test_a_script_refused_is_said_in_the_devices_language(tmp_path, lang, text, said):
    """A --script file with a line that is not a key, a bad wait, or that cannot be read was refused
    in English on a Russian or Ukrainian device (the file's own words, key names and wait, as they are)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    st, script = tmp_path / "st", tmp_path / "keys.txt"
    subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(st)],
                   input=f"settings language={lang}\n", capture_output=True, text=True, timeout=60, cwd=ROOT, env=env,
                   check=True)
    if text is not None:
        script.write_bytes(text if isinstance(text, bytes) else text.encode())
    made = sorted(p.name for p in st.iterdir())
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(st), "--script", str(script)],
                          capture_output=True, timeout=60, cwd=ROOT, env=env)
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == 2 and err.startswith(said.format(script)) and len(err.splitlines()) == 1, err
    assert sorted(p.name for p in st.iterdir()) == made and not proc.stdout


@pytest.mark.parametrize("stdin", [False, True])
def test_a_script_saved_with_a_byte_order_mark_runs_its_first_key(tmp_path, stdin):
    """A key script saved by Notepad as UTF-8 begins with a byte order mark: its first line was
    refused as "'\ufeffa' is not a key", the mark invisible in the message, so the line looked right."""
    script = tmp_path / "keys.txt"
    script.write_bytes("a\ndown\n".encode("utf-8-sig"))
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"),
                           "--script", "-" if stdin else str(script)], input=script.read_bytes() if stdin else None,
                          capture_output=True, timeout=60, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr.decode()
    assert [h for h, _ in _frames(proc.stdout.decode("utf-8"))] == ["start", "a", "down"]


def test_scripted_frames_are_half_blocks_with_legatus_blocks(tmp_path):
    """``LEGATUS_BLOCKS=1`` is for a font without braille (README), but a --script run printed
    braille whatever it said: rows of boxes. Its frames are the simulator's half-blocks now, the
    same picture: 32 rows of 128, each pair of pixel rows in one."""
    script = tmp_path / "keys.txt"
    script.write_text("a\ndown\n")
    runs = {}
    for blocks in ("0", "1"):
        proc = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / blocks),
                               "--script", str(script)], capture_output=True, timeout=60, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "LEGATUS_BLOCKS": blocks})
        assert proc.returncode == 0, proc.stderr.decode()
        runs[blocks] = _frames(proc.stdout.decode("utf-8"))
    assert [h for h, _ in runs["1"]] == [h for h, _ in runs["0"]] == ["start", "a", "down"]
    for (_, braille), (_, blocks) in zip(runs["0"], runs["1"]):
        assert len(blocks) == 32 and all(len(row) == 128 and set(row) <= set(" ▀▄█") for row in blocks)
        lit = [[(x, 2 * y + (c in "▄")) for x, c in enumerate(row) if c in "▀▄"]
               + [(x, 2 * y + d) for x, c in enumerate(row) if c == "█" for d in (0, 1)] for y, row in enumerate(blocks)]
        dots = {(2 * cx + dx, 4 * cy + dy) for cy, row in enumerate(braille) for cx, ch in enumerate(row)
                for dx, dy, bit in _DOTS if (ord(ch) - 0x2800) & bit}
        assert {p for row in lit for p in row} == dots


@pytest.mark.parametrize("args", [["--script", "{keys}"], ["doctor"], ["--version"]])
def test_output_read_by_a_reader_that_went_away_ends_without_a_traceback(tmp_path, args):
    """``legatus --script keys | head -1``, ``legatus doctor | head -1`` and ``legatus --version |
    true`` ended in a BrokenPipeError traceback, and the next start warned that the previous run had stopped with an
    error. Now the frames or the report are dropped quietly, as ``legatus console`` does."""
    keys = tmp_path / "keys.txt"
    keys.write_text("a\ndown\ndown\nup\n")
    argv = [a.format(keys=keys) for a in args]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPIOZERO_PIN_FACTORY": "mock"}
    read, write = os.pipe()
    os.close(read)                                      # the reader is gone before anything is written
    try:
        proc = subprocess.run([sys.executable, "-m", "firmware.cli", *argv, "--state-dir", str(tmp_path / "st")],
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=120, cwd=ROOT, env=env)
    finally:
        os.close(write)
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr     # doctor: 1 when a check fails (no panel here)
    if args[0] == "--script":
        again = subprocess.run([sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"),
                                "--script", str(keys)], capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
        assert again.returncode == 0 and "previous run stopped with an error" not in again.stderr, again.stderr


@pytest.mark.parametrize("mode", ["console", "doctor"])
def test_each_subcommands_help_says_what_its_options_are(mode, capsys):
    """``legatus console --help`` listed --state-dir CONSOLE_STATE_DIR and --baud CONSOLE_BAUD with
    no word on what they are or their defaults."""
    from firmware.cli import main
    with pytest.raises(SystemExit) as stop:
        main([mode, "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0 and "--state-dir DIR" in out and "~/.local/state/legatus" in out
    assert "CONSOLE_" not in out and "DOCTOR_" not in out
    assert ("default 115200" in out) if mode == "console" else ("~/.config/legatus/config.toml" in out)


def test_the_readmes_options_are_those_legatus_help_shows(capsys):
    """The README lists ``--state-dir DIR``, ``--config FILE``, ``--serial PORT [--baud N]`` and
    ``--script FILE`` as ``legatus --help`` shows them; the help said STATE_DIR, CONFIG, SERIAL,
    BAUD and SCRIPT, a new user's first look at the options out of step with the page that sent
    them there (and with ``legatus console --help``'s DIR and PORT)."""
    import re

    from firmware.cli import main
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("Its other options"):readme.index("The second runs")]
    said = {m for code in re.findall(r"`([^`]*)`", part) for m in re.findall(r"--[a-z-]+(?: [A-Z]+)?", code)}
    assert {"--state-dir DIR", "--config FILE", "--serial PORT", "--baud N", "--script FILE", "--version"} <= said
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert [option for option in sorted(said) if option not in shown] == []


# -- the simulator in a real terminal (a pseudo-terminal) ------------------------------------------
def _in_a_terminal(argv: list[str], env: dict[str, str], keys: list[bytes], size: tuple[int, int] = (100, 40),
                   timeout: float = 120.0) -> tuple[int | None, str, bool]:
    """Run ``argv`` on a pseudo-terminal of ``size`` (columns, lines); each key is typed once the
    output has settled and the program has the keyboard (cbreak mode). Returns (exit status or None if it had to be killed, what it wrote,
    whether the terminal echoes again afterwards)."""
    import fcntl
    import pty
    import select
    import signal
    import struct
    import termios
    import time
    pid, fd = pty.fork()
    if pid == 0:                                                    # the child: the program itself
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, *argv], {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", **env})
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    out, status, end = b"", None, time.monotonic() + timeout
    quiet_since = time.monotonic()
    try:
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    out += os.read(fd, 65536)
                    quiet_since = time.monotonic()
                except OSError:                                     # the program has gone
                    pass
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = os.waitstatus_to_exitcode(raw)
                break
            if (keys and b"\x1b[2J" in out and time.monotonic() - quiet_since > 0.5
                    and not termios.tcgetattr(fd)[3] & termios.ICANON):   # the keyboard is the program's
                os.write(fd, keys.pop(0))
                quiet_since = time.monotonic()
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        echoes = bool(termios.tcgetattr(fd)[3] & termios.ECHO)
    finally:
        os.close(fd)
    return status, out.decode("utf-8", "replace"), echoes


def test_ctrl_c_in_the_simulator_gives_the_terminal_back_as_it_was(tmp_path):
    """Ctrl-C (and SIGTERM) ended the simulator while its keyboard thread waited in a read, so
    nothing put the terminal back: the shell it returned to echoed nothing typed and had no line
    editing. Now the mode is restored at exit, whichever way the program ends."""
    for key in (b"\x03", b"q"):
        status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(tmp_path / "st")],
                                             {}, [key])
        assert status == 0 and "Traceback" not in out, out[-800:]
        assert echoes, f"after {key!r} the terminal echoes nothing"


def test_ctrl_backslash_in_the_simulator_saves_and_gives_the_terminal_back(tmp_path):
    """Ctrl-\\ (SIGQUIT) killed the simulator outright: the shell it returned to echoed nothing
    typed and had no line editing, and the log had no stop. It ends it as q or SIGTERM do now."""
    status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(tmp_path / "st")],
                                         {}, [b"a", b"\x1c"])
    assert status == 0 and echoes and "Traceback" not in out, out[-800:]
    assert "stop: legatus ended normally" in (tmp_path / "st" / "legatus.log").read_text(encoding="utf-8")


def test_a_terminal_whose_encoding_cannot_draw_the_frame_is_told_so_without_a_crash(tmp_path):
    """A terminal that is not UTF-8 (here PYTHONIOENCODING=ascii; a Latin-1 locale does the same)
    stopped the simulator at its first frame with a UnicodeEncodeError, logged as a crash that the
    next start reported. Now one line says what to do, exit status 2."""
    status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(tmp_path / "st")],
                                         {"PYTHONIOENCODING": "ascii"}, [])
    assert status == 2 and echoes, out[-800:]
    assert "encoding (ascii) cannot show the simulator's frame" in out and "LANG=C.UTF-8" in out
    assert "Traceback" not in out and "UnicodeEncodeError" not in out
    assert not (tmp_path / "st").exists()      # (refused before anything is opened: no crash logged either)


def test_a_dumb_terminal_is_told_so_rather_than_shown_escape_codes(tmp_path):
    """TERM=dumb (Emacs's shell) cannot move the cursor: the frames came out as lines of escape
    codes and braille one after the other. Now one line says why, exit status 2."""
    status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(tmp_path / "st")],
                                         {"TERM": "dumb"}, [])
    assert status == 2 and echoes and "(TERM=dumb) cannot move the cursor" in out, out[-800:]
    assert "\x1b[2J" not in out and "┌" not in out


@pytest.mark.parametrize("blocks,fits", [(False, (66, 20)), (True, (130, 36))])
def test_a_terminal_too_small_for_the_frame_says_so_and_a_larger_one_shows_the_frame(blocks, fits):
    """In a terminal smaller than the frame each line of braille wrapped and the screen scrolled:
    every frame after the first was drawn over the wreck of the one before. Now a line says how
    large the terminal must be, and the frame comes as soon as it is that large (the program draws
    again on SIGWINCH: tests/test_device_loop.py)."""
    import fcntl
    import pty
    import select
    import struct
    import termios
    from firmware.terminal import TerminalScreen
    img = Image.new("1", (128, 64), 0)
    img.putpixel((0, 0), 1)
    master, slave = pty.openpty()
    screen_out = open(slave, "w", encoding="utf-8", closefd=True)
    try:
        screen = TerminalScreen(out=screen_out, blocks=blocks)
        for columns, lines in ((fits[0] - 1, fits[1]), (fits[0], fits[1] - 1), fits, (200, 60)):
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
            screen.show(img)
            said = b""
            while select.select([master], [], [], 0.2)[0]:
                said += os.read(master, 1 << 16)
            said = said.decode("utf-8")
            if columns < fits[0] or lines < fits[1]:
                assert (f"this terminal is {columns}×{lines} characters; the simulator needs {fits[0]}×{fits[1]}"
                        in " ".join(said.split()))          # (wrapped at the terminal's width)
                assert "┌" not in said
            else:
                assert "needs" not in said and said.count("│") == 2 * (fits[1] - 4)
                assert max(len(line) for line in said.replace("\x1b[K", "").split("\r\n")[1:]) <= columns
    finally:
        screen_out.close()
        os.close(master)


@pytest.mark.parametrize("size,acted", [((60, 15), False), ((100, 40), True)])
def test_keys_pressed_while_the_terminal_is_too_small_do_nothing_unseen(tmp_path, size, acted):
    """While the terminal was too small for the frame (its line says so) every key still acted,
    unseen: here the first start's language question answered Russian by down and A. Only q is
    taken now, until the window is large enough to show what a key does."""
    st = str(tmp_path / "st")
    status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", st], {},
                                         [b"\x1b[B", b"a", b"q"], size=size)
    assert status == 0 and echoes, out[-800:]
    settings = subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", st], input="settings\n",
                              capture_output=True, text=True, timeout=60, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert ('"language":"ru"' in settings) == acted, settings


def test_a_key_sequence_cut_between_two_reads_is_one_key_not_two(monkeypatch):
    """A held arrow filled the terminal's buffer faster than the keyboard thread's 32-byte reads
    took it: a read ended in the middle of ``\\x1b[B``, whose ``B`` was then hold B (the undo
    question, "Nothing to undo." on the main menu), and an up arrow's ``A`` hold A. 40 down arrows
    in one write are 40 downs now."""
    import pty
    import queue
    import termios
    import threading
    import time

    from firmware.terminal import keyboard_reader, read_keys
    assert read_keys(b"\x1b[B" * 10 + b"\x1b[") == (["down"] * 10, b"\x1b[")
    assert read_keys(b"\x1b[" + b"B\x1b") == (["down"], b"\x1b")
    assert read_keys(b"\x1b" + b"a") == (["a"], b"")            # a lone Esc is still nothing

    master, slave = pty.openpty()
    events: queue.Queue = queue.Queue()
    with open(slave, "r", closefd=True) as tty_in:
        monkeypatch.setattr(sys, "stdin", tty_in)
        reader = threading.Thread(target=keyboard_reader, args=(events,), daemon=True)
        reader.start()
        for _ in range(500):                     # the keys once the reader has the terminal (cbreak)
            if not termios.tcgetattr(slave)[3] & termios.ICANON:
                break
            time.sleep(0.01)
        os.write(master, b"\x1b[B" * 40 + b"\x1bOA" * 20 + b"q")
        reader.join(10)
    os.close(master)
    got = [events.get_nowait() for _ in range(events.qsize())]
    assert [event[:2] for event in got] == [("key", "down")] * 40 + [("key", "up")] * 20 + [("key", "quit")]


def test_keys_typed_in_the_russian_or_ukrainian_layout_are_the_same_keys():
    """With the keyboard in the Russian or Ukrainian layout (the players the device speaks to) a, b,
    k, q, A and B type ф, и, л, й, Ф and И: nothing happened, not even quit. They are those keys now,
    a letter's two bytes whole when a read cuts them apart, and other letters nothing."""
    from firmware.terminal import read_keys
    typed = "фил" + "ФИ" + "йqa"
    assert parse_keys(typed.encode("utf-8")) == parse_keys(b"abkAB") + ["quit", "quit", "a"]
    assert parse_keys("жэ\u20ac\U0001f600ёЯ".encode("utf-8")) == []
    assert parse_keys("ы".encode("utf-8")) == parse_keys("і".encode("utf-8")) == parse_keys(b"s")
    data = "ф".encode("utf-8")
    assert read_keys(b"b" + data[:1]) == (["b"], data[:1])
    assert read_keys(data[:1] + data[1:]) == (["a"], b"")


def test_an_arrow_with_shift_or_ctrl_is_the_arrow_and_other_sequences_are_nothing():
    """Shift/Ctrl/Alt+Down (``\x1b[1;2B``) was read as its last byte, ``B``: hold B, the undo
    question; Shift+Up was hold A. The whole sequence is read: the arrow; Home, Delete, F1 nothing."""
    from firmware.terminal import read_keys
    assert read_keys(b"\x1b[1;2B\x1b[1;5A\x1b[1;3C\x1b[1;2D") == (["down", "up", "right", "left"], b"")
    assert read_keys(b"\x1b[H\x1b[3~\x1bOP\x1b[15~") == ([], b"")
    assert read_keys(b"\x1b[1;2") == ([], b"\x1b[1;2")           # the rest comes with the next read


def test_ctrl_z_gives_the_shell_its_terminal_and_fg_gives_the_simulator_its_keys_and_frame(tmp_path):
    """Ctrl-Z stopped the simulator with the terminal still in cbreak mode without echo (a shell
    without line editing of its own, sh, then echoed nothing), and after ``fg`` the shell's mode
    stayed: every key needed Enter and was echoed over a frame that was not drawn again."""
    import pty
    import select
    import signal
    import termios
    import time
    pid, fd = pty.fork()
    if pid == 0:                                                    # an interactive sh with job control
        os.chdir(ROOT)
        os.execve("/bin/sh", ["sh", "-i"], {**os.environ, "PYTHONPATH": str(ROOT), "PS1": "$ ", "ENV": "", "TERM": "xterm"})
    said = b""

    def until(done, seconds: float = 30.0) -> bool:
        nonlocal said
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    said += os.read(fd, 65536)
                except OSError:
                    break
            if done():
                return True
        return False

    def mode() -> tuple[bool, bool]:
        lflag = termios.tcgetattr(fd)[3]
        return bool(lflag & termios.ECHO), bool(lflag & termios.ICANON)

    try:
        until(lambda: said.endswith(b"$ "), 30)
        os.write(fd, f"{sys.executable} -m firmware.cli --sim --state-dir {tmp_path / 'st'}\n".encode())
        assert until(lambda: b"q=quit" in said and mode() == (False, False)), said[-300:]
        os.write(fd, b"\x1a")                                                   # Ctrl-Z
        assert until(lambda: said.endswith(b"$ ") and mode() == (True, True), 30), (mode(), said[-300:])
        before = said.count(b"q=quit")
        os.write(fd, b"fg\n")
        assert until(lambda: said.count(b"q=quit") > before and mode() == (False, False), 10), (mode(), said[-300:])
        os.write(fd, b"q")                                                      # one key, no Enter
        assert until(lambda: said.endswith(b"$ ") and mode() == (True, True), 20), (mode(), said[-300:])
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def test_ctrl_z_where_no_shell_can_take_the_terminal_leaves_the_keys_as_they_were(tmp_path):
    """Run by a terminal emulator itself (no shell: its process group is orphaned), Ctrl-Z stops
    nothing; the terminal's mode put back for the shell must then be cbreak again at once, or each
    key waited for Enter. One Ctrl-Z, then q alone ends it."""
    status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(tmp_path / "st")],
                                         {}, [b"\x1a", b"q"], timeout=30)
    assert status == 0 and echoes, out[-500:]


def test_a_resize_signal_that_comes_while_the_loop_holds_its_queue_does_not_hang_it():
    """A signal handler runs in the main thread between two of its steps, maybe inside the loop's
    ``queue.Queue.get`` with the queue's lock held. The resize handler put its event on that queue
    itself: it then waited for that lock for ever, and the program hung (a window dragged wider
    sends SIGWINCH after SIGWINCH). The event is now put from a thread of its own."""
    import io
    import queue
    import signal

    from firmware.terminal import TerminalScreen
    before = {s: signal.getsignal(s) for s in (signal.SIGWINCH, signal.SIGTSTP, signal.SIGCONT)}
    events: queue.Queue = queue.Queue()
    try:
        TerminalScreen(out=io.StringIO(), resized=lambda: events.put(("resized",)))
        from tests.signals import put_while_the_queue_is_locked
        handler = signal.getsignal(signal.SIGWINCH)
        assert callable(handler)
        assert put_while_the_queue_is_locked(handler, signal.SIGWINCH, events) == ("resized",)
    finally:
        for s, h in before.items():
            signal.signal(s, h)


@pytest.mark.parametrize("lang,words", [("en", ("arrows", "quit")), ("ru", ("стрелки", "выход")),
                                        ("uk", ("стрілки", "вихід"))])
def test_the_key_line_under_the_frame_speaks_the_devices_language_within_the_frames_width(lang, words):
    """The simulator's key line stayed English under a Russian or Ukrainian frame: the one help a
    new owner reads before pressing anything. It follows the language and fits the braille frame's
    66 columns (tests above: a wider line wrapped in an 80-column terminal)."""
    import io

    from firmware import i18n
    from firmware.terminal import TerminalScreen
    i18n.set_language(lang)
    try:
        out = io.StringIO()
        TerminalScreen(out=out).show(Image.new("1", (128, 64), 0))
        line = out.getvalue().split("\n")[-2].replace("\x1b[K", "")
        assert all(w in line for w in words) and "k=KEY3" in line, line
        assert len(line) <= 66, (len(line), line)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang,words", [("en", "Make the window larger"), ("ru", "Увеличьте окно"),
                                        ("uk", "Збільште вікно")])
def test_a_terminal_too_small_is_told_so_in_the_devices_language(lang, words):
    """The line shown instead of the frame in a terminal too small for it was English under a
    Russian or Ukrainian device, the key line under the frame (above) in the device's language."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    from firmware import i18n
    from firmware.terminal import TerminalScreen
    i18n.set_language(lang)
    master, slave = pty.openpty()
    screen_out = open(slave, "w", encoding="utf-8", closefd=True)
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 15, 60, 0, 0))
        TerminalScreen(out=screen_out, blocks=False).show(Image.new("1", (128, 64), 0))
        said = b""
        while select.select([master], [], [], 0.2)[0]:
            said += os.read(master, 1 << 16)
        line = " ".join(said.decode("utf-8").split("\x1b[2J")[-1].split())    # (wrapped at the width)
        assert words in line and "60×15" in line and "66×20" in line and "┌" not in line, line
        assert lang == "en" or "terminal" not in line, line
    finally:
        i18n.set_language("en")
        screen_out.close()
        os.close(master)


@pytest.mark.parametrize("lang,piped_said,dumb_said", [
    ("ru", ("симулятору нужен терминал", "«--script -» прочитает их со стандартного ввода", "для построчного протокола"),
     ("этот терминал (TERM=dumb)", "запустите симулятор в эмуляторе терминала")),
    ("uk", ("симуляторові потрібен термінал", "«--script -» прочитає їх зі стандартного введення",
            "для рядкового протоколу"),
     ("цей термінал (TERM=dumb)", "запустіть симулятор в емуляторі термінала"))])
def test_why_the_simulator_cannot_start_here_is_said_in_the_devices_language(tmp_path, lang, piped_said, dumb_said):
    """Started without a terminal on stdin, or in a TERM=dumb one, the simulator's one line was
    English although the device speaks Russian or Ukrainian (its frame, key line and the too-small
    line do): exit status 2 as before, the line in the device's words. What to run in a terminal
    emulator is the simulator (it said «этот терминал … запустите его в эмуляторе терминала», the
    terminal run inside one), and the line protocol is «рядковий» in Ukrainian («порядковий» reads
    as ordinal). ``--script -`` reads the keys from standard input, «стандартный ввод» / «стандартне
    введення» (it said «с этого ввода» / «із цього введення», which names nothing)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    st = str(tmp_path / "st")
    subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", st], input=f"settings language={lang}\n",
                   capture_output=True, text=True, timeout=60, cwd=ROOT, env=env, check=True)
    piped = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--state-dir", st], stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=60, cwd=ROOT, env=env)
    said = piped.stderr.decode("utf-8")
    assert piped.returncode == 2 and all(words in said for words in piped_said), said
    status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", st], {"TERM": "dumb"}, [])
    assert status == 2 and echoes and all(words in out for words in dumb_said), out[-800:]
    assert "cannot move the cursor" not in out, out[-800:]


@pytest.mark.parametrize("argv,runs,got", [
    (["--state-dir=~/games", "--sim"], "firmware.device.run_device", lambda a, k: a[0].state_dir),
    (["console", "--state-dir=~/games"], "firmware.console.run_console", lambda a, k: a[0]),
    (["doctor", "--state-dir=~/games"], "firmware.doctor.run_doctor", lambda a, k: a[0]),
    (["doctor", "--config=~/games/config.toml"], "firmware.doctor.run_doctor", lambda a, k: a[1]),
    (["--script=~/games/keys.txt"], "firmware.device.run_device", lambda a, k: a[0].script),
])
def test_a_tilde_the_shell_left_in_a_path_is_the_home_directory(tmp_path, monkeypatch, argv, runs, got):
    """``legatus --state-dir=~/games`` (bash expands no ``~`` after ``=``) kept its sessions in a
    folder named ``~`` under the working directory; ``legatus console`` and ``doctor`` took a relative
    --state-dir as it was, where lgpio may change the working directory (firmware/buttons_part.py)."""
    import importlib

    from firmware import cli, logs
    home, elsewhere = tmp_path / "home", tmp_path / "cwd"
    home.mkdir()
    elsewhere.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr("firmware.terminal.terminal_problem", lambda: None)    # (as in a terminal)
    seen = []
    module, name = runs.rsplit(".", 1)
    monkeypatch.setattr(importlib.import_module(module), name, lambda *a, **k: seen.append(got(a, k)) or 0)
    monkeypatch.setattr(logs, "setup", lambda *a, **k: None)
    monkeypatch.setattr(logs, "remember_state_dir", lambda d: None)
    assert cli.main(argv) == 0
    assert seen and str(seen[0]).startswith(str(home / "games")) and "~" not in str(seen[0]), seen


@pytest.mark.parametrize("term,blocks,drawn", [("linux", None, "▀▄█"), ("linux", "0", "⠁⢀⣿"), ("xterm", None, "⠁⢀⣿"),
                                               ("xterm", "1", "▀▄█")])
def test_the_linux_console_gets_half_blocks_unless_told_otherwise(monkeypatch, term, blocks, drawn):
    """On a Pi's own screen without a desktop (the Linux console, TERM=linux) the console fonts have
    no braille: the frame was rows of diamonds until one found LEGATUS_BLOCKS=1 in the README. There
    it draws with half-blocks now; LEGATUS_BLOCKS=0 keeps braille, and =1 asks for blocks anywhere."""
    import io

    from firmware.terminal import TerminalScreen
    monkeypatch.setenv("TERM", term)
    if blocks is None:
        monkeypatch.delenv("LEGATUS_BLOCKS", raising=False)
    else:
        monkeypatch.setenv("LEGATUS_BLOCKS", blocks)
    img = Image.new("1", (128, 64), 0)
    for xy in ((0, 0), (2, 1), (5, 7), (6, 7), (7, 7), (8, 7)):
        img.putpixel(xy, 1)
    img.paste(1, (10, 0, 12, 4))
    out = io.StringIO()
    TerminalScreen(out=out).show(img)
    frame = out.getvalue()
    assert all(ch in frame for ch in drawn), frame[:300]
    assert not any(ch in frame for ch in ("▀▄█" if drawn != "▀▄█" else "⠁⢀⣿")), frame[:300]


@pytest.mark.parametrize("term,blocks,drawn", [("linux", None, "▀▄█"), ("linux", "0", "⠁⢀⣿"), ("xterm", None, "⠁⢀⣿"),
                                               ("xterm", "1", "▀▄█")])
def test_scripted_frames_in_the_linux_console_are_half_blocks_unless_told_otherwise(monkeypatch, term, blocks, drawn):
    """README: half-blocks are the default in the Linux console, "also the frames of --script". A
    --script run on a Pi's own screen (TERM=linux, no braille in its fonts) printed braille all the
    same — rows of diamonds — unless LEGATUS_BLOCKS=1 was found; its frames follow the simulator's
    rule now (LEGATUS_BLOCKS=0 keeps braille)."""
    import io

    from firmware.terminal import ScriptScreen
    monkeypatch.setenv("TERM", term)
    if blocks is None:
        monkeypatch.delenv("LEGATUS_BLOCKS", raising=False)
    else:
        monkeypatch.setenv("LEGATUS_BLOCKS", blocks)
    img = Image.new("1", (128, 64), 0)
    for xy in ((0, 0), (2, 1), (5, 7), (6, 7), (7, 7), (8, 7)):
        img.putpixel(xy, 1)
    img.paste(1, (10, 0, 12, 4))
    out = io.StringIO()
    ScriptScreen(out=out).show(img)
    frame = out.getvalue()
    assert all(ch in frame for ch in drawn), frame[:300]
    assert not any(ch in frame for ch in ("▀▄█" if drawn != "▀▄█" else "⠁⢀⣿")), frame[:300]


@pytest.mark.parametrize("lang,said", [("en", "type the key names, one a line, then Ctrl-D"),
                                       ("ru", "введите названия кнопок, по одному в строке, затем нажмите Ctrl-D"),
                                       ("uk", "введіть назви кнопок, по одній у рядку, потім натисніть Ctrl-D")])
def test_a_script_read_from_a_terminal_says_it_waits_for_the_keys(tmp_path, lang, said):
    """``legatus --script -`` at a terminal waited in silence for key names until Ctrl-D, as if it
    had hung. It says what it waits for, in the device's language (it was English on a Russian or
    Ukrainian device); the keys typed are then run."""
    import pty
    import select
    import time
    if lang != "en":
        subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(tmp_path / "st")],
                       input=f"settings language={lang}\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "firmware.cli", "--state-dir", str(tmp_path / "st"), "--script",
                                   "-"], {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"})
    out, end, status = b"", time.monotonic() + 60, None
    try:
        while b"Ctrl-D" not in out and time.monotonic() < end - 45:     # (said at once: 15 s at most)
            if select.select([fd], [], [], 0.1)[0]:
                out += os.read(fd, 65536)
        assert said.encode() in out, out
        os.write(fd, b"a\ndown\n\x04")
        while status is None and time.monotonic() < end:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    pass
            done, raw = os.waitpid(pid, os.WNOHANG)
            status = os.waitstatus_to_exitcode(raw) if done else None
    finally:
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    assert status == 0 and b"frame after: down" in out, out[-500:]


@pytest.fixture
def english_cli(monkeypatch, tmp_path):
    """The command line's refusals in English whatever the machine running the tests speaks: a C
    locale and a default state directory with no language chosen (firmware.start_language.player_language)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("LEGATUS_STATE_DIR", str(tmp_path / "default-state"))


@pytest.mark.parametrize("argv,said", [
    (["--script", "-", "--serial", "loop://"], "argument --serial: not allowed with argument --script"),
    (["--script", "-", "console"], "argument --script: not allowed with 'console'"),
    (["--script", "-", "--serial", "loop://", "console"], "argument --script: not allowed with 'console'"),
    (["--script", "-", "doctor"], "argument --script: not allowed with 'doctor'"),
])
@pytest.mark.usefixtures("english_cli")
def test_a_script_refuses_what_it_would_ignore(monkeypatch, capsys, argv, said):
    """QA (small): ``legatus --script FILE --serial PORT`` ran the script and never opened the port,
    saying nothing (a scripted run ends at its file's end: no peer is served), and ``legatus --script
    FILE console`` served the console on stdin without reading the file. Refused as argparse refuses
    a bad option: usage, the reason, exit status 2, nothing run; ``--help`` says it."""
    import importlib

    from firmware import cli
    ran = []
    for runs in ("firmware.device.run_device", "firmware.console.run_console", "firmware.doctor.run_doctor"):
        module, name = runs.rsplit(".", 1)
        monkeypatch.setattr(importlib.import_module(module), name, lambda *a, **k: ran.append(a) or 0)
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and not ran and "usage: legatus" in err and said in err, err
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "(not with --serial)" in " ".join(capsys.readouterr().out.split())


def _runs_nothing(monkeypatch) -> list:
    """What the device, the console and the doctor would have been started with (nothing runs)."""
    import importlib
    ran: list = []
    for runs in ("firmware.device.run_device", "firmware.console.run_console", "firmware.doctor.run_doctor"):
        module, name = runs.rsplit(".", 1)
        monkeypatch.setattr(importlib.import_module(module), name,
                            lambda *a, name=name, **k: ran.append((name, a)) or 0)
    from firmware import logs
    monkeypatch.setattr(logs, "setup", lambda *a, **k: None)
    monkeypatch.setattr(logs, "remember_state_dir", lambda d: None)
    return ran


@pytest.mark.parametrize("argv,said", [
    (["--config", "my.toml", "--sim"], "argument --config: not allowed with argument --sim (the simulator has no panel"),
    (["--config", "my.toml", "--script", "-"], "argument --config: not allowed with argument --script"),
    (["--config", "my.toml"], "argument --config: this is not a Raspberry Pi, so the simulator would run"),
    (["--config", "my.toml", "console"], "argument --config: not allowed with 'console'"),
    (["--sim", "console"], "argument --sim: not allowed with 'console'"),
    (["--sim", "doctor"], "argument --sim: not allowed with 'doctor'"),
    (["--serial", "loop://", "doctor"], "argument --serial: not allowed with 'doctor'"),
    (["--baud", "9600", "--sim"], "argument --baud: not allowed without --serial (it is the serial port's speed)"),
    (["--baud", "9600", "--script", "-"], "argument --baud: not allowed without --serial"),
    (["console", "--baud", "9600"], "argument --baud: not allowed without --serial (it is the serial port's speed; "
                                    "the console on stdin/stdout has none)"),
    (["--baud", "9600", "console"], "argument --baud: not allowed without --serial"),
    (["--baud", "9600", "doctor"], "argument --baud: not allowed without --serial"),
    (["--serial", "loop://", "--baud", "0"], "argument --baud: invalid speed '0': a serial port's speed is one of 50, "),
    (["--serial", "loop://", "--baud", "-9600"], "argument --baud: invalid speed '-9600'"),
    (["--serial", "loop://", "--baud", "11520"], "argument --baud: invalid speed '11520'"),
    (["console", "--serial", "loop://", "--baud", "99999999999"], "argument --baud: invalid speed '99999999999'"),
    (["console", "--serial", "loop://", "--baud", "fast"], "argument --baud: invalid speed 'fast'"),
])
@pytest.mark.usefixtures("english_cli")
def test_an_option_the_chosen_mode_would_ignore_is_refused(monkeypatch, capsys, argv, said):
    """QA (cli): ``legatus --config FILE --sim`` (or ``--script``, or anywhere not a Pi, where the
    simulator runs) read no config and said nothing, nor did ``legatus console --config FILE``;
    ``--baud N`` without ``--serial`` was ignored the same way; ``--baud 0`` or ``-9600`` got as far
    as the port (the device then tried it again every 2 s for ever, unseen behind the simulator), and
    ``--baud 11520`` (for 115200) opened it at a speed no terminal uses. Each is refused as argparse
    refuses a bad option: usage, the reason, exit status 2, nothing run."""
    import hw.display
    from firmware import cli
    monkeypatch.setattr(hw.display, "probe_hardware", lambda *a, **k: False)      # a laptop
    ran = _runs_nothing(monkeypatch)
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    err = " ".join(capsys.readouterr().err.split())
    assert stop.value.code == 2 and not ran and "usage: legatus" in err and said in err, err


@pytest.mark.parametrize("argv,runs,got,wanted", [
    (["--config", "my.toml"], "run_device", lambda a: a[0].config, "my.toml"),
    (["--serial", "loop://"], "run_device", lambda a: a[0].baud, 115200),
    (["--serial", "loop://", "--baud", "9600"], "run_device", lambda a: a[0].baud, 9600),
    (["console"], "run_console", lambda a: a[1:], (None, 115200)),
    (["console", "--serial", "loop://", "--baud", "57600"], "run_console", lambda a: a[1:], ("loop://", 57600)),
    (["--baud", "9600", "console", "--serial", "loop://"], "run_console", lambda a: a[1:], ("loop://", 9600)),
    (["--serial", "loop://", "console", "--baud", "4800"], "run_console", lambda a: a[1:], ("loop://", 4800)),
    (["--config", "my.toml", "doctor"], "run_doctor", lambda a: a[1], "my.toml"),
])
def test_the_options_a_mode_uses_reach_it(tmp_path, monkeypatch, argv, runs, got, wanted):
    """On a Pi ``--config`` is the device's; ``--baud`` is the serial port's, written before or after
    ``console`` (``legatus --baud 9600 console --serial PORT`` opened the port at 115200, and
    ``legatus --serial PORT console --baud 4800`` too: the speed given was dropped)."""
    import hw.display
    from firmware import cli
    monkeypatch.setattr(hw.display, "probe_hardware", lambda *a, **k: True)       # a Pi
    monkeypatch.chdir(tmp_path)
    ran = _runs_nothing(monkeypatch)
    monkeypatch.setattr("hw.splash.early", lambda *a, **kw: None)
    assert cli.main(argv) == 0
    value = got(ran[0][1])
    assert ran[0][0] == runs and (value == wanted or value == str(tmp_path / wanted)), ran


def test_the_speeds_baud_takes_are_pyserials_standard_rates():
    """``--baud`` checks its value against hw.serial_link.BAUD_RATES (no pyserial import at every
    start): the same list as pyserial's."""
    import serial

    from hw.serial_link import BAUD_RATES
    assert BAUD_RATES == tuple(serial.SerialBase.BAUDRATES)


@pytest.mark.parametrize("lang,said", [
    ("en", "the simulator draws its frame in the terminal, but its output goes to a file or a pipe"),
    ("ru", "симулятор рисует кадр в терминале, а его вывод направлен в файл или канал"),
    ("uk", "симулятор малює кадр у терміналі, а його виведення спрямоване у файл або канал"),
])
def test_the_simulator_with_its_output_redirected_says_so_rather_than_run_blind(tmp_path, lang, said):
    """QA (cli): ``legatus --sim > frames.txt`` at a terminal ran with its frames going into the file:
    the player saw nothing, the keys acted unseen (a game could be started, a die rolled) and
    nothing said why. It says so on stderr in the device's language, with the way out (--script
    prints every frame), and stops with exit status 2 before a key is read or a frame drawn; with
    its keys piped in instead it names ``--script -``, which then reads them."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    st, frames = str(tmp_path / "st"), tmp_path / "frames.txt"
    if lang != "en":
        subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", st],
                       input=f"settings language={lang}\n", capture_output=True, text=True, timeout=60, cwd=ROOT,
                       env=env, check=True)
    redirected = ("import os, sys; os.dup2(os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT), 1); "
                  "from firmware.cli import main; sys.exit(main(sys.argv[2:]))")
    status, out, echoes = _in_a_terminal(["-c", redirected, str(frames), "--sim", "--state-dir", st], {}, [b"a"],
                                         timeout=30)
    assert status == 2 and echoes and said in " ".join(out.split()) and "--script FILE" in out, out[-800:]
    assert frames.read_text(encoding="utf-8") == ""
    piped = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--state-dir", st], input=b"down\n",
                           capture_output=True, timeout=60, cwd=ROOT, env=env)
    quoted = "'--script -'" if lang == "en" else "«--script -»"                  # ru/uk quote with «»
    assert piped.returncode == 2 and quoted in piped.stderr.decode("utf-8"), piped.stderr
    scripted = subprocess.run([sys.executable, "-m", "firmware.cli", "--sim", "--state-dir", st, "--script", "-"],
                              input=b"down\n", capture_output=True, timeout=60, cwd=ROOT, env=env)
    assert scripted.returncode == 0 and b"--- frame after: down" in scripted.stdout, scripted.stderr


@pytest.mark.parametrize("argv", [["--state-dir", ""], ["--script", " "], ["--serial", ""], ["--config", ""],
                                  ["console", "--state-dir", ""], ["console", "--serial", ""],
                                  ["doctor", "--config", ""], ["doctor", "--state-dir", ""]])
@pytest.mark.usefixtures("english_cli")
def test_an_empty_path_or_port_is_refused_not_taken_for_the_default(monkeypatch, capsys, argv):
    """QA (cli): ``legatus --state-dir "$DIR"`` with DIR not set kept the games in the default state
    directory, ``--script ''`` ran the interactive simulator, ``--serial ''`` served no port and
    ``--config ''`` read the default file, each without a word: refused, nothing run."""
    import hw.display
    from firmware import cli
    monkeypatch.setattr(hw.display, "probe_hardware", lambda *a, **k: True)       # a Pi: --config is used
    ran = _runs_nothing(monkeypatch)
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    err = " ".join(capsys.readouterr().err.split())
    option = next(a for a in argv if a.startswith("--"))
    assert stop.value.code == 2 and not ran and f"argument {option}: empty (a shell variable that is not set?)" in err, err


@pytest.mark.parametrize("lang,encoding,said", [
    ("ru", "koi8-r", "legatus: кодировка этого терминала (koi8-r) не может показать кадр симулятора (символы Брайля и "
                     "рамки): запустите симулятор с локалью UTF-8, например LANG=C.UTF-8 legatus"),
    ("uk", "koi8-u", "legatus: кодування цього термінала (koi8-u) не може показати кадр симулятора (символи Брайля та "
                     "рамки): запустіть симулятор з локаллю UTF-8, наприклад LANG=C.UTF-8 legatus"),
    ("ru", "ascii", "legatus: this terminal's encoding (ascii) cannot show the simulator's frame (braille and box "
                    "characters): run it with a UTF-8 locale, e.g. LANG=C.UTF-8 legatus"),
])
def test_a_terminal_encoding_without_braille_is_told_so_in_the_players_words_where_it_can_write_them(
        monkeypatch, lang, encoding, said):
    """A KOI8-R or KOI8-U terminal writes Cyrillic but no braille: the simulator's refusal of it was
    English on a Russian or Ukrainian device; said in the device's words where the encoding writes
    them, in English where it cannot (ASCII)."""
    import io

    from firmware import i18n, terminal
    monkeypatch.setattr(terminal, "stdin_is_tty", lambda: True)
    monkeypatch.setattr(terminal, "_is_tty", lambda out: True)
    monkeypatch.setenv("TERM", "xterm")
    out = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    i18n.set_language(lang)
    try:
        assert terminal.terminal_problem(out) == said
    finally:
        i18n.set_language("en")


def test_the_simulators_terminal_shows_no_log_info_lines(tmp_path):
    """The simulator at a terminal printed the log's INFO lines on it, English, around its frame:
    "INFO firmware.store: created the state directory …", "INFO firmware.logs: start: legatus …
    (clock not set)" before it, and "INFO firmware.logs: stop: legatus ended normally" under the
    last frame after q. The terminal is the player's; those lines are the log file's (kept there)."""
    st = tmp_path / "st"
    status, out, echoes = _in_a_terminal(["-m", "firmware.cli", "--sim", "--state-dir", str(st)], {}, [b"q"],
                                         timeout=60)
    assert status == 0 and echoes and "┌" in out, out[-800:]
    assert "INFO" not in out and "created the state directory" not in out and "ended normally" not in out, out[-800:]
    log = (st / "legatus.log").read_text(encoding="utf-8")
    assert "created the state directory" in log and "start: legatus" in log and "stop: legatus ended normally" in log


class _SlowCommits:
    """A store's database on a slow card: each COMMIT takes ``delay`` s."""

    def __init__(self, db, delay: float) -> None:
        self._db, self.delay = db, delay

    def execute(self, sql, *args):
        if sql == "COMMIT":
            import time
            time.sleep(self.delay)
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def test_keys_typed_on_the_saving_sign_do_nothing_in_the_simulator_as_on_the_device(state_dir, monkeypatch):
    """On a slow card "Saving…" goes up over the frame (firmware/saving_sign.py) and the device drops
    the presses begun while it was up: they would act on a screen not seen yet. The simulator's keys
    carried no time, so the keys typed on its sign acted once the save was done. They carry the time
    the keyboard read them now: a key typed on the sign does nothing, one typed after it acts."""
    import pty
    import queue
    import termios
    import threading
    import time

    from firmware.device import Loop
    from firmware.saving_sign import SavingSign
    from firmware.terminal import keyboard_reader
    from tests.screens import app_with

    class Shown:
        """The simulator's screen (drawn from the loop's thread and the sign's timer)."""

        def __init__(self) -> None:
            self.frames: list = []
            self.signed = threading.Event()

        def show(self, img) -> None:
            self.frames.append(img)
            if threading.current_thread() is not threading.main_thread():
                self.signed.set()

        def blank(self, blanked, img) -> None:
            pass

        def contrast(self, level) -> None:
            pass

    app = app_with(["new dice seed=1"], [], state_dir)
    store = app.console.store
    out = Shown()
    loop = Loop(app, out)                                   # the simulator's loop: no key filter
    loop.redraw()
    store.watch = SavingSign(loop, delay=0.1)
    real, store.db = store.db, _SlowCommits(store.db, 0.6)
    events: queue.Queue = queue.Queue()
    master, slave = pty.openpty()
    typed_on_the_sign = []

    def type_on_the_sign() -> None:
        if out.signed.wait(5):
            os.write(master, b"\x1b[B")                    # down, while "Saving…" is up
            typed_on_the_sign.append(True)
    try:
        with open(slave, "r", closefd=True) as tty_in:
            monkeypatch.setattr(sys, "stdin", tty_in)
            reader = threading.Thread(target=keyboard_reader, args=(events,), daemon=True)
            reader.start()
            for _ in range(500):                            # the keys once the reader has the terminal
                if not termios.tcgetattr(slave)[3] & termios.ICANON:
                    break
                time.sleep(0.01)
            cursor = app.stack[-1].cursor
            typist = threading.Thread(target=type_on_the_sign)
            typist.start()
            replies: list[bytes] = []
            loop.handle(("line", b"roll 2d6", False, replies.append))     # a save on the slow card
            typist.join(5)
            assert typed_on_the_sign and store.watch.shown == 1 and b'"ok":true' in replies[0]
            key = events.get(timeout=5)                     # (read while the loop was saving)
            assert key[:2] == ("key", "down")
            loop.handle(key)
            assert app.stack[-1].cursor == cursor           # typed on the sign: nothing
            os.write(master, b"\x1b[Bq")                   # down after it: as always
            loop.handle(events.get(timeout=5))
            assert app.stack[-1].cursor == cursor + 1
            reader.join(10)
    finally:
        os.close(master)
        store.db = real
        store.watch = None
        app.console.close()


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize("columns", [60, 40, 24])
def test_a_terminal_too_small_is_told_so_in_whole_words(lang, columns):
    """The too-small line was written as one line and the terminal cut it at its width wherever the
    width fell: in a 60-column window the Russian sentence ended on a line of its own, «.», and at
    40 columns words were cut in two. Now it is wrapped at the terminal's width between words: every
    row fits, and the rows put back together with spaces are the sentence."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    from firmware import i18n
    from firmware.terminal import TerminalScreen, too_small
    i18n.set_language(lang)
    master, slave = pty.openpty()
    screen_out = open(slave, "w", encoding="utf-8", closefd=True)
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 15, columns, 0, 0))
        TerminalScreen(out=screen_out, blocks=False).show(Image.new("1", (128, 64), 0))
        said = b""
        while select.select([master], [], [], 0.2)[0]:
            said += os.read(master, 1 << 16)
        rows = [r for r in said.decode("utf-8").split("\x1b[2J")[-1].split("\r\n") if r]
        sentence = "legatus: " + too_small((columns, 15), (66, 20), lang)
        assert len(rows) > 1 and all(len(r) <= columns for r in rows), rows
        assert " ".join(rows) == sentence, rows
        assert all(len(r) > 1 for r in rows), rows           # no stop or word end alone on a row
    finally:
        screen_out.close()
        os.close(master)
        i18n.set_language("en")


def test_a_terminal_that_hung_up_ends_the_simulator_normally_not_by_an_error(state_dir, caplog):
    """The terminal window closed (or the ssh link dropped) while the simulator ran: the keyboard
    reader sees EIO and puts a quit, but a frame due first — the idle blanking, as seen in a new
    user's legatus.log — was written to the dead terminal, and the program stopped "by an error"
    (OSError: Input/output error, a traceback, CRITICAL). Frames are dropped from then on (said
    once in the log) and the quit ends the loop as q does."""
    import errno
    import io
    import logging

    from firmware.device import Loop
    from firmware.terminal import TerminalScreen
    from tests.screens import app_with

    class HungUp(io.StringIO):
        gone = False

        def write(self, text: str) -> int:
            if self.gone:
                raise OSError(errno.EIO, "Input/output error")
            return super().write(text)

    clock = [0.0]
    app = app_with(["settings screen_off=30"], [], state_dir)
    out = HungUp()
    loop = Loop(app, TerminalScreen(out=out), None, clock=lambda: clock[0])
    try:
        loop.redraw()
        assert "┌" in out.getvalue()
        out.gone = True
        clock[0] = 30.5
        with caplog.at_level(logging.INFO, logger="firmware.terminal"):
            loop.tick()                       # the idle blanking, due before the reader's quit is taken
            loop.handle(("key", "down"))      # (a key read before the hang-up: its frame is dropped too)
        assert [r.getMessage() for r in caplog.records if "terminal is gone" in r.getMessage()] == [
            "display: the terminal is gone ([Errno 5] Input/output error); its frames are dropped"]
        loop.handle(("quit",))
        assert not loop.running
    finally:
        app.console.close()


def test_q_gives_the_terminal_back_even_when_the_program_ends_while_the_keyboard_thread_puts_it_back(monkeypatch):
    """On q the keyboard thread forgot the terminal's mode, then put it back; the main thread,
    handed the quit, ended the program meanwhile: its exit found no mode to put back, and the
    thread's put-back died with the program (under load, behind the frame's output: TCSADRAIN).
    The shell then echoed nothing. The exit now waits for that put-back, or does it itself."""
    import pty
    import queue
    import termios
    import threading
    import time

    from firmware import terminal
    monkeypatch.setattr(terminal, "_MODES", terminal._Modes())
    real_set = termios.tcsetattr
    putting_back = threading.Event()

    def slow_set(fd, when, mode):               # the reader's put-back, slow (a loaded machine)
        if threading.current_thread() is not threading.main_thread() and mode[3] & termios.ECHO:
            putting_back.set()
            time.sleep(0.5)
        return real_set(fd, when, mode)

    master, slave = pty.openpty()
    events: queue.Queue = queue.Queue()
    try:
        with open(slave, "r", closefd=False) as tty_in:
            monkeypatch.setattr(sys, "stdin", tty_in)
            monkeypatch.setattr(termios, "tcsetattr", slow_set)
            reader = threading.Thread(target=terminal.keyboard_reader, args=(events,), daemon=True)
            reader.start()
            for _ in range(1000):
                if not termios.tcgetattr(slave)[3] & termios.ICANON:
                    break
                time.sleep(0.01)
            os.write(master, b"q")
            assert events.get(timeout=10)[:2] == ("key", "quit")
            assert putting_back.wait(10)
            terminal._restore_modes(final=True)    # the exit (atexit): the daemon thread dies after it
            echoes = termios.tcgetattr(slave)[3] & termios.ECHO
            reader.join(10)                        # (before its terminal's numbers are reused)
            assert echoes, "the shell gets a terminal without echo"
    finally:
        os.close(master)
        os.close(slave)


def test_a_keyboard_thread_that_starts_after_the_exit_leaves_the_terminal_as_it_was(monkeypatch):
    """A keyboard thread slow to start (a loaded machine; Ctrl-C or an error ended the program at
    once) put the terminal in cbreak mode after the exit had put it back: the shell echoed nothing.
    Once the exit has put the terminal back, no thread takes it again."""
    import pty
    import queue
    import termios
    import threading

    from firmware import terminal
    monkeypatch.setattr(terminal, "_MODES", terminal._Modes())
    master, slave = pty.openpty()
    events: queue.Queue = queue.Queue()
    try:
        with open(slave, "r", closefd=False) as tty_in:
            monkeypatch.setattr(sys, "stdin", tty_in)
            terminal._restore_modes(final=True)                 # the exit, before the thread ran
            reader = threading.Thread(target=terminal.keyboard_reader, args=(events,), daemon=True)
            reader.start()
            reader.join(2)                                      # (it ends at once: nothing to read for)
            lflag = termios.tcgetattr(slave)[3]
            os.write(master, b"q")                              # (a reader that took the terminal ends)
            reader.join(10)
            assert lflag & termios.ECHO and lflag & termios.ICANON, "the shell gets a terminal without echo"
            assert events.get_nowait() == ("quit",)
    finally:
        os.close(master)
        os.close(slave)
