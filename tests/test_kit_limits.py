"""The kit's counts pushed past their limit say it, as every form's count does, and change nothing
(firmware/screens/widgets/figure.py ``say_limit``, the form's one sentence): the dice roller's
count (1–20) and modifier (±20), a bag's or deck's count of a name (0–99). They clamped in
silence — a key that did nothing without saying why. A choice at its end (the die's sides, d2…d100)
says nothing, as on a form: its field shows what it holds."""
from __future__ import annotations

import pytest

from tests.fakectx import FakeCtx

DICE = {"en": "Dice: at most 20.", "ru": "Кубики: не больше 20.", "uk": "Кубики: не більше 20."}
DICE_LOW = {"en": "Dice: at least 1.", "ru": "Кубики: не меньше 1.", "uk": "Кубики: не менше 1."}
MOD = {"en": "Modifier: at most +20.", "ru": "Модификатор: не больше +20.", "uk": "Модифікатор: не більше +20."}
MOD_LOW = {"en": "Modifier: at least -20.", "ru": "Модификатор: не меньше -20.", "uk": "Модифікатор: не менше -20."}


def _dice(lang: str) -> FakeCtx:
    from firmware.screens.kit.dice import DiceScreen
    ctx = FakeCtx(lang=lang).open(DiceScreen())
    ctx.render()
    return ctx


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_dice_count_and_modifier_at_their_limits_say_them(lang: str):
    ctx = _dice(lang)
    dice = ctx.top
    dice.count = 20
    ctx.press("up")
    assert ctx.notes[-1:] == [DICE[lang]] and dice.count == 20
    dice.count = 2
    ctx.press("down")
    assert dice.count == 1 and len(ctx.notes) == 1                   # a change says nothing
    ctx.press("down")
    assert ctx.notes[-1:] == [DICE_LOW[lang]] and dice.count == 1
    ctx.press("right", "right")
    assert dice.field == 2
    dice.mod = 20
    ctx.press("up")
    assert ctx.notes[-1:] == [MOD[lang]] and dice.mod == 20
    dice.mod = -20
    ctx.press("down")
    assert ctx.notes[-1:] == [MOD_LOW[lang]] and dice.mod == -20


def test_the_die_s_sides_at_their_end_say_nothing():
    from firmware.screens.kit.dice import SIDES
    ctx = _dice("en")
    dice = ctx.top
    ctx.press("right")
    dice.sides = len(SIDES) - 1
    ctx.press("up")
    assert ctx.notes == [] and dice.sides == len(SIDES) - 1


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_bag_count_at_its_limits_says_them(lang: str):
    from firmware.i18n import _
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.kit.presets import COMMON_NAMES
    ctx = FakeCtx(lang=lang)
    editor = BagEditor()
    ctx.open(editor)
    ctx.render()
    word = next(iter(COMMON_NAMES))
    editor.cursor = [i.key for i in editor.items(ctx)].index(f"common:{word}")
    ctx.press("left")
    name = _(word).capitalize()                             # «gold» on its row, «Gold: …» in a sentence
    low = {"en": f"{name}: at least 0.", "ru": f"{name}: не меньше 0.", "uk": f"{name}: не менше 0."}
    assert ctx.notes[-1:] == [low[lang]] and editor.common[word] == 0
    editor.common[word] = 99
    ctx.press("right")
    high = {"en": f"{name}: at most 99.", "ru": f"{name}: не больше 99.", "uk": f"{name}: не більше 99."}
    assert ctx.notes[-1:] == [high[lang]] and editor.common[word] == 99
    editor.add("Zork")                                     # a name as typed: said as typed
    editor.typed[0][1] = 99
    ctx.press("right")
    assert ctx.notes[-1].startswith("Zork: ") and ctx.notes[-1].endswith(" 99.") and editor.typed[0][1] == 99
    editor._typed(ctx, "Zork")                             # typed once more at 99
    assert ctx.notes[-1] == ctx.notes[-2] and editor.typed[0][1] == 99


def test_a_common_name_s_limit_is_said_again_in_a_new_language():
    """A notice on screen is said again when the language changes (firmware/app.py ``_relanguage``):
    a common name's limit said in English, then the device switched to Ukrainian, reads in Ukrainian
    («Срібло: не менше 0.»), not «Silver: не менше 0.» (the random-keys walk kit-reshuffle en 1 found
    the English name left in it)."""
    from firmware import i18n
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.kit.presets import COMMON_NAMES
    ctx = FakeCtx(lang="en")
    raw: list[str] = []
    ctx.notify = raw.append                                 # type: ignore[method-assign]
    editor = BagEditor()
    ctx.open(editor)
    ctx.render()
    word = next(iter(COMMON_NAMES))
    editor.cursor = [i.key for i in editor.items(ctx)].index(f"common:{word}")
    ctx.press("left")
    assert raw and editor.common[word] == 0
    try:
        i18n.set_language("uk")
        said = i18n.again(raw[-1])
        name = i18n._(word)
        assert said == f"{name[:1].upper()}{name[1:]}: не менше 0.", said
    finally:
        i18n.set_language("en")


def test_the_kit_s_counts_are_checked_by_the_form_s_one_limit_check(monkeypatch: pytest.MonkeyPatch):
    """One widget per job: the roller's count and modifier and a bag's counts go through the form
    widget's limit check (figure.change -> figure.refuse), not a check of their own beside it."""
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.kit.presets import COMMON_NAMES
    import importlib
    figure = importlib.import_module("firmware.screens.widgets.figure")     # (the package's «figure» is a function)
    refused: list[tuple[str, bool]] = []
    refuse = figure.refuse

    def recording(ctx, field, more):                        # type: ignore[no-untyped-def]
        refused.append((field.key, more))
        refuse(ctx, field, more)
    monkeypatch.setattr(figure, "refuse", recording)
    ctx = _dice("en")
    ctx.top.count = 20
    ctx.press("up", "right", "up", "right")                 # the count at 20; the die at d8 moves
    ctx.top.mod = -20
    ctx.press("down")
    assert refused == [("count", True), ("mod", False)] and ctx.notes == [DICE["en"], MOD_LOW["en"]]
    editor = BagEditor()
    ctx.open(editor)
    ctx.render()
    word = next(iter(COMMON_NAMES))
    editor.cursor = [i.key for i in editor.items(ctx)].index(f"common:{word}")
    ctx.press("left")
    assert refused[-1] == (f"common:{word}", False) and editor.common[word] == 0


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_common_name_typed_at_its_limit_says_it_as_its_row_does(lang: str):
    """A common name typed once more at 99 said «gold: at most 99.» (the name as typed, small, and
    left in the old language after a switch) where right on its row says «Gold: at most 99.»: both
    are the one count's limit now, said alike."""
    from firmware import i18n
    from firmware.i18n import _
    from firmware.screens.kit.bag import BagEditor
    from firmware.screens.kit.presets import COMMON_NAMES
    ctx = FakeCtx(lang=lang)
    editor = BagEditor()
    ctx.open(editor)
    ctx.render()
    word = next(iter(COMMON_NAMES))
    editor.common[word] = 99
    editor.cursor = [i.key for i in editor.items(ctx)].index(f"common:{word}")
    ctx.press("right")
    editor._typed(ctx, _(word))                                # typed as the common name
    assert len(ctx.notes) == 2 and ctx.notes[0] == ctx.notes[1] and editor.common[word] == 99, ctx.notes
    editor._typed(ctx, "Zork")                                 # a new name: one of it, nothing said
    assert editor.typed == [["Zork", 1]] and len(ctx.notes) == 2
    raw: list[str] = []
    ctx.notify = raw.append                                    # type: ignore[method-assign]
    editor._typed(ctx, _(word))
    try:
        i18n.set_language("uk" if lang != "uk" else "ru")
        name = _(word)
        assert i18n.again(raw[-1]).startswith(f"{name[:1].upper()}{name[1:]}: "), i18n.again(raw[-1])
    finally:
        i18n.set_language("en")
