"""Every text a screen draws from a catalog onto a row of fixed width fits it in every language:
a list's footer, a form's key hint, a title bar (its title, and its right side when given with
it), a dice or a figure field's hint rows, a title given to a text or a question screen. These
rows are one row each, cut with '…' when longer (:func:`firmware.screens.base.clip`, issue 24 §4);
the random keys of scripts/monkey.py found one only when a walk reached it in that language
(«A: show it  B: not yet» after a switch to English: tests/test_confirm_footers.py).

The texts are found in the source: each ``_('…')``, ``N_('…')`` and ``ngettext('…', '…', n)`` given
to a fixed row —

- an argument of ``draw_footer``, ``title_bar`` (the title and its right side together when both
  are catalog texts), ``clip`` with the panel's width, ``hint_place``;
- said by a screen's ``footer``, ``hint`` or ``status`` (a list's footer, a form's key hint), or
  given to a widget as its ``hint``, ``back``, ``status`` or ``note`` (a dial's row, a form's hint);
- a screen's ``title`` (``title = Said(N_('…'))``, ``self.title = _('…')``) or the title given to
  ``TextScreen``, ``TableScreen``, ``ConfirmScreen``, ``EndPage``, ``Asked``;
- a row of a widget's ``hints`` list;
- a text put at a fixed place (``put``/``text`` at a column): it has the columns to the panel's edge —

and said in each language by the module's own ``_`` (its catalog domain), as the screen says it.
A ``{}`` counts one column (a figure or a name takes at least one): a text over the row with it
is cut whatever fills it."""
from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

from firmware import i18n
from firmware.screens import base

ROOT = Path(__file__).resolve().parents[1]
SINKS = {"draw_footer", "title_bar", "hint_place", "lines"}      # a call drawing (or placing) rows of one row
ROW_METHODS = {"footer", "hint", "status"}               # a screen's one-row texts
ROW_ARGS = {"hint", "back", "status", "note"}            # a widget's one-row texts given it (widgets/odds.py, figure.py)
# a screen given its title: (the title's argument, the columns it has, a catalog text beside it)
TITLED = {"TextScreen": (0, base.COLS, ()), "TableScreen": (0, base.COLS, ()), "ConfirmScreen": (0, base.COLS, ()),
          "EndPage": (1, base.COLS, ()), "Asked": (1, base.COLS, ()), "DiceEntry": (0, base.COLS, ()),
          "NumberForm": (0, base.COLS, ()), "OddsScreen": (0, base.COLS, ()),
          "ResultScreen": (0, base.COLS, ("A: ok",)),                   # (widgets/result.py: «A: ok» beside it)
          "Dial": (0, 15, ()), "PenaltyDial": (1, 15, ())}              # (widgets/figure.py: its status beside)
WRAPPED = {"wrap", "wrap_label", "wrapped"}             # a text made rows of the panel's width
FIELD = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Text:
    """A catalog text drawn on a fixed row: where, and the call saying it (``_``, ``N_``, ``ngettext``)."""

    module: str
    line: int
    words: tuple[str, ...]          # (the singular and the plural of an ngettext)
    own: str | None                 # the module whose ``_`` says it (None: the module's own)
    beside: tuple[str, ...] = ()    # a title bar's right side given with it (one row together)
    width: int = base.COLS          # the columns the row has for it
    shared: bool = False            # ``beside`` said in the shared words (a widget's own)


def _name(node: ast.AST) -> str:
    f = node.func if isinstance(node, ast.Call) else node
    return getattr(f, "id", None) or getattr(f, "attr", None) or ""


def _unwrapped(node: ast.AST, loops: bool = True) -> Iterator[ast.AST]:
    """``node`` and what is in it, but what is wrapped to rows first (``base.wrap(_('…'))``), and
    without ``loops``, what a comprehension goes over (``[r for row in rows for r in wrap(row)]``)."""
    todo = [node]
    while todo:
        sub = todo.pop()
        yield sub
        if not (isinstance(sub, ast.Call) and _name(sub) in WRAPPED or not loops and isinstance(sub, ast.comprehension)):
            todo.extend(ast.iter_child_nodes(sub))


def _said(node: ast.AST) -> Iterator[tuple[ast.Call, tuple[str, ...]]]:
    """The catalog texts said inside ``node``: ``_('…')``, ``N_('…')``, ``ngettext('…', '…', n)``
    (not those wrapped to rows first)."""
    for sub in _unwrapped(node):
        if not isinstance(sub, ast.Call):
            continue
        name = _name(sub)
        args = [a.value for a in sub.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if name in ("_", "N_") and len(args) == 1:
            yield sub, (args[0],)
        elif name == "ngettext" and len(args) == 2:
            yield sub, (args[0], args[1])


def _local_imports(fn: ast.AST) -> str | None:
    """The module a function imports ``_`` from itself (its own words then, not its module's)."""
    for sub in ast.walk(fn):
        if isinstance(sub, ast.ImportFrom) and any(a.name == "_" for a in sub.names):
            return sub.module
    return None


@lru_cache(maxsize=1)
def fixed_row_texts() -> tuple[Text, ...]:
    return tuple(t for path in sorted((ROOT / "firmware").rglob("*.py")) for t in _in_file(path))


def _in_file(path: Path) -> list[Text]:
    """The catalog texts drawn on fixed rows by the module at ``path``."""
    found: list[Text] = []
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    scopes: dict[int, str | None] = {}          # id(node) -> the module its function imports _ from
    local: dict[int, dict[str, list[ast.expr]]] = {}     # id(node) -> its function's names and what they are given
    consts: dict[str, list[ast.expr]] = {}                  # the module's names (``HAND = {…: N_('…')}``)
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    consts.setdefault(target.id, []).append(stmt.value)
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own = _local_imports(fn)
            names: dict[str, list[ast.expr]] = {}
            for sub in ast.walk(fn):
                scopes.setdefault(id(sub), own)
                local.setdefault(id(sub), names)
                if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name):
                    names.setdefault(sub.targets[0].id, []).append(sub.value)

    def add(node: ast.AST, beside: tuple[str, ...] = (), width: int = base.COLS) -> None:
        """The texts said in ``node``, and in what its function or its module gave a name ``node``
        uses (``hint`` in ``clip(hint)``, ``HAND`` in ``_(HAND[side])``)."""
        given = [v for sub in _unwrapped(node, loops=False) if isinstance(sub, ast.Name)
                 for v in local.get(id(sub), {}).get(sub.id) or consts.get(sub.id, [])]
        for part in [node, *given]:
            for call, words in _said(part):
                found.append(Text(module, call.lineno, words, scopes.get(id(call)), beside, width))

    for node in ast.walk(tree):
        for k in node.keywords if isinstance(node, ast.Call) else []:
            if k.arg in ROW_ARGS:
                add(k.value)
        if isinstance(node, ast.Call) and _name(node) in SINKS:
            args = node.args[1:] if _name(node) != "hint_place" else node.args[1:2]
            if _name(node) == "title_bar" and len(args) == 2:
                right = [w for _c, w in _said(args[1])]
                if len(right) == 1 and len(right[0]) == 1:       # both from the catalog: one row together
                    for call, words in _said(args[0]):
                        found.append(Text(module, call.lineno, words, scopes.get(id(call)), right[0]))
            for arg in args:
                add(arg)
        elif isinstance(node, ast.Call) and _name(node) == "clip" and len(node.args) == 1:
            add(node.args[0])
        elif isinstance(node, ast.Call) and _name(node) in TITLED:
            at, width, beside = TITLED[_name(node)]
            title = node.args[at] if len(node.args) > at else next(
                (k.value for k in node.keywords if k.arg in ("title", "label")), None)
            for call, words in _said(title) if title is not None else ():
                found.append(Text(module, call.lineno, words, scopes.get(id(call)), beside, width, True))
        elif (isinstance(node, ast.Call) and _name(node) in ("put", "text") and len(node.args) >= 4
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, int)):
            kind = next((str(k.value.value) for k in node.keywords if k.arg == "kind" and isinstance(k.value, ast.Constant)),
                        "body")
            add(node.args[3], width=(base.W - node.args[1].value) // base.advance(kind))   # (to the panel's edge)
        elif isinstance(node, ast.Call) and _name(node) == "TypeScreen":
            add(next((k.value for k in node.keywords if k.arg == "title"), ast.Constant(None)))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ROW_METHODS:
            add(node)                       # (a text it builds the row of: «Milestones» 1 2 3)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = {getattr(t, "id", None) or getattr(t, "attr", None) for t in targets}
            if node.value is not None and named & {"title", "_title", "hints"}:
                add(node.value)
    return found


def _say(text: Text) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """The ``_`` and ``ngettext`` the text is said by (its module's own domain)."""
    mod = importlib.import_module(text.own or text.module)
    return getattr(mod, "_", i18n._), getattr(mod, "ngettext", i18n.ngettext)


def shown(text: Text) -> list[str]:
    """The text in the current language as the row holds it at the least: each plural form, each
    ``{}`` one column; a title with its right side."""
    say, plural = _say(text)
    forms = [say(text.words[0])] if len(text.words) == 1 else [plural(text.words[0], text.words[1], n) for n in (1, 2, 5, 21)]
    right = [(i18n._ if text.shared else say)(w) for w in text.beside]
    return [FIELD.sub("0", " ".join([form, *right])) for form in forms]


def test_the_fixed_rows_are_found() -> None:
    texts = fixed_row_texts()
    words = {w for t in texts for w in t.words}
    for expected in ("A: start", "Tie broken by denarii", "↑↓ face ←→ die A: go", "Fair draw", "Milestones"):
        assert expected in words, expected
    assert any(t.beside for t in texts)                  # («Dice» with «A: roll»)
    assert any(t.width < base.COLS for t in texts)       # (a dial's title)
    assert {"face down", "need ≤ {}"} <= words            # (put at a column)
    assert "↑↓ ±1  ←→ ±{}" in words                      # (a name given it: a dial's hint)
    assert "Pompey's hand" in words                      # (a module's name: _(HAND[side]))
    assert {"←→ modifier", "hand {}, VP {}"} <= words          # (given to a widget)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_fixed_row_fits_the_panel(lang: str) -> None:
    too_long = []
    try:
        i18n.set_language(lang)
        for text in fixed_row_texts():
            for row in shown(text):
                if len(row) > text.width:
                    too_long.append(f"{text.module}:{text.line} {row!r} ({len(row)} > {text.width})")
    finally:
        i18n.set_language("en")
    assert not too_long, "\n".join(sorted(set(too_long)))
