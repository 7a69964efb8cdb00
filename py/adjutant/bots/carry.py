"""Carried moves for the heuristic player: convoys, and Coast-Running's runs.

Both are planned after every unit has chosen its place (:func:`~.heuristic.movement_orders`), by the same
values (:class:`~.values.Values`), as a change of those choices that is worth making:

- **A convoy**: an army of ours on a coast goes by sea, along a chain of our fleets, to a coastal province
  it cannot reach by land (or only across a weak passage, Loeb9's, where a move alone has no strength),
  when that place's value over the army's own choice is more than the fleets give
  up by staying to convoy (each fleet's choice's value over its sea's). The shortest chain is taken; the
  best such convoy first, then the next among the units left, and so on. None goes where another of ours
  goes or stays.
- **A run** (Coast-Running): a fleet of ours runs along the coasts of our armies, which protect it (a
  protecting army holds), when the run's end is worth more to it than its own choice by more than the
  armies give up by staying; the fewest and cheapest armies that make a chain protect it.

The engine says what is possible: the convoy seas of the season (:meth:`Variant.sea_graph
<adjutant.map.variant.Variant.sea_graph>`), the places a run may end (:func:`adjutant.map.routes.run_destinations`),
and whether each order is legal.

>>> from adjutant.adjudication.orders import Convoy, Move, Unit
>>> army, fleet = Unit("england", "A", "lon"), Unit("england", "F", "nth")
>>> sorted(groups({"lon": Move(army, "nwy", True), "nth": Convoy(fleet, "lon", "nwy")})["lon"])
['nth']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass

from ..adjudication.orders import Convoy, Move, Protect, Unit, UnitOrder
from ..game import Game
from ..map.routes import run_destinations
from ..map.variant import province_of
from .values import Values

#: a carried move: the carried unit's province, where it goes, and the provinces of the units carrying it
Carried = tuple[str, str, tuple[str, ...]]


@dataclass
class Choices:
    """The places our units have chosen, which the carried moves change: ``dest``, each unit's (by its
    province) and ``taken``, by province, the unit of ours going or staying there."""

    game: Game
    mine: Mapping[str, Unit]
    values: Values
    dest: MutableMapping[str, str]
    taken: MutableMapping[str, str]
    #: by province, the unit of ours that the unit there chose to support (staying where it is)
    helping: Mapping[str, str]

    def worth(self, prov: str) -> float:
        """The value of what the unit in ``prov`` chose: its place's, or for a supporter the place it wanted
        (where the unit it supports goes or stays), if that is worth more."""
        u = self.mine[prov]
        here = self.values.of(u.type, self.dest[prov])
        helped = self.helping.get(prov)
        return here if helped is None else max(here, self.values.of(u.type, self.dest[helped]))

    def move(self, prov: str, place: str) -> None:
        """The unit in ``prov`` goes to ``place`` instead of its earlier choice."""
        before = province_of(self.dest[prov])
        if self.taken.get(before) == prov:
            del self.taken[before]
        self.dest[prov] = place
        self.taken[province_of(place)] = prov

    def free(self, place: str, movers: set[str]) -> bool:
        """Whether ``place`` is free for one of ours (no other of ours goes or stays there, but ``movers``)."""
        other = self.taken.get(province_of(place))
        return other is None or other in movers


def convoys(choices: Choices, busy: set[str], rng: random.Random, noise: float = 0.0) -> list[Carried]:
    """The convoys worth making (see the module's docstring), as (army, destination, fleets); the choices
    are changed to match. ``busy``: our units that may neither carry nor be carried (a unit supported by
    another, a unit that must stay)."""
    game, mine, values, dest = choices.game, choices.mine, choices.values, choices.dest
    v = game.variant
    season = game.phase.season
    graph, shore = v.sea_graph(season)
    # (no fleet whose sea another of ours is moving into: a convoying fleet stays)
    taken = choices.taken
    fleets = {p for p, u in mine.items() if u.type == "F" and p in graph and p not in busy and taken.get(p, p) == p}
    armies = sorted(p for p, u in mine.items() if u.type == "A" and shore.get(p) and p not in busy)
    if not fleets or not armies:
        return []
    touching: dict[str, list[str]] = {}
    for prov in sorted(shore):
        for sea in shore[prov]:
            touching.setdefault(sea, []).append(prov)
    out: list[Carried] = []
    while fleets and armies:
        best: tuple[float, str, str, tuple[str, ...]] | None = None
        for a in armies:
            army = mine[a]
            # (an army crossing a weak passage alone (Loeb9) gets nowhere: a convoy there is worth taking)
            weak = v.edge_kind(army.location, dest[a]) == "weak"
            here = values.of("A", army.location) if weak else choices.worth(a)
            for to, chain in _sea_routes(a, shore, graph, fleets, touching).items():
                by_land = v.can_move("A", army.location, to) and v.edge_kind(army.location, to) != "weak"
                if by_land or not v.provinces[to].army_can_stand:
                    continue
                if not choices.free(to, {a, *chain}):
                    continue
                lost = sum(max(0.0, choices.worth(f) - values.of("F", mine[f].location)) for f in chain)
                gain = values.of("A", to) - here - lost
                if noise:
                    gain += abs(values.of("A", to)) * noise * (rng.random() - 0.5)
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, a, to, chain)
        if best is None:
            break
        _, a, to, chain = best
        army = mine[a]
        orders: list[UnitOrder] = [Move(army, to, True), *(Convoy(mine[f], a, to) for f in chain)]
        armies.remove(a)
        if any(game.check_order(o).verdict != "legal" for o in orders):
            continue
        for f in chain:
            fleets.discard(f)
            choices.move(f, mine[f].location)
        choices.move(a, to)
        out.append((a, to, chain))
    return out


def _sea_routes(
    army: str,
    shore: Mapping[str, frozenset[str]],
    graph: Mapping[str, tuple[str, ...]],
    fleets: set[str],
    touching: Mapping[str, list[str]],
) -> dict[str, tuple[str, ...]]:
    """Where the army in province ``army`` could be convoyed by the fleets in the seas ``fleets``: each
    coastal province with the shortest chain of those seas to it (found breadth first, in sorted order)."""
    first = sorted(s for s in shore[army] if s in fleets)
    path: dict[str, tuple[str, ...]] = {s: (s,) for s in first}
    todo = list(first)
    routes: dict[str, tuple[str, ...]] = {}
    while todo:
        sea = todo.pop(0)
        for prov in touching.get(sea, ()):
            if prov != army and prov not in routes:
                routes[prov] = path[sea]
        for n in sorted(graph.get(sea, ())):
            if n in fleets and n not in path:
                path[n] = (*path[sea], n)
                todo.append(n)
    return routes


def runs(choices: Choices, busy: set[str], keep: set[str]) -> list[Carried]:
    """Coast-Running: the runs worth making (see the module's docstring), as (fleet, destination,
    protecting armies); the choices are changed to match. ``busy``: our units that may neither run nor
    protect (supported by another, or carried or carrying already); ``keep``: our units that stay where they are
    (they may protect, at no cost, but not run)."""
    game, mine, values, taken = choices.game, choices.mine, choices.values, choices.taken
    v = game.variant
    if "protect" not in v.order_kinds:
        return []
    season = game.phase.season
    # what each army that could protect gives up by staying (none whose place another of ours is taking)
    cost = {
        p: max(0.0, choices.worth(p) - values.of("A", u.location))
        for p, u in mine.items()
        if game.rules.may_carry(v, u) and (p in keep or p not in busy) and taken.get(p, p) == p
    }
    fleets = sorted(p for p, u in mine.items() if u.type == "F" and p not in busy and p not in keep)
    out: list[Carried] = []
    while cost and fleets:
        best: tuple[float, str, str, tuple[str, ...]] | None = None
        for f in fleets:
            fleet = mine[f]
            here = choices.worth(f)
            for end in run_destinations(v, fleet.location, sorted(cost), season):
                gain = values.of("F", end) - here
                if gain <= 0 or (best is not None and gain <= best[0]):
                    continue
                chain = _chain(game, fleet.location, end, cost)
                gain -= sum(cost[a] for a in chain)
                if chain and gain > 0 and (best is None or gain > best[0]) and choices.free(end, {f, *chain}):
                    best = (gain, f, end, chain)
        if best is None:
            break
        _, f, end, chain = best
        fleets.remove(f)
        orders: list[UnitOrder] = [Move(mine[f], end), *(Protect(mine[a], f, end) for a in chain)]
        if any(game.check_order(o).verdict != "legal" for o in orders):
            continue
        for a in chain:
            del cost[a]
            choices.move(a, mine[a].location)
        choices.move(f, end)
        out.append((f, end, chain))
    return out


def _chain(game: Game, start: str, end: str, cost: Mapping[str, float]) -> tuple[str, ...]:
    """The armies of ``cost`` whose protection lets a fleet at ``start`` run to ``end``, as few and as
    cheap as may be (each left out in turn, the costliest first, while the run stays possible without it),
    by the engine's rule of runs."""
    v, season = game.variant, game.phase.season
    chain = sorted(cost)
    for g in sorted(cost, key=lambda a: (-cost[a], a)):
        rest = [x for x in chain if x != g]
        if end in run_destinations(v, start, rest, season):
            chain = rest
    return tuple(chain)


def orders_of(mine: Mapping[str, Unit], carried: list[Carried], convoyed: bool) -> dict[str, UnitOrder]:
    """The carrying units' orders for the carried moves (convoys if ``convoyed``, else protections), by
    province: the carried unit's move, and each carrier's convoy or protect order."""
    out: dict[str, UnitOrder] = {}
    for p, to, by in carried:
        out[p] = Move(mine[p], to, convoyed)
        for q in by:
            out[q] = Convoy(mine[q], p, to) if convoyed else Protect(mine[q], p, to)
    return out


def groups(orders: Mapping[str, UnitOrder]) -> dict[str, set[str]]:
    """By province, the other units of one power's orders ``orders`` whose orders go with that unit's: a
    convoyed army and the fleets convoying it, a running fleet and the armies protecting it."""
    out: dict[str, set[str]] = {}
    for q, o in orders.items():
        if isinstance(o, (Convoy, Protect)) and o.target in orders:
            members = {q, o.target, *out.get(o.target, set())}
            for m in members:
                out.setdefault(m, set()).update(members - {m})
    return out
