"""Helpers the browser tests share (a module of its own: `conftest` is a name other test folders use)."""

from __future__ import annotations

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


def open_app(context: Any, url: str) -> Any:
    """Open a page at `url` and wait until Python is ready (orders can be entered)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-python-ready]", state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
    return page
