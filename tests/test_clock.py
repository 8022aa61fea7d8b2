"""A Raspberry Pi with no real-time clock: the times Legatus records, shows and exports when nothing
set the wall clock (1970 with no fake-hwclock data, a fresh card's image date) or the clock jumps."""
from __future__ import annotations

import datetime as dt
import os
import io
import logging
import time
from pathlib import Path

import pytest

from tests.test_export import run_console_in

BATTLE = ["new jc-battle seed=4", "add attacker c_leg10", "add defender p_pompeius", "fight"]
JAN_1970 = "1970-01-01T00:00:42Z"
IMAGE_DAY = "2024-07-04T10:00:00Z"       # the day a Raspberry Pi OS image was built: a fresh card boots at it
ENTRY = {"id": 7, "game": "jc-battle", "name": "Julius Caesar", "status": "finished", "part": "battle-1",
         "mode": {"kind": "battle", "number": 1, "attacker": "caesar"},
         "players": [{"name": "Анна", "role": "caesar", "score": 3, "winner": True, "startPlayer": True},
                     {"name": "Boris", "role": "pompey", "score": 0, "winner": False, "startPlayer": False}],
         "result": "Battle 1: Caesar attacked and won."}


def _wall(monkeypatch: pytest.MonkeyPatch, iso: str) -> None:
    """The wall clock says ``iso`` (everything that reads it: History, hw.clock, the log)."""
    from firmware import history
    when = dt.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    monkeypatch.setattr(time, "time", lambda: when)
    monkeypatch.setattr(history, "_now", lambda: iso)


@pytest.mark.parametrize("wall", [JAN_1970, IMAGE_DAY])
def test_a_time_before_legatus_existed_is_recorded_unsure_even_where_the_kernel_cannot_say(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch, wall: str) -> None:
    """QA (clock): where the kernel's NTP state cannot be read (``synchronised()`` None: another
    system, a container, adjtimex refused) History took every time for a sure one, so a game played
    at 1970 (no fake-hwclock data) or at a fresh card's image date went into History, BG Stats'
    comments and the CSV as a sure date. A clock that says a time before Legatus existed was set
    by nothing: the times taken then are marked ``unsynced``; a sure clock's are not."""
    import hw.clock
    monkeypatch.setattr(hw.clock, "synchronised", lambda: None)
    _wall(monkeypatch, wall)
    replies = run_console_in(state_dir, [*BATTLE, "history 1", "export format=bgstats"])
    assert replies[-2]["games"][0]["unsynced"] == ["started", "finished"]
    assert "clock was not set" in replies[-1]["play"]["comments"]
    _wall(monkeypatch, "2026-11-27T18:00:00Z")                     # a clock that can be true
    replies = run_console_in(state_dir, ["new jc-battle seed=5", *BATTLE[1:], "history 1"])
    assert replies[-1]["games"][0]["unsynced"] == []


def test_the_log_says_a_clock_before_legatus_existed_is_not_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (clock): with the kernel's state unknown, the log's start line said "clock state unknown"
    at 1970: its times were as wrong as any the log marks "clock not set"."""
    import hw.clock
    from firmware import logs
    monkeypatch.setattr(hw.clock, "synchronised", lambda: None)
    monkeypatch.setattr(time, "time", lambda: 86400.0)
    logs.reset_for_tests()
    try:
        logs.setup(stream=io.StringIO())
        path = logs.attach_file(tmp_path)
        assert path is not None
        logging.getLogger("firmware.x").info("a line")
        start = [line for line in path.read_text().splitlines() if logs.START in line][-1]
        assert logs.CLOCK_UNSET in start
    finally:
        logs.reset_for_tests()


@pytest.mark.parametrize("finished", [JAN_1970, IMAGE_DAY])
def test_a_finish_before_legatus_existed_shows_no_day_rather_than_a_false_one(finished: str) -> None:
    """QA (clock): a battle fought on a Pi nothing had set the clock of was listed in History as
    «~01.01» (or on a fresh card's image day, «~04.07»), its page said "Ended 01.01.1970 00:00",
    two such games on one list showed their 1970 times, and Earlier games listed a session left
    then on 01.01: days no game was played on. Such a time is no date: the row shows none (as for
    a time that does not parse) and the page says the date is not known; a true day still shows."""
    from firmware import i18n
    from firmware.screens.archive import _day
    from firmware.screens.history import detail_rows, list_day, listed_days
    entry = {**ENTRY, "started": finished, "finished": finished, "unsynced": ["started", "finished"]}
    assert list_day(entry) == "" and list_day({**entry, "unsynced": []}) == ""
    assert not any("1970" in row or "2024" in row or "01.01" in row for row in detail_rows(entry))
    assert "Ended: date not known (clock not set)" in detail_rows(entry)
    try:
        i18n.set_language("ru")
        assert "Конец: дата неизвестна (часы не были выставлены)" in detail_rows(entry)
    finally:
        i18n.set_language("en")
    assert not any(row.startswith("Ended") for row in detail_rows({**entry, "finished": "not a time"}))
    assert listed_days([entry, entry], ["Julius Caesar"] * 2, [list_day(entry)] * 2) == ["", ""]
    assert _day(0.0, True) == "" and _day(0.0, False, "%H:%M") == ""      # (the store's 0 for such a time)
    sure = {**entry, "finished": "2026-11-27T12:00:00Z", "unsynced": []}
    assert list_day(sure) == "27.11" and any(row.startswith("Ended 27.11.2026") for row in detail_rows(sure))
    assert _day(dt.datetime(2026, 11, 27, 12, tzinfo=dt.timezone.utc).timestamp()) == "27.11"


@pytest.mark.parametrize("lang, begun", [("en", "Begun 26.11.2026 19:00"), ("ru", "Начало 26.11.2026 19:00"),
                                         ("uk", "Початок 26.11.2026 19:00")])
def test_a_game_begun_with_a_date_and_ended_after_a_restart_with_no_clock_shows_the_day_it_began(lang, begun):
    """QA (clock): a battle begun at 19:00 with the clock set, the device restarted with no network
    and no saved time (1970) and the battle fought: its BG Stats play is dated 26.11 19:00 (its
    start), but History's row showed no day and its page no date at all. The row shows the day it
    began, the page when it began beside the end's unknown date; a 1970 start shows none still."""
    import time

    from firmware import export, i18n
    from firmware.screens.history import detail_rows, list_day
    entry = {**ENTRY, "started": "2026-11-26T19:00:00Z", "finished": JAN_1970, "unsynced": ["finished"], "minutes": 40}
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        i18n.set_language(lang)
        assert list_day(entry) == "26.11"
        assert export.bgstats_play(entry)["playDate"] == "2026-11-26 19:00:00"
        rows = detail_rows(entry)
        assert rows.index(begun) == rows.index(i18n.catalog(lang, "history").gettext(
            "Ended: date not known (clock not set)")) - 1, rows
        assert list_day({**entry, "unsynced": ["started", "finished"]}) == "~26.11"
        assert list_day({**entry, "started": JAN_1970}) == ""
        assert not any(r.startswith(begun.split()[0]) for r in detail_rows({**entry, "started": JAN_1970}))
    finally:
        i18n.set_language("en")
        del os.environ["TZ"]
        time.tzset()


def test_a_play_is_never_dated_before_legatus_existed() -> None:
    """QA (clock): BG Stats and the CSV got ``playDate`` 1970-01-01 for a game begun on a clock
    nothing had set — with the start marked sure (a record the kernel's state was unknown for, or
    one made before History marked times) even dated by it though its finish was a true day. A
    start before Legatus existed is no date: the play is dated by its finish, less the minutes the
    device measured; with no true time at all, ``playDate`` is empty (as for a time that is no
    date), never 1970."""
    from firmware import export
    local = dt.datetime(2026, 11, 27, 18, 0, tzinfo=dt.timezone.utc).astimezone()
    entry = {**ENTRY, "started": JAN_1970, "finished": "2026-11-27T18:00:00Z", "unsynced": []}
    assert export.bgstats_play(entry)["playDate"] == local.strftime("%Y-%m-%d %H:%M:%S")
    measured = {**entry, "minutes": 47}
    began = local - dt.timedelta(minutes=47)
    assert export.bgstats_play(measured)["playDate"] == began.strftime("%Y-%m-%d %H:%M:%S")
    assert "durationMin" not in export.bgstats_play(entry) and export.bgstats_play(measured)["durationMin"] == 47
    lost = {**entry, "started": JAN_1970, "finished": "1970-01-01T00:47:42Z", "unsynced": ["started", "finished"]}
    assert export.bgstats_play(lost)["playDate"] == ""
    assert export.bgstats_play({**lost, "minutes": 47})["playDate"] == ""
    text = export.csv_text([lost, {**lost, "started": IMAGE_DAY, "finished": IMAGE_DAY}])
    assert [line.split(",")[6] for line in text.splitlines()[1:]] == ["", "", "", ""]      # play_date


def test_earlier_games_mark_the_day_a_session_was_left_by_the_clock_then_not_when_it_began(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (clock): Earlier games shows the day each session was left, but marked it ``~`` by whether
    the clock was set when it *began*. A game set up at home (network: clock set), the device off
    for three days, resumed at the club (no network: the clock back at the last shutdown, 20.11)
    and left there for another game was listed on 20.11 as a sure day, while History marked the
    same evening's games «~»; and a game begun before the network came and left after it had set
    the clock was marked unsure on its true day. A session is left in the transaction that begins
    the next one, whose start is kept with its mark: that mark is the left day's."""
    import hw.clock
    from firmware.screens.archive import _day
    from firmware.store import Store
    synced = [True]
    monkeypatch.setattr(hw.clock, "synchronised", lambda: synced[0])
    _wall(monkeypatch, "2026-11-20T18:00:00Z")                           # at home, the clock set
    run_console_in(state_dir, ["new dice seed=1", "roll 2d6"])
    synced[0] = False                                                    # three days on, no network:
    _wall(monkeypatch, "2026-11-20T19:00:00Z")                           # the last shutdown's time
    run_console_in(state_dir, ["roll 2d6", "new dice seed=2", "roll 2d6"])
    synced[0] = True                                                     # the network comes
    _wall(monkeypatch, "2026-11-23T20:00:00Z")
    run_console_in(state_dir, ["new dice seed=3"])
    store = Store(state_dir)
    try:
        second, first = store.archives()
    finally:
        store.close()
    assert (first["header"]["seed"], second["header"]["seed"]) == (1, 2)
    assert first["unsynced"] is True and second["unsynced"] is False
    when = dt.datetime(2026, 11, 23, 20, tzinfo=dt.timezone.utc).timestamp()
    assert _day(second["ended"], second["unsynced"]) == dt.datetime.fromtimestamp(when).strftime("%d.%m")
    assert _day(first["ended"], first["unsynced"]).startswith("~")


def test_legatus_doctor_warns_of_a_clock_before_legatus_existed(monkeypatch: pytest.MonkeyPatch) -> None:
    """QA (clock): where the kernel's NTP state cannot be read, ``legatus doctor`` (and Settings →
    Hardware) said the clock was "unknown", an info line, at 1970: History marks that clock's
    times unsure, and the doctor says why and how to set it, as for a clock the kernel says is
    not synchronised. A clock at a true time stays "unknown"."""
    import hw.clock
    from firmware import doctor
    monkeypatch.setattr(hw.clock, "synchronised", lambda: None)
    monkeypatch.setattr(time, "time", lambda: 86400.0)
    check = doctor.clock_check()
    assert check.status == "warn" and check.fix is not None
    monkeypatch.setattr(time, "time", lambda: dt.datetime(2026, 11, 27, tzinfo=dt.timezone.utc).timestamp())
    assert doctor.clock_check().status == "info"


@pytest.mark.parametrize("left", [JAN_1970, IMAGE_DAY])
def test_earlier_games_get_no_time_for_a_session_left_before_legatus_existed(
        state_dir: Path, monkeypatch: pytest.MonkeyPatch, left: str) -> None:
    """QA (clock): a session left on a clock nothing had set (1970, a fresh card's image date) was
    listed in Earlier games on that day. The store gives its time as 0, not known (the screen
    shows no day for it and reads no clock itself); a session left on a true day keeps its time."""
    from firmware.store import Store
    _wall(monkeypatch, left)
    run_console_in(state_dir, ["new dice seed=1", "roll 2d6", "new dice seed=2"])
    _wall(monkeypatch, "2026-11-27T18:00:00Z")
    run_console_in(state_dir, ["new dice seed=3"])
    store = Store(state_dir)
    try:
        sure, unset = store.archives()
    finally:
        store.close()
    assert (unset["header"]["seed"], sure["header"]["seed"]) == (1, 2)
    assert unset["ended"] == 0.0
    assert sure["ended"] == dt.datetime(2026, 11, 27, 18, tzinfo=dt.timezone.utc).timestamp()


def test_a_real_time_clock_that_set_the_wall_clock_makes_its_times_sure(
        state_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An RTC HAT fitted, as `legatus doctor` advises, at a table with no network: the kernel says "not
    synchronised" (it counts only NTP), so every game went into History, BG Stats' comments and the
    CSV as of an unsure date, and the doctor went on advising to fit a real-time clock. A wall clock
    within two minutes of a real-time clock that says a true time stands on it: its times are sure.
    An RTC never set (battery out: 2000-01-01), or one the boot did not read (the wall clock days
    off it), changes nothing."""
    import hw.clock
    from firmware import doctor
    from hw.clock import ClockState
    monkeypatch.setattr(hw.clock, "_adjtimex", lambda buf: hw.clock.TIME_ERROR)    # no NTP, as at the table
    rtc = tmp_path / "since_epoch"
    monkeypatch.setattr(hw.clock, "RTC_TIME", rtc, raising=False)
    monkeypatch.setattr(hw.clock, "TIMESYNC_FLAG", tmp_path / "not-synchronized")    # (nor timesyncd)
    now = "2026-11-27T18:00:00Z"
    _wall(monkeypatch, now)
    wall = time.time()
    assert hw.clock.synchronised() is False                        # no RTC
    for rtc_says, sure in ((wall - 3, True), (wall + 90, True), (946684800, False), (wall - 3 * 86400, False)):
        rtc.write_text(f"{int(rtc_says)}\n")
        assert hw.clock.synchronised() is sure, rtc_says
    rtc.write_text(f"{int(wall)}\n")
    replies = run_console_in(state_dir, [*BATTLE, "history 1"])
    assert replies[-1]["games"][0]["unsynced"] == []               # (it was ["started", "finished"])
    rtc.write_text("946684800\n")
    replies = run_console_in(state_dir, ["new jc-battle seed=5", *BATTLE[1:], "history 1"])
    assert replies[-1]["games"][0]["unsynced"] == ["started", "finished"]
    check = doctor.clock_check(ClockState(synchronised=False, timesyncd=False, fake_hwclock=True, rtc=True), pi=True)
    assert check.status == "warn" and check.fix is not None
    assert "fit a real-time clock" not in check.fix and "hwclock -s" in check.fix and "hwclock -w" in check.fix
    from firmware.i18n import say
    assert "Модуль часов реального времени не выставил их" in say(check.fix, "ru")


def test_a_clock_set_by_the_network_since_boot_stays_sure_when_the_network_is_gone_for_hours(
        state_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel says "not synchronised" again some 9 hours after NTP was last heard (its maximum error
    grows past 16 s): a Pi set by systemd-timesyncd at home and played on at a table with no network
    that long marked every time unsure, and the doctor said the clock was not set. systemd-timesyncd's
    flag (set since boot, /run/systemd/timesync/synchronized) makes them sure; without it (nothing set
    the clock since boot: fake-hwclock's last shutdown) they stay unsure."""
    import hw.clock
    monkeypatch.setattr(hw.clock, "_adjtimex", lambda buf: hw.clock.TIME_ERROR)
    monkeypatch.setattr(hw.clock, "RTC_TIME", tmp_path / "no-rtc", raising=False)
    flag = tmp_path / "synchronized"
    monkeypatch.setattr(hw.clock, "TIMESYNC_FLAG", flag)
    _wall(monkeypatch, "2026-11-27T18:00:00Z")
    assert hw.clock.synchronised() is False
    replies = run_console_in(state_dir, [*BATTLE, "history 1"])
    assert replies[-1]["games"][0]["unsynced"] == ["started", "finished"]
    flag.touch()
    assert hw.clock.synchronised() is True
    replies = run_console_in(state_dir, ["new jc-battle seed=5", *BATTLE[1:], "history 1"])
    assert replies[-1]["games"][0]["unsynced"] == []            # (it was ["started", "finished"])
