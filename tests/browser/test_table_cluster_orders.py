"""Cluster by click: a unit's choices are the Cluster orders the engine's legal orders hold for it
(Research always; Transfer and Mattermission only where its power knows them and has found the site the
unit stands on; a host's "Transfer out" for the power whose aura it carries), and Transfer, Transfer out
and Mattermission are given by clicking (or pressing Enter on) the highlighted unit or place. Coast-Running's
Protect, the other order of its own, likewise."""

from __future__ import annotations

from typing import Any

from adjutant.game import Game
from adjutant.group_play import cluster_views
from app_driver import (
    Site,
    adjudicate,
    enter_text,
    france_knowing,
    inside_unit_box,
    new_cluster_game,
    new_game,
    open_game,
    open_new_cluster_dialog,
    serious_violations,
    shows_on_top,
)


def france_knowing_transfer() -> Game:
    return france_knowing(2)


def france_hosted_in_munich() -> Game:
    """Spring 1902: France's triple aura took over Germany's A Mun in the fall (worth 2 now), and the host
    ended that phase on Munich's site, which France so found: France may transfer its aura out."""
    game = france_knowing(2, munich_site=True)
    assert game.add_orders("France: A par TRA A mun") == []
    game.adjudicate()
    while game.phase.kind != "movement":
        game.adjudicate()
    state = game.position.variant_state
    assert [(t.power, t.host, t.value) for t in state.transferees] == [("france", "mun", 2)]
    assert "mun" in state.found["france"]
    return game


def actions(page: Any) -> list[str]:
    return [str(a) for a in page.eval_on_selector_all("#click-order button", "els => els.map(e => e.dataset.action)")]


def test_cluster_orders_offered_by_click_are_the_legal_ones(
        shared_app: tuple[Any, Any], site: Site, tmp_path: Any) -> None:
    page, recorder = shared_app
    open_game(page, france_knowing_transfer(), tmp_path)

    page.locator('#map .adj-unit[data-location="mar"]').click()  # on no site France has found
    assert actions(page) == ["hold", "support", "research", "cancel"]
    page.locator('#map .adj-unit[data-location="par"]').click()  # a triple unit on its found site
    assert actions(page) == ["hold", "support", "research", "transfer", "cancel"]  # no Mattermission known
    page.click("[data-action=transfer]")
    assert "click the unit it takes over" in page.inner_text("#click-prompt")
    assert page.locator('#map .adj-target[id="mun"]').count() == 1
    assert page.locator('#map .adj-target[id="bre"]').count() == 0  # a fleet: not Paris's type
    assert serious_violations(page, site) == []
    page.locator('#map .adj-unit[data-location="mun"]').click()
    assert "FRA: A Par TRA A Mun" in page.inner_text("#order-list")
    assert page.inner_text("#orders-errors") == ""
    assert page.locator("#map .adj-orders .adj-order.transfer").count() == 1
    # its "T" is drawn on the unit, inside the room the map keeps for it: it hides no name
    assert page.locator("#map .adj-unit-mark.transfer .adj-badge-text").text_content() == "T"
    assert inside_unit_box(page, ".adj-unit-mark.transfer .adj-badge", "par")
    assert shows_on_top(page, "#map .adj-unit-mark.transfer .adj-badge")  # over the unit, not under it
    assert recorder.page_errors == []


def test_a_mattermission_by_click_is_drawn_listed_and_adjudicated(shared_app: tuple[Any, Any], tmp_path: Any) -> None:
    """Select the unit, choose Mattermission, click a highlighted place: its "M" and dashed arrow on the
    map, its line in the order list; adjudicated, the unit stands there and the results say so."""
    page, recorder = shared_app
    open_game(page, france_knowing(3), tmp_path)
    page.locator('#map .adj-unit[data-location="par"]').click()
    assert actions(page) == ["hold", "support", "research", "mattermit", "cancel"]
    assert page.inner_text("[data-action=mattermit]") == "Mattermission"
    page.click("[data-action=mattermit]")
    assert "A Paris is mattermitted: click where it is sent" in page.inner_text("#click-prompt")
    assert page.locator('#map .adj-target[id="ruh"]').count() == 1  # two spaces away, on land
    assert page.locator('#map .adj-target[id="eng"]').count() == 0  # a sea: never
    page.locator('#map [id="eng"]').dispatch_event("click")
    assert "A Paris cannot be mattermitted to English Channel" in page.inner_text("#click-note")
    page.locator('#map [id="ruh"]').dispatch_event("click")
    assert "FRA: A Par MAT Ruh" in page.inner_text("#order-list")
    assert page.inner_text("#orders-errors") == ""
    drawn = page.locator("#map .adj-orders .adj-order.mattermit")
    assert drawn.count() == 1
    assert page.locator("#map .adj-unit-mark.mattermit .adj-badge-text").text_content() == "M"
    assert shows_on_top(page, "#map .adj-unit-mark.mattermit .adj-badge")
    assert drawn.locator("title").first.text_content() == "Paris mattermits to Ruhr"
    adjudicate(page)
    page.wait_for_function("() => document.documentElement.dataset.phase === 'S1902M'", timeout=10_000)
    assert page.locator('#map .adj-unit[data-location="ruh"][data-power="france"]').count() == 1
    assert page.locator('#map .adj-unit[data-location="par"]').count() == 0
    assert page.locator("#map .adj-order.mattermit.succeeded").count() == 1
    assert "A Par MAT Ruh  (mattermitted)" in page.inner_text("#results")
    assert "France: A Paris was mattermitted to Ruhr." in (page.locator("#results-summary").text_content() or "")
    assert recorder.page_errors == []


def test_the_transferees_power_transfers_out_of_its_host_by_click_and_by_keyboard(
    shared_app: tuple[Any, Any], site: Site, tmp_path: Any
) -> None:
    """Germany's A Mun carries France's aura: selected, it offers "Transfer out (France)" (France's order,
    from the engine's legal orders); the other armies are highlighted; a click gives France's order, drawn
    with the transfer's "T" on Munich. Given again from the keyboard, then adjudicated: the aura moved."""
    page, recorder = shared_app
    open_game(page, france_hosted_in_munich(), tmp_path)
    page.locator('#map .adj-unit[data-location="mun"]').click()
    assert actions(page) == ["hold", "support", "research", "transfer-out", "cancel"]
    assert page.inner_text("[data-action=transfer-out]") == "Transfer out (France)"
    page.click("[data-action=transfer-out]")
    assert page.inner_text("#click-prompt") == (
        "France's aura, hosted by A Munich, transfers out: click the unit it takes over (highlighted)")
    assert page.locator('#map .adj-target[id="ber"]').count() == 1
    assert page.locator('#map .adj-target[id="kie"]').count() == 0  # a fleet: not the host's type
    assert serious_violations(page, site) == []
    page.locator('#map .adj-unit[data-location="lon"]').click()  # England's fleet: no choice
    assert "A Munich cannot transfer out to the unit in London" in page.inner_text("#click-note")
    page.locator('#map .adj-unit[data-location="ber"]').click()
    assert "FRA: A Mun TRA A Ber" in page.inner_text("#order-list")
    assert page.inner_text("#orders-errors") == ""
    drawn = page.locator("#map .adj-orders .adj-order.transfer")
    assert drawn.count() == 1
    assert page.locator("#map .adj-unit-mark.transfer:not(.result) .adj-badge-text").text_content() == "T"
    assert drawn.locator("title").first.text_content() == "Munich transfers to Berlin"
    assert inside_unit_box(page, ".adj-unit-mark.transfer:not(.result) .adj-badge", "mun")

    page.click("#orders-clear")  # the same order from the keyboard: Enter on the unit, the button, the target
    assert "TRA" not in page.inner_text("#order-list")
    page.locator('#map .adj-unit[data-location="mun"]').focus()
    page.keyboard.press("Enter")
    page.locator("[data-action=transfer-out]").focus()
    page.keyboard.press("Enter")
    assert "transfers out" in page.inner_text("#click-prompt")
    page.locator('#map .adj-target[id="ber"]').focus()
    page.keyboard.press("Enter")
    assert "FRA: A Mun TRA A Ber" in page.inner_text("#order-list")
    adjudicate(page)
    page.wait_for_function("() => document.documentElement.dataset.phase === 'F1902M'", timeout=10_000)
    assert "A Mun TRA A Ber  (transfer: took over A Ber)" in page.inner_text("#results")
    page.locator('#map .adj-unit[data-location="mun"]').click()  # Munich is Germany's own again
    assert "transfer-out" not in actions(page)
    assert recorder.page_errors == []


def press_enter_on(page: Any, selector: str) -> None:
    """The keyboard's way to a click: focus the element (a unit, a highlighted place, a button), press Enter."""
    page.locator(selector).focus()
    page.keyboard.press("Enter")


def wait_for_phase(page: Any, name: str) -> None:
    page.wait_for_function("name => document.documentElement.dataset.phase === name", arg=name, timeout=10_000)


def test_every_kind_of_cluster_order_is_given_from_the_keyboard(shared_app: tuple[Any, Any], tmp_path: Any) -> None:
    """A game master with only a keyboard: Mattermission and Research (Enter on the unit, on the order's
    button, on the highlighted place), a retreat (Enter on the dislodged unit, on where it goes), a build
    (Enter on the centre, on "Build Army") and a removal (Enter on the unit), each adjudicated."""
    page, recorder = shared_app
    game = next(g for g in map(cluster_views.new_game, range(1000)) if g.position.variant_state.sites.get("par") == 3)
    assert game.add_orders("France: Nominate 3 par\nNominate 2 mar\nA par RES\nA mar - spa\nGermany: A mun - tyr") == []
    game.adjudicate()
    open_game(page, game, tmp_path)
    press_enter_on(page, '#map .adj-unit[data-location="par"]')
    press_enter_on(page, "[data-action=mattermit]")
    press_enter_on(page, '#map .adj-target[id="ruh"]')
    press_enter_on(page, '#map .adj-unit[data-location="spa"]')
    assert "mattermit" not in actions(page)  # no site France has found in Spain
    press_enter_on(page, "[data-action=research]")
    listing = page.inner_text("#order-list")
    assert "FRA: A Par MAT Ruh" in listing and "FRA: A Spa RES" in listing
    enter_text(page, "Germany: A tyr - ven\nAustria: F tri S A tyr - ven")
    adjudicate(page)
    wait_for_phase(page, "F1901R")
    assert page.locator('#map .adj-unit[data-location="ruh"][data-power="france"]').count() == 1

    # only the dislodged Italian army is ordered now, not the German one that took its place
    assert page.locator('#map .adj-unit.orderable[data-location="ven"]').get_attribute("data-power") == "italy"
    press_enter_on(page, '#map .adj-unit.orderable[data-location="ven"]')
    assert "A Venice: click where it retreats" in page.inner_text("#click-prompt")
    assert page.locator('#map .adj-unit.selected[data-location="ven"]').get_attribute("data-power") == "italy"
    press_enter_on(page, '#map .adj-target[id="tus"]')
    assert "ITA: A Ven R Tus" in page.inner_text("#order-list")
    adjudicate(page)
    wait_for_phase(page, "W1901A")

    press_enter_on(page, '#map .adj-target[id="mar"]')  # France gained Spain; Marseilles is free
    assert "Build what in Marseilles?" in page.inner_text("#click-prompt")
    press_enter_on(page, "[data-action=build-A]")
    assert "FRA: Build A Mar" in page.inner_text("#order-list")
    press_enter_on(page, '#map .adj-unit.orderable[data-location="tus"]')  # Italy lost Venice: one removal
    assert "ITA: A Tus" in page.inner_text("#order-list")
    adjudicate(page)
    wait_for_phase(page, "S1902M")
    assert page.locator('#map .adj-unit[data-location="mar"][data-power="france"]').count() == 1
    assert page.locator('#map .adj-unit[data-location="tus"]').count() == 0
    assert recorder.page_errors == []


def test_a_coast_running_protect_is_given_by_keyboard_and_click_and_adjudicated(shared_app: tuple[Any, Any]) -> None:
    """Protect is offered to an army on a coast some fleet could run past, and only then; from the keyboard:
    the army, "Protect", the fleet, where it runs (its shield on the map); the fleet's run by click; a click
    on a unit that is not a fleet it could protect says why; adjudicated, the fleet has run."""
    page, recorder = shared_app
    new_game(page, "coast_running")
    page.locator('#map .adj-unit[data-location="lvp"]').click()  # no fleet could run past Liverpool
    assert actions(page) == ["hold", "support", "cancel"]
    page.click("[data-action=cancel]")
    press_enter_on(page, '#map .adj-unit[data-location="rom"]')
    assert actions(page) == ["hold", "support", "protect", "cancel"]
    press_enter_on(page, "[data-action=protect]")
    assert page.inner_text("#click-prompt") == "A Rome protects: click the fleet"
    page.locator('#map .adj-unit[data-location="tri"]').click()  # Austria's fleet: no run past Rome
    assert "A Rome cannot protect the unit in Trieste: choose a highlighted unit" in page.inner_text("#click-note")
    press_enter_on(page, '#map .adj-target[id="nap"]')
    assert page.inner_text("#click-prompt") == "A Rome protects F Naples: click where it runs"
    press_enter_on(page, '#map .adj-target[id="tus"]')
    assert "ITA: A Rom P F Nap - Tus" in page.inner_text("#order-list")
    assert page.locator("#map .adj-unit-mark.protect .adj-shield").count() == 1
    page.locator('#map .adj-unit[data-location="nap"]').click()
    assert page.locator('#map .adj-target[id="tus"]').count() == 1  # the run along Rome's coast
    page.locator('#map [id="tus"]').dispatch_event("click")
    assert "ITA: F Nap - Tus" in page.inner_text("#order-list")
    adjudicate(page)
    wait_for_phase(page, "F1901M")
    assert page.locator('#map .adj-unit[data-location="tus"][data-power="italy"]').count() == 1
    assert recorder.page_errors == []


def test_after_nominating_from_the_keyboard_the_focus_goes_on_to_the_next_form(shared_app: tuple[Any, Any]) -> None:
    """Nominate takes its power's form away: the focus goes to the next power's form, and after the last
    one to the list of what this view knows, never back to the top of the page."""
    page, recorder = shared_app
    new_cluster_game(page)
    forms = page.eval_on_selector_all("#nominations fieldset", "els => els.map(e => e.dataset.power)")
    for power in forms:
        first = page.locator(f'#nominations select[data-power="{power}"]').first
        first.focus()
        page.keyboard.press("ArrowDown")  # from "choose…" to "a later build", for the 3× and the 2×
        page.keyboard.press("Tab")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.action") == f"nominate-{power}"
        page.keyboard.press("Enter")
        page.wait_for_function(
            "p => !document.querySelector(`#nominations fieldset[data-power='${p}']`)", arg=power, timeout=10_000)
        following = forms[forms.index(power) + 1:]
        if following:
            assert page.evaluate("document.activeElement.dataset.power") == following[0]
        else:
            assert page.evaluate("document.activeElement.id") == "secret-list"
    assert "Nominate" in page.inner_text("#order-list")
    assert recorder.page_errors == []


def test_a_message_given_while_a_new_games_keys_are_made_stays(shared_app: tuple[Any, Any]) -> None:
    """A new Cluster game takes orders while its keys are made; the note that they are being made goes
    when they are ready, but a message given meanwhile (a nomination refused) stays to be read."""
    page, recorder = shared_app
    open_new_cluster_dialog(page)
    page.click("#passphrase-generate")
    page.click("#passphrase-ok")
    page.wait_for_selector("#nominations select", timeout=10_000)
    assert "Making its keys" in page.inner_text("#message-text")  # the keys are not ready yet
    page.select_option("#nominations select[data-power='austria'][data-level='3']", "bud")
    page.select_option("#nominations select[data-power='austria'][data-level='2']", "bud")
    page.click("[data-action=nominate-austria]")
    refused = "Nominate 2 bud: A bud is already nominated the 3 times force unit"
    assert page.inner_text("#message-text") == refused
    page.wait_for_function("() => location.hash.startsWith('#cluster.s=')", timeout=30_000)  # the keys are ready
    page.wait_for_timeout(200)
    assert page.locator("#message").is_visible() and page.inner_text("#message-text") == refused
    assert recorder.page_errors == []
