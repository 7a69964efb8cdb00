"""A newcomer's whole path through the app, in headless Chromium against the built site.

New standard game -> orders by clicking and by text (with an inline error) -> adjudicate -> results
shown -> a retreat -> a build and a removal -> the share link opened in a fresh browser reproduces
the position -> download and re-upload -> reload restores from autosave -> a malformed link shows an
error and keeps the game. Every request stays on 127.0.0.1 (checked by the new_context fixture).
"""

from __future__ import annotations

from typing import Any

from app_driver import Site, adjudicate, click_map, enter_text, new_game, open_app, phase, reopen_app, units


def test_a_newcomer_plays_standard_and_shares_the_game(new_context: Any, site: Site, tmp_path: Any) -> None:
    context, recorder = new_context(service_workers="allow")
    page = open_app(context, site.url)
    assert phase(page) == "S1901M"
    assert page.locator("#powers tbody tr").count() == 7
    assert len(units(page)) == 22

    # Orders by clicking: Paris to Burgundy; a second click on a unit holds it.
    click_map(page, "par")
    assert page.locator('#map .adj-target[id="bur"]').count() == 1
    click_map(page, "bur")
    click_map(page, "mar")
    click_map(page, "mar")
    orders = page.inner_text("#order-list")
    assert "FRA: A Par - Bur" in orders
    assert "FRA: A Mar" in orders and "H" in orders.upper()
    assert page.locator("#map .adj-order.move").count() == 1

    # Orders as text, one bad line: the others are kept, the bad one is reported inline.
    enter_text(page, "A vie - tyr\nA bud - gal\nA xyz - abc", "austria")
    errors = page.inner_text("#orders-errors")
    assert "line 3" in errors and "xyz" in errors
    assert "AUS: A Vie - Tyr" in page.inner_text("#order-list")

    adjudicate(page)
    assert phase(page) == "F1901M"
    results = page.inner_text("#results")
    assert "A Par - Bur" in results and "A Vie - Tyr" in results
    assert "france A bur" in units(page)

    # Fall: dislodge the Italian army in Venice, then retreat it by clicking.
    enter_text(page, "Austria: A tyr - ven\nF tri S A tyr - ven")
    adjudicate(page)
    assert phase(page) == "F1901R"
    assert page.locator('#map .adj-unit.dislodged[data-location="ven"]').count() == 1
    page.locator('#map .adj-unit.dislodged[data-location="ven"]').click()
    assert page.locator('#map .adj-target[id="pie"]').count() == 1
    click_map(page, "pie")
    assert "ITA: A Ven" in page.inner_text("#order-list") and "Pie" in page.inner_text("#order-list")
    adjudicate(page)
    assert phase(page) == "W1901A"

    # Winter: Austria builds by clicking a highlighted centre; Italy removes a unit.
    assert page.locator('#map .adj-target[id="bud"]').count() == 1
    click_map(page, "bud")
    page.click("[data-action=build-A]")
    click_map(page, "pie")
    adjudicate(page)
    assert phase(page) == "S1902M"
    position = units(page)
    assert "austria A bud" in position and not any(u.endswith(" pie") for u in position)

    # The share link, opened in a fresh browser, shows the same game at the same phase.
    link = page.evaluate("location.href")
    assert "#" in link
    other, _ = new_context()
    fresh = open_app(other, link)
    assert phase(fresh) == "S1902M"
    assert units(fresh) == position

    # Download, then open the file in another fresh browser.
    with page.expect_download() as download_info:
        page.click("#download")
    saved = tmp_path / "game.json"
    download_info.value.save_as(saved)
    third, _ = new_context()
    uploaded = open_app(third, site.url)
    assert phase(uploaded) == "S1901M"
    uploaded.set_input_files("#upload", str(saved))
    uploaded.wait_for_selector("html[data-phase='S1902M']", state="attached", timeout=10_000)
    assert units(uploaded) == position

    # Reload without the link: the autosave brings the game back.
    page = reopen_app(page, site.url)
    assert phase(page) == "S1902M"

    # A malformed link: a clear message, and the game is kept.
    page = reopen_app(page, site.url + "#this-is-not-a-game")
    assert page.locator("#message").is_visible()
    assert "could not be opened" in page.inner_text("#message-text")
    assert phase(page) == "S1902M"
    assert units(page) == position
    assert recorder.page_errors == []


def test_hostile_text_in_a_file_never_becomes_markup(shared_app: tuple[Any, Any], tmp_path: Any) -> None:
    page, recorder = shared_app
    hostile = tmp_path / "hostile.json"
    hostile.write_text('{"variant": "<img src=x onerror=alert(1)>", "format": "<b>x</b>"}', encoding="utf-8")
    page.set_input_files("#upload", str(hostile))
    page.wait_for_selector("#message:not([hidden])", timeout=10_000)
    assert page.locator("#message img, #message b").count() == 0
    assert "could not be opened" in page.inner_text("#message-text")
    assert phase(page) == "S1901M"


def test_a_cline_v_game_through_a_year(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    new_game(page, "cline5")
    assert page.locator("#powers tbody tr").count() == 9
    assert "Persia" in page.inner_text("#powers")
    assert len(units(page)) == 28
    enter_text(page, "France: A par - bur\nA mar - gas")
    assert page.inner_text("#orders-errors") == ""
    adjudicate(page)
    assert phase(page) == "F1901M"
    assert "A Par - Bur" in page.inner_text("#results")
    adjudicate(page)
    assert phase(page) in ("W1901A", "S1902M")
    # History: step back to the first position (nothing drawn), then on to the position spring made,
    # with spring's orders drawn with their results.
    page.click("#hist-first")
    assert phase(page) == "S1901M"
    assert page.locator("#map .adj-order").count() == 0
    page.click("#hist-next")
    assert phase(page) == "F1901M"
    assert page.locator("#map .adj-results .adj-order.move.succeeded").count() == 2
    page.click("#hist-last")
    assert phase(page) in ("W1901A", "S1902M")
    assert str(page.evaluate("location.hash")).startswith("#cline5.")  # the link names its variant first
    assert recorder.page_errors == []


def test_a_link_paints_its_own_variants_map_before_python_starts(new_context: Any, site: Site) -> None:
    """Opened in a fresh browser (no autosave), a Loeb9 link has the page fetch and paint the Loeb9 map
    at once, read from the link's readable start, and never the standard map first."""
    from adjutant import Game, encode_link

    game = Game.new("loeb9")
    assert game.add_orders("France: A par - bur") == []
    game.adjudicate()
    context, recorder = new_context(service_workers="allow")
    # The page's own map drawings requested (its service worker later fetches every map, for offline use;
    # the variants' data, maps/*.json, are all written into Python's home).
    requested: list[Any] = []
    context.on("request", lambda request: requested.append(request))
    page = open_app(context, site.url + "#" + encode_link(game))
    drawn = [r for r in requested if "/maps/" in r.url and r.url.endswith(".svg") and r.service_worker is None]
    maps = [r.url.rsplit("/", 1)[1] for r in drawn]
    assert maps == ["loeb9.svg"]
    assert page.get_attribute("#map", "data-variant") == "loeb9"
    assert phase(page) == "F1901M"
    assert recorder.page_errors == []


def test_a_past_position_lists_the_orders_given_there_not_the_current_ones(shared_app: tuple[Any, Any]) -> None:
    """Stepped back to a past position, the order list shows the orders given there (as its record keeps
    them), never the orders being given in the current phase, whose units are elsewhere on the map."""
    page, recorder = shared_app
    enter_text(page, "France: A par - bur\nF bre - mao")
    adjudicate(page)
    enter_text(page, "France: A bur - mun")
    page.click("#hist-prev")
    assert phase(page) == "S1901M"
    listed = page.inner_text("#order-list")
    assert "A Bur - Mun" not in listed
    assert "FRA: A Par - Bur" in listed and "FRA: F Bre - Mao" in listed, listed
    page.click("#hist-last")
    assert phase(page) == "F1901M"
    assert page.inner_text("#order-list") == "FRA: A Bur - Mun"
    assert recorder.page_errors == []
