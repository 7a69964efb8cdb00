"""A group game player's drafts survive a reload: the orders entered and the last sealed code shown are
kept in this browser for that game, phase and power only (adjutant_ui.saves.Draft), never in a link.

No game master's browser is needed: the players' links are made here, for a public key that is a point
of P-256 (a multiple of its generator), which the page seals to as to any game master's key. The small
tests of what one reload keeps run one after the other in one browser, each in a game of its own (a key of
its own: a draft is kept for its game only), the next game's link opened in the same tab.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjutant.game import Game
from adjutant.group_play import codes as group
from app_driver import Site, open_app, reopen_app
from group_driver import listed_orders, send
from group_tables import open_link

#: P-256: the field's prime and the generator
P256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
GENERATOR = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
ORDERS = ["F Lon - Nth", "A Lvp - Yor"]


def game_key(n: int) -> bytes:
    """n times the P-256 generator as a raw public key: a valid game master's key whose private key (n) no
    one needs here; each n makes a group game of its own.

    >>> game_key(1).hex()[:10], len(game_key(3))
    ('046b17d1f2', 65)
    """
    x, y = GENERATOR
    for _ in range(n - 1):
        gx, gy = GENERATOR
        if (x, y) == (gx, gy):
            slope = (3 * x * x - 3) * pow(2 * y, -1, P256) % P256
        else:
            slope = (gy - y) * pow(gx - x, -1, P256) % P256
        x, y = (nx := (slope * slope - x - gx) % P256), (slope * (x - nx) - y) % P256
    return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


KEY = game_key(1)


def players_link(site: Site, game: Game, power: str, key: bytes = KEY) -> str:
    return site.url + "#" + group.public_link(game, key, power)


def enter(page: Any, orders: list[str]) -> None:
    page.fill("#orders-text", "\n".join(orders))
    page.click("#orders-apply")
    page.wait_for_function("n => document.querySelectorAll('#order-list li').length === n", arg=len(orders))


def change(page: Any, order: str) -> None:
    """Enter ``order`` in place of its unit's order (the list keeps its length)."""
    page.fill("#orders-text", order)
    page.click("#orders-apply")
    page.wait_for_function("o => document.getElementById('order-list').innerText.includes(o)", arg=order)


def reload(page: Any) -> Any:
    """The player's tab loaded again at the link in its address bar (as a reload or a reopened tab)."""
    url = page.url
    assert "#" in url and group.read_group_link(url.split("#", 1)[1]).game.all_orders() == {}
    return reopen_app(page, url)


def a_players_orders_are_kept_across_a_reload_and_can_be_sent(page: Any, site: Site, key: bytes) -> Any:
    assert page.input_value("#orders-power") == "england"
    enter(page, ORDERS)
    assert "2 orders given" in page.inner_text("#send-summary")
    page = reload(page)
    assert listed_orders(page) == ["ENG: A Lvp - Yor", "ENG: F Lon - Nth"]
    assert "2 orders given" in page.inner_text("#send-summary")
    assert page.inner_text("#send-status") == "Your orders for Spring 1901 movement were kept from before the reload."
    assert not page.locator("#message").is_visible()
    code = send(page, [])
    sealed = group.read_code(code, Game.new("standard"), key)
    assert sealed.power == "england"
    assert "Sealed 2 orders for England, Spring 1901" in page.inner_text("#orders-code-note")
    return page


def orders_typed_and_not_yet_entered_are_kept_across_a_reload(page: Any, site: Site, key: bytes) -> Any:
    """A phone that drops the page while its player types in the orders box loses no line: the box's text
    comes back (with the orders entered), and Send enters it then seals it, as before the reload."""
    enter(page, ["F Lon - Nth"])
    page.fill("#orders-text", "A Lvp - Yor\nF Edi - Nwg")
    page = reload(page)
    assert listed_orders(page) == ["ENG: F Lon - Nth"]
    assert page.input_value("#orders-text") == "A Lvp - Yor\nF Edi - Nwg"
    assert page.inner_text("#send-status") == "Your orders for Spring 1901 movement were kept from before the reload."
    code = send(page, [])
    assert listed_orders(page) == ["ENG: A Lvp - Yor", "ENG: F Edi - Nwg", "ENG: F Lon - Nth"]
    assert page.input_value("#orders-text") == ""
    assert group.read_code(code, Game.new("standard"), key).power == "england"
    page = reload(page)  # what was entered and sent is not put back in the box
    assert page.input_value("#orders-text") == "" and len(listed_orders(page)) == 3
    # another power's link on this device: the box holds none of England's text
    page.fill("#orders-text", "A Lvp - Wal")
    page = open_link(page, players_link(site, Game.new("standard"), "france", key))
    assert page.input_value("#orders-text") == ""
    return page


def a_second_code_is_said_to_be_new_and_to_replace_the_first(page: Any, site: Site, key: bytes) -> Any:
    """A player who changes their mind and sends again gets a code that looks like the first: the note says
    it is a new one, to send, and that it replaces the one before (also after a reload)."""
    first = send(page, ORDERS)
    assert "new code" not in page.inner_text("#orders-code-note")
    second = send(page, ["F Lon - Eng"])
    note = page.inner_text("#orders-code-note")
    assert second != first and note.startswith(
        "Sealed 2 orders for England, Spring 1901 movement. This is a new code: send it too, and it replaces the "
        "one before. Now send this code to your game master"
    ), note
    page = reload(page)
    assert page.input_value("#orders-code") == second and page.inner_text("#orders-code-note") == note
    return page


def an_order_kept_anyway_comes_back_marked_illegal(page: Any, site: Site, key: bytes) -> Any:
    page.check("#orders-keep")
    enter(page, ["F Lon - Bre", "A Lvp - Yor"])
    assert "illegal, will hold" in page.inner_text("#order-list li.illegal")
    page = reload(page)
    legal, illegal = listed_orders(page)
    assert legal == "ENG: A Lvp - Yor" and illegal.startswith("ENG: F Lon - Bre illegal, will hold: ")
    assert page.locator("#order-list li.illegal").count() == 1
    assert page.locator("#map .adj-order.illegal").count() == 1
    return page


def the_sealed_code_shown_is_kept_across_a_reload(page: Any, site: Site, key: bytes) -> Any:
    enter(page, ORDERS)
    code = send(page, [])
    page = reload(page)
    assert page.locator("#orders-code-box").is_visible()
    assert page.input_value("#orders-code") == code
    assert "Sealed 2 orders for England, Spring 1901" in page.inner_text("#orders-code-note")
    assert "sealed code you were shown" in page.inner_text("#send-status")
    assert listed_orders(page) == ["ENG: A Lvp - Yor", "ENG: F Lon - Nth"]
    # orders taken back stay taken back after a reload: the code shown stays (the latest sent counts)
    page.click("#orders-clear")
    enter(page, ["A Lvp - Yor"])
    page = reload(page)
    assert listed_orders(page) == ["ENG: A Lvp - Yor"]
    assert page.input_value("#orders-code") == code
    page.click("#orders-clear")
    page.wait_for_function("document.querySelectorAll('#order-list li').length === 0")
    page = reload(page)
    assert listed_orders(page) == []
    assert page.input_value("#orders-code") == code
    return page


def another_power_the_game_master_and_the_next_phase_start_clean(page: Any, site: Site, key: bytes) -> Any:
    spring = Game.new("standard")
    enter(page, ORDERS)
    send(page, [])
    # another power's link on the same device: none of England's drafts
    page = open_link(page, players_link(site, spring, "france", key))
    assert page.input_value("#orders-power") == "france"
    assert listed_orders(page) == []
    assert "0 orders given" in page.inner_text("#send-summary")
    assert not page.locator("#orders-code-box").is_visible()
    assert page.inner_text("#send-status") == ""
    # the game master's view of the same game and phase on this device: none of them either
    page = open_link(page, site.url + "#" + group.gm_link(spring, key, "AAAA", group.Intake()))
    assert page.locator("#group-gm").is_visible()
    assert listed_orders(page) == []
    # the next phase's link for England: a clean page
    fall = Game.new("standard")
    fall.adjudicate()
    page = open_link(page, players_link(site, fall, "england", key))
    assert page.evaluate("document.documentElement.dataset.phase") == "F1901M"
    assert listed_orders(page) == []
    assert not page.locator("#orders-code-box").is_visible()
    assert page.inner_text("#send-status") == ""
    # and back at spring's link (nothing typed in the fall), England's spring drafts are still there
    page = open_link(page, players_link(site, spring, "england", key))
    assert listed_orders(page) == ["ENG: A Lvp - Yor", "ENG: F Lon - Nth"]
    return page


def test_a_player_plays_on_when_storage_refuses_writes(new_context: Any, site: Site) -> None:
    context, _ = new_context()
    context.add_init_script(
        "Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };"
    )
    page = open_app(context, players_link(site, Game.new("standard"), "england"))
    enter(page, ORDERS)
    assert send(page, []).startswith("orders~")
    page = reload(page)
    assert listed_orders(page) == []
    assert page.inner_text("#send-status") == ""


def an_old_phases_link_says_so_and_leads_to_the_latest(page: Any, site: Site, key: bytes) -> Any:
    """A player who opens an earlier phase's link (an older email) after a later one is told, on a phone,
    before giving orders the game master would refuse, and is offered the latest link this browser opened."""
    spring, fall = Game.new("standard"), Game.new("standard")
    fall.adjudicate()
    assert not page.locator("#group-later").is_visible()
    page = open_link(page, players_link(site, fall, "england", key))
    assert not page.locator("#group-later").is_visible()
    page = open_link(page, players_link(site, spring, "england", key))  # the old email's link
    assert page.evaluate("document.documentElement.dataset.phase") == "S1901M"
    assert page.inner_text("#group-later-text").startswith(
        "This link is an old one: it shows Spring 1901 movement, and this browser has opened this game at "
        "Fall 1901 movement."
    )
    assert page.inner_text("#group-jump") == "Group game: this link is an old one"
    page.locator("#group-jump").tap()
    page.wait_for_function("() => document.activeElement.id === 'group-later-link'")
    assert page.inner_text("#group-later-link") == "Open Fall 1901 movement"
    page.locator("#group-later-link").tap()
    page.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    assert page.evaluate("document.activeElement.id") == "group-power"  # the focus stays in the panel
    assert page.input_value("#orders-power") == "england"
    assert not page.locator("#group-later").is_visible()
    assert page.inner_text("#group-jump") == "Group game: give your orders"
    return page


#: what a phone keeps of a player's drafts and the phases it opened: the parts of the test below
ON_A_PHONE: list[Callable[[Any, Site, bytes], Any]] = [
    orders_typed_and_not_yet_entered_are_kept_across_a_reload,
    an_old_phases_link_says_so_and_leads_to_the_latest,
]


def test_on_a_phone_typed_orders_outlive_a_reload_and_an_old_phases_link_says_so(
    new_context: Any, site: Site
) -> None:
    """Each part of ON_A_PHONE in a game of its own, as in the test above; then a browser that never opened
    the later phase of the last part's game: no warning at its earlier link."""
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    context, _ = new_context(**phone)
    played(context, site, ON_A_PHONE)
    other, _ = new_context(**phone)
    fresh = open_app(other, players_link(site, Game.new("standard"), "england", game_key(len(ON_A_PHONE))))
    assert not fresh.locator("#group-later").is_visible()
    assert fresh.inner_text("#group-jump") == "Group game: give your orders"


def orders_sent_from_an_old_phase_leave_the_latest_phases_orders(page: Any, site: Site, key: bytes) -> Any:
    """A player gives orders in the fall, goes Back to spring's link and sends from there: the code says
    the game master will refuse it, and Forward at the fall their orders are still there."""
    fall = Game.new("standard")
    fall.adjudicate()
    page.evaluate("link => { location.hash = link; }", group.public_link(fall, key, "england"))
    page.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    enter(page, ["F Lon - Nth"])
    page.go_back()
    page.wait_for_function("() => document.documentElement.dataset.phase === 'S1901M'", timeout=20_000)
    assert page.inner_text("#group-jump") == "Group game: this link is an old one"
    send(page, [])
    assert (
        "This link is an old one: this browser has opened this game at Fall 1901 movement, and the game master "
        "will refuse this code unless they took that phase back." in page.inner_text("#orders-code-note")
    )
    page.go_forward()
    page.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'", timeout=20_000)
    assert listed_orders(page) == ["ENG: F Lon - Nth"]
    assert "1 order given" in page.inner_text("#send-summary")
    return page


def test_each_phases_link_goes_on_in_one_recent_game_and_a_tab_left_open_follows(
    new_context: Any, site: Site
) -> None:
    """A player who opens each phase's players' link (one from each results message) has the group game
    once under Recent games, at its latest phase; a tab still at the earlier phase is moved on to the
    later one and told. An older link opened after has a save of its own: the latest stays listed."""
    context, _ = new_context()
    spring = Game.new("standard")
    fall = Game.new("standard")
    fall.adjudicate()
    first = open_app(context, players_link(site, spring, "england"))
    second = open_app(context, players_link(site, fall, "england"))
    first.wait_for_function("() => document.documentElement.dataset.phase === 'F1901M'")
    assert "changed in another tab" in first.inner_text("#message-text")
    recent = "els => els.map(e => e.textContent)"
    assert second.eval_on_selector_all("#recent-select option", recent) == ["no other game yet"]
    third = open_app(context, players_link(site, spring, "england"))
    assert "this browser has opened this game at Fall 1901 movement" in third.inner_text("#group-later")
    # said at the top of the page too, where it is seen first (the panel may be far down)
    assert "This link is an old one: it shows Spring 1901 movement" in third.inner_text("#message-text")
    listed = third.eval_on_selector_all("#recent-select option", recent)
    assert len(listed) == 2 and listed[1].startswith("Standard Diplomacy, group game as a player, F1901M"), listed
    assert second.evaluate("document.documentElement.dataset.phase") == "F1901M"


def a_code_whose_orders_changed_after_it_was_sealed_is_no_longer_offered(page: Any, site: Site, key: bytes) -> Any:
    """A code holds the orders as they were when Send was pressed: once they change, it is not shown (nor
    copied) and the panel says to send again; also after a reload. Taking the change back shows it again."""
    first = send(page, ORDERS)
    assert page.locator("#orders-code-box").is_visible()
    change(page, "F Lon - Eng")  # replaces F Lon - Nth
    assert not page.locator("#orders-code-box").is_visible()
    stale = "Your orders have changed since your code was sealed"
    assert page.inner_text("#send-status").startswith(stale)
    page = reload(page)
    assert listed_orders(page) == ["ENG: A Lvp - Yor", "ENG: F Lon - Eng"]
    assert not page.locator("#orders-code-box").is_visible() and page.inner_text("#send-status").startswith(stale)
    change(page, "F Lon - Nth")  # the change taken back: the code holds the orders given again
    assert page.locator("#orders-code-box").is_visible() and page.input_value("#orders-code") == first
    assert page.inner_text("#send-status") == ""
    change(page, "F Lon - Eng")
    second = send(page, [])
    assert second != first and page.locator("#orders-code-box").is_visible()
    assert "This is a new code" in page.inner_text("#orders-code-note")
    assert page.inner_text("#send-status") == ""
    return page


#: what a reload, another power's or phase's link and Back keep of a player's drafts: each a part of the test
#: below (the one that leaves "keep illegal orders" ticked last)
PARTS: list[Callable[[Any, Site, bytes], Any]] = [
    a_players_orders_are_kept_across_a_reload_and_can_be_sent,
    a_second_code_is_said_to_be_new_and_to_replace_the_first,
    the_sealed_code_shown_is_kept_across_a_reload,
    a_code_whose_orders_changed_after_it_was_sealed_is_no_longer_offered,
    another_power_the_game_master_and_the_next_phase_start_clean,
    orders_sent_from_an_old_phase_leave_the_latest_phases_orders,
    an_order_kept_anyway_comes_back_marked_illegal,
]


def test_a_players_drafts_across_reloads_powers_and_phases(new_context: Any, site: Site) -> None:
    """Each part of PARTS in a game of its own (England's Spring 1901 link for its own key) in one browser,
    the next game's link opened in the same tab: a fresh start for that game, none of the last one's drafts."""
    context, _ = new_context()
    played(context, site, PARTS)


def played(context: Any, site: Site, parts: list[Callable[[Any, Site, bytes], Any]]) -> None:
    """Each of ``parts`` played in ``context`` in a game of its own: the nth with England's Spring 1901 link
    for ``game_key(n)``, opened in the tab the part before left (the first in a new one), and checked to
    start with no draft."""
    page = None
    for number, part in enumerate(parts, 1):
        key = game_key(number)
        link = players_link(site, Game.new("standard"), "england", key)
        page = open_app(context, link) if page is None else open_link(page, link)
        assert listed_orders(page) == [] and not page.locator("#orders-code-box").is_visible(), part.__name__
        page = part(page, site, key)
