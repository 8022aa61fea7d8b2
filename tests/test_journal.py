"""The journal: checksummed lines, torn and corrupt tails kept aside, resume at the last good action."""
import json

from firmware import journal
from firmware.console import Console
from firmware.store import Store


def _play(state_dir, lines):
    store = Store(state_dir)
    c = Console(store, store.resume())
    replies = [c.request(l) for l in lines]
    c.store.close()   # no final snapshot: as after a crash
    return replies


def _resume(state_dir):
    store = Store(state_dir)
    c = Console(store, store.resume())
    return c


def test_encode_decode_round_trip_and_checksum():
    line = journal.encode({"line": "draw 2"})
    assert journal.decode(line) == {"line": "draw 2"}
    flipped = bytearray(line)
    flipped[12] ^= 0x01
    assert journal.decode(bytes(flipped)) is None
    assert journal.decode(line[:-1]) is None        # no newline: torn


def test_torn_tail_resumes_at_last_good_action_and_is_kept(state_dir):
    replies = _play(state_dir, ["new bag items=a*5,b*5 seed=3", "draw", "draw", "draw"])
    path = state_dir / "session.journal"
    data = path.read_bytes()
    path.write_bytes(data[:-7])                     # cut into the last line
    c = _resume(state_dir)
    state = c.request("state")
    assert state["state"]["bag"]["drawn"] == replies[1]["drawn"] + replies[2]["drawn"]
    assert "recovered" in state
    kept = state_dir / "session.journal.bad-1"
    assert kept.exists() and kept.read_bytes() == data[len(path.read_bytes()):-7]
    assert any("damaged" in e for e in c.request("log")["log"])
    # the journal is whole again: new actions append after the good part
    c.request("draw")
    c.close()
    c2 = _resume(state_dir)
    assert c2.request("state")["state"]["actions"] == 3
    assert "recovered" not in c2.request("state")


def test_flipped_byte_in_the_middle_resumes_before_it(state_dir):
    replies = _play(state_dir, ["new bag items=a*5,b*5 seed=3", "draw", "draw", "draw", "draw"])
    path = state_dir / "session.journal"
    data = bytearray(path.read_bytes())
    lines = bytes(data).split(b"\n")
    offset = len(lines[0]) + 1 + len(lines[1]) + 1 + 15   # inside the 3rd record (2nd draw)
    data[offset] ^= 0x20
    path.write_bytes(bytes(data))
    c = _resume(state_dir)
    st = c.request("state")["state"]
    assert st["actions"] == 1 and st["bag"]["drawn"] == replies[1]["drawn"]
    assert (state_dir / "session.journal.bad-1").stat().st_size > 0


def test_stale_snapshot_of_another_session_is_ignored(state_dir):
    _play(state_dir, ["new bag items=a*5 seed=1", "draw"])
    store = Store(state_dir)
    c = Console(store, store.resume())
    c.close()   # writes a snapshot for the first session
    _play(state_dir, ["new dice seed=2", "roll 1d6"])
    c = _resume(state_dir)
    assert c.request("state")["state"]["game"] == "dice"


def test_new_session_archives_the_old_journal(state_dir):
    _play(state_dir, ["new dice seed=1", "roll 1d6", "new dice seed=2"])
    archived = list((state_dir / "archive").glob("*.journal"))
    assert len(archived) == 1
    records, _ = journal.read(archived[0])
    assert records[0]["line"] == "new dice seed=1" and records[1] == {"line": "roll 1d6"}


def test_second_process_on_the_same_state_dir_is_refused(state_dir):
    import pytest

    from firmware.store import StateDirError
    first = Store(state_dir)
    with pytest.raises(StateDirError, match="Another Legatus"):
        Store(state_dir)
    first.close()
