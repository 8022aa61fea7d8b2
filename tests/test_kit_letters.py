"""What the kit shows must read right on the panel. Its font draws the capital Cyrillic З exactly
as the digit 3 (Terminus), so a word «З» standing alone reads as a number: the Ukrainian bag's
drawn page was titled «З торбинки» ("from the bag"), read «3 торбинки» ("3 bags"), and its log
and undo sentence began «З торбинки витягнуто: чорний». The shared catalog (the kit's words) has
no such word in Russian or Ukrainian. A long name drawn is shown in large letters."""
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


@pytest.mark.parametrize("domain", ["legatus", "caesar", "jc", "glory", "sword", "history"])
@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_sentence_or_title_has_a_capital_ze_alone_that_reads_as_three(lang, domain):
    """Every catalog, not the kit's alone: Caesar!'s uk draw page «З торбинки» and the Sword's
    «З пулу витягнуто консулів» read «3 торбинки», «3 пулу» on the panel."""
    catalog = i18n.catalog(lang, domain)
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


@pytest.mark.parametrize("name,rows", [("легионер-ветеран", ["легионер-", "ветеран"]),
                                       ("преторианцы-гвар", ["преторианцы-", "гвар"])])
def test_a_long_name_drawn_is_shown_in_large_letters_over_two_rows(name, rows):
    """A 16-letter name (the name keyboard's longest) drawn from a bag or deck was one row of small
    letters at the top of the page, the rest of it empty: now two rows of large ones, centred, the
    whole name (the table reads it from across the table)."""
    from firmware.screens.kit.bag import Drawn
    from tests.fakectx import FakeCtx
    ctx = FakeCtx("new bag items=a")
    base.TRACE = []
    try:
        Drawn(("bag",), "Из мешочка", name).render(ctx)      # type: ignore[arg-type]
        drawn = [t for t in base.TRACE if t[2] not in ("Из мешочка", i18n._("A: ok"))]
    finally:
        base.TRACE = None
    assert [t[2] for t in drawn] == rows and {t[3] for t in drawn} == {"large"}, drawn
    for x, _y, text, _kind in drawn:
        assert x >= 0 and x + len(text) * base.advance("large") <= base.W
        assert abs(x - (base.W - x - len(text) * base.advance("large"))) <= base.advance("large")   # centred
