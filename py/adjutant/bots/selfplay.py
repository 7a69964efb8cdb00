"""Whole games between computer players: for the command line's ``selfplay``, the tests and the benchmarks.

>>> game = play_game("standard", {}, years=1, seed=2)
>>> str(game.phase), sum(game.centre_counts().values()) >= 22
('S1902M', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from ..adjudication.orders import Order
from ..game import Game
from ..seats import DEFAULT_LEVEL, Seat, phase_seed
from . import bot_orders

#: what :func:`play_game` calls with each power's orders before they are given: the game, the power, the
#: orders, and the seconds they took to make
Watcher = Callable[[Game, str, list[Order], float], None]


def play_game(
    variant: str,
    levels: Mapping[str, str],
    years: int,
    seed: int = 0,
    default: str = DEFAULT_LEVEL,
    watch: Watcher | None = None,
) -> Game:
    """A game of ``variant`` played ``years`` game years (or to its end) by computer players: each power at
    its level in ``levels``, else at ``default``; every seat's seed, and a hidden setup's (Cluster's), drawn
    from ``seed``."""
    game = Game.new(variant, seed=seed)
    for power in sorted(game.variant.powers):
        game.set_computer(power, levels.get(power, default), seed)
    last = game.variant.first_year + years
    while game.phase.year < last and not game.over:
        for power, seat in sorted(game.computer.items()):
            started = time.perf_counter()
            orders = bot_orders(game, power, seat.level, phase_seed(seat, str(game.phase), power))
            if watch is not None:
                watch(game, power, orders, time.perf_counter() - started)
            for o in orders:
                game.add_order(o)
        game.adjudicate()
    return game


__all__ = ["Seat", "Watcher", "play_game"]
