"""A Cluster group game player's drafts survive a reload, and come back only through their passphrase.

The player's orders (map orders and Cluster's own: nominations, research) and the last sealed code shown
are kept in this browser for that game, the link's public part and that power (adjutant_ui.saves.Draft).
After a reload the players' link opens as the locked public view, showing none of them; the player's
passphrase opens their part and puts them back, saying so under Send my orders. A wrong passphrase, or
another power's passphrase in the same browser, shows none of them. The code sent after the restore is
read by the game master's page (the engine, in the browser) with those orders.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjutant.formats.gamefile import from_data
from adjutant.game import Game
from adjutant.group_play import cluster_links as cg
from adjutant_ui.session import order_label
from app_driver import Site, adjudicate, open_app, reopen_app
from group_driver import (
    PASSPHRASES,
    cluster_gm_fragment,
    listed_orders,
    open_codes,
    players_link,
    start_cluster_group_game,
    unlock,
)
from group_tables import open_link

#: France's orders: a move, a research and a nomination (typed), and a nomination made with the form
TYPED = ["A Par - Bur", "F Bre RES", "Nominate 2 later"]


def labels(game: Game, power: str) -> list[str]:
    abbrev = game.variant.powers[power].abbrev
    return sorted(f"{abbrev}: {order_label(game.variant, o)}" for o in game.orders_of(power))


def reload(page: Any) -> Any:
    """The player's tab loaded again at the link in its address bar: the public view, locked, no orders."""
    url = page.url
    assert "#" in url
    public = json.dumps(cg.read_link(url.split("#", 1)[1]).public).lower()
    assert "nominat" not in public  # no draft in the link
    page = reopen_app(page, url)
    assert page.locator("#unlock-form").is_visible()
    assert not page.locator("#send-orders").is_enabled()
    assert listed_orders(page) == []
    assert page.inner_text("#send-status") == ""
    assert not page.locator("#orders-code-box").is_visible()
    return page


def opened(page: Any, passphrase: str, power: str) -> None:
    said = unlock(page, passphrase)
    assert said.startswith("Unlocked the secrets of"), said
    page.wait_for_function("p => document.getElementById('orders-power').value === p", arg=power)
    page.wait_for_function("() => !document.getElementById('send-orders').disabled", timeout=10_000)


def test_a_cluster_players_drafts_come_back_with_their_passphrase(new_context: Any, site: Site) -> None:
    gm_context, _ = new_context()
    gm = open_app(gm_context, site.url)
    start_cluster_group_game(gm)
    with gm.expect_download() as download:
        gm.click("#download")
    ref = from_data(json.loads(Path(download.value.path()).read_text(encoding="utf-8")))
    ref.nominate("france", 3, "par")
    assert not [p for p in ref.add_orders("\n".join(TYPED), "france") if not p.kept]
    expected = labels(ref, "france")
    kept_line = f"Your orders for {ref.phase.title} were kept in this browser."

    context, _ = new_context()
    page = open_app(context, players_link(gm))
    opened(page, PASSPHRASES["france"], "france")
    page.select_option("select[name='nominate-france-3']", "par")
    page.select_option("select[name='nominate-france-2']", "")
    page.click("[data-action='nominate-france']")
    page.fill("#orders-text", "\n".join(TYPED))
    page.click("#orders-apply")
    page.wait_for_function("n => document.querySelectorAll('#order-list li').length === n", arg=len(expected))
    assert listed_orders(page) == expected

    page = reload(page)
    # a wrong passphrase opens nothing, and shows nothing of the draft
    assert "opens none" in unlock(page, "not-a-passphrase-at-all")
    assert listed_orders(page) == [] and page.inner_text("#send-status") == ""
    opened(page, PASSPHRASES["france"], "france")
    assert listed_orders(page) == expected
    assert page.inner_text("#send-status") == kept_line
    assert f"France: {len(expected)} orders given" in page.inner_text("#send-summary")

    # another power's passphrase in this browser: none of France's drafts
    page = reload(page)
    opened(page, PASSPHRASES["germany"], "germany")
    assert listed_orders(page) == []
    assert page.inner_text("#send-status") == ""
    assert not page.locator("#orders-code-box").is_visible()

    # France again (the link in the address bar is Germany's now: the passphrase says whose part opens)
    page = reload(page)
    opened(page, PASSPHRASES["france"], "france")
    assert listed_orders(page) == expected
    page.click("#send-orders")
    page.wait_for_function("() => document.getElementById('orders-code').value.startsWith('orders~')",
                           timeout=10_000)
    code = page.input_value("#orders-code")

    # the code shown is kept too, with its note
    page = reload(page)
    opened(page, PASSPHRASES["france"], "france")
    assert page.locator("#orders-code-box").is_visible()
    assert page.input_value("#orders-code") == code
    assert f"Sealed {len(expected)} orders for France" in page.inner_text("#orders-code-note")
    assert "orders and the sealed code you were shown" in page.inner_text("#send-status")
    assert listed_orders(page) == expected

    # the game master's page reads the code: France's orders, as drafted before the reloads
    log = open_codes(gm, f"From: france\n{code}\n")
    assert len(log) == 1 and log[0].startswith("kept: ") and f"France: {len(expected)} orders in" in log[0], log
    gm_orders = sorted(gm.eval_on_selector_all("#order-list li", "els => els.map(e => e.textContent)"))
    assert gm_orders == expected

    # the next phase's link: France's part opens clean; the spring link still has the spring drafts
    spring = page.url
    before = cluster_gm_fragment(gm)
    adjudicate(gm)
    cluster_gm_fragment(gm, before)
    fall = players_link(gm)
    assert cg.read_link(fall.split("#", 1)[1]).public != cg.read_link(spring.split("#", 1)[1]).public
    page = open_link(page, fall)  # (in the same tab, as the next results message's link)
    opened(page, PASSPHRASES["france"], "france")
    assert page.evaluate("document.documentElement.dataset.phase") == "F1901M"
    assert listed_orders(page) == []
    assert page.inner_text("#send-status") == ""
    assert not page.locator("#orders-code-box").is_visible()
    page = open_link(page, spring)
    opened(page, PASSPHRASES["france"], "france")
    assert listed_orders(page) == expected
    assert page.input_value("#orders-code") == code
