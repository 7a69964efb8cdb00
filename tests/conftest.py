"""Fixtures shared by every test folder: one Chromium for each process of the run (Playwright's sync API
allows only one driver per thread, so the map tests and the browser tests share it), and, in a parallel
run (pytest-xdist), the folder its workers share (tests/shared_folder.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium import CHROMIUM, CHROMIUM_FLAGS, CHROMIUM_LOG
from shared_folder import SHARED


@pytest.fixture(scope="session", autouse=True)
def _shared_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """In a worker of a parallel run, names the folder above its temporary folder, which all of them share."""
    if "PYTEST_XDIST_WORKER" in os.environ:
        os.environ[SHARED] = str(tmp_path_factory.getbasetemp().parent)


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


#: Test folders whose files run for minutes each (Pyodide under Node): first, so that in a parallel run
#: one worker goes through them while the other takes the many short files, and no long file starts last.
LONG_FIRST = ("pyodide",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    long_first = [tests / name for name in LONG_FIRST]
    items.sort(key=lambda item: not any(folder in item.path.parents for folder in long_first))
