"""How often browser tests open the page, and what Chromium spends: a pytest plugin.

    PYTHONPATH=benchmarks .venv/bin/python -m pytest tests/browser/test_group_game.py -p no:xdist -p page_openings

Counts, per test, the page loads (`Page.goto` to anything but about:blank, and `Page.reload`: what
`open_app`, `reopen_app` and the `app` fixture do) and the browser contexts made; at the end it prints them
per file, and the CPU seconds of the pytest process and of every process below it (Chromium's, the
Playwright driver's: each one's own time and that of the children it reaped, read from /proc just before
the browser closes, so the renderers that ended count too). Linux only. Figures: docs/performance.md
("Tests and CI time", the group-game files).
"""

from __future__ import annotations

import collections
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

TICK = os.sysconf("SC_CLK_TCK")
#: per test id: [page loads, contexts]
COUNTS: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
CPU: list[float] = []
running: list[str] = []


def tree_cpu(root: int) -> float:
    """CPU seconds of every process below ``root`` (with the children each reaped)."""
    children: dict[int, list[tuple[int, list[str]]]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            children.setdefault(int(fields[1]), []).append((int(name), fields))
    total, pending = 0.0, [root]
    while pending:
        for pid, fields in children.get(pending.pop(), []):
            total += sum(map(int, fields[11:15])) / TICK
            pending.append(pid)
    return total


def counted(method: Any, index: int, url_from: int | None) -> Any:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        url = args[url_from] if url_from is not None and args else kwargs.get("url", "")
        if running and not str(url).startswith("about:"):
            COUNTS[running[0]][index] += 1
        return method(self, *args, **kwargs)

    return wrapper


def closed(method: Any) -> Any:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        times = os.times()
        CPU.append(tree_cpu(os.getpid()) + times.user + times.system)
        return method(self, *args, **kwargs)

    return wrapper


Page.goto = counted(Page.goto, 0, 0)  # type: ignore[method-assign]
Page.reload = counted(Page.reload, 0, None)  # type: ignore[method-assign]
Browser.new_context = counted(Browser.new_context, 1, None)  # type: ignore[method-assign]
Browser.close = closed(Browser.close)  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    running[:] = [item.nodeid]
    COUNTS[item.nodeid]
    try:
        return (yield)
    finally:
        running.clear()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    files: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for test, (loads, contexts) in COUNTS.items():
        totals = files[test.split("::")[0]]
        totals[0] += 1
        totals[1] += loads
        totals[2] += contexts
    terminalreporter.section("page openings")
    for file, (tests, loads, contexts) in sorted(files.items()):
        terminalreporter.write_line(f"{file}: {tests} tests, {loads} page openings, {contexts} contexts")
    if CPU:
        terminalreporter.write_line(f"CPU of pytest and the processes below it: {sum(CPU):.1f} s")
