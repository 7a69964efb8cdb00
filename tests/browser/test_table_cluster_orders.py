"""Cluster by click: a unit's choices are the Cluster orders the engine's legal orders hold for it
(Research always; Transfer and Mattermission only where its power knows them and has found the site the
unit stands on), and Transfer and Mattermission are given by clicking the highlighted unit or place."""

from __future__ import annotations

from typing import Any

from adjutant import cluster_views
from adjutant.game import Game
from adjutant_ui.session import game_to_text
from app_driver import Site, inside_unit_box
from test_accessibility import serious_violations
from test_orders_and_embed import shows_on_top


def france_knowing_transfer() -> Game:
    """A Cluster game, fall 1901: France's A Par, its triple unit, researched the level 2 site it stands
    on in spring, so France knows Transfer and has found that site (the first seed whose sites put one
    of level 2 in Paris)."""
    game = next(g for g in map(cluster_views.new_game, range(1000)) if g.position.variant_state.sites.get("par") == 2)
    assert game.add_orders("France: Nominate 3 par\nNominate 2 mar\nA par RES") == []
    game.adjudicate()
    assert game.position.variant_state.knowledge == {"france": ("transfer",)}
    return game


def actions(page: Any) -> list[str]:
    return [str(a) for a in page.eval_on_selector_all("#click-order button", "els => els.map(e => e.dataset.action)")]


def test_cluster_orders_offered_by_click_are_the_legal_ones(app: tuple[Any, Any], site: Site, tmp_path: Any) -> None:
    page, recorder = app
    game = tmp_path / "cluster-game.json"
    game.write_text(game_to_text(france_knowing_transfer()), encoding="utf-8")
    page.set_input_files("#upload", str(game))
    page.wait_for_selector("#passphrase-dialog[open]", timeout=10_000)
    page.click("#passphrase-cancel")  # the game master's game, not sealed yet: it can be ordered
    page.wait_for_selector("#map[data-variant='cluster']", state="attached", timeout=10_000)

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
