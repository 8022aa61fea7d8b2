"""``legatus doctor``'s Storage row asks the card, as a refused save does
(firmware.store.reasons.ask_card): the mount's options are not enough. Recent kernels (6.x) make an
ext4 card read-only after an error as an "emergency read-only": /proc/self/mounts still reads
``rw``, statvfs has no ST_RDONLY, and every write is refused — the doctor said «ok Storage» while
every save failed. A full card mounted read-write was «ok» too. Root-only (a real ext4 image on a
loop device, a small tmpfs): skipped elsewhere."""
from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.doctor import storage_check
from firmware.i18n import say
from firmware.store import DB_NAME, Store


def _root(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(args, capture_output=True)


@pytest.fixture
def ext4_card(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A real ext4 card image mounted with errors=remount-ro (as Raspberry Pi OS mounts its root),
    and the name of its device under /sys/fs/ext4 (to make the kernel find an error)."""
    img, mnt = tmp_path / "card.img", tmp_path / "card"
    mnt.mkdir()
    with img.open("wb") as f:
        f.truncate(8 << 20)
    if _root(["mkfs.ext4", "-q", str(img)]).returncode or \
            _root(["mount", "-o", "loop,errors=remount-ro", str(img), str(mnt)]).returncode:
        pytest.skip("cannot make and mount an ext4 image here (needs root, mkfs.ext4 and a loop device)")
    try:
        dev = Path(_root(["findmnt", "-no", "SOURCE", str(mnt)]).stdout.decode().strip()).name
        if not (Path("/sys/fs/ext4") / dev / "trigger_fs_error").exists():
            pytest.skip("this kernel cannot be made to find an ext4 error")
        yield mnt, dev
    finally:
        _root(["umount", "-l", str(mnt)])


def test_a_card_the_kernel_made_read_only_after_an_error_is_a_failure_though_mounted_rw(
        ext4_card: tuple[Path, str]) -> None:
    mnt, dev = ext4_card
    state = mnt / "state"
    store = Store(state)
    store.save_settings({"language": "ru"})
    store.close()
    assert storage_check(state).status == "ok"
    (Path("/sys/fs/ext4") / dev / "trigger_fs_error").write_text("1")
    mount = next(line for line in Path("/proc/self/mounts").read_text().splitlines() if f" {mnt} " in line)
    assert " rw," in mount                                   # (the mount's options say nothing of it)
    before = sorted(p.name for p in state.iterdir())
    check = storage_check(state)
    assert check.status == "fail", check
    assert say(check.fix, "en") == (
        "The card takes no writes: the system made it read-only after an error, though it is mounted read-write: "
        "nothing can be saved. Turn the device off and on again; if this comes back, replace the card.")
    assert say(check.found, "en").endswith(", read-only)")
    for lang, words in (("ru", "только для чтения"), ("uk", "лише для читання")):
        assert words in say(check.found, lang) and "card" not in say(check.fix, lang)
    assert sorted(p.name for p in state.iterdir()) == before         # (nothing left on the card)
    assert (state / DB_NAME).exists()


def test_a_full_card_mounted_read_write_is_a_failure_with_its_fix(ext4_card: tuple[Path, str]) -> None:
    mnt, _dev = ext4_card
    state = mnt / "state"
    state.mkdir()
    assert storage_check(state).status == "ok"
    fd = os.open(mnt / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 65536)
    except OSError:
        pass
    finally:
        os.close(fd)
    check = storage_check(state)
    assert check.status == "fail", check
    assert say(check.fix, "en") == f"{mnt} is full: nothing can be saved. Free some space; Legatus goes on by itself."
    assert say(check.found, "en").endswith(", full)")
    assert say(check.fix, "ru").startswith(f"На {mnt} нет места") and say(check.fix, "uk").startswith(f"На {mnt} немає місця")
    assert not list(state.iterdir())
