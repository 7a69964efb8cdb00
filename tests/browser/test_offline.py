"""Offline play: after one visit the service worker serves the whole site with the server gone, and a new
build replaces the old one whole once the page's notice is accepted.

Each test serves its own copy of the built site (so it can stop the server or change the build) and uses
a fresh browser context (a fresh profile: no service worker, no caches).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_driver import PYTHON_READY_TIMEOUT_MS, Site, adjudicate, open_app, reopen_app

import build


class Server:
    """A copy of the site served on 127.0.0.1 (a secure context, as service workers need) until stopped."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.httpd = build.site_server(root)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.thread.is_alive():
            self.httpd.shutdown()
            self.thread.join()
        self.httpd.server_close()


@pytest.fixture
def served(site: Site, tmp_path: Path) -> Iterator[Server]:
    root = tmp_path / "site"
    shutil.copytree(site.root, root)
    server = Server(root)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="allow")
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    context.requests = requests
    warnings: list[str] = []
    context.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    context.warnings = warnings
    try:
        yield context
    finally:
        context.close()


def wait_until_kept_offline(page: Any) -> None:
    """Wait until the service worker has the whole build in its cache and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PYTHON_READY_TIMEOUT_MS)


def cache_names(page: Any) -> list[str]:
    """The service worker's caches of the site's builds (not the page's unpacked snapshot)."""
    return sorted(name for name in page.evaluate("caches.keys()") if not name.startswith(build.SNAPSHOT_CACHE_PREFIX))


def snapshot_marks(page: Any) -> list[str]:
    """The marks the snapshot's worker reported: Read (its unpacked copy) or Fetched and Unpacked (the gzip)."""
    return page.evaluate(
        "performance.getEntriesByType('mark').map((m) => m.name)"
        ".filter((name) => name.startsWith('adjutant:snapshot') && !/Received|Kept/.test(name))"
    )


def test_after_one_visit_a_phase_plays_with_the_network_off(context: Any, served: Server) -> None:
    page = open_app(context, served.url)
    wait_until_kept_offline(page)
    assert page.locator("#update-notice").count() == 0
    served.stop()
    context.set_offline(True)

    page = reopen_app(page, served.url)
    assert page.evaluate("document.documentElement.dataset.phase") == "S1901M"
    # Python started from its snapshot, which the page's worker fetched through the service worker
    assert [text for text in context.warnings if "snapshot could not be used" in text] == []
    page.select_option("#orders-power", "france")
    page.fill("#orders-text", "A par - bur")
    page.click("#orders-apply")
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    adjudicate(page)
    assert page.evaluate("document.documentElement.dataset.phase") == "F1901M"
    assert "A Par - Bur" in page.inner_text("#results")
    assert page.locator('#map .adj-unit[data-location="bur"]').count() == 1

    # The read-only embed view of that game opens offline too.
    link = page.evaluate("location.hash")
    embed = context.new_page()
    embed.goto(served.url + "embed.html" + link)
    embed.wait_for_selector("html[data-python-ready]", state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
    assert embed.evaluate("document.documentElement.dataset.phase") == "F1901M"
    assert embed.locator('#map .adj-unit[data-location="bur"]').count() == 1
    assert all(url.startswith(served.url) or url.startswith(("data:", "blob:")) for url in context.requests)


def test_a_new_build_replaces_the_old_one_when_the_page_says_so(context: Any, served: Server) -> None:
    page = open_app(context, served.url)
    wait_until_kept_offline(page)
    [old_cache] = cache_names(page)

    # A new build deployed into the same folder: one file changes, and with it the worker's manifest.
    stylesheet = served.root / "web" / "app.css"
    stylesheet.write_text(stylesheet.read_text(encoding="utf-8") + "\n.new-build-mark { color: red; }\n")
    build.write_service_worker(served.root)

    page = reopen_app(page, served.url)
    notice = page.locator("#update-notice")
    notice.wait_for(state="visible", timeout=PYTHON_READY_TIMEOUT_MS)
    assert "new version" in notice.inner_text()
    # Until the user says so, the page runs on the old build alone.
    assert ".new-build-mark" not in page.evaluate("fetch('web/app.css').then(r => r.text())")
    assert old_cache in cache_names(page)

    with page.expect_navigation():
        page.click("#update-reload")
    page.wait_for_selector("html[data-python-ready]", state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
    [new_cache] = cache_names(page)
    assert new_cache != old_cache
    assert ".new-build-mark" in page.evaluate("fetch('web/app.css').then(r => r.text())")
    assert page.locator("#update-notice").count() == 0


def snapshot_caches(page: Any) -> list[str]:
    return sorted(name for name in page.evaluate("caches.keys()") if name.startswith(build.SNAPSHOT_CACHE_PREFIX))


def test_the_first_visit_keeps_the_snapshot_unpacked_for_the_next(context: Any, served: Server) -> None:
    # A copy kept by a visit to another build of the site, before this one was deployed.
    page = context.new_page()
    page.goto(served.url + "variants.json")
    stale = build.SNAPSHOT_CACHE_PREFIX + "0" * 16
    page.evaluate("(name) => caches.open(name).then((cache) => cache.put('stale', new Response('old')))", stale)

    page = open_app(context, served.url)
    assert snapshot_marks(page) == ["adjutant:snapshotAsked", "adjutant:snapshotFetched", "adjutant:snapshotUnpacked"]
    # Once Python is ready, the first visit writes its unpacked bytes, whether or not the service
    # worker has taken over yet, and deletes the other build's copy; the service worker keeps it.
    page.wait_for_function(
        "() => performance.getEntriesByName('adjutant:snapshotKept').length === 1", timeout=PYTHON_READY_TIMEOUT_MS
    )
    wait_until_kept_offline(page)
    [kept] = snapshot_caches(page)
    assert kept != stale

    context.requests.clear()
    page = reopen_app(page, served.url)
    assert snapshot_marks(page) == ["adjutant:snapshotAsked", "adjutant:snapshotRead"]
    assert [url for url in context.requests if url.endswith(build.SNAPSHOT_NAME)] == []
    assert [text for text in context.warnings if "snapshot could not be used" in text] == []
    assert snapshot_caches(page) == [kept]
    page.select_option("#orders-power", "france")
    page.fill("#orders-text", "A par - bur")
    page.click("#orders-apply")
    adjudicate(page)
    assert page.evaluate("document.documentElement.dataset.phase") == "F1901M"
