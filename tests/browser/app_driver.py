"""Helpers the browser tests share (a module of its own: `conftest` is a name other test folders use)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Cold start is 4-5 s here; a loaded CI machine may be several times slower.
PYTHON_READY_TIMEOUT_MS = 90_000


@dataclass
class Site:
    """The built site: its folder, and the URL it is served at on 127.0.0.1."""

    root: Path
    url: str


class RendererCrashed(UserWarning):
    """Chromium's renderer process died while a page was starting Pyodide (seen on CI machines now and then,
    never reproduced on demand). The page is opened once more; the warning shows in pytest's summary and
    Chromium's log is kept in test-artifacts/, so the crash is reported, not hidden."""


def open_app(context: Any, url: str) -> Any:
    """Open a page at `url` and wait until Python is ready (orders can be entered).

    If the renderer crashes before Python is ready, which is before the test has done anything in the page,
    the page is opened again, once; a second crash fails the test."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in (1, 2):
        page = context.new_page()
        crashed: list[Any] = []
        page.on("crash", crashed.append)
        try:
            page.goto(url)
            page.wait_for_selector("html[data-python-ready]", state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
        except PlaywrightError:
            if not crashed or attempt == 2:
                raise
            warnings.warn(
                RendererCrashed(f"Chromium's renderer crashed while opening {url[:80]}; opened again"), stacklevel=2
            )
            page.close()
            continue
        return page
    raise AssertionError("unreachable")
