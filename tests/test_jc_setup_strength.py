"""A Julius Caesar battle's set-up and the strength a block carries (J-2, J-3, J-20): a block taken
out of the set-up keeps the strength it had before it was added, and a block in the levy pool joins
a battle only at the strength a levy brings it in at."""
from __future__ import annotations

import pytest

from firmware.i18n import localize
from firmware.session import with_language_options
from tests.test_jc_support import Table

DEVICE = "seed=3 pool=setup rolls=apart remove=restore"     # as the device starts a game now
BEFORE = "seed=3 pool=setup rolls=apart"                    # as the device started one before


def carried(t: Table, bid: str) -> int:
    """The strength ``roster`` gives the block (the one it carries, else where it most likely stands)."""
    return int({b["id"]: b for b in t.do("roster")["blocks"]}[bid]["strength"])


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_game_started_now_is_stored_with_remove_restore(lang):
    line = with_language_options("new jc-battle seed=3", lang)
    assert "remove=restore" in line.split()
    assert Table(line.removeprefix("new jc-battle ")).session.state["campaign"]["remove_restores"] is True


def test_remove_takes_only_restore():
    from engine.errors import LegatusError
    with pytest.raises(LegatusError) as e:
        Table("seed=3 remove=keep")
    assert e.value.code == "bad_arguments" and "remove=" in str(localize(e.value.message, "en"))


def test_a_block_removed_from_the_setup_gets_back_the_strength_it_had():  # J-2, J-20
    # Legio 10 (set-up: IV) added at II then taken out kept II: roster said II and the next add
    # (no strength=) put it in at II. Legio 17, in the levy pool (a levy brings it in at I), was
    # shown at III once an 'add … strength=3' stored before the refusal was taken out.
    t = Table(DEVICE)
    full = carried(t, "c_leg10")
    t.run("add attacker c_leg10 strength=2", "remove c_leg10")
    assert carried(t, "c_leg10") == full and "c_leg10" not in t.session.state["campaign"]["strength"]
    assert t.do("add attacker c_leg10")["block"]["strength"] == full
    t.run("remove c_leg10", "lose c_leg9", "add attacker c_leg9 strength=1", "remove c_leg9")
    assert carried(t, "c_leg9") == full - 1                 # the step Vulcan took, not the I it was added at
    t.run("add attacker c_leg17 strength=3", "remove c_leg17")      # (a stored line: not asked now)
    rows = {b["id"]: b for b in t.do("roster")["blocks"]}
    assert (rows["c_leg17"]["strength"], rows["c_leg17"]["pool"]) == (1, True)
    assert t.do("add attacker c_leg17")["block"]["strength"] == 1
    t.session.undo()                                        # undone, the add is gone and I stays
    assert carried(t, "c_leg17") == 1


def test_a_game_stored_before_keeps_the_strength_a_removed_block_was_added_at(state_dir):
    # A session an older Legatus stored (no remove=) replays as it ran: its removed block kept the
    # strength it was added at, and the next add without strength= used it; resumed, it is the same.
    from firmware.console import Console
    from firmware.session import Session
    from firmware.store import Store
    store = Store(state_dir)
    old = Session.start(f"new jc-battle {BEFORE}", 3, "old")
    store.begin(old)
    for line in ("add attacker c_leg10 strength=2", "remove c_leg10", "add attacker c_leg10",
                 "add attacker c_leg17 strength=3", "remove c_leg17"):
        outcome, new_json = old.run(line)
        assert new_json is not None
        store.commit(old, line, outcome, new_json)
    store.close()
    assert old.view()["battle"]["blocks"][0]["strength"] == 2
    assert old.view()["campaign"]["strength"]["c_leg17"] == 3
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        assert c.session is not None and c.session.state_json == old.state_json
    finally:
        c.close()


@pytest.mark.parametrize("line, en, ru, uk", [
    ("add attacker c_leg17 strength=3",
     "Legio 17 is in the levy pool, off the map: a levy brings it in at I (J-20), not at III.",
     "Блок «Легион 17» среди блоков, свободных для найма, вне карты: найм выставляет его с силой I (J-20), а не III.",
     "Блок «Легіон 17» у запасі найму, поза мапою: найм виставляє його із силою I (J-20), а не III."),
    ("add defender p_elephant strength=4",
     "Elephant is in the levy pool, off the map: a levy brings it in at II (J-20), not at IV.",
     "найм выставляет его с силой II (J-20), а не IV", "найм виставляє його із силою II (J-20), а не IV")])
def test_a_block_in_the_levy_pool_joins_a_battle_only_at_its_levy_strength(line, en, ru, uk):  # J-20
    # RU «Найм»: «выставить 1 новый блок из свободных для найма … с боевой силой 1»: Legio 17 was
    # added at III straight from the pool (two steps no levy point paid for). Asked now it is
    # refused, nothing changed; at I (the elephant II) it joins, and once levied any step it has.
    t = Table(DEVICE)
    said = t.fails(line, "illegal_move", asked=True)
    assert str(localize(said, "en")).startswith(en)
    assert "gain " in str(localize(said, "en"))
    assert ru in localize(said, "ru") and uk in localize(said, "uk")
    block = line.split()[2]
    low = {"c_leg17": 1, "p_elephant": 2}[block]
    assert t.session.apply(f"add {line.split()[1]} {block} strength={low}", asked=True).fields["block"]["strength"] == low
    t.session.undo()
    t.run(f"gain {block}")                                  # levied: on the map, its steps are its own
    assert t.session.apply(line, asked=True).fields["block"]["strength"] == int(line.split("=")[-1])


def test_the_refusal_is_for_requests_asked_now():  # J-20
    # an older Legatus took the line: stored, it replays as it ran; a block on the map takes any step
    t = Table(DEVICE)
    assert t.do("add attacker c_leg17 strength=3")["block"]["strength"] == 3
    assert t.session.apply("add attacker c_leg10 strength=2", asked=True).fields["block"]["strength"] == 2
    # what the handler refuses first it still says: the other side's pool block, not its strength
    said = str(localize(t.fails("add attacker p_leg38 strength=3", "illegal_move", asked=True), "en"))
    assert said.startswith("Legio 38 fights for Pompey, but the attacker is Caesar."), said


def test_a_pool_block_an_older_legatus_left_above_its_levy_strength_is_shown_and_added_at_it():  # J-20
    # A game stored before remove=restore: its 'add … strength=3' and 'remove' (stored lines) left
    # Legio 17, in the levy pool, carrying III: roster (the device's lists and forms) said III and
    # 'add attacker c_leg17' (no strength=) put it in at III, two steps no levy point paid for.
    t = Table(BEFORE)
    t.run("add attacker c_leg17 strength=3", "remove c_leg17")
    assert t.session.state["campaign"]["strength"]["c_leg17"] == 3          # replayed as it ran
    rows = {b["id"]: b for b in t.do("roster caesar")["blocks"]}
    assert (rows["c_leg17"]["strength"], rows["c_leg17"]["pool"]) == (1, True)
    said = t.fails("add attacker c_leg17", "illegal_move", asked=True)
    assert str(localize(said, "en")).startswith("Legio 17 is in the levy pool, off the map: a levy brings it in at I")
    assert t.session.apply("add attacker c_leg17 strength=1", asked=True).fields["block"]["strength"] == 1
