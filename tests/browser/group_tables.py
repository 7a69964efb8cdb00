"""Browsers that the tests of one group-game file share: the game master's and the players' devices,
each a browser context of its own (its own storage, its own keys), opened once per file instead of once
per test (opening the page is most of a browser test's time: docs/performance.md, "Tests and CI time").

A test asks for a device by name (:meth:`Devices.page`, :meth:`Devices.new_game`). The first time, a fresh
context is made with the options given and the app opened in it. After that the same page is brought to a
known fresh state through the app's own ways, as a user would: a link opened in it (the address bar's
fragment changed: the app reads a link opened later), or a new game started with the header's controls.
The state reached is checked (:data:`SETTLED`); a device that does not reach it, whose page crashed, that a
failed test used, or asked for with other options, is closed and replaced by a fresh one, so that a
failure never makes the next test fail for no reason of its own. A failed test leaves a screenshot of each
shared page it used in test-artifacts/ (as conftest.py's ``new_context`` does for its own contexts), and
every test checks that no request of a shared device left the site's origin.

Tests that check a reload, storage or a fresh profile keep contexts of their own (``new_context``).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from app_driver import READ_SINCE, Site, links_read, new_game, open_app
from browser_warnings import DeviceReplaced

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

#: The page has read the link in its address bar (``fragment``, or any once a new game is made) and shows
#: its game, ready for orders: Python ready, the table not inert.
SHOWN = """fragment => document.documentElement.hasAttribute('data-python-ready')
    && (fragment === null || location.hash === '#' + fragment)
    && !document.querySelector('main.table').inert"""
#: As SHOWN, and nothing else on screen: no dialog open, no message shown.
SETTLED = f"""fragment => ({SHOWN})(fragment)
    && !document.querySelector('dialog[open]')
    && document.getElementById('message').hidden"""



@dataclass
class Device:
    """A browser context of a device the tests share, its page, and what it did during the current test."""

    context: Any
    options: dict[str, Any]
    page: Any | None = None
    requests: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    pages: list[Any] = field(default_factory=list)

    def watch(self, page: Any) -> None:
        self.pages.append(page)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))

    def usable(self) -> bool:
        return self.page is not None and not self.page.is_closed()


class Devices:
    """The devices of one test file (see the module's docstring)."""

    def __init__(self, browser: Any, site: Site) -> None:
        self.browser = browser
        self.site = site
        self.devices: dict[str, Device] = {}
        self.used: dict[str, Device] = {}
        #: the devices replaced because they did not reach the state asked for
        self.replaced: list[str] = []

    def device(self, name: str, **options: Any) -> Device:
        """Device ``name``'s context, made with ``options`` (a fresh one if it was made with others)."""
        options.setdefault("viewport", {"width": 1280, "height": 800})
        options.setdefault("accept_downloads", True)
        options.setdefault("service_workers", "block")  # as new_context's (tests/browser/conftest.py)
        device = self.devices.get(name)
        if device is not None and device.options != options:
            self.discard(name)
            device = None
        if device is None:
            device = Device(self.browser.new_context(**options), options)
            device.context.on("request", lambda request: device.requests.append(request.url))
            device.context.on("page", device.watch)
            self.devices[name] = device
        self.used[name] = device
        return device

    def page(self, name: str, url: str, **options: Any) -> Any:
        """The app at ``url`` (the site's address and a link's fragment) on device ``name``: opened there
        the first time, else the link opened in the page already open, which is checked to show it (and
        replaced by a fresh device if it does not)."""
        device = self.device(name, **options)
        if device.usable():
            fragment = url.split("#", 1)[1] if "#" in url else ""
            if fragment and self.settles(device.page, lambda page: opened(page, fragment), fragment, read=True):
                return device.page
            self.replace(name)
            device = self.device(name, **options)
        device.page = open_app(device.context, url)
        return device.page

    def new_game(self, name: str, **options: Any) -> Any:
        """Device ``name``'s page showing a new Sandbox game of Standard, made with the header's controls
        (the page opened at the site's address the first time: a new Standard game too)."""
        device = self.device(name, **options)
        if device.usable():

            def start(page: Any) -> None:
                if page.locator("#message-close").is_visible():
                    page.click("#message-close")
                if page.locator("#more-tools").is_visible():  # (a player's page folds New game)
                    page.click("#more-tools")
                page.select_option("#game-kind", "sandbox")
                before = str(page.evaluate("location.hash"))
                new_game(page, "standard")
                page.wait_for_function(
                    "before => location.hash !== before && location.hash.startsWith('#standard.')"
                    " && document.documentElement.dataset.phase === 'S1901M'",
                    arg=before,
                    timeout=20_000,
                )
                assert not page.locator("#more-tools").is_visible()
                # the keyboard at the page's top, where a page just opened has it (the next Tab goes to the
                # header's first control)
                page.focus("#brand")

            if self.settles(device.page, start, None):
                return device.page
            self.replace(name)
            device = self.device(name, **options)
        device.page = open_app(device.context, self.site.url)
        return device.page

    def settles(self, page: Any, action: Any, fragment: str | None, read: bool = False) -> bool:
        """Whether ``page`` reaches the state of a link read (:data:`SETTLED`) after ``action``; with
        ``read``, once the page has read the link ``action`` opened (the address bar shows it at once)."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            before = links_read(page) if read else -1
            action(page)
            page.wait_for_function(
                f"([fragment, before]) => ({READ_SINCE})(before) && ({SETTLED})(fragment)",
                arg=[fragment, before], timeout=20_000)
        except (PlaywrightError, AssertionError):
            return False
        return True

    def replace(self, name: str) -> None:
        """Device ``name`` did not reach the state asked for: closed, to be opened afresh (and said, in the
        run's warnings summary)."""
        self.replaced.append(name)
        warnings.warn(DeviceReplaced(f"the shared device {name!r} did not reach a fresh state: opened afresh"),
                      stacklevel=3)
        self.discard(name)

    def discard(self, name: str) -> None:
        device = self.devices.pop(name, None)
        self.used.pop(name, None)
        if device is not None:
            device.context.close()

    def page_errors(self, name: str) -> list[str]:
        """The errors device ``name``'s pages raised during this test."""
        return self.devices[name].page_errors

    def end_test(self, failed: bool, nodeid: str) -> None:
        """After each test: the screenshots of a failed test's pages (whose devices are then replaced), and
        the check that no request left the site; what the next test records starts empty."""
        try:
            if failed:
                ARTIFACTS.mkdir(exist_ok=True)
                test = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid)
                for name, device in self.used.items():
                    for number, page in enumerate(device.pages):
                        if not page.is_closed():
                            page.screenshot(path=str(ARTIFACTS / f"{test}-{name}-{number}.png"), full_page=True)
            allowed = (self.site.url, self.site.root.as_uri() + "/")
            foreign = [
                url
                for device in self.used.values()
                for url in device.requests
                if not url.startswith(allowed) and not re.match(r"(data|blob):", url)
            ]
            assert foreign == [], "a request left the site's origin"
        finally:
            for name in list(self.used):
                if failed:
                    self.discard(name)
                else:
                    device = self.devices[name]
                    device.requests.clear()
                    device.page_errors.clear()
                    device.pages[:] = [page for page in device.pages if not page.is_closed()]
            self.used.clear()

    def close(self) -> None:
        for name in list(self.devices):
            self.discard(name)


def open_link(page: Any, url: str) -> Any:
    """The link ``url`` (the site's address and a fragment) opened in ``page``'s tab, as a user pastes it
    into the address bar of a tab already open (the app reads it: no new load): ``page``, once it shows it."""
    fragment = url.split("#", 1)[1]
    before = links_read(page)
    opened(page, fragment)
    page.wait_for_function(
        f"([fragment, before]) => ({READ_SINCE})(before) && ({SHOWN})(fragment)", arg=[fragment, before],
        timeout=20_000)
    return page


def opened(page: Any, fragment: str) -> None:
    """A link opened in ``page``'s tab: the message of what was shown before dismissed, and the link's
    fragment put in the address bar."""
    if page.locator("#message-close").is_visible():
        page.click("#message-close")
    page.evaluate("h => { location.hash = h; }", fragment)


#: whether a test's call failed, on its item
CALL_FAILED = pytest.StashKey[bool]()


class Outcomes:
    """Notes on each test whether its call failed, for :func:`devices` to read when the test ends (its
    teardown runs before pytest-rerunfailures reports the test, so the session's count of failures is not
    up to date then)."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        report = yield
        if report.when == "call":
            item.stash[CALL_FAILED] = report.failed
        return report


OUTCOMES = Outcomes()


@pytest.fixture(scope="module")
def shared_devices(browser: Any, site: Site, request: pytest.FixtureRequest) -> Iterator[Devices]:
    if not request.config.pluginmanager.is_registered(OUTCOMES):
        request.config.pluginmanager.register(OUTCOMES)
    devices = Devices(browser, site)
    yield devices
    devices.close()


@pytest.fixture
def devices(shared_devices: Devices, new_context: Any, request: pytest.FixtureRequest) -> Iterator[Devices]:
    """The file's shared devices, for one test (``new_context`` too: it notes where Chromium's log stood
    when the test began, which a failed test's report shows)."""
    yield shared_devices
    shared_devices.end_test(request.node.stash.get(CALL_FAILED, False), request.node.nodeid)
