"""End to end through the real console (``legatus console`` in a subprocess): the protocol's
Sword of Rome commands and field names (PROTOCOL.md), W-1, W-6, W-7, W-12."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def test_the_log_says_what_a_tactics_test_does(tmp_path: Path):  # W-1
    """The log said «выпало 6+0 = 6, провал» alone: which test
    failed, and that the defender now has −1 in the battle, was lost once the notice was gone."""
    out = console(["settings language=ru", "new sword players=romans,gauls seed=1", "tactics 2 die=6 kind=avoid",
                   "tactics 3 die=1", "log 2", "settings language=uk", "log 2", "undo"], tmp_path)
    assert out[4]["log"] == ["Проверка тактики 2 (шанс 1/3): выпало 6+0 = 6, провал: защитник получает −1 в битве "
                             "(W-1).", "Проверка тактики 3 (шанс 1/2): выпало 1+0 = 1, успех."]
    assert out[6]["log"][0] == ("Перевірка тактики 2 (шанс 1/3): випало 6+0 = 6, провал: захисник отримує −1 у "
                                "битві (W-1).")
    assert out[7]["undone"] == "Скасовано: перевірка тактики 3 (1+0 = 1, успіх). Скасуйте на мапі все, що зроблено за нею."


def test_the_log_says_a_tactics_test_s_sure_or_hopeless_chance_as_a_person_writes_it(tmp_path: Path):  # W-1
    """A force without a leader (Tactics 0) cannot pass: the log said «(шанс 0/1)», a fraction no one
    writes (the device's result says 0%); a sure test said «1/1»."""
    out = console(["settings language=ru", "new sword players=romans,gauls seed=1", "tactics 0 die=3",
                   "tactics 6 die=3", "log 2"], tmp_path)
    assert out[2]["chance_fraction"] == "0/1"                     # the reply's field stays as documented
    assert out[4]["log"] == ["Проверка тактики 0 (шанс 0): выпало 3+0 = 3, провал.",
                             "Проверка тактики 6 (шанс 1): выпало 3+0 = 3, успех."]


def test_who_plays_a_desperate_times_card_agrees_with_a_plural_power_in_russian(tmp_path: Path):  # W-12
    """The powers are peoples (Галлы, Римляне) and one city (Карфаген): «Галлы играет» is wrong, so
    the sentence names the power after a colon, as the device's notice does («Играет: Галлы»)."""
    out = console(["settings language=ru", "new sword players=romans,gauls seed=1", "desperate romans,gauls", "log"],
                  tmp_path)
    # the rulebook's term (7.4): «карточка Отчаянных Времён», not «карта»
    assert out[3]["log"][-1] == "Карточку Отчаянных Времён играет: Галлы; свои карточки оставляют: Римляне."


def test_the_powers_are_named_without_a_verb_that_must_agree_with_them_in_english(tmp_path: Path):  # W-11, W-12
    """The powers are peoples (Romans, Gauls) and one city (Carthage): «Romans plays a Desperate Times
    card», «Carthage keep theirs», «Romans has no … card left», «Romans wins on VP» were English a
    reader stumbles on; the power is named after a colon, as the Russian sentences do."""
    out = console(["new sword players=romans,gauls,carthage seed=1", "desperate romans,carthage",
                   "desperate gauls,carthage", "desperate carthage", "log 3", "desperate carthage", "vp romans +2"]
                  + ["advance"] * 45 + ["log 1"], tmp_path)
    assert out[4]["log"] == ["Plays a Desperate Times card: Carthage (W-12); keeping theirs: Romans.",
                             "Plays a Desperate Times card: Gauls (W-12); keeping theirs: Carthage.",
                             "Plays a Desperate Times card: Carthage (W-12)."]
    assert out[5]["message"] == "No Desperate Times card left: Carthage."
    assert out[-1]["log"] == ["Turn 9 is over: won on VP by Romans (ties by W-11 order)."]
    # the sentences they replaced stay in the catalogs: logs stored before still say them translated
    import gettext

    from engine.sword.text import STORED_BEFORE
    for lang in ("ru", "uk"):
        mo = Path(__file__).resolve().parents[1] / "firmware" / "locale" / lang / "LC_MESSAGES" / "sword.mo"
        with open(mo, "rb") as f:
            catalog = gettext.GNUTranslations(f)
        assert all(catalog.gettext(old) != old for old in STORED_BEFORE), lang


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


@pytest.mark.parametrize("lang,said", [("uk", "Із пулу витягнуто консула: "), ("ru", "Из пула вытянут консул: ")])
def test_one_consul_drawn_is_said_in_the_singular(lang: str, said: str):  # W-10
    """The sentence of a draw that is not two consuls (one: Msg.join of a single name) said «витягнуто
    консулів: Валерій» / «вытянуты консулы: Валерий», the plural of one consul."""
    from engine.sword.text import Msg, consul_named
    from firmware.i18n import say
    one = Msg("Consuls drawn from the cup: {} (W-10).", Msg.join([consul_named("Valerius")]))
    text = say(one, lang)
    assert text.startswith(said) and text.endswith(".") and "Valerius" not in text, text


# -- the consuls' cup: drawn once in each reinforcement phase (W-10; the seed's 8.2.2 «В каждой Фазе
# Подкрепления ... тянет двух случайным образом»; PROTOCOL.md: undo restores the generator, so a draw
# seen is never taken again for another result) -----------------------------------------------------
NEW_SWORD = "new sword players=romans,gauls"
DEFAULT_CUP = "Valerius,Camillus,Papirius,Fabius,Decius,Manlius"


def _open(state_dir: Path):
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    return Console(store, store.resume())


def _ok(c, line: str) -> dict:
    out = c.request(line)
    assert out["ok"] is True, (line, out)
    return out


def _refused(c, line: str) -> str:
    """``line`` is refused as an illegal move and changes nothing (state, log); its message."""
    before, log_before = _ok(c, "state")["state"], _ok(c, "log 100")["log"]
    out = c.request(line)
    assert out["ok"] is False and out["error"] == "illegal_move", (line, out)
    assert _ok(c, "state")["state"] == before and _ok(c, "log 100")["log"] == log_before, line
    return str(out["message"])


def test_the_consuls_are_drawn_once_in_each_reinforcement_phase(state_dir: Path):  # W-10, seed 8.2.2
    c = _open(state_dir)
    try:
        _ok(c, NEW_SWORD)                                   # a secret seed, as at the table
        drawn = _ok(c, "consuls")["drawn"]
        said = _refused(c, "consuls")                       # seen, then drawn again: refused
        assert "once in each reinforcement phase" in said and all(n in said for n in drawn), said
        _refused(c, f"consuls pool={DEFAULT_CUP},Cursor")   # nor from another cup in the same phase
        for _ in range(4):
            _ok(c, "advance")                               # rounds 2-5 of the same turn
        _refused(c, "consuls")
        _ok(c, "settings language=ru")
        assert "один раз в каждой Фазе Подкрепления" in _refused(c, "consuls")   # the rulebook's words
        _ok(c, "settings language=uk")
        said = _refused(c, "consuls")
        assert "один раз у кожній Фазі Підкріплення" in said
        # «витягнуто» takes its object in the accusative («витягнуто Камілла»): the names, said in
        # the nominative, stand after a colon, as in «Із пулу витягнуто консулів: …»
        assert "вже витягнуто консулів: " in said, said
        _ok(c, "settings language=en")
    finally:
        c.close()
    c = _open(state_dir)                                    # a restart does not open the cup again
    try:
        _refused(c, "consuls")
        assert _ok(c, "advance")["turn"] == 2                # the next reinforcement phase
        again = _ok(c, "consuls")["drawn"]
        _ok(c, "undo")
        assert _ok(c, "consuls")["drawn"] == again          # undo restores the generator: the same draw
        assert _ok(c, "state")["state"]["consuls"]["drawn"] == again
    finally:
        c.close()


def test_the_same_cup_named_in_another_order_draws_the_same(state_dir: Path):  # W-10, PROTOCOL.md undo
    """After an undo the cup's draw is restored with the generator; naming the same consuls in
    another order (or letter case) drew others from it: a draw seen taken again for another
    result. Asked now, any naming of one cup is run and stored as one line, so it draws the same:
    the cup as it stands, or a new cup (a consul fallen, W-10) in one order."""
    c = _open(state_dir)
    try:
        _ok(c, NEW_SWORD)
        drawn = _ok(c, "consuls")["drawn"]
        for again in (",".join(reversed(DEFAULT_CUP.split(","))), DEFAULT_CUP.lower(), DEFAULT_CUP):
            _ok(c, "undo")
            assert _ok(c, f"consuls pool={again}")["drawn"] == drawn, again      # the cup as it stands
            assert _ok(c, "actions 1")["actions"][0]["line"] == "consuls"
        _ok(c, "undo")
        five = ["Valerius", "Camillus", "Papirius", "Decius", "Manlius"]          # Fabius has fallen
        fallen = _ok(c, "consuls pool=" + ",".join(five))["drawn"]
        assert set(fallen) <= set(five)
        for order in (five[::-1], five[2:] + five[:2], [n.upper() for n in five]):
            _ok(c, "undo")
            again = _ok(c, "consuls pool=" + ",".join(order))["drawn"]
            assert [n.casefold() for n in again] == [n.casefold() for n in fallen], order
        assert _ok(c, "actions 1")["actions"][0]["line"] == "consuls pool=CAMILLUS,DECIUS,MANLIUS,PAPIRIUS,VALERIUS"
    finally:
        c.close()


def test_an_automatic_victory_reached_at_scoring_ends_the_game(state_dir: Path):  # W-11
    """W-11: a power whose VP reach the figure printed on the map for the turn wins at once. History
    filed ``scoring … auto=T`` reaching T as the game won, yet the session went on: VP, rounds and
    Desperate Times were still taken (the game then ran to turn 9 with History's result long
    settled). Now the game is over as after ``victory <power>``, ``undo`` reopens it. Its rolls
    (``tactics``, ``battle``, ``naval``, ``check``) asked now answer game_over too (PROTOCOL third
    round: a game whose rules ended it is already ended; they still rolled); a roll an older
    Legatus stored after the end, given again, replays as it was."""
    c = _open(state_dir)
    try:
        _ok(c, NEW_SWORD + " seed=3")
        assert _ok(c, "scoring gauls outside=5 auto=4")["automatic_victory"] is True
        before = _ok(c, "state")["state"]
        assert before["finished"] is True and before["automatic"] == "gauls"
        for line in ("vp romans +1", "advance", "scoring romans outside=1", "desperate romans", "consuls",
                     "victory romans"):
            out = c.request(line)
            assert out["ok"] is False and out["error"] == "game_over", (line, out)
            assert "automatic victory (Gauls)" in out["message"], out
        assert _ok(c, "state")["state"] == before
        assert _ok(c, "standings")["leader"] == "gauls"
        for line in ("battle att=3 def=3", "tactics 2", "naval", "check siege", "roll 1d6"):
            out = c.request(line)
            assert out["ok"] is False and out["error"] == "game_over", (line, out)
        assert _ok(c, "state")["state"] == before
        c.session.again = ["battle att=3 def=3"]                 # as Earlier games gives a stored line again
        _ok(c, "battle att=3 def=3")
        games = _ok(c, "history")["games"]
        assert [g["result"] for g in games] == ["Gauls won by automatic victory in turn 1."]
        _ok(c, "undo")
        _ok(c, "undo")                                          # the scoring: the game runs again
        assert _ok(c, "state")["state"]["finished"] is False
        _ok(c, "vp romans +1")
        assert _ok(c, "scoring gauls outside=1 auto=4")["automatic_victory"] is False
        assert _ok(c, "state")["state"]["finished"] is False
    finally:
        c.close()


@pytest.mark.parametrize("line", ["vp romans 12", "vp romans 5", "vp romans :3", "vp romans ,1", "vp romans <2",
                                  "unrest 13", "unrest 9", "unrest ;1"])
def test_a_vp_or_unrest_change_without_its_sign_is_refused_and_changes_nothing(state_dir: Path, line: str):  # W-11, W-13
    """«vp romans 12» (meaning 12 VP) took 2 VP off the Romans, «unrest 13» 3 off the unrest: the
    change's sign was read from a character range (``[+-=]`` holds , - . / 0-9 : ; <), and anything
    but + or = subtracted."""
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls,carthage seed=3")
        _ok(c, "vp romans =8")
        _ok(c, "unrest =9")
        before, log = _ok(c, "state")["state"], _ok(c, "log 100")["log"]
        out = c.request(line)
        assert out["ok"] is False and out["error"] == "bad_arguments", out
        assert "+N, -N or =N" in out["message"], out
        assert _ok(c, "state")["state"] == before and _ok(c, "log 100")["log"] == log
        for good, vp, unrest in (("vp romans +2", 10, 9), ("vp romans -3", 7, 9), ("unrest =4", 7, 4)):
            state = _ok(c, good) and _ok(c, "state")["state"]
            assert (state["vp"]["romans"], state["unrest"]["level"]) == (vp, unrest), good
    finally:
        c.close()


def test_a_sign_less_change_stored_by_an_older_version_still_replays_as_it_was(state_dir: Path):  # W-11, W-13
    """An older Legatus took «vp romans 12» as −2: a session it stored with such a line resumes to the
    VP its reply said (what was acknowledged is kept), though the line is refused when asked now."""
    _stored_by_an_older_version(state_dir, ["vp romans =8", "vp romans 12", "unrest =9", "unrest 13"],
                                "new sword players=romans,gauls,carthage")
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state["actions"] == 4 and state["vp"]["romans"] == 6 and state["unrest"]["level"] == 6
    finally:
        c.close()


def _stored_by_an_older_version(state_dir: Path, lines: list[str], new: str = NEW_SWORD) -> Any:
    """A Sword session begun with ``new`` and stored with ``lines`` as an older Legatus took them
    (each run unchecked by today's admit rules); that session (firmware.session.Session)."""
    from firmware.session import Session
    from firmware.store import Store
    store = Store(state_dir)
    old = Session.start(new, 4242, "old")
    store.begin(old)
    for line in lines:
        outcome, new_json = old.run(line)
        assert new_json is not None
        store.commit(old, line, outcome, new_json)
    store.close()
    return old


def test_a_game_played_on_after_an_automatic_victory_by_an_older_version_still_replays(state_dir: Path):  # W-11
    """A session an older Legatus stored with lines after ``scoring … auto=T`` reaching T (it took
    them) resumes to the state those lines give; it shows the game over, as History filed it."""
    _stored_by_an_older_version(state_dir, ["scoring gauls outside=5 auto=4", "vp romans +2", "advance",
                                            "desperate romans"])
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state["actions"] == 4 and state["vp"]["romans"] == 2 and state["round"] == 2
        assert state["finished"] is True and state["automatic"] == "gauls"
    finally:
        c.close()


def test_a_second_draw_stored_by_an_older_version_still_replays_exactly(state_dir: Path):  # W-10
    """A database whose session holds two draws in one turn (an older Legatus took the second)
    resumes to the same state; the next draw asked in that turn is refused and changes nothing."""
    old = _stored_by_an_older_version(state_dir, ["consuls", "advance", "consuls", "check siege"])
    stored = old.view()
    c = _open(state_dir)
    try:
        assert _ok(c, "state")["state"] == stored
        assert c.session.state_json == old.state_json
        _refused(c, "consuls")
    finally:
        c.close()


def test_an_old_journal_with_a_second_draw_in_a_turn_is_imported_as_it_was(state_dir: Path):  # W-10
    from firmware import journal
    from firmware.session import Session
    header = {"v": 1, "game": "sword", "line": NEW_SWORD + " seed=9", "seed": 9, "sid": "old"}
    records = [header, {"line": "consuls"}, {"line": "consuls"}, {"undo": 1}, {"line": "consuls"}]
    (state_dir / "session.journal").write_bytes(b"".join(journal.encode(r) for r in records))
    expected = Session.start(NEW_SWORD + " seed=9", 9, "ref", version=1)
    first = expected.apply("consuls").fields["drawn"]
    second = expected.apply("consuls").fields["drawn"]
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state["actions"] == 2 and state["consuls"]["drawn"] == second
        assert [e for e in _ok(c, "log 10")["log"] if "Consuls drawn" in e][:2] == [
            f"Consuls drawn from the cup: {first[0]} and {first[1]} (W-10).",
            f"Consuls drawn from the cup: {second[0]} and {second[1]} (W-10)."]
        _refused(c, "consuls")
    finally:
        c.close()


def test_an_archived_game_with_a_second_draw_in_a_turn_reopens_whole(state_dir: Path):  # W-10
    """Earlier games: the golden database's Sword of Rome session (written before the fair-draw
    streams) draws the consuls in rounds 1 and 2 of turn 1; reopened, it replays every line to
    the same state, and only a draw asked afterwards is refused."""
    import json
    import shutil

    from firmware.screens.archive import archived, reopen
    from tests.screens import app_with
    from tests.test_fairness_v1 import FIXTURE, GOLDEN, comparable
    shutil.copy(GOLDEN / "v1_sessions.db", state_dir / "legatus.db")
    app = app_with([], [], state_dir)
    try:
        entry = next(a for a in archived(app.archives(100)) if a.game == "sword" and a.lines.count("consuls") == 2)
        stored = next(s for s in FIXTURE if s["header"]["sid"] == entry.header["sid"])
        assert reopen(app, entry)
        again = app.console.session
        assert list(again.lines) == list(entry.lines)               # every line, the second draw too
        assert comparable(again.state_json) == comparable(stored["state"])
        before = again.state_json
        out = app.console.request("consuls")
        assert out["ok"] is False and out["error"] == "illegal_move" and app.console.session.state_json == before
        assert json.loads(before)["consuls"]["turn"] == 1
    finally:
        app.console.close()


def test_a_reopened_game_s_lines_are_given_again_as_stored_until_another_change():  # W-10
    from firmware.session import Session
    s = Session.start(NEW_SWORD + " seed=3", 3, "copy")
    s.again = ["consuls", "advance", "consuls"]
    assert s.given_again("consuls") and s.given_again(" advance ")
    assert not s.given_again("standings") and s.again == ["consuls"]     # a question in between
    assert not s.given_again("vp romans +1") and s.again == []           # another change: the rest is asked
    assert not s.given_again("consuls")


def test_the_gallic_events_table_is_rolled_only_where_nobody_plays_the_gauls(state_dir: Path):  # W-9
    """W-9: the Gallic events table (2d6) is the game without a Gauls player's (the playbook's
    3-player game: «A Gallic event is rolled when the Gallic player's action would occur»; its set-up
    removes every Gaul): with a Gauls player ``check gallic`` was rolled and logged all the same, and
    without the Gauls ``check siege gauls=1`` took the Gauls' −1 for a siege nobody could lay. Both
    are refused and change nothing; the device's 2d6 menu already offered each only where it applies."""
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls,etruscans,greeks seed=5")
        assert "Gauls" in _refused(c, "check gallic") and "Gauls" in _refused(c, "check gallic dice=3,4")
        assert _ok(c, "check siege gauls=1 dice=4,5")["total"] == 8
        _ok(c, "new sword players=romans,etruscans,greeks seed=5")
        assert _ok(c, "check gallic dice=3,4")["total"] == 7
        assert "Gauls" in _refused(c, "check siege gauls=1 dice=4,5")
        assert _ok(c, "check siege dice=4,5")["total"] == 9
        _ok(c, "settings language=ru")
        assert "галл" in _refused(c, "check siege gauls=1").lower()
    finally:
        c.close()


def test_a_gallic_events_roll_stored_by_an_older_version_with_a_gauls_player_still_replays(state_dir: Path):  # W-9
    """An older Legatus rolled ``check gallic`` with a Gauls player: the session it stored resumes
    to the roll it acknowledged (a stored line is replayed, not asked again)."""
    old = _stored_by_an_older_version(state_dir, ["check gallic", "check siege gauls=1"])
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state == old.view() and state["actions"] == 2 and state["last"]["check"] == "siege"
    finally:
        c.close()


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Starting VP are 0 to 12, the figures of the VP track (W-11); not 'romans:13'."),
    ("ru", "Начальные ПО — от 0 до 12, это числа трека ПО (W-11); а не «romans:13»."),
    ("uk", "Початкові ПО — від 0 до 12, це числа треку ПО (W-11); а не «romans:13»."),
])
def test_a_starting_vp_beyond_the_track_is_refused_when_asked_now(state_dir: Path, lang: str, message: str):  # W-11
    """``new sword … vp=romans:13`` (or 99) started a game with 12 VP without a word, while
    ``gauls:-1`` was refused: asked now it is refused in the player's language, naming the figure,
    and the game being played is left as it was."""
    c = _open(state_dir)
    try:
        _ok(c, f"settings language={lang}")
        _ok(c, NEW_SWORD + " seed=5")
        _ok(c, "vp gauls +3")
        before = _ok(c, "state")["state"]
        for vp, part in (("romans:13", "romans:13"), ("gauls:2,romans:99", "romans:99"), ("Romans:13", "Romans:13")):
            out = c.request(NEW_SWORD + f" vp={vp} seed=7")
            assert out["ok"] is False and out["error"] == "bad_arguments", vp
            assert out["message"] == message.replace("romans:13", part), vp
            assert _ok(c, "state")["state"] == before
        state = _ok(c, NEW_SWORD + " vp=romans:12,gauls:0 seed=7")["state"]
        assert (state["vp"]["romans"], state["vp"]["gauls"]) == (12, 0)
    finally:
        c.close()


def test_a_game_stored_with_a_starting_vp_beyond_the_track_still_resumes(state_dir: Path):  # W-11
    """A session an older Legatus stored from ``new sword … vp=romans:13`` resumes with the 12 VP
    it started with (and its lines after it), though that line is refused when asked now."""
    _stored_by_an_older_version(state_dir, ["vp gauls -2", "vp romans -1"], NEW_SWORD + " vp=romans:13,gauls:99")
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state["actions"] == 2 and state["vp"]["romans"] == 11 and state["vp"]["gauls"] == 10
    finally:
        c.close()


NO_ROMANS = "new sword players=gauls,etruscans,greeks"


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("Roman player", "W-10, rule 8.2.2", "Romans are not in this game")),
    ("ru", ("игрока за Римлян", "W-10, правило 8.2.2", "Римлян в этой игре нет")),
    ("uk", ("гравця за Римлян", "W-10, правило 8.2.2", "Римлян у цій грі немає")),
])
def test_the_consuls_are_not_drawn_in_a_game_without_the_romans(state_dir: Path, lang: str, words: tuple):  # W-10
    """W-10, rulebook 8.2.2: «игрок за Римлян возвращает всех консулов в пул, после чего тянет
    двух» — the consuls are the Roman player's leaders and he draws them. In a game without the
    Romans ``consuls`` drew two all the same (and the device offered "Draw consuls"): asked now it
    is refused as an illegal move naming the rule, in the player's language, and changes nothing;
    ``consuls=`` given to such a ``new`` is refused too, and the game being played is kept."""
    c = _open(state_dir)
    try:
        _ok(c, f"settings language={lang}")
        _ok(c, NO_ROMANS + " seed=5")
        for line in ("consuls", "consuls pool=Valerius,Camillus"):
            said = _refused(c, line)
            assert all(w in said for w in words), said
        _ok(c, "vp gauls +2")
        before = _ok(c, "state")["state"]
        out = c.request(NO_ROMANS + " consuls=Valerius,Camillus seed=7")
        assert out["ok"] is False and out["error"] == "bad_arguments", out
        assert words[1] in out["message"] and _ok(c, "state")["state"] == before
        assert _ok(c, NEW_SWORD + " consuls=Valerius,Camillus seed=7")["state"]["consuls"]["pool"] == \
            ["Valerius", "Camillus"]                                 # with the Romans: their cup
        assert len(_ok(c, "consuls")["drawn"]) == 2
    finally:
        c.close()


def test_a_consuls_draw_stored_without_the_romans_by_an_older_version_still_replays(state_dir: Path):  # W-10
    """An older Legatus drew the consuls in a game without the Romans (and started one with
    ``consuls=``): the session it stored resumes to the draw it acknowledged."""
    old = _stored_by_an_older_version(state_dir, ["consuls", "vp gauls +1"], NO_ROMANS + " consuls=Valerius,Camillus,Fabius")
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state == old.view() and state["actions"] == 2 and len(state["consuls"]["drawn"]) == 2
        _refused(c, "consuls")
    finally:
        c.close()


def test_a_tactics_test_undone_rolls_its_die_again_whatever_kind_it_is_asked_as(state_dir: Path):  # W-1
    """A tactics test is one roll (W-1: 1d6 against the commander's Tactics rating); its kind= only
    names what the result does. Each kind= rolled from a stream of its own, so a failed avoid
    undone (a rating entered wrong) and asked again without its kind, or as a pursuit, rolled a
    fresh die: a re-roll by undo, two presses on the device's Test row. Every test now rolls the
    die shown, whatever kind it is asked as, and no die typed in its place is taken."""
    c = _open(state_dir)
    try:
        _ok(c, "new sword players=romans,gauls seed=3")
        assert c.session.header["line"] == "new sword players=romans,gauls seed=3 rolls=tests"
        shown = _ok(c, "tactics 2 kind=avoid")["roll"]
        for again in ("tactics 3", "tactics 2 kind=pursuit", "tactics 2 kind=refuse", "tactics 1 kind=intercept"):
            _ok(c, "undo")
            assert _ok(c, again)["roll"] == shown, again
        _ok(c, "undo")
        other = next(d for d in range(1, 7) if d != shown)
        assert f"rolled {shown}" in _refused(c, f"tactics 2 kind=pursuit die={other}")
    finally:
        c.close()


def test_a_game_stored_with_each_kind_of_tactics_test_apart_replays_as_it_was(state_dir: Path):  # W-1
    """A game an older Legatus stored with ``rolls=apart`` rolled each kind= of tactics test from a
    stream of its own: it replays with those dice; a game started now rolls every test from one."""
    from engine.rng import Draws
    from firmware.session import Session
    old = Session.start("new sword players=romans,gauls seed=2 rolls=apart", 2, "old")
    now = Session.start("new sword players=romans,gauls seed=2 rolls=tests", 2, "now")
    for kind in ("intercept", "avoid", "pursuit", "refuse"):
        assert old.apply(f"tactics 3 kind={kind}").fields["roll"] == Draws.keyed(2).stream(f"sword-tactics-{kind}").die(6)
    one = Draws.keyed(2).stream("sword-tactics")
    assert [now.apply(f"tactics 3 kind={k}").fields["roll"] for k in ("intercept", "avoid", "pursuit")] == \
        [one.die(6) for _ in range(3)]


def test_several_powers_in_round_5_stored_by_an_older_version_replay_as_an_interruption(state_dir: Path):  # W-12
    """Rules 7.4.2 (an interruption: the fewest VP plays) and 7.4.5 (the end of round 5: each plays
    one, most VP first): asked now, several powers in round 5 must say which (``end=0|1``) and are
    refused otherwise, changing nothing; a session an older Legatus stored with such a line (it took
    it as an interruption) resumes to the cards it acknowledged."""
    _stored_by_an_older_version(state_dir, ["vp romans =6", *["advance"] * 4, "desperate romans,gauls"])
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state["actions"] == 6 and state["desperate"] == {"romans": 2, "gauls": 1}
        log = _ok(c, "log 100")["log"]
        out = c.request("desperate romans,gauls")
        assert out["ok"] is False and out["error"] == "bad_arguments" and "end=1" in out["message"], out
        assert _ok(c, "state")["state"] == state and _ok(c, "log 100")["log"] == log
        out = _ok(c, "desperate romans,gauls end=1")
        assert (out["played"], out["kept"], out["end"]) == (["romans", "gauls"], [], True)     # 6 VP, then 0
        assert _ok(c, "state")["state"]["desperate"] == {"romans": 1, "gauls": 0}
        assert _ok(c, "log 1")["log"] == ["Desperate Times at the end of round 5, most VP first (W-12): Romans, Gauls."]
        _ok(c, "undo")
        assert _ok(c, "state")["state"]["desperate"] == {"romans": 2, "gauls": 1}
    finally:
        c.close()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["VP stay within 0–12 (W-11); Gauls: 0 VP, and the change would make it −1.",
            "VP stay within 0–12 (W-11); Romans: 8 VP, and the change would make it 15."]),
    ("ru", ["ПО в пределах 0–12 (W-11); Галлы: 0 ПО, а после изменения было бы −1.",
            "ПО в пределах 0–12 (W-11); Римляне: 8 ПО, а после изменения было бы 15."]),
])
def test_a_vp_change_off_the_track_is_refused_when_asked_now(state_dir: Path, lang: str, said: list[str]):  # W-11
    """The VP track runs 0 to 12 (W-11). «vp gauls -1» at 0 VP was taken and logged «Gauls VP 0 -> 0»,
    a step to undo that changed nothing, and «vp romans +7» at 8 put 12 without a word; the device
    refuses both, as unrest off its range is refused: asked now, so is the line, and nothing changes."""
    c = _open(state_dir)
    try:
        _ok(c, f"settings language={lang}")
        _ok(c, NEW_SWORD + " seed=3")
        _ok(c, "vp romans =8")
        before, log = _ok(c, "state")["state"], _ok(c, "log 100")["log"]
        for line, message in zip(["vp gauls -1", "vp romans +7"], said):
            out = c.request(line)
            assert out["ok"] is False and out["error"] == "illegal_move", out
            assert out["message"] == message
        assert _ok(c, "state")["state"] == before and _ok(c, "log 100")["log"] == log
        assert _ok(c, "vp romans +4")["vp"]["romans"] == 12                # up to the end of the track
    finally:
        c.close()


def test_a_game_stored_with_a_vp_change_off_the_track_still_resumes(state_dir: Path):  # W-11
    """Such a line stored by an older Legatus (it clamped the figure) replays as it ran."""
    _stored_by_an_older_version(state_dir, ["vp gauls -1", "vp romans +15", "vp romans -3"])
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state["actions"] == 3 and state["vp"] == {"romans": 9, "gauls": 0}
    finally:
        c.close()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["Romans: already 8 VP (W-11); nothing to change.",
            "Carthaginian unrest is already 9 (W-13); nothing to change."]),
    ("ru", ["Римляне: уже 8 ПО (W-11); менять нечего.", "Волнения в Карфагене уже 9 (W-13); менять нечего."]),
    ("uk", ["Римляни: вже 8 ПО (W-11); змінювати нічого.",
            "Заворушення в Карфагені вже 9 (W-13); змінювати нічого."]),
])
def test_a_vp_or_unrest_change_that_changes_nothing_is_refused(state_dir: Path, lang: str, said: list[str]):  # W-11, W-13
    """«vp romans =8» at 8 VP (or +0) was taken and logged «Romans VP 8 -> 8»: a step to undo that
    undid nothing; «unrest =9» at 9 likewise. Refused as a change off the track is, nothing changed."""
    c = _open(state_dir)
    try:
        _ok(c, f"settings language={lang}")
        _ok(c, "new sword players=romans,gauls,carthage seed=3")
        _ok(c, "vp romans =8")
        _ok(c, "unrest =9")
        before, log = _ok(c, "state")["state"], _ok(c, "log 100")["log"]
        for line, message in (("vp romans =8", said[0]), ("vp romans +0", said[0]), ("unrest =9", said[1]),
                              ("unrest -0", said[1])):
            out = c.request(line)
            assert out["ok"] is False and out["error"] == "illegal_move", (line, out)
            assert out["message"] == message, out
        assert _ok(c, "state")["state"] == before and _ok(c, "log 100")["log"] == log
        assert _ok(c, "vp romans =9")["vp"]["romans"] == 9 and _ok(c, "unrest =8")["unrest"] == 8
    finally:
        c.close()


def test_a_game_stored_with_a_change_that_changed_nothing_still_resumes(state_dir: Path):  # W-11, W-13
    """Such a line stored by an older Legatus (it took it) replays as it ran: its step is kept."""
    _stored_by_an_older_version(state_dir, ["vp romans =8", "vp romans =8", "unrest =9", "unrest =9"],
                                "new sword players=romans,gauls,carthage")
    c = _open(state_dir)
    try:
        state = _ok(c, "state")["state"]
        assert state["actions"] == 4 and state["vp"]["romans"] == 8 and state["unrest"]["level"] == 9
    finally:
        c.close()
