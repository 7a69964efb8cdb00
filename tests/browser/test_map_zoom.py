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
    page.wait_for_function(f"document.querySelector('#map svg').viewBox.baseVal.width < {zoomed[2] - 1}")
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
    page.wait_for_function(f"document.querySelector('#map svg').viewBox.baseVal.width < {whole[2] - 1}")
    paris.click()
    assert page.locator('#map .adj-unit.selected[data-location="par"]').count() == 1
    assert recorder.page_errors == []
