"""What ``legatus doctor`` reads of the system, pure given its inputs: the mount holding a path (the
text of /proc/self/mounts), a Raspberry Pi boot config's ``dtparam`` settings, the I2C bus's clock
(a sysfs root), and the boot config itself (:data:`BOOT_CONFIGS`, the first that can be read), so
that firmware/doctor.py's checks are tested without a Pi; and whether this user could use a state
directory (:func:`unusable_state_dir`, nothing made or written)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.text import Msg

BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str
    options: tuple[str, ...]

    @property
    def read_only(self) -> bool:
        return "ro" in self.options


def mount_of(path: Path, mounts: str) -> Mount | None:
    """The mount holding ``path`` (absolute) among ``mounts`` (the text of /proc/self/mounts):
    the longest mount point that is a prefix of it."""
    best: Mount | None = None
    target = str(path)
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        point = parts[1].replace("\\040", " ")
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) >= len(best.point)):
            best = Mount(point, parts[2], tuple(parts[3].split(",")))
    return best


def boot_params(text: str) -> dict[str, str]:
    """``dtparam`` settings of a Raspberry Pi boot config (``config.txt``), later lines winning;
    comments ignored. ``dtparam=i2c_arm=on,i2c_arm_baudrate=400000`` gives both."""
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line.startswith("dtparam="):
            continue
        for part in line[len("dtparam="):].split(","):
            key, _, value = part.partition("=")
            if key.strip():
                out[key.strip()] = value.strip() or "on"
    return out


def i2c_adapter(port: int, sys_root: Path = Path("/sys")) -> bool:
    """Whether the kernel has I2C bus ``port`` (its adapter), with or without its /dev node (that
    one comes with the i2c-dev module)."""
    return (sys_root / "class" / "i2c-adapter" / f"i2c-{port}").exists()


def i2c_clock_hz(port: int, sys_root: Path = Path("/sys")) -> int | None:
    """The I2C bus's clock as the kernel set it up (device tree ``clock-frequency``), or None."""
    path = sys_root / "class" / "i2c-adapter" / f"i2c-{port}" / "of_node" / "clock-frequency"
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return int.from_bytes(data[:4], "big") if len(data) >= 4 else None


def read_boot_config() -> tuple[Path | None, str]:
    for path in BOOT_CONFIGS:
        try:
            return path, path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return None, ""


def unusable_state_dir(path: Path) -> Msg | str | None:
    """Why the device could not use the state directory ``path`` (``firmware.store.Store`` would
    refuse it at start: the panel says "Nothing can be saved"), found without making or writing
    anything: a file where it or a parent should be a folder, or a folder (it, or the nearest parent
    there is, where it would be made) or database this user may not enter and write in. The doctor
    said "ok" for each, run as the user who would start the device."""
    import errno
    import os

    from firmware.store import DB_NAME
    from firmware.store.reasons import reason
    try:
        there = path
        while not there.exists() and there.parent != there:
            there = there.parent
        if not there.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(there))
        if not os.access(there, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(there))
        for name in (DB_NAME, "lock"):
            file = path / name
            if there == path and file.exists() and not os.access(file, os.R_OK | os.W_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
    except OSError as e:        # (a parent this user may not look into: PermissionError from exists())
        return reason(e)
    return None



def card_refusal(state_dir: Path, path: Path, mount: Mount) -> tuple[Msg, Msg] | None:
    """What the Storage row finds, and its fix, when the card refuses writes in the state directory
    ``path`` though ``mount`` says read-write (asked of the card as a refused save asks it:
    :func:`firmware.store.reasons.ask_card`): made read-only by the kernel after an error (ext4's
    "emergency read-only" of recent kernels), full, or not this user's to write. None when it
    takes writes, or the directory is not made yet."""
    import errno

    from firmware.store.reasons import ask_card, reason
    try:
        if not path.is_dir():
            return None
    except OSError:
        return None
    refused = ask_card(path, "doctor-probe")
    if refused is None:
        return None
    if refused.errno == errno.EROFS:
        return Msg("{} ({} on {}, read-only)", str(state_dir), mount.fstype, mount.point), Msg(
            "The card takes no writes: the system made it read-only after an error, though it is mounted "
            "read-write: nothing can be saved. Turn the device off and on again; if this comes back, "
            "replace the card.")
    if refused.errno in (errno.ENOSPC, errno.EDQUOT):
        return Msg("{} ({} on {}, full)", str(state_dir), mount.fstype, mount.point), Msg(
            "{} is full: nothing can be saved. Free some space; Legatus goes on by itself.", mount.point)
    return Msg("{} ({} on {})", str(state_dir), mount.fstype, mount.point), Msg(
        "Cannot use the state directory {}: {}. Pick another with --state-dir or LEGATUS_STATE_DIR.",
        str(state_dir), reason(refused))


def not_there(state_dir: Path, path: Path, mount: Mount | None = None) -> Msg | None:
    """What the Storage row finds of a state directory not made yet (the device makes it, and its
    missing parents, at its first start: firmware/storage.py ``make_dirs``; one it cannot make is
    a failure before this, :func:`unusable_state_dir`), else None. It said «ok Storage: <dir>» of
    a directory that is not there, as if the games were kept in it already."""
    try:
        if path.exists():
            return None
    except OSError:             # (a parent this user may not look into: said by unusable_state_dir)
        return None
    if mount is None:
        return Msg("{} (not there yet: made at the first start)", str(state_dir))
    return Msg("{} (not there yet: made at the first start, {} on {})", str(state_dir), mount.fstype, mount.point)


def file_names_profile(path: Path) -> bool:
    """Whether the config file at ``path`` names a profile (False if it cannot be read now)."""
    try:
        import tomllib
        with path.open("rb") as f:
            return "profile" in tomllib.load(f)
    except Exception:  # noqa: BLE001 - it was readable a moment ago; say "default" if not now
        return False
