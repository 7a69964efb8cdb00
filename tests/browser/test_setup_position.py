"""Set up a position in the page: a Fall 1905 Loeb9 position set up by taps on a phone's map, then
adjudicated, gives what the engine gives the same position; the same by keyboard alone on a desktop (the
map's stops, the arrow keys, Enter, a coast chosen); the map and the text are two views of one position; a
tap the rules refuse says why; a position with problems lists them and leaves the game in hand as it is;
"Start a new game from here" and "Report this adjudication"."""

from __future__ import annotations

from typing import Any

from adjutant import Game
from adjutant.formats.casetext import check_case, read_cases
from adjutant.setup import read_setup_text, set_up_text, setup_text
from app_driver import (
    Site,
    adjudicate,
    arrow_to,
    enter_text,
    focused_element,
    new_game,
    open_app,
    phase,
    place_at,
    units,
)

PHASE = "F1905M"
UNITS = "Norway: F Nwg, A Nwy, F Bar; England: F Nth, A Edi; Russia: A Stp, F Bot"
CENTRES = "Norway: nwy, swe; England: edi, lon; Russia: stp"
ORDERS = "Norway: A Nwy - Stp; F Bar S A Nwy - Stp; F Nwg - Nao\nRussia: A Stp H; F Bot - Swe\nEngland: F Nth - Nwy"
#: the position's units, then its centres, as the set-up's map puts them: (power, unit type or "", province)
PLACED = [("norway", "F", "nwg"), ("norway", "A", "nwy"), ("norway", "F", "bar"), ("england", "F", "nth"),
          ("england", "A", "edi"), ("russia", "A", "stp"), ("russia", "F", "bot")]
OWNED = [("norway", "nwy"), ("norway", "swe"), ("england", "edi"), ("england", "lon"), ("russia", "stp")]
#: The desktop the tests that need no fresh browser share (`shared_page`).
DESKTOP = {"width": 1280, "height": 900}
SETTING_UP = "() => document.documentElement.dataset.settingUp === 'loeb9'"
#: the game set up is shown: the map shows the game (not the draft), the phase label is the game's
STARTED = """() => !document.documentElement.dataset.settingUp
  && !document.getElementById('phase-label').textContent.startsWith('Setting up')"""


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


def _expected_text() -> str:
    game = set_up_text("loeb9", PHASE, UNITS, CENTRES)
    return setup_text(game.position, game.variant)


def _text_position(page: Any) -> str:
    """The position the set-up's text gives, in the notation (the text's first line names the variant)."""
    game = read_setup_text("loeb9", page.locator("#setup-text").input_value())
    return setup_text(game.position, game.variant)


def _play_and_check(page: Any, tap: bool) -> None:
    """Start the game set up, give the orders, adjudicate: the board is the engine's, and so is the case."""
    page.wait_for_function(STARTED, timeout=10_000)
    assert phase(page) == PHASE
    assert len(units(page)) == 7
    enter_text(page, ORDERS)
    adjudicate(page, tap=tap)
    page.wait_for_function(f"() => document.documentElement.dataset.phase !== '{PHASE}'", timeout=10_000)
    assert _board(page) == _engine_board()
    assert _engine_board()[1] == ["russia A stp"]  # (the position has a retreat to make)


#: where ``province``'s anchor (its unit's place) is on the screen, in CSS px, and the larger short side of
#: the province and its unit (app_driver.FINGER_SIDE); null when the anchor is outside the map's box
ANCHOR_ON_SCREEN = """p => { const svg = document.querySelector('#map svg'), e = svg.getElementById(p);
  const [x, y] = e.getAttribute('data-unit').split(',').map(Number);
  const at = new DOMPoint(x, y).matrixTransform(e.getScreenCTM()), m = svg.getBoundingClientRect();
  const side = x => { const r = x && x.getBoundingClientRect(); return r ? Math.min(r.width, r.height) : 0; };
  const unit = svg.querySelector(`.adj-unit[data-location^="${p}"]`);
  const inside = at.x > m.left && at.x < m.right && at.y > m.top && at.y < m.bottom;
  return inside ? [at.x, at.y, Math.max(side(e), side(unit))] : null; }"""


def _tap(page: Any, province: str) -> None:
    """Tap ``province`` at its unit's place, as a finger does (the middle of a province's box may lie in its
    neighbour: Norway's, in Sweden): where it is drawn under 24 px, the taps zoom in to it first, as
    app_driver.finger_tap's do."""
    at = page.evaluate(ANCHOR_ON_SCREEN, province)
    if at is None:
        page.locator("#zoom-reset").tap()
        at = page.evaluate(ANCHOR_ON_SCREEN, province)
    for _ in range(4):
        if at[2] >= 24:
            break
        page.touchscreen.tap(at[0], at[1])
        at = page.evaluate(ANCHOR_ON_SCREEN, province)
    page.touchscreen.tap(at[0], at[1])


def test_a_game_master_sets_up_fall_1905_by_taps_on_a_phone(new_context: Any, site: Site) -> None:
    context, recorder = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = open_app(context, site.url)
    new_game(page, "loeb9")
    before = page.evaluate("location.hash")
    page.locator("#setup-new").tap()
    page.wait_for_function(SETTING_UP, timeout=10_000)
    assert page.locator("#setup-tools").is_visible()
    page.locator("#setup-empty").tap()
    assert units(page) == [] and '--units ""' in page.locator("#setup-text").input_value()
    page.select_option("#setup-phase", "FM")
    page.locator("#setup-year").fill("1905")
    page.locator("#setup-year").dispatch_event("change")
    # a tap the rules refuse says why, and puts nothing there
    page.select_option("#setup-power", "norway")
    page.locator("#setup-army").tap()
    _tap(page, "nwg")
    assert "an army cannot stand at sea (Norwegian Sea)" in page.locator("#setup-note").text_content()
    assert units(page) == []
    for power, kind, province in PLACED:
        page.select_option("#setup-power", power)
        page.locator("#setup-fleet" if kind == "F" else "#setup-army").tap()
        _tap(page, province)
    # a second tap takes a unit away, a third puts it back
    _tap(page, "bot")
    assert "taken away" in page.locator("#setup-note").text_content() and len(units(page)) == 6
    _tap(page, "bot")
    page.select_option("#setup-tool", "centre")
    for power, province in OWNED:
        page.select_option("#setup-power", power)
        _tap(page, province)
    # what was tapped is what the text says, and the engine sets up the same from it
    assert _text_position(page) == _expected_text()
    assert page.locator("#setup-status").text_content() == "Ready to start."
    assert page.evaluate("location.hash") == before and phase(page) == "S1901M"  # (the game in hand, untouched)
    page.locator("#setup-start-map").tap()
    _play_and_check(page, tap=True)
    page.locator("#report-case").tap()
    [case] = read_cases(page.locator("#case-text").input_value())
    assert case.name == f"Adjutant loeb9 {PHASE}" and check_case(case) == []
    assert not recorder.foreign_requests(site)


def _press_on(page: Any, province: str) -> None:
    """With the focus on the map, go to ``province`` by the arrow keys and press Enter on it."""
    arrow_to(page, place_at(province), limit=60)
    page.keyboard.press("Enter")


def _choose(page: Any, select: str, label: str) -> None:
    """Choose the option whose name starts with ``label`` in the select ``select`` from the keyboard: focus
    it, Home, then the down arrow until it is chosen."""
    page.focus(select)
    page.keyboard.press("Home")
    chosen = f"() => document.querySelector('{select}').selectedOptions[0].textContent"
    for _ in range(12):
        if page.evaluate(chosen).startswith(label):
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"no option of {select} starts with {label!r}")


def _to_the_map(page: Any) -> None:
    """From the set-up's tools back to the map's place that takes Tab (Shift+Tab, as a keyboard user goes)."""
    for _ in range(30):
        page.keyboard.press("Shift+Tab")
        if focused_element(page)["place"]:
            return
    raise AssertionError(f"Shift+Tab never reached the map's places (at {focused_element(page)})")


def test_the_keyboard_sets_up_the_same_position_on_a_desktop(shared_page: Any) -> None:
    page, _ = shared_page(viewport=DESKTOP)
    new_game(page, "loeb9")
    page.focus("#setup-new")
    page.keyboard.press("Enter")
    page.wait_for_function(SETTING_UP, timeout=10_000)
    assert page.evaluate("document.activeElement.id") == "setup-tool"
    page.focus("#setup-empty")
    page.keyboard.press("Enter")
    _choose(page, "#setup-phase", "Fall movement")
    page.focus("#setup-year")
    page.keyboard.press("Control+A")
    page.keyboard.type("1905")
    page.keyboard.press("Tab")
    # a fleet in St Petersburg: Enter on it asks which coast, the choice has the focus, Enter takes it
    _choose(page, "#setup-power", "Russia")
    page.focus("#setup-fleet")
    page.keyboard.press("Space")
    _to_the_map(page)
    _press_on(page, "stp")
    assert page.evaluate("document.activeElement.textContent") == "St Petersburg (north coast)"
    page.keyboard.press("Enter")
    now = focused_element(page)
    assert now["location"] == "stp" and "Russian fleet (north coast)" in now["label"]
    assert '"Russia: F Stp/nc"' in page.locator("#setup-text").input_value()
    for power, kind, province in PLACED:
        _choose(page, "#setup-power", power.title())
        page.focus("#setup-fleet" if kind == "F" else "#setup-army")
        page.keyboard.press("Space")
        _to_the_map(page)
        _press_on(page, province)
    _choose(page, "#setup-tool", "gives the centre")
    for power, province in OWNED:
        _choose(page, "#setup-power", power.title())
        _to_the_map(page)
        _press_on(page, province)
    assert _text_position(page) == _expected_text()
    page.focus("#setup-start-map")
    page.keyboard.press("Enter")
    _play_and_check(page, tap=False)
    # from the phase now shown, a new game: the same position, and no history
    after, shown = units(page), phase(page)
    page.focus("#setup-from-here")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "setup-text"
    # (the text is written once the set-up is on the map; until then it is the last set-up's)
    page.wait_for_function("phase => document.getElementById('setup-text').value.includes('--phase ' + phase)",
                           arg=shown, timeout=10_000)
    assert "adjutant setup loeb9" in page.locator("#setup-text").input_value()
    page.focus("#setup-start")
    page.keyboard.press("Enter")
    page.wait_for_function(STARTED, timeout=10_000)
    # (the history controls may be drawn after the set-up's end shows)
    page.wait_for_function("() => document.getElementById('hist-prev').disabled", timeout=10_000)
    assert units(page) == after


def test_the_text_and_the_map_are_two_views_and_problems_leave_the_game_in_hand(shared_page: Any) -> None:
    page, _ = shared_page(viewport=DESKTOP)
    new_game(page, "loeb9")
    before = page.evaluate("location.hash")
    # typed: the map shows what can be read, and the problems are listed
    page.fill("#setup-text", '--phase S1800M\n--units "Norway: A Nwg, F Nth"')
    page.wait_for_function(SETTING_UP, timeout=10_000)
    assert _board(page)[0] == ["norway F nth"]
    problems = page.locator("#setup-problems li").all_text_contents()
    assert any("before Loeb9" in p for p in problems) and any("an army cannot stand at sea" in p for p in problems)
    assert page.locator("#setup-start-map").is_disabled()
    page.click("#setup-start")
    assert page.evaluate("location.hash") == before
    # text that cannot be read: the map takes no click until it is corrected
    page.fill("#setup-text", '--phase F1905M\n--units "Norway: A Xyz"')
    page.click('#map [id="nwy"]', force=True)
    assert "correct them there first" in page.locator("#setup-note").text_content()
    page.fill("#setup-text", f'--phase {PHASE}\n--units "{UNITS}"\n--centres "{CENTRES}"')
    page.wait_for_function("() => document.querySelectorAll('#map .adj-unit').length === 7", timeout=10_000)
    # clicked: the text says it
    page.select_option("#setup-power", "england")
    page.check("#setup-army")  # (the shared page keeps the kind of unit an earlier test chose)
    page.click('#map [id="lon"]', force=True)
    assert "England: A Edi, A Lon, F Nth;" in page.locator("#setup-text").input_value()
    # back to the game in hand, as it was
    page.click("#setup-leave")
    # (the set-up ends at the click; the game's board is drawn again once its map is back)
    page.wait_for_function("n => !document.documentElement.dataset.settingUp"
                           " && document.querySelectorAll('#map .adj-unit').length === n",
                           arg=len(Game.new("loeb9").units), timeout=10_000)
    assert page.evaluate("location.hash") == before and phase(page) == "S1901M"


def test_a_game_master_sets_up_a_cluster_position_with_strengths_and_a_site(shared_page: Any, site: Site) -> None:
    """Cluster, the game master's view: a click gives a unit its strength (rule 1 checked), another sets a
    Site of the Ancients; the game starts sealed, as a new Cluster game does, with them."""
    page, recorder = shared_page(viewport=DESKTOP)
    page.evaluate(
        """() => { const select = document.getElementById('variant-select');
          if (![...select.options].some(o => o.value === 'cluster')) select.add(new Option('Cluster', 'cluster')); }"""
    )
    page.select_option("#variant-select", "cluster")
    page.click("#setup-new")
    page.wait_for_function("() => document.documentElement.dataset.settingUp === 'cluster'", timeout=10_000)
    assert "--sites" not in page.locator("#setup-text").input_value()  # (the game draws its own, in secret)
    page.select_option("#setup-tool", "strength")
    for province in ("par", "par", "bre"):  # Paris 3 times, then 2; Brest 3
        page.click(f'#map .adj-unit[data-location="{province}"]')
    page.click('#map .adj-unit[data-location="mar"]')  # France has both already: rule 1 says no
    assert "France has two 3 times units" in page.locator("#setup-note").text_content()
    page.select_option("#setup-tool", "site")
    page.click('#map [id="bur"]', force=True)
    text = page.locator("#setup-text").input_value()
    assert '--strengths "France: 3 Bre, 2 Par"' in text and '--sites "1: bur"' in text
    assert sorted(page.eval_on_selector_all("#map .adj-strength", "els => els.map(e => e.textContent)")) == ["2", "3"]
    assert page.locator("#map .adj-site.level-1").count() == 1
    assert page.get_attribute('#map [id="par"]', "aria-label") == "Paris, French army, centre of France, 2 times"
    page.click("#setup-start-map")
    page.wait_for_selector("#passphrase-dialog[open]", timeout=5_000)
    page.click("#passphrase-generate")
    page.click("#passphrase-ok")
    page.wait_for_function("() => location.hash.startsWith('#cluster.s=') && "
                           "!document.documentElement.dataset.settingUp", timeout=30_000)
    assert sorted(page.eval_on_selector_all("#map .adj-strength", "els => els.map(e => e.textContent)")) == ["2", "3"]
    assert page.locator("#map .adj-site.level-1").count() == 1
    assert not recorder.foreign_requests(site)
