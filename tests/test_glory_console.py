"""End to end through the real console (``legatus console`` in a subprocess): the protocol's
Glory of Rome commands and field names (PROTOCOL.md), G-6, G-7, G-16."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_glory_scoring import EXAMPLE

pytest.importorskip("firmware.console")


def console(lines: list[str], state_dir: Path) -> list[dict]:
    proc = subprocess.run([sys.executable, "-m", "firmware.cli", "console", "--state-dir", str(state_dir)],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def test_glory_session_through_the_console(tmp_path: Path):
    out = console([
        "new glory players=Jack,Henry,Mary,Ross seed=5",
        "fame Mary +10",                         # Mary on 11: passes 5 only
        "fame Jack +11",                         # G-6: Jack reaches 12 -> 11 (Mary) -> 10
        "vote Henry", "vote Henry", "vote Henry",  # G-7 supremacy: +2
        "fame Jack 3",                           # refused, nothing changes
        "undo",
        "state",
        "score " + json.dumps(EXAMPLE),          # the session's score: the sheet overrides the game
    ], tmp_path)
    new, mary, jack, v1, v2, v3, bad, undo, state, score = out
    assert new["ok"] and new["game"] == "glory"
    assert mary["milestones"] == {"Mary": 1}
    assert jack["fame"]["Jack"] == 12 and jack["milestones"] == {"Jack": 2, "Mary": 1}
    assert v3["senate"] == ["Henry", "Henry", "Henry"] and v3["supremacy"] is True and v3["fame"]["Henry"] == 3
    assert not v2["supremacy"]
    assert bad["ok"] is False and bad["error"] == "bad_arguments"
    assert undo["ok"] and undo["state"]["senate"] == ["Henry", "Henry"] and undo["state"]["fame"]["Henry"] == 1
    assert state["state"]["markers"]["12"] == 10
    assert {n: r["total"] for n, r in score["scores"].items()} == {"Jack": 40, "Henry": 66, "Mary": 47, "Ross": 58}
    assert score["winners"] == ["Henry"]


def test_sessionless_score_and_its_errors(tmp_path: Path):
    out = console(["score " + json.dumps(EXAMPLE), "score {\"players\": [", 'score {"players": [{"name": "A"}]}'],
                  tmp_path)
    assert out[0]["ok"] and out[0]["winners"] == ["Henry"]
    assert out[1]["error"] == "bad_json"
    assert out[2]["error"] == "bad_arguments" and "track" in out[2]["message"]


def test_russian_and_ukrainian_refusals_name_the_player_without_declining_the_name(tmp_path: Path):  # G-7
    """A typed name cannot be declined: «У Яков голоса…» is wrong Russian, «У игрока Яков…» is right;
    the Senate column is the rulebook's «колонна Сената» (uk «колона»), not «колонка»."""
    ru = console(["settings language=ru", "new glory players=Яков,Генри seed=1", "vote Яков", "vote Яков",
                  "unvote Яков", "unvote Генри", "offer Яков"], tmp_path)
    assert ru[4]["message"].startswith("У игрока Яков голоса на позициях 1, 2")
    assert ru[5]["message"] == "У игрока Генри нет голоса в колонне Сената."
    assert ru[6]["message"] == "У игрока Яков нет медали священнослужителя."
    uk = console(["settings language=uk", "new glory players=Яків,Олена seed=1", "unvote Олена"], tmp_path / "uk")
    assert uk[2]["message"] == "Олена не має голосу в колоні Сенату."


def test_the_event_sentence_names_the_card_and_the_turn_in_the_players_words(tmp_path: Path):  # G-2
    """The log line and the undo question of a revealed event are read by a person: the card's
    placeholder name and the board's turn are said in their language, never as the id "cw180";
    the placeholder "Event 7" is its number after the word «событие» (it said «событие Событие 7»)."""
    out = console(["settings language=ru", "new glory players=Яков,Генри seed=5", "event arrow=cw180", "log",
                   "event", "undo"], tmp_path)
    line = out[3]["log"][-1]
    assert re.match(r"Раунд 1: событие \d+ \(", line) and "cw180" not in line and "Event" not in line
    assert "Событие" not in line
    assert "в конце поле повернётся на 180° по часовой" in line
    assert "Event" not in out[4]["message"]                        # the card already out, named in Russian
    assert "cw180" not in out[5]["undone"] and "Event" not in out[5]["undone"]


@pytest.mark.parametrize("lang, players, first", [
    ("ru", "Мария,Анна", "первым ходит игрок "), ("uk", "Марія,Ганна", "першим ходить гравець ")])
def test_who_plays_first_is_named_as_a_player_whatever_the_name(tmp_path: Path, lang, players, first):  # G-2
    """Players are people, women too: «первым ходит Мария» («першим ходить Марія») is the wrong
    gender; the sentence names her as the catalog names every player by a word, «игрок Мария»
    («У игрока Мария…»), after the event and after the arrows are corrected."""
    out = console([f"settings language={lang}", f"new glory players={players} seed=5", "event arrow=cw90",
                   "arrow ccw90", "log"], tmp_path)
    event, arrows = out[4]["log"][-2:]
    assert first + out[2]["first"] in event and first + out[3]["first"] in arrows, (event, arrows)


def test_every_log_line_of_a_round_is_said_in_russian(tmp_path: Path):  # G-4, G-7, G-19: the log is read by people
    out = console(["settings language=ru", "new glory players=Яков,Генри,Мария seed=5", "event",
                   "vote Мария n=2", "unvote Мария at=1", "tax Генри pop=2", "tax Мария pop=3 double=1",
                   "medal Мария priest", "fame Мария +5", "offer Мария n=1", "deal", "log"], tmp_path)
    hands = out[10]["hands"]
    keep = console(["settings language=ru", f"keep Яков {hands['Яков'][0]['id']},{hands['Яков'][1]['id']}", "log"],
                   tmp_path)
    log = out[-1]["log"] + keep[-1]["log"][-1:]
    for line in log[1:]:
        assert not re.search(r"[A-Za-z]{3,}", line), line               # no English left in a sentence
    assert "Генри собирает налог, денариев: 2." in log
    assert "Мария платит 3 денария: +1 славы (6 → 7)." in log


@pytest.mark.parametrize("arrow, back", [("cw90", "90° counter-clockwise"), ("ccw90", "90° clockwise"),
                                         ("cw180", "180° counter-clockwise")])
def test_an_undone_round_end_tells_the_players_to_turn_the_board_back(tmp_path: Path, arrow: str, back: str):  # G-1, G-2
    """The board was turned by the event's arrow at the round's end: taking the end back must say
    to turn it back the other way, in the live reply and in the log read after a restart, never
    repeat 'the board turns' as if it were turned again."""
    out = console(["new glory players=Anna,Boris seed=5", f"event arrow={arrow}", "end-round", "undo"], tmp_path)
    undone = out[3]["undone"]
    assert undone == f"Undone: the end of round 1. Turn the board back {back}; round 1 goes on."
    assert out[3]["state"]["round"] == 1 and out[3]["state"]["facing"] == out[0]["state"]["facing"]
    again = console(["log"], tmp_path)[0]["log"]
    assert again[-1] == undone
    ru = console(["settings language=ru", "log"], tmp_path)[1]["log"][-1]
    assert ru.startswith("Отменено: конец раунда 1. Поверните поле обратно на ") and "раунд 1 продолжается" in ru


@pytest.mark.parametrize("players, card, then", [
    ("Anna,Boris", "", "take back its reward."),                    # G-1: its reward given out
    ("Anna,Boris harsh=1", " card=H2", "take back its negative effect."),    # G-2 Harsh Times
])
def test_an_undone_event_says_to_put_the_card_back_on_the_deck(tmp_path: Path, players, card, then):  # G-1, G-19
    """An undone event, like every other undone step, says what stands again at the table: the
    card back on top of the event deck (the device keeps it there: the next reveal is
    that card) and its reward or negative effect taken back. It said the reveal again, «Undone:
    Round 1: event 3 (the board turns 180° clockwise at the end); Anna plays first, clockwise.»,
    read as the card revealed once more; the same sentence in the log after a restart, in Russian."""
    out = console([f"new glory players={players} seed=5", "event" + card, "undo", "event" + card, "log"], tmp_path)
    name = out[1]["card"]["label"]
    undone = out[2]["undone"]
    assert undone == (f"Undone: round 1's event ({name}). Put the card back on top of the event deck "
                      f"and {then}")
    assert out[3]["card"]["id"] == out[1]["card"]["id"]              # it is on top again: drawn next
    assert out[4]["log"][-2] == undone
    ru = console(["settings language=ru", "log"], tmp_path)[1]["log"][-2]
    assert ru.startswith("Отменено: событие раунда 1 (") and "Верните карту на верх колоды событий" in ru


@pytest.mark.parametrize("lang, back", [
    ("en", "and give back 2 denarii."), ("ru", "и 2 денария."), ("uk", "і 2 денарії.")])
def test_an_undone_solo_event_says_the_denarii_to_give_back(tmp_path: Path, lang, back):  # G-17
    """In the Emperor's solo an event gives 1 denarius per supporter instead of its reward: its
    undo says those denarii to give back (2: the supporter of the start and the one of space 5),
    and for a negative card, which gives nothing, only the card back on the deck."""
    out = console([f"settings language={lang}", "new glory players=Anna seed=5 harsh=1", "fame Anna +4",
                   "event card=E1", "undo", "event card=H1", "undo"], tmp_path)
    assert out[3]["solo_denarii"] == 2
    assert out[4]["undone"].endswith(back), out[4]["undone"]
    assert out[6]["undone"].endswith({"en": "event deck.", "ru": "колоды событий.",
                                      "uk": "колоди подій."}[lang]), out[6]["undone"]


def test_an_undone_vote_says_the_column_and_the_fame_that_stand_again(tmp_path: Path):  # G-7, G-6, G-5
    """Taking a vote back takes its votes off the top, puts the votes it pushed off the bottom back
    there and, after a supremacy, the fame before it (with the milestones it passed). It said the
    step taken back, «Отменено: Аня ставит 2 голоса в Сенат: превосходство ×2, +4 славы; нижние
    голоса (Борис, Вера) возвращаются.»: +4 read as fame gained, the pushed votes as going back to
    their boards, where the table must put them back in the column and Аня's marker back on 3."""
    out = console(["settings language=ru", "new glory players=Аня,Борис,Вера seed=7", "fame Аня +2",
                   "vote Борис", "vote Вера", "vote Борис", "vote Аня n=2", "vote Аня n=2", "undo", "log"],
                  tmp_path)
    assert out[7]["pushed_out"] == ["Борис", "Вера"] and out[7]["fame"]["Аня"] == 7
    undone = out[8]["undone"]
    assert undone == ("Отменено: 2 голоса игрока Аня сняты с вершины колонны Сената; нижние голоса "
                      "(Борис, Вера) снова в колонне; слава игрока Аня снова 3, а не 7. Отменено также: "
                      "Аня проходит веху 5 (ячейка 5): +1 сторонник.")
    assert out[8]["state"]["senate"] == ["Борис", "Вера", "Борис", "Аня", "Аня"]
    assert out[8]["state"]["fame"]["Аня"] == 3
    assert out[9]["log"][-1] == undone
    assert "(3 → 7)" in out[9]["log"][-2]                 # the step's own line says the fame it moved
    plain = console(["settings language=en", "vote Вера", "undo"], tmp_path)
    assert plain[2]["undone"] == ("Undone: Вера's vote is off the top of the Senate column; the bottom vote of "
                                  "Борис is back in the column.")


def test_an_undone_payment_for_fame_says_the_denarii_and_the_fame_that_stand_again(tmp_path: Path):  # G-5, G-6
    """The Priest medal's «заплатить 3 денария, чтобы получить 1 очко славы»: taken back, the
    denarii go back to the player and the marker to the fame before it, the milestone it passed
    taken back too. It said the step again, «Отменено: Мария платит 6 денариев: +2 славы.», read
    as two more fame."""
    out = console(["settings language=ru", "new glory players=Яков,Мария seed=5", "medal Мария priest",
                   "fame Мария +2", "offer Мария n=2", "undo", "log"], tmp_path)
    assert out[4]["fame"]["Мария"] == 5 and out[5]["state"]["fame"]["Мария"] == 3
    assert out[6]["log"][-2] == "Мария платит 6 денариев: +2 славы (3 → 5). Мария проходит веху 5 (ячейка 5): +1 сторонник."
    assert out[5]["undone"] == ("Отменено: плата за славу (Мария); 6 денариев снова у игрока Мария, слава снова 3, "
                                "а не 5. Отменено также: Мария проходит веху 5 (ячейка 5): +1 сторонник.")
    assert out[6]["log"][-1] == out[5]["undone"]


def test_an_undo_across_space_30_tells_the_table_to_turn_the_marker_back(tmp_path: Path):  # G-5
    """The undone change had taken the marker past 30 (or back under 31): the figure standing again
    is on the marker's other side, «переверните маркер вверх стороной «+30»»; the undo said only the
    total (28), with the marker on space 4 of its «+30» side."""
    out = console(["settings language=ru", "new glory players=Аня,Борис seed=7", "fame Аня +27", "fame Аня +6",
                   "undo", "fame Аня +4", "event", "tax Аня pop=5 double=1", "undo", "fame Аня +1", "undo"],
                  tmp_path)
    assert out[4]["undone"].endswith("Аня: переверните маркер славы обратно, ячейка 28.")
    assert out[8]["undone"] == ("Отменено: двойной налог (Аня), денариев: 10; слава снова 32. "
                                "Аня: переверните маркер славы на «+30», ячейка 2.")
    assert out[10]["undone"] == "Отменено: слава игрока Аня снова 32, а не 33."        # the same lap: nothing to turn


UNDONE_AT_THE_TABLE = {
    "en": ["Undone: Аня's tax. Аня gives back 3 denarii.",
           "Undone: Аня's tax. Аня gives back 1 denarius.",
           "Undone: Аня gives back the Warrior medal.",
           "Undone: random pick, card {pos} of 4: put it back in its hand.",
           "Undone: Аня's choice of objectives. Аня takes back the card put at the bottom of the deck and "
           "chooses again.",
           "Undone: the deal of the objectives. Every player puts their 3 cards back into the deck."],
    "ru": ["Отменено: налог (Аня). Аня возвращает 3 денария.",
           "Отменено: налог (Аня). Аня возвращает 1 денарий.",
           "Отменено: Аня возвращает медаль воина.",
           "Отменено: случайная карта ({pos}-я из 4): верните её в руку.",
           "Отменено: выбор заданий (Аня). Аня забирает обратно карту, ушедшую вниз стопки, и выбирает снова.",
           "Отменено: раздача заданий. Каждый игрок возвращает свои 3 карты в стопку заданий."],
    "uk": ["Скасовано: податок (Аня). Аня повертає 3 денарії.",
           "Скасовано: податок (Аня). Аня повертає 1 денарій.",
           "Скасовано: Аня повертає медаль воїна.",
           "Скасовано: випадкова карта (№ {pos} з 4): поверніть її в руку.",
           "Скасовано: вибір завдань (Аня). Аня забирає назад карту, що пішла під низ колоди, і вибирає знову.",
           "Скасовано: роздача завдань. Кожен гравець повертає свої 3 карти до колоди завдань."],
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_undone_steps_say_what_goes_back_at_the_table(tmp_path: Path, lang):  # G-4, G-19
    """A plain tax, a medal, a random pick, a player's choice of objectives and the deal, each taken
    back, say what the table gives back: the denarii, the medal, the card to its hand, the card
    from the bottom of the deck. Each said the step again («Скасовано: Аня збирає податок, денаріїв:
    3.», «Отменено: Аня получает медаль воина.»), read as the step done once more."""
    first = console(["new glory players=Аня,Борис seed=4", "deal"], tmp_path / "probe")
    hand = [c["id"] for c in first[1]["hands"]["Аня"]]
    out = console([f"settings language={lang}", "new glory players=Аня,Борис seed=4", "event", "end-round", "event",
                   "tax Аня pop=3", "undo", "tax Аня pop=1", "undo", "medal Аня warrior", "undo", "pick 4", "undo",
                   "deal", f"keep Аня {hand[0]},{hand[1]}", "undo", "undo"], tmp_path / "game")
    assert all(r["ok"] for r in out), [r for r in out if not r["ok"]]
    said = [r["undone"] for r in out if "undone" in r]
    pos = out[11]["position"]
    assert said == [s.format(pos=pos) for s in UNDONE_AT_THE_TABLE[lang]]
