"""What a benchmark's reader needs to judge its figures: the machine they were taken on and how loaded it
was (the page benchmarks print both; docs/performance.md).

    >>> "cores" in machine()
    True
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
from pathlib import Path


def machine(browser: str = "") -> str:
    """One line: the processor, its cores, the memory, the system, Python and (given its path) the browser."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 1024 / 1024:.0f} GB"
    except (OSError, ValueError, IndexError):
        pass
    shown = f"{model}, {os.cpu_count()} cores{memory}, {platform.system()} {platform.release()}"
    shown += f", Python {platform.python_version()}"
    if browser:
        try:
            done = subprocess.run([browser, "--version"], capture_output=True, text=True, timeout=30, check=False)
            shown += f", {done.stdout.strip() or browser}"
        except OSError:
            shown += f", {browser}"
    return shown


def load() -> str:
    """The load averages over 1, 5 and 15 minutes (on a 2-core machine, 2 is both cores busy)."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} {five:.1f} {fifteen:.1f}"


def spread(times: list[float]) -> str:
    """The median of ``times`` and their range: ``"41.2 (38-57)"``.

    >>> spread([38.0, 41.2, 57.0])
    '41.2 (38-57)'
    """
    return f"{statistics.median(times):.1f} ({min(times):.0f}-{max(times):.0f})"
