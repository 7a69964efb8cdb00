"""The page's idle rehearsal (adjutant_ui.app.App.rehearse): once Python is ready and the page idle, it
plays a throwaway game off the page so that the player's first clicks run compiled code. It must finish
without an error and leave the game in hand, the map and the address alone, also when the player
clicks while it runs."""

from __future__ import annotations

from typing import Any

import pytest
from adjutant import Game, decode_link, encode_link, load_variant
from adjutant.adjudication.orders import format_order
from app_driver import Site, open_app, open_new_cluster_dialog, reopen_app
from group_driver import PASSPHRASES, sealed_link

#: what the player sees of the game in hand: the address, the map's drawings, the order list
SHOWN = """() => [location.hash, document.getElementById("adj-overlay").innerHTML,
  document.getElementById("order-list").textContent]"""


@pytest.mark.parametrize("variant_id", ["standard", "cline5", "coast_running"])
def test_the_rehearsal_ends_and_leaves_the_game_in_hand_alone(new_context: Any, site: Site, variant_id: str) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url + "#" + encode_link(Game.new(load_variant(variant_id))))
    before = page.evaluate(SHOWN)
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    assert page.evaluate(SHOWN) == before
    assert page.evaluate("document.querySelectorAll('#adj-overlay').length") == 1  # no copy of the map came in
    assert recorder.console_errors == []
    assert recorder.page_errors == []


#: whether the link module keeps the encoding of the game in hand's current position (the page's Python,
#: through the interpreter the shell started)
KEEPS_THE_GAME_IN_HANDS_ENCODING = """async () => {
  const python = await window.adjutantShell.python.started;
  return python.runPython(`
import gc
import adjutant.formats.link as link
import adjutant_ui.app as page
gc.unfreeze()  # (the page's start freezes its objects out of the collector, where get_objects finds none)
game = next(o for o in gc.get_objects() if isinstance(o, page.App)).session.kept
gc.freeze()
link.encoding_kept(game)
`);
}"""


def test_after_the_rehearsal_the_first_order_finds_the_game_in_hands_link_encoding_kept(
    new_context: Any, site: Site
) -> None:
    """The throwaway game's links take the place of the game in hand's kept encoding (its units'
    candidates): the rehearsal makes it again at its end, so the first order given does not pay for it."""
    context, recorder = new_context()
    game = Game.new(load_variant("cline5"))
    _ = game.add_orders("A Vienna - Galicia")
    game.adjudicate()
    page = open_app(context, site.url + "#" + encode_link(game))
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    assert page.evaluate(KEEPS_THE_GAME_IN_HANDS_ENCODING) is True
    assert recorder.page_errors == []


def test_an_order_entered_while_the_rehearsal_runs_is_kept(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url + "#" + encode_link(Game.new(load_variant("cline5"))))
    # at once, as Python is ready: the rehearsal's first idle steps are still to come
    page.select_option("#orders-power", "austria")
    page.fill("#orders-text", "A Vienna - Galicia")
    page.click("#orders-apply")
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    assert "A Vie - Gal" in page.inner_text("#order-list")
    game = decode_link(page.evaluate("location.hash").lstrip("#"))
    assert [format_order(order) for order in game.orders_of("austria")] == ["A vie - gal"]
    assert recorder.console_errors == []
    assert recorder.page_errors == []


def test_the_rehearsal_plays_cluster_from_a_sealed_link(new_context: Any, site: Site) -> None:
    """Cluster's game has secrets: the rehearsal's throwaway game has its own, and the public view of the
    game in hand keeps showing only what the public may see."""
    context, recorder = new_context()
    page = open_app(context, site.url)
    open_new_cluster_dialog(page)
    for part, phrase in PASSPHRASES.items():
        page.fill(f"#passphrase-{part}", phrase)
    page.click("#passphrase-ok")
    link = sealed_link(page)
    page = reopen_app(page, site.url + "#" + link)
    before = page.evaluate(SHOWN)
    page.wait_for_selector("html[data-rehearsed]", state="attached", timeout=30_000)
    assert page.evaluate(SHOWN) == before
    assert "public" in page.inner_text("#secrets-role").lower()
    assert recorder.console_errors == []
    assert recorder.page_errors == []
