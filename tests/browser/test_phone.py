"""A phone (390 x 844 CSS px): the header takes less than a third of the screen, the map, the selected
unit's choices and the order list are on screen together, and every control is at least 24 px each way."""

from __future__ import annotations

from typing import Any

import pytest
from app_driver import (
    PHONE,
    PHONE_HEIGHT,
    Site,
    adjudicate,
    box,
    finger_tap,
    on_screen,
    open_app,
    open_new_cluster_dialog,
    serious_violations,
    small_controls,
)


def tap_unit(page: Any, location: str) -> None:
    finger_tap(page, page.locator(f'#map .adj-unit[data-location="{location}"]'))


@pytest.fixture
def phone(shared_page: Any) -> tuple[Any, Any]:
    """The app on a phone (its viewport, a touch screen): a page the phone tests of this file share."""
    page, recorder = shared_page(viewport=PHONE["viewport"], has_touch=True, is_mobile=True)
    return page, recorder


def test_a_phone_shows_map_choices_and_orders_together(phone: tuple[Any, Any]) -> None:
    page, recorder = phone
    assert box(page, "header.topbar")["height"] < PHONE_HEIGHT / 3
    tap_unit(page, "par")
    page.locator('#map [id="bur"]').dispatch_event("click")
    tap_unit(page, "mar")
    page.evaluate("window.scrollTo(0, 0)")
    on_screen(page, ("#map svg", "#click-order", "#order-list"))
    assert "A Marseilles" in page.inner_text("#click-prompt")
    assert page.locator("[data-action=support]").is_visible()
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    assert small_controls(page) == []
    assert recorder.page_errors == []


def test_a_phone_moves_a_unit_where_its_own_unit_leaves_by_taps_alone(phone: tuple[Any, Any]) -> None:
    """A tap on another of the power's units selects it; where that unit stands next to the one tapped
    before, its choices offer the move, on screen with the map, so A Vie - Bud and A Bud - Ser are taps."""
    page, recorder = phone
    tap_unit(page, "vie")
    tap_unit(page, "bud")
    assert "A Budapest" in page.inner_text("#click-prompt")
    offer = page.locator("[data-action=move-instead]")
    assert offer.inner_text() == "Move A Vienna to Budapest instead"
    on_screen(page, ("#map svg", "[data-action=move-instead]"))
    assert small_controls(page) == []
    offer.tap()
    assert "AUS: A Vie - Bud" in page.inner_text("#order-list")
    assert page.locator("#map .adj-unit.selected").count() == 0
    tap_unit(page, "bud")
    finger_tap(page, page.locator('#map [id="ser"]'))
    listing = page.inner_text("#order-list")
    assert "AUS: A Vie - Bud" in listing and "AUS: A Bud - Ser" in listing
    # a unit tapped that its neighbour could not move to offers nothing
    tap_unit(page, "par")
    tap_unit(page, "mar")
    assert "A Marseilles" in page.inner_text("#click-prompt")
    assert page.locator("[data-action=move-instead]").count() == 0
    assert recorder.page_errors == []


@pytest.mark.parametrize("variant", ["standard", "loeb9"])
def test_after_adjudicating_the_choices_stay_on_screen_with_the_map(
        phone: tuple[Any, Any], site: Site, variant: str) -> None:
    """With the last phase's results drawn and their key shown, on Standard and on a nine-power map, a
    unit tapped shows its choices without scrolling: the map, the choices and the order list together."""
    page, recorder = phone
    if variant != "standard":
        page.select_option("#variant-select", variant)
        page.locator("#new-game").tap()
        page.wait_for_selector(f"#map[data-variant='{variant}']", state="attached", timeout=10_000)
    tap_unit(page, "par")
    page.locator('#map [id="bur"]').dispatch_event("click")
    adjudicate(page, tap=True)
    assert page.locator("#results-key").is_visible()
    page.evaluate("window.scrollTo(0, 0)")
    tap_unit(page, "mar")
    tap_unit(page, "mar")  # holds: the order list has an order
    tap_unit(page, "bur")
    on_screen(page, ("#map svg", "#click-order", "#order-list"))
    assert "FRA: A Mar H" in page.inner_text("#order-list")
    assert "A Burgundy" in page.inner_text("#click-prompt")
    for action in ("hold", "support", "cancel"):
        on_screen(page, (f"[data-action={action}]",))
    page.locator("[data-action=support]").tap()
    on_screen(page, ("#map svg", "#click-prompt", "[data-action=cancel]"))
    assert small_controls(page) == []
    assert serious_violations(page, site) == []
    assert recorder.page_errors == []


#: The smallest side, in CSS px, of the box of each province that holds a unit and of each highlighted place.
TAP_SIZES = """() => {
    const side = (e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); };
    const provinces = [...document.querySelectorAll('#map .adj-unit')]
        .map(u => document.querySelector('#map [id="' + u.dataset.location.split('/')[0] + '"]'));
    return {units: Math.min(...provinces.map(side)),
            places: Math.min(...[...document.querySelectorAll('#map .province.adj-target')].map(side))};
}"""

#: The unit that can be ordered nearest the middle of the map as shown.
MIDDLE_UNIT = """() => {
    const map = document.querySelector('#map svg').getBoundingClientRect();
    const middle = [map.x + map.width / 2, map.y + map.height / 2];
    const away = (u) => { const r = u.getBoundingClientRect();
        return Math.hypot(r.x + r.width / 2 - middle[0], r.y + r.height / 2 - middle[1]); };
    return [...document.querySelectorAll('#map .adj-unit.orderable')].sort((a, b) => away(a) - away(b))[0]
        .dataset.location;
}"""


@pytest.mark.parametrize("variant", ["standard", "loeb9", "cline5", "cline6", "coast_running", "cluster"])
def test_zooming_in_makes_every_unit_and_place_big_enough_to_tap(
        phone: tuple[Any, Any], variant: str) -> None:
    """The whole map fits a phone's width, so its units and places are smaller than a finger (about 4 px
    units and 8 px provinces on the nine-power maps): the hint under the map says how to zoom in, and
    three taps on + make every province holding a unit, and every place highlighted for the unit tapped,
    24 px or more each way, on every map; the hint is then gone and a unit is ordered by tapping."""
    page, recorder = phone
    if variant == "cluster":
        open_new_cluster_dialog(page)
        page.locator("#passphrase-generate").tap()
        page.locator("#passphrase-ok").tap()
    elif variant != "standard":
        page.select_option("#variant-select", variant)
        page.locator("#new-game").tap()
    page.wait_for_selector(f"#map[data-variant='{variant}']", state="attached", timeout=10_000)
    assert page.locator("#map-hint").is_visible()
    for _ in range(3):
        page.locator("#zoom-in").tap()
    assert not page.locator("#map-hint").is_visible()
    unit = str(page.evaluate(MIDDLE_UNIT))
    tap_unit(page, unit)
    assert page.locator(f'#map .adj-unit.selected[data-location="{unit}"]').count() == 1
    sizes = page.evaluate(TAP_SIZES)
    assert sizes["units"] >= 24 and sizes["places"] >= 24, sizes
    tap_unit(page, unit)  # a second tap: it holds
    assert " H" in page.inner_text("#order-list")
    assert recorder.page_errors == []


def test_a_message_given_far_down_the_page_is_brought_on_screen(phone: tuple[Any, Any]) -> None:
    """A player on a phone copies the results from the Results panel, far down the page: the message saying
    what was copied (shown at the page's top) is brought on screen, so the tap does not seem to do nothing."""
    page, recorder = phone
    adjudicate(page, tap=True)
    page.wait_for_function("() => !document.getElementById('copy-results').disabled", timeout=30_000)
    page.locator("#copy-results").scroll_into_view_if_needed()
    # far down: the message box at the page's top is out of view (or not shown)
    assert page.evaluate("(m => m.hidden || m.getBoundingClientRect().bottom < 0)(document.getElementById('message'))")
    page.locator("#copy-results").tap()
    page.wait_for_function("() => /Results/.test(document.getElementById('message-text').textContent)", timeout=10_000)
    page.wait_for_timeout(300)
    on_screen(page, ("#message",))
    assert recorder.page_errors == []


def test_a_refusal_given_far_down_the_page_is_on_screen_beside_its_field(
        phone: tuple[Any, Any], new_context: Any, site: Site) -> None:
    """A player on a phone unlocks a Cluster link with a wrong passphrase from the Secrets panel, far down
    the page: the refusal is said beside the field, on screen with it, and the page is not scrolled away
    to the message at its top."""
    from app_driver import new_cluster_game

    context, _ = new_context()
    master = open_app(context, site.url)
    new_cluster_game(master)
    page, recorder = phone
    page.evaluate("h => { location.hash = h; }", master.evaluate("location.hash"))
    page.wait_for_function("() => location.hash.startsWith('#cluster.s=')"
                           " && document.getElementById('map').dataset.variant === 'cluster'", timeout=30_000)
    page.fill("#unlock-passphrase", "not-the-passphrase-at-all")
    page.locator("#unlock").tap()
    page.wait_for_function("() => document.getElementById('unlock-status').textContent !== ''", timeout=30_000)
    assert "opens none of this game's secrets" in page.inner_text("#unlock-status")
    page.wait_for_timeout(300)
    on_screen(page, ("#unlock-status", "#unlock-passphrase"))
    assert page.evaluate("document.activeElement.id") == "unlock-passphrase"
    assert recorder.page_errors == []
