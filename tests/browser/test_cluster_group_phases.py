"""A Cluster group game's later phases as newcomers meet them: a retreat and a build given by a player on a
phone (touch, 390 x 844), and a game master who uses the keyboard alone.

The game master types France's and Germany's orders: each names a fleet its multiple (Germany's a 3, France's a
2, neither in a contest, so neither is ever reported), and Germany's army in Burgundy, of strength one, is
dislodged there in the autumn: a retreat phase in which only Germany has something to order, then a winter in
which Germany builds one.
"""

from __future__ import annotations

from typing import Any

import group_tables
from app_driver import PHONE, adjudicate, assert_focus_visible, focused, in_viewport, strengths, tab_to, tap_map
from group_driver import (
    PASSPHRASES,
    assert_fits_a_phone,
    listed_orders,
    open_codes,
    players_link,
    send,
    start_cluster_group_game,
    unlock,
)
from group_tables import Devices

#: the browsers the tests share: the game master's, two players' phones (group_tables.py)
shared_devices, devices = group_tables.shared_devices, group_tables.devices
#: the game master's computer
GM = {"viewport": {"width": 1366, "height": 900}}
#: a player's phone
PLAYER = PHONE

#: Every button of the map's choices panel: its text, size, and whether it lies on screen sideways.
CHOICES = """els => els.map(e => { const r = e.getBoundingClientRect();
  return {text: e.textContent, width: r.width, height: r.height, inside: r.left >= 0 && r.right <= innerWidth}; })"""


def wait_for_phase(page: Any, name: str) -> None:
    page.wait_for_function("p => document.documentElement.dataset.phase === p", arg=name, timeout=20_000)


def typed(gm: Any, power: str, orders: list[str]) -> None:
    """The game master types a power's orders (as for a player who sent them by email in words)."""
    gm.select_option("#orders-power", power)
    gm.fill("#orders-text", "\n".join(orders))
    gm.click("#orders-apply")


def to_the_retreat(gm: Any) -> None:
    """Spring and autumn 1901: Germany's army walks into Burgundy and is dislodged there by France."""
    typed(gm, "germany", ["A Mun - Bur", "F Kie - Den", "A Ber - Kie", "Nominate 3 kie", "Nominate 2 later"])
    typed(gm, "france", ["A Par H", "A Mar H", "F Bre - Mao", "Nominate 2 bre", "Nominate 3 later"])
    adjudicate(gm)
    wait_for_phase(gm, "F1901M")
    typed(gm, "germany", ["A Bur H", "F Den H", "A Kie H"])
    typed(gm, "france", ["A Mar - Bur", "A Par S A Mar - Bur", "F Mao - Por"])
    adjudicate(gm)
    wait_for_phase(gm, "F1901R")


def on_a_phone(devices: Devices, phone: str, link: str, power: str) -> tuple[Any, str]:
    """A player opens the players' link on a phone (the device ``phone``) and unlocks their part: the page
    and what it said."""
    page = devices.page(phone, link, **PLAYER)
    said = unlock(page, PASSPHRASES[power])
    page.wait_for_function("() => !document.getElementById('send-orders').disabled", timeout=10_000)
    return page, said


def choices(page: Any) -> list[dict[str, Any]]:
    return list(page.eval_on_selector_all("#click-order button", CHOICES))


def assert_tappable(page: Any) -> None:
    for choice in choices(page):
        assert choice["width"] >= 24 and choice["height"] >= 24 and choice["inside"], choice
    assert_fits_a_phone(page)


def test_a_cluster_retreat_and_build_given_on_a_phone(devices: Devices) -> None:
    gm = devices.new_game("gm", **GM)
    start_cluster_group_game(gm)
    to_the_retreat(gm)
    link = players_link(gm)

    # France has no dislodged unit: told so when unlocked and by the map's prompt (not to draft nominations
    # and research, nor to tap a dislodged unit), and Germany's dislodged army is not France's to order
    france, said = on_a_phone(devices, "phone-a", link, "france")
    assert "nothing to order" in said and "nomination" not in said, said
    prompt = france.inner_text("#click-prompt")
    assert "nothing to order" in prompt and "France" in prompt, prompt
    tap_map(france, "bur")
    assert choices(france) == [] and listed_orders(france) == []
    # nothing of Germany's secrets in France's view: only France's own fleet is drawn as a multiple
    assert "Germany" not in france.inner_text("#secret-list")
    assert strengths(france) == {"por": "2"}

    # Germany: told to retreat or disband; the dislodged army offers Disband, and the map where it may go
    germany, said = on_a_phone(devices, "phone-b", link, "germany")
    assert "retreat or disband" in said and "nomination" not in said, said
    assert strengths(germany) == {"den": "3"}
    prompt = germany.inner_text("#click-prompt")
    assert "one of your dislodged units" in prompt, prompt
    tap_map(germany, "bur")
    assert [c["text"] for c in choices(germany)] == ["Disband", "Cancel"]
    assert "click where it retreats" in germany.inner_text("#click-prompt")
    assert_tappable(germany)
    options = germany.eval_on_selector_all("#map .adj-retreat-option", "els => els.map(e => e.dataset.to)")
    assert sorted(options) == ["bel", "gas", "mun", "pic", "ruh"], options
    tap_map(germany, "mun")
    assert listed_orders(germany) == ["GER: A Bur R Mun"]
    assert "1 order given." in germany.inner_text("#send-summary")
    germany.locator("#send-orders").tap()
    germany.wait_for_function("() => document.getElementById('orders-code').value.startsWith('orders~')")
    assert in_viewport(germany, "#copy-code")
    assert "Fall 1901 retreats" in germany.inner_text("#orders-code-note")
    log = open_codes(gm, germany.input_value("#orders-code"))
    assert log[0].startswith("kept: ") and "Germany: 1 order in" in log[0], log
    adjudicate(gm)
    wait_for_phase(gm, "W1901A")

    # Winter: Germany (four centres, three units) builds one; told so, and what an unused build becomes
    germany.evaluate("h => { location.hash = h; }", players_link(gm).split("#", 1)[1])
    wait_for_phase(germany, "W1901A")
    said = unlock(germany, PASSPHRASES["germany"])
    assert "build your new units" in said and "nomination" not in said, said
    germany.wait_for_function("() => !document.getElementById('send-orders').disabled", timeout=10_000)
    assert "Germany may build 1 unit" in germany.inner_text("#click-prompt")
    assert "1 build not used (waived)" in germany.inner_text("#send-summary")
    tap_map(germany, "ber")
    assert [c["text"] for c in choices(germany)] == ["Build Army", "Build Fleet", "Cancel"]
    assert_tappable(germany)
    germany.locator("#click-order [data-action='build-A']").tap()
    assert listed_orders(germany) == ["GER: Build A Ber"]
    assert "1 order given." in germany.inner_text("#send-summary")
    log = open_codes(gm, send(germany, []))
    assert "Germany: 1 order in" in log[0], log
    adjudicate(gm)
    wait_for_phase(gm, "S1902M")
    # Germany's winter view: its own multiple only (its 2, left to a later build, is named in the spring)
    assert strengths(germany) == {"den": "3"}
    built = '#map .adj-unit[data-location="{}"][data-power="germany"]'
    assert gm.locator(built.format("ber")).count() == 1 and gm.locator(built.format("mun")).count() == 1

    # Spring 1902: Germany's 2, left to a later build, may now be given to the army just built, and only to it
    germany.evaluate("h => { location.hash = h; }", players_link(gm).split("#", 1)[1])
    wait_for_phase(germany, "S1902M")
    said = unlock(germany, PASSPHRASES["germany"])
    assert "nominations" in said, said
    select = "select[name='nominate-germany-2']"
    germany.wait_for_selector(select, timeout=10_000)
    offered = germany.eval_on_selector_all(select + " option", "els => els.map(e => e.value)")
    assert offered == ["-", "", "ber"], offered
    assert germany.locator("select[name='nominate-germany-3']").count() == 0  # (its 3 is named already)
    germany.locator(select).scroll_into_view_if_needed()
    germany.select_option(select, "ber")
    nominate = germany.locator("[data-action='nominate-germany']")
    for control in (germany.locator(select), nominate):
        box = control.bounding_box()
        assert box is not None and box["width"] >= 24 and box["height"] >= 24 and box["x"] + box["width"] <= 390
    nominate.tap()
    assert "GER: Nominate 2 Ber" in listed_orders(germany)


def test_a_cluster_game_master_with_the_keyboard_alone(devices: Devices) -> None:
    """The game master starts a Cluster group game, hands out the players' link, opens the players' codes,
    adjudicates and makes the message to players with Tab, Shift+Tab, Enter and letters typed into the
    lists, the focus visible at every step; from the codes just opened, one Tab and Enter lead to Adjudicate
    (not some forty Shift+Tab presses back through every power's nominations)."""
    gm = devices.new_game("gm", **GM)
    gm.evaluate(  # (a draft variant is not offered in the list: this offers it)
        """() => { const select = document.getElementById('variant-select');
          if (![...select.options].some(o => o.value === 'cluster')) select.add(new Option('Cluster', 'cluster')); }"""
    )
    gm.evaluate("() => { window.__copied = ''; navigator.clipboard.writeText = async t => { window.__copied = t; }; }")
    tab_to(gm, "variant-select")
    assert_focus_visible(gm)
    gm.keyboard.type("Clu")
    assert gm.input_value("#variant-select") == "cluster"
    assert tab_to(gm, "game-kind", 1) == ["game-kind"]
    gm.keyboard.type("Group")
    assert gm.input_value("#game-kind") == "group"
    assert tab_to(gm, "new-game", 1) == ["new-game"]
    gm.keyboard.press("Enter")
    gm.wait_for_selector("#passphrase-dialog[open]", timeout=5_000)
    # the dialog: the game master's passphrase first, then each power's in the table's order, then its buttons
    assert focused(gm) == "passphrase-gm"
    assert_focus_visible(gm)
    parts = list(PASSPHRASES)
    for index, part in enumerate(parts):
        assert focused(gm) == f"passphrase-{part}"
        gm.keyboard.type(PASSPHRASES[part])
        if index + 1 < len(parts):
            gm.keyboard.press("Tab")
    assert tab_to(gm, "passphrase-ok", 5) == ["passphrase-generate", "passphrase-copy", "passphrase-ok"]
    gm.keyboard.press("Enter")
    gm.wait_for_function("() => location.hash.startsWith('#cluster.gm~')", timeout=30_000)
    # the players' link is brought on screen, its Copy button focused, and the panel says what comes next
    gm.wait_for_function("() => document.activeElement.id === 'copy-public-link'", timeout=20_000)
    assert_focus_visible(gm)
    assert in_viewport(gm, "#players-link") and in_viewport(gm, "#copy-public-link")
    said = gm.inner_text("#group-status")
    assert "players' link" in said and "Passphrases…" in said and "paste below" in said, said
    gm.keyboard.press("Enter")
    gm.wait_for_function("() => window.__copied !== ''", timeout=20_000)
    link = str(gm.evaluate("window.__copied"))
    assert ".grp~" in link and link == gm.input_value("#players-link")
    assert "copied" in gm.inner_text("#link-status")

    # two players send their codes (by mouse: they are not the subject here)
    codes = []
    for phone, power, orders in (("phone-a", "france", ["A Par - Bur", "F Bre - Mao"]),
                                 ("phone-b", "germany", ["A Mun - Ruh"])):
        player, _ = on_a_phone(devices, phone, link, power)
        codes.append(send(player, orders))

    # the codes box is the next control; the codes pasted, Open codes is the next, then Go to Adjudicate
    assert tab_to(gm, "codes-text", 1) == ["codes-text"]
    gm.keyboard.insert_text("\n\n".join(codes))
    assert tab_to(gm, "open-codes", 1) == ["open-codes"]
    gm.keyboard.press("Enter")
    gm.wait_for_selector("#codes-status:has-text('2 codes taken in')", timeout=20_000)
    intake = gm.inner_text("#intake")
    assert "France" in intake and "Germany" in intake, intake
    assert sorted(listed_orders(gm)) == ["FRA: A Par - Bur", "FRA: F Bre - Mao", "GER: A Mun - Ruh"]
    assert tab_to(gm, "group-to-adjudicate", 1) == ["group-to-adjudicate"]
    assert_focus_visible(gm)
    gm.keyboard.press("Enter")
    assert focused(gm) == "adjudicate" and in_viewport(gm, "#adjudicate")
    assert_focus_visible(gm)
    gm.keyboard.press("Enter")
    # the powers with no orders are listed; going on anyway is focused
    gm.wait_for_selector("#adjudicate-warning", state="visible")
    assert focused(gm) == "adjudicate-anyway"
    gm.keyboard.press("Enter")
    wait_for_phase(gm, "F1901M")
    said = gm.inner_text("#group-status")  # (a live region: a screen reader says it too)
    assert "Spring 1901 movement adjudicated" in said and "Message to players" in said, said
    assert "codes they send for Fall 1901 movement" in said, said
    # adjudicated from the keyboard: the focus is taken on to the next step, the message to players, on
    # screen, which Enter copies
    assert focused(gm) == "message-players" and in_viewport(gm, "#message-players")
    assert_focus_visible(gm)
    gm.evaluate("() => { window.__copied = ''; }")
    gm.keyboard.press("Enter")
    gm.wait_for_function("() => window.__copied !== ''", timeout=20_000)
    message = str(gm.evaluate("window.__copied"))
    assert "Results for Spring 1901 movement" in message and ".grp~" in message
    assert "copied" in gm.inner_text("#message-status")
    # Undo (beside Adjudicate): the phase is back, and the status line says it is to be adjudicated again
    tab_to(gm, "undo", 80, "Shift+Tab")
    gm.keyboard.press("Enter")
    wait_for_phase(gm, "S1901M")
    said = gm.inner_text("#group-status")
    assert "Adjudication undone: Spring 1901 movement is to be adjudicated again" in said, said
    assert sorted(listed_orders(gm)) == ["FRA: A Par - Bur", "FRA: F Bre - Mao", "GER: A Mun - Ruh"]


def test_a_cluster_disband_and_a_build_left_unused_on_a_phone(devices: Devices) -> None:
    """Germany disbands its dislodged army with the Disband choice, then builds one of its two units and
    leaves the other unused (waived: said before sending); Italy, with nothing to build or remove, is told
    it has nothing to order."""
    gm = devices.new_game("gm", **GM)
    start_cluster_group_game(gm)
    to_the_retreat(gm)
    germany, _ = on_a_phone(devices, "phone-a", players_link(gm), "germany")
    tap_map(germany, "bur")
    germany.locator("#click-order [data-action='disband']").tap()
    assert listed_orders(germany) == ["GER: A Bur D"]
    log = open_codes(gm, send(germany, []))
    assert "Germany: 1 order in" in log[0], log
    adjudicate(gm)
    wait_for_phase(gm, "W1901A")
    assert gm.locator('#map .adj-unit[data-power="germany"]').count() == 2

    link = players_link(gm)
    italy, said = on_a_phone(devices, "phone-b", link, "italy")
    assert "no builds or removals" in said and "nothing to order" in said, said
    assert "Italy has no builds or removals" in italy.inner_text("#click-prompt")
    tap_map(italy, "ber")  # another power's centre: nothing to choose
    assert choices(italy) == []

    germany.evaluate("h => { location.hash = h; }", link.split("#", 1)[1])
    wait_for_phase(germany, "W1901A")
    said = unlock(germany, PASSPHRASES["germany"])
    assert "build your new units (or leave builds unused)" in said, said
    germany.wait_for_function("() => !document.getElementById('send-orders').disabled", timeout=10_000)
    assert "Germany may build 2 units" in germany.inner_text("#click-prompt")
    tap_map(germany, "ber")
    assert [c["text"] for c in choices(germany)] == ["Build Army", "Build Fleet", "Cancel"]
    germany.locator("#click-order [data-action='build-F']").tap()
    assert listed_orders(germany) == ["GER: Build F Ber"]
    assert "1 order given, 1 build not used (waived)." in germany.inner_text("#send-summary")
    assert_tappable(germany)
    log = open_codes(gm, send(germany, []))
    assert "Germany: 1 order in" in log[0], log
    adjudicate(gm)
    wait_for_phase(gm, "S1902M")
    assert gm.locator('#map .adj-unit[data-power="germany"]').count() == 3
    assert gm.locator('#map .adj-unit[data-location="ber"][data-power="germany"][data-type="F"]').count() == 1
