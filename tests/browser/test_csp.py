"""The page's Content-Security-Policy: no JavaScript from strings ('unsafe-eval'), no inline style but the
maps' own stylesheets by their hashes, and the page keeps to it through a whole phase (docs/security.md)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from app_driver import Site, adjudicate, click_map, new_game, open_app, phase

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


def computed(page: Any, selector: str, property_name: str) -> str:
    return str(page.locator(selector).first.evaluate(f"e => getComputedStyle(e).{property_name}"))


def rgb(hex_colour: str) -> str:
    red, green, blue = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


@pytest.mark.parametrize("path", ["index.html", "embed.html"])
def test_the_policy_runs_no_javascript_from_strings_nor_inline_style(new_context: Any, site: Site, path: str) -> None:
    context, recorder = new_context()
    context.add_init_script(WATCH_VIOLATIONS)
    page = open_app(context, site.url + path)
    rules = policy(page)
    assert rules["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert "'unsafe-eval'" not in rules["default-src"]
    styles = rules["style-src"]
    assert styles[0] == "'self'" and styles[1:] and all(source.startswith("'sha256-") for source in styles[1:])
    # Python is running under that policy, and nothing was refused on the way
    assert page.evaluate("window.adjutantViolations") == []
    assert recorder.page_errors == []


def test_the_maps_carry_no_style_attribute(site: Site) -> None:
    """The page puts a map into its document whole: a style attribute there would be refused."""
    maps = sorted((site.root / "maps").glob("*.svg"))
    assert maps
    for path in maps:
        styled = [element.get("id") or element.tag for element in ET.parse(path).iter() if "style" in element.attrib]
        assert styled == [], path.name


def test_a_phase_breaks_no_rule_of_the_policy(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    context.add_init_script(WATCH_VIOLATIONS)
    page = open_app(context, site.url)
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    # orders by clicking (drawn on the map), the adjudication, its results drawn
    click_map(page, "par")
    click_map(page, "bur")
    assert page.locator("#map .adj-order.move").count() == 1
    # colours from the map's own stylesheet (allowed by its hash) and from the board (set through CSSOM)
    assert computed(page, '#map [id="bur"]', "fill") == "rgb(239, 229, 201)"  # .land, adjutant_maps.svg
    france = page.locator("#map svg").evaluate("svg => JSON.parse(svg.dataset.powerColours).france")
    assert computed(page, "#map .adj-order.move line.adj-line:not(.adj-casing)", "stroke") == rgb(france)
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
