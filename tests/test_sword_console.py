"""End to end through the real console (``legatus console`` in a subprocess): the protocol's
Sword of Rome commands and field names (PROTOCOL.md), W-1, W-6, W-7, W-12."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("firmware.console")


def console(lines: list[str], state_dir: Path) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state_dir)],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def test_sessionless_sword_commands(tmp_path: Path):
    tactics, battle, odds, seeded_a, seeded_b, bad = console([
        "sword-tactics 3 mod=1 die=2",
        "sword-battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5",
        "sword-odds mod=2",
        "sword-battle att=4 def=4 mod=0 seed=9",
        "sword-battle att=4 def=4 mod=0 seed=9",
        "sword-battle att=4",
    ], tmp_path)
    assert tactics["roll"] == 2 and tactics["success"] is True and tactics["chance"] == pytest.approx(1 / 3)  # W-1
    assert battle["attacker"]["dice"] == [5, 2, 2] and battle["attacker"]["total"] == 12          # W-7
    assert battle["defender"]["total"] == 14 and battle["winner"] == "defender"
    assert (battle["attacker"]["losses"], battle["defender"]["losses"], battle["support"]) == (5, 1, 3)
    assert round(odds["attacker_wins"] * 100, 1) == 63.7                                          # W-6
    assert seeded_a["attacker"]["dice"] == seeded_b["attacker"]["dice"]
    assert bad["ok"] is False and bad["error"] == "bad_arguments"


def test_sword_session_through_the_console(tmp_path: Path):
    out = console([
        "new sword players=romans,gauls,etruscans,greeks seed=2",
        "vp greeks =7", "vp gauls =7",
        "desperate greeks,gauls",                                 # W-12 example: the Gauls play
        "battle att=3 def=2 mod=1",
        "undo",
        "battle att=3 def=2 mod=1",
    ], tmp_path)
    assert out[3]["plays"] == "gauls"
    assert out[4]["attacker"]["dice"] == out[6]["attacker"]["dice"]      # undo never re-rolls
    assert out[5]["state"]["desperate"]["gauls"] == 1


def test_a_tactics_tests_effect_is_said_in_the_players_language(tmp_path: Path):  # W-1
    """``effect`` is a sentence for a person (PROTOCOL.md: every such sentence follows the language),
    also in the session's ``last`` after a restart."""
    out = console(["settings language=ru", "sword-tactics 3 die=1 kind=intercept",
                   "new sword players=romans,gauls seed=1", "tactics 2 die=6 kind=avoid"], tmp_path)
    assert out[1]["effect"] == "защитник получает +1 в последующей битве (W-1)"
    assert out[3]["effect"] == "защитник получает −1 в битве (W-1)"
    again = console(["settings language=uk", "state"], tmp_path)
    assert again[1]["state"]["last"]["effect"] == "захисник отримує −1 у битві (W-1)"


def test_who_plays_a_desperate_times_card_agrees_with_a_plural_power_in_russian(tmp_path: Path):  # W-12
    """The powers are peoples (Галлы, Римляне) and one city (Карфаген): «Галлы играет» is wrong, so
    the sentence names the power after a colon, as the device's notice does («Играет: Галлы»)."""
    out = console(["settings language=ru", "new sword players=romans,gauls seed=1", "desperate romans,gauls", "log"],
                  tmp_path)
    # the rulebook's term (7.4): «карточка Отчаянных Времён», not «карта»
    assert out[3]["log"][-1] == "Карточку Отчаянных Времён играет: Галлы; свои карточки оставляют: Римляне."


@pytest.mark.parametrize("lang, said", [("ru", "Римляне: автоматическая победа на 2-м ходу."),
                                        ("uk", "Римляни: автоматична перемога на 2-му ході.")])
def test_an_automatic_victory_names_its_turn_in_good_russian_and_ukrainian(tmp_path: Path, lang, said):  # W-11
    # History's result of a game won by an automatic victory: «в ходу 2» is Russian for "in use"
    out = console([f"settings language={lang}", "new sword players=romans,gauls seed=1"] + ["advance"] * 5
                  + ["scoring romans outside=5 auto=4", "history"], tmp_path)
    assert out[-2]["automatic_victory"] is True
    assert out[-1]["games"][0]["result"] == said


def test_the_winner_after_turn_9_is_named_without_a_verb_that_must_agree_with_it(tmp_path: Path):  # W-11
    out = console(["settings language=ru", "new sword players=romans,gauls seed=1", "vp romans +2"]
                  + ["advance"] * 45 + ["log"], tmp_path)
    assert out[-2]["finished"] is True and out[-2]["winner"] == "romans"
    assert out[-1]["log"][-1] == "Ход 9 окончен: победа по ПО — Римляне."



def test_the_consuls_cup_refusal_is_said_with_the_number_in_ukrainian(tmp_path: Path):  # W-10
    """«щонайменше 2 різних імен» is no Ukrainian: after 2 the noun is «імені»."""
    _, _, uk, _, ru = console(["settings language=uk", "new sword players=romans,gauls", "consuls pool=Appius",
                               "settings language=ru", "consuls pool=Appius"], tmp_path)
    assert uk["error"] == "bad_arguments" and "2 різні імені" in uk["message"] and "імен," not in uk["message"], uk
    assert ru["error"] == "bad_arguments" and "не меньше 2 разных имён" in ru["message"], ru
