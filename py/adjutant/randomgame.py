"""Random legal orders and seeded random games, for soak tests, the differential test and the benchmarks.

>>> from adjutant.game import Game
>>> games = list(random_game("standard", seed=1, years=1))
>>> str(games[-1].phase)
'S1902M'
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator

from .adjudication.legality import illegal_reason
from .adjudication.orders import Build, Disband, Order, UnitOrder, Waive, order_power
from .adjudication.phases import adjustments_due
from .game import Game
from .legal import Candidates, possible_orders
from .map.kinds import unit_type_of
from .map.variant import province_of


def random_orders(
    game: Game, rng: random.Random, hold_bias: float = 0.0, powers: Collection[str] | None = None
) -> list[Order]:
    """A random legal order for every unit (or the adjustments due): for soaks, benchmarks and the random
    computer player. ``powers``: only those powers' orders (the random draws are then others)."""
    kind = game.phase.kind
    mine = None if powers is None else frozenset(powers)
    out: list[Order] = []
    if kind == "movement":
        state = game.position.variant_state
        c = Candidates(game.variant, game.units, game.phase.season, state)

        def legal(prov: str) -> list[UnitOrder]:
            offered: list[UnitOrder] = c.of(prov)  # type: ignore[assignment]  # (a unit's orders, in a movement phase)
            # legal on the board, and not objected to by the variant's rules (in Cluster, an original unit
            # whose aura is away only stands)
            return [o for o in offered if not illegal_reason(game.variant, o, game.units, game.phase.season)
                    and game.rules.unit_order_problem(game.variant, state, o) is None]

        for prov in sorted(game.units):
            if mine is not None and game.units[prov].power not in mine:
                continue
            orders = legal(prov)
            out.append(orders[0] if rng.random() < hold_bias else rng.choice(orders))
        # the variant's own (Cluster's nominations, and the orders of the powers commanding hosts)
        extra = game.rules.random_orders(game.variant, state, game.units, legal, rng)
        out += [o for o in extra if mine is None or order_power(o) in mine]
    elif kind == "retreat":
        for d in game.position.dislodged:
            if mine is None or d.unit.power in mine:
                out.append(rng.choice(possible_orders(game, d.unit.province)))
    else:
        from .adjudication.phases import build_places

        for power, adj in sorted(adjustments_due(game.variant, game.units, game.position.centres).items()):
            if mine is not None and power not in mine:
                continue
            if adj.delta > 0:
                places = build_places(game.variant, power, game.units, game.position.centres)
                used: set[str] = set()
                for _ in range(adj.delta):
                    free = [b for b in places if province_of(b.split()[1]) not in used]
                    if not free or rng.random() < 0.1:
                        out.append(Waive(power))
                        continue
                    t, loc = rng.choice(free).split()
                    used.add(province_of(loc))
                    out.append(Build(power, unit_type_of(t), loc))
            else:
                own = sorted((u for u in game.units.values() if u.power == power), key=lambda u: u.province)
                for u in rng.sample(own, min(len(own), -adj.delta)):
                    out.append(Disband(u))
    return out


def random_game(variant: str, seed: int, years: int) -> Iterator[Game]:
    """Play a seeded game of random legal orders for ``years`` game years; yields the game after each
    adjudication (the same object, advanced). A variant's hidden setup (Cluster's sites) is drawn with
    ``seed`` too."""
    rng = random.Random(seed)
    game = Game.new(variant, seed=seed)
    while game.phase.year < game.variant.first_year + years and not game.over:
        for order in random_orders(game, rng):
            game.add_order(order)
        game.adjudicate()
        yield game
