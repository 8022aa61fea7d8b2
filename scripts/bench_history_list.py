"""What a key costs on History's list once it is paged out to thousands of games, against a key
on its first page: the ratio should stay near 1 (a key costs what the rows on the panel cost).

    .venv/bin/python scripts/bench_history_list.py [--games 3000] [--keys 40]

History is filled fast: a few games are played through the console (a Caesar! duel, a Glory game,
a Julius Caesar battle), then their rows are copied under new ids and sessions, each with its own
checksum (firmware/history.py ``row_crc``), so every row reads as a recorded game. The App then
opens History, a key (down, then up, as a player reads the list) is timed on the first page,
"Older games…" is pressed until every game is listed, and the same keys are timed again among the
oldest games. Printed: the median processor time of a key (``App.handle`` and ``App.render``) in
each case, and their ratio, and what the last "Older games…" press cost; ×15 is about a Pi Zero 2 W
(scripts/bench_keys.py).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PI = 15


def fill(state: Path, games: int) -> None:
    """``games`` History rows: three played, the others copies of them (module doc)."""
    from firmware import history
    from firmware.console import Console
    from firmware.store import Store
    c = Console(Store(state), None)

    def ok(line: str) -> None:
        r = c.request(line)
        assert r["ok"], (line, r)
    try:
        ok("settings language=en")
        ok("new caesar-duel seed=1 people=caesar:Anna,pompey:Boris")
        ok("end")
        ok("new glory players=Anna,Boris,Vera seed=2")
        for _ in range(9):
            ok("event")
            ok("end-round")
        ok("end")
        ok("new jc-battle seed=3 people=caesar:Anna,pompey:Boris")
        for line in ("add attacker c_leg10", "add defender p_pompeius", "fight"):
            ok(line)
        ok("new dice seed=4")
        db = c.store.db
        rows = db.execute("SELECT sid, part, game, depth, sealed, record FROM history").fetchall()
        top = db.execute("SELECT MAX(id) FROM history").fetchone()[0]
        with c.store.transaction() as tx:
            for i in range(games - top):
                sid, part, game, depth, sealed, record = rows[i % len(rows)]
                rid, copy = top + 1 + i, f"{sid[:8]}{i:08x}"
                tx.execute("INSERT INTO history(id, sid, part, game, depth, sealed, record, crc) VALUES(?,?,?,?,?,?,?,?)",
                           (rid, copy, part, game, depth, sealed, record,
                            history.row_crc(rid, copy, part, game, depth, sealed, record)))
    finally:
        c.close()


def key_times(app: object, keys: int) -> list[float]:
    """The processor time (ms) of ``keys`` keys, down then up, each with the frame it draws."""
    out = []
    for i in range(keys):
        t = time.thread_time()
        app.handle("down" if i < keys // 2 else "up")          # type: ignore[attr-defined]
        app.render()                                             # type: ignore[attr-defined]
        out.append((time.thread_time() - t) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="History's games")
    ap.add_argument("--keys", type=int, default=40, help="keys timed in each case")
    args = ap.parse_args()
    from firmware.app import App
    from firmware.console import Console
    from firmware.screens.history import HistoryScreen
    from firmware.store import Store
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state"
        fill(state, args.games)
        store = Store(state)
        app = App(Console(store, store.resume()))
        try:
            screen = HistoryScreen()
            app.push(screen)
            app.render()
            first = key_times(app, args.keys)
            older = []
            while True:                              # "Older games…" until every game is listed
                items = screen.items(app)
                if not items[-1].key.startswith("older:"):
                    break
                screen.cursor = len(items) - 1
                t = time.thread_time()
                app.handle("press")
                app.render()
                older.append((time.thread_time() - t) * 1000)
            listed = min(screen.shown, args.games)
            screen.cursor = len(screen.items(app)) - 1
            app.render()
            paged = key_times(app, args.keys)
        finally:
            app.console.close()
    a, b = statistics.median(first), statistics.median(paged)
    print(f"History: {args.games} games; a key on the first page (50 listed): {a:.2f} ms "
          f"(Pi ~{a * PI:.0f} ms)")
    print(f"  among the oldest, {listed} listed: {b:.2f} ms (Pi ~{b * PI:.0f} ms), "
          f"slowest {max(paged):.2f} ms")
    print(f"ratio paged/first page: {b / a:.1f}")
    print(f"'Older games…' (50 more listed): the last of {len(older)} presses "
          f"{older[-1]:.1f} ms (Pi ~{older[-1] * PI:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
