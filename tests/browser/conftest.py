"""Fixtures for the end-to-end tests: the built site served on 127.0.0.1, and Debian's Chromium driven by
Playwright for Python, with every request recorded (none may leave 127.0.0.1).

The page's Content-Security-Policy has no 'unsafe-eval': give `wait_for_function` a function ("() => ..."),
never a bare expression, which Playwright evaluates with `eval` in the page on every poll after the first
(refused there, so the wait fails unless the condition already holds).

A failed test leaves a screenshot of each of its pages in test-artifacts/, and its report shows what Chromium
wrote to its log meanwhile (a renderer's crash report, for one).

Chromium's renderer process dies now and then on these machines in the middle of a test (never reproduced
on demand, no reason in its log): a test that fails with Playwright's "Target crashed" or "Page crashed",
and only such a test, is run once more (pytest-rerunfailures), and the run's summary counts it as a rerun.
A second crash, or any other failure, fails the test.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from app_driver import Openings, Site, open_app
from chromium import CHROMIUM_LOG
from shared_folder import shared_folder

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


#: what Playwright's errors say when the page's renderer process died
RENDERER_CRASHED = ["Target crashed", "Page crashed"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=RENDERER_CRASHED))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[OPENINGS_START] = Openings.count


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    if report.when == "teardown" and OPENINGS_START in item.stash:
        # (a report's user_properties reach the controller of a parallel run, which sums them)
        report.user_properties.append((OPENINGS, Openings.count - item.stash[OPENINGS_START]))
    if report.failed and LOG_START in item.stash:
        lines = chromium_log_since(item.stash[LOG_START])
        if lines:
            report.sections.append(("Chromium's log during this test", "\n".join(lines[-80:])))
    return report


FAILED = pytest.StashKey[bool]()
OPENINGS_START = pytest.StashKey[int]()
#: the name of a test's count of page openings in its teardown report (tests/conftest.py sums them)
OPENINGS = "page_openings"
LOG_START = pytest.StashKey[int]()
#: Lines of Chromium's log that say nothing about the page: this machine has no D-Bus, no screen saver.
LOG_NOISE = re.compile(r"dbus|D-Bus|finished temporary directories")


def chromium_log_size() -> int:
    return CHROMIUM_LOG.stat().st_size if CHROMIUM_LOG.exists() else 0


def chromium_log_since(offset: int) -> list[str]:
    if not CHROMIUM_LOG.exists():
        return []
    with CHROMIUM_LOG.open("rb") as log:
        log.seek(offset)
        text = log.read().decode("utf-8", "replace")
    return [line for line in text.splitlines() if line.strip() and not LOG_NOISE.search(line)]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The site as `python build.py` writes it, served by a plain file server on 127.0.0.1
    (ADJUTANT_SITE=<folder> serves a site built beforehand instead). Each worker of a parallel run
    (pytest-xdist) serves it on its own port, but it is built once per run (`built_once`)."""
    import build

    prebuilt = os.environ.get("ADJUTANT_SITE")
    root = Path(prebuilt).resolve() if prebuilt else built_once(tmp_path_factory)
    with build.serving(root) as url:
        yield Site(root, url)


def built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built by this run, its maps those of tests/drawn_maps.py (drawn once per run). The workers
    of a parallel run share it: the first to come builds it in their shared folder (tests/shared_folder.py) while
    holding a lock, the others wait, then take it.

    The compiled standard library and the snapshot are those of tests/built_runtime.py (made once per run;
    test_snapshot.py and test_compiled_stdlib.py check them). The maps are drawn in a thread of their own
    while they are made (Pyodide under Node, a process of its own), so the two take a core each; a worker
    that waits for another's build draws the maps that worker has not started meanwhile
    (`drawn_maps.draw_all`), which the build and the map tests need."""
    import adjutant_maps
    import built_runtime
    import drawn_maps

    import build

    shared = shared_folder()
    if shared is not None and (shared / "site" / "built").exists():
        return shared / "site" / "dist"
    boards = drawn_maps.boards()
    drawing = threading.Thread(target=drawn_maps.draw_all, args=(boards,), name="drawing the maps")
    drawing.start()

    def render(variant_id: str, shown: str | None = None) -> tuple[str, Any]:
        drawing.join()
        return drawn_maps.drawn(variant_id) if shown is None else drawn_maps.draw(variant_id, shown)

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(adjutant_maps, "render_variant", render)
            patch.setattr(build, "write_compiled_stdlib", lambda to: copied(built_runtime.compiled_stdlib(), to))
            patch.setattr(build, "write_snapshot", lambda _stdlib, to: copied(built_runtime.snapshot(), to))
            if shared is None:
                return build.build(tmp_path_factory.mktemp("site") / "dist")
            dist, done = shared / "site" / "dist", shared / "site" / "built"
            with (shared / "site.lock").open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not done.exists():
                    build.build(dist)
                    done.touch()
            return dist
    finally:
        drawing.join()


def copied(source: Path | None, target: Path) -> bool:
    """Whether there was a file `source` to copy to `target` (as build.py's writers say whether they wrote)."""
    if source is None:
        return False
    shutil.copyfile(source, target)
    return True


@dataclass
class Recorder:
    """What a browser context did: every request URL, page errors, console errors, CSP violations."""

    requests: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    pages: list[Any] = field(default_factory=list)
    crashed: list[Any] = field(default_factory=list)

    def watch(self, page: Any) -> Any:
        self.pages.append(page)
        page.on("crash", lambda crashed: self.crashed.append(crashed))
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.console_errors.append(message.text) if message.type == "error" else None,
        )
        return page

    def foreign_requests(self, site: Site) -> list[str]:
        """Requests to anywhere but the site (its origin, or its folder when opened from disk); data: and
        blob: URLs never touch the network."""
        allowed = (site.url, site.root.as_uri() + "/")
        return [url for url in self.requests if not url.startswith(allowed) and not re.match(r"(data|blob):", url)]


@pytest.fixture
def new_context(browser: Any, site: Site, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A factory of fresh browser contexts (a fresh browser profile each), all recorded."""
    contexts: list[tuple[Any, Recorder]] = []
    request.node.stash[LOG_START] = chromium_log_size()

    def make(**options: Any) -> tuple[Any, Recorder]:
        options.setdefault("viewport", {"width": 1280, "height": 800})
        options.setdefault("accept_downloads", True)
        context = browser.new_context(**options)
        recorder = Recorder()
        context.on("page", Openings.count_loads)
        context.on("request", lambda req: recorder.requests.append(req.url))
        context.on("page", recorder.watch)
        contexts.append((context, recorder))
        return context, recorder

    yield make
    try:
        if request.node.stash.get(FAILED, False):
            ARTIFACTS.mkdir(exist_ok=True)
            name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)
            for index, (_, recorder) in enumerate(contexts):
                for number, page in enumerate(recorder.pages):
                    if not page.is_closed() and page not in recorder.crashed:
                        page.screenshot(path=str(ARTIFACTS / f"{name}-{index}-{number}.png"), full_page=True)
        for _, recorder in contexts:
            assert recorder.foreign_requests(site) == [], "a request left the site's origin"
    finally:
        for context, _ in contexts:
            context.close()


@pytest.fixture
def app(new_context: Any, site: Site) -> tuple[Any, Recorder]:
    """A fresh context with the app open and ready."""
    context, recorder = new_context()
    return open_app(context, site.url), recorder

