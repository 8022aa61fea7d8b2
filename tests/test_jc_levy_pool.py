"""The Julius Caesar levy pool at the start of a game and what reaches a block in it (J-2, J-3,
J-19, J-20; the RU summary's «Свободные для найма блоки», «Найм», «Лидеры»)."""
from __future__ import annotations

import pytest

from engine.errors import LegatusError
from engine.jc import roster as R
from firmware.i18n import localize
from firmware.session import with_language_options
from tests.fakectx import FakeCtx
from tests.test_jc_support import Table

DEVICE = "new jc-battle seed=3 pool=setup"      # as the device stores a line it starts now


def pool(t: Table) -> list[str]:
    return list(t.session.view()["campaign"]["pool"])


def refused(t: Table, line: str) -> str:
    """``line`` asked now (the console, the device) is refused with illegal_move, changing nothing."""
    before = t.session.state_json
    with pytest.raises(LegatusError) as err:
        t.session.apply(line, asked=True)
    assert err.value.code == "illegal_move", err.value.message
    assert t.session.state_json == before
    return err.value.message


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_game_started_now_holds_the_setups_off_map_blocks_in_the_pool(lang):
    # RU «Свободные для найма блоки»: «У каждого игрока есть место вне игрового поля, в котором он
    # размещает пока еще не участвующие в игре свои блоки. Игроки тратят очки найма для выставления
    # блоков на игровое поле.» Legio 17, the auxilia, the elephant … (no set-up place) were shown
    # at 'C4 I' as if on the map, offered Lose and Gain a step; the pool held none of them.
    line = with_language_options("new jc-battle seed=3", lang)
    assert "pool=setup" in line.split()
    t = Table(line.removeprefix("new jc-battle "))
    off_map = {bid for bid, spec in R.roster().items() if not spec.setup}
    # all but the third leaders, who join only once a leader of theirs is killed (J-2; «Лидеры»)
    assert set(pool(t)) == off_map - {"c_octavian", "p_brutus"}
    assert {"c_leg17", "c_aux1", "c_ballista", "c_nav3", "p_elephant", "p_leg38"} <= set(pool(t))
    rows = {b["id"]: b for b in t.do("roster")["blocks"]}
    assert rows["c_leg17"]["pool"] and rows["p_elephant"]["pool"]
    assert not rows["c_leg10"]["pool"] and rows["c_leg10"]["strength"] == R.block("c_leg10").max_strength
    assert not rows["cleopatra"]["pool"] and not rows["c_octavian"]["pool"]


def test_a_levy_point_places_a_block_the_setup_left_off_at_one():  # J-20, J-2
    # RU «Найм»: «выставить 1 новый блок из свободных для найма … с боевой силой 1»: the elephant
    # comes in at II (its lowest step), then a second levy point takes it to IV. It went II→IV at
    # once (one levy point counted as two); Legio 17 went I→II.
    t = Table(DEVICE.removeprefix("new jc-battle "))
    out = t.do("gain p_elephant")
    assert (out["from"], out["to"], out["levied"]) == (0, 2, True)
    assert t.session.log[-1] == "Elephant is levied from the levy pool: it comes in at II."
    assert (t.do("gain p_elephant")["from"], t.session.log[-1]) == (2, "Elephant gains a step from a levy (II→IV).")
    assert {b["id"]: b["strength"] for b in t.do("roster pompey")["blocks"]}["p_elephant"] == 4
    out = t.do("gain c_leg17")
    assert (out["from"], out["to"], out["levied"]) == (0, 1, True) and "c_leg17" not in pool(t)
    assert t.do("add attacker c_aux1")["block"]["strength"] == 1       # added from the pool: at I, as levied


def test_the_third_leader_joins_the_pool_when_a_leader_of_his_side_is_killed():  # J-2
    # RU «Лидеры»: «Как только первый лидер будет уничтожен, игрок добавляет третьего лидера к
    # блокам, свободным для найма»: out of battle (Vulcan) and in battle alike; undone, he leaves it.
    t = Table(DEVICE.removeprefix("new jc-battle "))
    t.run("lose c_caesar", "lose c_caesar", "lose c_caesar")
    assert "c_octavian" in pool(t) and "p_brutus" not in pool(t)
    assert t.do("gain c_octavian")["levied"] is True
    t.run("add attacker c_leg10", "add defender p_pompeius strength=1", "start", "pass", "fire dice=1,1,1")
    assert t.session.view()["campaign"]["killed"] == ["c_caesar", "p_pompeius"]
    assert pool(t)[-1] == "p_brutus"
    t.session.undo()
    assert "p_brutus" not in pool(t)


def test_a_game_stored_before_keeps_its_empty_pool():
    # A line an older Legatus stored (no pool=) replays as it was played: nothing in the pool at the
    # start, and its 'gain p_elephant' took the elephant II -> IV.
    t = Table("seed=3")
    assert pool(t) == []
    assert t.do("gain p_elephant")["to"] == 4
    with pytest.raises(LegatusError) as e:
        Table("pool=all")
    assert e.value.code == "bad_arguments" and "pool=" in str(e.value.message)


@pytest.mark.parametrize("line, en, ru, uk", [
    ("lose c_leg17", "Legio 17 is in the levy pool, off the map: it has no step to lose there",
     "Блок «Легион 17» среди блоков, свободных для найма, вне карты: там он не может потерять шаг",
     "Блок «Легіон 17» у запасі найму, поза мапою: там він не може втратити крок"),
    ("owner p_aux1 caesar", "Auxilia 1 is in the levy pool, off the map: only a block on the map can go over",
     "среди блоков, свободных для найма, вне карты: сменить сторону может только блок на карте",
     "у запасі найму, поза мапою: змінити сторону може лише блок на мапі"),
    ("disband c_ballista", "Ballista is in the levy pool already: only a block on the map can be disbanded",
     "уже среди блоков, свободных для найма: расформировать можно только блок на карте",
     "уже в запасі найму: розпустити можна лише блок на мапі")])
def test_no_card_reaches_a_block_in_the_pool(line, en, ru, uk):  # J-3, J-19, J-20
    # Vulcan strikes the blocks in a city, Jupiter takes a block from a city next to a friendly one:
    # a block off the map is reached by neither (it was 'levied' by the lose, and changed sides);
    # nor is a block in the pool disbanded to it again. Refused, nothing changed (Table.fails).
    t = Table(DEVICE.removeprefix("new jc-battle "))
    t.run("winter", "disband c_leg10")                  # a disbanded block is in the pool too
    said = refused(t, line)
    assert str(localize(said, "en")).startswith(en)
    assert ru in localize(said, "ru") and uk in localize(said, "uk")
    assert "levy pool" in str(localize(refused(t, "lose c_leg10"), "en"))


def test_a_stored_line_that_reached_a_block_in_the_pool_replays_as_it_was():  # J-19
    # An older Legatus took 'lose' on a disbanded block as a step lost on the map (levied since)
    # and let it change sides: its stored lines replay exactly (the refusal is for requests asked now).
    t = Table("seed=3")
    t.run("winter", "disband c_leg10", "disband p_leg3", "lose c_leg10", "owner p_leg3 caesar")
    assert pool(t) == ["p_leg3"] and t.session.view()["campaign"]["owners"] == {"p_leg3": "caesar"}
    assert "levy pool" in str(localize(refused(t, "disband p_leg3"), "en"))


@pytest.mark.parametrize("lang, row, levy", [("en", "levy pool", "Levy"), ("ru", "для найма", "Нанять"),
                                             ("uk", "для найму", "Найняти")])
def test_blocks_show_the_setups_off_map_blocks_in_the_pool(lang, row, levy):  # J-20
    # Blocks → Caesar → Legions: Legio 17 (no set-up place) said 'C4 I' and offered Lose a step,
    # Gain a step and Go over; it is in the levy pool and offers only its levy, at I.
    from firmware.screens.jc.blocks import BlockMenu, SideBlocks
    ctx = FakeCtx(DEVICE, lang=lang)
    try:
        ctx.open(SideBlocks("caesar"))
        ctx.press(*["down"] * [i.key for i in ctx.top.items(ctx)].index("kind:legion"), "a")
        ctx.top.cursor = [i.key for i in ctx.top.items(ctx)].index("c_leg17")
        assert ctx.top.items(ctx)[ctx.top.cursor].value == row
        assert not any("…" in t for t in ctx.texts()), ctx.texts()
        ctx.press("a")
        assert isinstance(ctx.top, BlockMenu)
        assert [(str(i.label), i.value) for i in ctx.top.items(ctx)] == [(levy, "→I")]
        ctx.press("a")
        assert ctx.session.lines[-1] == "gain c_leg17"
        assert "c_leg17" not in ctx.view()["campaign"]["pool"]
    finally:
        from firmware import i18n
        i18n.set_language("en")


def test_the_third_leader_is_not_in_play_before_a_leader_of_his_side_is_killed():  # J-2
    # RU «Лидеры»: «в игре одновременно участвует не более двух лидеров, третий лидер рекрутируется
    # … взамен погибшего»; «Как только первый лидер будет уничтожен, игрок добавляет третьего лидера
    # к блокам, свободным для найма». Octavian, neither on the map nor in the pool, was listed at
    # 'A? I' and offered Lose a step — killing him for a Pompeian trophy (1 VP) — and Gain a step.
    t = Table(DEVICE.removeprefix("new jc-battle "))
    rows = {b["id"]: b for b in t.do("roster")["blocks"]}
    assert rows["c_octavian"]["status"] == rows["p_brutus"]["status"] == "waiting"
    for line in ("lose c_octavian", "gain c_octavian", "disband p_brutus", "add attacker c_octavian"):
        said = t.fails(line, "illegal_move")
        assert str(localize(said, "en")).endswith("only once one of its leaders is killed (J-2).")
        assert "третий лидер стороны" in localize(said, "ru") and "третій лідер сторони" in localize(said, "uk")
    t.run("lose c_antonius", "lose c_antonius")                         # A2 II: Vulcan twice kills him
    rows = {b["id"]: b for b in t.do("roster")["blocks"]}
    assert rows["c_octavian"]["status"] == "available" and rows["c_octavian"]["pool"]
    assert rows["p_brutus"]["status"] == "waiting"
    assert t.do("gain c_octavian")["levied"] is True


def test_blocks_leave_out_a_third_leader_not_in_play_yet():  # J-2
    from firmware.screens.jc.blocks import SideBlocks
    ctx = FakeCtx(DEVICE)
    ctx.open(SideBlocks("caesar"))
    ctx.press(*["down"] * [i.key for i in ctx.top.items(ctx)].index("kind:leader"), "a")
    assert [i.key for i in ctx.top.items(ctx)] == ["c_caesar", "c_antonius"]
    ctx.run("lose c_antonius")
    ctx.run("lose c_antonius")                          # killed: Octavian joins the levy pool
    assert [(i.key, i.value) for i in ctx.top.items(ctx)] == [("c_caesar", "A3 III"), ("c_octavian", "levy pool")]
    ctx.session.undo()                                  # Antonius back at I: Octavian not in play again
    assert [i.key for i in ctx.top.items(ctx)] == ["c_caesar", "c_antonius"]


def test_jupiter_does_not_take_a_block_eliminated_this_year():  # J-3
    # RU «Юпитер»: «Если такой блок погибнет, он возвращается к свободным для найма блокам
    # противника (к тому, кому он изначально принадлежал)»: an eliminated block is off the map, in
    # its owner's pool. 'owner p_leg3 caesar' on it was taken, and the winter then put Pompey's
    # Legio 3 in Caesar's levy pool, for Caesar to levy.
    t = Table(DEVICE.removeprefix("new jc-battle "))
    t.run("lose p_leg3", "lose p_leg3", "lose p_leg3")
    said = refused(t, "owner p_leg3 caesar")
    assert str(localize(said, "en")).startswith("Legio 3 was eliminated this year: it is off the map")
    assert "среди блоков своего владельца" in localize(said, "ru") and "у запасі найму свого власника" in localize(said, "uk")
    t.do("winter")
    row = {b["id"]: b for b in t.do("roster")["blocks"]}["p_leg3"]
    assert (row["side"], row["pool"]) == ("pompey", True)



@pytest.mark.parametrize("lang, block, levy, levied", [
    ("en", "c_leg17", "Levy", "is levied from the levy pool"),
    ("ru", "c_leg17", "Нанять", "нанят из блоков, свободных для найма"),
    ("uk", "c_leg17", "Найняти", "найнято із запасу найму"),
    ("ru", "c_leg9", "Добавить шаг", "получает шаг за счёт найма (II→III)"),
    ("uk", "c_leg9", "Додати крок", "(II→III)")])
def test_a_levy_on_the_device_says_it_and_goes_back_to_the_sides_blocks(state_dir, lang, block, levy, levied):  # J-20
    # Blocks → Caesar → Legions → Legio 17 (levy pool) → Levy: the notice, too long for the notice
    # box in every language, got its own Note screen first, then the block's menu was closed, which
    # took the Note off instead: the player read no word of the levy and stayed on the block's menu,
    # now offering Gain a step where Levy had been (a second press: a step nobody meant to pay).
    # As every other change there, the menu closes first and the notice is said over the list.
    from firmware.screens.jc.blocks import BlockMenu, SideBlocks
    from tests.screens import app_with, drawn
    app = app_with([DEVICE, "lose c_leg9"], [], state_dir, lang)
    try:
        app.push(SideBlocks("caesar"))
        for row in ("kind:legion", block):
            app.render()
            app.stack[-1].cursor = [i.key for i in app.stack[-1].items(app)].index(row)
            app.handle("a")
        assert isinstance(app.stack[-1], BlockMenu)
        app.stack[-1].cursor = [str(i.label) for i in app.stack[-1].items(app)].index(levy)
        app.render()
        app.handle("a")
        camp = app.console.request("state")["state"]["campaign"]
        assert block not in camp["pool"] and camp["strength"][block] == (3 if block == "c_leg9" else 1)
        assert not any(isinstance(s, BlockMenu) for s in app.stack), app.stack
        said = " ".join(t for _x, _y, t, _f in drawn(app))
        assert levied in " ".join(said.split()), said
        app.handle("b")                               # the notice read: the side's blocks, Legio 17 at I
        while not isinstance(app.stack[-1], SideBlocks):
            app.render()
            app.handle("b")
        assert app.stack[-1].kind == "legion"
    finally:
        app.console.close()
        from firmware import i18n
        i18n.set_language("en")


@pytest.mark.parametrize("lang, said", [
    ("ru", "У блока «Брут» нет указанного города найма (любой дружественный город после гибели первого лидера "
           "Помпея)."),
    ("uk", "Блок «Брут» не має вказаного міста найму")])
def test_a_block_with_no_named_levy_city_is_named_in_quotes_as_every_block_is(state_dir, lang, said):  # J-20
    # every other sentence names a block «in quotes» after «блок» («Блок «Легион 1» уничтожен в этом
    # году…»); this one read «У блока Брут нет указанного города найма», the name run into the sentence
    from firmware.console import Console
    from firmware.store import Store
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert c.request(f"settings language={lang}")["ok"] and c.request("new jc-battle seed=1")["ok"]
        r = c.request("levy p_brutus Roma")
        assert r["error"] == "illegal_move" and r["message"].startswith(said), r
    finally:
        c.close()
