"""Games the page's session tests start from (tests/test_ui_session.py, tests/test_ui_clicks.py and the
browser tests), and the orders a session holds as the order list writes them."""

from __future__ import annotations

import json
import zlib
from dataclasses import replace

from adjutant.adjudication.orders import format_order
from adjutant.game import Game
from adjutant.group_play import cluster_views
from adjutant.variants.cluster import Aura
from adjutant_ui.session import Session, game_to_text


def order_list(session: Session) -> list[str]:
    """Every order the session's game holds, written as typed, sorted."""
    return sorted(format_order(o) for os in session.game.all_orders().values() for o in os)


def played_in(variant: str, *turns: str) -> Game:
    """A game of ``variant`` after each turn's orders (one text per phase) are given and adjudicated."""
    game = Game.new(variant)
    for orders in turns:
        assert game.add_orders(orders) == []
        game.adjudicate()
    return game


def played(*turns: str) -> Game:
    """A game of Standard after each turn's orders (one text per phase) are given and adjudicated."""
    return played_in("standard", *turns)


def austria_builds_two() -> Game:
    """Winter 1901: Austria owed 2 builds, Budapest, Trieste and Vienna empty."""
    game = played("Austria: A vie - gal\nF tri - alb\nA bud - ser", "Austria: F alb - gre")
    assert game.phase.kind == "adjustment" and game.adjustments()["austria"] == 2
    return game


def austria_removes_two() -> Game:
    """Winter 1901: Russia took Vienna and Italy Trieste, both left empty; Austria has 3 units, 1 centre."""
    game = played("Austria: A vie - boh\nF tri - alb\nRussia: A war - gal", "Russia: A gal - vie\nItaly: A ven - tri")
    assert str(game.phase) == "W1901A" and game.adjustments()["austria"] == -2
    return game


def russia_builds() -> Game:
    """Winter 1901 with Russia owed a build and St Petersburg (two coasts) empty."""
    game = played("Russia: F stp/sc - bot\nA mos - ukr\nA war - gal\nF sev - bla", "Russia: F bot - swe\nA ukr - rum")
    assert game.phase.kind == "adjustment" and game.adjustments()["russia"] > 0
    return game


def cluster_game_knowing(*knowledge: str) -> Game:
    """A Cluster game (spring 1901, nominations made) where France's A Par is a triple unit standing on a
    level 2 site France has found, France knowing ``knowledge`` ("transfer", "mattermission")."""
    game = cluster_views.new_game(11)
    state = game.position.variant_state
    assert state is not None
    state = replace(state, sites={**state.sites, "par": 2}, auras={"par": Aura(3)}, deferred={}, started=True,
                    knowledge={"france": knowledge}, found={"france": {"par": 2}})
    game.position = replace(game.position, variant_state=state)
    return game


def failed_waive_file() -> str:
    """A game file at Winter 1901 (France with two builds due) whose orders hold a Waive for Germany, which
    has nothing to adjust: the order box refuses such an order; a file's orders are given as written."""
    game = played("France: A Par - Bur; A Mar - Spa; F Bre - Mao", "France: F Mao - Por")
    data = json.loads(game_to_text(game))
    data["orders"] = {"germany": ["Waive"]}
    return json.dumps(data)


def carrying(game: Game, other: Game) -> str:
    """``game``'s link, tampered with: it carries the current position of ``other`` (a position the map
    allows, which ``game``'s history does not reach)."""
    from adjutant.formats import base64url
    from adjutant.formats.link import encode_link, split_link

    def payload(of: Game) -> dict[str, object]:
        data = json.loads(zlib.decompress(base64url.decode(split_link(encode_link(of))[1], "a link"), -15))
        assert isinstance(data, dict)
        return data

    tampered = {**payload(game), "q": payload(other)["q"]}
    raw = zlib.compress(json.dumps(tampered, separators=(",", ":")).encode(), 9)[2:-4]
    return f"{game.variant.id}.{base64url.encode(raw)}"
