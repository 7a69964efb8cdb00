"""Zoom and pan of the map: buttons, wheel, drag and keys change the SVG's viewBox (vector text stays
crisp); a click on a unit still orders it when zoomed in."""

from __future__ import annotations

import re
from typing import Any


def view_box(page: Any) -> list[float]:
    return [float(n) for n in re.split(r"[\s,]+", str(page.get_attribute("#map svg", "viewBox")).strip())]


def test_the_map_zooms_and_pans_and_still_takes_clicks(app: tuple[Any, Any]) -> None:
    page, recorder = app
    whole = view_box(page)
    page.click("#zoom-in")
    zoomed = view_box(page)
    assert abs(zoomed[2] - whole[2] / 1.5) < 1 and page.get_attribute("#map", "data-zoom") == "1.50"
    # the wheel zooms further about the pointer
    box = page.locator("#map svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
    page.mouse.wheel(0, -300)
    page.wait_for_function(f"() => document.querySelector('#map svg').viewBox.baseVal.width < {zoomed[2] - 1}")
    # a drag pans (and is not taken as a click on the map)
    before = view_box(page)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5, steps=5)
    page.mouse.up()
    after = view_box(page)
    assert after[0] < before[0] and after[2] == before[2]
    assert page.inner_text("#order-list") == ""
    # keys on the focused map: 0 shows it all, + zooms in, an arrow pans
    page.focus("#map")
    page.keyboard.press("0")
    assert view_box(page) == whole
    page.keyboard.press("+")
    assert view_box(page)[2] < whole[2]
    x = view_box(page)[0]
    page.keyboard.press("ArrowRight")
    assert view_box(page)[0] > x
    # zoomed in about Paris (the wheel keeps the point under the pointer), a click on it still selects it
    page.click("#zoom-reset")
    paris = page.locator('#map .adj-unit[data-location="par"]')
    spot = paris.bounding_box()
    page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"() => document.querySelector('#map svg').viewBox.baseVal.width < {whole[2] - 1}")
    paris.click()
    assert page.locator('#map .adj-unit.selected[data-location="par"]').count() == 1
    assert recorder.page_errors == []


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def short_side(page: Any, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return min(box["width"], box["height"])


def test_a_tap_on_a_unit_too_small_for_a_finger_zooms_in_until_it_is_not(shared_page: Any) -> None:
    """On a phone, Cline V's whole map draws A Paris a few pixels wide and Paris itself under 24 px: a tap
    on the unit zooms in about it (nothing is ordered); once Paris is at least 24 px a tap selects it, and
    the places it may go are as large."""
    page, recorder = shared_page(**PHONE)
    page.select_option("#variant-select", "cline5")
    page.locator("#new-game").tap()
    page.wait_for_selector("#map[data-variant='cline5']", state="attached", timeout=10_000)
    paris = '#map .adj-unit[data-location="par"]'
    whole = view_box(page)
    assert short_side(page, '#map [id="par"]') < 24
    taps = 0
    while short_side(page, '#map [id="par"]') < 24:
        page.locator(paris).tap()
        taps += 1
        assert page.locator("#map .adj-unit.selected").count() == 0, "a tap that zoomed also selected"
        assert taps < 5, "taps do not bring the unit to a finger's size"
    assert view_box(page)[2] < whole[2]
    page.locator(paris).tap()
    assert page.locator('#map .adj-unit.selected[data-location="par"]').count() == 1
    for target in page.locator("#map .adj-target").all():
        box = target.bounding_box()
        assert box is not None and min(box["width"], box["height"]) >= 24
    page.locator('#map .adj-target[id="bur"]').tap()
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    # a mouse click is never taken for a zoom: at the whole map the same unit is chosen by one click
    page.click("#zoom-reset")
    page.locator(paris).click()
    assert page.locator('#map .adj-unit.selected[data-location="par"]').count() == 1
    assert recorder.page_errors == []


def touch(session: Any, kind: str, points: list[tuple[float, float]]) -> None:
    session.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]})


def test_two_fingers_pinch_the_map_in_and_out(shared_page: Any) -> None:
    page, recorder = shared_page(**PHONE)
    context = page.context
    page.locator("#map svg").scroll_into_view_if_needed()
    box = page.locator("#map svg").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    whole = view_box(page)
    session = context.new_cdp_session(page)
    spread = [(cx - 20, cy), (cx + 20, cy)]
    touch(session, "touchStart", spread)
    for gap in range(30, 130, 10):
        touch(session, "touchMove", [(cx - gap, cy), (cx + gap, cy)])
    touch(session, "touchEnd", [])
    pinched = view_box(page)
    assert pinched[2] < whole[2] / 2, "spreading two fingers zooms in"
    assert page.locator("#map .adj-unit.selected").count() == 0 and page.inner_text("#order-list") == ""
    touch(session, "touchStart", [(cx - 120, cy), (cx + 120, cy)])
    for gap in range(110, 30, -10):
        touch(session, "touchMove", [(cx - gap, cy), (cx + gap, cy)])
    touch(session, "touchEnd", [])
    assert view_box(page)[2] > pinched[2], "bringing them together zooms out"
    assert recorder.page_errors == []
