"""Support, convoy and Coast-Running's protect order entered in the page; the embed view and its snippet;
the position painted from the autosave's snapshot before Python is ready."""

from __future__ import annotations

import re
from typing import Any

from adjutant.pictures import pieces
from app_driver import (
    COAST_LINE_MIDDLE,
    PYTHON_READY_TIMEOUT_MS,
    Site,
    adjudicate,
    enter_text,
    inside_unit_box,
    new_game,
    open_app,
    order_list,
    phase,
    shows_on_top,
    units,
)


def dispatch_click_map(page: Any, location: str) -> None:
    """Click a unit where one is drawn, else the region itself (dispatched to the region's element: the
    middle of a ragged region's box may lie in a neighbour)."""
    unit = page.locator(f'#map .adj-unit[data-location="{location}"]')
    if unit.count():
        unit.first.click()
    else:
        page.locator(f'#map [id="{location}"]').dispatch_event("click")


def test_an_illegal_order_kept_anyway_shows_its_mark_over_the_unit(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    page.check("#orders-keep")
    enter_text(page, "F bre - mun", "france")
    assert "illegal, will hold" in page.inner_text("#order-list li.illegal")
    assert shows_on_top(page, "#map .adj-illegal-body")  # the "!" is seen, not hidden under the fleet
    assert inside_unit_box(page, ".adj-illegal-body", "bre")
    # the arrow says it too, and a click on the "!" is a click on the fleet
    assert page.text_content("#map .adj-orders .adj-order.illegal > title") == (
        "Brest moves to Munich: illegal, kept anyway: the unit will hold")
    page.locator("#map .adj-illegal-body").click()
    assert page.locator('#map .adj-unit.selected[data-location="bre"]').count() == 1
    assert recorder.page_errors == []


def test_support_and_convoy_by_clicking(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    # Support: the unit, "Support", the supported unit, its destination.
    dispatch_click_map(page, "mar")
    page.click("[data-action=support]")
    assert page.locator('#map .adj-target[id="par"]').count() == 1
    dispatch_click_map(page, "par")
    assert page.locator('#map .adj-target[id="bur"]').count() == 1
    dispatch_click_map(page, "bur")
    assert "FRA: A Mar S A Par - Bur" in order_list(page)
    assert page.locator("#map .adj-order.support").count() == 1
    # every order drawn says itself in words when pointed at
    enter_text(page, "France: A par - bur\nF bre H")
    titles = page.eval_on_selector_all("#map .adj-orders .adj-order > title", "els => els.map(e => e.textContent)")
    assert sorted(titles) == ["Brest holds", "Marseilles supports Paris to Burgundy", "Paris moves to Burgundy"]

    # Convoy: a fleet at sea, "Convoy", the army, the destination.
    enter_text(page, "England: F lon - nth\nA lvp - yor")
    adjudicate(page)
    assert phase(page) == "F1901M"
    dispatch_click_map(page, "nth")
    page.click("[data-action=convoy]")
    assert page.locator('#map .adj-target[id="yor"]').count() == 1
    dispatch_click_map(page, "yor")
    assert page.locator('#map .adj-target[id="nwy"]').count() == 1
    dispatch_click_map(page, "nwy")
    # The army's own move by clicking: the convoyed destination is offered.
    dispatch_click_map(page, "yor")
    assert page.locator('#map .adj-target[id="nwy"]').count() == 1
    dispatch_click_map(page, "nwy")
    listing = order_list(page)
    assert "ENG: F Nth C A Yor - Nwy" in listing and "ENG: A Yor - Nwy" in listing
    assert page.locator("#map .adj-order.convoy").count() == 1
    assert page.text_content("#map .adj-order.convoy > title") == "North Sea convoys Yorkshire to Norway"
    adjudicate(page)
    assert "england A nwy" in units(page)
    assert recorder.page_errors == []


def test_a_coast_running_protect_order_is_adjudicated(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    new_game(page, "coast_running")
    enter_text(page, "Italy: F nap - ion\nA rom - apu")
    adjudicate(page)
    enter_text(page, "Italy: F ion C A apu - tun\nA apu - tun")
    adjudicate(page)
    if phase(page) == "W1901A":
        adjudicate(page)  # Italy's build may be waived
    assert phase(page) == "S1902M"
    assert "italy A tun" in units(page) and "italy F ion" in units(page)
    # The army's protect order as text; the fleet's run by clicking (the run is offered).
    enter_text(page, "Italy: A Tun P F Ion - Wes")
    assert page.inner_text("#orders-errors") == ""
    dispatch_click_map(page, "ion")
    assert page.locator('#map .adj-target[id="wes"]').count() == 1
    dispatch_click_map(page, "wes")
    listing = order_list(page)
    assert "ITA: A Tun P F Ion - Wes" in listing and "ITA: F Ion - Wes" in listing
    protect = page.locator("#map .adj-order.protect")
    assert protect.locator("title").first.text_content() == "Tunis protects Ionian Sea"
    assert page.locator("#map .adj-shield").count() == 1  # a symbol of its own, not a hold's ring
    assert inside_unit_box(page, ".adj-shield", "tun")  # on the army: it hides no name
    assert shows_on_top(page, "#map .adj-shield")  # and over it, not hidden under it
    # The protect button is there for an army on a coast.
    dispatch_click_map(page, "tun")
    assert page.locator("[data-action=protect]").count() == 1
    page.click("[data-action=cancel]")
    adjudicate(page)
    assert phase(page) == "F1902M"
    assert "italy F wes" in units(page)
    assert "F Ion - Wes" in page.inner_text("#results")
    assert recorder.page_errors == []


def test_a_run_to_the_far_coast_of_bulgaria_is_offered_by_click_and_adjudicated(shared_app: tuple[Any, Any]) -> None:
    """A fleet in the Black Sea borders Bulgaria's east coast; protected by the army in Constantinople it may
    run to the south coast: the page offers that coast, a click on its line orders the run, and it succeeds."""
    page, recorder = shared_app
    new_game(page, "coast_running")
    enter_text(page, "Turkey: F ank - bla")
    adjudicate(page)
    assert phase(page) == "F1901M" and "turkey F bla" in units(page)
    enter_text(page, "Turkey: A Con P F Bla - Bul/sc")
    assert page.inner_text("#orders-errors") == ""
    dispatch_click_map(page, "bla")
    assert page.locator('#map .adj-target[id="bul/sc"]').count() == 1
    x, y = page.evaluate(COAST_LINE_MIDDLE, "bul/sc")
    page.mouse.click(x, y)
    assert "TUR: F Bla - Bul/sc" in order_list(page)
    adjudicate(page)
    assert "turkey F bul/sc" in units(page)
    assert recorder.page_errors == []


def test_the_embed_snippet_shows_a_read_only_map_sized_to_its_container(
    shared_app: tuple[Any, Any], site: Site, new_context: Any
) -> None:
    page, _ = shared_app
    enter_text(page, "France: A par - bur")
    adjudicate(page)
    page.click("#copy-embed")
    code = page.input_value("#embed-code")
    assert "\n" not in code
    match = re.fullmatch(r'<iframe id="[^"]+" src="([^"]+)" [^<>]*></iframe><script>[^<]*</script>', code)
    assert match, code
    src = match.group(1)
    assert src.startswith(site.url + "embed.html#")

    # A variant-bank page that pastes the snippet into a 480 px column.
    (site.root / "host-test.html").write_text(
        f'<!doctype html><meta charset="utf-8"><div style="width:480px">{code}</div>', encoding="utf-8"
    )
    context, recorder = new_context()
    host = context.new_page()
    host.goto(site.url + "host-test.html")
    frame = host.frame_locator("iframe")
    frame.locator("html[data-python-ready]").wait_for(state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
    embed = host.frames[1]
    assert embed.evaluate("document.documentElement.dataset.phase") == "F1901M"
    assert frame.locator(".side").is_hidden() and frame.locator("#new-game").is_hidden()
    width = embed.evaluate("document.querySelector('#map svg').getBoundingClientRect().width")
    assert 400 <= width <= 480
    assert embed.evaluate("document.documentElement.scrollWidth") <= 480
    # Read-only: clicking a unit selects nothing and no order can be entered.
    frame.locator('#map .adj-unit[data-location="bur"]').click()
    assert frame.locator("#map .adj-unit.selected").count() == 0
    assert frame.locator("#map .adj-target").count() == 0
    # Spring's order is drawn with its result on the position it made; phase navigation goes back to
    # the first position (nothing drawn on it) and forward again.
    assert frame.locator("#map .adj-results .adj-order.move.succeeded").count() == 1
    frame.locator("#hist-prev").click()
    assert embed.evaluate("document.documentElement.dataset.phase") == "S1901M"
    assert frame.locator("#map .adj-order").count() == 0
    frame.locator("#hist-last").click()
    assert embed.evaluate("document.documentElement.dataset.phase") == "F1901M"
    # The phase's results as text, and the frame grows to its content's height (the snippet's script)
    frame.locator("#embed-results summary").click()
    assert "A Par - Bur" in frame.locator("#embed-results-text").inner_text()
    content = embed.evaluate("document.documentElement.scrollHeight")
    host.wait_for_function(
        f"() => Math.abs(document.querySelector('iframe').getBoundingClientRect().height - {content}) < 2")
    assert embed.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    assert recorder.page_errors == []


#: the bottom of the lowest thing the embed view shows: its map, its results and its position as text
LOWEST = "Math.max(...['#map', '#embed-results', '#position-text'].map(s => document.querySelector(s)" \
    ".getBoundingClientRect().bottom))"


def test_the_embed_is_usable_in_a_375_px_column(shared_app: tuple[Any, Any], site: Site, new_context: Any) -> None:
    page, _ = shared_app
    page.click("#copy-embed")
    code = page.input_value("#embed-code")
    (site.root / "host-narrow.html").write_text(
        f'<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f'<div style="width:375px">{code}</div>', encoding="utf-8"
    )
    context, recorder = new_context(viewport={"width": 375, "height": 700})
    host = context.new_page()
    host.goto(site.url + "host-narrow.html")
    frame = host.frame_locator("iframe")
    frame.locator("html[data-python-ready]").wait_for(state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
    embed = host.frames[1]
    assert embed.evaluate("document.documentElement.scrollWidth") <= 375
    assert 340 <= embed.evaluate("document.querySelector('#map svg').getBoundingClientRect().width") <= 375
    assert frame.locator("#hist-first").bounding_box()["height"] >= 24
    # the frame fits its content: it shrinks from the snippet's 620 px to it, leaving no blank below
    content = embed.evaluate(LOWEST)
    assert content < 600
    host.wait_for_function(f"() => document.querySelector('iframe').getBoundingClientRect().height < {content} + 20")
    assert embed.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")  # nothing cut off
    # and grows again with the results opened
    frame.locator("#embed-results summary").click()
    content = embed.evaluate(LOWEST)
    host.wait_for_function(f"() => document.querySelector('iframe').getBoundingClientRect().height >= {content}")
    assert recorder.page_errors == []


def test_the_autosaved_position_is_painted_before_python_is_ready(new_context: Any, site: Site) -> None:
    # no service worker: it would serve the held-back archive below from its cache, and Python would start
    context, _ = new_context(service_workers="block")
    page = open_app(context, site.url)
    enter_text(page, "France: A par - bur")
    adjudicate(page)
    expected = units(page)
    # Hold back the app's Python files, so what shows is what the shell painted on its own.
    context.route(re.compile(r".*/app-[0-9a-f]+/.*"), lambda route: None)
    page.goto(site.url)
    page.wait_for_selector("html[data-position-visible='snapshot']", state="attached", timeout=10_000)
    assert page.locator("html[data-python-ready]").count() == 0
    assert units(page) == expected
    assert "france A bur" in expected
    # drawn as the board draws them (adjutant.pictures.drawing), the sizes the map's placement keeps clear
    # (adjutant.pictures.pieces)
    bodies = page.eval_on_selector_all(
        "#map .adj-snapshot .adj-unit-body",
        "els => els.map(e => e.tagName === 'rect' ? [+e.getAttribute('width'), +e.getAttribute('height')]"
        " : [+e.getAttribute('r')])",
    )
    assert {tuple(b) for b in bodies} == {(pieces.ARMY_RADIUS,), pieces.FLEET_SIZE}
    assert "Fall 1901" in page.inner_text("#phase-label")
