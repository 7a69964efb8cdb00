"""Random legal orders and seeded random games, for soak tests, the differential test and the benchmarks.

>>> from adjutant.game import Game
>>> games = list(random_game("standard", seed=1, years=1))
>>> str(games[-1].phase)
'S1902M'
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from . import cluster_rules
from .cluster_rules import ClusterState, cluster_state
from .game import Game
from .kinds import unit_type_of
from .legal import Candidates, possible_orders
from .legality import illegal_reason
from .orders import Build, Disband, Nominate, Order, Unit, Waive
from .phases import adjustments_due
from .variant import province_of


def random_orders(game: Game, rng: random.Random, hold_bias: float = 0.0) -> list[Order]:
    """A random legal order for every unit (or the adjustments due): for soaks and benchmarks."""
    kind = game.phase.kind
    out: list[Order] = []
    if kind == "movement":
        state = cluster_state(game.position.variant_state)
        c = Candidates(game.variant, game.units, game.phase.season, state)
        for prov in sorted(game.units):
            legal = [o for o in c.of(prov) if not illegal_reason(game.variant, o, game.units, game.phase.season)]  # type: ignore[arg-type]
            out.append(legal[0] if rng.random() < hold_bias else rng.choice(legal))
        if state is not None:
            out += _random_cluster_orders(game, state, c, rng)
    elif kind == "retreat":
        for d in game.position.dislodged:
            out.append(rng.choice(possible_orders(game, d.unit.province)))
    else:
        from .phases import build_places

        for power, adj in sorted(adjustments_due(game.variant, game.units, game.position.centres).items()):
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
                mine = sorted((u for u in game.units.values() if u.power == power), key=lambda u: u.province)
                for u in rng.sample(mine, min(len(mine), -adj.delta)):
                    out.append(Disband(u))
    return out


def _random_cluster_orders(game: Game, state: ClusterState, c: Candidates, rng: random.Random) -> list[Order]:
    """Cluster Diplomacy: random nominations while they are due, and orders from the powers commanding
    transferred hosts (half the time: else the host follows its owner's)."""
    out: list[Order] = []
    v = game.variant
    for power, levels in cluster_rules.nominations_due(v, state, []).items():
        chosen: list[Nominate] = []
        for level in levels:
            if state.started:
                places = list(state.fresh.get(power, ()))
            else:
                places = sorted(p for p, u in game.units.items() if u.power == power)
            options = [Nominate(power, level, game.units[p].location) for p in places] + [Nominate(power, level)]
            options = [n for n in options if not cluster_rules.nomination_problem(v, state, game.units, n, chosen)]
            pick = rng.choice(options)
            chosen.append(pick)
            out.append(pick)
    for t in state.transferees:
        if not t.retreating and t.host in game.units and rng.random() < 0.5:
            legal = [o for o in c.of(t.host) if not illegal_reason(game.variant, o, game.units, game.phase.season)]  # type: ignore[arg-type]
            o = rng.choice(legal)
            assert not isinstance(o, (Build, Waive, Nominate))
            out.append(replace(o, unit=Unit(t.power, o.unit.type, o.unit.location)))
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
