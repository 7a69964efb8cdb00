"""The page releases the JavaScript proxies it makes for one action: a download's timer, the buttons
offered in a message, the passphrase dialog's entries. The page's debug hook (``window.adjutantApp()``)
says how many proxies it holds alive (adjutant_ui.proxies)."""

from __future__ import annotations

import json
from typing import Any

from app_driver import Site, open_app, open_new_cluster_dialog


def live_proxies(page: Any) -> int:
    return int(json.loads(page.evaluate("window.adjutantApp()"))["proxies"])


def test_proxies_made_for_one_action_are_released(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    # the idle rehearsal's step timers (adjutant_ui.app.App.rehearse) are released as it goes: once over
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    start = live_proxies(page)
    assert start > 0  # the page's own listeners, kept for its lifetime
    # three downloads: each one's timer (which frees the file's object URL) is released once it has run
    for _ in range(3):
        with page.expect_download():
            page.click("#download")
    page.wait_for_function("n => JSON.parse(window.adjutantApp()).proxies === n", arg=start, timeout=5_000)

    # the passphrase dialog, opened again and again, adds no listener per entry
    open_new_cluster_dialog(page)
    page.fill("#passphrase-gm", "a passphrase typed in")
    assert page.inner_text("#passphrase-gm-strength").startswith("Strength:")  # rated as it is typed
    page.click("#passphrase-cancel")
    opened_once = live_proxies(page)
    for _ in range(2):
        open_new_cluster_dialog(page)
        page.click("#passphrase-cancel")
    assert live_proxies(page) == opened_once == start

    # a message's own button (the unreadable autosave's download) is released with the message
    page.evaluate("localStorage.setItem('adjutant.autosave', 'standard.not-a-game')")
    page.close()
    page = open_app(context, site.url)  # a fresh tab opens the autosave
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    assert page.locator("#message .message-action").count() == 1
    with_button = live_proxies(page)
    page.click("#recent-open")  # nothing chosen: another message replaces the first
    assert "Choose a game" in page.inner_text("#message-text")
    assert page.locator("#message .message-action").count() == 0
    assert live_proxies(page) == with_button - 1
    assert recorder.page_errors == []
