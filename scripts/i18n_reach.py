"""Texts that reach a translating call through a name: ``Msg(CONST)``, ``_(WORDS[k])``,
``term(T.SIDE[s])``, a local ``said = A if x else B`` then ``Msg(said)``.

The extractor (scripts/i18n.py) reads literals only where they are marked — a call's own first
argument or an ``N_("…")`` (``gettext_noop``) at the constant's definition, as babel and xgettext
do. A sentence kept in a constant without the marker is said in English in every language, and
``check`` would not know it exists; :func:`unmarked` follows each name handed to ``_``, ``Msg``,
``term``, ``ngettext`` or ``gettext`` back to its definitions (the function's own assignments and
loops, the module's constants, the names and modules it imports, the values — or the item — of a
table it indexes, both arms of a conditional, a record's field: ``Msg(game.title)`` to every
``GameRules(title=…)``, the object's class read from annotations, constructors and ``self``) and
reports every string literal that can arrive there unmarked, and every sentence built there with
an f-string, ``%`` or ``+`` (only the values of a format can vary, never its words).

What it cannot follow (an unannotated parameter, a method's result, an object of a class it
cannot tell) is left alone: a wrapper such as ``def term(word): return Msg(word)`` is where a
marked text passes through.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

SAYING = frozenset({"_", "Msg", "term", "ngettext", "gettext"})
"""Calls that translate their first argument (and ``ngettext`` its second). (``say`` is handed
sentences made already — a Msg — or a text said by a name it was never catalogued under.)"""
MARKING = SAYING | {"N_", "gettext_noop"}
"""Calls whose string arguments are marked for the catalogs (scripts/i18n.py extracts them)."""


def _callee(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


@dataclass
class _Module:
    path: Path
    tree: ast.Module
    bound: dict[str, list[ast.expr]] = field(default_factory=dict)      # module-level name -> values
    imported: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (module, its name)
    modules: dict[str, str] = field(default_factory=dict)               # alias -> module
    parents: dict[ast.AST, ast.AST] = field(default_factory=dict)
    nodes: list[ast.AST] = field(default_factory=list)                  # every node, walked once


ANY = ast.Name("__any__")
"""The index of "some item": a ``for`` loop's item, ``TABLE[key]`` (a key not written out)."""


def _item(container: ast.expr, index: ast.expr) -> ast.Subscript:
    return ast.Subscript(container, index)


def _bind(out: dict[str, list[ast.expr]], target: ast.expr, value: ast.expr | None) -> None:
    """Record ``target = value``; a tuple target takes the value's items by position (a tuple
    written out pairs item with item)."""
    if value is None:
        return
    if isinstance(target, ast.Name):
        out.setdefault(target.id, []).append(value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        starred = any(isinstance(t, ast.Starred) for t in target.elts)
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and not starred:
            for t, v in zip(target.elts, value.elts):
                _bind(out, t, v)
        else:
            for i, t in enumerate(target.elts):
                _bind(out, t, _item(value, ANY if starred else ast.Constant(i)))
    elif isinstance(target, ast.Starred):
        _bind(out, target.value, value)


def _assignments(body: list[ast.stmt] | ast.AST, into: dict[str, list[ast.expr]], deep: bool) -> None:
    """The bindings made by statements (``deep``: also inside nested blocks, not nested functions):
    assignments, ``for`` targets (each takes the items of what it walks) and ``:=``."""
    nodes: list[ast.AST] = list(body) if isinstance(body, list) else [body]
    while nodes:
        node = nodes.pop()
        if isinstance(node, ast.Assign):
            for t in node.targets:
                _bind(into, t, node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            _bind(into, node.target, node.value)
        elif isinstance(node, ast.AugAssign):
            _bind(into, node.target, node.value)
        elif isinstance(node, (ast.For, ast.comprehension)):
            _bind(into, node.target, _item(node.iter, ANY))      # an item of it
        elif isinstance(node, ast.NamedExpr):
            _bind(into, node.target, node.value)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue                          # (their names are their own)
        if deep or isinstance(node, (ast.If, ast.Try, ast.With)):
            nodes.extend(ast.iter_child_nodes(node))


_Found = tuple[_Module, ast.expr, ast.AST | None]     # a value, its module and the scope binding it


class Reach:
    """The analysis over a set of source files (modules outside it are not followed)."""

    def __init__(self, root: Path, paths: list[Path]) -> None:
        self.root = root
        self._by_name: dict[str, Path] = {}
        for p in paths:
            parts = list(p.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            self._by_name[".".join(parts)] = p
        self._modules: dict[Path, _Module] = {}
        self.paths = paths
        self._attrs: dict[str, list[tuple[_Module, ast.expr]]] | None = None

    def module(self, path: Path) -> _Module:
        if path not in self._modules:
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            m = _Module(path, tree)
            _assignments(tree.body, m.bound, deep=False)
            m.nodes = list(ast.walk(tree))
            for node in m.nodes:
                for child in ast.iter_child_nodes(node):
                    m.parents[child] = node
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    for a in node.names:
                        sub = f"{node.module}.{a.name}"
                        if sub in self._by_name:
                            m.modules[a.asname or a.name] = sub
                        else:
                            m.imported[a.asname or a.name] = (node.module, a.name)
                elif isinstance(node, ast.Import):
                    for a in node.names:
                        if a.asname:
                            m.modules[a.asname] = a.name
            self._modules[path] = m
        return self._modules[path]

    # -- records' fields ----------------------------------------------------------------------------
    def _index(self) -> None:
        """The classes (name -> module, definition), their fields' annotations, and every value
        each class's field is given (see :meth:`field`)."""
        self._classes: dict[str, list[tuple[_Module, ast.ClassDef]]] = {}
        self._values: dict[tuple[str, str], list[tuple[_Module, ast.expr]]] = {}
        mods = [self.module(p) for p in self.paths]
        for m in mods:
            for node in m.nodes:
                if isinstance(node, ast.ClassDef):
                    self._classes.setdefault(node.name, []).append((m, node))
                    bound: dict[str, list[ast.expr]] = {}
                    _assignments([st for st in node.body if isinstance(st, (ast.Assign, ast.AnnAssign))], bound, deep=False)
                    for attr, values in bound.items():
                        self._values.setdefault((node.name, attr), []).extend((m, v) for v in values)
                elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:   # self.x = … in a method
                    for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            owner = self._owner(m, node)
                            if owner is not None:
                                self._values.setdefault((owner, t.attr), []).append((m, node.value))
        for m in mods:
            for node in m.nodes:
                if isinstance(node, ast.Call) and _callee(node) in self._classes:
                    made = _callee(node)
                    for attr, arg in zip(self._fields(made), node.args):
                        if not isinstance(arg, ast.Starred):
                            self._values.setdefault((made, attr), []).append((m, arg))
                    for kw in node.keywords:
                        if kw.arg is not None:
                            self._values.setdefault((made, kw.arg), []).append((m, kw.value))

    @staticmethod
    def _owner(m: _Module, node: ast.AST) -> str | None:
        """The class whose method ``node`` is in (None: not in a method)."""
        scope = m.parents.get(node)
        while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scope = m.parents.get(scope)
        cls = m.parents.get(scope) if scope is not None else None
        return cls.name if isinstance(cls, ast.ClassDef) else None

    def _fields(self, cls: str) -> list[str]:
        return [st.target.id for _m, c in self._classes.get(cls, []) for st in c.body
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)]

    def _family(self, classes: set[str]) -> set[str]:
        """``classes`` and every class made from them (a screen's ``title`` set by a subclass)."""
        out = set(classes)
        grew = True
        while grew:
            grew = False
            for name, defs in self._classes.items():
                if name not in out and any(isinstance(b, (ast.Name, ast.Attribute)) and
                                           (b.id if isinstance(b, ast.Name) else b.attr) in out
                                           for _m, c in defs for b in c.bases):
                    out.add(name)
                    grew = True
        return out

    def field(self, classes: set[str], attr: str) -> list[tuple[_Module, ast.expr]]:
        """Every value the field ``attr`` of an object of ``classes`` is given: a class's own
        ``attr = …`` or ``self.attr = …``, and ``attr=`` or the positional argument that fills
        it where the class is made by its name (``GameRules(title="…")``, ``GameRecord("caesar",
        N_("Caesar!"), …)``)."""
        if not hasattr(self, "_classes"):
            self._index()
        return [x for c in sorted(self._family(classes)) for x in self._values.get((c, attr), [])]

    def _annotated(self, m: _Module, note: ast.expr | None) -> set[str]:
        """The known classes an annotation names (``tuple[GameRecord, ...]``: GameRecord)."""
        if note is None:
            return set()
        if isinstance(note, ast.Constant) and isinstance(note.value, str):
            try:
                note = ast.parse(note.value, mode="eval").body
            except SyntaxError:
                return set()
        if not hasattr(self, "_classes"):
            self._index()
        return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(note)
                if isinstance(n, (ast.Name, ast.Attribute)) and (n.id if isinstance(n, ast.Name) else n.attr) in self._classes}

    def _function(self, m: _Module, name: str) -> tuple[_Module, ast.FunctionDef | ast.AsyncFunctionDef] | None:
        for st in m.tree.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == name:
                return m, st
        if name in m.imported:
            path = self._by_name.get(m.imported[name][0])
            if path is not None:
                return self._function(self.module(path), m.imported[name][1])
        return None

    def types(self, m: _Module, node: ast.expr, depth: int = 0) -> set[str]:
        """The classes (of the code read) ``node`` can be an object of, or hold (a container's
        items): read from annotations, constructors and ``self``; empty when not known."""
        if depth > 8:
            return set()
        if not hasattr(self, "_classes"):
            self._index()
        if isinstance(node, ast.Name):
            scope = m.parents.get(node)
            while scope is not None:
                if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    args = scope.args
                    for a in args.posonlyargs + args.args + args.kwonlyargs:
                        if a.arg == node.id:
                            if a.arg == "self" and a.annotation is None:
                                cls = m.parents.get(scope)
                                return {cls.name} if isinstance(cls, ast.ClassDef) else set()
                            return self._annotated(m, a.annotation)
                scope = m.parents.get(scope)
            out: set[str] = set()
            for mod, value, _scope in self._name(m, node.id, node, set()):
                out |= self.types(mod, value, depth + 1)
            return out
        if isinstance(node, ast.Call):
            name = _callee(node)
            if isinstance(node.func, ast.Name):
                if name in self._classes:
                    return {name}
                found = self._function(m, name)
                return self._annotated(found[0], found[1].returns) if found else set()
            return set()
        if isinstance(node, ast.Attribute):
            owners = self.types(m, node.value, depth + 1)
            return {c for o in self._family(owners) for mod, cls in self._classes.get(o, [])
                    for st in cls.body if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)
                    and st.target.id == node.attr for c in self._annotated(mod, st.annotation)}
        if isinstance(node, ast.Subscript):
            return self.types(m, node.value, depth + 1)
        if isinstance(node, ast.IfExp):
            return self.types(m, node.body, depth + 1) | self.types(m, node.orelse, depth + 1)
        return set()

    # -- following a value back ------------------------------------------------------------------
    def _name(self, m: _Module, name: str, at: ast.AST | None, seen: set[tuple[Path, str, int]]) -> list[_Found]:
        """The values ``name`` can hold where ``at`` reads it: the enclosing functions' own
        bindings first (a parameter: nothing to follow), else the module's, else an import's."""
        scope = m.parents.get(at) if at is not None else None
        while scope is not None:
            if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                args = scope.args
                params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
                params |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
                if name in params:
                    return []
                local: dict[str, list[ast.expr]] = {}
                _assignments(scope.body if isinstance(scope.body, list) else [], local, deep=True)
                if name in local:
                    return _once(seen, (m.path, name, id(scope)), [(m, v, scope) for v in local[name]])
            elif isinstance(scope, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                local = {}
                for gen in scope.generators:
                    _assignments(gen, local, deep=False)
                if name in local:
                    return _once(seen, (m.path, name, id(scope)), [(m, v, scope) for v in local[name]])
            scope = m.parents.get(scope)
        key = (m.path, name, 0)
        if key in seen:
            return []
        seen.add(key)
        if name in m.bound:
            return [(m, v, None) for v in m.bound[name]]
        if name in m.imported:
            module, attr = m.imported[name]
            path = self._by_name.get(module)
            if path is not None:
                return self._name(self.module(path), attr, None, seen)
        return []

    def leaves(self, m: _Module, node: ast.expr, at: ast.AST | None,
               seen: set[tuple[Path, str, int]] | None = None, pick: tuple[ast.expr, ...] = ()) -> list[tuple[Path, ast.expr]]:
        """The unmarked string literals and built strings (f-string, ``%``, ``+``) that ``node``
        can evaluate to — or, with ``pick``, the item of it those indexes pick, outermost first
        (``T[k][2]``: ``T`` with pick ``(k, 2)``); each with the file that writes it."""
        seen = set() if seen is None else seen
        here = at or node
        if len(pick) > 4:                    # (a table of tables of tables…: not a text's way)
            return []

        def down(n: ast.expr, p: tuple[ast.expr, ...] = pick, where: ast.AST | None = here) -> list[tuple[Path, ast.expr]]:
            return self.leaves(m, n, where, seen, p)

        if isinstance(node, ast.Constant):
            return [(m.path, node)] if isinstance(node.value, str) and node.value and not pick else []
        if isinstance(node, ast.JoinedStr):
            return [] if pick else [(m.path, node)]
        if isinstance(node, ast.BinOp):
            if pick:
                return []
            parts = down(node.left) + down(node.right)
            return [(m.path, node)] if parts or isinstance(node.op, ast.Mod) and _stringy(node.left) else []
        if isinstance(node, ast.Call):
            f = node.func
            if _callee(node) in MARKING or not isinstance(f, ast.Attribute):
                return []
            if f.attr == "get" and not pick:                                  # TABLE.get(k, default)
                return down(f.value, (node.args[0] if node.args else ANY,)) + (down(node.args[1]) if len(node.args) > 1 else [])
            if f.attr == "values" and pick:                                  # for x in TABLE.values()
                return down(f.value, (ANY, *pick[1:]))
            if f.attr == "items" and len(pick) > 1 and isinstance(pick[1], ast.Constant):   # for k, v in T.items()
                return down(f.value, (ANY, *pick[2:])) if pick[1].value == 1 else []
            return []
        if isinstance(node, ast.Name):
            out: list[tuple[Path, ast.expr]] = []
            for mod, value, scope in self._name(m, node.id, here, seen):
                out += self.leaves(mod, value, value if scope is not None else None, seen, pick)
            return out
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in m.modules:
            path = self._by_name.get(m.modules[node.value.id])
            if path is None:
                return []
            other = self.module(path)
            out = []
            for mod, value, _scope in self._name(other, node.attr, None, seen):
                out += self.leaves(mod, value, None, seen, pick)
            return out
        if isinstance(node, ast.Attribute):                                   # record.label, game.title
            owners = self.types(m, node.value)
            key = (Path("."), ",".join(sorted(owners)) + "." + node.attr, 0)
            if not owners or key in seen:
                return []
            seen.add(key)
            return [x for mod, value in self.field(owners, node.attr) for x in self.leaves(mod, value, value, seen, pick)]
        if isinstance(node, ast.Subscript):
            index = node.slice if isinstance(node.slice, ast.Constant) else ANY      # T[2], T["key"]; T[k]
            return down(node.value, (index, *pick))
        if isinstance(node, ast.Dict):
            if not pick:
                return [x for v in node.values for x in down(v)]
            want = pick[0]
            chosen = [v for k, v in zip(node.keys, node.values)
                      if isinstance(want, ast.Constant) and isinstance(k, ast.Constant) and k.value == want.value]
            return [x for v in (chosen or node.values) for x in down(v, pick[1:])]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            if not pick:
                return [x for v in node.elts for x in down(v)]
            want = pick[0]
            if isinstance(want, ast.Constant) and isinstance(want.value, int) and not isinstance(node, ast.Set) \
                    and -len(node.elts) <= want.value < len(node.elts) and not any(isinstance(e, ast.Starred) for e in node.elts):
                return down(node.elts[want.value], pick[1:])
            return [x for v in node.elts for x in down(v, pick[1:])]
        if isinstance(node, ast.IfExp):
            return down(node.body) + down(node.orelse)
        if isinstance(node, ast.BoolOp):
            return [x for v in node.values for x in down(v)]
        if isinstance(node, ast.Starred):                                    # (*A, …): A's items
            return down(node.value, (ANY, *pick))
        return []


def _once(seen: set[tuple[Path, str, int]], key: tuple[Path, str, int], values: list[_Found]) -> list[_Found]:
    """``values`` the first time ``key`` is followed, nothing after (``x = x + 1`` ends)."""
    if key in seen:
        return []
    seen.add(key)
    return values


def _stringy(node: ast.expr) -> bool:
    return isinstance(node, (ast.Constant, ast.JoinedStr)) and isinstance(getattr(node, "value", ""), str)


def unmarked(root: Path, paths: list[Path]) -> list[str]:
    """One line per text a translating call can receive unmarked: where it is said, where it is
    written and what (see the module doc)."""
    reach = Reach(root, paths)
    out: list[str] = []
    for path in paths:
        m = reach.module(path)
        for node in m.nodes:
            if not isinstance(node, ast.Call) or _callee(node) not in SAYING or not node.args:
                continue
            said = node.args[:2] if _callee(node) == "ngettext" else node.args[:1]
            for arg in said:
                if isinstance(arg, ast.Constant):
                    continue
                for where, leaf in reach.leaves(m, arg, arg):
                    text = leaf.value if isinstance(leaf, ast.Constant) else ast.unparse(leaf)
                    how = "not marked N_()" if isinstance(leaf, ast.Constant) else "built, not a template"
                    out.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {_callee(node)}() "
                               f"says a text {how} ({where.relative_to(root).as_posix()}:{leaf.lineno}): "
                               f"{str(text)[:70]!r}")
    return sorted(dict.fromkeys(out))
