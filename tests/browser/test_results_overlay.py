"""After adjudicating, the new position is shown with the phase's results drawn on it: moves that
succeeded and failed, bounces and stand-offs, cut supports, units dislodged and where they may retreat,
centres that changed hands, the builds and removals due; every past position is shown the same way,
and the results are also listed as text."""

from __future__ import annotations

import os
from typing import Any

from adjutant import pieces
from app_driver import Site, adjudicate
from test_accessibility import serious_violations
from test_play import enter_text, phase

RESULTS = "#map .adj-results .adj-order"


def _attrs(page: Any, selector: str, script: str) -> list[str]:
    return sorted(page.eval_on_selector_all(selector, f"els => els.map(e => {script})"))


def _summary(page: Any) -> list[str]:
    return [str(t) for t in page.eval_on_selector_all("#results-summary li", "els => els.map(e => e.textContent)")]


def _shot(page: Any, name: str) -> None:
    """A screenshot of the map to look at (ADJUTANT_SHOTS=<folder>); nothing is asserted on it."""
    folder = os.environ.get("ADJUTANT_SHOTS")
    if folder:
        page.locator("#map").screenshot(path=os.path.join(folder, f"{name}.png"))


def _drawn_as_the_map_placed_them(page: Any) -> None:
    """The units are drawn with the sizes (adjutant.pieces) the map's placement keeps clear of names, centre
    dots and one another: the army that took Venice at its unit point, the dislodged one moved by the
    dislodged offset, and a fleet's box."""
    x, y = (float(c) for c in page.get_attribute('#map [id="ven"]', "data-unit").split(","))
    armies = page.eval_on_selector_all(
        '#map .adj-unit[data-location="ven"] circle.adj-unit-body',
        "els => els.map(e => [e.closest('.adj-unit').classList.contains('dislodged'), +e.getAttribute('cx'),"
        " +e.getAttribute('cy'), +e.getAttribute('r')])",
    )
    dx, dy = pieces.DISLODGED_OFFSET
    assert sorted(armies) == [[False, x, y, pieces.ARMY_RADIUS], [True, x + dx, y + dy, pieces.ARMY_RADIUS]]
    fleet = page.eval_on_selector('#map .adj-unit[data-location="tri"] rect.adj-unit-body',
                                  "e => [+e.getAttribute('width'), +e.getAttribute('height')]")
    assert tuple(fleet) == pieces.FLEET_SIZE


def test_the_new_position_shows_the_last_phases_results(app: tuple[Any, Any], site: Site) -> None:
    page, recorder = app
    assert page.locator(RESULTS).count() == 0
    assert not page.locator("#results-key").is_visible()
    enter_text(page, "France: A par - bur\nF bre - pic\nGermany: A mun - bur\nAustria: A vie - tyr\n"
               "Russia: A war - gal\nTurkey: A con - bul")
    adjudicate(page)
    assert phase(page) == "F1901M"
    assert page.locator(f"{RESULTS}.move.failed").count() == 2  # Paris and Munich bounce in Burgundy
    assert page.locator(f"{RESULTS}.move.succeeded").count() == 4
    # a bounce: a bar across each bounced arrow, and a stand-off mark in Burgundy
    assert _attrs(page, f"{RESULTS}.bounced", "e.querySelector('.adj-bounce') ? 'bar' : 'none'") == ["bar", "bar"]
    assert _attrs(page, "#map .adj-standoff", "e.dataset.province") == ["bur"]
    assert "Stand-off in Burgundy" in page.text_content("#map .adj-standoff title")
    assert page.locator("#results-key").is_visible()
    assert "Stand-off in Burgundy (Munich, Paris)." in _summary(page)
    _shot(page, "1-bounce")
    # the results are drawn beside the new orders, and can be hidden
    page.uncheck("#show-results")
    assert page.locator(RESULTS).count() == 0
    assert page.locator("#map .adj-standoff").count() == 0
    page.check("#show-results")
    assert page.locator(RESULTS).count() == 6

    # A support cut, and a unit dislodged: where it stood is marked, where it may retreat is drawn.
    enter_text(page, "France: F pic - bel\nAustria: A tyr - ven\nF tri S A tyr - ven\nA bud S F tri\n"
               "Russia: A gal - bud\nTurkey: A bul - ser")
    adjudicate(page)
    assert phase(page) == "F1901R"
    cut = page.locator(f"{RESULTS}.support.cut")
    assert cut.count() == 1 and cut.locator(".adj-cut").count() == 1
    assert "cut by A gal" in page.text_content(f"{RESULTS}.support.cut title")
    assert page.locator(f"{RESULTS}.support.succeeded .adj-cut").count() == 0  # F Tri's support held
    assert _attrs(page, "#map .adj-dislodged-mark", "e.dataset.location") == ["ven"]
    assert _attrs(page, "#map .adj-unit.dislodged", "e.dataset.location") == ["ven"]
    _drawn_as_the_map_placed_them(page)
    options = _attrs(page, "#map .adj-retreat-option", "e.dataset.from + '>' + e.dataset.to")
    assert options == ["ven>apu", "ven>pie", "ven>tus"]
    assert ("The unit in Venice was dislodged by A tyr; may retreat to Apulia, Piedmont, Tuscany."
            in _summary(page))
    _shot(page, "2-cut-dislodged")

    # After the retreat: the centres that changed hands, and the builds and removals due.
    enter_text(page, "Italy: A ven - pie")
    adjudicate(page)
    assert phase(page) == "W1901A"
    changed = _attrs(page, "#map .adj-centre-changed", "e.dataset.province")
    assert changed == ["bel", "ser", "ven"]
    due = _attrs(page, "#map .adj-adjustment", "e.dataset.power + ' ' + e.querySelector('text').textContent")
    assert due == ["austria +1", "france +1", "italy \u22121", "turkey +1"]
    sites = _attrs(page, "#map .adj-build-site", "e.dataset.power + ' ' + e.dataset.province")
    assert sites == ["austria vie", "france bre", "turkey con"]  # the empty home centres each may build in
    assert "France builds 1 (may build in Brest)." in _summary(page)
    # a power chosen for orders: only its build places are ringed
    page.select_option("#orders-power", "turkey")
    assert _attrs(page, "#map .adj-build-site", "e.dataset.province") == ["con"]
    page.select_option("#orders-power", "")
    assert page.locator("#map .adj-build-site").count() == 3
    assert "Italy removes 1." in _summary(page)
    _shot(page, "3-adjustments")
    # the results as text, for screen readers: opened from the keyboard; axe finds nothing serious
    page.focus("#results-key summary")
    page.keyboard.press("Enter")
    assert page.locator("#results-summary li").first.is_visible()
    assert serious_violations(page, site) == []
    assert recorder.page_errors == []


def test_past_positions_are_shown_with_the_results_that_made_them(app: tuple[Any, Any]) -> None:
    page, recorder = app
    enter_text(page, "France: A par - bur\nGermany: A mun - bur\nAustria: A vie - tyr")
    adjudicate(page)
    enter_text(page, "Austria: A tyr - ven\nF tri S A tyr - ven")
    adjudicate(page)
    assert phase(page) == "F1901R"

    # the game's first position: no results before it
    page.click("#hist-first")
    assert phase(page) == "S1901M"
    assert page.locator("#map .adj-order").count() == 0
    assert not page.locator("#results-key").is_visible()
    # one step on: the position after spring, with spring's results drawn (the bounce in Burgundy)
    page.click("#hist-next")
    assert phase(page) == "F1901M"
    assert page.locator(f"{RESULTS}.move.bounced").count() == 2
    assert _attrs(page, "#map .adj-standoff", "e.dataset.province") == ["bur"]
    assert page.locator("#map .adj-orders .adj-order").count() == 0  # fall's orders show one step on
    assert "Results for Spring 1901 movement" in page.text_content("#results")
    assert page.inner_text("#results-of").startswith("Results of Spring 1901 movement")
    # and on again: the current position, fall's results with the dislodged Venetian army
    page.click("#hist-next")
    assert phase(page) == "F1901R"
    assert _attrs(page, "#map .adj-dislodged-mark", "e.dataset.location") == ["ven"]
    assert page.locator("#map .adj-standoff").count() == 0
    assert recorder.page_errors == []
