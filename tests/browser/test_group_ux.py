"""Group play as a newcomer meets it: on a phone (390 x 844, touch) and with the keyboard alone.

A player who was sent the players' link chooses a power, gives orders by tapping the map, sends them and
copies (or shares) the sealed code, every control on screen and big enough to tap; the game master, on a
phone too, pastes the code and reads the table without the page scrolling sideways. Then the same player's
path with the keyboard only, ending in a code the game master opens, and the new group game dialog's
focus (kept inside, Escape closes it, focus goes back).
"""

from __future__ import annotations

import re
from typing import Any

import group_tables
from adjutant.game import Game
from adjutant.group_play import codes as group
from app_driver import PHONE, Site, adjudicate, assert_focus_visible, in_viewport, open_app, tab_to, tap_map
from group_driver import assert_fits_a_phone
from group_tables import Devices

#: a player's browser on a wide screen
WIDE = {"viewport": {"width": 1366, "height": 900}, "permissions": ["clipboard-read", "clipboard-write"]}
PASSPHRASE = "a game master's passphrase"
#: the browsers the tests share: the game masters' and the players' (group_tables.py)
shared_devices, devices = group_tables.shared_devices, group_tables.devices
#: Where the browser has navigator.share (a phone's), the page offers Share: this stands in for the system's
#: share sheet and keeps what it was given.
FAKE_SHARE = "navigator.share = async data => { window.sharedData = data; };"


def start_group_game(page: Any) -> str:
    """The game master starts a group game of Standard: the game master's link."""
    page.select_option("#game-kind", "group")
    page.locator("#new-game").click()
    page.wait_for_selector("#group-dialog[open]", timeout=5_000)
    page.fill("#group-passphrase", PASSPHRASE)
    page.locator("#group-ok").click()
    page.wait_for_function("() => location.hash.includes('.gm~')", timeout=20_000)
    return str(page.evaluate("location.hash")).lstrip("#")


def test_a_player_and_the_game_master_on_phones(devices: Devices, new_context: Any, site: Site) -> None:
    gm = devices.new_game("phone-gm", **PHONE)
    start_group_game(gm)
    # after the dialog: the players' link, shown in full to copy, and its Copy button, on screen
    gm.wait_for_function("() => document.getElementById('players-link').value.includes('.grp~')")
    assert in_viewport(gm, "#copy-public-link")
    assert gm.evaluate("document.activeElement.id") == "copy-public-link"
    players_url = gm.input_value("#players-link")
    assert players_url.startswith(site.url) and not gm.locator("#share-public-link").is_visible()  # no share here
    gm.locator("#copy-public-link").tap()
    gm.wait_for_selector("#link-status:has-text('copied')")
    assert gm.evaluate("navigator.clipboard.readText()") == players_url
    assert_fits_a_phone(gm)

    # --- the player, on a phone that has a share sheet ---
    context, _ = new_context(**PHONE)
    context.add_init_script(FAKE_SHARE)
    player = open_app(context, players_url)
    # the map fills the screen: a button at the top leads to the group game's first step
    assert in_viewport(player, "#group-jump")
    assert "choose your power" in player.inner_text("#group-jump")
    assert "Choose the power you play" in player.inner_text("#click-prompt")
    player.locator("#group-jump").tap()
    player.wait_for_function("() => document.activeElement.id === 'group-power'")
    assert in_viewport(player, "#group-power")
    assert not player.locator("#adjudicate").is_visible()  # the game master's, never a player's
    player.select_option("#group-power", "france")
    player.wait_for_function("() => document.getElementById('orders-power').value === 'france'")
    assert "You play France" in player.inner_text("#group-role")
    # the next step, giving orders: named by the shortcut, and a button under the choice leads there
    assert "give your orders" in player.inner_text("#group-jump")
    assert in_viewport(player, "#group-to-orders")
    player.locator("#group-to-orders").tap()
    player.wait_for_function("() => document.activeElement.id === 'order-list'")
    # orders are given by taps on the map: it is on screen, the Orders panel's prompt under it
    assert in_viewport(player, "#map") and in_viewport(player, "#orders-heading")
    assert in_viewport(player, "#click-prompt")

    # orders by tapping: Paris to Burgundy, Marseilles holds (a second tap on the unit)
    tap_map(player, "par")
    tap_map(player, "bur")
    tap_map(player, "mar")
    tap_map(player, "mar")
    orders = player.inner_text("#order-list")
    assert "FRA: A Par - Bur" in orders and "FRA: A Mar" in orders
    assert "2 orders given, 1 unit without orders (it holds)" in player.inner_text("#send-summary")

    player.locator("#group-jump").tap()
    player.wait_for_function("() => document.activeElement.id === 'send-orders'")
    assert in_viewport(player, "#send-orders")
    player.locator("#send-orders").tap()
    player.wait_for_function("() => document.getElementById('orders-code').value.startsWith('orders~')")
    code = player.input_value("#orders-code")
    note = player.inner_text("#orders-code-note")
    assert "Sealed 2 orders for France, Spring 1901 movement" in note
    assert "send this code to your game master" in note
    # what to do next, the code and its Copy button: on screen at once, the focus on Copy
    for selector in ("#orders-code-note", "#orders-code", "#copy-code", "#share-code"):
        assert in_viewport(player, selector), selector
    assert player.evaluate("document.activeElement.id") == "copy-code"
    assert_fits_a_phone(player)
    player.locator("#copy-code").tap()
    player.wait_for_selector("#send-status:has-text('Copied')")
    assert player.evaluate("navigator.clipboard.readText()") == code
    assert in_viewport(player, "#send-status")
    player.locator("#share-code").tap()
    player.wait_for_function("() => window.sharedData !== undefined")
    assert player.evaluate("window.sharedData") == {"text": code}
    # the code's field selects its whole text at a tap, for the phone's own copy menu
    player.locator("#orders-code").tap()
    assert player.evaluate(
        "(() => { const e = document.getElementById('orders-code'); return [e.selectionStart, e.selectionEnd]; })()"
    ) == [0, len(code)]

    # --- the game master pastes an email holding the code ---
    gm.locator("#codes-text").tap()
    gm.fill("#codes-text", "France says: my orders are coming")  # no code in it: said, and the text kept
    gm.locator("#open-codes").tap()
    gm.wait_for_selector("#codes-status.error:has-text('Nothing opened: no sealed orders code')")
    assert gm.input_value("#codes-text") == "France says: my orders are coming"
    # as an email program quotes it in a reply, wrapped at 60 columns, a word on the line after it
    wrapped = "\n".join(f"> {code[i : i + 60]}" for i in range(0, len(code), 60))
    assert wrapped.count("\n") >= 2
    gm.fill("#codes-text", f"Hi, here are France's orders:\n{wrapped}\nThanks\nBest, F.")
    gm.locator("#open-codes").tap()
    gm.wait_for_selector("#codes-log li")
    assert "France: 2 orders in" in gm.inner_text("#codes-log")
    # each code is named by its end, which tells codes apart (every code of a phase begins alike)
    assert gm.inner_text("#codes-log li").startswith(f"orders~…{code[-8:]} France")
    assert "1 code taken in, 0 refused" in gm.inner_text("#codes-status")
    # the same code pasted again changes nothing, and is not counted as taken in
    gm.fill("#codes-text", code)
    gm.locator("#open-codes").tap()
    gm.wait_for_selector("#codes-status:has-text('already in')")
    assert gm.inner_text("#codes-status") == "0 codes taken in, 1 already in, 0 refused: see the list and the table."
    assert "France: this code is already in" in gm.inner_text("#codes-log")
    assert in_viewport(gm, "#codes-status")
    # the table: a caption, column headers, and each power's name as its row's header
    assert "sealed codes in from 1 of 7 powers" in gm.inner_text("#intake caption")
    assert gm.eval_on_selector_all("#intake thead th[scope=col]", "els => els.length") == 2
    script = "rows => rows.map(r => [r.querySelector('th[scope=row]').textContent, r.cells[1].textContent])"
    rows = gm.eval_on_selector_all("#intake tbody tr", script)
    assert len(rows) == 7 and dict(rows)["France"].startswith("sealed orders in")
    box = gm.eval_on_selector("#intake", "e => e.getBoundingClientRect().toJSON()")
    assert box["left"] >= 0 and box["right"] <= 390
    assert_fits_a_phone(gm)
    # a damaged code: refused with the reason, next to the button that was pressed
    gm.fill("#codes-text", code[:100])
    gm.locator("#open-codes").tap()
    gm.wait_for_selector("#codes-status:has-text('1 refused')")
    assert "refused: " in gm.inner_text("#codes-log") and "cut short" in gm.inner_text("#codes-log")
    assert in_viewport(gm, "#codes-status")
    assert_fits_a_phone(gm)

    # adjudicated: the next step is the message to players, and the jump leads to it
    adjudicate(gm, tap=True)
    gm.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'")
    assert gm.inner_text("#link-status") == ""  # "copied" was said of the last phase's link
    assert "message to players" in gm.inner_text("#group-jump")
    gm.evaluate("scrollTo(0, 0)")
    gm.locator("#group-jump").tap()
    gm.wait_for_function("() => document.activeElement.id === 'message-players'")
    assert in_viewport(gm, "#message-players")
    gm.locator("#message-players").tap()
    gm.wait_for_selector("#message-status:has-text('copied')")
    assert "Results for Spring 1901" in gm.evaluate("navigator.clipboard.readText()")
    assert gm.locator("#players-message").is_visible() and in_viewport(gm, "#message-status")
    assert "players' link and codes" in gm.inner_text("#group-jump")
    # the next adjudication: a message of an earlier phase is not shown to copy
    adjudicate(gm, tap=True)
    gm.wait_for_function("() => document.documentElement.dataset.phase !== 'F1901M'")
    assert not gm.locator("#players-message").is_visible()
    assert "message to players" in gm.inner_text("#group-jump")
    assert_fits_a_phone(gm)

    # the game master's link opened afresh on the phone: locked; the jump leads to the passphrase, and
    # a wrong one is named beside it, the field ready to type again
    again = open_app(gm.context, gm.evaluate("location.href"))
    assert "unlock with your passphrase" in again.inner_text("#group-jump")
    again.locator("#group-jump").tap()
    again.wait_for_function("() => document.activeElement.id === 'gm-passphrase'")
    again.keyboard.type("not the passphrase")
    again.keyboard.press("Enter")
    again.wait_for_selector("#group-status.error:has-text('does not open')")
    assert in_viewport(again, "#group-status") and in_viewport(again, "#gm-passphrase")
    assert again.evaluate("document.activeElement.id") == "gm-passphrase"
    again.keyboard.type(PASSPHRASE)
    again.keyboard.press("Enter")
    again.wait_for_function("() => document.activeElement.id === 'codes-text'")
    assert not again.locator("#gm-unlock-form").is_visible() and again.locator("#open-codes").is_enabled()
    again.close()


def test_the_keyboard_alone_starts_a_game_and_plays_a_player(devices: Devices, site: Site) -> None:
    gm = devices.new_game("wide-gm", viewport={"width": 1366, "height": 900})
    # the new group game dialog: focus inside it, kept there, Escape closes it and gives the focus back
    gm.select_option("#game-kind", "group")
    tab_to(gm, "new-game")
    gm.keyboard.press("Enter")
    gm.wait_for_selector("#group-dialog[open]")
    assert gm.evaluate("document.activeElement.id") == "group-passphrase"
    assert_focus_visible(gm)
    inside = "document.getElementById('group-dialog').contains(document.activeElement)"
    for _ in range(6):
        gm.keyboard.press("Tab")
        assert gm.evaluate(inside) or gm.evaluate("document.activeElement === document.body")
    gm.keyboard.press("Escape")
    gm.wait_for_selector("#group-dialog:not([open])", state="attached")
    assert gm.evaluate("document.activeElement.id") == "new-game"
    gm.keyboard.press("Enter")
    gm.wait_for_selector("#group-dialog[open]")
    tab_to(gm, "group-ok", 14)  # past the passphrase offered, the empty seats and the level
    gm.keyboard.press("Enter")
    gm.wait_for_function("() => location.hash.includes('.gm~')", timeout=20_000)
    gm.wait_for_function("() => document.activeElement.id === 'copy-public-link'")
    players_url = gm.input_value("#players-link")

    # --- a player, with Tab, Enter and Space (and a letter to choose in the power list) ---
    player = devices.page("wide-player", players_url, **WIDE)
    # on a wide screen too, the first step (far down the column beside the map) is named at the top
    assert player.locator("#group-jump").is_visible() and in_viewport(player, "#group-jump")
    assert "choose your power" in player.inner_text("#group-jump")
    order = tab_to(player, "group-power")
    # (a player's page folds the game master's controls, Copy link among them, behind one button)
    assert "more-tools" in order and order.index("more-tools") < order.index("group-power")
    assert_focus_visible(player)
    player.keyboard.press("f")  # the list's first power starting with F
    player.wait_for_function("() => document.getElementById('orders-power').value === 'france'")
    assert not player.locator("#group-jump").is_visible()  # (the panels are beside the map)
    # the next control leads to the orders (not some twenty Tabs round the page's header)
    player.keyboard.press("Tab")
    assert player.evaluate("document.activeElement.id") == "group-to-orders"
    player.keyboard.press("Enter")
    player.wait_for_function("() => document.activeElement.id === 'order-list'")
    tab_to(player, "orders-text", 3)
    assert_focus_visible(player)
    # an order the parser refuses: nothing is sent, and the reason is given under the box and by Send
    player.keyboard.type("A Par - Nowhere")
    tab_to(player, "send-orders")
    player.keyboard.press("Space")
    player.wait_for_selector("#send-status.error:has-text('Not sent')")
    assert player.inner_text("#orders-errors").strip() and player.input_value("#orders-code") == ""
    assert not player.locator("#orders-code-box").is_visible()
    for _ in range(4):  # back past Enter and the "keep illegal orders" box
        player.keyboard.press("Shift+Tab")
    assert player.evaluate("document.activeElement.id") == "orders-text"
    player.keyboard.press("Control+A")
    player.keyboard.type("A Par - Bur\nA Mar - Spa\nF Bre - Mao")
    order = tab_to(player, "send-orders")
    # past the orders box: "keep illegal orders", Enter orders, Clear, then Send (a player has no Adjudicate)
    assert order == ["orders-keep", "orders-apply", "orders-clear", "send-orders"], order
    assert_focus_visible(player)
    # Send with the orders still in the box, not entered: they are entered, then sealed
    player.keyboard.press("Space")
    player.wait_for_function("() => document.getElementById('orders-code').value.startsWith('orders~')")
    assert player.eval_on_selector_all("#order-list li", "els => els.length") == 3
    assert player.evaluate("document.activeElement.id") == "copy-code"
    code = player.input_value("#orders-code")
    assert "Sealed 3 orders for France" in player.inner_text("#orders-code-note")
    player.keyboard.press("Enter")
    player.wait_for_selector("#send-status:has-text('Copied')")
    assert player.evaluate("navigator.clipboard.readText()") == code
    # the code's field is just before: its whole text selected as it takes the focus, to copy by hand
    player.keyboard.press("Shift+Tab")
    selected = "(e => e.value.substring(e.selectionStart, e.selectionEnd))(document.activeElement)"
    assert player.evaluate("document.activeElement.id") == "orders-code" and player.evaluate(selected) == code

    # the game master opens the code (pasted as an email would hold it)
    gm.fill("#codes-text", f"> {code}\n> Thanks\n")
    gm.click("#open-codes")
    gm.wait_for_selector("#codes-log li")
    assert "France: 3 orders in" in gm.inner_text("#codes-log")
    gm_orders = gm.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)")
    assert sorted(gm_orders) == ["FRA: A Mar - Spa", "FRA: A Par - Bur", "FRA: F Bre - Mao"]
    # the status line says it to a screen reader
    assert gm.get_attribute("#codes-status", "role") == "status"
    assert group.find_codes(code) == [code]

    # the next phase's link: the player's page keeps no code of the phase before, to copy by mistake
    adjudicate(gm)
    gm.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'")
    gm.click("#message-players")
    new_link = re.search(r"https?://\S+#(\S+)", gm.input_value("#players-message"))
    assert new_link is not None
    player.evaluate("h => { location.hash = h; }", new_link.group(1))
    player.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    assert player.input_value("#orders-code") == "" and not player.locator("#orders-code-box").is_visible()
    assert "You play France" in player.inner_text("#group-role")


MAP_FOCUS = """(() => { const e = document.activeElement;
  return {location: e.getAttribute('data-location') || (e.closest('#map') ? e.id : ''),
          power: e.getAttribute('data-power') || '', place: e.classList.contains('adj-target'),
          unit: e.classList.contains('adj-unit')}; })()"""


def new_players_link(devices: Devices) -> str:
    """A game master starts a group game of Standard on a wide screen: the players' link it gives."""
    gm = devices.new_game("wide-gm", viewport={"width": 1366, "height": 900})
    start_group_game(gm)
    gm.wait_for_function("document.getElementById('players-link').value.includes('.grp~')")
    return str(gm.input_value("#players-link"))


def played(*turns: str) -> Game:
    """A game of Standard after each turn's orders (one text per phase) are given and adjudicated."""
    game = Game.new("standard")
    for orders in turns:
        game.add_orders(orders)
        game.adjudicate()
    return game


def two_powers_build(public_key: bytes) -> str:
    """The players' link a game master sends after Fall 1901, Austria and France each owed 2 builds."""
    game = played(
        "Austria: A vie - gal\nF tri - alb\nA bud - ser\nFrance: A mar - spa\nF bre - mao",
        "Austria: F alb - gre\nFrance: F mao - por",
    )
    assert str(game.phase) == "W1901A" and game.adjustments() == {"austria": 2, "france": 2}
    return group.public_link(game, public_key)


def austria_dislodged(public_key: bytes) -> str:
    """The players' link a game master sends after Spring 1901's movement, Austria's army in Vienna dislodged."""
    game = played(
        "Russia: A war - gal\nF sev - rum\nItaly: A ven - tyr\nAustria: A bud - rum\nF tri - alb",
        "Russia: A gal - vie\nA mos - ukr\nItaly: A tyr S A gal - vie",
    )
    assert str(game.phase) == "F1901R" and game.orders_due() == {"austria": 1}, (str(game.phase), game.orders_due())
    return group.public_link(game, public_key)


def austria_removes_two(public_key: bytes) -> str:
    """The players' link a game master sends after Fall 1901, Austria owed 2 removals (Vienna and Trieste,
    left empty, taken by Russia and Italy)."""
    game = played("Austria: A vie - boh\nF tri - alb\nRussia: A war - gal", "Russia: A gal - vie\nItaly: A ven - tri")
    assert str(game.phase) == "W1901A" and game.adjustments()["austria"] == -2
    return group.public_link(game, public_key)


def test_a_player_on_a_phone_chooses_removals_by_taps_and_changes_one(
    devices: Devices, new_context: Any, site: Site
) -> None:
    """A tap on a unit removes it, as many as are due; a tap on a third says the removals are chosen and
    how to change them, on screen; a tap on one chosen keeps it, and the next tap chooses another. The Send
    panel and the orders sent are the removals chosen last."""
    players_url = new_players_link(devices)
    base, fragment = players_url.split("#")
    link = austria_removes_two(group.read_group_link(fragment).public_key)
    context, recorder = new_context(**PHONE)  # (reloaded: a context of its own)
    player = open_app(context, f"{base}#{link}~austria")
    player.wait_for_function("() => document.getElementById('orders-power').value === 'austria'")
    assert player.inner_text("#click-prompt") == "Austria must remove 2 units: click one of your units to remove it."
    assert "You play Austria. Choose your removals on the map" in player.inner_text("#group-role")
    tap_map(player, "boh")
    assert "1 more unit" in player.inner_text("#click-prompt")
    tap_map(player, "alb")
    assert player.inner_text("#order-list").split("\n") == ["AUS: A Boh D", "AUS: F Alb D"]
    chosen = "Austria has chosen its 2 removals (A Bohemia, F Albania): click one of those units to keep it instead."
    assert player.inner_text("#click-prompt") == chosen
    tap_map(player, "bud")  # a third: nothing given; the prompt says why, once, as the tap's answer
    assert player.locator("#click-prompt.click-note[role=status]").inner_text() == chosen
    assert player.inner_text("#click-order").count(chosen) == 1 and player.locator("#click-note").count() == 0
    assert in_viewport(player, "#click-prompt")
    assert player.inner_text("#order-list").split("\n") == ["AUS: A Boh D", "AUS: F Alb D"]
    tap_map(player, "boh")  # kept
    assert player.inner_text("#click-note") == "A Bohemia is kept: Austria must remove 1 more unit."
    assert player.inner_text("#order-list").split("\n") == ["AUS: F Alb D"]
    tap_map(player, "bud")
    assert player.inner_text("#order-list").split("\n") == ["AUS: F Alb D", "AUS: A Bud D"]
    assert player.inner_text("#send-summary").startswith("Austria: 2 orders given"), player.inner_text("#send-summary")
    assert_fits_a_phone(player)
    # the draft the page keeps (and would send) has the removals chosen last
    player.reload()
    player.wait_for_function("() => document.getElementById('orders-power').value === 'austria'")
    player.wait_for_function("() => document.getElementById('order-list').innerText.includes('A Bud D')")
    assert player.inner_text("#order-list").split("\n") == ["AUS: F Alb D", "AUS: A Bud D"]
    # a removal typed beyond those due is named in the Send panel; a tap on it takes it back
    player.fill("#orders-text", "A boh D")
    player.click("#orders-apply")
    player.wait_for_function("() => document.getElementById('order-list').innerText.includes('A Boh D')")
    assert player.inner_text("#send-summary").startswith(
        "Austria: 3 orders given; 3 removals given, 2 due (the last given, A Bohemia, will not count)."
    ), player.inner_text("#send-summary")
    tap_map(player, "boh")
    assert player.inner_text("#order-list").split("\n") == ["AUS: F Alb D", "AUS: A Bud D"]
    assert player.inner_text("#send-summary").startswith("Austria: 2 orders given. Sending seals")
    assert recorder.page_errors == []


def test_a_players_send_panel_says_a_dislodged_unit_without_orders_is_disbanded(devices: Devices) -> None:
    players_url = new_players_link(devices)
    base, fragment = players_url.split("#")
    link = austria_dislodged(group.read_group_link(fragment).public_key)
    player = devices.page("phone-player", f"{base}#{link}~austria", **PHONE)
    player.wait_for_function("() => document.getElementById('orders-power').value === 'austria'")
    summary = player.inner_text("#send-summary")
    assert summary.startswith("Austria: 0 orders given, 1 dislodged unit without orders (it is disbanded)."), summary
    assert "holds" not in summary
    assert "You play Austria. Retreat or disband your dislodged units" in player.inner_text("#group-role")
    # another power, with no unit dislodged, is told it has nothing to order, not to give orders
    other = devices.page("phone-player", f"{base}#{link}~italy", **PHONE)
    other.wait_for_function("() => document.getElementById('orders-power').value === 'italy'")
    assert other.inner_text("#group-role") == (
        "You play Italy. None of Italy's units is dislodged: Italy has nothing to order in this phase."
    )
    assert other.inner_text("#send-summary") == "Italy has nothing to order in this phase: there is nothing to send."
    assert other.locator("#send-orders").is_disabled()
    assert devices.page_errors("phone-player") == []


def test_a_player_builds_only_in_their_own_home_centres(devices: Devices) -> None:
    players_url = new_players_link(devices)
    base, fragment = players_url.split("#")
    link = two_powers_build(group.read_group_link(fragment).public_key)
    player = devices.page("wide-player", f"{base}#{link}~austria", **WIDE)
    player.wait_for_function("document.getElementById('orders-power').value === 'austria'")
    assert player.inner_text("#click-prompt") == (
        "Austria may build 2 units: click one of your highlighted home centres to build."
    )
    assert "You play Austria. Build on the map" in player.inner_text("#group-role")
    # only Austria's empty home centres are highlighted, and only they are the map's keyboard stops
    places = "els => els.map(e => e.id).sort()"
    assert player.eval_on_selector_all("#map .adj-target[tabindex]", places) == ["bud", "tri", "vie"]
    assert player.locator("#map .adj-target").count() == 3  # no French build site among them
    assert player.locator("#map .adj-unit.orderable").count() == 0
    assert player.inner_text("#send-summary").startswith("Austria: 0 orders given, 2 builds not used (waived).")
    # a click on France's build site in Marseilles builds nothing, and says why
    box = player.locator('#map [id="mar"]').first.bounding_box()
    player.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    player.wait_for_selector("#click-note")
    assert "Austria cannot build in Marseilles" in player.inner_text("#click-note")
    assert player.locator("#click-order button[data-action='build-A']").count() == 0
    # Vienna: Build Army
    player.locator('#map [id="vie"]').first.click()
    player.locator("#click-order button[data-action='build-A']").click()
    assert "AUS: Build A Vie" in player.inner_text("#order-list")
    assert player.inner_text("#send-summary").startswith("Austria: 1 order given, 1 build not used (waived).")
    # the map shows the army to be built, faded, in its dashed ring
    build = player.locator("#map .adj-order.build")
    assert build.locator("circle.adj-build-unit").count() == 1
    assert build.locator("text.adj-build-unit").text_content() == "A"
    assert build.locator("title").text_content() == "Austria builds an army in Vienna"
    # with both builds used, Budapest is not offered and a click on it says why
    player.locator('#map [id="tri"]').first.click()
    player.locator("#click-order button[data-action='build-F']").click()
    assert player.eval_on_selector_all("#map .adj-target[tabindex]", places) == ["tri", "vie"]
    player.locator('#map [id="bud"]').first.click()
    used = "Austria has used its 2 builds (A Vienna, F Trieste): click a build given to withdraw it."
    # what the click says is the prompt itself: said once, as the answer to the click
    assert player.inner_text("#click-order").count(used) == 1
    assert player.locator("#click-prompt.click-note[role=status]").inner_text() == used
    assert player.locator("#click-order button[data-action='build-A']").count() == 0
    # a click on a build given takes it back and Budapest is offered
    player.locator('#map [id="vie"]').first.click()
    assert player.inner_text("#click-note") == "The build of A Vienna is withdrawn: Austria may build 1 more unit."
    assert player.inner_text("#order-list").split("\n") == ["AUS: Build F Tri"]
    assert player.inner_text("#send-summary").startswith("Austria: 1 order given, 1 build not used (waived).")
    assert player.eval_on_selector_all("#map .adj-target[tabindex]", places) == ["bud", "tri", "vie"]


def test_a_player_keyboard_reaches_only_their_own_units(devices: Devices) -> None:
    players_url = new_players_link(devices)
    player = devices.page("wide-player", players_url, **WIDE)
    tab_to(player, "group-power")
    for _ in range(3):  # past Austria and England to France, with the arrow keys
        player.keyboard.press("ArrowDown")
    player.wait_for_function("document.getElementById('orders-power').value === 'france'")
    assert player.eval_on_selector_all("#map .adj-unit.orderable", "els => els.map(e => e.dataset.power)") == [
        "france"
    ] * 3
    for _ in range(80):  # on to the map's units
        player.keyboard.press("Tab")
        if player.evaluate(MAP_FOCUS)["unit"]:
            break
    here = player.evaluate(MAP_FOCUS)
    assert here["unit"] and here["power"] == "france", here
    # Enter selects the unit and puts the focus on its first highlighted place; Enter there moves it
    player.keyboard.press("Enter")
    there = player.evaluate(MAP_FOCUS)
    assert there["place"] and there["location"] != here["location"], there
    player.keyboard.press("Enter")
    orders = player.inner_text("#order-list")
    assert f" - {there['location'].capitalize()}" in orders, orders


def test_a_code_pasted_into_the_orders_box_is_said_to_be_a_code_on_a_phone(devices: Devices) -> None:
    """A sealed code pasted where orders are typed enters nothing and says where it goes, for the game
    master and for a player, and the code's long unbroken text does not widen a phone's page."""
    gm = devices.new_game("phone-gm", **PHONE)
    start_group_game(gm)
    base, fragment = gm.input_value("#players-link").split("#")
    key = group.read_group_link(fragment).public_key
    player = devices.page("phone-player", f"{base}#{group.public_link(Game.new('standard'), key, 'france')}", **PHONE)
    player.wait_for_function("() => document.getElementById('orders-power').value === 'france'")
    player.fill("#orders-text", "A Par - Bur")
    player.locator("#send-orders").tap()
    player.wait_for_function("() => document.getElementById('orders-code').value.startsWith('orders~')")
    code = player.input_value("#orders-code")

    for page, where in ((gm, "paste it into the box of codes under Group game"), (player, "Send my orders gives you")):
        page.fill("#orders-text", f"France's orders: {code}\nA Mar - Spa")
        page.locator("#orders-apply").tap()
        page.wait_for_selector("#orders-errors li.rejected")
        said = page.inner_text("#orders-errors")
        assert said.startswith(f"line 1: {code[:15]}… is a sealed orders code, not an order:"), said
        assert where in said and "not a power" not in said and "province" not in said
        assert page.input_value("#orders-text") == f"France's orders: {code}\nA Mar - Spa"  # nothing entered
        assert page.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [390, 390]
    assert "FRA: A Mar - Spa" not in gm.inner_text("#order-list")
    assert player.inner_text("#order-list").strip() == "FRA: A Par - Bur"
    # a player's Send with the code still in the box sends nothing and points at the message
    player.locator("#send-orders").tap()
    player.wait_for_selector("#send-status.error:has-text('Not sent')")
    assert player.input_value("#orders-code") == code

    # any other long unbroken text refused wraps within a phone's width too
    player.fill("#orders-text", "A " + "x" * 300)
    player.locator("#orders-apply").tap()
    player.wait_for_selector("#orders-errors li.rejected")
    assert player.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [390, 390]


def test_a_players_first_screen_on_a_phone_is_a_players(devices: Devices, new_context: Any, site: Site) -> None:
    """A player's page folds the game master's and sandbox controls (Variant, New game, Download, Embed
    code) behind one button, which opens them (by tap, or Enter); the orders box's example reads as a hint.
    The game master's page shows them all."""
    key = b"\x04" + bytes(range(64))
    context, recorder = new_context(**PHONE)  # (a first screen: a fresh browser)
    player = open_app(context, site.url + "#" + group.public_link(Game.new("standard"), key, "france"))
    for selector in ("#variant-select", "#new-game", "#download", "#copy-embed"):
        assert not player.locator(selector).is_visible(), selector
    assert player.locator("#more-tools").is_visible() and in_viewport(player, "#more-tools")
    assert player.get_attribute("#more-tools", "aria-expanded") == "false"
    assert player.get_attribute("#orders-text", "placeholder").startswith("Type orders here, for example:")
    player.locator("#more-tools").tap()
    assert player.get_attribute("#more-tools", "aria-expanded") == "true"
    assert player.locator("#new-game").is_visible() and player.locator("#download").is_visible()
    player.locator("#more-tools").focus()
    player.keyboard.press("Enter")
    assert not player.locator("#new-game").is_visible()
    # the game master's own page: every control shown, nothing folded
    gm = devices.new_game("phone-gm", **PHONE)
    start_group_game(gm)
    assert gm.locator("#new-game").is_visible() and not gm.locator("#more-tools").is_visible()
    assert recorder.page_errors == []


def test_the_new_game_dialog_hides_the_old_map_and_a_link_change_leaves_tab_at_the_top(devices: Devices) -> None:
    """Behind the New game dialog the map of the game in hand (another variant's) is not shown, and comes
    back when the dialog is cancelled. A link opened in the same tab puts the keyboard at the page's top:
    the first Tab goes to the first control of the header."""
    page = devices.new_game("wide-gm", viewport={"width": 1366, "height": 900})
    svg_shown = "() => getComputedStyle(document.querySelector('#map > svg')).visibility === 'visible'"
    assert page.evaluate(svg_shown)
    page.select_option("#variant-select", "loeb9")
    page.select_option("#game-kind", "group")
    page.click("#new-game")
    page.wait_for_selector("#group-dialog[open]", timeout=5_000)
    assert not page.evaluate(svg_shown)  # Standard's map is not shown as if it were Loeb9's
    page.click("#group-cancel")
    page.wait_for_function(svg_shown)  # (a dialog's close event comes after the click)
    key = b"\x04" + bytes(range(64))
    page.locator('#map .adj-unit[data-location="par"]').click()  # the focus in the map, which is replaced
    page.evaluate("h => { location.hash = h; }", group.public_link(Game.new("cline5"), key, "france"))
    page.wait_for_function("() => document.getElementById('map').dataset.variant === 'cline5'", timeout=20_000)
    page.wait_for_function("() => document.activeElement.id === 'brand'", timeout=10_000)
    page.keyboard.press("Tab")
    first = page.evaluate("document.activeElement.id")
    assert first == "more-tools", first  # (a player's page: the folded controls' button comes first)
    assert devices.page_errors("wide-gm") == []
