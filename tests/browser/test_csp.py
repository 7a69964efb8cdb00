"""The page's Content-Security-Policy: no JavaScript from strings ('unsafe-eval'), and the page keeps to
it through a whole phase (docs/security.md)."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import Site, adjudicate, new_game, open_app
from test_play import click_map, phase

#: every violation of the policy the document sees, kept on the window (the console shows only some)
WATCH_VIOLATIONS = """
window.adjutantViolations = [];
document.addEventListener("securitypolicyviolation", e => window.adjutantViolations.push(
  e.effectiveDirective + " " + e.blockedURI + " at " + e.sourceFile + ":" + e.lineNumber));
"""


def policy(page: Any) -> dict[str, list[str]]:
    """The page's policy from its <meta>, as {directive: [sources]}."""
    text = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    directives = [part.split() for part in text.split(";") if part.strip()]
    return {words[0]: words[1:] for words in directives}


@pytest.mark.parametrize("path", ["index.html", "embed.html"])
def test_the_policy_runs_no_javascript_from_strings(new_context: Any, site: Site, path: str) -> None:
    context, recorder = new_context(service_workers="block")
    context.add_init_script(WATCH_VIOLATIONS)
    page = open_app(context, site.url + path)
    rules = policy(page)
    assert rules["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert "'unsafe-eval'" not in rules["default-src"]
    # Python is running under that policy, and nothing was refused on the way
    assert page.evaluate("window.adjutantViolations") == []
    assert recorder.page_errors == []


def test_a_phase_breaks_no_rule_of_the_policy(new_context: Any, site: Site) -> None:
    context, recorder = new_context(service_workers="block")
    context.add_init_script(WATCH_VIOLATIONS)
    page = open_app(context, site.url)
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    # orders by clicking (drawn on the map), the adjudication, its results drawn
    click_map(page, "par")
    click_map(page, "bur")
    assert page.locator("#map .adj-order.move").count() == 1
    adjudicate(page)
    assert phase(page) == "F1901M"
    assert page.locator("#map .adj-order.result").count() > 0
    # a step back through the history, and a new game of another variant
    page.click("#hist-first")
    assert phase(page) == "S1901M"
    page.once("dialog", lambda dialog: dialog.accept())
    new_game(page, "cline5")
    assert page.locator("#map .adj-unit").count() > 0
    assert page.evaluate("window.adjutantViolations") == []
    assert recorder.console_errors == []
    assert recorder.page_errors == []
