"""The board draws again only what a change touched (py/adjutant_ui/board.py): after clicks, typed orders
replacing others, cleared orders, an adjudication and an undo, the map shows exactly what a fresh drawing
of the same game shows (the same game opened from its link in another tab)."""

from __future__ import annotations

from typing import Any

from app_driver import DRAWN, Site, adjudicate, click_map, drawn_afresh, enter_text, open_app


def test_the_board_after_changes_is_the_board_drawn_afresh(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    click_map(page, "par")
    click_map(page, "bur")
    click_map(page, "mar")
    click_map(page, "mar")  # held
    enter_text(page, "A par - pic\nF bre - mao", "france")  # replaces Paris's order
    enter_text(page, "A bud - gal\nA vie S A bud - gal\nF tri - alb", "austria")
    enter_text(page, "A mun - bur\nA ber - kie", "germany")
    page.select_option("#orders-power", "germany")
    page.click("#orders-clear")  # Germany's orders go
    enter_text(page, "A mun - tyr", "germany")
    before = page.evaluate(DRAWN)
    assert sum(len(items) for name, items in before["layers"] if name == "adj-orders") == 7
    assert before == drawn_afresh(context, site, page)

    adjudicate(page)
    page.click("#undo")
    enter_text(page, "A vie - tyr", "austria")  # replaces an order given before the undo
    adjudicate(page)
    after = page.evaluate(DRAWN)
    assert any(name == "adj-results" and items for name, items in after["layers"])
    assert after == drawn_afresh(context, site, page)
    assert recorder.page_errors == []
