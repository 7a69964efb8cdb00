"""Computer players in the page: a game against the computer on Cline V on a phone for two game years, the
page taking input while the computer thinks; a group game with two empty seats and a power handed to the
computer mid-game; the sandbox's "Orders for the rest by computer"; and the keyboard path.

What the computer ordered is checked in the game the page's link holds (read back with the engine): its
seats, and orders for every computer player in every phase that asked any of it. How long the page's main
thread is held while the computer thinks is measured by benchmarks/bots_page.py, not asserted here.
"""

from __future__ import annotations

from typing import Any

from adjutant import decode_link
from adjutant.game import Game
from adjutant.group_play import codes as group
from app_driver import (
    DRAWN,
    PHONE,
    Site,
    adjudicate,
    drawn_afresh,
    enter_text,
    focused,
    on_screen,
    open_app,
    open_link,
    phase,
    small_controls,
    tap_map,
)
from group_driver import (
    PASSPHRASES,
    cluster_gm_fragment,
    gm_fragment,
    listed_orders,
    players_link,
    start_cluster_group_game,
    unlock,
)

#: Records what the thinking's status line says and each value its progress bar takes (the page's own
#: elements, watched from now on).
WATCH = """() => {
  window.__said = []; window.__progress = [];
  const line = document.getElementById("computer-status"), bar = document.getElementById("computer-progress");
  new MutationObserver(() => window.__said.push(line.textContent))
    .observe(line, {childList: true, characterData: true, subtree: true});
  new MutationObserver(() => window.__progress.push(bar.value)).observe(bar, {attributes: true});
}"""

#: the options of the phone's browser context the phone tests of this file share
PHONE_CONTEXT = {"viewport": PHONE["viewport"], "has_touch": True, "is_mobile": True}

#: Holds the computer's thinking at a pause between slices (web/page.js nextSlice), the ``after``-th (0: the
#: first), until ``window.__release()``: the page is caught, deterministically, while the computer thinks.
HOLD_SLICES = """(after = 0) => {
  const page = window.adjutantPage, held = [];
  let holding = true, passed = 0;
  window.__held = () => held.length;
  window.__release = () => { holding = false; held.splice(0).forEach(go => go()); };
  const nextSlice = () => holding && passed++ >= after ? new Promise(go => held.push(go)) : page.nextSlice();
  window.adjutantPage = Object.freeze({...page, nextSlice});
}"""


#: how many of the map's units are selected (a click or a key on one has begun its order)
MAP_SELECTED = "() => document.querySelectorAll('#map .selected').length"


def the_game(page: Any) -> Game:
    """The game the address bar holds, read by the engine (a group game's from the game master's link)."""
    fragment = str(page.evaluate("location.hash")).lstrip("#")
    return group.read_group_link(fragment).game if group.is_group_link(fragment) else decode_link(fragment)


def computer_ordered_everything(game: Game, powers: set[str]) -> None:
    """In every phase of ``game``'s history, each of ``powers`` that had something to order gave orders."""
    for index, record in enumerate(game.history):
        before = game.position_at(index)
        if record.phase.kind == "movement":
            due = {u.power for u in before.units.values()}
        elif record.phase.kind == "retreat":
            due = {d.unit.power for d in before.dislodged}
        else:
            continue  # (who builds hangs on centres and units; the records say what was given)
        missing = sorted((powers & due) - {p for p, orders in record.orders.items() if orders})
        assert not missing, f"{record.phase}: no orders for {missing}"


def start_against_the_computer(page: Any, variant: str, mine: list[str], level: str, tap: bool = False) -> None:
    """New game -> Players: Against the computer, the powers ``mine`` ticked and the computer's level."""
    press = (lambda selector: page.locator(selector).tap()) if tap else page.click
    page.select_option("#variant-select", variant)
    page.select_option("#game-kind", "computer")
    press("#new-game")
    page.wait_for_selector("#computer-dialog[open]", timeout=5_000)
    for power in mine:
        press(f"#mine-{power}")
    page.select_option("#computer-new-level", level)
    press("#computer-ok")
    page.wait_for_function(
        "v => document.getElementById('map').dataset.variant === v && location.hash.startsWith('#' + v)",
        arg=variant, timeout=20_000)


def adjudicated(page: Any, before: str) -> str:
    """Wait until the phase ``before`` is adjudicated (the computer thinks first), and the phases after it
    that the computer plays by itself; the phase now."""
    page.wait_for_function(
        "p => document.documentElement.dataset.phase !== p && !document.documentElement.dataset.computerThinking",
        arg=before, timeout=120_000)
    return phase(page)


#: Records every phase the page shows (its root's data-phase) from now on, the one it shows now first.
PHASES = """() => {
  window.__phases = [document.documentElement.dataset.phase];
  new MutationObserver(() => {
    const now = document.documentElement.dataset.phase;
    if (now && window.__phases[window.__phases.length - 1] !== now) window.__phases.push(now);
  }).observe(document.documentElement, {attributes: true, attributeFilter: ["data-phase"]});
}"""


def germany_dislodged_in_the_fall() -> str:
    """A game's link at Fall 1901 movement, France a person's and the six others the computer's: Germany's
    army in Burgundy holds, France's orders (given) dislodge it, and nothing of France's can be dislodged
    or lose a centre. So Fall 1901 retreats is Germany's alone, and Winter 1901 adjustments the computer's
    (its powers build; France neither builds nor removes) at any seed the seats have
    (tests/test_ui_computer.py checks the rule)."""
    from adjutant.formats.link import encode_link

    game = Game.new("standard")
    for power in ("austria", "england", "germany", "italy", "russia", "turkey"):
        game.set_computer(power, "heuristic", 11)
    game.add_orders("A Par H; A Mar H; F Bre H", "france")
    game.add_orders("A Mun - Bur", "germany")
    game.adjudicate()
    game.add_orders("A Bur H", "germany")
    game.add_orders("A Mar - Bur; A Par S A Mar - Bur; F Bre H", "france")
    return encode_link(game)


def played_alone(page: Any) -> None:
    """After Adjudicate in the game of :func:`germany_dislodged_in_the_fall`: the page showed the fall's
    results, then played the retreats and the winter by itself, each shown, and waits at Spring 1902 with
    the history of every phase; it says so."""
    assert adjudicated(page, "F1901M") == "S1902M"
    assert page.evaluate("window.__phases")[-4:] == ["F1901M", "F1901R", "W1901A", "S1902M"]
    said = page.inner_text("#computer-status")
    assert "The computer played Fall 1901 retreats and Winter 1901 adjustments by itself" in said, said
    game = the_game(page)
    played = {str(r.phase): r for r in game.history if not r.skipped}
    assert list(played) == ["S1901M", "F1901M", "F1901R", "W1901A"]
    assert played["F1901R"].orders.get("germany") and not played["F1901R"].orders.get("france")
    assert any(played["W1901A"].orders.get(p) for p in game.computer) and not played["W1901A"].orders.get("france")
    assert not page.locator("#adjudicate").is_disabled()  # Spring 1902 is the person's to order


def test_phases_that_ask_nothing_of_the_person_are_played_by_the_computer_on_a_phone(shared_page: Any) -> None:
    page, recorder = shared_page(**PHONE_CONTEXT)
    open_link(page, germany_dislodged_in_the_fall(), "standard", "F1901M")
    page.evaluate(PHASES)
    adjudicate(page, tap=True)
    played_alone(page)
    # Each phase the computer played is shown with its results (those of the phase that made it), back
    # through the history
    assert "Results of Winter 1901 adjustments" in page.inner_text("#results-of")
    page.locator("#hist-prev").tap()
    assert phase(page) == "W1901A" and page.locator("#adjudicate").is_disabled()
    assert "Results of Fall 1901 retreats" in page.inner_text("#results-of")
    page.locator("#hist-prev").tap()
    assert phase(page) == "F1901R" and "Results of Fall 1901 movement" in page.inner_text("#results-of")
    held = [line for line in page.inner_text("#results").splitlines() if "A Bur H" in line]
    assert len(held) == 1 and "dislodged" in held[0], held  # the German army
    page.locator("#hist-last").tap()
    # Undo takes back one phase, the computer's winter: shown, it waits for Adjudicate (undone, not played again)
    page.locator("#undo").tap()
    page.wait_for_timeout(500)
    assert phase(page) == "W1901A" and not page.evaluate("document.documentElement.dataset.computerThinking")
    assert str(the_game(page).history[-1].phase) == "F1901R"
    adjudicate(page, tap=True)
    assert adjudicated(page, "W1901A") == "S1902M"
    assert recorder.page_errors == []


def test_phases_played_by_the_computer_from_the_keyboard(shared_app: tuple[Any, Any], site: Site) -> None:
    page, recorder = shared_app
    context = page.context
    open_link(page, germany_dislodged_in_the_fall(), "standard", "F1901M")
    page.evaluate(PHASES)
    page.focus("#adjudicate")
    page.keyboard.press("Enter")
    played_alone(page)
    assert focused(page) == "adjudicate"  # the focus back where it was, for the spring's Adjudicate
    # the board drawn in steps after each adjudication is the board a fresh tab draws from the link
    assert page.evaluate(DRAWN) == drawn_afresh(context, site, page)
    page.focus("#hist-prev")
    page.keyboard.press("Enter")
    assert phase(page) == "W1901A" and "Results of Fall 1901 retreats" in page.inner_text("#results-of")
    page.keyboard.press("Enter")
    assert phase(page) == "F1901R" and "Results of Fall 1901 movement" in page.inner_text("#results-of")
    assert recorder.page_errors == []


def test_against_the_computer_on_cline_v_on_a_phone_for_two_years(
        shared_page: Any, new_context: Any, site: Site) -> None:
    page, recorder = shared_page(**PHONE_CONTEXT)
    page.evaluate(WATCH)
    start_against_the_computer(page, "cline5", ["persia"], "search", tap=True)
    computer = {"austria", "england", "france", "germany", "italy", "russia", "turkey", "barbary"}
    summary = page.inner_text("#computer-summary")
    assert "The computer plays Austria, England, France, Germany, Italy, Russia, Turkey and Barbary" in summary
    assert "people play Persia" in summary
    assert "you play Persia" in page.inner_text("#computer-status")
    assert small_controls(page) == []

    # The warning before adjudicating lists Persia's units alone: the computer orders its own.
    page.locator("#adjudicate").tap()
    warned = page.inner_text("#adjudicate-missing")
    assert "Persia:" in warned and "Turkey:" not in warned and "Barbary:" not in warned
    # While the computer thinks the page takes a tap: Stop. The thinking runs three slices (the bar drawn at
    # each), then is held at its next pause, where the page takes input, so the tap comes mid-thought.
    page.evaluate(HOLD_SLICES, 3)
    page.locator("#adjudicate-anyway").tap()
    page.wait_for_function("() => window.__held() > 0", timeout=30_000)
    assert "thinking for 8 powers" in page.inner_text("#computer-status")
    # the map takes taps meanwhile (it zooms) but gives no order: a tap on a Persian unit selects nothing
    tap_map(page, page.evaluate("() => document.querySelector('#map .adj-unit[data-power=persia]').dataset.location"))
    assert page.evaluate(MAP_SELECTED) == 0 and page.locator("#click-order button").count() == 0
    page.locator("#zoom-reset").tap()
    page.locator("#computer-stop").tap()  # on screen under Adjudicate, unmoved by the line (tap checks that)
    page.evaluate("window.__release()")
    page.wait_for_function("() => document.getElementById('computer-status').textContent.startsWith('Stopped')",
                           timeout=10_000)
    assert phase(page) == "S1901M" and listed_orders(page) == []
    on_screen(page, ("#computer-status",))
    assert len(page.evaluate("window.__progress")) >= 4  # the bar set at every slice, each a task of its own

    # Normal for every computer player, in the panel; then two game years.
    assert page.evaluate("document.getElementById('computer-seats-box').open")  # (a game with computer players)
    for power in sorted(computer):
        page.select_option(f"#seat-{power}", "heuristic")
    assert "(Normal)" in page.inner_text("#computer-summary")
    now = "S1901M"
    while not now.startswith("S1903"):
        adjudicate(page, tap=True)
        now = adjudicated(page, now)
        said = page.inner_text("#computer-status")  # (a phase that is the computer's alone played on)
        assert "The computer gave the orders of" in said or "by itself" in said, said
        assert recorder.page_errors == []
    assert "in the results" in page.inner_text("#computer-status")
    game = the_game(page)
    assert {p: seat.level for p, seat in game.computer.items()} == dict.fromkeys(computer, "heuristic")
    assert sum(record.phase.kind == "movement" for record in game.history) == 4
    computer_ordered_everything(game, computer)
    assert not any(record.orders.get("persia") for record in game.history)  # Persia's units held

    # The link replays: opened elsewhere, the same game and the same seats.
    other, _ = new_context()
    shared = open_app(other, site.url + "#" + str(page.evaluate("location.hash")).lstrip("#"))
    assert phase(shared) == now
    assert shared.inner_text("#computer-summary") == page.inner_text("#computer-summary")
    assert shared.input_value("#game-kind") == "computer"


def test_a_group_game_with_two_empty_seats_and_a_power_handed_to_the_computer(
        shared_app: tuple[Any, Any], new_context: Any) -> None:
    page, recorder = shared_app
    page.select_option("#game-kind", "group")
    page.click("#new-game")
    page.wait_for_selector("#group-dialog[open]", timeout=5_000)
    page.check("#empty-italy")
    page.check("#empty-turkey")
    page.click("#group-ok")
    gm_fragment(page)
    assert "The computer plays Italy and Turkey" in page.inner_text("#computer-summary")
    assert page.locator("#computer-fill-row").is_hidden()  # a group game's orders are its players'
    intake = page.inner_text("#intake")
    assert "the computer (Normal)" in intake and "Italy" in intake
    enter_text(page, "A Par - Bur\nA Mar - Spa\nF Bre - Mao", "france")

    page.click("#adjudicate")
    warned = page.inner_text("#adjudicate-missing")
    assert "England:" in warned and "Italy:" not in warned and "Turkey:" not in warned and "France:" not in warned
    page.click("#adjudicate-anyway")
    adjudicated(page, "S1901M")
    game = the_game(page)
    assert sorted(p for p, orders in game.history[0].orders.items() if orders) == ["france", "italy", "turkey"]
    page.click("#message-players")
    assert "The computer played Italy and Turkey in Spring 1901 movement." in page.input_value("#players-message")

    # Russia's player leaves: the game master hands Russia to the computer in the autumn.
    page.select_option("#seat-russia", "heuristic")
    assert "Russia is played by the computer" in page.inner_text("#computer-status")
    assert "the computer (Normal)" in page.inner_text("#intake tr[data-power=russia]")
    assert sorted(the_game(page).computer) == ["italy", "russia", "turkey"]  # in the game master's link
    adjudicate(page)
    adjudicated(page, "F1901M")
    game = the_game(page)
    autumn = next(r for r in game.history if str(r.phase) == "F1901M")
    assert {"italy", "russia", "turkey"} <= {p for p, orders in autumn.orders.items() if orders}
    page.click("#message-players")
    assert "The computer played Italy, Russia and Turkey in Fall 1901 movement." in page.input_value("#players-message")

    # A player's page says who the computer plays, and offers no change of seats.
    players = str(page.input_value("#players-link"))
    player, _ = new_context()
    view = open_app(player, players)
    assert "The computer plays Italy, Russia and Turkey" in view.inner_text("#computer-summary")
    assert view.locator("#seat-russia").is_disabled()
    assert recorder.page_errors == []


def test_orders_for_the_rest_by_computer_fill_the_sandbox_drawn_and_editable(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    enter_text(page, "A Par - Bur", "france")
    page.click("#computer-fill")
    page.wait_for_function(
        "() => document.getElementById('computer-status').textContent.startsWith('The computer gave orders')",
        timeout=30_000)
    listing = listed_orders(page)
    assert len(listing) == 22 and "FRA: A Par - Bur" in listing  # an order given stays as it was
    assert {line[:3] for line in listing} == {"AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"}
    assert page.locator("#map .adj-order").count() >= 22  # drawn, before adjudication
    assert phase(page) == "S1901M"
    enter_text(page, "A Mar H", "france")  # and changed like any order
    assert "FRA: A Mar H" in listed_orders(page)
    page.click("#adjudicate")  # everything is ordered: no warning, and no computer player to wait for
    adjudicated(page, "S1901M")
    assert "Mar H" in page.inner_text("#results") or "Marseilles" in page.inner_text("#results")
    page.click("#computer-fill")  # nothing left to fill once a phase's orders are all given is said too
    assert recorder.page_errors == []


def test_against_the_computer_from_the_keyboard(app: tuple[Any, Any]) -> None:
    page, recorder = app
    page.focus("#game-kind")
    page.keyboard.press("ArrowDown")  # Sandbox -> Against the computer
    assert page.input_value("#game-kind") == "computer"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "new-game"
    page.keyboard.press("Enter")
    page.wait_for_selector("#computer-dialog[open]", timeout=5_000)
    # the dialog's first power takes the focus; Space ticks, Tab goes on to the next
    assert page.evaluate("document.activeElement.id") == "mine-austria"
    for _ in range(6):  # Austria to Russia; Turkey is left to the computer
        page.keyboard.press("Space")
        page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # to the level
    assert page.evaluate("document.activeElement.id") == "computer-new-level"
    page.keyboard.press("End")  # Strong
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Start the game
    page.wait_for_function("() => document.getElementById('computer-summary').textContent.includes('plays Turkey')",
                           timeout=20_000)

    page.evaluate(HOLD_SLICES)
    page.focus("#adjudicate")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "adjudicate-anyway"
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.__held() > 0", timeout=30_000)
    # the keyboard is on Stop (Adjudicate is inert while the computer thinks)
    assert page.evaluate("document.activeElement.id") == "computer-stop"
    assert page.evaluate("document.querySelector('.adjudicate-row').inert")
    # Enter on a unit of the map meanwhile gives no order
    page.focus("#map .adj-unit[data-power=austria]")
    page.keyboard.press("Enter")
    assert page.evaluate(MAP_SELECTED) == 0 and page.locator("#click-order button").count() == 0
    page.focus("#computer-stop")
    page.keyboard.press("Enter")
    page.evaluate("window.__release()")
    page.wait_for_function("() => document.getElementById('computer-status').textContent.startsWith('Stopped')",
                           timeout=10_000)
    assert phase(page) == "S1901M"
    assert page.evaluate("document.activeElement.id") == "adjudicate"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")  # Adjudicate anyway: the computer thinks, then the phase is adjudicated
    adjudicated(page, "S1901M")
    assert page.evaluate("document.activeElement.id") == "adjudicate"
    assert the_game(page).history[0].orders.get("turkey")
    assert recorder.page_errors == []


def test_a_cluster_game_against_the_computer_on_a_phone_shows_only_the_players_own_secrets(
        shared_page: Any, new_context: Any, site: Site) -> None:
    from adjutant.variants.cluster import GM, cluster_state

    page, recorder = shared_page(**PHONE_CONTEXT)
    start_against_the_computer(page, "cluster", ["france"], "heuristic", tap=True)
    assert "You play France: its secrets are shown" in page.inner_text("#secrets-role")
    assert not page.locator("#unlock-form").is_visible()  # no passphrase: this screen's secrets are France's
    assert page.locator("#computer").is_visible() and "people play France" in page.inner_text("#computer-summary")
    # the nominations asked of this screen are France's alone, given from the keyboard
    assert page.locator("#nominations fieldset").count() == 1
    page.focus("select[name='nominate-france-3']")
    page.keyboard.press("ArrowDown")  # choose… -> a later build
    page.keyboard.press("ArrowDown")  # -> France's first unit
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")  # 2×: a later build
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.action") == "nominate-france"
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector(\"[data-action='nominate-france']\")", timeout=10_000)
    assert small_controls(page) == []

    now = "S1901M"
    while now.startswith(("S1901", "F1901")):  # the year's movements (and its retreats)
        adjudicate(page, tap=True)
        now = adjudicated(page, now)
        said = page.inner_text("#computer-status")  # (a phase that is the computer's alone played on)
        assert "The computer gave the orders of" in said or "by itself" in said, said
    game = the_game(page)  # the link holds the game itself, its computer seats with it
    state = cluster_state(game.position.variant_state)
    assert state is not None and state.view == GM and set(game.computer) == set(game.variant.powers) - {"france"}
    computer_ordered_everything(game, set(game.computer))
    assert any(str(o).startswith("Nominate") for o in game.history[0].orders.get("austria", []))
    # what the screen lists: France's secrets, what the rules reported; no site, no hidden strength
    secrets = page.inner_text("#secret-list")
    assert "Sites of the Ancients" not in secrets
    hidden = {p for p, level in state.strengths().items()
              if game.units[p].power != "france" and not state.auras[p].revealed}
    assert hidden, "the computer's powers hold strengths not yet reported"
    for line in secrets.splitlines():
        if "×" in line and not line.startswith("France"):
            assert "(reported)" in line, line
    assert "Nominate" not in page.inner_text("#results")  # (the computer's nominations are its own)

    # the link opened elsewhere: the same game, seen as France's player sees it
    other, _ = new_context()
    shared = open_app(other, site.url + "#" + str(page.evaluate("location.hash")).lstrip("#"))
    assert phase(shared) == now
    assert "You play France" in shared.inner_text("#secrets-role")
    assert shared.inner_text("#secret-list") == secrets
    assert recorder.page_errors == []


def test_a_cluster_group_games_master_hands_a_power_to_the_computer(new_context: Any, site: Site) -> None:
    from adjutant.group_play import cluster_links as cg

    context, recorder = new_context()
    page = open_app(context, site.url)
    before = start_cluster_group_game(page)
    assert page.locator("#computer").is_visible()  # (a Cluster group game's master has the seats too)
    page.click("#computer-seats-box summary")  # (folded in a game the computer does not play in yet)
    page.select_option("#seat-italy", "heuristic")
    assert "Italy is played by the computer" in page.inner_text("#computer-status")
    sealed = cluster_gm_fragment(page, before)  # sealed again: the seat is in the link's public part
    seats = cg.read_link(sealed).public["computer"]
    assert list(seats) == ["italy"] and seats["italy"]["level"] == "heuristic"
    adjudicate(page)
    adjudicated(page, "S1901M")
    page.click("#message-players")
    page.wait_for_function("() => document.getElementById('players-message').value.includes('The computer played')",
                           timeout=20_000)
    assert "The computer played Italy in Spring 1901 movement." in page.input_value("#players-message")

    # the game master's link opened again, unlocked: the same seat; a player's page names it
    link = str(page.evaluate("location.hash")).lstrip("#")
    again, _ = new_context()
    reopened = open_app(again, site.url + "#" + link)
    assert unlock(reopened, PASSPHRASES["gm"]).startswith("Unlocked")
    reopened.wait_for_function(
        "() => document.getElementById('computer-summary').textContent.includes('The computer plays Italy')",
        timeout=20_000)
    player, _ = new_context()
    view = open_app(player, players_link(page))
    assert "The computer plays Italy" in view.inner_text("#computer-summary")
    assert view.locator("#seat-italy").is_disabled()
    assert recorder.page_errors == []
