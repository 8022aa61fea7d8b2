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


def _confirm_classes(trees: dict[Path, ast.Module]) -> set[str]:
    """``ConfirmScreen`` and the names of the classes made from it in firmware/ (a question that
    follows the game, ``EndQuestion``, ``Asked``…), however deep."""
    names = {"ConfirmScreen"}
    while True:
        more = {node.name for tree in trees.values() for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef) and node.name not in names
                and any(getattr(b, "id", getattr(b, "attr", None)) in names for b in node.bases)}
        if not more:
            return names
        names |= more


def _label(arg: ast.expr, path: Path, line: int) -> str:
    assert (isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "_"
            and isinstance(arg.args[0], ast.Constant)), \
        f"{path}:{line}: a label this test cannot read; give it as _('…')"
    return str(arg.args[0].value)


def _is_label(arg: ast.expr, key: str) -> bool:
    return (isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "_" and bool(arg.args)
            and isinstance(arg.args[0], ast.Constant) and str(arg.args[0].value).startswith(key))


def labelled_questions() -> list[tuple[str, int, str | None, str | None]]:
    """(module, line, A's label, B's label) of each call making a ``ConfirmScreen`` (or a class
    made from it) in firmware/; None: the screen's own «A: yes» / «B: no». A label is a ``yes=`` /
    ``no=`` keyword or the positional ``_("A: …")`` / ``_("B: …")`` (a subclass may take other
    arguments first)."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted((ROOT / "firmware").rglob("*.py"))}
    classes = _confirm_classes(trees)
    found = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            func = node.func if isinstance(node, ast.Call) else None
            if getattr(func, "id", getattr(func, "attr", None)) not in classes:
                continue
            assert isinstance(node, ast.Call)
            labels: list[str | None] = []
            for name, key in (("yes", "A:"), ("no", "B:")):
                arg = next((k.value for k in node.keywords if k.arg == name), None)
                if arg is None:
                    arg = next((a for a in node.args if _is_label(a, key)), None)
                labels.append(None if arg is None else _label(arg, path, node.lineno))
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
            reading = f"{shared('A: more')}  {say(no) if no else shared('B: no')}"   # (a long question's pages)
            for said in (footer, reading):
                if len(said) > base.COLS:
                    too_long.append(f"{module}:{line} {said!r} ({len(said)} > {base.COLS})")
    finally:
        i18n.set_language("en")
    assert not too_long, "\n".join(too_long)
