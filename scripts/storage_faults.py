"""Fuller fault sweeps of the storage (issue 10), from outside the program; the suite runs a few
points of each, this runs all of them and prints what failed.

    python scripts/storage_faults.py inject [--calls pwrite64,fdatasync] [--faults error=ENOSPC,signal=KILL]
                                            [--upto 80] [--step 1] [--games | --finish] [--path legatus.db-journal]
    python scripts/storage_faults.py powerloss [--first | --salvage]
    python scripts/storage_faults.py bitflip [--trials 300]
    python scripts/storage_faults.py damage [--trials 1000]
    python scripts/storage_faults.py killplay [--runs 150] [--within 1.6]
    python scripts/storage_faults.py lostjournal [--upto 40]
    python scripts/storage_faults.py fullcard [--upto 160] [--step 4]   (root: mounts a tmpfs)

``inject``: ``strace -e inject=<call>:<fault>:when=N`` (and ``N+``: the fault stays, like a full disk)
on a ``legatus console`` subprocess playing a scripted session; after each run the program is
restarted without faults: every acknowledged action must come back exactly, nothing refused may
come back, the program must start, and the running program's last state must equal the disk's.
``--path`` injects only into calls on that file of the state directory (strace ``-P``).
``--finish``: a session of finishes instead (``end`` of games with named players, ``reveal``, a
players' rename, a setting, a game replaced by ``new`` and so abandoned, ``history``, ``export``):
after the restart History (without its times) and the remembered players must also be those of
the acknowledged lines — an acknowledged ``end`` never loses its game, a refused one never adds it.

``powerloss``: one strace of a scripted session; after every traced file syscall the state
directory is rebuilt as a power cut would leave it (only fsync'd data, and directory entries made
durable by an fsync of the directory), and each image must start with every acknowledged action.
``--first``: the session is the first start on a fresh card, whose state directory and two of its
parents do not exist yet (issue 20 §4). ``--salvage``: the session is a start that must salvage a
damaged database (its header), then two actions: a power cut anywhere in the salvage must leave
an image that starts with every acknowledged action (salvaged again, or the salvage finished).

``bitflip``: one bit flipped at a random place of the database of a finished session: the start
must never crash, damage must be reported (``recovered``) unless the state is exactly right, a
reported state must be one the session really had, and the device must accept a change after.
``damage``: one-byte changes and truncations spread over every file of the state directory — the
database alone, and the database and its hot rollback journal after a process was killed in the
middle of a commit (at the journal's unlink, and at the second write to the database): every start
must work, nothing may be silent (``state`` answers ``recovered``, or ``no_session`` with
``recovered``), no request may answer ``internal_error``, and at most the damaged action and those
after it may be lost. Prints a table of the outcomes per file.
``killplay``: a console subprocess playing games to their end, revealing and exporting them, killed
(SIGKILL) at a random moment, twice per state directory: the restart must work, every History
entry and exported play answered must come back unchanged, every acknowledged ``end`` must have its
game in History with its seed, and the state must be the last one answered.
``lostjournal``: a process killed at each write to the database in the middle of a commit (a roll
that takes a checkpoint, an ``end``, a ``new`` that archives, a setting), then its rollback
journal lost (fsck, a person tidying the card): the start must work, say what it found unless the
records are exactly those before or after the action, and keep every History record, the settings
and the state acknowledged before it (or the action's own result); prints the outcomes.
``fullcard``: a real full file system (a small tmpfs, filled but for N KiB, N = 0, step, … upto)
under the finish session of ``inject --finish``, then the space freed and the program restarted:
the same checks as ``inject`` (History and the players too), and a request answered
``internal_error`` or a crash is a failure. Needs root (mount).
Needs ``strace`` for inject, powerloss and damage's journal cases.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.args import at_least  # noqa: E402

READ_ONLY = ("state", "log", "help", "version", "history", "export")

SCRIPT_KIT = ["new dice seed=1", "roll 2d6", "roll 2d6", "undo", "roll 3d6", "state",
              "new bag items=a*3,b*2,c seed=2", "draw", "draw 2", "undo", "draw", "log 50",
              "settings language=ru", "new dice seed=5", "roll 1d20", "roll 1d20", "state"]
SCRIPT_GAMES = ["new caesar-solo seed=2", "crassus", "undo", "crassus", "roll 2d6", "new glory players=2 seed=3",
                "roll 1d6", "new jc-battle seed=4", "roll 3d6", "undo", "roll 3d6",
                "new sword players=romans,gauls seed=5", "roll 2d6", "state"]
SCRIPT_FINISH = ["new dice seed=1", "roll 2d6", "end", "reveal", "new glory players=Ann,Bob seed=3", "roll 1d6",
                 "end", "players rename Ann Anna", "settings language=uk", "new bag items=a*2,b seed=4", "draw",
                 "new dice seed=6", "roll 1d6", "end", "history", "export format=csv",
                 "new jc-battle seed=7 people=caesar:Anna,pompey:Carl", "roll 3d6", "end", "export format=bgstats", "state"]
READ_FINISH = ["history 100", "players"]
_TIMES = ("started", "finished", "unsynced")


def console(state_dir: str, lines: list[str], prefix: list[str] | None = None) -> tuple[list[dict[str, Any]], str]:
    cmd = [*(prefix or []), sys.executable, "-m", "firmware.cli", "console", "--state-dir", state_dir]
    p = subprocess.run(cmd, input="".join(x + "\n" for x in lines), capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    out = []
    for line in p.stdout.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            out.append({"garbage": line[:200]})
    return out, p.stderr


def final_view(state_dir: str, extra: list[str] | None = None) -> tuple[list[dict[str, Any]], str]:
    """The replies to ``state``, ``settings`` and ``extra`` on a restart (History's times left out:
    they are the clock's, not the session's)."""
    out, err = console(state_dir, ["state", "settings", *(extra or [])])
    for r in out:
        r.pop("recovered", None)
        for entry in r.get("games", []) if isinstance(r.get("games"), list) else []:
            for k in _TIMES:
                entry.pop(k, None)
    return out, err


def changes(lines: list[str], replies: list[dict[str, Any]]) -> list[str]:
    return [ln for ln, r in zip(lines, replies) if r.get("ok") and ln.split()[0] not in READ_ONLY]


class Expected:
    """The final view after a list of acknowledged changes, computed once per list."""

    def __init__(self, work: str, extra: list[str] | None = None) -> None:
        self.work, self.cache, self.extra = work, {}, extra  # type: ignore[var-annotated]

    def __call__(self, lines: list[str]) -> list[dict[str, Any]]:
        key = "\n".join(lines)
        if key not in self.cache:
            d = tempfile.mkdtemp(dir=self.work)
            console(d, lines)
            self.cache[key] = final_view(d, self.extra)[0]
            shutil.rmtree(d, ignore_errors=True)
        return self.cache[key]


# -- inject ------------------------------------------------------------------------------------
def inject(args: argparse.Namespace) -> int:
    script = SCRIPT_FINISH if args.finish else SCRIPT_GAMES if args.games else SCRIPT_KIT
    extra = READ_FINISH if args.finish else None
    n_views = 2 + len(extra or [])
    work = tempfile.mkdtemp(prefix="faults")
    expected = Expected(work, extra)

    def check(call: str, fault: str, when: str) -> str | None:
        d = tempfile.mkdtemp(dir=work)
        pre = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", f"trace={call}", "-e", f"inject={call}:{fault}:when={when}"]
        if args.path:
            pre[1:1] = ["-P", os.path.join(d, args.path)]
        label = f"{call} {fault} when={when}"
        try:
            replies, err = console(d, script, pre)
        except subprocess.TimeoutExpired:
            return f"{label}: timeout"
        acked = changes(script, replies)
        inflight = script[len(replies)] if len(replies) < len(script) else None
        after, err2 = final_view(d, extra)
        shutil.rmtree(d, ignore_errors=True)
        problems = []
        internal = [ln for ln, r in zip(script, replies) if r.get("error") == "internal_error" or "garbage" in r]
        if internal:
            problems.append(f"internal_error or garbage answering {internal}")
        if len(after) != n_views or "Traceback" in err2:
            problems.append(f"the restart failed: {err2[-300:]}")
        elif after not in [expected(acked)] + ([expected([*acked, inflight])] if inflight else []):
            problems.append(f"acknowledged {acked}, in flight {inflight!r}; after restart {json.dumps(after)[:300]}")
        elif len(replies) == len(script) and replies[-1].get("state") != after[0].get("state"):
            problems.append("the running program's state differs from the disk's")
        if "Traceback" in err and "firmware" in err.split("Traceback")[-1]:
            problems.append(f"traceback: {err[-300:]}")
        return f"{label}: " + "; ".join(problems) if problems else None

    jobs = [(c, f, w) for c in args.calls.split(",") for f in args.faults.split(",")
            for n in range(1, args.upto + 1, args.step) for w in ((f"{n}", f"{n}+") if f.startswith("error") else (f"{n}",))]
    with ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(lambda j: check(*j), jobs))
    bad = [r for r in results if r]
    for r in bad:
        print(r)
    print(f"inject: {len(jobs)} runs, {len(bad)} failed")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


# -- powerloss ---------------------------------------------------------------------------------
def _bytes(literal: str) -> bytes:
    return bytes(ast.literal_eval("b" + literal))


TRACED = "trace=openat,mkdir,mkdirat,pwrite64,write,ftruncate,unlink,unlinkat,fsync,fdatasync,close,rename"


def crash_images(trace: str, base: str, initial: dict[str, bytes | None] | None = None) -> list[tuple[int, dict[str, bytes | None], str]]:
    """What a power cut leaves under the directory ``base`` after each traced syscall of
    ``trace`` (``strace -f -s 1000000 -xx`` with :data:`TRACED`): (replies written to stdout so
    far, {path relative to ``base``: bytes, or None for a directory}, the syscall).

    The model: a file's data is durable once the file is fsync'd; a name in a directory — a new
    file, a new directory, a removal, a rename — once that directory is fsync'd (until then the
    old entry stands). Data belongs to the file, not its name: a file renamed keeps what was
    fsync'd of it under either name. ``base`` itself survives; ``initial`` is what it durably
    held before the trace."""
    initial = dict(initial or {})
    is_dir = {""} | {p for p, b in initial.items() if b is None}
    inodes = iter(range(1, 1 << 30))
    cur: dict[int, bytearray] = {}                                 # each file's data in the page cache
    synced: dict[int, bytes] = {}                                  # and as last fsync'd
    ent_cur: dict[str, dict[str, int]] = {d: {} for d in is_dir}   # directory entries now (name -> file; 0: a directory)
    for p, b in initial.items():
        ino = 0 if b is None else next(inodes)
        if b is not None:
            cur[ino], synced[ino] = bytearray(b), b
        ent_cur.setdefault(os.path.dirname(p), {})[os.path.basename(p)] = ino
    ent_dur = {d: dict(e) for d, e in ent_cur.items()}              # as last fsync'd
    fds: dict[str, tuple[str, int]] = {}                           # fd -> (directory path or "", file)
    sent = 0
    images: list[tuple[int, dict[str, bytes | None], str]] = []
    prefix = base.rstrip("/") + "/"

    def rel(path: str) -> str | None:
        path = os.path.normpath(path)
        return "" if path == base.rstrip("/") else (path[len(prefix):] if path.startswith(prefix) else None)

    def entry(path: str) -> int | None:
        return ent_cur.get(os.path.dirname(path), {}).get(os.path.basename(path))

    def image() -> dict[str, bytes | None]:
        out: dict[str, bytes | None] = {}

        def walk(d: str) -> None:
            for name, ino in sorted(ent_dur.get(d, {}).items()):
                child = os.path.join(d, name) if d else name
                if ino == 0:
                    out[child] = None
                    walk(child)
                else:
                    out[child] = synced.get(ino, b"")
        walk("")
        return out

    for raw in Path(trace).read_text().splitlines():
        m = re.match(r"(?:\d+\s+)?(\w+)\((.*)\)\s+= (-?\d+)", raw.strip())
        if not m or int(m.group(3)) < 0:
            continue
        call, a, ret = m.group(1), m.group(2), int(m.group(3))
        quoted = re.findall(r'("(?:[^"\\]|\\.)*")', a) if call in ("openat", "mkdir", "mkdirat", "unlink", "unlinkat",
                                                                       "rename") else []
        paths = [rel(_bytes(q).decode()) for q in quoted]
        path = paths[0] if paths else None
        if call == "openat":
            if path is not None:
                found = entry(path)
                if path in is_dir:
                    fds[str(ret)] = (path, 0)
                elif found is not None:
                    fds[str(ret)] = ("", found)
                elif "O_CREAT" in a:
                    made = next(inodes)
                    cur[made] = bytearray()
                    ent_cur.setdefault(os.path.dirname(path), {})[os.path.basename(path)] = made
                    fds[str(ret)] = ("", made)
            continue
        if call == "close":
            fds.pop(a.strip(), None)
            continue
        if call == "write" and a.startswith("1,"):
            sent += 1
            continue
        fd = a.split(",")[0].strip()
        if call in ("mkdir", "mkdirat"):
            if path is None:
                continue
            is_dir.add(path)
            ent_cur.setdefault(path, {})
            ent_cur.setdefault(os.path.dirname(path), {})[os.path.basename(path)] = 0
        elif call in ("unlink", "unlinkat"):
            if path is None:
                continue
            ent_cur.get(os.path.dirname(path), {}).pop(os.path.basename(path), None)
        elif call == "rename":
            if len(paths) < 2 or paths[0] is None or paths[1] is None:
                continue
            moved = ent_cur.get(os.path.dirname(paths[0]), {}).pop(os.path.basename(paths[0]), None)
            if moved is not None:
                ent_cur.setdefault(os.path.dirname(paths[1]), {})[os.path.basename(paths[1])] = moved
        elif call == "pwrite64" and fd in fds and fds[fd][1]:
            wm = re.match(r'\d+, (".*"), (\d+), (\d+)$', a)
            if wm is None:
                continue
            data, off = _bytes(wm.group(1)), int(wm.group(3))
            buf = cur.setdefault(fds[fd][1], bytearray())
            buf.extend(b"\0" * max(0, off - len(buf)))
            buf[off:off + len(data)] = data
        elif call == "ftruncate" and fd in fds and fds[fd][1]:
            size = int(a.split(",")[1])
            buf = cur.setdefault(fds[fd][1], bytearray())
            del buf[size:]
            buf.extend(b"\0" * (size - len(buf)))
        elif call in ("fsync", "fdatasync") and fd in fds:
            where, ino = fds[fd]
            if ino == 0:
                ent_dur[where] = dict(ent_cur.get(where, {}))
            elif ino in cur:
                synced[ino] = bytes(cur[ino])
        else:
            continue
        images.append((sent, image(), raw.strip()[:70]))
    images.append((sent, image(), "the end of the trace"))
    return images


def powerloss(args: argparse.Namespace) -> int:
    setup = ["new dice seed=1", "roll 2d6"]
    script = ["roll 2d6", "roll 3d6", "undo", "roll 1d20", "new bag items=a*3,b*2 seed=2", "draw", "draw", "undo",
              "settings language=uk", "draw 2"]
    work = tempfile.mkdtemp(prefix="powerloss")
    expected = Expected(work)
    if args.salvage:        # a start that salvages a damaged database (its header), then two more actions
        script = ["state", "roll 2d6", "roll 3d6"]
        setup = ["settings contrast=4", "new dice seed=3", "roll 2d6", "end", *setup]
    if args.first:          # the first start on a fresh card: the state directory and two parents are new
        base, root, setup = os.path.join(work, "card"), os.path.join(work, "card", "home", "legatus", "state"), []
        os.makedirs(base)
        initial: dict[str, bytes | None] = {}
    else:
        base = root = os.path.join(work, "state")
        console(root, setup)
        if args.salvage:
            db = Path(root, "legatus.db")
            db.write_bytes(b"not a database!!" + db.read_bytes()[16:])
        initial = {n: Path(root, n).read_bytes() for n in os.listdir(root)}
    trace = os.path.join(work, "trace")
    replies, _ = console(root, script, ["strace", "-f", "-qq", "-s", "1000000", "-xx", "-o", trace, "-e", TRACED])
    images = crash_images(trace, base, initial)
    seen: set[Any] = set()
    bad = 0
    for k, (n_sent, image, why) in enumerate(images):
        key = (n_sent, tuple(sorted((n, hash(b)) for n, b in image.items())))
        if key in seen:
            continue
        seen.add(key)
        d = os.path.join(work, f"image{k}")
        write_image(d, image)
        acked = changes(script[:n_sent], replies)
        inflight = [ln for ln in script[n_sent:n_sent + 1] if ln.split()[0] not in READ_ONLY]
        got, err = final_view(os.path.join(d, os.path.relpath(root, base)))
        if got not in (expected(setup + acked), expected(setup + acked + inflight)):
            bad += 1
            print(f"power cut after syscall {k} ({why}), {n_sent} replies sent: {json.dumps(got)[:240]} {err[-200:]}")
        shutil.rmtree(d)
    what = " (first start)" if args.first else " (salvage)" if args.salvage else ""
    print(f"powerloss{what}: {len(seen)} distinct images, {bad} lost or wrong")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


def write_image(d: str, image: dict[str, bytes | None]) -> None:
    """Lay a crash image out under the directory ``d``."""
    os.makedirs(d, exist_ok=True)
    for n, b in sorted(image.items()):
        if b is None:
            os.makedirs(os.path.join(d, n), exist_ok=True)
        else:
            Path(d, n).write_bytes(b)


# -- bitflip -----------------------------------------------------------------------------------
def bitflip(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(ROOT))
    from firmware.console import Console
    from firmware.store import DB_NAME, Store

    setup, lines = "new dice seed=9", ["roll 2d6"] * 140 + ["undo"] * 3 + ["roll 1d6"] * 2
    views = _row_views(setup, 9, lines)
    work = Path(tempfile.mkdtemp(prefix="bitflip"))
    c = Console(Store(work / "p"), None)
    for line in ["new bag items=a*3 seed=1", "draw", setup, *lines]:
        assert c.request(line)["ok"], line
    c.close()
    data = (work / "p" / DB_NAME).read_bytes()
    rng = random.Random(args.seed)
    counts = {"exact": 0, "reported": 0, "bad": 0}
    for t in range(args.trials):
        d = work / f"t{t}"
        d.mkdir()
        buf = bytearray(data)
        i = rng.randrange(len(buf))
        buf[i] ^= 1 << rng.randrange(8)
        (d / DB_NAME).write_bytes(bytes(buf))
        problem = None
        try:
            store = Store(d)
            c = Console(store, store.resume())
            r = c.request("state")
            state = r.get("state") if r.get("ok") else None
            reported = store.recovery is not None
            c.close()
            store = Store(d)
            c = Console(store, store.resume())
            again = c.request("state").get("state")
            goes_on = c.request("roll 1d6")["ok"]
            c.close()
        except Exception:  # noqa: BLE001 - any exception here is the finding
            problem = "the start raised " + traceback.format_exc()[-300:]
        else:
            if not reported and state != views[-1]:
                problem = "silently wrong state"
            elif state is not None and state not in views:
                problem = "a state the session never had"
            elif again != state:
                problem = "the second start differs"
            elif not goes_on:
                problem = "no change accepted after the damage"
            else:
                counts["exact" if not reported else "reported"] += 1
        if problem:
            counts["bad"] += 1
            print(f"byte {i}: {problem}")
        shutil.rmtree(d, ignore_errors=True)
    print(f"bitflip: {args.trials} flips in a {len(data)}-byte database: {counts}")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if counts["bad"] else 0


# -- damage ------------------------------------------------------------------------------------
SETUP_DAMAGE = ["settings contrast=4 screen_off=300 caesar.tiles=A:draw2+play+discard1",
                "new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight", "next-battle",
                "new jc-battle seed=5", "add attacker c_leg10", "add defender p_pompeius", "fight",
                "new bag items=a*5,b*5 seed=2", "draw", "draw"]
# the current session: dice (small rows), or a bag whose state outgrows a page (checkpoints on overflow pages)
CURRENT = {"dice": ("new dice seed=9", ["roll 2d6"] * 140 + ["undo"] * 3 + ["roll 1d6"] * 2),
           "bag": ("new bag items=a*250,b*150,c*100 seed=9", ["draw"] * 140 + ["undo"] * 3 + ["draw 2"] * 2),
           # longer than a restart reads (the newest 500 rows and those after the checkpoint): its
           # older rows are checked when first needed, not at start (issue 20 §3)
           "long": ("new dice seed=9", ["roll 2d6"] * 700 + ["undo"] * 3 + ["roll 1d6"] * 2)}
ASKED = ["state", "history", "export format=csv", "export format=bgstats", "settings", "log 5", "rolls"]


def _row_views(setup: str, seed: int, lines: list[str]) -> list[dict[str, Any]]:
    """The state view after each number of action rows (an undo is a row too)."""
    from engine.errors import LegatusError
    from firmware.session import Session
    s = Session.start(setup, seed, "x")
    views = [s.view()]
    for line in lines:
        try:
            s.undo() if line == "undo" else s.apply(line)
        except LegatusError:
            pass
        views.append(s.view())
    return views


class Cell:
    """Where one table row of the pristine database lies (file offsets, overflow pages too)."""

    def __init__(self, page: int, values: tuple[Any, ...], spans: list[tuple[int, int]]) -> None:
        self.page, self.values, self.spans = page, values, spans


def layout(data: bytes) -> tuple[int, dict[int, list[Cell]]]:
    """Page size and, per table leaf page, its cells (from firmware.salvage's reading)."""
    from firmware import salvage
    size = salvage._page_size(data) or 4096
    usable = size - data[20]
    pages: dict[int, list[Cell]] = {}
    for n in range(1, len(data) // size + 1):
        base, page = (100 if n == 1 else 0), data[(n - 1) * size:n * size]
        if page[base] != salvage.LEAF_TABLE:
            continue
        cells = pages.setdefault(n, [])
        for c in range(int.from_bytes(page[base + 3:base + 5], "big")):
            at = int.from_bytes(page[base + 8 + 2 * c:base + 10 + 2 * c], "big")
            psize, pos = salvage._varint(page, at, usable)
            _, pos = salvage._varint(page, pos, usable)
            x, m = usable - 35, ((usable - 12) * 32 // 255) - 23
            k = m + (psize - m) % (usable - 4)
            local = psize if psize <= x else (k if k <= x else m)
            spans = [((n - 1) * size + at, (n - 1) * size + pos + local + (4 if psize > x else 0))]
            payload = bytearray(page[pos:pos + local])
            nxt = int.from_bytes(page[pos + local:pos + local + 4], "big") if psize > x else 0
            while len(payload) < psize and nxt:
                spans.append(((nxt - 1) * size, nxt * size))
                over = data[(nxt - 1) * size:nxt * size]
                payload += over[4:usable][:psize - len(payload)]
                nxt = int.from_bytes(over[:4], "big")
            values = salvage.record(bytes(payload))
            cells.append(Cell(n, values or (), spans))
    return size, pages


def allowed_rows(data: bytes, sid: int, rows: int, lo: int, hi: int) -> int:
    """The fewest action rows of session ``sid`` a start may resume at when the bytes [lo, hi)
    of the pristine database ``data`` are damaged: the first damaged action and those after it
    may be lost (a row's own bytes, or the page holding it), nothing else; damage to the
    session's own row may lose the session."""
    size, pages = layout(data)
    least = rows
    for n, cells in pages.items():
        ours = [c for c in cells if len(c.values) == 6 and c.values[0] == sid]
        page_hit = lo < n * size and hi > (n - 1) * size
        for c in cells:
            hit = any(a < hi and b > lo for a, b in c.spans)
            if len(c.values) == 5 and c.values[0] is None and hit and c.spans and c.page in pages:
                header = c.values[1] if isinstance(c.values[1], bytes) else b""
                if c.values[2] == 1 and header:
                    least = 0                          # the current session's own row
            if c in ours and hit:
                least = min(least, int(c.values[1]) - 1)
        if page_hit and ours and not any(any(a <= lo and hi <= b for a, b in c.spans) for c in cells):
            least = min(least, min(int(c.values[1]) for c in ours) - 1)   # the page's structure
    return max(least, 0)


def _journal_map(journal: bytes) -> tuple[int, list[tuple[int, int]]]:
    """(page size, [(journal offset of a page image, page number)]) of a rollback journal."""
    from firmware import salvage
    sector = int.from_bytes(journal[20:24], "big")
    size = int.from_bytes(journal[24:28], "big")
    out = []
    pos = sector
    while pos + size + 8 <= len(journal):
        out.append((pos + 4, int.from_bytes(journal[pos:pos + 4], "big")))
        pos += size + 8
    assert journal.startswith(salvage.JOURNAL_MAGIC)
    return size, out


def _hot_journal(work: Path, pristine: Path, how: str) -> Path | None:
    """A copy of ``pristine`` left by a process killed in the middle of one more action ('roll 2d6'):
    ``commit`` at the journal's unlink (the database fully written), ``torn`` at the second write
    to the database (the database half written)."""
    from firmware.store import DB_NAME
    if shutil.which("strace") is None:
        return None
    d = work / f"hot-{how}"
    shutil.copytree(pristine, d, ignore=shutil.ignore_patterns("lock"))
    if how == "commit":
        inject = ["-P", str(d / f"{DB_NAME}-journal"), "-e", "trace=unlink", "-e", "inject=unlink:signal=KILL:when=1"]
    else:
        inject = ["-P", str(d / DB_NAME), "-e", "trace=pwrite64", "-e", "inject=pwrite64:signal=KILL:when=2"]
    console(str(d), ["roll 2d6"], ["strace", "-f", "-qq", "-o", "/dev/null", *inject])
    return d if (d / f"{DB_NAME}-journal").exists() else None


def _ask(c: Any) -> dict[str, dict[str, Any]]:
    return {line: c.request(line) for line in ASKED}


def _entries(reply: dict[str, Any]) -> list[str]:
    return sorted(json.dumps(g, sort_keys=True, ensure_ascii=False) for g in reply.get("games", []))


def _games(entries: list[str]) -> set[str]:
    """History entries without what a record written again from its session may only know
    roughly (its finish time) or anew (its id)."""
    return {json.dumps({k: v for k, v in json.loads(e).items() if k not in ("id", "finished", "unsynced")},
                       sort_keys=True) for e in entries}


def damage_trial(d: Path, want: dict[str, Any], lost: list[int] | None = None) -> str:
    """Start on the damaged directory ``d`` twice and judge it against ``want``; returns the
    outcome: exact, reported, or a failure (silent, failed start, internal_error, lost too much,
    a state the session never had, unstable, stuck). ``lost`` gets the acknowledged action rows
    the start lost."""
    from firmware.console import Console
    from firmware.store import Store
    views: list[dict[str, Any]] = want["views"]
    try:
        store = Store(d)
        c = Console(store, store.resume())
    except Exception:  # noqa: BLE001 - any exception here is the finding
        return "failed start: " + traceback.format_exc()[-300:]
    try:
        got = _ask(c)
        errors = [line for line, r in got.items() if r.get("error") == "internal_error"]
        if errors:
            return f"internal_error on {errors}: {got[errors[0]]['message'][:200]}"
        st = got["state"]
        reported = bool(st.get("recovered"))
        state = st.get("state") if st.get("ok") else None
        at = [m for m, v in enumerate(views) if v == state]
        if state is not None and not at:
            return "a state the session never had"
        rows = max(at) if at else 0
        if lost is not None:
            lost.append(max(0, want["rows"] - rows))
        same = (rows >= want["rows"] and _entries(got["history"]) == want["history"]
                and got["settings"].get("settings") == want["settings"])
        if not reported and not same:
            what = [k for k, ok in (("state", rows >= want["rows"]), ("history", _entries(got["history"]) == want["history"]),
                                    ("settings", got["settings"].get("settings") == want["settings"])) if not ok]
            return f"silent: {', '.join(what)} differ"
        if rows < want["allowed"]:
            return f"lost too much: resumed at {rows} rows, the damage allowed {want['allowed']}"
        if not _games(_entries(got["history"])) <= _games(want["history"]):
            return "a History record that was never written"
        c.close()
        store = Store(d)
        c = Console(store, store.resume())
        again = c.request("state")
        if again.get("state") != state:
            return "the second start differs"
        if not c.request("roll 1d6")["ok"] and state is not None:
            return "no change accepted after the damage"
        if not c.request("new dice seed=1")["ok"]:
            return "no new session accepted after the damage"
        return "reported" if reported else "exact"
    except Exception:  # noqa: BLE001
        return "raised: " + traceback.format_exc()[-300:]
    finally:
        try:
            c.close()
        except Exception:  # noqa: BLE001
            pass


def build_damage(work: Path, session: str = "dice") -> dict[str, Any]:
    """The pristine state directory (and its hot-journal copies) with what a start must show."""
    current, current_lines = CURRENT[session]
    from firmware.console import Console
    from firmware.store import DB_NAME, Store
    pristine = work / "pristine"
    c = Console(Store(pristine), None)
    for line in [*SETUP_DAMAGE, current, *current_lines]:
        r = c.request(line)
        assert r["ok"], (line, r)
    want_common = {"history": _entries(c.request("history")), "settings": c.request("settings")["settings"]}
    sid = c.store._session_id
    c.close()
    views = _row_views(current, 9, current_lines + ["roll 2d6"])
    n = len(current_lines)
    cases: dict[str, Any] = {"db": {"dir": pristine, "file": DB_NAME, "views": views[:n + 1], "rows": n}}
    for how in ("commit", "torn"):
        hot = _hot_journal(work, pristine, how)
        if hot is None:
            continue
        for name in (DB_NAME, f"{DB_NAME}-journal"):
            cases[f"{how}:{name}"] = {"dir": hot, "file": name, "views": views, "rows": n}
    data = (pristine / DB_NAME).read_bytes()
    return {"cases": cases, "data": data, "sid": sid, "rows": n, **want_common}


def damage(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(ROOT))
    import logging
    logging.disable(logging.CRITICAL)          # the damage is reported through the console, not the log
    work = Path(tempfile.mkdtemp(prefix="damage"))
    built = build_damage(work, args.session)
    result = run_damage(work, built, args.trials, args.seed, verbose=True)
    shutil.rmtree(work, ignore_errors=True)
    return 0 if result["bad"] == 0 else 1


def run_damage(work: Path, built: dict[str, Any], trials: int, seed: int, verbose: bool = False) -> dict[str, Any]:
    """``trials`` one-byte changes and truncations spread over every file of the state
    directory (the database alone, and the database and its rollback journal after a process was
    killed mid-commit); returns the counts and prints them (``verbose``)."""
    rng = random.Random(seed)
    cases = built["cases"]
    names = list(cases)
    weights = [3 if k == "db" else 1 for k in names]
    counts: dict[str, dict[str, int]] = {k: {} for k in names}
    lost: list[int] = []
    failures: list[str] = []
    size = len(built["data"])
    for t in range(trials):
        key = rng.choices(names, weights)[0]
        case = cases[key]
        d = work / f"t{t}"
        shutil.copytree(case["dir"], d, ignore=shutil.ignore_patterns("lock"))
        path = d / case["file"]
        buf = bytearray(path.read_bytes())
        truncate = rng.random() < 0.2
        if truncate:
            cut = rng.randrange(len(buf))
            lo, hi, label = cut, max(len(buf), size), f"cut at {cut}"
            del buf[cut:]
        else:
            i = rng.randrange(len(buf))
            buf[i] = (buf[i] + rng.randrange(1, 256)) % 256
            lo, hi, label = i, i + 1, f"byte {i}"
        path.write_bytes(bytes(buf))
        if case["file"].endswith("-journal"):
            psize, images = _journal_map(bytes(case["dir"].joinpath(case["file"]).read_bytes()))
            spans = [((pg - 1) * psize + max(lo - off, 0), (pg - 1) * psize + min(hi - off, psize))
                     for off, pg in images if lo < off + psize and hi > off]
        else:
            spans = [(lo, hi)]
        allowed = min([allowed_rows(built["data"], built["sid"], built["rows"], a, b) for a, b in spans] or [built["rows"]])
        want = {"views": case["views"], "rows": case["rows"], "allowed": allowed,
                "history": built["history"], "settings": built["settings"]}
        outcome = damage_trial(d, want, lost)
        kind = outcome if outcome in ("exact", "reported") else outcome.split(":")[0]
        counts[key][kind] = counts[key].get(kind, 0) + 1
        if kind not in ("exact", "reported"):
            failures.append(f"{key} {label}: {outcome}")
        shutil.rmtree(d, ignore_errors=True)
    bad = len(failures)
    if verbose:
        for f in failures:
            print(f)
        print(f"damage: {trials} one-byte changes (80%) and truncations (20%); database {size} bytes, "
              f"{built['rows']} action rows in the current session")
        print("| file | trials | exact (unused bytes) | reported | silent | failed start | internal_error | lost too much | other |")
        print("|---|---|---|---|---|---|---|---|---|")
        for key, got in counts.items():
            n = sum(got.values())
            other = n - sum(got.get(k, 0) for k in ("exact", "reported", "silent", "failed start", "internal_error on",
                                                      "lost too much"))
            print(f"| {key} | {n} | {got.get('exact', 0)} | {got.get('reported', 0)} | {got.get('silent', 0)} | "
                  f"{got.get('failed start', 0)} | {sum(v for k, v in got.items() if k.startswith('internal_error'))} | "
                  f"{got.get('lost too much', 0)} | {other - sum(v for k, v in got.items() if k.startswith('internal_error'))} |")
        hit = [n for n in lost if n]
        print(f"acknowledged action rows lost: none in {len(lost) - len(hit)} starts; in {len(hit)} starts "
              f"(each within the damaged action and those after it) {sum(hit)} rows in all, at most {max(hit, default=0)}")
        print(f"damage: {bad} failed")
    return {"counts": counts, "bad": bad, "failures": failures, "lost": lost}


# -- lostjournal -------------------------------------------------------------------------------
LOST_SETUP = ["settings contrast=4", "new dice seed=3", "roll 2d6", "end", "new glory players=Ann,Bob seed=5",
              "roll 1d6", "end", "new dice seed=9", *(["roll 2d6"] * 63)]
LOST_ACTIONS = ["roll 2d6", "end", "new bag items=a*3 seed=4", "settings language=ru"]   # (the 64th action: a checkpoint)
LOST_ASKED = ["state", "history 100", "settings", "players"]


def _lost_view(d: Path) -> tuple[dict[str, Any], bool]:
    """The answers to :data:`LOST_ASKED` on a start (History's times left out), and whether the
    start reported something (``recovered``)."""
    from firmware.console import Console
    from firmware.store import Store
    store = Store(d)
    c = Console(store, store.resume())
    try:
        got = {line: c.request(line) for line in LOST_ASKED}
    finally:
        c.close()
    reported = any(r.pop("recovered", None) for r in got.values())
    for entry in got["history 100"].get("games", []):
        for k in _TIMES:
            entry.pop(k, None)
    return got, reported


def lostjournal(args: argparse.Namespace) -> int:
    import logging
    from firmware.store import DB_NAME
    logging.disable(logging.CRITICAL)          # (the salvages' log lines: the outcomes say it)
    work = Path(tempfile.mkdtemp(prefix="lostjournal"))
    pristine = work / "pristine"
    console(str(pristine), LOST_SETUP)
    before, _ = _lost_view(pristine)
    outcomes: dict[str, int] = {}
    bad: list[str] = []
    for action in LOST_ACTIONS:
        done = work / "done"
        shutil.rmtree(done, ignore_errors=True)
        shutil.copytree(pristine, done, ignore=shutil.ignore_patterns("lock"))
        console(str(done), [action])
        after, _ = _lost_view(done)
        for k in range(1, args.upto + 1):
            d = work / "trial"
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(pristine, d, ignore=shutil.ignore_patterns("lock"))
            console(str(d), [action], ["strace", "-f", "-qq", "-o", "/dev/null", "-P", str(d / DB_NAME),
                                       "-e", "trace=pwrite64", "-e", f"inject=pwrite64:signal=KILL:when={k}"])
            journal = d / f"{DB_NAME}-journal"
            if not journal.exists():
                break                          # the commit had fewer writes: the action is done
            journal.unlink()
            label = f"{action!r} killed at write {k}, journal lost"
            try:
                got, reported = _lost_view(d)
            except Exception:  # noqa: BLE001 - any exception here is the finding
                bad.append(f"{label}: failed start: {traceback.format_exc()[-300:]}")
                continue
            if got in (before, after):
                outcome = "reported, nothing lost" if reported else "exact"
            else:
                problems = [line for line in LOST_ASKED if got[line] not in (before[line], after[line])]
                lost = [g for g in before["history 100"].get("games", []) if g not in got["history 100"].get("games", [])]
                if any(r.get("error") == "internal_error" for r in got.values()):
                    bad.append(f"{label}: internal_error")
                    outcome = "internal_error"
                elif not reported:
                    bad.append(f"{label}: silent: {', '.join(problems)} differ")
                    outcome = "silent"
                elif lost or "state" in problems or "settings" in problems:
                    bad.append(f"{label}: reported, but lost {', '.join(problems)}")
                    outcome = "lost"
                else:
                    outcome = "reported"
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    for b in bad:
        print(b)
    print(f"lostjournal: {sum(outcomes.values())} trials: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


# -- fullcard ---------------------------------------------------------------------------------
def fullcard(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="fullcard"))
    mnt = work / "card"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True).returncode:
        print("fullcard: cannot mount a tmpfs (needs root)")
        return 2
    expected = Expected(str(work), READ_FINISH)
    bad: list[str] = []
    counts: list[int] = []
    runs = 0
    try:
        for free in range(0, args.upto + 1, args.step):
            d = mnt / "state"
            shutil.rmtree(d, ignore_errors=True)
            fill = mnt / "fill"
            with open(fill, "wb", buffering=0) as f:     # all the room taken, then ``free`` KiB given back
                try:
                    while True:
                        f.write(b"\0" * 4096)
                except OSError:
                    pass
            os.truncate(fill, max(0, fill.stat().st_size - free * 1024))
            replies, err = console(str(d), SCRIPT_FINISH)
            fill.unlink()
            runs += 1
            acked = changes(SCRIPT_FINISH, replies)
            counts.append(len(acked))
            inflight = SCRIPT_FINISH[len(replies)] if len(replies) < len(SCRIPT_FINISH) else None
            after, err2 = final_view(str(d), READ_FINISH)
            problems = []
            if [r for r in replies if r.get("error") == "internal_error" or "garbage" in r]:
                problems.append("internal_error or garbage")
            if len(after) != 2 + len(READ_FINISH) or "Traceback" in err2:
                problems.append(f"the restart failed: {err2[-300:]}")
            elif after not in [expected(acked)] + ([expected([*acked, inflight])] if inflight else []):
                problems.append(f"acknowledged {len(acked)} changes; after the restart {json.dumps(after)[:300]}")
            if "Traceback" in err and "firmware" in err.split("Traceback")[-1]:
                problems.append(f"traceback: {err[-300:]}")
            if problems:
                bad.append(f"{free} KiB free: " + "; ".join(problems))
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    for b in bad:
        print(b)
    print(f"fullcard: {runs} runs, {len(bad)} failed; changes acknowledged per run: "
          f"{min(counts, default=0)}-{max(counts, default=0)} of {len(changes(SCRIPT_FINISH, [{'ok': True}] * len(SCRIPT_FINISH)))}")
    return 1 if bad else 0


# -- killplay ------------------------------------------------------------------------------------
SCRIPT_ENDS = ["new bag items=red*3,blue*2,gold", "draw", "draw", "undo", "draw", "end", "reveal", "history 50",
               "export format=bgstats", "export format=csv", "new caesar-solo difficulty=easy", "crassus", "undo",
               "crassus", "end", "history 50", "export format=draws", "new dice", "roll 2d6", "roll 1d20", "end",
               "history 50", "settings language=ru", "new glory players=Ann,Bob", "new jc-battle", "add attacker c_leg10",
               "add defender p_pompeius", "fight", "end", "reveal", "history 50", "export format=bgstats",
               "settings language=en"]


def _killed_run(d: str, delay: float) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    """Play :data:`SCRIPT_ENDS` on a console subprocess, one line at a time, and kill -9 it after
    ``delay`` seconds. Returns the acknowledged (line, reply) pairs and its stderr."""
    import signal
    import threading
    err = tempfile.TemporaryFile(mode="w+")
    p = subprocess.Popen([sys.executable, "-m", "firmware.cli", "console", "--state-dir", d], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.stdin is not None and p.stdout is not None
    killer = threading.Timer(delay, lambda: p.send_signal(signal.SIGKILL))
    killer.start()
    acked: list[tuple[str, dict[str, Any]]] = []
    try:
        for line in SCRIPT_ENDS:
            try:
                p.stdin.write(line + "\n")
                p.stdin.flush()
            except OSError:
                break
            out = p.stdout.readline()
            if not out:
                break
            acked.append((line, json.loads(out)))
    finally:
        killer.cancel()
        p.kill()
        p.wait()
    err.seek(0)
    return acked, err.read()


def _killplay_check(acked: list[tuple[str, dict[str, Any]]], last: list[tuple[str, dict[str, Any]]], err: str,
                    after: list[dict[str, Any]], err2: str) -> list[str]:
    """What broke: a traceback, a restart that fails, an acknowledged History entry or exported
    play gone or changed, an acknowledged ``end`` without its revealed game in History, or a state
    after the restart that differs from the last one answered (nothing mutating in flight)."""
    probs = []
    if "Traceback" in err:
        probs.append("traceback: " + err[-400:])
    if len(after) != 2 or "Traceback" in err2 or not after[1].get("ok"):
        return probs + ["the restart failed: " + err2[-400:]]
    state, final = after[0], {g["id"]: g for g in after[1]["games"]}
    for line, r in acked:
        if line.startswith("history") and r.get("ok"):
            for g in r["games"]:
                now = final.get(g["id"])
                if now is None:
                    probs.append(f"History {g['id']} ({g['game']} {g['status']}) was answered, gone after the restart")
                elif {k: v for k, v in now.items() if k != "result"} != {k: v for k, v in g.items() if k != "result"}:
                    probs.append(f"History {g['id']} changed: {g} -> {now}")
        if line.startswith("export format=bgstats") and r.get("ok") and r["id"] not in final:
            probs.append(f"exported play {r['id']} ({r['play']['sourcePlayId']}) gone after the restart")
    ends = sum(1 for line, r in acked if line == "end" and r.get("ok"))
    revealed = {g["commitment"] for g in final.values() if g.get("commitment") and g["status"] != "abandoned"}
    if ends > len(revealed):
        probs.append(f"{ends} ends acknowledged, {len(revealed)} ended games with their seed in History")
    states = [i for i, (_, r) in enumerate(last) if isinstance(r.get("state"), dict)]
    inflight = SCRIPT_ENDS[len(last)] if len(last) < len(SCRIPT_ENDS) else None
    quiet = inflight is None or inflight.split()[0] in (*READ_ONLY, "reveal")
    quiet = quiet and not any(line.startswith("settings") for line, _ in last[states[-1]:]) if states else False
    if quiet and state.get("ok") and state["state"] != last[states[-1]][1]["state"]:     # (its sentences: a language)
        probs.append(f"the state after the restart differs (in flight {inflight!r})")
    return probs


def killplay(args: argparse.Namespace) -> int:
    """kill -9 at random moments while games are played, ended, revealed and exported (each state
    directory killed twice: the second run starts from what the first left)."""
    rnd = random.Random(args.seed)
    bad = 0
    for i in range(args.runs):
        d = tempfile.mkdtemp(prefix="killplay")
        acked: list[tuple[str, dict[str, Any]]] = []
        last: list[tuple[str, dict[str, Any]]] = []
        errs = ""
        for _ in range(2):
            last, err = _killed_run(d, rnd.uniform(0.05, args.within))
            acked += last
            errs += err
        after, err2 = console(d, ["state", "history 100"])
        problems = _killplay_check(acked, last, errs, after, err2)
        if problems:
            bad += 1
            print(f"run {i} ({d}): " + " | ".join(problems)[:1500], flush=True)
        else:
            shutil.rmtree(d, ignore_errors=True)
    print(f"killplay: {args.runs} runs ({2 * args.runs} kills), {bad} failed")
    return 1 if bad else 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    i = sub.add_parser("inject")
    i.add_argument("--calls", default="pwrite64,fdatasync,unlink")
    i.add_argument("--faults", default="error=ENOSPC,error=EIO,error=EROFS,signal=KILL")
    i.add_argument("--upto", type=at_least(1), default=80)
    i.add_argument("--step", type=at_least(1), default=1)
    i.add_argument("--games", action="store_true", help="every game instead of dice and bags")
    i.add_argument("--finish", action="store_true", help="ends, History, players and exports instead")
    i.add_argument("--path", help="only calls on this file of the state directory")
    i.add_argument("--jobs", type=at_least(1), default=os.cpu_count() or 2)
    pl = sub.add_parser("powerloss")
    pl.add_argument("--first", action="store_true", help="the first start on a fresh card (new directories)")
    pl.add_argument("--salvage", action="store_true", help="a start that salvages a damaged database")
    b = sub.add_parser("bitflip")
    b.add_argument("--trials", type=at_least(1), default=300)
    b.add_argument("--seed", type=int, default=5)
    dm = sub.add_parser("damage")
    dm.add_argument("--trials", type=at_least(1), default=1000)
    dm.add_argument("--seed", type=int, default=20)
    dm.add_argument("--session", choices=sorted(CURRENT), default="dice", help="the game of the current session")
    k = sub.add_parser("killplay")
    k.add_argument("--runs", type=at_least(1), default=150)
    k.add_argument("--seed", type=int, default=11)
    k.add_argument("--within", type=float, default=1.6, help="the latest kill, in seconds (about one whole run)")
    fc = sub.add_parser("fullcard")
    fc.add_argument("--upto", type=at_least(0), default=160, help="the most KiB left free")
    fc.add_argument("--step", type=at_least(1), default=4)
    lj = sub.add_parser("lostjournal")
    lj.add_argument("--upto", type=at_least(1), default=40, help="the last write to the database killed")
    args = p.parse_args()
    if args.mode in ("inject", "powerloss", "lostjournal") and shutil.which("strace") is None:
        print("strace is not installed (apt-get install strace)")
        return 2
    return {"inject": inject, "powerloss": powerloss, "bitflip": bitflip, "damage": damage,
            "killplay": killplay, "lostjournal": lostjournal, "fullcard": fullcard}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
