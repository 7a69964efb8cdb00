"""The resolver's shortcuts against the plain algorithm: the decisions :class:`Resolver` settles before any
guess (:meth:`Resolver._unopposed`, :meth:`Resolver._unattacked`) are the ones DATC section 5's algorithm
reaches, on the movement phases of seeded random games of every variant."""

from __future__ import annotations

import random

import pytest
from adjutant.adjudication.orders import POWER_ORDERS, UnitOrder
from adjutant.adjudication.resolver import RESOLVED, Resolver
from adjutant.game import Game
from adjutant.randomgame import random_orders


class Plain(Resolver):
    """The resolver with no decision settled before the algorithm asks for it."""

    def _unopposed(self, i: int) -> bool:
        return False

    def _unattacked(self, i: int) -> bool:
        return False


def _movement_phases(variant: str, seed: int, years: int):
    rng = random.Random(seed)
    game = Game.new(variant, seed=seed)
    while game.phase.year < game.variant.first_year + years and not game.over:
        orders = random_orders(game, rng, hold_bias=0.1)
        if game.phase.kind == "movement" and game.position.variant_state is None:
            yield game, [o for o in orders if not isinstance(o, POWER_ORDERS)]
        for order in orders:
            game.add_order(order)
        game.adjudicate()


@pytest.mark.parametrize("variant", ["standard", "loeb9", "cline5", "cline6", "coast_running"])
def test_every_shortcut_agrees_with_the_plain_algorithm(variant: str) -> None:
    phases = shortcuts = 0
    for seed in range(3):
        for game, orders in _movement_phases(variant, seed, 6):
            unit_orders: list[UnitOrder] = orders  # type: ignore[assignment]
            args = (game.variant, game.units, unit_orders, game.phase.season, game.rules)
            fast, plain = Resolver(*args), Plain(*args)
            settled = [
                i
                for i in range(len(fast.orders))
                if fast.state[i] == RESOLVED and (i in fast.moves or i in fast.live)
            ]
            assert all(plain.state[i] != RESOLVED for i in settled)
            assert fast.run() == plain.run()
            assert [fast.result[i] for i in settled] == [plain.result[i] for i in settled]
            phases += 1
            shortcuts += len(settled)
    assert phases >= 30 and shortcuts > phases  # the shortcuts were taken, many times
