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


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The run's count of browser page openings (tests/browser/conftest.py puts each test's count in its
    teardown report), what most of a browser test's time goes to."""
    openings = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", "") == "teardown"
        for name, value in getattr(report, "user_properties", [])
        if name == "page_openings"
    ]
    if openings:
        terminalreporter.write_line(f"browser: {sum(openings)} page openings in {len(openings)} tests")


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


#: What one test of a folder costs, in seconds on this project's 2-core machine (a browser test opens
#: pages that start Python; a Pyodide test starts Pyodide under Node), and what the files that cost far
#: more than their count of tests says take in all (the slowest items of `scripts/dev test`'s
#: `--durations`; docs/performance.md, "Tests and CI time"). Any other test counts DEFAULT_SECONDS.
FOLDER_SECONDS = {"browser": 15.0, "pyodide": 20.0}
DEFAULT_SECONDS = 0.1
FILE_SECONDS = {
    "pyodide/test_engine_in_pyodide.py": 150.0,
    "test_cluster_group.py": 100.0,
    "test_map_labels.py": 60.0,
    "test_maps_render.py": 60.0,
    "test_game.py": 40.0,
    "test_cluster.py": 30.0,
    "test_decode_speed_paths.py": 30.0,
    "test_hostile_sealed.py": 25.0,
    "test_hostile_engine.py": 25.0,
}


#: Files whose tests a parallel run hands out one by one, not as a whole file: tests of a minute or more
#: each that share no set-up (test_engine_in_pyodide.py: the engine's tests in Pyodide, in parts).
SPREAD = {"tests/pyodide/test_engine_in_pyodide.py"}


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """`--dist loadfile`, but each test of a file in SPREAD a unit of its own."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return nodeid if file in SPREAD else file

    return Scheduling(config, log)


def pytest_configure(config: pytest.Config) -> None:
    # pytest-xdist would hand out files by their number of tests, most first; they go in the order
    # pytest_collection_modifyitems gives them instead (the longest first)
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def file_seconds(path: Path, tests: int) -> float:
    """What a test file is expected to take, by FILE_SECONDS or its folder's cost of a test."""
    here = Path(__file__).parent
    rel = path.relative_to(here).as_posix() if here in path.parents else path.name  # (README.md's examples)
    if rel in FILE_SECONDS:
        return FILE_SECONDS[rel]
    return tests * FOLDER_SECONDS.get(rel.split("/")[0], DEFAULT_SECONDS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files in the order of what they are expected to take, the longest first (a file's tests keep
    their order): in a parallel run a whole file goes to one worker (`--dist loadfile`), handed out in
    this order as workers come free, so no long file starts last while the other worker has nothing left."""
    counts: dict[Path, int] = {}
    for item in items:
        counts[item.path] = counts.get(item.path, 0) + 1
    cost = {path: file_seconds(path, n) for path, n in counts.items()}
    items.sort(key=lambda item: -cost[item.path])
