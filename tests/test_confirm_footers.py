"""Every yes/no question's footer («A: показать  B: позже») fits the panel's row in every language:
the footer is one row under a rule (firmware/screens/widgets/confirm.py) and a cut one ends in '…'
(issue 24 §4; found by the random keys with power cuts: «A: show it  B: not yet», 22 columns).

The questions are found in the source (every ``ConfirmScreen(...)`` call), their A and B labels
said in each language by the calling module's own ``_`` (its catalog domain), as the screen says
them."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from firmware import i18n
from firmware.screens import base

ROOT = Path(__file__).resolve().parents[1]


def labelled_questions() -> list[tuple[str, int, str | None, str | None]]:
    """(module, line, A's label, B's label) of each ``ConfirmScreen`` call in firmware/; None: the
    screen's own «A: yes» / «B: no»."""
    found = []
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ConfirmScreen"):
                continue
            given = list(node.args[3:5]) + [None, None]
            given[:2] = [next((k.value for k in node.keywords if k.arg == name), given[i])
                         for i, name in enumerate(("yes", "no"))]
            labels = []
            for arg in given[:2]:
                if arg is None:
                    labels.append(None)
                    continue
                assert (isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "_"
                        and isinstance(arg.args[0], ast.Constant)), \
                    f"{path}:{node.lineno}: a label this test cannot read; give it as _('…')"
                labels.append(arg.args[0].value)
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found.append((module, node.lineno, labels[0], labels[1]))
    return found


def test_the_questions_are_found() -> None:
    labelled = [q for q in labelled_questions() if q[2] is not None]
    assert len(labelled) >= 3, labelled          # (the seed's, the game's end, a player's removal…)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_question_footer_fits_one_row(lang: str) -> None:
    from firmware.i18n import _ as shared
    too_long = []
    try:
        i18n.set_language(lang)
        for module, line, yes, no in labelled_questions():
            say = getattr(importlib.import_module(module), "_", shared)      # (the module's own domain)
            footer = f"{say(yes) if yes else shared('A: yes')}  {say(no) if no else shared('B: no')}"
            if len(footer) > base.COLS:
                too_long.append(f"{module}:{line} {footer!r} ({len(footer)} > {base.COLS})")
    finally:
        i18n.set_language("en")
    assert not too_long, "\n".join(too_long)
