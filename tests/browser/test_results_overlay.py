"""After adjudicating, the new position is shown with the phase's results drawn on it: moves that
succeeded and failed, where a dislodged unit may retreat, centres that changed hands; a past phase shows
its own orders with their results."""

from __future__ import annotations

from typing import Any

from app_driver import adjudicate
from test_play import enter_text, phase


def test_the_new_position_shows_the_last_phases_results(app: tuple[Any, Any]) -> None:
    page, recorder = app
    assert page.locator("#map .adj-results .adj-order").count() == 0
    assert not page.locator("#results-key").is_visible()
    enter_text(page, "France: A par - bur\nF bre - pic\nGermany: A mun - bur\nAustria: A vie - tyr")
    adjudicate(page)
    assert phase(page) == "F1901M"
    results = "#map .adj-results .adj-order"
    assert page.locator(f"{results}.move.failed").count() == 2  # Paris and Munich bounce in Burgundy
    assert page.locator(f"{results}.move.succeeded").count() == 2
    assert page.locator("#results-key").is_visible()
    # the results are drawn beside the new orders, and can be hidden
    page.uncheck("#show-results")
    assert page.locator(results).count() == 0
    page.check("#show-results")
    assert page.locator(results).count() == 4

    # A unit dislodged: where it may retreat is drawn; after the retreat, the centres that changed hands.
    enter_text(page, "France: F pic - bel\nAustria: A tyr - ven\nF tri S A tyr - ven")
    adjudicate(page)
    assert phase(page) == "F1901R"
    options = page.eval_on_selector_all(
        "#map .adj-retreat-option", "els => els.map(e => e.dataset.from + '>' + e.dataset.to).sort()")
    assert options == ["ven>apu", "ven>pie", "ven>tus"]
    enter_text(page, "Italy: A ven - pie")
    adjudicate(page)
    assert phase(page) == "W1901A"
    changed = page.eval_on_selector_all("#map .adj-centre-changed", "els => els.map(e => e.dataset.province).sort()")
    assert changed == ["bel", "ven"]

    # A past phase: its own orders with their results, not the overlay of the phase before it.
    page.click("#hist-first")
    assert phase(page) == "S1901M"
    assert page.locator(results).count() == 0
    assert page.locator("#map .adj-orders .adj-order.move.failed").count() == 2
    assert recorder.page_errors == []
