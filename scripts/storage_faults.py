"""Fuller fault sweeps of the storage (issue 10), from outside the program; the suite runs a few
points of each, this runs all of them and prints what failed.

    python scripts/storage_faults.py inject [--calls pwrite64,fdatasync] [--faults error=ENOSPC,signal=KILL]
                                            [--upto 80] [--step 1] [--games] [--path legatus.db-journal]
    python scripts/storage_faults.py powerloss
    python scripts/storage_faults.py bitflip [--trials 300]

``inject``: ``strace -e inject=<call>:<fault>:when=N`` (and ``N+``: the fault stays, like a full disk)
on a ``legatus console`` subprocess playing a scripted session; after each run the program is
restarted without faults: every acknowledged action must come back exactly, nothing refused may
come back, the program must start, and the running program's last state must equal the disk's.
``--path`` injects only into calls on that file of the state directory (strace ``-P``).

``powerloss``: one strace of a scripted session; after every traced file syscall the state
directory is rebuilt as a power cut would leave it (only fsync'd data, and directory entries made
durable by an fsync of the directory), and each image must start with every acknowledged action.

``bitflip``: one bit flipped at a random place of the database of a finished session: the start
must never crash, damage must be reported (``recovered``) unless the state is exactly right, a
reported state must be one the session really had, and the device must accept a change after.
Needs ``strace`` for inject and powerloss.
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
READ_ONLY = ("state", "log", "help", "version", "history", "export")

SCRIPT_KIT = ["new dice seed=1", "roll 2d6", "roll 2d6", "undo", "roll 3d6", "state",
              "new bag items=a*3,b*2,c seed=2", "draw", "draw 2", "undo", "draw", "log 50",
              "settings language=ru", "new dice seed=5", "roll 1d20", "roll 1d20", "state"]
SCRIPT_GAMES = ["new caesar-solo seed=2", "crassus", "undo", "crassus", "roll 2d6", "new glory players=2 seed=3",
                "roll 1d6", "new jc-battle seed=4", "roll 3d6", "undo", "roll 3d6",
                "new sword players=romans,gauls seed=5", "roll 2d6", "state"]


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


def final_view(state_dir: str) -> tuple[list[dict[str, Any]], str]:
    out, err = console(state_dir, ["state", "settings"])
    for r in out:
        r.pop("recovered", None)
    return out, err


def changes(lines: list[str], replies: list[dict[str, Any]]) -> list[str]:
    return [ln for ln, r in zip(lines, replies) if r.get("ok") and ln.split()[0] not in READ_ONLY]


class Expected:
    """The final view after a list of acknowledged changes, computed once per list."""

    def __init__(self, work: str) -> None:
        self.work, self.cache = work, {}  # type: ignore[var-annotated]

    def __call__(self, lines: list[str]) -> list[dict[str, Any]]:
        key = "\n".join(lines)
        if key not in self.cache:
            d = tempfile.mkdtemp(dir=self.work)
            console(d, lines)
            self.cache[key] = final_view(d)[0]
            shutil.rmtree(d, ignore_errors=True)
        return self.cache[key]  # type: ignore[no-any-return]


# -- inject ------------------------------------------------------------------------------------
def inject(args: argparse.Namespace) -> int:
    script = SCRIPT_GAMES if args.games else SCRIPT_KIT
    work = tempfile.mkdtemp(prefix="faults")
    expected = Expected(work)

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
        after, err2 = final_view(d)
        shutil.rmtree(d, ignore_errors=True)
        problems = []
        if len(after) != 2 or "Traceback" in err2:
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


def powerloss(args: argparse.Namespace) -> int:
    setup = ["new dice seed=1", "roll 2d6"]
    script = ["roll 2d6", "roll 3d6", "undo", "roll 1d20", "new bag items=a*3,b*2 seed=2", "draw", "draw", "undo",
              "settings language=uk", "draw 2"]
    work = tempfile.mkdtemp(prefix="powerloss")
    expected = Expected(work)
    root = os.path.join(work, "state")
    console(root, setup)
    init = {n: Path(root, n).read_bytes() for n in os.listdir(root)}
    trace = os.path.join(work, "trace")
    replies, _ = console(root, script, ["strace", "-f", "-qq", "-s", "1000000", "-xx", "-o", trace, "-e",
                                        "trace=openat,pwrite64,write,ftruncate,unlink,fsync,fdatasync,close,rename"])
    cur = {n: bytearray(b) for n, b in init.items()}     # the page cache: names and data now
    synced = dict(init)                                   # each file's data as last fsync'd
    durable = dict(init)                                  # what a power cut leaves
    fds: dict[str, str] = {}
    sent = 0
    images: list[tuple[int, dict[str, bytes], str]] = []
    for raw in Path(trace).read_text().splitlines():
        m = re.match(r"(?:\d+\s+)?(\w+)\((.*)\)\s+= (-?\d+)", raw.strip())
        if not m or int(m.group(3)) < 0:
            continue
        call, a, ret = m.group(1), m.group(2), int(m.group(3))
        if call == "openat":
            pm = re.match(r'AT_FDCWD, (".*?")', a)
            path = _bytes(pm.group(1)).decode() if pm else ""
            if path == root or os.path.dirname(path) == root:
                fds[str(ret)] = path
                if path != root:
                    cur.setdefault(os.path.basename(path), bytearray())
            continue
        if call == "close":
            fds.pop(a.strip(), None)
            continue
        if call == "write":
            sent += a.startswith("1,")
            continue
        fd = a.split(",")[0].strip()
        if call in ("unlink", "rename"):
            um = re.match(r'(".*?")', a)
            path = _bytes(um.group(1)).decode() if um else ""
            if os.path.dirname(path) == root:
                cur.pop(os.path.basename(path), None)
        elif call == "pwrite64" and fd in fds:
            wm = re.match(r'\d+, (".*"), (\d+), (\d+)$', a)
            if wm is None:
                continue
            data, off = _bytes(wm.group(1)), int(wm.group(3))
            buf = cur.setdefault(os.path.basename(fds[fd]), bytearray())
            buf.extend(b"\0" * max(0, off - len(buf)))
            buf[off:off + len(data)] = data
        elif call == "ftruncate" and fd in fds:
            size = int(a.split(",")[1])
            buf = cur.setdefault(os.path.basename(fds[fd]), bytearray())
            del buf[size:]
            buf.extend(b"\0" * (size - len(buf)))
        elif call in ("fsync", "fdatasync") and fd in fds:
            if fds[fd] == root:
                durable = {n: synced.get(n, b"") for n in cur}
            else:
                name = os.path.basename(fds[fd])
                if name in cur:
                    synced[name] = bytes(cur[name])
                    if name in durable:
                        durable[name] = synced[name]
        else:
            continue
        images.append((sent, dict(durable), raw.strip()[:70]))
    seen: set[Any] = set()
    bad = 0
    for k, (n_sent, image, why) in enumerate(images):
        key = (n_sent, tuple(sorted((n, hash(b)) for n, b in image.items())))
        if key in seen:
            continue
        seen.add(key)
        d = os.path.join(work, f"image{k}")
        os.makedirs(d)
        for n, b in image.items():
            Path(d, n).write_bytes(b)
        acked = changes(script[:n_sent], replies)
        inflight = [ln for ln in script[n_sent:n_sent + 1] if ln.split()[0] not in READ_ONLY]
        got, err = final_view(d)
        if got not in (expected(setup + acked), expected(setup + acked + inflight)):
            bad += 1
            print(f"power cut after syscall {k} ({why}), {n_sent} replies sent: {json.dumps(got)[:240]} {err[-200:]}")
        shutil.rmtree(d)
    print(f"powerloss: {len(seen)} distinct images, {bad} lost or wrong")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


# -- bitflip -----------------------------------------------------------------------------------
def bitflip(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(ROOT))
    from engine.errors import LegatusError
    from firmware.console import Console
    from firmware.session import Session
    from firmware.store import DB_NAME, Store

    setup, lines = "new dice seed=9", ["roll 2d6"] * 140 + ["undo"] * 3 + ["roll 1d6"] * 2
    s = Session.start(setup, 9, "x")
    views = [s.view()]
    for line in lines:
        try:
            s.undo() if line == "undo" else s.apply(line)
        except LegatusError:
            pass
        views.append(s.view())
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    i = sub.add_parser("inject")
    i.add_argument("--calls", default="pwrite64,fdatasync,unlink")
    i.add_argument("--faults", default="error=ENOSPC,error=EIO,error=EROFS,signal=KILL")
    i.add_argument("--upto", type=int, default=80)
    i.add_argument("--step", type=int, default=1)
    i.add_argument("--games", action="store_true", help="every game instead of dice and bags")
    i.add_argument("--path", help="only calls on this file of the state directory")
    i.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    sub.add_parser("powerloss")
    b = sub.add_parser("bitflip")
    b.add_argument("--trials", type=int, default=300)
    b.add_argument("--seed", type=int, default=5)
    args = p.parse_args()
    if args.mode in ("inject", "powerloss") and shutil.which("strace") is None:
        print("strace is not installed (apt-get install strace)")
        return 2
    return {"inject": inject, "powerloss": powerloss, "bitflip": bitflip}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
