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
import json
import os
import re
import shutil
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from app_driver import Openings, Site, new_game, open_app
from browser_warnings import SharedPageRenewed
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
    (`drawn_maps.draw_all`), which the build and the map tests need. The build draws in this process
    (`map_processes=1`), where `render_variant` is replaced by the drawn maps."""
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
                return build.build(tmp_path_factory.mktemp("site") / "dist", map_processes=1)
            dist, done = shared / "site" / "dist", shared / "site" / "built"
            with (shared / "site.lock").open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not done.exists():
                    build.build(dist, map_processes=1)
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
        page.on("crash", self.on_crash)
        page.on("pageerror", self.on_page_error)
        page.on("console", self.on_console)
        return page

    def unwatch(self, page: Any) -> None:
        """Stop recording what ``page`` does (a page shared by the tests of a file outlives each test's record)."""
        page.remove_listener("crash", self.on_crash)
        page.remove_listener("pageerror", self.on_page_error)
        page.remove_listener("console", self.on_console)

    # (Playwright takes Python callables it can remove again, not built-in methods such as list.append)
    def on_crash(self, page: Any) -> None:
        self.crashed.append(page)

    def on_page_error(self, error: Any) -> None:
        self.page_errors.append(str(error))

    def on_console(self, message: Any) -> None:
        if message.type == "error":
            self.console_errors.append(message.text)

    def on_request(self, request: Any) -> None:
        self.requests.append(request.url)

    def foreign_requests(self, site: Site) -> list[str]:
        """Requests to anywhere but the site (its origin, or its folder when opened from disk); data: and
        blob: URLs never touch the network."""
        allowed = (site.url, site.root.as_uri() + "/")
        return [url for url in self.requests if not url.startswith(allowed) and not re.match(r"(data|blob):", url)]


def screenshots(test: pytest.Item, recorder: Recorder, which: str) -> None:
    """A screenshot of each page ``recorder`` watched that is still open, in test-artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", test.nodeid)
    for number, page in enumerate(recorder.pages):
        if not page.is_closed() and page not in recorder.crashed:
            page.screenshot(path=str(ARTIFACTS / f"{name}-{which}-{number}.png"), full_page=True)


@pytest.fixture
def new_context(browser: Any, site: Site, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A factory of fresh browser contexts (a fresh browser profile each), all recorded."""
    contexts: list[tuple[Any, Recorder]] = []
    request.node.stash[LOG_START] = chromium_log_size()

    def make(**options: Any) -> tuple[Any, Recorder]:
        options.setdefault("viewport", {"width": 1280, "height": 800})
        options.setdefault("accept_downloads", True)
        # Without the service worker, which would fetch the whole site (Pyodide's 13 MB) into a fresh
        # profile's cache at each opening; the tests of what it does, and a newcomer's first games, allow it.
        options.setdefault("service_workers", "block")
        context = browser.new_context(**options)
        recorder = Recorder()
        context.on("page", Openings.count_loads)
        context.on("request", recorder.on_request)
        context.on("page", recorder.watch)
        contexts.append((context, recorder))
        return context, recorder

    yield make
    try:
        if request.node.stash.get(FAILED, False):
            for index, (_, recorder) in enumerate(contexts):
                screenshots(request.node, recorder, str(index))
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



#: What a test may count on in a page just opened in a fresh browser: a new Standard sandbox game at its first phase
#: (its link in the address bar or none yet; the game itself is the phase and its orders), no order, the focus on no
#: control, the map's Tab stop, the folding sections as they start, the whole map shown, no message, no dialog, the
#: header's controls as they start. A page shared by the tests of a file must show the same before each test
#: (`shared_app`).
FRESH_STATE = r"""() => {
  const html = document.documentElement, value = id => document.getElementById(id).value;
  const svg = document.querySelector('#map svg');
  return JSON.stringify({
    ready: html.hasAttribute('data-python-ready'), phase: html.dataset.phase,
    hash: location.hash.replace(/^#standard\.[\w-]+$/, ''), focus: document.activeElement === document.body,
    path: location.pathname + location.search, variant: document.getElementById('map').dataset.variant,
    message: document.getElementById('message').hidden, dialogs: document.querySelectorAll('dialog[open]').length,
    inert: document.querySelectorAll('[inert]').length, orders: document.getElementById('order-list').textContent,
    selected: document.querySelectorAll('#map .selected, #map [aria-pressed="true"]').length,
    controls: ['variant-select', 'game-kind', 'orders-power', 'orders-text'].map(value),
    errors: document.getElementById('orders-errors').textContent, scroll: [scrollX, scrollY],
    view: svg && svg.getAttribute('viewBox').trim().split(/[\s,]+/).map(Number),
    stops: [...document.querySelectorAll('#map [tabindex="0"]')].map(e => e.getAttribute('data-location') || e.id),
    details: [...document.querySelectorAll('details')].map(e => e.open),
  });
}"""



@dataclass
class SharedPage:
    """The browser context and page the tests of one file share (`shared_app`), and what the page showed
    when it was first opened in that fresh context (`FRESH_STATE`)."""

    options: dict[str, Any] = field(default_factory=dict)
    context: Any = None
    page: Any = None
    fresh: str = ""

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
        self.context = self.page = None

    def open(self, browser: Any, url: str) -> Any:
        """A fresh context with the app open in it, the fresh state it shows noted."""
        self.close()
        self.context = browser.new_context(**{"viewport": {"width": 1280, "height": 800}, "accept_downloads": True,
                                              "service_workers": "block", **self.options})
        self.context.on("page", Openings.count_loads)
        self.page = open_app(self.context, url)
        self.fresh = str(self.page.evaluate(FRESH_STATE))
        return self.page

    def reset(self, browser: Any, url: str) -> Any:
        """The shared page brought to the fresh state by the app's own New game (a Standard sandbox game, chosen in the
        header, its question whether to replace a game not saved in this browser answered yes; the order box emptied,
        the focus taken off the button), after Escape has closed any dialog, the page is scrolled to its top, the
        map's Whole map button has shown the whole map and the other pages of the context are closed; a fresh context
        when the page is gone or the state is not reached within 15 s."""
        from playwright.sync_api import Error as PlaywrightError

        if self.context is None:
            return self.open(browser, url)
        pages = [page for page in self.context.pages if not page.is_closed()]
        if not pages:
            return self.open(browser, url)
        self.page = pages[-1]
        for other in pages[:-1]:
            other.close()
        page = self.page
        try:
            page.bring_to_front()
            page.keyboard.press("Escape")
            page.keyboard.press("Escape")
            if page.locator("#zoom-reset").is_visible():
                page.click("#zoom-reset", timeout=5_000)
            page.select_option("#game-kind", "sandbox", timeout=5_000)
            self._details_as_fresh(page)
            page.on("dialog", _replace_it)
            try:
                new_game(page, "standard")
            finally:
                page.remove_listener("dialog", _replace_it)
            page.fill("#orders-text", "", timeout=5_000)  # (the order box keeps a draft across games)
            # (the focus taken off the button, as a click on no control does, and the page scrolled back to
            # its top, until the state is reached)
            page.wait_for_function(
                "fresh => { document.activeElement.blur(); scrollTo(0, 0); return (" + FRESH_STATE + ")() === fresh; }",
                arg=self.fresh, timeout=15_000)
        except PlaywrightError as error:
            try:
                now = json.loads(str(page.evaluate(FRESH_STATE)))
                fresh = json.loads(self.fresh)
                why = ", ".join(f"{key}: {now[key]!r} (fresh: {fresh[key]!r})" for key in fresh
                                if now[key] != fresh[key])
            except PlaywrightError:
                why = str(error).splitlines()[0]
            warnings.warn(SharedPageRenewed(f"the shared page was not brought back ({why[:300]}): a fresh one"),
                          stacklevel=2)
            return self.open(browser, url)
        return page


    def _details_as_fresh(self, page: Any) -> None:
        """Each folding section (<details>) opened or closed as a fresh page has it, with a click on its
        summary as a player would, before the new game (which keeps them as they are, and may hide one)."""
        fresh = json.loads(self.fresh)["details"]
        now = json.loads(str(page.evaluate(FRESH_STATE)))["details"]
        for index, (was, is_open) in enumerate(zip(fresh, now, strict=False)):
            if was != is_open:
                page.locator("details").nth(index).locator("summary").first.click(timeout=5_000)


def _replace_it(dialog: Any) -> None:
    """The player's yes when New game asks whether to replace a game that is not saved in this browser
    (a Cluster game opened from a file, say)."""
    dialog.accept()


@pytest.fixture(scope="module")
def _shared_pages() -> Iterator[dict[str, SharedPage]]:
    """The pages the tests of one file share, one for each set of context options asked for."""
    shared: dict[str, SharedPage] = {}
    yield shared
    for page in shared.values():
        page.close()


@pytest.fixture
def shared_page(_shared_pages: dict[str, SharedPage], browser: Any, site: Site, request: pytest.FixtureRequest
                ) -> Iterator[Any]:
    """A factory of `shared_app` pages with context options of their own (a phone's viewport and touch
    screen, say): ``shared_page(**options)`` is the page the tests of this file that ask for these
    options share, and the record of what it does during this test."""
    request.node.stash[LOG_START] = chromium_log_size()
    taken: list[tuple[SharedPage, Any, Recorder]] = []

    def take(**options: Any) -> tuple[Any, Recorder]:
        shared = _shared_pages.setdefault(repr(sorted(options.items())), SharedPage(options))
        page = shared.reset(browser, site.url)
        recorder = Recorder()
        recorder.watch(page)
        shared.context.on("request", recorder.on_request)
        shared.context.on("page", recorder.watch)
        taken.append((shared, shared.context, recorder))
        return page, recorder

    yield take
    failed = request.node.stash.get(FAILED, False)
    try:
        for index, (_, _, recorder) in enumerate(taken):
            if failed:
                screenshots(request.node, recorder, f"shared{index}")
        for _, _, recorder in taken:
            assert recorder.foreign_requests(site) == [], "a request left the site's origin"
    finally:
        for shared, context, recorder in taken:
            if failed:  # (the next test starts in a fresh context)
                shared.close()
            elif shared.context is context:
                context.remove_listener("request", recorder.on_request)
                context.remove_listener("page", recorder.watch)
                for watched in recorder.pages:
                    if not watched.is_closed():
                        recorder.unwatch(watched)


@pytest.fixture
def shared_app(shared_page: Any) -> tuple[Any, Recorder]:
    """As `app`, the app open and ready in a page that shows what a page just opened in a fresh browser
    shows (`FRESH_STATE`), and a record of what it does during this test alone; but the page is the one
    the tests of this file share, brought back by the app's own New game (`SharedPage.reset`), which
    saves opening the page, most of a browser test's time. For a test that does not depend on a fresh
    browser profile: the context's storage (autosaves, Recent games, settings) and service worker are
    those the file's earlier tests left. A failed test's screenshots are taken, and the next test starts
    in a fresh context."""
    page, recorder = shared_page()
    return page, recorder
