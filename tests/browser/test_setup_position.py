"""Set up a position in the page: a Fall 1905 Loeb9 position set up on a phone by taps and typing, then
adjudicated, gives what the engine gives the same position; the same by keyboard alone on a desktop, from
"Start a new game from here"; "Report this adjudication" gives a case the engine checks; a position with
problems lists them and leaves the game in hand as it is."""

from __future__ import annotations

from typing import Any

from adjutant.casetext import check_case, read_cases
from adjutant.setup import set_up_text
from app_driver import Site, adjudicate, enter_text, new_game, open_app, phase, units

PHASE = "F1905M"
UNITS = "Norway: F Nwg, A Nwy, F Bar; England: F Nth, A Edi; Russia: A Stp, F Bot"
CENTRES = "Norway: nwy, swe; England: edi, lon; Russia: stp"
ORDERS = "Norway: A Nwy - Stp; F Bar S A Nwy - Stp; F Nwg - Nao\nRussia: A Stp H; F Bot - Swe\nEngland: F Nth - Nwy"
NOTATION = f'--phase {PHASE}\n--units "{UNITS}"\n--centres "{CENTRES}"'


def _engine_board() -> tuple[list[str], list[str]]:
    """The units, and the dislodged units, the engine gives the same position and orders."""
    game = set_up_text("loeb9", PHASE, UNITS, CENTRES)
    assert not [p for p in game.add_orders(ORDERS) if not p.kept]
    game.adjudicate()
    gone = sorted(f"{d.unit.power} {d.unit.type} {d.unit.location}" for d in game.position.dislodged)
    return sorted(f"{u.power} {u.type} {u.location}" for u in game.units.values()), gone


def _board(page: Any) -> tuple[list[str], list[str]]:
    """The units the map draws, and the dislodged ones drawn beside them."""
    drawn = page.eval_on_selector_all(
        "#map .adj-unit",
        "els => els.map(e => [e.classList.contains('dislodged'), e.dataset.power + ' ' + e.dataset.type + ' ' + "
        "e.dataset.location])",
    )
    return sorted(t for gone, t in drawn if not gone), sorted(t for gone, t in drawn if gone)


def test_a_game_master_sets_up_fall_1905_on_a_phone(new_context: Any, site: Site) -> None:
    context, recorder = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = open_app(context, site.url)
    new_game(page, "loeb9")
    before = page.evaluate("location.hash")
    # a position with problems: each listed, the game in hand untouched
    page.locator("#setup-text").tap()
    page.fill("#setup-text", '--phase S1800M\n--units "Norway: A Nwg"')
    page.locator("#setup-start").tap()
    problems = page.locator("#setup-problems li").all_text_contents()
    assert any("before Loeb9" in p for p in problems) and any("an army cannot stand at sea" in p for p in problems)
    assert page.evaluate("location.hash") == before and phase(page) == "S1901M"
    page.locator("#setup-text").tap()
    page.fill("#setup-text", NOTATION)
    page.locator("#setup-start").tap()
    page.wait_for_function(f"() => document.documentElement.dataset.phase === '{PHASE}'", timeout=10_000)
    assert len(units(page)) == 7
    enter_text(page, ORDERS)
    adjudicate(page, tap=True)
    page.wait_for_function(f"() => document.documentElement.dataset.phase !== '{PHASE}'", timeout=10_000)
    assert _board(page) == _engine_board()
    assert _engine_board()[1] == ["russia A stp"]  # (the position has a retreat to make)
    page.locator("#report-case").tap()
    text = page.locator("#case-text").input_value()
    [case] = read_cases(text)
    assert case.name == f"Adjutant loeb9 {PHASE}" and check_case(case) == []
    assert not recorder.foreign_requests(site)


def test_the_keyboard_starts_a_new_game_from_the_phase_shown(new_context: Any, site: Site) -> None:
    context, _ = new_context(viewport={"width": 1280, "height": 900})
    page = open_app(context, site.url)
    new_game(page, "loeb9")
    page.focus("#setup-text")
    page.keyboard.type(NOTATION)
    page.keyboard.press("Tab")  # to the problems list's neighbour: the Start button
    focused = page.evaluate("document.activeElement.id")
    while focused != "setup-start":
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.documentElement.dataset.phase === '{PHASE}'", timeout=10_000)
    enter_text(page, ORDERS)
    adjudicate(page)
    page.wait_for_function(f"() => document.documentElement.dataset.phase !== '{PHASE}'", timeout=10_000)
    after = units(page)
    assert _board(page) == _engine_board()
    # from the phase now shown, a new game: the same position, and no history
    page.focus("#setup-from-here")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "setup-text"
    assert "adjutant setup loeb9" in page.locator("#setup-text").input_value()
    page.focus("#setup-start")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('report-case') && "
                           "document.getElementById('hist-prev').disabled", timeout=10_000)
    assert units(page) == after
