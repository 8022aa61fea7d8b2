"""The panel's font draws the capital Cyrillic З exactly as the digit 3 (Terminus), so a word «З»
standing alone reads as a number: the Ukrainian bag's drawn page was titled «З торбинки» ("from
the bag"), read «3 торбинки» ("3 bags"), and its log and undo sentence began «З торбинки
витягнуто: чорний». The shared catalog (the kit's words) has no such word in Russian or Ukrainian."""
from __future__ import annotations

import re

import pytest
from PIL import Image, ImageDraw

from firmware import i18n
from firmware.screens import base

ALONE = re.compile(r"(?<!\w)З(?!\w)")       # the capital Ze as a word of its own («З торбинки»)


def _drawn(text: str, kind: str) -> bytes:
    img = Image.new("1", (40, 40), 0)
    ImageDraw.Draw(img).text((0, 0), text, font=base.font(kind), fill=1)
    return img.tobytes()


@pytest.mark.parametrize("kind", ["body", "bold", "large", "big"])
def test_the_panels_font_draws_the_capital_ze_as_the_digit_three(kind):
    assert _drawn("З", kind) == _drawn("3", kind)      # why a «З» alone cannot be shown


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_kit_sentence_or_title_has_a_capital_ze_alone_that_reads_as_three(lang):
    catalog = i18n.catalog(lang, "legatus")
    texts = getattr(catalog, "_catalog", {})
    assert texts, "the catalog did not load"
    found = sorted({str(t) for t in texts.values() if ALONE.search(str(t))})
    assert found == [], found


def test_the_ukrainian_bags_drawn_page_and_log_say_from_the_bag_in_letters():
    i18n.set_language("uk")
    try:
        assert i18n._("From the bag") == "Із торбинки"
        assert i18n.say(i18n.Msg("Drew {} from the bag.", "чорний")) == "Витягнуто з торбинки: чорний."
    finally:
        i18n.set_language("en")
