"""After adjudicating, the new position is shown with the phase's results drawn on it: moves that
succeeded and failed, bounces and stand-offs, cut supports, units dislodged and where they may retreat,
centres that changed hands, the builds and removals due; every past position is shown the same way,
and the results are also listed as text."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from adjutant.map.variant import province_of
from adjutant.pictures import pieces
from app_driver import Site, adjudicate, enter_text, open_link, phase, serious_violations, shows_on_top

RESULTS = "#map .adj-results .adj-order"


def _attrs(page: Any, selector: str, script: str) -> list[str]:
    return sorted(page.eval_on_selector_all(selector, f"els => els.map(e => {script})"))


def _summary(page: Any) -> list[str]:
    return [str(t) for t in page.eval_on_selector_all("#results-summary li", "els => els.map(e => e.textContent)")]


def _picked(page: Any) -> list[str]:
    """What the map picks out now: each element's class and the result it draws."""
    return _attrs(page, "#map .adj-picked", "e.getAttribute('class').split(' ')[0] + ' ' + e.dataset.result")


def _pick(page: Any, text: str) -> list[str]:
    """Focus the result listed as ``text`` (with Tab, from the entry before it if any) and say what
    the map picks out."""
    # the pointer rests on the page's corner: left where the last click was, a list drawn anew under it
    # would pick out the entry it points at
    page.mouse.move(0, 0)
    items = page.locator("#results-summary li")
    texts = [str(t) for t in items.all_inner_texts()]
    index = texts.index(text)
    if index:
        items.nth(index - 1).focus()
        page.keyboard.press("Tab")
    else:
        items.first.focus()
    assert page.evaluate("document.activeElement.textContent") == text
    return _picked(page)


def _every_result_is_drawn(page: Any) -> None:
    """Each listed result is focusable, visibly, and has its symbols on the map."""
    keys = page.eval_on_selector_all("#results-summary li", "els => els.map(e => [e.tabIndex, e.dataset.result])")
    assert keys and all(tab == 0 and key for tab, key in keys), keys
    drawn = set(page.eval_on_selector_all("#map [data-result]", "els => els.map(e => e.dataset.result)"))
    assert {key for _, key in keys} <= drawn
    page.focus("#results-key summary")
    page.keyboard.press("Tab")  # from the list's heading to its first result
    assert page.evaluate("document.activeElement.dataset.result") == keys[0][1]
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


def _shot(page: Any, name: str) -> None:
    """A screenshot of the map to look at (ADJUTANT_SHOTS=<folder>); nothing is asserted on it."""
    folder = os.environ.get("ADJUTANT_SHOTS")
    if folder:
        page.locator("#map").screenshot(path=os.path.join(folder, f"{name}.png"))


def _drawn_as_the_map_placed_them(page: Any) -> None:
    """The units are drawn with the sizes (adjutant.pictures.pieces) the map's placement keeps clear of names, centre
    dots and one another: the army that took Venice at its unit point, the dislodged one moved by the
    dislodged offset, and a fleet's box."""
    x, y = (float(c) for c in page.get_attribute('#map [id="ven"]', "data-unit").split(","))
    armies = page.eval_on_selector_all(
        '#map .adj-unit[data-location="ven"] circle.adj-unit-body',
        "els => els.map(e => [e.closest('.adj-unit').classList.contains('dislodged'), +e.getAttribute('cx'),"
        " +e.getAttribute('cy'), +e.getAttribute('r')])",
    )
    dx, dy = pieces.DISLODGED_OFFSET
    assert sorted(armies) == [[False, x, y, pieces.ARMY_RADIUS], [True, x + dx, y + dy, pieces.ARMY_RADIUS]]
    fleet = page.eval_on_selector('#map .adj-unit[data-location="tri"] rect.adj-unit-body',
                                  "e => [+e.getAttribute('width'), +e.getAttribute('height')]")
    assert tuple(fleet) == pieces.FLEET_SIZE


def test_the_new_position_shows_the_last_phases_results(shared_app: tuple[Any, Any], site: Site) -> None:
    page, recorder = shared_app
    assert page.locator(RESULTS).count() == 0
    assert not page.locator("#results-key").is_visible()
    enter_text(page, "France: A par - bur\nF bre - pic\nGermany: A mun - bur\nAustria: A vie - tyr\n"
               "Russia: A war - gal\nTurkey: A con - bul")
    adjudicate(page)
    assert phase(page) == "F1901M"
    assert page.locator(f"{RESULTS}.move.failed").count() == 2  # Paris and Munich bounce in Burgundy
    assert page.locator(f"{RESULTS}.move.succeeded").count() == 4
    # a bounce: a bar across each bounced arrow, and a stand-off mark in Burgundy
    assert _attrs(page, f"{RESULTS}.bounced", "e.querySelector('.adj-bounce') ? 'bar' : 'none'") == ["bar", "bar"]
    assert _attrs(page, "#map .adj-standoff", "e.dataset.province") == ["bur"]
    assert "Stand-off in Burgundy" in page.text_content("#map .adj-standoff title")
    assert page.locator("#results-key").is_visible()
    assert "Stand-off in Burgundy (Munich, Paris)." in _summary(page)
    _shot(page, "1-bounce")
    # each result, reached from the keyboard, picks out its own symbols on the map (and only those)
    page.focus("#results-key summary")
    page.keyboard.press("Enter")
    _every_result_is_drawn(page)
    assert _pick(page, "France: A Paris bounced from Burgundy.") == ["adj-order order:par"]
    assert _pick(page, "Germany: A Munich bounced from Burgundy.") == ["adj-order order:mun"]
    assert _pick(page, "Stand-off in Burgundy (Munich, Paris).") == ["adj-standoff standoff:bur"]
    page.focus("#orders-text")  # the focus leaves the list: nothing is picked out
    assert _picked(page) == []
    page.locator("#results-summary li", has_text="France: A Paris bounced").hover()  # pointing at it does the same
    assert _picked(page) == ["adj-order order:par"]
    # the results are drawn beside the new orders, and can be hidden
    page.uncheck("#show-results")
    assert page.locator(RESULTS).count() == 0
    assert page.locator("#map .adj-standoff").count() == 0
    page.check("#show-results")
    assert page.locator(RESULTS).count() == 6

    # A support cut, and a unit dislodged: where it stood is marked, where it may retreat is drawn.
    enter_text(page, "France: F pic - bel\nAustria: A tyr - ven\nF tri S A tyr - ven\nA bud S F tri\n"
               "Russia: A gal - bud\nTurkey: A bul - ser")
    adjudicate(page)
    assert phase(page) == "F1901R"
    cut = page.locator(f"{RESULTS}.support.cut")
    assert cut.count() == 1 and cut.locator(".adj-cut").count() == 1
    assert page.text_content(f"{RESULTS}.support.cut title") == "Budapest supports Trieste: failed (cut by A Gal)"
    assert page.locator(f"{RESULTS}.support.succeeded .adj-cut").count() == 0  # F Tri's support held
    assert _attrs(page, "#map .adj-dislodged-mark", "e.dataset.location") == ["ven"]
    assert _attrs(page, "#map .adj-unit.dislodged", "e.dataset.location") == ["ven"]
    _drawn_as_the_map_placed_them(page)
    options = _attrs(page, "#map .adj-retreat-option", "e.dataset.from + '>' + e.dataset.to")
    assert options == ["ven>apu", "ven>pie", "ven>tus"]
    assert ("The unit in Venice was dislodged by A Tyr; may retreat to Apulia, Piedmont, Tuscany."
            in _summary(page))
    _every_result_is_drawn(page)
    assert _pick(page, "Austria: the support from A Budapest was cut by A Gal.") == ["adj-order order:bud"]
    assert _pick(page, "The unit in Venice was dislodged by A Tyr; may retreat to Apulia, Piedmont, Tuscany.") == [
        "adj-dislodged-mark dislodged:ven", "adj-retreat-option dislodged:ven", "adj-retreat-option dislodged:ven",
        "adj-retreat-option dislodged:ven"]
    _shot(page, "2-cut-dislodged")

    # After the retreat: the centres that changed hands, and the builds and removals due.
    enter_text(page, "Italy: A ven - pie")
    adjudicate(page)
    assert phase(page) == "W1901A"
    changed = _attrs(page, "#map .adj-centre-changed", "e.dataset.province")
    assert changed == ["bel", "ser", "ven"]
    due = _attrs(page, "#map .adj-adjustment", "e.dataset.power + ' ' + e.querySelector('text').textContent")
    assert due == ["austria +1", "france +1", "italy \u22121", "turkey +1"]
    sites = _attrs(page, "#map .adj-build-site", "e.dataset.power + ' ' + e.dataset.province")
    assert sites == ["austria vie", "france bre", "turkey con"]  # the empty home centres each may build in
    assert "France builds 1 (may build in Brest)." in _summary(page)
    # a power chosen for orders: only its build places are ringed
    page.select_option("#orders-power", "turkey")
    assert _attrs(page, "#map .adj-build-site", "e.dataset.province") == ["con"]
    page.select_option("#orders-power", "")
    assert page.locator("#map .adj-build-site").count() == 3
    assert "Italy removes 1." in _summary(page)
    _badges_are_seen(page)
    _every_mark_is_in_the_key(page)
    # a centre that changed hands is marked unlike a build site: a solid rim with the dot's left half in
    # the old owner's colour (Venice: Italy's), inside the box the map keeps for the dot; a build site
    # a wide dashed ring
    italy = json.loads(page.get_attribute("#map svg", "data-power-colours") or "{}")["italy"]
    venice = page.eval_on_selector('#map .adj-centre-changed[data-province="ven"]', """g => [
        getComputedStyle(g.querySelector('.adj-centre-rim')).strokeDasharray, g.querySelector('.adj-centre-was')
        .getAttribute('fill'), g.getBBox().width]""")
    assert venice[0] == "none" and _same_colour(page, venice[1], italy)
    assert venice[2] <= 2 * (pieces.CENTRE_DOT_RADIUS[True] + pieces.CENTRE_DOT_OUTLINE / 2) + 0.01
    assert page.eval_on_selector("#map .adj-build-site", "e => getComputedStyle(e).strokeDasharray") != "none"
    _shot(page, "3-adjustments")
    # the results as text, for screen readers, each picking out its symbols; axe finds nothing serious
    assert page.locator("#results-summary li").first.is_visible()
    _every_result_is_drawn(page)
    assert _pick(page, "Belgium changed hands: now France's, was no one's.") == ["adj-centre-changed centre:bel"]
    assert _pick(page, "France builds 1 (may build in Brest).") == [
        "adj-adjustment adjust:france", "adj-build-site adjust:france"]
    assert _pick(page, "Italy removes 1.") == ["adj-adjustment adjust:italy"]
    assert serious_violations(page, site) == []
    assert recorder.page_errors == []


def _same_colour(page: Any, a: str, b: str) -> bool:
    return bool(page.evaluate("([a, b]) => { const s = document.createElement('span').style; s.color = a;"
                              " const t = document.createElement('span').style; t.color = b;"
                              " return s.color === t.color; }", [a, b]))


def _badges_are_seen(page: Any) -> None:
    """Each power's badge of builds or removals due is on top where it is drawn and covers no unit."""

    for power in _attrs(page, "#map .adj-adjustment", "e.dataset.power"):
        assert shows_on_top(page, f'#map .adj-adjustment[data-power="{power}"]'), f"{power}'s badge is hidden"
    covered = page.evaluate("""() => {
        const boxes = s => [...document.querySelectorAll(s)].map(e => [e, e.getBoundingClientRect()]);
        const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        return boxes('#map .adj-adjustment rect').flatMap(([badge, a]) => boxes('#map .adj-unit-body')
            .filter(([, b]) => meet(a, b)).map(([unit]) => badge.parentNode.dataset.power + ' over '
            + unit.parentNode.dataset.location)); }""")
    assert covered == []


#: what the results draw -> the key's item that explains it
KEYED = {".adj-results .adj-order.move.succeeded": "moved", ".adj-bounce": "bounced", ".adj-standoff": "standoff",
         ".adj-cut": "cut", ".adj-results .adj-cross": "failed", ".adj-dislodged-mark": "dislodged",
         ".adj-retreat-option": "retreat", ".adj-results .adj-order.hold": "hold",
         ".adj-results .adj-order.support": "hold", ".adj-results .adj-order.convoy": "convoy",
         ".adj-results .adj-order.disband": "disband", ".adj-centre-changed": "changed", ".adj-build-site": "site",
         ".adj-results .adj-order.build": "site", ".adj-adjustment": "adjust"}


def _every_mark_is_in_the_key(page: Any) -> None:
    """Each kind of mark the results draw on the map has its item in the results' key."""
    for mark, key in KEYED.items():
        if page.locator(f"#map {mark}").count():
            assert page.locator(f'#results-key .legend-item[data-key="{key}"]').is_visible(), mark


def test_past_positions_are_shown_with_the_results_that_made_them(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    enter_text(page, "France: A par - bur\nGermany: A mun - bur\nAustria: A vie - tyr")
    adjudicate(page)
    enter_text(page, "Austria: A tyr - ven\nF tri S A tyr - ven")
    adjudicate(page)
    assert phase(page) == "F1901R"

    # the game's first position: no results before it
    page.click("#hist-first")
    assert phase(page) == "S1901M"
    assert page.locator("#map .adj-order").count() == 0
    assert not page.locator("#results-key").is_visible()
    # one step on: the position after spring, with spring's results drawn (the bounce in Burgundy)
    page.click("#hist-next")
    assert phase(page) == "F1901M"
    assert page.locator(f"{RESULTS}.move.bounced").count() == 2
    assert _attrs(page, "#map .adj-standoff", "e.dataset.province") == ["bur"]
    assert page.locator("#map .adj-orders .adj-order").count() == 0  # fall's orders show one step on
    assert "Results for Spring 1901 movement" in page.text_content("#results")
    assert page.inner_text("#results-of").startswith("Results of Spring 1901 movement")
    page.focus("#results-key summary")
    page.keyboard.press("Enter")
    _every_result_is_drawn(page)
    assert _pick(page, "Stand-off in Burgundy (Munich, Paris).") == ["adj-standoff standoff:bur"]
    # and on again: the current position, fall's results with the dislodged Venetian army
    page.click("#hist-next")
    assert phase(page) == "F1901R"
    assert _attrs(page, "#map .adj-dislodged-mark", "e.dataset.location") == ["ven"]
    assert page.locator("#map .adj-standoff").count() == 0
    assert recorder.page_errors == []


def _adjustment_game(variant: str, seed: int, years: int) -> Any:
    """A seeded game of random legal orders (adjutant.randomgame), stopped at its first adjustment
    position where one power has builds due and another removals."""
    from adjutant.adjudication.phases import adjustments_due
    from adjutant.randomgame import random_game

    for game in random_game(variant, seed, years):
        if game.phase.kind == "adjustment":
            due = [d.delta for d in adjustments_due(game.variant, game.units, game.position.centres).values()]
            if any(delta > 0 for delta in due) and any(delta < 0 for delta in due):
                return game
    raise AssertionError(f"no adjustment position with builds and removals in {variant} seed {seed}")


@pytest.mark.parametrize(("variant", "seed", "years"), [("loeb9", 12, 1), ("cline5", 6, 2), ("coast_running", 11, 1)])
def test_adjustment_badges_on_the_nine_power_maps_and_coast_running(
        shared_app: tuple[Any, Any], site: Site, variant: str, seed: int, years: int) -> None:
    """Each power's builds or removals due (the engine's count) have a badge in its colour on its home
    centres, inside the map, with its build places ringed; the powers table and the text say the same."""
    from adjutant import encode_link
    from adjutant.adjudication.phases import adjustments_due

    game = _adjustment_game(variant, seed, years)
    due = {d.power: d for d in adjustments_due(game.variant, game.units, game.position.centres).values() if d.delta}
    page, recorder = shared_app
    open_link(page, encode_link(game), variant, str(game.phase))
    assert page.get_attribute("#map", "data-variant") == variant
    assert phase(page) == str(game.phase)
    badges = _attrs(page, "#map .adj-adjustment", "e.dataset.power + ' ' + e.querySelector('text').textContent")
    assert badges == sorted(f"{p} {'+' if d.delta > 0 else chr(0x2212)}{abs(d.delta)}" for p, d in due.items())
    # every badge lies on the map, in its power's colour
    colours = json.loads(page.get_attribute("#map svg", "data-power-colours") or "{}")
    drawn = page.evaluate("""() => {
        const map = document.querySelector('#map svg').getBoundingClientRect();
        return [...document.querySelectorAll('#map .adj-adjustment')].map(g => {
            const r = g.getBoundingClientRect();
            return [g.dataset.power, g.querySelector('rect').getAttribute('fill'), r.width > 0 && r.left >= map.left - 1
                    && r.right <= map.right + 1 && r.top >= map.top - 1 && r.bottom <= map.bottom + 1];
        }); }""")
    for power, fill, inside in drawn:
        assert inside, f"{power}'s badge is off the map"
        same = page.evaluate("([a, b]) => { const s = document.createElement('span').style; s.color = a;"
                             " const t = document.createElement('span').style; t.color = b;"
                             " return s.color === t.color; }", [fill, colours[power]])
        assert same, f"{power}'s badge is not in its colour"
    _badges_are_seen(page)
    sites = _attrs(page, "#map .adj-build-site", "e.dataset.power + ' ' + e.dataset.province")
    expected = sorted({f"{p} {province_of(text.split()[1])}" for p, d in due.items() if d.delta > 0
                       for text in d.build_places})
    assert sites == expected
    for power, d in due.items():
        name = game.variant.powers[power].name
        status = page.inner_text(f'#powers tr[data-power="{power}"] td:last-child')
        assert status.startswith("builds due" if d.delta > 0 else "removals due"), status
        line = f"{name} builds {d.delta}" if d.delta > 0 else f"{name} removes {-d.delta}."
        assert any(item.startswith(line) for item in _summary(page))
    assert serious_violations(page, site) == []
    assert recorder.page_errors == []
