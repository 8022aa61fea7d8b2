"""Message catalogs: extract the texts, update the .po sources, compile them to .mo, check them.

    python scripts/i18n.py update [DOMAIN ...]   extract and merge into firmware/locale/*/LC_MESSAGES/DOMAIN.po
    python scripts/i18n.py compile [DOMAIN ...]  .po -> .mo (what the device loads)
    python scripts/i18n.py check                 untranslated or mismatched messages (exit 1 if any)

Texts are found by reading the source (ast): the first string argument of ``_``, ``N_``, ``Msg``
and ``term``, the ``plural=`` of ``Msg``, and both strings of ``ngettext``. A text kept in a
constant, a table or a record's field and said later (``Msg(CONST)``, ``_(WORDS[k])``,
``Msg(game.title)``) is marked where it is written, ``N_("…")``; ``check`` follows every name
handed to a translating call back to its definitions and reports a text that arrives unmarked
(never catalogued: English in every language) or built by an f-string, ``%`` or ``+``
(scripts/i18n_reach.py). Each source file
belongs to the one domain it names (see ``domain_of``) so that the games' catalogs can be edited
apart, and a text is catalogued in the domain whose words say it.
A ``#.`` comment in a .po (a translator's note, e.g. where a rulebook gives no word) is kept.
"""
from __future__ import annotations

import ast
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:          # (run as a script: scripts.i18n_reach)
    sys.path.insert(0, str(ROOT))
LOCALE = ROOT / "firmware" / "locale"
LANGS = ("ru", "uk")
SOURCES = ("engine", "firmware", "hw")
PLURAL_FORMS = {
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "uk": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}


TEXT_NAMES = frozenset({"_", "N_", "Msg", "term", "ngettext", "gettext", "say"})


def _declared(tree: ast.AST) -> set[str]:
    """The domains a module names itself: ``domain("x")`` (firmware.i18n) and a class's
    ``domain = "x"`` (a ``Msg`` of its own, engine/<game>/text.py)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "domain"
                and node.args and _str(node.args[0])):
            out.add(str(_str(node.args[0])))
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else \
                    stmt.target if isinstance(stmt, ast.AnnAssign) else None
                value = _str(stmt.value) if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
                if isinstance(target, ast.Name) and target.id == "domain" and value:
                    out.add(value)
    return out


def _module_file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _domains(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = _declared(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level \
                and any(a.name in TEXT_NAMES for a in node.names):
            source = _module_file(node.module)
            if source is not None and source != path:
                found |= _declared(ast.parse(source.read_text(encoding="utf-8"), str(source)))
    return found


def domain_of(path: Path) -> str:
    """The catalog a source file's texts go to: the domain the file binds — the one it names
    (``domain("x")``, a ``Msg`` with ``domain = "x"``) or the one of the module it takes its
    ``_``/``ngettext``/``say``/``Msg``/``term``/``N_`` from (``firmware.screens.jc.text``,
    ``engine.jc.text``, ``firmware.history_text``) — else the shared ``legatus`` (firmware.i18n's
    ``_``, engine.text's ``Msg``). The same binding picks the words when they are said. A file
    binding two domains is refused (ValueError): its texts would be said in one and catalogued
    in the other."""
    found = _domains(path)
    if len(found) > 1:
        raise ValueError(f"{path.as_posix()}: texts of several domains {sorted(found)}; "
                         "take _/ngettext/say/Msg/term/N_ from one")
    return found.pop() if found else "legatus"


# -- extraction ------------------------------------------------------------------------------------
@dataclass
class Entry:
    msgid: str
    plural: str | None = None
    refs: list[str] = field(default_factory=list)


def _str(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract(paths: list[Path]) -> dict[str, dict[str, Entry]]:
    """domain -> msgid -> Entry, in order of first appearance."""
    out: dict[str, dict[str, Entry]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        dom = out.setdefault(domain_of(path), {})
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
            if name not in ("_", "N_", "Msg", "term", "ngettext") or not node.args:
                continue
            msgid = _str(node.args[0])
            if not msgid:
                continue
            plural = None
            if name == "ngettext" and len(node.args) > 1:
                plural = _str(node.args[1])
            if name == "Msg":
                for kw in node.keywords:
                    if kw.arg == "plural":
                        plural = _str(kw.value)
            ref = f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
            entry = dom.setdefault(msgid, Entry(msgid, plural))
            entry.plural = entry.plural or plural
            entry.refs.append(ref)
    return out


def source_files() -> list[Path]:
    files: list[Path] = []
    for top in SOURCES:
        files += sorted((ROOT / top).rglob("*.py"))
    return files


# -- .po reading and writing -----------------------------------------------------------------------
@dataclass
class PoEntry:
    msgid: str
    plural: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    notes: list[str] = field(default_factory=list)     # '#.' lines, kept
    refs: list[str] = field(default_factory=list)
    fuzzy: bool = False


def _unquote(s: str) -> str:
    s = s.strip()
    assert s.startswith('"') and s.endswith('"'), s
    return str(ast.literal_eval(s))


def read_po(path: Path) -> tuple[str, dict[str, PoEntry]]:
    """(header msgstr, msgid -> entry); a missing file gives an empty catalog."""
    if not path.exists():
        return "", {}
    entries: dict[str, PoEntry] = {}
    header = ""
    cur: PoEntry | None = None
    key = ""
    notes: list[str] = []
    fuzzy = False

    def finish() -> None:
        nonlocal cur, header
        if cur is not None:
            if cur.msgid == "":
                header = cur.msgstr[0]
            else:
                entries[cur.msgid] = cur
        cur = None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.rstrip()
        if not line:
            finish()
            key = ""
            continue
        if line.startswith("#."):
            finish()
            notes.append(line[2:].strip())
            continue
        if line.startswith("#,"):
            finish()
            fuzzy = "fuzzy" in line
            continue
        if line.startswith("#"):
            finish()
            continue
        if line.startswith("msgid "):
            finish()
            cur = PoEntry(_unquote(line[6:]), notes=notes, fuzzy=fuzzy)
            notes, fuzzy, key = [], False, "msgid"
        elif line.startswith("msgid_plural ") and cur is not None:
            cur.plural, key = _unquote(line[13:]), "plural"
        elif line.startswith("msgstr[") and cur is not None:
            i = int(line[7:line.index("]")])
            while len(cur.msgstr) <= i:
                cur.msgstr.append("")
            cur.msgstr[i] = _unquote(line[line.index("]") + 1:])
            key = f"msgstr{i}"
        elif line.startswith("msgstr ") and cur is not None:
            cur.msgstr = [_unquote(line[7:])]
            key = "msgstr0"
        elif line.startswith('"') and cur is not None:
            more = _unquote(line)
            if key == "msgid":
                cur.msgid += more
            elif key == "plural":
                cur.plural = (cur.plural or "") + more
            elif key.startswith("msgstr"):
                cur.msgstr[int(key[6:])] += more
    finish()
    return header, entries


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def write_po(path: Path, lang: str, domain: str, entries: list[PoEntry]) -> None:
    out = [f"# Legatus — {domain} texts, {lang}. Game terms follow the {lang} rulebooks in shared/seeds.",
           'msgid ""', 'msgstr ""',
           _quote("Content-Type: text/plain; charset=UTF-8\n"),
           _quote(f"Language: {lang}\n"),
           _quote(f"Plural-Forms: {PLURAL_FORMS[lang]}\n"), ""]
    for e in entries:
        out += [f"#. {n}" for n in e.notes]      # no "#:" source lines: they change with every edit
        if e.fuzzy:
            out.append("#, fuzzy")
        if _has_fields(e.msgid):
            out.append("#, python-brace-format")
        out.append(f"msgid {_quote(e.msgid)}")
        if e.plural is not None:
            out.append(f"msgid_plural {_quote(e.plural)}")
            forms = (e.msgstr + ["", "", ""])[:3]
            out += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(forms)]
        else:
            out.append(f"msgstr {_quote(e.msgstr[0])}")
        out.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out), encoding="utf-8")


def _has_fields(s: str) -> bool:
    return bool(re.search(r"\{[^{}]*\}", s))


class UnknownDomain(Exception):
    """A domain named on the command line that the code does not use (a typo): nothing is written."""


def update(domains: list[str]) -> None:
    found = extract(source_files())
    unknown = sorted(set(domains) - set(found))
    if unknown:                 # an empty catalog of a typo would be written (and compiled) else
        raise UnknownDomain(f"no domain {', '.join(unknown)}; the domains: {', '.join(sorted(found))}")
    for domain in domains or sorted(found):
        new = found.get(domain, {})
        for lang in LANGS:
            path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
            _, old = read_po(path)
            merged = []
            for msgid, entry in new.items():
                prev = old.get(msgid)
                e = PoEntry(msgid, entry.plural, prev.msgstr if prev else [""],
                            prev.notes if prev else [], entry.refs, prev.fuzzy if prev else False)
                merged.append(e)
            write_po(path, lang, domain, merged)
            missing = sum(1 for e in merged if not all(e.msgstr))
            print(f"{path.relative_to(ROOT)}: {len(merged)} messages, {missing} untranslated")


# -- compiling -------------------------------------------------------------------------------------
def mo_bytes(header: str, entries: dict[str, PoEntry]) -> bytes:
    """GNU .mo bytes (no hash table: gettext reads the sorted tables); untranslated and fuzzy
    entries are left out so they show in English."""
    pairs: list[tuple[bytes, bytes]] = [(b"", header.encode())]
    for e in entries.values():
        if e.fuzzy or not all(e.msgstr):
            continue
        if e.plural is not None:
            key = e.msgid.encode() + b"\0" + e.plural.encode()
            val = b"\0".join(s.encode() for s in e.msgstr)
        else:
            key, val = e.msgid.encode(), e.msgstr[0].encode()
        pairs.append((key, val))
    pairs.sort()
    n = len(pairs)
    ids = strs = b""
    offsets = []
    for k, v in pairs:
        offsets.append((len(k), len(ids), len(v), len(strs)))
        ids += k + b"\0"
        strs += v + b"\0"
    start_k = 7 * 4
    start_v = start_k + n * 8
    base_ids = start_v + n * 8
    base_strs = base_ids + len(ids)
    out = struct.pack("<7I", 0x950412DE, 0, n, start_k, start_v, 0, 0)
    for lk, ok, _, _ in offsets:
        out += struct.pack("<2I", lk, base_ids + ok)
    for _, _, lv, ov in offsets:
        out += struct.pack("<2I", lv, base_strs + ov)
    return out + ids + strs


def compile_all(domains: list[str]) -> None:
    unknown = sorted(set(domains) - {po.stem for po in LOCALE.glob("*/LC_MESSAGES/*.po")})
    if unknown:
        raise UnknownDomain(f"no catalog {', '.join(unknown)}; run update first if it is a new domain")
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        if domains and po.stem not in domains:
            continue
        header, entries = read_po(po)
        po.with_suffix(".mo").write_bytes(mo_bytes(header, entries))


# -- checking --------------------------------------------------------------------------------------
FIELD = re.compile(r"\{([^{}]*)\}")


def fields(s: str) -> list[str]:
    """The format fields of ``s`` (names/positions with their specs), sorted."""
    return sorted(FIELD.findall(s.replace("{{", "").replace("}}", "")))


def problems() -> list[str]:
    """Every untranslated message, translation whose fields differ from its msgid's, message in
    the code but not in a catalog, text said through a name but not marked (scripts/i18n_reach.py),
    and stale .mo file."""
    from scripts.i18n_reach import unmarked
    files = source_files()
    out: list[str] = unmarked(ROOT, files)
    found = extract(files)
    for domain, new in sorted(found.items()):
        for lang in LANGS:
            path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
            header, entries = read_po(path)
            rel = path.relative_to(ROOT)
            for msgid in new:
                e = entries.get(msgid)
                if e is None:
                    out.append(f"{rel}: not in the catalog (run scripts/i18n.py update {domain}): {msgid!r}")
                    continue
                if not all(e.msgstr) or e.fuzzy:
                    out.append(f"{rel}: untranslated: {msgid!r}")
                    continue
                for s in e.msgstr:
                    want = fields(e.msgid) if e.plural is None else sorted(set(fields(e.msgid) + fields(e.plural)))
                    got = fields(s) if e.plural is None else sorted(set(fields(s)))
                    if got != want and not (e.plural is not None and set(got) <= set(want)):
                        out.append(f"{rel}: fields {got} differ from {want}: {msgid!r}")
            mo = path.with_suffix(".mo")
            if path.exists() and (not mo.exists() or mo.read_bytes() != mo_bytes(header, entries)):
                out.append(f"{mo.relative_to(ROOT)}: stale (run scripts/i18n.py compile)")
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "compile", "check"):
        print("usage: scripts/i18n.py {update,compile} [DOMAIN ...] | check\n")
        print(__doc__)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    try:
        if argv[0] == "update":
            update(argv[1:])
            compile_all(argv[1:])
            return 0
        if argv[0] == "compile":
            compile_all(argv[1:])
            return 0
    except UnknownDomain as e:
        print(f"scripts/i18n.py {argv[0]}: {e}", file=sys.stderr)
        return 2
    if argv[1:]:
        print("usage: scripts/i18n.py check (no arguments)", file=sys.stderr)
        return 2
    found = problems()
    for p in found:
        print(p)
    print(f"{len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
