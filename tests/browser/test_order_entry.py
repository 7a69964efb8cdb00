"""Order entry a player can trust: a click on another unit selects it, a click that does nothing says why,
typed illegal orders are refused (or kept, marked, at the player's say), typed orders merge by unit and say
what they replaced, a fleet built by click in a two-coast province asks for the coast, and "Adjudicate"
lists what has no order before going on."""

from __future__ import annotations

import math
import random
from typing import Any
from xml.etree import ElementTree

import pytest
from adjutant.pictures import pieces
from adjutant_ui.compass import nearest_towards
from app_driver import (
    ANCHOR_OF,
    COAST_LINE_MIDDLE,
    Site,
    adjudicate,
    arrow_to,
    click_map,
    enter_text,
    focused_element,
    new_game,
    open_app,
    order_list,
    phase,
    place_at,
    reopen_app,
    unit_at,
)


def test_clicks_select_other_units_and_say_why_nothing_happened(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
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


def test_typed_orders_refuse_illegal_lines_merge_by_unit_and_leave_the_box(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
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
    # the "!" sits where adjutant.pictures.pieces says, on the unit's corner, inside the room the map keeps for it
    unit = page.eval_on_selector("#map [id='bre']", "e => e.dataset.unit.split(',').map(Number)")
    mark = page.eval_on_selector("#map .adj-illegal-body",
                                 "e => [e.cx.baseVal.value, e.cy.baseVal.value, e.r.baseVal.value]")
    assert mark == pytest.approx([unit[0] + pieces.ILLEGAL_MARK.offset[0], unit[1] + pieces.ILLEGAL_MARK.offset[1],
                                  pieces.ILLEGAL_MARK.radius], abs=0.06)
    assert recorder.page_errors == []


def test_an_order_kept_anyway_is_still_marked_after_a_reload(shared_app: tuple[Any, Any], site: Site) -> None:
    page, recorder = shared_app
    page.check("#orders-keep")
    enter_text(page, "F bre - mun", "france")
    assert "illegal, will hold" in page.inner_text("#order-list li.illegal")
    page = reopen_app(page, site.url)  # the game comes back from the autosave
    assert "FRA: F Bre - Mun" in order_list(page)
    assert "illegal, will hold" in page.inner_text("#order-list li.illegal")
    assert page.locator("#map .adj-order.illegal").count() == 1
    assert page.locator("#map .adj-illegal-body").count() == 1
    assert recorder.page_errors == []


def test_adjudicate_lists_what_has_no_order_and_the_player_may_go_back_or_on(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
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


def to_the_winter(page: Any, *turns: str) -> None:
    """Each turn's orders typed (one text per phase) and adjudicated, to Winter 1901's adjustments."""
    for orders in turns:
        enter_text(page, orders)
        adjudicate(page)
    assert phase(page) == "W1901A"


def test_a_fleet_built_by_click_in_st_petersburg_asks_for_the_coast_and_moves_to_the_other(
    shared_app: tuple[Any, Any],
) -> None:
    page, recorder = shared_app
    to_the_winter(page, "Russia: F stp/sc - bot\nA mos - ukr\nA war - gal\nF sev - bla",
                  "Russia: F bot - swe\nA ukr - rum")
    click_map(page, "stp")
    page.click("[data-action=build-F]")
    assert "which coast" in page.inner_text("#click-prompt")
    assert order_list(page) == ""  # nothing is given until the coast is chosen
    # the choices are the coasts and Cancel: the unit type is chosen
    assert page.locator("#click-order [data-action^=build-]").count() == 0
    assert page.locator("#click-order [data-action^=coast-]").count() == 2
    page.click('[data-action="coast-stp/nc"]')
    assert "RUS: Build F Stp/nc" in order_list(page)
    # a click on the other coast (its dashed line) builds the fleet there instead
    x, y = page.evaluate(COAST_LINE_MIDDLE, "stp/sc")
    page.mouse.click(x, y)
    assert "RUS: Build F Stp/sc" in order_list(page) and "Stp/nc" not in order_list(page)
    # the other build left unused is listed before adjudicating
    page.click("#adjudicate")
    assert "Russia: 1 build not ordered" in page.inner_text("#adjudicate-missing")
    page.click("#adjudicate-anyway")
    assert phase(page) == "S1902M"
    assert page.locator('#map .adj-unit[data-location="stp/sc"]').count() == 1
    assert recorder.page_errors == []


# --- the keyboard alone (docs/game-table.md, "Map, zoom, phones, keyboard") ---------------------------


def tab_to_the_units(page: Any) -> int:
    """Press Tab from where the focus is until it is on one of the map's units; how many presses."""
    for count in range(1, 80):
        page.keyboard.press("Tab")
        if focused_element(page)["unit"]:
            return count
    raise AssertionError("Tab never reached the map's units")


def test_a_unit_is_ordered_with_key_presses_alone(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    tab_to_the_units(page)
    # the units are one Tab stop: the next Tab leaves the map for the zoom buttons
    page.keyboard.press("Tab")
    assert focused_element(page)["id"] == "zoom-in"
    page.keyboard.press("Shift+Tab")
    first = focused_element(page)
    assert first["unit"] and first["label"] == "Austrian A Budapest"  # by power, then name
    assert "arrow keys go to the nearest unit that way" in page.inner_text("#click-keys")
    # the arrow keys go across the map; Paris is reached in a few presses, not dozens of Tabs
    assert arrow_to(page, unit_at("par")) <= 8
    page.keyboard.press("Enter")
    assert page.locator('#map .adj-unit.selected[data-location="par"]').count() == 1
    # the focus is on the first highlighted place, and the panel says which keys do what (aria-live)
    assert focused_element(page) == {**focused_element(page), "place": True, "label": "Brest"}
    assert "nearest of the 4 highlighted places that way" in page.inner_text("#click-keys")
    # Right from Brest: the nearest that way is the unit itself in Paris (Enter on it holds), then Burgundy
    page.keyboard.press("ArrowRight")
    assert focused_element(page) == {**focused_element(page), "unit": True, "location": "par"}
    page.keyboard.press("ArrowRight")
    assert focused_element(page) == {**focused_element(page), "place": True, "label": "Burgundy"}
    page.keyboard.press("Enter")
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    # the focus is back on the unit just ordered, from where the arrows go on to its neighbours
    assert focused_element(page)["location"] == "par"
    page.keyboard.press("ArrowLeft")
    assert focused_element(page)["label"] == "French F Brest"
    assert recorder.page_errors == []


#: each orderable unit's anchor (map coordinates), by location: the points the arrow keys go by
UNIT_ANCHORS = """() => { """ + ANCHOR_OF + """
  return Object.fromEntries([...document.querySelectorAll('#map .adj-unit.orderable')]
    .map(e => [e.getAttribute('data-location'), anchorOf(e.getAttribute('data-location'))])); }"""
#: each arrow key's direction on the map (y grows downwards)
BEARINGS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowDown": (0, 1), "ArrowUp": (0, -1)}
OPPOSITE = {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight", "ArrowDown": "ArrowUp", "ArrowUp": "ArrowDown"}


def nearest_that_way(anchors: dict[str, list[float]], here: str, key: str) -> str | None:
    """The unit nearest ``here`` within 45 degrees of ``key``'s direction, by plain distance (or None)."""
    (x, y), (ux, uy) = anchors[here], BEARINGS[key]
    that_way = [(math.hypot(px - x, py - y), loc) for loc, (px, py) in anchors.items()
                if (px - x) * ux + (py - y) * uy > 0
                and abs((px - x) * uy - (py - y) * ux) <= (px - x) * ux + (py - y) * uy]
    return min(that_way)[1] if that_way else None


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}],
                         ids=["wide", "phone"])
def test_the_arrow_keys_go_to_the_nearest_unit_that_way_on_the_map(
        new_context: Any, site: Site, viewport: dict[str, int]) -> None:
    """From the army in Paris each arrow key goes to the geographic neighbour that way (Right to Munich, not
    to German A Berlin, the next unit in list order), the opposite key comes back, and at the map's edge
    (Left from Brest) the focus stays."""
    context, recorder = new_context(viewport=viewport)
    page = open_app(context, site.url)
    anchors = page.evaluate(UNIT_ANCHORS)
    assert len(anchors) == 22
    tab_to_the_units(page)
    arrow_to(page, unit_at("par"))
    expected = {"ArrowRight": "mun", "ArrowUp": "lon", "ArrowDown": "mar", "ArrowLeft": "bre"}
    for key, there in expected.items():
        # the one expected is the nearest unit within the 45-degree cone, as the anchors on the page say
        assert nearest_that_way(anchors, "par", key) == there
        page.keyboard.press(key)
        assert focused_element(page) == {**focused_element(page), "unit": True, "location": there}, key
        page.keyboard.press(OPPOSITE[key])
        assert focused_element(page)["location"] == "par", f"{OPPOSITE[key]} from {there}"
    # German A Berlin, the next unit in list order, lies that way too, but further than Munich
    assert math.dist(anchors["par"], anchors["ber"]) > math.dist(anchors["par"], anchors["mun"])
    # nothing lies to the left of Brest: Left leaves the focus there
    page.keyboard.press("ArrowLeft")
    assert focused_element(page)["location"] == "bre"
    assert nearest_that_way(anchors, "bre", "ArrowLeft") is None
    page.keyboard.press("ArrowLeft")
    assert focused_element(page) == {**focused_element(page), "unit": True, "location": "bre"}
    assert recorder.page_errors == []


def cut_off(points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """The pairs (from, to) of ``points`` with no way by the arrow keys from the one to the other."""
    goes = [{nearest_towards(points, here, key) for key in BEARINGS} - {None} for here in range(len(points))]
    pairs = []
    for start in range(len(points)):
        seen, todo = {start}, [start]
        while todo:
            for there in goes[todo.pop()]:
                if there not in seen:
                    seen.add(there)
                    todo.append(there)
        pairs += [(start, there) for there in range(len(points)) if there not in seen]
    return pairs


def test_on_every_map_the_arrow_keys_reach_every_place_from_every_other(site: Site) -> None:
    """On each variant's map as built (its units' points, ``data-unit``), the arrows lead from any place to
    any other: all the places at once, and seeded random handfuls of them, as the units or highlighted
    places of a turn are. (A place no arrow led to could be reached from the keyboard only by Home or End.)"""
    maps = sorted((site.root / "maps").glob("*.svg"))
    assert len(maps) >= 6
    chance = random.Random(1901)
    for path in maps:
        anchors = {element.get("id"): tuple(float(n) for n in str(element.get("data-unit")).split(","))
                   for element in ElementTree.parse(path).iter() if element.get("data-unit") and element.get("id")}
        # (two places drawn at one point lie in no direction from each other: the maps have none)
        points = sorted(set(anchors.values()))
        assert len(points) == len(anchors) > 50, path.name
        for stops in [points] + [chance.sample(points, chance.randint(2, 34)) for _ in range(200)]:
            assert cut_off(stops) == [], (path.name, stops)


def test_a_unit_is_ordered_with_key_presses_on_a_nine_power_map(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    new_game(page, "cline5")
    tab_to_the_units(page)
    page.keyboard.press("Tab")
    assert focused_element(page)["id"] == "zoom-in"  # 28 units, one Tab stop
    page.keyboard.press("Shift+Tab")
    assert arrow_to(page, unit_at("par")) <= 8
    page.keyboard.press("Enter")
    assert focused_element(page)["place"]
    arrow_to(page, place_at("bur"))
    page.keyboard.press("Enter")
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    # End and Home go to the last and the first unit
    page.keyboard.press("End")
    assert focused_element(page)["label"].startswith("Persian")
    page.keyboard.press("Home")
    assert focused_element(page)["label"].startswith("Austrian")
    # with a power chosen for the orders, the map's Tab stop starts at that power's first unit
    page.select_option("#orders-power", "persia")
    stop = page.locator('#map .adj-unit.orderable[tabindex="0"]')
    assert stop.count() == 1 and stop.get_attribute("data-power") == "persia"
    assert recorder.page_errors == []


def test_a_support_is_ordered_with_key_presses_and_escape_goes_back_to_the_unit(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    tab_to_the_units(page)
    arrow_to(page, unit_at("mar"))
    page.keyboard.press("Enter")
    assert focused_element(page)["place"]
    # Escape lets the unit go and puts the focus back on it
    page.keyboard.press("Escape")
    assert page.locator("#map .adj-unit.selected").count() == 0
    assert focused_element(page)["location"] == "mar"
    page.keyboard.press("Enter")
    # Tab goes from the map to the unit's choices, Shift+Tab back to the place it left
    place = focused_element(page)["label"]
    page.keyboard.press("Tab")
    assert focused_element(page)["action"] == "hold"
    page.keyboard.press("Shift+Tab")
    assert focused_element(page)["label"] == place
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused_element(page)["action"] == "support"
    page.keyboard.press("Enter")
    # the units Marseilles may support are the highlighted places now; the focus is on the first
    assert "supports: click the unit to support" in page.inner_text("#click-prompt")
    assert focused_element(page)["place"]
    arrow_to(page, place_at("par"))
    page.keyboard.press("Enter")
    assert "click its destination" in page.inner_text("#click-prompt")
    assert focused_element(page)["place"]
    arrow_to(page, place_at("bur"))
    page.keyboard.press("Enter")
    assert "FRA: A Mar S A Par - Bur" in page.inner_text("#order-list")
    assert focused_element(page)["location"] == "mar"
    assert recorder.page_errors == []


def test_a_move_where_the_powers_own_unit_stands_is_given_with_key_presses(shared_app: tuple[Any, Any]) -> None:
    """Enter on a place where another of the power's units stands selects that unit, and its choices offer
    the move the first unit could make there: Tab to it, Enter, and the focus is on the unit still to order."""
    page, recorder = shared_app
    tab_to_the_units(page)
    arrow_to(page, unit_at("vie"))
    page.keyboard.press("Enter")
    arrow_to(page, place_at("bud"))
    page.keyboard.press("Enter")
    assert "A Budapest" in page.inner_text("#click-prompt")
    for _ in range(6):
        page.keyboard.press("Tab")
        if focused_element(page)["action"] == "move-instead":
            break
    assert focused_element(page)["label"] == "Move A Vienna to Budapest instead"
    page.keyboard.press("Enter")
    assert "AUS: A Vie - Bud" in order_list(page)
    assert focused_element(page)["location"] == "bud"
    page.keyboard.press("Enter")
    arrow_to(page, place_at("ser"))
    page.keyboard.press("Enter")
    assert "AUS: A Bud - Ser" in order_list(page) and "AUS: A Vie - Bud" in order_list(page)
    assert recorder.page_errors == []


def test_clicking_another_unit_mid_order_selects_it_and_cancel_clears_the_note(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    click_map(page, "par")
    page.click("[data-action=support]")
    click_map(page, "mar")
    assert "click its destination" in page.inner_text("#click-prompt")
    click_map(page, "bre")  # another French unit, not one of Marseilles' destinations: selected
    assert page.locator('#map .adj-unit.selected[data-location="bre"]').count() == 1
    assert "F Brest" in page.inner_text("#click-prompt") and page.locator("#click-note").count() == 0
    assert order_list(page) == ""
    # a unit of another power is no choice: the note says which units a click selects
    page.click("[data-action=cancel]")
    click_map(page, "par")
    page.click("[data-action=support]")
    click_map(page, "lon")
    note = page.inner_text("#click-note")
    assert "cannot support the unit in London" in note and "click another French unit" in note
    click_map(page, "mar")
    click_map(page, "lon")
    note = page.inner_text("#click-note")
    assert "cannot support A Marseilles into London" in note and "click another French unit" in note
    page.keyboard.press("Escape")
    assert page.inner_text("#click-prompt") == "Click or tap a unit to order it."
    assert page.locator("#click-note").count() == 0  # no stale note under the prompt
    click_map(page, "par")
    click_map(page, "mun")
    page.click("[data-action=cancel]")
    assert page.locator("#click-note").count() == 0
    assert recorder.page_errors == []


def test_a_coast_running_protect_step_selects_another_unit_clicked(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    new_game(page, "coast_running")
    click_map(page, "ber")
    page.click("[data-action=protect]")
    click_map(page, "kie")
    assert "click where it runs" in page.inner_text("#click-prompt")
    click_map(page, "mun")  # another German unit, not where Kiel's fleet may run: selected
    assert page.locator('#map .adj-unit.selected[data-location="mun"]').count() == 1
    assert "A Munich" in page.inner_text("#click-prompt") and page.locator("#click-note").count() == 0
    assert order_list(page) == ""
    assert recorder.page_errors == []


def test_the_order_box_reads_a_power_alone_on_a_line(shared_app: tuple[Any, Any]) -> None:
    """As its placeholder says: "a power's name alone on a line sets whose orders follow"."""
    page, recorder = shared_app
    assert "a power's name alone on a line" in str(page.get_attribute("#orders-text", "placeholder"))
    enter_text(page, "England\nF lon - eng\nFrance\nA par - bur")
    assert page.inner_text("#orders-errors") == ""
    assert "ENG: F Lon - Eng" in order_list(page) and "FRA: A Par - Bur" in order_list(page)
    assert recorder.page_errors == []


def test_removals_are_chosen_and_one_kept_with_key_presses(shared_app: tuple[Any, Any]) -> None:
    """Enter on a unit of a power that must remove units removes it, as many as are due; Enter on one chosen
    keeps it; the note under the prompt says so (role=status: read out)."""
    page, recorder = shared_app
    to_the_winter(page, "Austria: A vie - boh\nF tri - alb\nRussia: A war - gal",
                  "Russia: A gal - vie\nItaly: A ven - tri")
    tab_to_the_units(page)
    for location in ("boh", "alb", "bud"):
        arrow_to(page, unit_at(location))
        page.keyboard.press("Enter")
    assert [line for line in order_list(page).split("\n") if line.startswith("AUS")] == ["AUS: A Boh D", "AUS: F Alb D"]
    assert "Austria has chosen its 2 removals" in page.inner_text("#click-note")
    assert page.get_attribute("#click-note", "role") == "status"
    arrow_to(page, unit_at("alb"))
    page.keyboard.press("Enter")
    assert page.inner_text("#click-note") == "F Albania is kept: Austria must remove 1 more unit."
    assert focused_element(page)["location"] == "alb"
    arrow_to(page, unit_at("bud"))
    page.keyboard.press("Enter")
    assert [line for line in order_list(page).split("\n") if line.startswith("AUS")] == ["AUS: A Boh D", "AUS: A Bud D"]
    # typed orders are not capped: Adjudicate first names the removal that will not count
    enter_text(page, "Austria: F alb D")
    page.click("#adjudicate")
    assert page.inner_text("#adjudicate-warning-text") == "Before adjudicating, look at:"
    assert "Austria: 3 removals given, 2 due (the last given, F Albania, will not count)" in page.inner_text(
        "#adjudicate-missing")
    # the warning lists the orders as given: a click that takes a removal back closes it
    click_map(page, "alb")
    assert page.is_hidden("#adjudicate-warning")
    assert [line for line in order_list(page).split("\n") if line.startswith("AUS")] == ["AUS: A Boh D", "AUS: A Bud D"]
    assert phase(page) == "W1901A"
    assert recorder.page_errors == []
