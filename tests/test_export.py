"""``export format=bgstats|csv [id=…]`` (PROTOCOL.md "Added in version 1"): the documents are read
back by json.loads and the csv module, as another program would, over stdin/stdout and a serial
link (a pty stands in for the UART)."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import tty

from tests.conftest import ROOT, console_cmd, run_console
from tests.test_serial import _read_line

GAMES = ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight",
         "new sword players=romans,gauls,etruscans seed=1", "scoring gauls outside=5 auto=4",
         "new caesar-solo difficulty=hard seed=3", "crassus",
         "new dice seed=1"]


def test_bgstats_and_csv_parse_and_agree_with_history(state_dir):
    replies = run_console(state_dir, GAMES + ["history", "export format=bgstats", "export format=csv",
                                              "export format=bgstats id=1", "export format=csv id=2"])
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]]
    hist, newest, sheet, first, second = replies[-5:]
    games = hist["games"]
    assert [g["game"] for g in games] == ["caesar-solo", "sword", "jc-battle"]
    assert games[0]["status"] == "abandoned" and games[1]["status"] == "finished"

    play = json.loads(newest["text"])
    assert play == newest["play"]
    assert play["game"]["name"] == "Caesar! Seize Rome in 20 Minutes" and "bggId" not in play["game"]
    assert play["ignored"] is True                                       # abandoned
    assert [p["name"] for p in play["players"]] == ["Caesar", "Auto-Crassus"]     # side=caesar by default
    assert len(play["playDate"]) == 19 and play["playDate"][10] == " "
    for p in play["players"]:
        assert set(p) == {"name", "score", "winner", "startPlayer"}

    jc = json.loads(first["text"])
    assert jc["game"]["name"] == "Julius Caesar" and jc["sourcePlayId"] == "1"
    assert [p["winner"] for p in jc["players"]] == [p["winner"] for p in games[2]["players"]]
    assert [p["startPlayer"] for p in jc["players"]] == [True, False]    # Caesar attacked

    rows = list(csv.DictReader(io.StringIO(sheet["text"])))
    assert len(rows) == sum(len(g["players"]) for g in games)            # one row per player per game
    assert [r["id"] for r in rows] == [str(g["id"]) for g in games for _p in g["players"]]
    gauls = next(r for r in rows if r["player"] == "Gauls")
    assert gauls["winner"] == "1" and gauls["game"] == "sword" and "automatic" in gauls["result"]
    assert sum(r["winner"] == "1" for r in rows if r["id"] == "2") == 1
    only = list(csv.DictReader(io.StringIO(second["text"])))
    assert {r["id"] for r in only} == {"2"} and len(only) == 3


def test_export_over_the_serial_link(state_dir):
    run_console(state_dir, GAMES[:4])
    master, slave = os.openpty()
    tty.setraw(master)
    proc = subprocess.Popen(console_cmd(state_dir, "--serial", os.ttyname(slave)), cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE)
    try:
        assert b"console on" in proc.stderr.readline()
        os.write(master, b"export format=bgstats\r\n")
        got = _read_line(master)
        assert json.loads(got["text"])["game"]["name"] == "Julius Caesar"
        os.write(master, b"export format=csv\n")
        rows = list(csv.reader(io.StringIO(_read_line(master)["text"])))
        assert rows[0][:3] == ["id", "game", "name"] and len(rows) == 3
        os.write(master, b"quit\n")
        assert _read_line(master)["bye"] is True
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)


def test_the_result_column_and_comments_follow_the_language(state_dir):
    replies = run_console(state_dir, GAMES[:4] + ["settings language=uk", "export format=csv",
                                                  "export format=bgstats", "settings language=en"])
    sheet, play = replies[-3], replies[-2]
    assert "Битва 1" in sheet["text"] and "Битва 1" in play["play"]["comments"]
    assert play["play"]["game"]["name"] == "Julius Caesar"               # the box name stays English
