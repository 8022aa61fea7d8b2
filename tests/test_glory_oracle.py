"""An independent oracle of «Во славу Рима» (For the Glory of Rome), typed from the digest
(reference/glory_of_rome.md, G-1..G-20) and the Russian rulebook (seeds/glory-of-rome-teetotum-
rules-ru.txt, the final word; each rule below quotes its sentence), without the engine's code, and
compared with the engine through the console (docs/protocol/glory.md) on random whole games of 1-4
players and random score sheets, and on hand-made corners: ties, zero, the maximum, empty seats,
the last round.

The oracle covers: the fame track and its milestones (G-5, G-6), the Senate column and supremacy
(G-7), farming and tax income (G-3, G-4), the round's turn of the province board and the order of
play (G-1, G-2), what the hidden draws may give (G-2 the event deck, G-19 the objectives dealt and
the random pick from a hand) and the final scoring, the winner and its ties (G-8..G-17, G-20)."""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("firmware.console")

# ---------------------------------------------------------------------------------------------
# The oracle: final scoring
# ---------------------------------------------------------------------------------------------
# G-9 «Партия на 3-4-х игроков: 1я 5 8 10 / 2я 2 4 5 / 3я - - 3» and «Партия на 2-х игроков или в
# соло-режиме: 1я 5 4 5 / 2я 2 - 3 / 3я - - -», columns by the shield 2, 3, 4.
MILITARY = {"3-4": {2: (5, 2, 0), 3: (8, 4, 0), 4: (10, 5, 3)},
            "1-2": {2: (5, 2, 0), 3: (4, 0, 0), 4: (5, 3, 0)}}
# G-10 the worked example «Политика 2 3 6 6» for a column Mary, Jack, Henry, Mary, Ross (bottom → top,
# the digest's default: top = 6).
SENATE_VALUES = (1, 2, 3, 5, 6)
# G-11 «Инструменты 3, Оружие 4, Одежды 5, Украшения 6, Сундуки — Джокеры».
SET_VALUES = {"tools": 3, "weapons": 4, "clothing": 5, "jewelry": 6}
# G-12 «Золотая 4, Серебряная 3, Бронзовая 2, Цвета игрока 1».
PANTHEON = {"gold": 4, "silver": 3, "bronze": 2, "own": 1}
MEDALS = ("warrior", "politician", "merchant", "priest", "farmer")


def battlefield_places(legions: dict[str, int], warrior: str | None, shield: int,
                       table: str) -> list[tuple[str, int, bool, int]]:
    """(name, place, tied, points) of a conquered battlefield, most legions first (G-9).

    «Если между игроками ничья по количеству легионов, такие игроки получают свои призовые места,
    но не получают за них очков славы» — and «Из-за ничьей Джека и Мэри он оказывается на втором
    месте (вместо третьего места 3й)»: the next count takes the next place. The Warrior medal:
    «Вы побеждаете при ничьих на полях битв. Игрок или игроки, сыгравшие с вами вничью, занимают
    следующее доступное место (если таковое имеется)»."""
    present = {p: n for p, n in legions.items() if n > 0}
    out: list[tuple[str, int, bool]] = []
    place = 1
    for count in sorted(set(present.values()), reverse=True):
        group = [p for p in present if present[p] == count]
        if warrior in group and len(group) > 1:
            out.append((warrior, place, False))
            place += 1
            rest = [p for p in group if p != warrior]
            out += [(p, place, len(rest) > 1) for p in rest]
        else:
            out += [(p, place, len(group) > 1) for p in group]
        place += 1
    values = MILITARY[table][shield]
    return [(p, pl, tied, 0 if tied or pl > 3 else values[pl - 1]) for p, pl, tied in out]


def oracle_score(req: dict[str, Any], count: int | None = None) -> dict[str, Any]:
    """The final score of a `score` request (G-8..G-17, G-20) as the rulebook counts it."""
    players = req["players"]
    names = [p["name"] for p in players]
    count = count or len(players)
    table = "3-4" if count >= 3 else "1-2"
    medals = {p["name"]: set(p.get("medals", [])) for p in players}
    warrior = next((n for n in names if "warrior" in medals[n]), None)
    military = Counter[str]()
    firsts = Counter[str]()
    fields: list[dict[str, Any]] = []
    for bf in req.get("battlefields", []):
        legions = bf.get("legions", {})
        # «Чтобы поле битвы было взято (или завоевано), на нем должно оказаться общее количество
        # легионов, равное числу, изображенному на щите»; «Поля битв, которые не были завоеваны,
        # не приносят славы».
        conquered = sum(legions.values()) >= bf["shield"]
        places = battlefield_places(legions, warrior, bf["shield"], table) if conquered else []
        for p, place, _tied, points in places:
            military[p] += points
            firsts[p] += place == 1
        fields.append({"shield": bf["shield"], "conquered": conquered, "places": places})
    politics = Counter[str]()
    for i, owner in enumerate(req.get("senate", [])):    # G-10 «Каждый голос игрока в колонне Сената
        politics[owner] += SENATE_VALUES[i]              # получает очки славы в зависимости от его позиции»
    scores: dict[str, dict[str, int]] = {}
    for p in players:
        n = p["name"]
        # G-8 «Общая сумма ваших очков славы теперь равна 30, плюс число на ячейки шкалы».
        track = p["track"] + (30 if p.get("flipped") else 0)
        sets = p.get("sets", {})
        trade = sum(SET_VALUES[k] * v for k, v in sets.items())           # G-11 (jokers add nothing)
        religion = sum(PANTHEON[k] * v for k, v in p.get("pantheon", {}).items())   # G-12
        # G-14 «по 1 очку славы за каждые свои 4 денария (или за 3, если у него есть медаль
        # священнослужителя)».
        denarii = p.get("denarii", 0) // (3 if "priest" in medals[n] else 4)
        s = {"track": track, "military": military[n], "politics": politics[n], "trade": trade,
             "religion": religion, "objectives": p.get("objectives", 0), "denarii": denarii}
        s["total"] = sum(s.values())
        scores[n] = s
    # G-15 «Победителем становится игрок, чья сумма очков славы ... оказывается больше всех. В
    # случае ничьей по очкам побеждает игрок с наибольшим количеством денариев. В случае ничьей по
    # денариям равноуспешные игроки считаются победителями и соправителями».
    # The denarii a player has then are those left after the exchange: «Все денарии, обмененные на
    # очки славы, возвращаются в запас денариев» (G-14 comes before the winner is told).
    left = {n: p.get("denarii", 0) - scores[n]["denarii"] * (3 if "priest" in medals[n] else 4)
            for n in names for p in players if p["name"] == n}
    key = {n: (scores[n]["total"], left[n]) for n in names}
    best = max(key.values())
    winners = [n for n in names if key[n] == best]
    achievements: dict[str, set[str]] = {}
    for p in players:     # G-20 «Достижения»
        n = p["name"]
        s = scores[n]
        got = set()
        if s["total"] >= 100:
            got.add("fame_100")                 # «Наберите 100+ очков славы»
        if len(medals[n]) == 5:
            got.add("all_medals")               # «Заслужите все пять медалей»
        if p.get("sets", {}).get("jewelry", 0) >= 2:
            got.add("jewelry_sets_2")           # «Соберите 2 набора украшений»
        if p.get("sets", {}).get("jewelry", 0) >= 3:
            got.add("jewelry_sets_3")           # «Соберите 3 набора украшений»
        if s["track"] >= 61:
            got.add("track_61")                 # «Достигните 61+ ячейки на шкале славы»
        if len(fields) >= 3 and firsts[n] == len(fields):
            got.add("first_on_all_battlefields")  # «Займите 1-е место на всех трех полях битв»
        if s["politics"] >= 12:
            got.add("senate_12")                # «Получите 12+ очков на колонне Сената»
        if p.get("pantheon", {}).get("gold", 0) == 2:
            got.add("golden_pantheon")          # «Постройте золотой Пантеон»
        if p.get("objectives_done", 0) >= 4:
            got.add("objectives_4")             # «Завершите 4 задания»
        if "enmity" in p and p["enmity"] == 0:
            got.add("no_enmity")                # «Завершите партию без вражды на вашем планшете»
        if s["total"] >= 113:
            got.add("designers_113")            # «Добейтесь лучшего итога создателей игры (113)»
        achievements[n] = got
    out: dict[str, Any] = {"scores": scores, "winners": winners, "key": key, "fields": fields,
                           "achievements": achievements}
    if count == 1:
        out["solo"] = oracle_solo(req, scores, fields)
    return out


def oracle_solo(req: dict[str, Any], scores: dict[str, dict[str, int]], fields: list[dict[str, Any]]) -> dict[str, Any]:
    """G-17 «Соло Императора»: «Набрать 51 очко славы на шкале славы. Заслужить не менее 3 медалей.
    Завоевать не менее 2 полей битвы. Разместить в Сенате не менее 4 голосов. Собрать не менее 2
    наборов товаров. Построить Пантеон. Завершить не менее 2 заданий.» — «4-5 задач: ... Претором;
    6 задач: ... Император; 7 задач: ... дитя Юпитера»."""
    p = req["players"][0]
    n = p["name"]
    pantheon = p.get("pantheon", {})
    goals = {"fame_51": scores[n]["track"] >= 51,
             "medals_3": len(p.get("medals", [])) >= 3,
             "battlefields_2": sum(f["conquered"] for f in fields) >= 2,
             "senate_4": req.get("senate", []).count(n) >= 4,
             "sets_2": sum(p.get("sets", {}).values()) >= 2,
             "pantheon": pantheon.get("own", 0) == 5 and sum(pantheon.get(k, 0) for k in ("gold", "silver", "bronze")) == 2}
    if "objectives_done" in p:
        goals["objectives_2"] = p["objectives_done"] >= 2
    done = sum(goals.values())
    rank = "child of Jupiter" if done == 7 else "Emperor" if done == 6 else "Praetor" if done >= 4 else None
    return {"goals": goals, "done": done, "rank": rank}


# ---------------------------------------------------------------------------------------------
# Random score requests a table could type: every figure within what the game allows
# ---------------------------------------------------------------------------------------------
NAMES = ["Jack", "Henry", "Mary", "Ross"]


def pantheons(rng: random.Random, names: list[str]) -> dict[str, dict[str, int]]:
    """Pantheons as built (G-12): «Фундамент составляется из двух фишек цвета игрока и одной части
    из общего запаса; верхний уровень составляется из трех фишек цвета игрока и одной части из
    общего запаса»; «Первый игрок, взявший из общего запаса часть фундамента или храма, возьмет
    золотую часть нужного типа, второй — серебряную, а последующие игроки — бронзовые»; the silver
    foundation is out of the box with 3 players («уберите в коробку 2 части Пантеона — один
    серебряный ... фундамент») and with 2 (and the solo, set up as for 2)."""
    stage = {n: rng.choice([0, 0, 1, 1, 2]) for n in names}
    out = {n: {"gold": 0, "silver": 0, "bronze": 0, "own": 0} for n in names}
    for n in names:
        out[n]["own"] = rng.randint(0, 2) if stage[n] == 0 else rng.randint(2, 4) if stage[n] == 1 else 5
    founders = [n for n in names if stage[n] >= 1]
    rng.shuffle(founders)
    for k, n in enumerate(founders):
        out[n]["gold" if k == 0 else "silver" if k == 1 and len(names) == 4 else "bronze"] += 1
    temples = [n for n in names if stage[n] == 2]
    rng.shuffle(temples)
    for k, n in enumerate(temples):
        out[n]["gold" if k == 0 else "silver" if k == 1 else "bronze"] += 1
    return out


def random_request(rng: random.Random, count: int) -> dict[str, Any]:
    names = NAMES[:count]
    holders = {m: rng.choice(names + [None]) for m in MEDALS}
    small = rng.random() < 0.5          # small ranges: ties everywhere
    pan = pantheons(rng, names)
    players = []
    for n in names:
        medals = [m for m in MEDALS if holders[m] == n]
        kinds = list(SET_VALUES)
        sets = Counter(rng.choice(kinds) for _ in range(rng.randint(0, 3)))
        p: dict[str, Any] = {"name": n, "track": rng.randint(1, 3 if small else 30), "flipped": rng.random() < 0.3,
                             "medals": medals, "sets": dict(sets), "pantheon": pan[n],
                             "objectives": rng.randint(0, 2 if small else 30),
                             "denarii": rng.randint(0, 5 if small else 80)}
        if rng.random() < 0.3:
            p["track"] = p["track"] + 30 * int(p.pop("flipped"))      # a total above 30, no flag
        if "merchant" in medals and sets["jewelry"] == 0 and sum(sets.values()) and rng.random() < 0.5:
            p["merchant_jewelry_jokers"] = 1
        if rng.random() < 0.5:
            p["objectives_done"] = rng.randint(0, 4)
        if rng.random() < 0.5:
            p["enmity"] = rng.randint(0, 2)
        players.append(p)
    battlefields = []
    for shield, name in ((2, "Epirus"), (3, "Macedonia"), (4, "Thrace")):
        legions = {n: rng.randint(0, 2 if small else 4) for n in names if rng.random() < 0.8}
        battlefields.append({"name": name, "shield": shield, "legions": legions})
    senate = [rng.choice(names) for _ in range(rng.randint(0, 5))]
    return {"players": players, "battlefields": battlefields, "senate": senate}


def check_score(out: dict[str, Any], want: dict[str, Any], context: Any) -> None:
    """The engine's `score` reply agrees with the oracle's, field by field."""
    assert out["ok"] is True, (context, out)
    for n, s in want["scores"].items():
        assert out["scores"][n] == s, (context, n, out["scores"][n], s)
    key = want["key"]
    ranking = out["ranking"]
    assert sorted(ranking) == sorted(key)
    if "solo" in want:     # G-17: won by a title, not by fame; no ranking, so no place
        assert out["winners"] == (want["winners"] if want["solo"]["rank"] else []), context
        assert out["places"] == {}, context
    else:
        assert out["winners"] == want["winners"], context
    assert all(key[a] >= key[b] for a, b in zip(ranking, ranking[1:])), (context, ranking)
    for a in key if "solo" not in want else ():
        for b in key:
            if key[a] == key[b]:
                assert out["places"][a] == out["places"][b], (context, a, b)
            elif key[a] > key[b]:
                assert out["places"][a] < out["places"][b], (context, a, b)
    assert "solo" in want or min(out["places"].values()) == 1
    for got, field in zip(out["battlefields"], want["fields"], strict=True):
        assert got["shield"] == field["shield"] and got["conquered"] == field["conquered"], (context, got)
        placed = [(q["name"], q["place"], q["tied"], q["points"]) for q in got["places"] if q["legions"] > 0]
        if field["conquered"]:
            assert sorted(placed) == sorted(field["places"]), (context, got, field)
        else:
            assert all(q["points"] == 0 for q in got["places"]), (context, got)
    for n, got in want["achievements"].items():
        assert set(out["achievements"][n]) == got, (context, n, out["achievements"][n], got)
    if "solo" in want:
        solo = out["solo"]
        for goal, ok in want["solo"]["goals"].items():
            assert solo["goals"][goal] is ok, (context, goal, solo)
        assert solo["done"] == want["solo"]["done"] and solo["rank"] == want["solo"]["rank"], (context, solo, want["solo"])


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_random_score_sheets_agree_with_the_oracle(console, count: int):  # G-8..G-17, G-20
    rng = random.Random(7000 + count)
    for i in range(150):
        req = random_request(rng, count)
        out = console.request("score " + json.dumps(req))
        check_score(out, oracle_score(req), (count, i, req))


# ---------------------------------------------------------------------------------------------
# The oracle: a game's rounds
# ---------------------------------------------------------------------------------------------
PROVINCES = ["Africa", "Gaul", "Spain", "Italy"]
# the event cards as the data names them (id → a Harsh Times card): 12 base cards + 6 negative ones
EVENT_CARDS = {c["id"]: bool(c["harsh"]) for c in json.loads(
    (Path(__file__).resolve().parents[1] / "engine/data/glory_events.json").read_text())["cards"]}
FARMING = (1, 1, 2, 2, 3, 3, 4, 4, 5)        # G-3 «Раунды 1, 2 ... 1 денарий» … «Раунд 9 ... 5 денариев»
PENALTY = {3: 2, 5: 4, 6: 4}                 # G-4: the rulebook's income example (pop 3 → 2, 6 → 4, 5 → 4)


class GameOracle:
    """A Glory game as the rulebook plays it, for the figures the device keeps."""

    def __init__(self, names: list[str], first: str, clockwise: bool = False, harsh: bool = False) -> None:
        self.names = names
        # docs/protocol/glory.md: 4 players sit at seats 1-4, 3 at seats 1-3, 2 on opposite seats
        # («В партии на 2-х игроков перед игроками должны оказаться несмежные провинции»), solo at 1.
        seats = {1: [0], 2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3]}[len(names)]
        self.seat = dict(zip(names, seats))
        self.turns = 0                              # quarter turns clockwise so far
        self.token = self.facing()[first]           # «выложите жетон первого игрока» before the first player
        self.clockwise, self.harsh = clockwise, harsh
        self.round, self.finished = 1, False
        self.event: dict[str, Any] | None = None
        self.seen: list[str] = []
        self.fame = {n: 1 for n in names}
        self.earned: dict[str, set[int]] = {n: set() for n in names}
        self.markers = {12: 12, 21: 21, 30: 30}
        self.senate: list[str] = []
        self.medals: dict[str, str | None] = dict.fromkeys(MEDALS)
        self.taxed: list[str] = []
        self.round1_first = first

    # -- the province board (G-1, G-2) --
    def facing(self) -> dict[str, str]:
        """Who faces which province: a quarter turn clockwise brings each province to the next seat
        clockwise."""
        return {n: PROVINCES[(self.seat[n] - self.turns) % 4] for n in self.names}

    def order(self, direction: str) -> list[str]:
        """«игрок, в конкретный раунд управляющий (сидящий перед) провинцией с жетоном первого
        игрока, является первым игроком»; an empty seat before the token passes it on in the
        direction of play (docs/protocol/glory.md); then round the table that way."""
        step = 1 if direction == "clockwise" else -1
        by_seat = {s: n for n, s in self.seat.items()}
        seat = (PROVINCES.index(self.token) + self.turns) % 4
        out: list[str] = []
        for i in range(4):
            s = (seat + step * i) % 4
            if s in by_seat:
                out.append(by_seat[s])
        return out

    def end_round(self) -> None:
        """«поверните поле провинций на 90 градусов в соответствии со стрелкой» (Clockwise variant:
        «каждый раз поворачивайте ее на 90 градусов по часовой стрелке»)."""
        assert self.event is not None
        arrow = self.event["arrow"]
        quarters = 1 if self.clockwise else (2 if arrow.endswith("180") else 1) * (1 if arrow.startswith("cw") else -1)
        self.turns += quarters
        self.taxed = []
        self.event = None
        if self.round == 9:
            self.finished = True        # «В конце 9-го (IX) раунда игра переходит к итоговому подсчету очков»
        else:
            self.round += 1

    # -- fame and milestones (G-5, G-6) --
    def supporters(self, n: str) -> int:
        return 1 + len(self.earned[n])

    def change(self, n: str, amount: int) -> None:
        """«маркер славы ни при каких обстоятельствах не может опуститься ниже этой отметки [1]»;
        «Первый раз, когда игрок доходит до каждой из вех, он получает дополнительного сторонника»;
        «эти маркеры перемещаются на одну ячейку вниз каждый раз, когда каждый из игроков впервые
        доходит до этого маркера»; «а в 11-й ячейке находится маркер славы Мэри, поэтому она также
        получает одного дополнительного сторонника, что заставляет маркер вехи снова переместиться
        ниже»; «Вы не теряете сторонников, если ... спускаетесь ниже вехи»."""
        self.fame[n] = max(1, self.fame[n] + amount)
        if amount <= 0:
            return
        if self.fame[n] >= 5:
            self.earned[n].add(5)
        for m in (12, 21, 30):
            if m in self.earned[n] or self.fame[n] < self.markers[m]:
                continue
            self.earned[n].add(m)
            self.markers[m] -= 1
            while True:
                landed = [q for q in self.names if m not in self.earned[q] and self.fame[q] == self.markers[m]]
                if not landed:
                    break
                for q in landed:
                    self.earned[q].add(m)
                self.markers[m] -= len(landed)

    def track(self, n: str) -> dict[str, int]:
        """«переверните маркер вверх стороной «+30», затем поместите его снова на ячейку 1»."""
        flips = (self.fame[n] - 1) // 30
        return {"space": self.fame[n] - 30 * flips, "flips": flips}

    # -- the Senate (G-7) --
    def vote(self, n: str, count: int) -> bool:
        """«Любой последующий голос помещается сверху, наращивая колонну до максимальной высоты в 5
        голосов. Когда размещается шестой голос, самая нижняя фишка голоса удаляется из колонны и
        возвращается на планшет ее владельца»; «У игрока на вершине колонны должно быть два голоса,
        поверх которых он помещает свой третий голос ... он немедленно получает 2 очка славы» (3
        with «Медаль политика»); each player has five vote pieces («Теперь все пять ее голосов
        разыграны»). False (nothing placed) when a vote has no piece left to place."""
        column = list(self.senate)
        gains = 0
        for _ in range(count):
            if column.count(n) >= 5:
                return False
            if column[-2:] == [n, n]:
                gains += 1
            column.append(n)
            column = column[-5:]
        self.senate = column
        for _ in range(gains):
            self.change(n, 3 if self.medals["politician"] == n else 2)
        return True

    def check(self, state: dict[str, Any], context: Any) -> None:
        assert state["fame"] == self.fame, context
        assert state["track"] == {n: self.track(n) for n in self.names}, context
        assert state["supporters"] == {n: self.supporters(n) for n in self.names}, context
        assert {n: set(v) for n, v in state["milestones_earned"].items()} == self.earned, context
        assert state["markers"] == {str(k): v for k, v in self.markers.items()}, context
        assert state["senate"] == self.senate, context
        assert state["round"] == self.round and state["finished"] is self.finished, context
        assert state["facing"] == self.facing(), context
        assert state["taxed"] == self.taxed, context
        assert state["medals"] == self.medals, context


def ok(console, line: str) -> dict[str, Any]:
    out = console.request(line)
    assert out["ok"] is True, (line, out)
    return out


def refused(console, line: str, error: str) -> dict[str, Any]:
    """``line`` is refused with ``error`` and changes nothing."""
    before = ok(console, "state")["state"]
    out = console.request(line)
    assert out["ok"] is False and out["error"] == error, (line, out)
    assert ok(console, "state")["state"] == before, line
    return out


def step(console, rng: random.Random, line: str) -> dict[str, Any]:
    """``line`` taken; one time in five it is undone (the state is as before it) and asked again,
    which gives the same reply: undo never draws again (an event, a pick) and a step is the same
    step (docs/protocol.md: "Undo never re-rolls")."""
    if rng.random() >= 0.2:
        return ok(console, line)
    before = ok(console, "state")["state"]
    first = ok(console, line)
    ok(console, "undo")
    assert ok(console, "state")["state"] == before, line
    again = ok(console, line)
    assert again == first, (line, first, again)
    return again


def play_round_actions(console, rng: random.Random, o: GameOracle, solo: bool) -> None:
    """Random steps of a round's building and action phases, each checked against the oracle."""
    for _ in range(rng.randint(2, 9)):
        kind = rng.choice(["fame", "fame", "vote", "vote", "unvote", "medal", "offer", "farm", "pick"])
        who = rng.choice(o.names)
        if kind == "fame":
            amount = rng.choice([-12, -5, -3, -1, 1, 2, 3, 4, 5, 7, 9, 11, 15])
            if amount < 0 and o.fame[who] == 1:       # G-5: nothing to lose on space 1
                refused(console, f"fame {who} {amount:+d}", "illegal_move")
            else:
                step(console, rng, f"fame {who} {amount:+d}")
                o.change(who, amount)
        elif kind == "vote":
            n = rng.choice([1, 2])
            before = list(o.senate)
            if o.vote(who, n):
                out = step(console, rng, f"vote {who} n={n}")
                assert out["pushed_out"] == before[: max(0, len(before) + n - 5)], (before, n, out)
            else:
                refused(console, f"vote {who} n={n}", "illegal_move")
        elif kind == "unvote" and o.senate and not solo and o.round == 1:
            # G-1: «Активация интриг (Шаг 2) (В первом раунде игры пропустите этот шаг)»
            at = rng.randrange(len(o.senate))
            refused(console, f"unvote {o.senate[at]} at={at + 1}", "illegal_move")
        elif kind == "unvote" and o.senate and not solo:
            at = rng.randrange(len(o.senate))
            owner = o.senate[at]
            out = step(console, rng, f"unvote {owner} at={at + 1}")
            del o.senate[at]          # «Уберите ... голос соперника из колонны Сената»: no supremacy
            assert out["senate"] == o.senate
        elif kind == "medal":
            free = [m for m in MEDALS if o.medals[m] is None]
            if free:
                m = rng.choice(free)
                step(console, rng, f"medal {who} {m}")
                o.medals[m] = who
            else:
                refused(console, f"medal {who} warrior", "illegal_move")
        elif kind == "offer":
            # «Медаль священнослужителя: Вы можете заплатить 3 денария, чтобы получить 1 очко славы»
            n = rng.randint(1, 3)
            if o.medals["priest"] == who:
                out = step(console, rng, f"offer {who} n={n}")
                assert out["denarii_paid"] == 3 * n
                o.change(who, n)
            else:
                refused(console, f"offer {who} n={n}", "illegal_move")
        elif kind == "farm":
            out = ok(console, f"farm {who}")
            # «Раунды 1, 2: Земледелие приносит 1 денарий» … ; «Медаль земледельца: ... 2 денария
            # вдобавок к тому, что получаете за раунд».
            assert out["denarii"] == FARMING[o.round - 1] + (2 if o.medals["farmer"] == who else 0)
        elif kind == "pick":
            # G-19: «Случайным образом выберите одну карту товара из руки соперника»; a hand holds
            # at most five cards («до пяти карт товаров ... включая карту якоря»).
            hand = rng.randint(0, 6)
            if (solo or o.round == 1) and 1 <= hand <= 5:  # G-17: no intrigue in the solo; G-1: none in round 1
                refused(console, f"pick {hand}", "illegal_move")
            elif 1 <= hand <= 5:
                out = step(console, rng, f"pick {hand}")
                assert out["hand"] == hand and 1 <= out["position"] <= hand
            else:
                refused(console, f"pick {hand}", "bad_arguments")
        o.check(ok(console, "state")["state"], (kind, who))


def income(console, rng: random.Random, o: GameOracle) -> None:
    """G-4: «собрать по одному денарию с каждого человека, населяющего провинцию. Или же может
    выбрать двойной налог — сбор двух денариев с каждого человека, но при этом подвергнуться штрафу
    в виде немедленной потери очков славы»; «игроки не могут применить двойной налог, если ... не
    могут переместить свой маркер по шкале славы назад на указанное в штрафе количество ячеек»."""
    for who in rng.sample(o.names, len(o.names)):
        pop = rng.randint(1, 8)
        double = rng.random() < 0.5
        line = f"tax {who} pop={pop}"
        penalty = 0
        if double:
            penalty = PENALTY.get(pop, rng.randint(1, 5))
            line += " double=1" + ("" if pop in PENALTY else f" penalty={penalty}")
            if o.fame[who] - penalty < 1:
                refused(console, line, "illegal_move")
                line, double, penalty = f"tax {who} pop={pop}", False, 0
        out = step(console, rng, line)
        assert out["denarii"] == pop * (2 if double else 1) and out["fame_lost"] == penalty, (line, out)
        o.fame[who] -= penalty
        o.taxed.append(who)
        refused(console, f"tax {who} pop={pop}", "illegal_move")      # once a round
        o.check(ok(console, "state")["state"], line)


def play_game(console, rng: random.Random, count: int, clockwise: bool, harsh: bool) -> GameOracle:
    names = NAMES[:count]
    first = rng.choice(names)
    options = (" clockwise=1" if clockwise else "") + (" harsh=1" if harsh else "")
    state = ok(console, f"new glory players={','.join(names)} first={first}{options} seed={rng.randrange(2**32)}")["state"]
    o = GameOracle(names, first, clockwise, harsh)
    o.check(state, "new")
    assert state["token_province"] == o.token
    deck = 18 if harsh else 12            # G-2 «12 base cards (+6 negative with the "Harsh Times" variant)»
    assert state["events_left"] == deck
    solo = count == 1
    for r in range(1, 10):
        # G-1: the income phase («Фаза дохода») comes after the intrigue phase reveals the event,
        # and so does the activation of intrigues (step 2 after step 1): no pick before it
        refused(console, f"tax {rng.choice(names)} pop={rng.randint(1, 8)}", "illegal_move")
        refused(console, f"pick {rng.randint(1, 5)}", "illegal_move")
        if rng.random() < 0.3:
            # a physical deck: the card drawn at the table is named; one already out, or a Harsh
            # Times card in a game without them, is not in the deck (G-2)
            left = [c for c in EVENT_CARDS if c not in o.seen and (harsh or not EVENT_CARDS[c])]
            wrong = o.seen + ([] if harsh else [c for c in EVENT_CARDS if EVENT_CARDS[c]])
            if wrong:
                refused(console, f"event card={rng.choice(wrong)}", "illegal_move")
            out = drawn = step(console, rng, f"event card={rng.choice(left)}")
        else:
            out = drawn = step(console, rng, "event")
        card = dict(out["card"])
        assert card["id"] not in o.seen and (harsh or not card["harsh"]), (o.seen, card)
        o.seen.append(card["id"])
        if rng.random() < 0.3:
            code = rng.choice(["cw90", "cw180", "ccw90", "ccw180"])
            if code != card["arrow"]:
                out = step(console, rng, f"arrow {code}")
                card["arrow"] = code
        o.event = card
        direction = "clockwise" if card["arrow"].startswith("cw") else "counterclockwise"
        if r == 1:
            o.round1_first = o.order(direction)[0]
        assert out["direction"] == direction and out["order"] == o.order(direction), (r, out, o.order(direction))
        assert out["first"] == out["order"][0]
        if solo:
            # G-17 «получите по одному денарию за каждого завербованного сторонника ... при открытии
            # негативной карты не берите никаких наград»
            assert drawn["solo_denarii"] == (0 if card["harsh"] else o.supporters(names[0]))
        refused(console, "event", "illegal_move")         # one event a round
        state = ok(console, "state")["state"]
        assert state["events_left"] == deck - r
        o.check(state, ("event", r))
        play_round_actions(console, rng, o, solo)
        income(console, rng, o)
        out = step(console, rng, "end-round")
        o.end_round()
        assert out["facing"] == o.facing() and out["finished"] is o.finished
        o.check(ok(console, "state")["state"], ("end-round", r))
    # the end: «В конце 9-го (IX) раунда игра переходит к итоговому подсчету очков»
    assert o.finished
    refused(console, "event", "game_over")
    return o


def test_the_event_deck_is_the_rulebooks():  # G-2
    """«18 шт. Карты событий»: «Добавьте в колоду событий шесть карт с негативными эффектами»."""
    assert len(EVENT_CARDS) == 18 and sum(EVENT_CARDS.values()) == 6


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_random_whole_games_agree_with_the_oracle(console, count: int):  # G-1..G-7, G-17, G-19
    whole_games(console, count, seed=8100 + count, games=2)


@pytest.mark.slow
@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_many_random_whole_games_agree_with_the_oracle(console, count: int):  # G-1..G-7, G-17, G-19
    whole_games(console, count, seed=9100 + count, games=12)


def whole_games(console, count: int, seed: int, games: int) -> None:
    """``games`` random games of ``count`` players, each variant of the board's turn and the deck
    in turn, checked step by step and then scored (as typed, and through the score pad's lines)."""
    rng = random.Random(seed)
    for game in range(games):
        o = play_game(console, rng, count, clockwise=game % 2 == 1, harsh=game % 4 in (1, 2))
        # the final scoring of the session: track, medals and the Senate from the game, the player
        # count the session's (a seat left out of the request scores zeros)
        req = random_request(rng, count)
        for p in req["players"]:
            p.pop("track")
            p.pop("flipped", None)
            p["medals"] = [m for m in MEDALS if o.medals[m] == p["name"]]
            p.pop("merchant_jewelry_jokers", None)
        req["senate"] = list(o.senate)
        typed = {"players": req["players"], "battlefields": req["battlefields"]}
        out = ok(console, "score " + json.dumps({**typed, "players": [{k: v for k, v in p.items() if k != "medals"}
                                                                     for p in req["players"]]}))
        for p in req["players"]:
            p["track"] = o.fame[p["name"]]
        check_score(out, oracle_score(req, count), (count, game))
        # the same figures typed on the device's score pad, one `sheet` line each, then `score sheet`
        for p in req["players"]:
            n = p["name"]
            entries = {"denarii": p["denarii"], "objectives": p["objectives"], **p["sets"],
                       **{k: v for k, v in p["pantheon"].items() if v}}
            if count == 1 and "objectives_done" in p:
                entries["done"] = p["objectives_done"]
            for bf, field in zip(req["battlefields"], ("epirus", "macedonia", "thrace")):
                if bf["legions"].get(n):
                    entries[field] = bf["legions"][n]
            for entry, value in entries.items():
                if value:
                    ok(console, f"sheet {n} {entry} {value}")
            p.pop("enmity", None)
            if count > 1:
                p.pop("objectives_done", None)
        want = oracle_score(req, count)
        check_score(ok(console, "score sheet"), want, (count, game, "sheet"))
        # History files that score when the players end the game: each player's total, the
        # winners (G-15; the Emperor's solo is won by a title, G-17) and their place; the start
        # player is who played first in round 1 (G-2)
        ok(console, "end")
        record = ok(console, "history 1")["games"][0]
        assert record["status"] == "finished", record
        won = want["winners"] if count > 1 else want["winners"] if want["solo"]["rank"] else []
        for p in record["players"]:
            n = p["name"]
            assert p["score"] == want["scores"][n]["total"] and p["winner"] is (n in won), (record, want)
            assert p["startPlayer"] is (n == o.round1_first), (record, o.round1_first)
        # the play BG Stats imports ranks them by G-15: more fame first, equal fame by the coins,
        # equal both sharing a place
        play = ok(console, "export format=bgstats")["play"]
        if count == 1 and not won:      # the Emperor's solo without a title (G-17): nobody beaten, no place
            assert all("rank" not in p and p["winner"] is False for p in play["players"]), play
            continue
        rank = {p["name"]: p["rank"] for p in play["players"]}
        key = want["key"]
        for a in key:
            for b in key:
                assert (rank[a] < rank[b]) is (key[a] > key[b]) and (rank[a] == rank[b]) is (key[a] == key[b]), (rank, key)


# ---------------------------------------------------------------------------------------------
# Hand-made corners
# ---------------------------------------------------------------------------------------------
def rulebook_example() -> dict[str, Any]:
    """G-16, «Пример подсчета очков»: the four players' sheets as the rulebook lays them out."""
    return {
        "players": [
            {"name": "Jack", "track": 29, "pantheon": {"own": 1}, "denarii": 12},
            {"name": "Henry", "track": 26, "medals": ["merchant"], "sets": {"weapons": 1, "clothing": 1},
             "merchant_jewelry_jokers": 1, "pantheon": {"gold": 1, "bronze": 1, "own": 5}, "objectives": 3, "denarii": 3},
            {"name": "Mary", "track": 27, "medals": ["priest"], "sets": {"weapons": 1},
             "pantheon": {"gold": 1, "own": 2}, "denarii": 6},
            {"name": "Ross", "track": 23, "medals": ["warrior"], "sets": {"jewelry": 1},
             "pantheon": {"silver": 1, "own": 4}, "objectives": 6, "denarii": 10},
        ],
        "battlefields": [
            {"name": "Epirus", "shield": 2, "legions": {"Mary": 1, "Ross": 1}},
            {"name": "Macedonia", "shield": 3, "legions": {"Jack": 3, "Mary": 3, "Henry": 1}},
            {"name": "Thrace", "shield": 4, "legions": {"Henry": 3, "Jack": 2, "Ross": 1}},
        ],
        "senate": ["Mary", "Jack", "Henry", "Mary", "Ross"],
    }


def test_the_oracle_and_the_engine_give_the_rulebooks_worked_example(console):  # G-16
    """«Джек 40, Генри 66, Мэри 47, Росс 58»; «Джек: 5; Генри: 4 + 10 = 14; Мэри: 2; Росс: 5 + 3 = 8»."""
    req = rulebook_example()
    want = oracle_score(req)
    assert {n: s["total"] for n, s in want["scores"].items()} == {"Jack": 40, "Henry": 66, "Mary": 47, "Ross": 58}
    assert {n: s["military"] for n, s in want["scores"].items()} == {"Jack": 5, "Henry": 14, "Mary": 2, "Ross": 8}
    assert want["winners"] == ["Henry"]
    check_score(ok(console, "score " + json.dumps(req)), want, "G-16")


@pytest.mark.parametrize(("count", "shield", "legions", "warrior", "points"), [
    # three tied, the Warrior among them: he is 1st, the other two share the 2nd place for nothing,
    # and the next count is 3rd («занимают следующее доступное место»)
    (4, 4, {"Jack": 2, "Henry": 2, "Mary": 2, "Ross": 1}, "Henry", {"Henry": 10, "Jack": 0, "Mary": 0, "Ross": 3}),
    # two tied, the Warrior among them: the other one alone is 2nd and scores it (Epirus in G-16)
    (3, 3, {"Jack": 1, "Henry": 1, "Mary": 1}, "Jack", {"Jack": 8, "Henry": 0, "Mary": 0}),
    (3, 3, {"Jack": 2, "Henry": 2, "Mary": 0}, "Jack", {"Jack": 8, "Henry": 4, "Mary": 0}),
    # a tie without the Warrior: nothing for either, the next count 2nd («вместо третьего места»)
    (4, 3, {"Jack": 1, "Henry": 1, "Mary": 1, "Ross": 0}, None, {"Jack": 0, "Henry": 0, "Mary": 0, "Ross": 0}),
    (4, 4, {"Jack": 1, "Henry": 1, "Mary": 2, "Ross": 3}, None, {"Jack": 0, "Henry": 0, "Mary": 5, "Ross": 10}),
    # a 4th place scores nothing; the Warrior outside the tie changes nothing
    (4, 4, {"Jack": 4, "Henry": 3, "Mary": 2, "Ross": 1}, "Ross", {"Jack": 10, "Henry": 5, "Mary": 3, "Ross": 0}),
    # 2 players: «когда завоевана Фракия ... 1-е место ... 5 очков славы, а ... 2-е ... 3 очка славы
    # вместо обычных 10 и 5»; Macedonia's 2nd place scores nothing there
    (2, 4, {"Jack": 3, "Henry": 1}, None, {"Jack": 5, "Henry": 3}),
    (2, 3, {"Jack": 2, "Henry": 1}, None, {"Jack": 4, "Henry": 0}),
    (1, 4, {"Jack": 4}, None, {"Jack": 5}),
    # not conquered («Поля битв, которые не были завоеваны, не приносят славы»), and exactly conquered
    (4, 4, {"Jack": 2, "Henry": 1}, None, {"Jack": 0, "Henry": 0}),
    (4, 2, {"Jack": 1, "Henry": 1}, "Mary", {"Jack": 0, "Henry": 0}),
])
def test_battlefield_corners(console, count: int, shield: int, legions: dict[str, int], warrior: str | None,
                             points: dict[str, int]):  # G-9
    req = {"players": [{"name": n, "track": 1, "medals": ["warrior"] if n == warrior else []} for n in NAMES[:count]],
           "battlefields": [{"shield": shield, "legions": legions}]}
    want = oracle_score(req)
    assert {n: want["scores"][n]["military"] for n in points} == points
    check_score(ok(console, "score " + json.dumps(req)), want, legions)


@pytest.mark.parametrize(("sheets", "winners"), [
    # «В случае ничьей по очкам побеждает игрок с наибольшим количеством денариев»: the coins, not
    # their fame (7 and 5 denarii both give 1 fame)
    ([(20, 7, []), (20, 5, [])], ["Jack"]),
    # equal fame, 21 each (the Priest's 6 denarii give 2, the other's 7 give 1): the 7 coins win
    ([(20, 7, []), (19, 6, ["priest"])], ["Jack"]),
    # the denarii held once the exchanged ones are back in the supply (G-14): 8 coins give 2 fame
    # and leave none, 7 give 1 and leave 3, so equal fame (22) goes to the 7 coins, not the 8
    ([(20, 8, []), (21, 7, [])], ["Henry"]),
    # the Priest's 9 denarii give 3 fame and leave none; 5 give 1 and leave 1
    ([(19, 9, ["priest"]), (21, 5, [])], ["Henry"]),
    # «В случае ничьей по денариям равноуспешные игроки считаются победителями и соправителями»
    ([(20, 7, []), (20, 7, []), (3, 0, [])], ["Jack", "Henry"]),
    ([(20, 8, []), (21, 4, []), (3, 0, [])], ["Jack", "Henry"]),      # none left either
    ([(1, 0, []), (1, 0, []), (1, 0, []), (1, 0, [])], NAMES),
])
def test_winner_ties(console, sheets: list[tuple[int, int, list[str]]], winners: list[str]):  # G-15
    req = {"players": [{"name": n, "track": t, "denarii": d, "medals": m} for n, (t, d, m) in zip(NAMES, sheets)]}
    want = oracle_score(req)
    assert want["winners"] == winners
    check_score(ok(console, "score " + json.dumps(req)), want, sheets)


@pytest.mark.parametrize(("denarii", "winners", "ranks"), [
    ((7, 7, 3), {"Jack", "Henry"}, {"Jack": 1, "Henry": 1, "Mary": 3}),     # «соправителями»
    ((7, 5, 3), {"Jack"}, {"Jack": 1, "Henry": 2, "Mary": 3}),              # the coins break it
])
def test_a_tie_as_history_files_it(console, denarii: tuple[int, int, int], winners: set[str],
                                   ranks: dict[str, int]):  # G-15
    """A game ended on equal fame: History's winners and the ranks BG Stats imports follow G-15."""
    ok(console, "new glory players=Jack,Henry,Mary seed=6")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    for name, coins in zip(("Jack", "Henry", "Mary"), denarii):
        ok(console, f"sheet {name} denarii {coins}")
    req = {"players": [{"name": n, "track": 1, "denarii": d} for n, d in zip(("Jack", "Henry", "Mary"), denarii)],
           "battlefields": [{"shield": shield, "legions": {}} for shield in (2, 3, 4)]}
    want = oracle_score(req, 3)
    assert set(want["winners"]) == winners
    check_score(ok(console, "score"), want, denarii)
    ok(console, "end")
    record = ok(console, "history 1")["games"][0]
    assert {p["name"] for p in record["players"] if p["winner"]} == winners
    play = ok(console, "export format=bgstats")["play"]
    assert {p["name"]: p["rank"] for p in play["players"]} == ranks

def test_a_tie_told_by_the_denarii_left_as_history_files_it(console):  # G-14, G-15
    """Equal fame at the end of a session: Jack's 8 denarii give 2 fame and go back to the supply,
    Henry's 7 give 1 and leave 3 in his hands, so Henry wins (all the coins typed gave it to Jack);
    History, BG Stats' ranks and its sentence say so."""
    ok(console, "new glory players=Jack,Henry seed=6")
    ok(console, "event")
    ok(console, "fame Henry +1")                  # Henry on 2, Jack on 1
    ok(console, "end-round")
    for _ in range(8):
        ok(console, "event")
        ok(console, "end-round")
    ok(console, "sheet Jack denarii 8")
    ok(console, "sheet Henry denarii 7")
    out = ok(console, "score")
    assert out["scores"]["Jack"]["total"] == out["scores"]["Henry"]["total"] == 3
    assert out["winners"] == ["Henry"] and out["places"] == {"Henry": 1, "Jack": 2}
    ok(console, "end")
    record = ok(console, "history 1")["games"][0]
    assert [p["name"] for p in record["players"] if p["winner"]] == ["Henry"]
    assert record["result"] == "Henry won on denarii with 3 points."
    play = ok(console, "export format=bgstats")["play"]
    assert {p["name"]: p["rank"] for p in play["players"]} == {"Henry": 1, "Jack": 2}


def test_zero_and_the_maximum(console):  # G-8..G-14, G-20
    """Nothing but the track's first space scores 1; everything a player can hold at once scores
    as the rulebook counts it, with every achievement it allows."""
    empty = {"players": [{"name": "Jack", "track": 1}, {"name": "Henry", "track": 1}]}
    want = oracle_score(empty)
    assert want["scores"]["Jack"]["total"] == 1 and want["winners"] == ["Jack", "Henry"]
    check_score(ok(console, "score " + json.dumps(empty)), want, "zero")
    full = {"players": [{"name": "Jack", "track": 61, "medals": list(MEDALS),
                         "sets": {"jewelry": 3}, "pantheon": {"gold": 2, "own": 5}, "objectives": 30,
                         "objectives_done": 4, "enmity": 0, "denarii": 300},
                        {"name": "Henry", "track": 1}, {"name": "Mary", "track": 1}],
            "battlefields": [{"shield": s, "legions": {"Jack": 7}} for s in (2, 3, 4)],
            "senate": ["Jack"] * 5}
    want = oracle_score(full)
    assert want["scores"]["Jack"] == {"track": 61, "military": 23, "politics": 17, "trade": 18, "religion": 13,
                                      "objectives": 30, "denarii": 100, "total": 262}
    assert len(want["achievements"]["Jack"]) == 11
    check_score(ok(console, "score " + json.dumps(full)), want, "maximum")


def test_milestone_chains_of_the_rulebook(console):  # G-6
    """«Джек первым достигает вехи в 12-й ячейке. Маркер вехи немедленно перемещается вниз, в 11-ю
    ячейку; а в 11-й ячейке находится маркер славы Мэри ... Если бы в 11-й ячейке вместе с Мэри
    находился ещё Генри, они оба ... а маркер вехи переместился бы сразу на две ячейки ниже — в 9-ю
    ячейку». Ross on 9 earns it then too; at 21 Ross, on 19, is jumped past (the marker goes from
    20 to 18) and earns it at his next gain (docs/protocol/glory.md: our reading)."""
    ok(console, "new glory players=Jack,Henry,Mary,Ross seed=2")
    o = GameOracle(NAMES, "Jack")
    for who, amount in (("Mary", 10), ("Henry", 10), ("Ross", 8), ("Jack", 11)):
        ok(console, f"fame {who} +{amount}")
        o.change(who, amount)
    state = ok(console, "state")["state"]
    o.check(state, "chain")
    assert state["markers"]["12"] == 8 and all(12 in o.earned[n] for n in NAMES)
    for who, amount in (("Mary", 9), ("Henry", 9), ("Ross", 10), ("Jack", 9)):
        ok(console, f"fame {who} +{amount}")
        o.change(who, amount)
    state = ok(console, "state")["state"]
    o.check(state, "jumped past")
    assert state["markers"]["21"] == 18 and 21 not in o.earned["Ross"]
    for who, amount in (("Ross", 1), ("Jack", -3), ("Jack", 30), ("Mary", 20), ("Henry", 30), ("Ross", 40)):
        ok(console, f"fame {who} {amount:+d}")
        o.change(who, amount)
        o.check(ok(console, "state")["state"], (who, amount))
    assert 21 in o.earned["Ross"] and o.supporters("Ross") == 5 and o.track("Ross") == {"space": 30, "flips": 1}


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "Mary is on space 1, the lowest: fame never drops below it (G-5); nothing changes."),
    ("ru", "Маркер славы игрока Mary — на 1-й ячейке, самой нижней: ниже неё он не опускается (G-5); ничего не "
           "меняется."),
    ("uk", "Маркер слави гравця Mary — на 1-й клітинці, найнижчій: нижче неї він не опускається (G-5); нічого не "
           "змінюється."),
])
def test_a_loss_on_the_first_space_is_refused(console, lang: str, message: str):  # G-5
    """«маркер славы ни при каких обстоятельствах не может опуститься ниже этой отметки. В
    соответствии с этим правилом нельзя использовать эффект интриги «1 очко славы» против игрока,
    чей маркер славы находится на ячейке 1». A loss for a player on space 1 was taken as a step
    that changed nothing (journaled, to be undone: «Mary −1 fame: 1 -> 1»); now it is refused and
    nothing changes. A loss that stops at 1 from higher up is still taken, as the oracle floors it.
    In Russian and Ukrainian it is the player's fame marker that stands on space 1 (it read «Mary на
    1-й ячейке», the player on the track)."""
    ok(console, f"settings language={lang}")
    ok(console, "new glory players=Jack,Mary seed=2")
    o = GameOracle(["Jack", "Mary"], "Jack")
    out = refused(console, "fame Mary -1", "illegal_move")
    assert out["message"] == message
    assert ok(console, "state")["state"]["actions"] == 0
    for who, amount in (("Mary", 3), ("Mary", -5)):
        out = ok(console, f"fame {who} {amount:+d}")
        o.change(who, amount)
    assert out["floored"] is True
    o.check(ok(console, "state")["state"], "floored")
    refused(console, "fame Mary -2", "illegal_move")

def test_the_rulebooks_supremacies(console):  # G-7
    """Henry's: two votes on top of Jack's, a boosted vote places two, «снова получает 2 очка славы
    за второе превосходство»; Mary's: four of her votes in the column and one left, the boosted vote
    places it, her bottom vote comes back, and she places it again: two supremacies; Ross's:
    taking a vote out «еще не считается полученным превосходством»."""
    ok(console, "new glory players=Jack,Henry,Mary,Ross seed=2")
    ok(console, "event")
    o = GameOracle(NAMES, "Jack")
    for line in ("vote Jack", "vote Henry n=2", "vote Henry n=2"):
        who, n = line.split()[1], int(line[-1]) if "n=" in line else 1
        assert o.vote(who, n)
        ok(console, line)
    assert o.fame["Henry"] == 5
    o.check(ok(console, "state")["state"], "Henry")
    ok(console, "new glory players=Jack,Henry,Mary,Ross seed=2")
    o = GameOracle(NAMES, "Jack")
    for who in ("Mary", "Jack", "Mary", "Mary", "Mary"):
        assert o.vote(who, 1)
        ok(console, f"vote {who}")
    assert o.vote("Mary", 2)
    out = ok(console, "vote Mary n=2")
    assert out["supremacies"] == 2 and out["pushed_out"] == ["Mary", "Jack"] and out["senate"] == ["Mary"] * 5
    o.check(ok(console, "state")["state"], "Mary")
    ok(console, "new glory players=Jack,Henry,Mary,Ross seed=2")
    o = GameOracle(NAMES, "Jack")
    o.event = ok(console, "event")["card"]      # G-1: intrigues are activated from round 2
    ok(console, "end-round")
    o.end_round()
    ok(console, "event")
    for who in ("Ross", "Ross", "Mary"):
        assert o.vote(who, 1)
        ok(console, f"vote {who}")
    assert ok(console, "unvote Mary")["senate"] == ["Ross", "Ross"]
    o.senate.remove("Mary")
    o.check(ok(console, "state")["state"], "unvote")
    assert o.vote("Ross", 1)
    assert ok(console, "vote Ross")["supremacy"] is True
    o.check(ok(console, "state")["state"], "Ross")


def test_an_empty_seat_before_the_token_passes_the_lead_on(console):  # G-2
    """3 players at seats 1-3, Mary first (the token before her, Spain); a blue arrow turns Spain to
    the empty 4th seat: in round 2 the lead goes to the next occupied seat the way play goes."""
    ok(console, "new glory players=Jack,Henry,Mary first=Mary seed=2")
    o = GameOracle(["Jack", "Henry", "Mary"], "Mary")
    out = ok(console, "event")
    if out["card"]["arrow"] != "cw90":
        out = ok(console, "arrow cw90")
    o.event = dict(out["card"], arrow="cw90")
    assert out["order"] == o.order("clockwise") == ["Mary", "Jack", "Henry"]
    ok(console, "end-round")
    o.end_round()
    for arrow, order in (("cw90", ["Jack", "Henry", "Mary"]), ("ccw90", ["Mary", "Henry", "Jack"]),
                         ("cw180", ["Jack", "Henry", "Mary"]), ("ccw180", ["Mary", "Henry", "Jack"])):
        steps = 1
        out = ok(console, "event")
        if out["card"]["arrow"] != arrow:
            out = ok(console, f"arrow {arrow}")
            steps = 2
        direction = "clockwise" if arrow.startswith("cw") else "counterclockwise"
        assert o.order(direction) == order and out["order"] == order and out["first"] == order[0], arrow
        for _ in range(steps):
            ok(console, "undo")


def test_a_seat_left_out_of_the_score_still_counts_the_table(console):  # G-9
    """In a 3-player game the request naming two scores the third with zeros, and the battlefields
    by the 3-4 player table («Партия на 3-4-х игроков»: Macedonia's 2nd place 4), not the
    2-player one (nothing there); the same request without a session is a 2-player game."""
    req = {"players": [{"name": "Jack", "track": 4}, {"name": "Henry", "track": 2}],
           "battlefields": [{"shield": 3, "legions": {"Jack": 2, "Henry": 1}}]}
    sessionless = ok(console, "score " + json.dumps(req))
    check_score(sessionless, oracle_score(req), "sessionless")
    assert sessionless["scores"]["Henry"]["military"] == 0
    ok(console, "new glory players=Jack,Henry,Mary seed=2")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    out = ok(console, "score " + json.dumps({**req, "players": [{"name": "Jack"}, {"name": "Henry"}]}))
    want = oracle_score({**req, "players": [{"name": n, "track": 1} for n in ("Jack", "Henry", "Mary")]}, 3)
    assert want["scores"]["Henry"]["military"] == 4 and want["scores"]["Mary"]["total"] == 1
    check_score(out, want, "a seat left out")

@pytest.mark.parametrize(("lang", "said"), [("en", "The Heroes variant plays without medals."),
                                            ("ru", "В варианте «Герои» играют без медалей."),
                                            ("uk", "У варіанті «Герої» грають без медалей.")])
def test_a_medal_in_the_heroes_variant_is_refused_in_the_players_words(console, lang: str, said: str):  # G-9
    """Heroes: «Удалите из игры все медали». The refusal says that the variant is played without
    them as a native reader would: «играют без медалей» / «грають без медалей» (it said «Вариант
    играется» / «Варіант грається», the variant playing itself; the Ukrainian reflexive passive is
    not the language's)."""
    ok(console, f"settings language={lang}")
    ok(console, "new glory players=Jack,Mary heroes=1 seed=3")
    assert refused(console, "medal Jack warrior", "illegal_move")["message"] == said
    assert ok(console, "state")["state"]["actions"] == 0


def test_no_medal_scores_in_the_heroes_variant(console):  # G-9, G-14; Heroes: «Удалите из игры все медали»
    """A Heroes game has no medals (`medal` is refused), but its `score <json>` took the medals the
    request named: a Warrior won a tie on a battlefield (5 fame for a tied 1st place, which scores
    nothing) and a Priest turned denarii into fame by 3s. Now the request is refused, nothing is
    scored from it, and without medals the score is the oracle's."""
    ok(console, "new glory players=Jack,Mary heroes=1 seed=3")
    refused(console, "medal Jack warrior", "illegal_move")
    with_medals = {"players": [{"name": "Jack", "medals": ["warrior", "priest"], "denarii": 9}],
                   "battlefields": [{"shield": 2, "legions": {"Jack": 1, "Mary": 1}}]}
    out = console.request("score " + json.dumps(with_medals))
    assert out["ok"] is False and out["error"] == "bad_arguments"
    assert out["message"] == "The Heroes variant plays without medals."
    plain = {"players": [{"name": "Jack", "medals": [], "denarii": 9}], "battlefields": with_medals["battlefields"]}
    out = ok(console, "score " + json.dumps(plain))
    want = oracle_score({"players": [{"name": "Jack", "track": 1, "denarii": 9}, {"name": "Mary", "track": 1}],
                         "battlefields": with_medals["battlefields"]})
    assert want["scores"]["Jack"]["military"] == 0 and want["scores"]["Jack"]["denarii"] == 2
    check_score(out, want, "heroes")
    ok(console, "new glory players=Jack,Mary seed=3")       # a game with medals scores them as before
    assert ok(console, "score " + json.dumps(with_medals))["scores"]["Jack"]["military"] == 5

def test_the_objectives_dealt(console):  # G-19
    """«раздайте каждому игроку по три карты закрытую»: 3 different cards each, none twice at the
    table, from the 23 minus those the variants take out (Truce: «Разжигание вражды» and «Неусыпная
    вражда»; Heroes: «Подношения, Дикая торговля, Первый в голосовании, Черная работа, Самый
    украшенный и Последний кирпич в стене»); once only."""
    removed = {"truce": {"Разжигание вражды", "Неусыпная вражда"},
               "heroes": {"Подношения", "Дикая торговля", "Первый в голосовании", "Черная работа",
                          "Самый украшенный", "Последний кирпич в стене"}}
    cards = json.loads((Path(__file__).resolve().parents[1] / "engine/data/glory_objectives.json").read_text())["cards"]
    ru = {c["id"]: c["ru"] for c in cards}
    assert len(cards) == 23                       # «23 шт. Карты заданий»
    rng = random.Random(5)
    for variant in ("", "truce", "heroes", "truce heroes"):
        for count in (1, 2, 3, 4):
            options = " ".join(f"{v}=1" for v in variant.split())
            ok(console, f"new glory players={','.join(NAMES[:count])} {options} seed={rng.randrange(10**6)}")
            hands = ok(console, "deal")["hands"]
            ids = [c["id"] for h in hands.values() for c in h]
            assert sorted(hands) == sorted(NAMES[:count]) and all(len(h) == 3 for h in hands.values())
            assert len(set(ids)) == len(ids) == 3 * count
            gone = set().union(*(removed[v] for v in variant.split())) if variant else set()
            assert not {ru[i] for i in ids} & gone, (variant, ids)
            refused(console, "deal", "illegal_move")

# ---------------------------------------------------------------------------------------------
# When the hidden draws may be made
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("line", "lang", "message"), [
    ("new glory players=Jack seed=4", "en",
     "There are no intrigues in the Emperor's solo (G-17): a random card from a hand is only for Sold! and Customs."),
    ("new glory players=Jack,Mary truce=1 seed=4", "ru",
     "В варианте «Перемирие» интриг нет: случайная карта из руки нужна только для «Продано!» и «Таможенных сборов»."),
    ("new glory players=Jack seed=4", "uk",
     "У соло Імператора інтриг немає (G-17): випадкова карта з руки потрібна лише для «Продано!» і «Митних зборів»."),
])
def test_no_random_pick_where_no_intrigue_is_played(console, line: str, lang: str, message: str):  # G-17, G-19
    """G-19: the random pick is «Продано!» and «Таможенные сборы», intrigues; «В этом режиме игры
    интриги не могут быть размещены» (the Emperor's solo) and Truce: «Игроки не размещают и не
    активируют интриги». The console drew and journaled a pick there all the same (the device's
    home hides the row); asked now it is refused, in the player's language, and nothing changes."""
    ok(console, f"settings language={lang}")
    ok(console, line)
    ok(console, "event")
    out = refused(console, "pick 3", "illegal_move")
    assert out["message"] == message
    ok(console, "vote Jack")
    out = refused(console, "unvote Jack", "illegal_move")
    assert "G-17" in out["message"] or "Перемирие" in out["message"]
    ok(console, "new glory players=Jack,Mary seed=4")       # where intrigues are played, both are taken
    for step_ in ("event", "end-round", "event", "vote Jack"):  # (from round 2, G-1)
        ok(console, step_)
    assert 1 <= ok(console, "pick 3")["position"] <= 3
    assert ok(console, "unvote Jack")["senate"] == []


@pytest.mark.parametrize(("lang", "pick", "unvote"), [
    ("en", "Round 1 skips the activation of intrigues (G-1): a random card from a hand is only for Sold! and "
           "Customs, intrigues activated from round 2.",
     "Round 1 skips the activation of intrigues (G-1): a vote leaves the Senate column only by Re-vote and Invalid "
     "vote, intrigues activated from round 2."),
    ("ru", "В первом раунде шаг «Активация интриг» пропускается (G-1): случайная карта из руки нужна только "
           "интригам «Продано!» и «Таможенные сборы», а их активируют лишь со 2-го раунда.",
     "В первом раунде шаг «Активация интриг» пропускается (G-1): голос убирают из колонны Сената только интриги "
     "«Повторное голосование» и «Недействительное голосование», а их активируют лишь со 2-го раунда."),
    ("uk", "У першому раунді крок «Активація інтриг» пропускається (G-1): випадкова карта з руки потрібна лише "
           "інтригам «Продано!» і «Митні збори», а їх активують тільки з 2-го раунду.",
     "У першому раунді крок «Активація інтриг» пропускається (G-1): голос із колони Сенату прибирають лише інтриги "
     "«Повторне голосування» і «Недійсне голосування», а їх активують тільки з 2-го раунду."),
])
def test_no_intrigue_in_round_1(console, lang: str, pick: str, unvote: str):  # G-1, G-7, G-19
    """«Активация интриг (Шаг 2) (В первом раунде игры пропустите этот шаг)», and an intrigue is
    activated only where it was placed «в предыдущих раундах»: round 1 has no «Продано!», «Таможенные
    сборы», «Повторное голосование» or «Недействительное голосование». The console drew a pick and
    took a vote out in round 1 (the home offered both rows); asked now both are refused, before and
    after the event (step 1 is played), in the player's language, and nothing changes. Round 2 takes
    them. In Russian and Ukrainian the reason is said as one: those are intrigues, «а их активируют
    лишь со 2-го раунда» (it ended «— интриг, которые активируют со 2-го раунда», a definition
    hung on the card names, that did not say why round 1 has none)."""
    ok(console, f"settings language={lang}")
    ok(console, "new glory players=Jack,Mary seed=4")
    ok(console, "vote Jack")
    assert refused(console, "pick 3", "illegal_move")["message"] == pick
    ok(console, "event")
    assert refused(console, "pick 3", "illegal_move")["message"] == pick
    assert refused(console, "unvote Jack", "illegal_move")["message"] == unvote
    ok(console, "end-round")
    ok(console, "event")
    assert 1 <= ok(console, "pick 3")["position"] <= 3
    assert ok(console, "unvote Jack")["senate"] == []


@pytest.mark.parametrize(("lang", "pick", "unvote"), [
    ("en", "Round 2 has no event yet: a random card from a hand is only for Sold! and Customs, intrigues activated "
           "after the round's event card is revealed (G-1); reveal it with 'event' first.",
     "Round 2 has no event yet: a vote leaves the Senate column only by Re-vote and Invalid vote, intrigues "
     "activated after the round's event card is revealed (G-1); reveal it with 'event' first."),
    ("ru", "В раунде 2 ещё нет события: случайная карта из руки нужна только интригам «Продано!» и «Таможенные "
           "сборы», а их активируют лишь после того, как раскрыта карта события раунда (G-1); сначала откройте "
           "событие командой «event».",
     "В раунде 2 ещё нет события: голос убирают из колонны Сената только интриги «Повторное голосование» и "
     "«Недействительное голосование», а их активируют лишь после того, как раскрыта карта события раунда (G-1); "
     "сначала откройте событие командой «event»."),
    ("uk", "У раунді 2 ще немає події: випадкова карта з руки потрібна лише інтригам «Продано!» і «Митні збори», а "
           "їх активують тільки після того, як розкрито карту події раунду (G-1); спершу відкрийте подію командою «event».",
     "У раунді 2 ще немає події: голос із колони Сенату прибирають лише інтриги «Повторне голосування» і «Недійсне "
     "голосування», а їх активують тільки після того, як розкрито карту події раунду (G-1); спершу відкрийте подію командою «event»."),
])
def test_no_intrigue_before_the_rounds_event(console, lang: str, pick: str, unvote: str):  # G-1, G-7, G-19
    """«Фаза интриг. Карты событий (Шаг 1): Раскройте карту события … Активация интриг (Шаг 2)»: the
    intrigues are activated after the round's event card is out, in the turn order it sets. The
    console drew a pick and took a vote out in round 2 before its event (a pick or re-vote meant for
    round 1, asked after its 'end-round', went into round 2). Asked now both are refused in the
    player's language and nothing changes (no draw taken: the pick after the event is the one the
    same game draws without the refusal); once the event is out they are taken, and an undo of the
    event refuses them again."""
    ok(console, f"settings language={lang}")
    ok(console, "new glory players=Jack,Mary seed=4")
    for line in ("vote Jack", "event", "end-round"):
        ok(console, line)
    before = ok(console, "state")["state"]
    assert refused(console, "pick 3", "illegal_move")["message"] == pick
    assert refused(console, "unvote Jack", "illegal_move")["message"] == unvote
    assert ok(console, "state")["state"] == before
    ok(console, "event")
    picked = ok(console, "pick 3")["position"]
    assert ok(console, "unvote Jack")["senate"] == []
    for _ in range(3):
        ok(console, "undo")
    assert ok(console, "state")["state"] == before
    assert refused(console, "pick 3", "illegal_move")["message"] == pick
    ok(console, "event")
    assert ok(console, "pick 3")["position"] == picked


@pytest.mark.parametrize("lang, message", [
    ("en", "Round 2 has no event yet: the income phase is the round's last, after the event (G-1); reveal it with "
           "'event' first."),
    ("ru", "В раунде 2 ещё нет события: фаза дохода — последняя в раунде, после события (G-1); сначала откройте "
           "событие командой «event»."),
    ("uk", "У раунді 2 ще немає події: фаза доходу — остання в раунді, після події (G-1); спершу відкрийте подію командою «event»."),
])
def test_no_tax_before_the_rounds_event(console, lang: str, message: str):  # G-1, G-4
    """«Каждый раунд делится на четыре фазы: Фаза интриг (карта события переворачивается) … Фаза
    дохода»: the tax was taken before the round's event; a tax meant for the round before, asked after
    its end, noted the population on the province the turned board now puts before the player and
    took this round's income (its real tax was then refused as a second one). Asked now it is
    refused, nothing changes; after the event it is taken."""
    ok(console, f"settings language={lang}")
    ok(console, "new glory players=Jack,Mary seed=4")
    refused(console, "tax Jack pop=3", "illegal_move")
    ok(console, "event")
    ok(console, "tax Jack pop=3")
    ok(console, "end-round")
    assert refused(console, "tax Mary pop=2", "illegal_move")["message"] == message
    ok(console, "event")
    assert ok(console, "tax Mary pop=2")["denarii"] == 2
    assert ok(console, "state")["state"]["taxed"] == ["Mary"]


def test_no_random_pick_after_the_nine_rounds(console):  # G-1, G-19
    """«В конце 9-го (IX) раунда игра переходит к итоговому подсчету очков»: no intrigue is activated
    after it; a vote, a tax, a deal are refused as game over, and now a pick too (it was drawn and
    journaled as a step of the finished game). The pick says what a tax or a deal says (only final
    scoring is left); a vote no longer does, deliberately: the Senate column is then corrected with
    'senate' (G-10), and the vote's refusal points to it (tests/test_glory_senate.py)."""
    ok(console, "new glory players=Jack,Mary seed=4")
    for _ in range(9):
        ok(console, "event")
        ok(console, "end-round")
    out = refused(console, "pick 3", "game_over")
    assert out["message"] == refused(console, "tax Jack pop=2", "game_over")["message"]
    assert out["message"] == refused(console, "deal", "game_over")["message"]
    assert "only final scoring is left" in out["message"]


def _stored_by_an_older_legatus(state_dir, new: str, lines: list[str]):
    """A session stored line by line as an older Legatus ran them (no refusal of today's asked), then
    resumed: its console (to be closed) and the positions its picks showed."""
    from firmware.console import Console
    from firmware.session import Session
    from firmware.store import Store
    store = Store(state_dir)
    old = Session.start(new, 4, "old")
    store.begin(old)
    shown = []
    for line in lines:
        outcome, new_json = old.run(line)
        assert new_json is not None, line
        store.commit(old, line, outcome, new_json)
        shown += [outcome.fields["position"]] if line.startswith("pick") else []
    store.close()
    store = Store(state_dir)
    return Console(store, store.resume()), shown


def test_a_pick_stored_where_no_intrigue_is_played_still_resumes(state_dir):  # G-17, G-19
    """A session an older Legatus stored with a pick (and a vote taken out) in the solo and after
    the 9 rounds, and a loss on space 1, resumes to the state those lines gave: the refusals are
    rules of requests asked now."""
    lines = ["fame Jack -1", "event", "pick 4 picks=apart", "vote Jack", "unvote Jack"]
    for _ in range(9):
        lines += ["end-round", "event"]
    lines[-1] = "pick 2 picks=apart"
    c, _shown = _stored_by_an_older_legatus(state_dir, "new glory players=Jack seed=4", lines)
    try:
        state = ok(c, "state")["state"]
        assert state["actions"] == len(lines) and state["finished"] is True and state["senate"] == []
        assert state["fame"] == {"Jack": 1}
    finally:
        c.close()


def test_a_round_1_intrigue_and_an_early_tax_stored_still_resume(state_dir):  # G-1
    """A session an older Legatus stored with a pick and a vote taken out in round 1, and a tax before
    the round's event, resumes to the state those lines gave (the refusals are rules of requests
    asked now), the pick's card the one it showed."""
    lines = ["tax Jack pop=3", "pick 4 picks=apart", "vote Mary", "event", "unvote Mary", "pick 2 picks=apart"]
    c, shown = _stored_by_an_older_legatus(state_dir, "new glory players=Jack,Mary seed=4", lines)
    try:
        state = ok(c, "state")["state"]
        assert state["actions"] == len(lines) and state["round"] == 1 and state["senate"] == []
        assert state["taxed"] == ["Jack"] and state["event"] is not None
        assert [p["position"] for p in c.session.state["picks"]] == shown
    finally:
        c.close()


def test_an_intrigue_stored_before_the_rounds_event_still_resumes(state_dir):  # G-1
    """A session an older Legatus stored with a pick and a vote taken out in round 2 before its
    event resumes to the state those lines gave (the refusal is a rule of requests asked now), the
    pick's card the one it showed; asked now, the next one is refused."""
    lines = ["vote Mary", "vote Jack", "event", "end-round", "pick 4 picks=apart", "unvote Mary"]
    c, shown = _stored_by_an_older_legatus(state_dir, "new glory players=Jack,Mary seed=4", lines)
    try:
        state = ok(c, "state")["state"]
        assert state["actions"] == len(lines) and state["round"] == 2 and state["event"] is None
        assert state["senate"] == ["Jack"]
        assert [p["position"] for p in c.session.state["picks"]] == shown
        refused(c, "unvote Jack", "illegal_move")
    finally:
        c.close()
