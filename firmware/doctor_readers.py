"""What ``legatus doctor`` reads of the system, pure given its inputs: the mount holding a path (the
text of /proc/self/mounts), a Raspberry Pi boot config's ``dtparam`` settings, the I2C bus's clock
(a sysfs root), and the boot config itself (:data:`BOOT_CONFIGS`, the first that can be read), so
that firmware/doctor.py's checks are tested without a Pi."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
