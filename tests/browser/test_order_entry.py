"""Order entry a player can trust: a click on another unit selects it, a click that does nothing says why,
typed illegal orders are refused (or kept, marked, at the player's say), typed orders merge by unit and say
what they replaced, a fleet built by click in a two-coast province asks for the coast, and "Adjudicate"
lists what has no order before going on."""

from __future__ import annotations

from typing import Any

import pytest
from adjutant import pieces
from app_driver import adjudicate
from test_play import click_map, enter_text, phase


def order_list(page: Any) -> str:
    return str(page.inner_text("#order-list"))


def test_clicks_select_other_units_and_say_why_nothing_happened(app: tuple[Any, Any]) -> None:
    page, recorder = app
    click_map(page, "par")
    click_map(page, "bre")  # France's fleet: selected, not "A par - bre"
    assert order_list(page) == ""
    assert page.locator('#map .adj-unit.selected[data-location="bre"]').count() == 1
    assert "F Brest" in page.inner_text("#click-prompt")
    page.locator('#map [id="mun"]').dispatch_event("click")  # not next to Brest
    assert "cannot move to Munich" in page.inner_text("#click-note")
    page.click("[data-action=cancel]")
    page.locator('#map [id="bur"]').dispatch_event("click")
    assert "no unit in Burgundy" in page.inner_text("#click-note")
    assert recorder.page_errors == []


def test_typed_orders_refuse_illegal_lines_merge_by_unit_and_leave_the_box(app: tuple[Any, Any]) -> None:
    page, recorder = app
    click_map(page, "par")
    click_map(page, "bur")
    assert "FRA: A Par - Bur" in order_list(page)
    # the arrow has a dark casing under France's light blue (contrast over land and sea)
    assert page.locator("#map .adj-order.move .adj-casing").count() == 1
    # Typed for France: the clicked order for Paris stays; an illegal line is refused and stays in the box.
    enter_text(page, "A mar - spa\nF bre - mun", "france")
    listing = order_list(page)
    assert "FRA: A Par - Bur" in listing and "FRA: A Mar - Spa" in listing and "Mun" not in listing
    errors = page.inner_text("#orders-errors")
    assert "not taken" in errors and "line 2" in errors
    assert page.input_value("#orders-text") == "F bre - mun"
    # A typed order for a unit already ordered replaces it, and says so.
    enter_text(page, "A par - pic", "france")
    assert "replaced A Par - Bur by A Par - Pic" in page.inner_text("#orders-errors")
    assert "FRA: A Par - Pic" in order_list(page) and "Bur" not in order_list(page)
    assert page.input_value("#orders-text") == ""
    # Kept anyway, at the player's say: marked in the list and on the map.
    page.check("#orders-keep")
    enter_text(page, "F bre - mun", "france")
    assert "illegal, will hold" in page.inner_text("#order-list li.illegal")
    assert page.locator("#map .adj-order.illegal").count() == 1
    # the "!" sits where adjutant.pieces says, on the unit's corner, inside the room the map keeps for it
    unit = page.eval_on_selector("#map [id='bre']", "e => e.dataset.unit.split(',').map(Number)")
    mark = page.eval_on_selector("#map .adj-illegal-body",
                                 "e => [e.cx.baseVal.value, e.cy.baseVal.value, e.r.baseVal.value]")
    assert mark == pytest.approx([unit[0] + pieces.ILLEGAL_MARK.offset[0], unit[1] + pieces.ILLEGAL_MARK.offset[1],
                                  pieces.ILLEGAL_MARK.radius], abs=0.06)
    assert recorder.page_errors == []


def test_adjudicate_lists_what_has_no_order_and_the_player_may_go_back_or_on(app: tuple[Any, Any]) -> None:
    page, recorder = app
    enter_text(page, "France: A par - bur")
    page.click("#adjudicate")
    assert page.locator("#adjudicate-warning").is_visible()
    missing = page.inner_text("#adjudicate-missing")
    assert "France: F Brest (will hold)" in missing and "Paris" not in missing
    page.click("#adjudicate-back")
    assert not page.locator("#adjudicate-warning").is_visible()
    assert phase(page) == "S1901M"
    page.click("#adjudicate")
    page.click("#adjudicate-anyway")
    assert phase(page) == "F1901M"
    assert not page.locator("#adjudicate-warning").is_visible()
    assert recorder.page_errors == []


def test_a_fleet_built_by_click_in_st_petersburg_asks_for_the_coast(app: tuple[Any, Any]) -> None:
    page, recorder = app
    enter_text(page, "Russia: F stp/sc - bot\nA mos - ukr\nA war - gal\nF sev - bla")
    adjudicate(page)
    enter_text(page, "Russia: F bot - swe\nA ukr - rum")
    adjudicate(page)
    assert phase(page) == "W1901A"
    click_map(page, "stp")
    page.click("[data-action=build-F]")
    assert "which coast" in page.inner_text("#click-prompt")
    assert order_list(page) == ""  # nothing is given until the coast is chosen
    page.click('[data-action="coast-stp/nc"]')
    assert "RUS: Build F Stp/nc" in order_list(page)
    # the other build left unused is listed before adjudicating
    page.click("#adjudicate")
    assert "Russia: 1 build not ordered" in page.inner_text("#adjudicate-missing")
    page.click("#adjudicate-anyway")
    assert phase(page) == "S1902M"
    assert page.locator('#map .adj-unit[data-location="stp/nc"]').count() == 1
    assert recorder.page_errors == []
