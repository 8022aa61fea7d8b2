"""How fast an over-long console line is skipped on a serial port (issue 20 §5): pyserial's own
``readline`` (one system call per byte) against hw.serial_link.LineBuffer (what has arrived, a
chunk at a time), over a pseudo-terminal. Prints both rates and their ratio.

    .venv/bin/python scripts/bench_serial.py [BYTES]      (default 1,000,000)
"""
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware.console_lines import read_line  # noqa: E402
from hw.serial_link import LineBuffer, open_serial  # noqa: E402
from scripts.args import at_least  # noqa: E402


def skip(n: int, chunked: bool) -> float:
    """Seconds to skip an ``n``-byte line and read the next one."""
    master, slave = os.openpty()
    port = open_serial(os.ttyname(slave))
    writer = threading.Thread(target=lambda: os.write(master, b"y" * n + b"\nversion\n"))
    writer.start()
    source = LineBuffer(port) if chunked else port
    t = time.perf_counter()
    assert read_line(source) == (b"", True) and read_line(source) == (b"version", False)
    elapsed = time.perf_counter() - t
    writer.join()
    port.close()
    os.close(master)
    os.close(slave)
    return elapsed


def main() -> None:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bytes", nargs="?", type=at_least(1), default=1_000_000, help="the line's length (default 1,000,000)")
    n = parser.parse_args().bytes
    old, new = skip(n, False), skip(n, True)
    print(f"pyserial readline: {n / old / 1e3:,.0f} kB/s ({old:.2f} s for {n:,} bytes)")
    print(f"LineBuffer:        {n / new / 1e3:,.0f} kB/s ({new:.3f} s)")
    print(f"ratio: {old / new:,.0f}x faster; 115200 baud is 11.5 kB/s, USB gadget serial ~1,000 kB/s")


if __name__ == "__main__":
    main()
