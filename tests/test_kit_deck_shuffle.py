"""Bags & decks → Shuffle the deck says what it did: how many cards it shuffled (ru/uk plural
forms), and over an empty draw pile it sends nothing and says what brings the cards back. It said
«Перемешано.» over a deck whose cards were all in the hand, stored a shuffle of 0 cards, and the
deck stayed empty as if the shuffle had failed."""
from __future__ import annotations

from pathlib import Path

import pytest

from firmware.screens import base
from firmware.screens.kit.bag import KitScreen
from tests.screens import app_with

SHUFFLE = {"en": "Shuffle the deck", "ru": "Перемешать колоду", "uk": "Перетасувати колоду"}


def _shuffle(app, side: bool = False) -> list[str]:
    app.push(KitScreen(side))
    screen = app.stack[-1]
    labels = [str(item.label) for item in screen.items(app)]
    screen.cursor = labels.index(SHUFFLE[app.console.store.load_settings().get("language", "en")])
    app.render()
    app.handle("a")
    rows = list(app.message or [])
    assert rows and all(len(row) <= base.COLS - 2 for row in rows), rows
    return rows


@pytest.mark.parametrize("lang, dealt, said", [
    ("ru", 4, "Перемешано: в колоде 1 карта."), ("ru", 3, "Перемешано: в колоде 2 карты."),
    ("ru", 0, "Перемешано: в колоде 5 карт."), ("uk", 3, "Перетасовано: у колоді 2 карти."),
    ("en", 4, "Shuffled: 1 card in the deck."),
])
def test_a_shuffle_says_how_many_cards_it_shuffled(state_dir: Path, lang: str, dealt: int, said: str):
    app = app_with(["new bag cards=a,b,c,d,e seed=3", *([f"card {dealt}"] if dealt else [])], [], state_dir, lang=lang)
    try:
        assert " ".join(_shuffle(app)) == said
    finally:
        app.console.close()


@pytest.mark.parametrize("lang, discard, said", [
    ("ru", False, "Колода пуста: сбросьте карты с руки, затем «Сброс в колоду»."),
    ("uk", True, "Колода порожня: «Скид у колоду» поверне до неї скид і перетасує."),
    ("en", False, "The deck is empty: discard the cards in the hand, then Discards back in."),
    ("en", True, "The deck is empty: Discards back in shuffles the discards into it."),
])
def test_shuffling_an_empty_deck_sends_nothing_and_says_what_brings_the_cards_back(
        state_dir: Path, lang: str, discard: bool, said: str):
    app = app_with(["new dice seed=3", "kit new cards=a,b,c", "kit card 3", *(["kit discard a"] if discard else [])],
                   [], state_dir, lang=lang)
    try:
        before = app.console.request("state")["state"]["actions"]
        assert " ".join(_shuffle(app, side=True)) == said
        assert app.console.request("state")["state"]["actions"] == before        # nothing stored
    finally:
        app.console.close()
