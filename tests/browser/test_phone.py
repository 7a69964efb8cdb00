"""A phone (390 x 844 CSS px): the header takes less than a third of the screen, the map, the selected
unit's choices and the order list are on screen together, and every control is at least 24 px each way."""

from __future__ import annotations

from typing import Any

from app_driver import Site, open_app

WIDTH, HEIGHT = 390, 844


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def test_a_phone_shows_map_choices_and_orders_together(new_context: Any, site: Site) -> None:
    context, recorder = new_context(viewport={"width": WIDTH, "height": HEIGHT}, has_touch=True, is_mobile=True)
    page = open_app(context, site.url)
    assert box(page, "header.topbar")["height"] < HEIGHT / 3
    page.locator('#map .adj-unit[data-location="par"]').click()
    page.locator('#map [id="bur"]').dispatch_event("click")
    page.locator('#map .adj-unit[data-location="mar"]').click()
    page.evaluate("window.scrollTo(0, 0)")
    for selector in ("#map svg", "#click-order", "#order-list"):
        shown = box(page, selector)
        assert shown["y"] >= 0 and shown["y"] + shown["height"] <= HEIGHT, f"{selector} is off the screen: {shown}"
        assert shown["x"] >= 0 and shown["x"] + shown["width"] <= WIDTH + 1
    assert "A Marseilles" in page.inner_text("#click-prompt")
    assert page.locator("[data-action=support]").is_visible()
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    small = page.evaluate("""() => Array.from(document.querySelectorAll('button, select, input, .button, summary'))
        .filter(e => e.offsetParent !== null && !e.classList.contains('visually-hidden'))
        .map(e => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && (r.width < 24 || r.height < 24))
        .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")
    assert small == []
    assert recorder.page_errors == []
