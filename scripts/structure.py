"""The shape of the device UI, as figures (issue 22): what a screen may not do, counted in the code.

    .venv/bin/python scripts/structure.py [--tests] [--no-mypy]

Prints, for the code as it stands:

- **command strings formatted in firmware/screens/** (target 0): string literals and f-strings that
  begin with a console command word and a space (``f"fire {key} dice=…"``), or a bare command word
  handed to ``run``/``ask``/``run_or_notify``/``reopen`` (a heuristic over the AST; texts for a
  person, inside ``_()``/``N_()``/``Msg()``, are not counted);
- **string-keyed lookups** in firmware/screens/ and firmware/app.py (``v["k"]``, ``v.get("k")``),
  from mypy's own type map of the build (``--no-mypy`` skips it), in three kinds: *untyped* (on
  ``Any`` or a mapping whose values hold ``Any``, such as ``dict[str, Any]``: mypy checks neither
  the key nor the value; target 0), *on typed tables* (a ``dict[str, T]`` with no ``Any`` in ``T``:
  a form's values, counts per item, the settings; the value is checked, the key is free by
  design) and *through TypedDicts* (a ``TypedDict``, or a union of them with ``None``: key and
  value checked: the views, engine/replies.py and engine/<game>/replies.py, firmware/replies.py);
- **``game ==`` switches in firmware/** (target 0): comparisons of a game id with a literal;
- **files over 500 lines in firmware/**, each with its length; one that gives a reason to be long
  (a ``# long-because: <reason>`` line among its first 60) is counted apart, with its reason;
- **import circles** among engine/, firmware/, hw/ (every import, also those inside functions:
  a lazy import hides a circle, it does not remove it) (target 0);
- **``mypy --strict`` errors** per package (engine, firmware, hw);
- with ``--tests``: the default test loop (``pytest``, the slow tests left out) next to the whole
  suite (``pytest -m ''``), wall-clock seconds on this machine (this takes minutes).
"""
from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PACKAGES = ("engine", "firmware", "hw")
LONG = 500
TRANSLATED = {"_", "N_", "ngettext", "Msg", "say", "gettext"}
RUNNERS = {"run", "ask", "run_or_notify", "run_line", "reopen", "request", "start_game", "_cached"}


def _py(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*.py") if ".venv" not in p.parts)


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


# -- command strings -------------------------------------------------------------------------------
def command_words() -> set[str]:
    from engine import registry
    from engine.common import SESSION_COMMANDS
    from firmware.console import BUILTINS
    words = set(SESSION_COMMANDS) | set(BUILTINS) | set(registry.GLOBAL_COMMANDS)
    for game in registry.available_games():
        words |= set(registry.game(game).commands)
    return words


def _prefix(node: ast.expr) -> str | None:
    """The static text a string expression begins with (None when it is not a string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
    return None


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def command_strings(words: set[str]) -> list[str]:
    """``path:line text`` of every command string formatted in firmware/screens/."""
    pattern = re.compile(r"^(%s) " % "|".join(sorted(map(re.escape, words), key=len, reverse=True)))
    found: list[str] = []
    for path in _py("firmware/screens"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                skip |= {id(v) for v in node.values}
            if isinstance(node, ast.Call) and _callee(node) in TRANSLATED:
                skip |= {id(n) for a in node.args for n in ast.walk(a)}
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr):
                    skip.add(id(first.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _callee(node) in RUNNERS and node.args:
                text = _prefix(node.args[-1] if _callee(node) in ("run_or_notify", "run_line", "_cached") else node.args[0])
                if text is not None and text.split(" ")[0] in words and not pattern.match(text):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {text!r}")
                    skip.add(id(node.args[0]))
            if isinstance(node, (ast.Constant, ast.JoinedStr)) and id(node) not in skip:
                text = _prefix(node)
                if text and pattern.match(text):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {text[:40]!r}")
    return found


# -- game switches, long files ---------------------------------------------------------------------
SWITCH = re.compile(r"""game["'\]]*\s*(==|!=|in\s*\(|not in\s*\()\s*["'(]""")


def game_switches() -> list[str]:
    out = []
    for path in _py("firmware"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if SWITCH.search(line) and not line.lstrip().startswith("#"):
                out.append(f"{path.relative_to(ROOT)}:{n} {line.strip()[:70]}")
    return out


JUSTIFIED = re.compile(r"^#\s*long-because:\s*(\S.*)$")


def long_files() -> list[tuple[str, int, str | None]]:
    """Each module of firmware/ over :data:`LONG` lines: its path, its length and the one reason it
    gives to be long (a ``# long-because: <reason>`` line among its first 60; None: no reason)."""
    out = []
    for path in _py("firmware"):
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) > LONG:
            reason = next((m.group(1).strip() for line in lines[:60] if (m := JUSTIFIED.match(line.strip()))), None)
            out.append((str(path.relative_to(ROOT)), len(lines), reason))
    return sorted(out, key=lambda x: -x[1])


# -- import circles --------------------------------------------------------------------------------
def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, also inside functions, but not under ``if TYPE_CHECKING:``."""
    out: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If) and _type_checking(node):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def import_graph() -> dict[str, set[str]]:
    modules = {_module(p): p for pkg in PACKAGES for p in _py(pkg)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    up = package.split(".")
                    up = up[: len(up) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            for t in targets:
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


# -- mypy ------------------------------------------------------------------------------------------
def strict_errors() -> dict[str, int]:
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", *PACKAGES], cwd=ROOT,
                          capture_output=True, text=True)
    counts = {p: 0 for p in PACKAGES}
    for line in proc.stdout.splitlines():
        m = re.match(r"^([a-z_]+)/.*: error:", line)
        if m and m.group(1) in counts:
            counts[m.group(1)] += 1
    return counts


def untyped_lookups() -> tuple[int, int, int, list[str], list[str]]:
    """(untyped, on typed tables, through TypedDicts, where the untyped ones are) string-keyed
    lookups in firmware/screens and firmware/app.py, from the types mypy infers; and where the
    lookups on typed tables are."""
    from mypy import build
    from mypy.main import process_options
    from mypy.nodes import Argument, Block, CallExpr, Expression, IndexExpr, MemberExpr, Statement, StrExpr
    from mypy.types import AnyType, Instance, NoneType, TupleType, Type, TypedDictType, UnionType, get_proper_type

    files = [str(p.relative_to(ROOT)) for p in _py("firmware/screens")] + ["firmware/app.py"]
    sources, options = process_options(files)
    options.export_types = True
    options.preserve_asts = True
    options.incremental = False
    result = build.build(sources, options)
    typed = tables = untyped = 0
    where: list[str] = []
    on_tables: list[str] = []

    def holds_any(t: Type) -> bool:
        p = get_proper_type(t)
        if isinstance(p, AnyType):
            return True
        if isinstance(p, Instance):
            return any(holds_any(a) for a in p.args)
        if isinstance(p, (UnionType, TupleType)):
            return any(holds_any(i) for i in p.items)
        return False

    def kind(t: Type | None) -> str:
        """``typed`` (TypedDict, or a union of them with None), ``table`` (a mapping whose values
        hold no Any) or ``untyped``."""
        p = get_proper_type(t) if t is not None else None
        if isinstance(p, TypedDictType):
            return "typed"
        if isinstance(p, UnionType):
            items = [get_proper_type(i) for i in p.items]
            if all(isinstance(i, (TypedDictType, NoneType)) for i in items):
                return "typed"
        if isinstance(p, Instance) and p.type.has_base("typing.Mapping") and p.args and not holds_any(p.args[-1]):
            return "table"
        return "untyped"
    skip = {"node", "def_var", "original_def", "info", "impl", "analyzed", "type", "unanalyzed_type"}

    def walk(tree: object) -> list[object]:
        """Every expression and statement under ``tree`` (mypy's nodes are compiled: no visitor
        subclass, so their attributes are walked)."""
        seen: set[int] = set()
        out: list[object] = []
        todo = [tree]
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            out.append(node)
            for name in dir(node):
                if name.startswith("_") or name in skip:
                    continue
                try:
                    value = getattr(node, name)
                except Exception:  # noqa: BLE001 - an attribute mypy did not fill in
                    continue
                values = value if isinstance(value, (list, tuple)) else [value]
                todo.extend(v for v in values if isinstance(v, (Expression, Statement, Block, Argument)))
        return out

    for source in sources:
        state = result.graph.get(source.module)
        if state is None or state.tree is None:
            continue
        for node in walk(state.tree):
            base: Expression | None = None
            key, line = "", 0
            if isinstance(node, IndexExpr) and isinstance(node.index, StrExpr):
                base, key, line = node.base, node.index.value, node.line
            elif (isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr) and node.callee.name == "get"
                  and node.args and isinstance(node.args[0], StrExpr)):
                base, key, line = node.callee.expr, node.args[0].value, node.line
            if base is None:
                continue
            t = result.types.get(base)
            found = kind(t)
            if found == "typed":
                typed += 1
            elif found == "table":
                tables += 1
                on_tables.append(f"{source.path}:{line} [{key!r}] on {t}")
            else:
                untyped += 1
                where.append(f"{source.path}:{line} [{key!r}] on {t}")
    return untyped, tables, typed, where, on_tables


# -- tests -----------------------------------------------------------------------------------------
def test_times() -> tuple[float, float, str, str]:
    def run(*extra: str) -> tuple[float, str]:
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", *extra], cwd=ROOT,
                              capture_output=True, text=True)
        tail = (proc.stdout.strip().splitlines() or [""])[-1]
        return time.perf_counter() - t0, tail
    default, d_tail = run()
    whole, w_tail = run("-m", "")
    return default, whole, d_tail, w_tail


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tests", action="store_true", help="also time the default test loop and the whole suite")
    ap.add_argument("--no-mypy", action="store_true", help="skip the two mypy figures")
    ap.add_argument("-v", "--verbose", action="store_true", help="list where each figure comes from")
    args = ap.parse_args()

    rows: list[tuple[str, str, str]] = []
    cmds = command_strings(command_words())
    rows.append(("command strings formatted in firmware/screens/", str(len(cmds)), "0"))
    if not args.no_mypy:
        untyped, tables, typed, where, on_tables = untyped_lookups()
        rows.append(("string-keyed lookups in screens + app: untyped (on Any, dict[str, Any]) / on typed tables "
                     "(dict[str, T]) / through TypedDicts (views, replies, History)", f"{untyped} / {tables} / {typed}",
                     "0 untyped"))
    switches = game_switches()
    rows.append(("`game ==` switches in firmware/", str(len(switches)), "0"))
    longs = long_files()
    bare = [(p, n) for p, n, why in longs if why is None]
    justified = [(p, n, why) for p, n, why in longs if why is not None]
    rows.append((f"files over {LONG} lines in firmware/: without a reason / with one (`# long-because:`)",
                 f"{len(bare)} / {len(justified)}" + (
                     " (" + "; ".join([f"{p} {n}" for p, n in bare] + [f"{p} {n}: {why}" for p, n, why in justified])
                     + ")" if longs else ""), "0 without a reason"))
    loops = circles(import_graph())
    rows.append(("import circles in engine/ firmware/ hw/", str(len(loops)) + (
        " (" + "; ".join(" ↔ ".join(c) for c in loops) + ")" if loops else ""), "0"))
    if not args.no_mypy:
        strict = strict_errors()
        rows.append(("`mypy --strict` errors (engine / firmware / hw)",
                     " / ".join(str(strict[p]) for p in PACKAGES), "0 / 0 / 0"))
    if args.tests:
        default, whole, d_tail, w_tail = test_times()
        rows.append(("default test loop (slow tests left out) vs the whole suite, s",
                     f"{default:.0f} vs {whole:.0f} = {default / whole:.2f}× ({d_tail}; {w_tail})", "≤ 60 s quiet"))

    print("| figure | now | target |")
    print("|---|---|---|")
    for name, now, target in rows:
        print(f"| {name} | {now} | {target} |")
    if args.verbose:
        for title, items in (("command strings", cmds), ("game switches", switches)):
            print(f"\n{title}:")
            for item in items:
                print("  " + item)
        if not args.no_mypy:
            print("\nuntyped lookups:")
            for item in where:
                print("  " + item)
            print("\nlookups on typed tables:")
            for item in on_tables:
                print("  " + item)
    return 0


if __name__ == "__main__":
    sys.exit(main())
