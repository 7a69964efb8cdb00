"""The computer players (adjutant.bots) and their seats in a game (adjutant.seats)."""

from __future__ import annotations

import pytest

from adjutant.bots import LEVELS, BotError, bot_orders, play_computer
from adjutant.codec import decode_link, encode_link
from adjutant.errors import GameFileError
from adjutant.game import Game
from adjutant.gamefile import dumps, loads
from adjutant.seats import Seat


def test_seats_round_trip_file_link_and_copy() -> None:
    g = Game.new("standard")
    g.set_computer("turkey", "search", 12)
    g.set_computer("italy", "random", 0)
    play_computer(g)
    g.adjudicate()
    want = {"italy": Seat("random", 0), "turkey": Seat("search", 12)}
    assert g.computer == want
    assert loads(dumps(g)).computer == want
    assert decode_link(encode_link(g)).computer == want
    assert g.copy().computer == want
    g.set_computer("italy", None)
    assert loads(dumps(g)).computer == {"turkey": Seat("search", 12)}


def test_a_game_without_seats_is_written_as_before() -> None:
    g = Game.new("standard")
    assert '"computer"' not in dumps(g) and '"version": 1' in dumps(g)
    assert loads(dumps(g)).computer == {}


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ({"narnia": {"level": "heuristic", "seed": 1}}, "not a power"),
        ({"turkey": {"level": "genius", "seed": 1}}, "not a computer player's level"),
        ({"turkey": {"level": "heuristic", "seed": 10**30}}, "not a computer player's seed"),
        ({"turkey": {"level": "heuristic", "seed": -1}}, "not a computer player's seed"),
        ({"turkey": {"level": "heuristic", "seed": True}}, "not a computer player's seed"),
        ({"turkey": ["heuristic", 1]}, "must be an object"),
        ([1, 2], "must be an object"),
    ],
)
def test_hostile_seats_are_refused(seats: object, message: str) -> None:
    import json

    data = json.loads(dumps(Game.new("standard")))
    data["computer"] = seats
    with pytest.raises(GameFileError, match=message):
        loads(json.dumps(data))


def test_bad_requests() -> None:
    g = Game.new("standard")
    with pytest.raises(BotError, match="not a power"):
        bot_orders(g, "narnia")
    with pytest.raises(BotError, match="level"):
        bot_orders(g, "france", "genius")
    with pytest.raises(BotError, match="not a power"):
        g.set_computer("narnia", "heuristic")
    with pytest.raises(BotError, match="level"):
        g.set_computer("france", "genius")
    g.declare_draw(["france"])
    with pytest.raises(BotError, match="over"):
        bot_orders(g, "france")
    assert LEVELS == ("random", "heuristic", "search")
