"""Fixtures shared by every test folder: one Chromium for the whole run (Playwright's sync API allows
only one driver per thread, so the map tests and the browser tests share it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import CHROMIUM, CHROMIUM_FLAGS, CHROMIUM_LOG


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's chromium (scripts/dev setup does)")
    CHROMIUM_LOG.parent.mkdir(exist_ok=True)
    # The driver reads these once, as it starts; nothing else started later sees them.
    saved = {key: os.environ.get(key) for key in ("DEBUG", "DEBUG_FILE")}
    os.environ.update(DEBUG="pw:browser", DEBUG_FILE=str(CHROMIUM_LOG))
    try:
        playwright = sync_playwright().start()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    try:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_FLAGS, "--enable-logging=stderr", "--v=0"]
        )
        yield chromium
        chromium.close()
    finally:
        playwright.stop()
