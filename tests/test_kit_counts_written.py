"""A bag's or deck's count written with × (a phone's, a web page's multiplication sign) or : (as a
Caesar! token is written, ship:5/1) is refused with the count written as the console takes it
(docs/protocol.md, ``new bag``). Before, «gold×3» was "'gold?3' has characters the screen cannot
show (U+00D7)" — which character, and what to type instead, the player had to work out — and
«gold:3» made a bag of one item named «gold:3», not three gold."""
from __future__ import annotations

import pytest

from firmware.console import Console


@pytest.mark.parametrize("line,said", [
    ("new bag items=gold×3,silver*2", "'gold?3': an item's count follows a *: gold*3; nothing was done."),
    ("new bag items=gold:3", "'gold:3': an item's count follows a *: gold*3; nothing was done."),
    ("new bag items=золото×3", "'золото?3': an item's count follows a *: золото*3; nothing was done."),
    ("new bag items=gold cards=legio×4", "'legio?4': a card's count follows a *: legio*4; nothing was done."),
])
def test_a_count_written_with_another_sign_is_refused_with_the_one_meant(console: Console, line: str, said: str):
    assert console.request("new bag items=bronze*2 seed=1")["ok"]
    before = console.request("state")["state"]
    got = console.request(line)
    assert got["error"] == "bad_arguments" and got["message"] == said, got
    assert console.request("state")["state"] == before


def test_the_side_bag_refuses_it_too_and_says_it_in_the_players_language(console: Console):
    assert console.request("new dice seed=1")["ok"]
    assert console.request("settings language=ru")["ok"]
    assert console.request("kit new items=gold:3")["message"] == \
        "«gold:3»: количество предметов пишется после *: gold*3; ничего не сделано."
    assert console.request("settings language=uk")["ok"]
    assert console.request("kit new cards=legio×4")["message"] == \
        "«legio?4»: кількість карт пишеться після *: legio*4; нічого не зроблено."


def test_names_of_the_caesar_tokens_preset_and_stored_lines_are_still_names(console: Console):
    # engine/names.py LEGACY: «sword6/0», «ship:5/1» were names before the character rule
    assert console.request("new bag items=sword6/0,ship:5/1,wild2/2*2 seed=1")["ok"]
    from engine.bag import parse_items
    assert parse_items("gold:3") == {"gold:3": 1}          # a stored line replays as it ran
