"""A group game played in browsers that exchange nothing but links and sealed orders codes.

One game master and three players, each in a browser context of their own (their own storage, their
own keys). Each phase every player drafts orders in their own view and sends a sealed orders code; the
game master pastes all of them at once (as an email thread would hold them), types one more power's
orders, adjudicates, and sends the players the message with the new link. The positions are checked
against the same orders adjudicated by the engine directly. Then hostile codes: each is refused with
the reason, and the game does not change.
"""

from __future__ import annotations

import random
import re
from typing import Any

import group_tables
from adjutant import load_variant
from adjutant.adjudication.orders import format_order
from adjutant.game import Game
from adjutant.group_play import codes as group
from adjutant.legal import Candidates, adjustment_candidates, retreat_candidates
from app_driver import Site, adjudicate, open_app, reopen_app
from group_driver import (
    HOLD_KEYS,
    PASSPHRASE,
    engine_units,
    gm_fragment,
    listed_orders,
    mouse_click_map,
    open_codes,
    order_while_keys_are_made,
    ready_after_keys,
    send,
    shown,
    start_group_game,
    unit_places,
)
from group_tables import Devices

#: the browsers the tests share: the game master's and the players' (group_tables.py)
shared_devices, devices = group_tables.shared_devices, group_tables.devices


def random_orders(game: Game, power: str, rng: random.Random) -> list[str]:
    """Legal-looking orders for ``power`` this phase, as a player would type them."""
    kind = game.phase.kind
    if kind == "movement":
        c = Candidates(game.variant, game.units, game.phase.season)
        return [format_order(rng.choice(c.of(p)[:12])) for p, u in sorted(game.units.items()) if u.power == power]
    if kind == "retreat":
        mine = [d.unit for d in game.position.dislodged if d.unit.power == power]
        return [format_order(rng.choice(retreat_candidates(game.variant, unit))) for unit in mine]
    delta = game.adjustments().get(power, 0)
    if delta > 0:
        builds = [o for o in adjustment_candidates(game, power) if type(o).__name__ == "Build"]
        free = {o.location.split("/")[0]: o for o in builds if o.location.split("/")[0] not in game.units}  # type: ignore[attr-defined]
        return [format_order(o) for o in list(free.values())[:delta]]
    if delta < 0:
        removals = [o for o in adjustment_candidates(game, power) if type(o).__name__ == "Disband"]
        return [format_order(o) for o in removals[:-delta]]
    return []


#: Holds the next map the page loads (a game of another variant shown) until ``window.__releaseMap()``.
HOLD_MAP = """() => {
  const load = adjutantShell.loadMap;
  window.__mapHeld = 0;
  adjutantShell.loadMap = variant => new Promise(go => {
    window.__mapHeld += 1;
    window.__releaseMap = () => go(load(variant));
  });
}"""


def test_the_game_shown_takes_no_orders_while_a_new_group_games_keys_are_made(
    new_context: Any, site: Site
) -> None:
    context, _ = new_context()
    context.add_init_script(HOLD_KEYS)
    page = open_app(context, site.url)
    page.select_option("#variant-select", "standard")
    page.select_option("#game-kind", "group")
    page.click("#new-game")
    page.wait_for_selector("#group-dialog[open]", timeout=5_000)
    page.fill("#group-passphrase", PASSPHRASE)
    page.click("#group-ok")
    order_while_keys_are_made(page)
    ready_after_keys(page, "standard")


def test_the_game_in_hand_takes_no_orders_while_a_link_replacing_it_loads(new_context: Any, site: Site) -> None:
    """A players' link of another variant opened over a Standard game: until its map is in, the Standard
    game shown takes no order (it is being replaced); then the group game is shown."""
    context, _ = new_context()
    page = open_app(context, site.url)
    page.evaluate(HOLD_MAP)
    fragment = group.public_link(Game.new(load_variant("cline5")), b"\x04" + bytes(range(64)))
    page.evaluate("f => { location.hash = f; }", fragment)
    page.wait_for_function("() => window.__mapHeld > 0", timeout=10_000)
    assert page.evaluate("document.querySelector('main.table').inert")
    assert page.get_attribute("main.table", "aria-busy") == "true"
    mouse_click_map(page, "par", unit=True)
    mouse_click_map(page, "bur", unit=False)
    assert listed_orders(page) == []
    page.evaluate("window.__releaseMap()")
    shown(page, "cline5")
    assert page.get_attribute("main.table", "aria-busy") is None
    assert page.locator("#group-player").is_visible()


def play(
    devices: Devices, site: Site, variant: str, players: list[str], typed: str, years: int, seed: int
) -> tuple[Any, dict[str, Any], Game]:
    """``years`` game years of ``variant``: the game master, one page per player (each a device of its
    own), the same game in the engine."""
    rng = random.Random(seed)
    gm = devices.new_game("gm")
    fragment = start_group_game(gm, variant)
    link = group.read_group_link(fragment)
    ref = Game.new(variant)
    players_link = site.url + "#" + group.public_link(ref, link.public_key)
    pages: dict[str, Any] = {}
    for index, power in enumerate(players):
        if index == 0:  # the first player says which power they play
            page = devices.page("player0", players_link)
            assert not page.locator("#send-orders").is_enabled()
            page.select_option("#group-power", power)
        else:  # the others open a link that names it
            page = devices.page(f"player{index}", players_link + "~" + power)
        page.wait_for_function("p => document.getElementById('orders-power').value === p", arg=power)
        pages[power] = page
    start_year = ref.phase.year
    while ref.phase.year < start_year + years and not ref.over:
        codes, sent = [], []
        for power, page in pages.items():
            if power not in ref.orders_due() and ref.phase.kind != "movement":
                continue
            orders = random_orders(ref, power, rng)
            assert not [p for p in ref.set_orders(power, "\n".join(orders)) if not p.kept]
            sent.append(power)
            codes.append(f"From: {power}@example.org\nMy orders:\n{send(page, orders)}\n-- \n")
        typed_orders = random_orders(ref, typed, rng)
        if typed_orders:
            ref.set_orders(typed, "\n".join(typed_orders))
            gm.select_option("#orders-power", typed)
            gm.fill("#orders-text", "\n".join(typed_orders))
            gm.click("#orders-apply")
        if codes:
            log = open_codes(gm, "\n> quoted reply\n".join(codes))
            assert all(line.startswith("kept: ") for line in log), log
            assert len(log) == len(codes)
        rows = "rows => rows.map(r => [r.dataset.power, r.cells[1].textContent])"
        status = dict(gm.eval_on_selector_all("#intake tbody tr", rows))
        for power in sent:
            assert status[power].startswith("sealed orders in"), status
        before = gm_fragment(gm)
        adjudicate(gm)
        ref.adjudicate()
        after = gm_fragment(gm, before)
        assert unit_places(gm) == engine_units(ref), f"{variant} {ref.phase}"
        # what the codes opened said was of the phase adjudicated: the next starts with none of it
        assert gm.locator("#codes-log li").count() == 0 and gm.inner_text("#codes-status") == ""
        assert gm.inner_text("#message-status") == ""  # nor is the last phase's message said to be copied
        assert group.read_group_link(after).game.history[-1].orders == ref.history[-1].orders or ref.history[-1].skipped
        gm.click("#message-players")
        message = gm.input_value("#players-message")
        new_link = re.search(r"https?://\S+#\S+", message)
        assert new_link is not None and "Results for" in message
        # who has orders to give in a retreat or adjustment phase is said, from the engine's position
        names = ref.variant.powers
        if ref.phase.kind == "adjustment":
            for power, delta in ref.adjustments().items():
                name = names[power].name
                said = f"{name} may build {delta}" if delta > 0 else f"{name} must remove {-delta}"
                assert (said in message) == (delta != 0), (said, message)
        if ref.phase.kind == "retreat":
            for d in ref.position.dislodged:
                assert f"{d.unit.type} {ref.variant.province_name(d.unit.location)}" in message, message
        public = new_link.group(0)
        assert ".grp~" in public and group.read_group_link(public.split("#", 1)[1]).game.all_orders() == {}
        for index, power in enumerate(pages):
            page = pages[power]
            # the first player opens the message's link as it is: this browser remembers their power
            fragment = public.split("#", 1)[1] + ("" if index == 0 else "~" + power)
            page.evaluate("h => { location.hash = h; }", fragment)
            page.wait_for_function(
                "p => document.documentElement.dataset.phase === p", arg=str(ref.phase), timeout=20_000
            )
            assert unit_places(page) == engine_units(ref)
            assert page.input_value("#orders-power") == power
    return gm, pages, ref


def test_a_group_plays_two_years_of_standard_by_sealed_codes(devices: Devices, site: Site) -> None:
    gm, pages, ref = play(devices, site, "standard", ["france", "germany", "russia"], "england", 2, 195)
    assert ref.phase.year == 1903
    # (this seed has a player's retreat in F1901R and players' builds in both winters)
    played = [str(r.phase) for r in ref.history if not r.skipped]
    assert "F1901R" in played and "W1901A" in played and "W1902A" in played

    # --- hostile codes: each refused with the reason, the game unchanged ---
    france, germany = pages["france"], pages["germany"]
    old = send(france, random_orders(ref, "france", random.Random(1)))
    new_orders = random_orders(ref, "france", random.Random(2))
    new = send(france, new_orders)
    assert "kept: " in open_codes(gm, new)[0]
    held = gm_fragment(gm)
    # the first code pasted after the second is set aside, not refused, and France's row stays as it was
    log = open_codes(gm, f"France's first mail: {old}\n")
    assert log[0].startswith("older: ") and log[0].endswith(f"France: {group.OLDER_CODE}"), log
    assert gm.inner_text("#codes-status").startswith("0 codes taken in, 1 older, set aside, 0 refused")
    row = "#intake tbody tr[data-power=france]"
    assert gm.get_attribute(row, "class") == "in" and "refused" not in gm.inner_text(row)
    assert gm_fragment(gm) == held
    flip = "A" if old[60] != "A" else "B"
    cases = {
        old[:120]: "cut short",
        old[:60] + flip + old[61:]: "does not open",
        new: "already in",
    }
    link = group.read_group_link(held)
    # the same code with another power in its clear header: the additional data does not match
    raw = group.unb64(new[len("orders~"):], "code")
    other_power = group.CODE_PREFIX + group.b64(raw[:9] + bytes([list(ref.variant.powers).index("italy")]) + raw[10:])
    cases[other_power] = "does not open"
    # another game's code: a second game master's players
    stranger = group.Header(group.game_id(b"\x04" + bytes(64)), len(ref.history), 2)
    cases[group.CODE_PREFIX + group.b64(stranger.pack() + raw[10:])] = "another game"
    for code, reason in cases.items():
        log = open_codes(gm, f"here: {code}\n")
        assert reason in log[0], (reason, log)
        assert gm.evaluate("location.hash").lstrip("#") == held
    # a code for an earlier phase: one sent before the last adjudication
    germany_code = send(germany, random_orders(ref, "germany", random.Random(3)))
    adjudicate(gm)
    ref.set_orders("france", "\n".join(new_orders))  # the code the game master took in
    ref.adjudicate()
    assert "refused: Germany's code is for an earlier phase" in open_codes(gm, germany_code)[0]
    # the table shows whose code it was, on that power's row
    script = "rows => rows.map(r => [r.dataset.power, r.cells[1].textContent])"
    rows = dict(gm.eval_on_selector_all("#intake tbody tr", script))
    assert "refused: Germany's code is for an earlier phase" in rows["germany"], rows
    assert unit_places(gm) == engine_units(ref)

    # a code whose power is not the one its orders are for: sealed by hand with France's header and
    # Germany's order written out (the page never makes one)
    header = group.header_for(ref, link.public_key, "france")
    slots = group.unit_slots(ref, "france")
    assert ref.phase.kind == "movement"
    german = next(u for u in ref.units.values() if u.power == "germany")
    # France's first unit's order "written out", as a German unit's hold
    forged_orders = bytes([1, len(slots[0][1]) + 1]) + f"{german.type} {german.location} H".encode()
    plain = group.plaintext(10**12, forged_orders)
    body = france.evaluate(
        """async ([key, header, aad, plain]) => adjutantGroup.sealOrders(
             Uint8Array.from(key), Uint8Array.from(header), Uint8Array.from(aad), Uint8Array.from(plain))""",
        [
            list(link.public_key),
            list(header.pack()),
            list(group.additional_data(header, ref, link.public_key)),
            list(plain),
        ],
    )
    before = gm.evaluate("location.hash")
    log = open_codes(gm, group.CODE_PREFIX + body)
    assert "not France's" in log[0], log
    assert gm.evaluate("location.hash") == before

    # the public link never carries pending orders; the game master's does
    assert group.read_group_link(gm.evaluate("location.hash").lstrip("#")).is_gm


def test_a_group_plays_a_year_of_cline_v(devices: Devices, site: Site) -> None:
    _gm, _pages, ref = play(devices, site, "cline5", ["russia", "persia", "barbary"], "turkey", 1, 5)
    assert ref.history


def test_the_game_master_reopens_the_link_and_unlocks_it(devices: Devices, new_context: Any, site: Site) -> None:
    gm = devices.new_game("gm")
    fragment = start_group_game(gm, "standard")
    link = group.read_group_link(fragment)
    player = devices.page("player0", site.url + "#" + group.public_link(link.game, link.public_key, "italy"))
    code = send(player, ["A Rom - Apu", "F Nap - Ion"])
    # a fresh browser with the game master's link: locked until the passphrase is given
    other, _ = new_context()
    again = open_app(other, site.url + "#" + fragment)
    assert again.locator("#gm-unlock-form").is_visible() and not again.locator("#open-codes").is_enabled()
    # the greyed button's reason, under it
    assert again.inner_text("#codes-status") == (
        "Unlock the game with the game master's passphrase (above) to open codes."
    )
    again.fill("#gm-passphrase", "not the passphrase")
    again.click("#gm-unlock")
    again.wait_for_selector("#message:not([hidden])")
    assert "does not open" in again.inner_text("#message-text")
    again.fill("#gm-passphrase", f" {PASSPHRASE} ")  # as copied from a message, with spaces around it
    again.click("#gm-unlock")
    again.wait_for_selector("#open-codes:not([disabled])")
    assert again.inner_text("#codes-status") == ""
    log = open_codes(again, code)
    assert log[0].startswith("kept: ") and "Italy: 2 orders in" in log[0]
    assert sorted(again.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)")) == [
        "ITA: A Rom - Apu",
        "ITA: F Nap - Ion",
    ]
    # the players' link made from here holds none of them
    assert group.read_group_link(group.public_link(link.game, link.public_key)).game.all_orders() == {}


def test_a_game_masters_link_whose_sealed_key_was_altered_on_the_way_is_refused_when_opened(
    devices: Devices, site: Site
) -> None:
    """The game master's link with a character of its sealed key changed on the way (which would fail only
    the key's tag, as a wrong passphrase does): refused when opened, as damaged, before any passphrase is
    asked, and the game in hand stays; the link as made opens and unlocks."""
    gm = devices.new_game("gm")
    fragment = start_group_game(gm, "standard")
    sealed_key = group.read_group_link(fragment).sealed_private
    at = len(sealed_key) // 2
    changed = sealed_key[:at] + ("B" if sealed_key[at] != "B" else "C") + sealed_key[at + 1 :]
    altered = fragment.replace(sealed_key, changed)
    again = devices.new_game("player2")  # another browser, a new game in hand
    again.evaluate("h => { location.hash = h; }", altered)
    again.wait_for_selector("#message:not([hidden])")
    said = again.inner_text("#message-text")
    assert "could not be opened" in said and "damaged on the way" in said and "ask for it again" in said, said
    # the game in hand (a new game) stays, and the address bar holds its link again
    again.wait_for_function("() => location.hash.startsWith('#standard.q')", timeout=10_000)
    assert not again.locator("#gm-unlock-form").is_visible()
    again.evaluate("h => { location.hash = h; }", fragment)
    again.wait_for_selector("#gm-unlock-form", state="visible", timeout=20_000)
    again.fill("#gm-passphrase", PASSPHRASE)
    again.click("#gm-unlock")
    again.wait_for_selector("#open-codes:not([disabled])")
    assert devices.page_errors("player2") == []


def test_a_page_served_over_plain_http_says_sealing_needs_https(browser: Any, site: Site) -> None:
    """Web Crypto exists only in secure contexts: a page from a plain-HTTP address that is not this
    computer's (here http://adjutant.test, answered by the test's own server) says so where sealing is
    needed, and makes no group game."""
    context = browser.new_context()
    fake = "http://adjutant.test/"

    def answer(route: Any) -> None:
        route.fulfill(response=route.fetch(url=site.url + route.request.url[len(fake) :]))

    context.route(f"{fake}**", answer)
    try:
        key = b"\x04" + bytes(range(64))
        page = open_app(context, fake + "#" + group.public_link(Game.new("standard"), key, "france"))
        assert page.evaluate("window.isSecureContext") is False
        assert page.locator("#group-insecure").is_visible()
        assert "https://" in page.inner_text("#group-insecure")
        page.click("#send-orders")
        page.wait_for_selector("#message:not([hidden])")
        assert "https://" in page.inner_text("#message-text") and page.input_value("#orders-code") == ""
        page.evaluate("document.getElementById('message').hidden = true")
        page.click("#more-tools")  # (a player's page folds the game master's controls)
        page.select_option("#game-kind", "group")
        page.click("#new-game")
        page.wait_for_selector("#message:not([hidden])")
        assert "https://" in page.inner_text("#message-text")
        assert not page.locator("#group-dialog[open]").count()
    finally:
        context.close()


def test_codes_opened_as_links_and_damaged_group_links(devices: Devices, new_context: Any, site: Site) -> None:
    """A code opened as a link goes to the game master's game (after the passphrase when the page
    starts with it); a damaged group link is refused with the reason and the game in hand stays."""
    context, _ = new_context()  # (its storage is checked: a context of its own)
    gm = open_app(context, site.url)
    fragment = start_group_game(gm, "standard")
    link = group.read_group_link(fragment)
    player = devices.page("player0", site.url + "#" + group.public_link(link.game, link.public_key, "austria"))
    code = send(player, ["A Vie - Gal"])
    # in the game master's open page: the link's code is taken in at once
    gm.evaluate("h => { location.hash = h; }", "standard." + code)
    gm.wait_for_selector("#codes-log li")
    assert "Austria: 1 order in" in gm.inner_text("#codes-log")
    gm_fragment(gm)
    assert gm.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)") == ["AUS: A Vie - Gal"]
    # a new page started with a code link: the game master's game comes back from this browser's
    # storage, and the code is taken in once the passphrase unlocks the key
    second = send(player, ["A Vie - Tyr"])
    again = open_app(context, site.url + "#standard." + second)
    assert again.locator("#gm-unlock-form").is_visible()
    again.fill("#gm-passphrase", PASSPHRASE)
    again.click("#gm-unlock")
    # (the codes' log of this phase comes back from the save at once: the new code's orders are waited for)
    again.wait_for_function(
        "() => [...document.querySelectorAll('#order-list li')].map(e => e.textContent).join() === 'AUS: A Vie - Tyr'"
    )
    assert "Austria: 1 order in" in again.inner_text("#codes-log")
    assert again.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)") == ["AUS: A Vie - Tyr"]
    # the first page holds the same game: it shows what the second took in, and stays unlocked
    gm.wait_for_function("() => document.getElementById('message-text').textContent.includes('another tab')")
    assert gm.inner_text("#message-text") == "This game was changed in another tab: showing its latest state."
    assert listed_orders(gm) == ["AUS: A Vie - Tyr"]
    assert gm.locator("#group-gm").is_visible() and not gm.locator("#gm-unlock-form").is_visible()
    assert gm.is_enabled("#open-codes")
    gm = reopen_app(gm, gm.url)  # and reloaded, it has it too
    assert listed_orders(gm) == ["AUS: A Vie - Tyr"]
    # a damaged players' link: refused, naming the problem; the game in hand stays
    held = gm_fragment(again)
    bad = "standard.grp~" + group.b64(link.public_key)[:40] + "~AAAA"
    again.evaluate("h => { location.hash = h; }", bad)
    again.wait_for_selector("#message:not([hidden])")
    assert "its key is not a P-256 public key" in again.inner_text("#message-text")
    again.wait_for_function("h => location.hash === '#' + h", arg=held)
    assert again.locator("#group-gm").is_visible()


def test_the_unlocked_line_belongs_to_the_game_unlocked(devices: Devices, site: Site) -> None:
    """The game master's "Unlocked" line speaks of the game in hand: another game shown (a players' link
    opened in the same tab), or this one again locked (Back to its link), does not show it."""
    gm = devices.new_game("gm")
    fragment = start_group_game(gm, "standard")
    again = devices.page("player2", site.url + "#" + fragment)  # another browser
    again.fill("#gm-passphrase", PASSPHRASE)
    again.click("#gm-unlock")
    again.wait_for_selector("#open-codes:not([disabled])")
    assert "Unlocked" in again.inner_text("#group-status")
    later = group.read_group_link(fragment)
    later.game.adjudicate()  # another game: a phase on
    again.evaluate("h => { location.hash = h; }", group.public_link(later.game, later.public_key))
    again.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    assert again.locator("#group-player").is_visible()
    assert "Unlocked" not in again.inner_text("#group-status")
    again.go_back()
    again.wait_for_selector("#gm-unlock-form:not([hidden])", timeout=20_000)
    assert "Unlocked" not in again.inner_text("#group-status")


def test_a_player_who_opens_an_orders_code_link_is_told_what_it_is(
    devices: Devices, new_context: Any, site: Site
) -> None:
    """An orders code opened as a link anywhere but the game master's page (the player's own "Copy as
    link", say) is said to be for the game master; the game shown stays, and so does its link. The header's
    Players box names the game shown: a group game."""
    gm = devices.new_game("gm")
    fragment = start_group_game(gm, "standard")
    link = group.read_group_link(fragment)
    players = group.public_link(link.game, link.public_key, "austria")
    player = devices.page("player0", site.url + "#" + players)
    code = send(player, ["A Vie - Gal"])
    held = str(player.evaluate("location.hash"))
    player.evaluate("h => { location.hash = h; }", "standard." + code)
    player.wait_for_selector("#message:not([hidden])")
    assert "sealed orders code, for the game master" in player.inner_text("#message-text")
    player.wait_for_function("h => location.hash === h", arg=held)
    assert player.locator("#group-player").is_visible() and player.input_value("#orders-power") == "austria"
    assert player.input_value("#game-kind") == "group"
    # a fresh browser, with no game master's game: the same, and the game shown is a new one
    fresh, _ = new_context()
    page = open_app(fresh, site.url + "#standard." + code)
    assert "sealed orders code, for the game master" in page.inner_text("#message-text")
    assert "orders~" not in str(page.evaluate("location.hash"))
    assert page.input_value("#game-kind") == "sandbox"


def intake_rows(page: Any) -> dict[str, tuple[str, str]]:
    """The game master's intake table: per power, (its row's class, what it says)."""
    script = "rows => rows.map(r => [r.dataset.power, [r.className, r.cells[1].textContent]])"
    return {power: (kind, text) for power, (kind, text) in page.eval_on_selector_all("#intake tbody tr", script)}


def powers_column(page: Any) -> dict[str, tuple[str, str]]:
    """The Powers table's Orders column: per power, (its class, what it says)."""
    script = "rows => rows.map(r => [r.dataset.power, [r.cells[3].className, r.cells[3].textContent]])"
    return {power: (kind, text) for power, (kind, text) in page.eval_on_selector_all("#powers tbody tr", script)}


def test_the_game_masters_table_through_a_refused_copy_a_replayed_code_and_a_reload(
    devices: Devices, new_context: Any, site: Site
) -> None:
    """One truth per row and per status line, as a game master meets them: a damaged copy of a code already
    in, and an old code replayed, are quiet notes beside orders in (in the list, the row and the Powers
    table alike); lines that stop being true go; a reload keeps the list and the notes, and the locked page
    neither adjudicates nor makes the message; a refused line typed goes with its phase."""
    context, recorder = new_context()  # (reloaded: a context of its own)
    gm = open_app(context, site.url)
    fragment = start_group_game(gm, "standard")
    assert gm.inner_text("#group-status").startswith("Group game started.")
    link = group.read_group_link(fragment)
    players = site.url + "#" + group.public_link(link.game, link.public_key)
    france = devices.page("player0", players + "~france")
    germany = devices.page("player1", players + "~germany")
    code = send(france, ["A Par - Bur"])
    spring_germany = send(germany, ["A Mun - Ruh"])
    assert open_codes(gm, code)[0].startswith("kept: ")
    assert gm.inner_text("#group-status") == ""  # (codes are in: "started" is not said)
    column = powers_column(gm)
    assert column["france"] == ("ready", "in; 2 units left to hold"), column
    assert column["germany"] == ("due", "not in") and column["england"] == ("due", "not in")

    # a damaged copy of France's code: France's orders are in, and every part of the page says so
    flip = "A" if code[60] != "A" else "B"
    log = open_codes(gm, code[:60] + flip + code[61:])
    assert log[0].startswith("aside: ") and "refused, and France's orders in stay: the code does not open" in log[0]
    said = gm.inner_text("#codes-status")
    assert said.startswith("0 codes taken in, 1 set aside (those powers' orders are in), 0 refused"), said
    kind, text = intake_rows(gm)["france"]
    assert kind == "in" and text.startswith("sealed orders in") and "refused:" not in text, text
    assert text.endswith("; another code was refused and changed nothing (the code does not open: it was altered or "
                         "damaged on the way, or sealed for another version of this phase)")
    assert gm.locator("#intake tr[data-power=france] .intake-note").count() == 1
    assert powers_column(gm)["france"] == ("ready", "in; 2 units left to hold")

    # a refused line typed by the game master stays to be corrected, until the phase goes
    gm.fill("#orders-text", "A Xyz - Bur")
    gm.click("#orders-apply")
    assert gm.input_value("#orders-text") == "A Xyz - Bur"
    before = gm_fragment(gm)
    adjudicate(gm)
    gm_fragment(gm, before)
    assert gm.input_value("#orders-text") == "" and gm.locator("#orders-errors li").count() == 0
    assert gm.inner_text("#group-status").startswith("Spring 1901 movement adjudicated. Next: Message to players")
    gm.click("#message-players")
    gm.wait_for_selector("#players-message:not([hidden])")
    assert gm.inner_text("#group-status") == ""  # the message is made: the next step is the codes
    message = gm.input_value("#players-message")
    fall = re.search(r"https?://\S+#(\S+)", message)
    assert fall is not None
    germany.evaluate("h => { location.hash = h; }", fall.group(1) + "~germany")
    germany.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    assert open_codes(gm, send(germany, ["A Mun - Ruh"]))[0].startswith("kept: ")
    # Fall's codes come in: the players have the link, and Spring's message is put away
    assert gm.locator("#players-message").is_hidden() and gm.inner_text("#message-status") == ""

    # Germany's Spring code replayed: set aside, and nothing asked of Germany anywhere
    log = open_codes(gm, spring_germany)
    assert log[0].startswith("aside: ") and "send" not in log[0], log
    assert "Germany's orders for Fall 1901 movement are in, nothing more is needed" in log[0]
    kind, text = intake_rows(gm)["germany"]
    assert kind == "in" and text.endswith("; a code of an earlier phase was pasted too, and set aside"), text
    assert powers_column(gm)["germany"] == ("ready", "in; 2 units left to hold")
    shown_log = gm.eval_on_selector_all("#codes-log li", "els => els.map(e => e.className + ': ' + e.textContent)")
    rows = intake_rows(gm)
    held = gm_fragment(gm)

    # reloaded: locked, the list and the rows' notes as they were, and nothing to adjudicate or message
    gm = reopen_app(gm, site.url + "#" + held)
    assert gm.locator("#gm-unlock-form").is_visible()
    assert not gm.is_enabled("#open-codes") and not gm.is_enabled("#adjudicate")
    assert not gm.is_enabled("#message-players") and not gm.is_enabled("#undo")
    assert gm.inner_text("#adjudicate-locked").startswith("Unlock the game with the game master's passphrase")
    assert gm.inner_text("#message-status").startswith("Unlock the game with the game master's passphrase")
    assert gm.eval_on_selector_all("#codes-log li", "els => els.map(e => e.className + ': ' + e.textContent)") == (
        shown_log)
    assert intake_rows(gm) == rows
    gm.fill("#gm-passphrase", PASSPHRASE)
    gm.click("#gm-unlock")
    gm.wait_for_selector("#open-codes:not([disabled])")
    assert gm.is_enabled("#adjudicate") and gm.is_enabled("#message-players")
    assert gm.locator("#adjudicate-locked").is_hidden() and gm.inner_text("#message-status") == ""
    assert intake_rows(gm) == rows
    assert recorder.page_errors == []
