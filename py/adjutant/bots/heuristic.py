"""The heuristic computer player: each unit goes to the best place next to it by :class:`~.values.Values`
(a near-equal second best now and then, at random); armies are convoyed and, in Coast-Running, fleets run
along protected coasts where that is worth more (:mod:`.carry`); then the orders are made to work
together: a unit whose place another of ours is moving to supports that move, a unit moving into a place
where ours stays supports it to hold instead, two of ours never swap places, and a unit with nothing better
to do supports a neighbour's attack. Retreats go to the best place open; builds go to the best free
places, removals take the least useful units.

>>> import random
>>> from adjutant.game import Game
>>> from adjutant.adjudication.orders import format_order
>>> g = Game.new("standard")
>>> orders = movement_orders(g, "italy", random.Random(1))
>>> sorted(format_order(o) for o in orders)[0].split()[:2]
['A', 'rom']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from ..adjudication.orders import POWER_ORDERS, Build, Disband, Hold, Move, Order, Retreat, Support, Unit, Waive
from ..adjudication.phases import adjustments_due, build_places
from ..game import Game
from ..legal import Candidates, possible_orders
from ..map.kinds import unit_type_of
from ..map.variant import province_of
from . import carry
from .values import Values

#: a second-best place is taken now and then when it is worth at least this share of the best's value
NEAR_EQUAL = 0.05
#: and then with this chance
ALTERNATIVE = 0.3


def pick(scored: Sequence[tuple[float, str]], rng: random.Random) -> int:
    """The index in ``scored`` (best first) to take: the best, or now and then a near-equal next one."""
    if not scored:
        return -1
    best = scored[0][0]
    margin = abs(best) * NEAR_EQUAL
    i = 0
    while i + 1 < len(scored) and best - scored[i + 1][0] <= margin and rng.random() < ALTERNATIVE:
        i += 1
    return i


def ranked(options: Sequence[str], value: Mapping[str, float], rng: random.Random) -> list[tuple[float, str]]:
    """``options`` with their values, best first (ties in a random order, drawn from ``rng``)."""
    scored = [(value.get(o, -1e18), rng.random(), o) for o in options]
    scored.sort(reverse=True)
    return [(s, o) for s, _, o in scored]


def own_units(game: Game, power: str) -> dict[str, Unit]:
    """The units ``power`` orders in a movement phase, by province (in Cluster, the hosts its transferees
    command too, as its units)."""
    orderable, _ = game.rules.orderable(game.position.variant_state, power, "movement", game.units, {})
    return {p: u for p, u in orderable.items() if u.power == power}


def movement_orders(
    game: Game, power: str, rng: random.Random, values: Values | None = None, noise: float = 0.0
) -> list[Order]:
    """``power``'s orders for its units in a movement phase (``noise``: a random share of a place's value
    added, for the search's variations)."""
    mine = own_units(game, power)
    if not mine:
        return []
    values = values or Values(game, power, "movement")
    season = game.phase.season
    c = Candidates(game.variant, game.units, season)
    options: dict[str, list[tuple[float, str]]] = {}
    keep = _must_stay(game, power, mine) if season == "fall" else set()
    for prov, u in sorted(mine.items()):
        if prov in keep:
            options[prov] = [(float("inf"), u.location)]
            continue
        table = values.value[u.type]
        adjacent = [d for d in c.move_targets(prov) if game.variant.can_move(u.type, u.location, d)]
        places = [u.location, *adjacent]
        if noise:
            jitter = {d: table.get(d, -1e18) * (1 + noise * (rng.random() - 0.5)) for d in places}
            options[prov] = ranked(places, jitter, rng)
        else:
            options[prov] = ranked(places, table, rng)
    dest: dict[str, str] = {}  # unit's province -> its chosen location (its own: it stays)
    taken: dict[str, str] = {}  # province -> the province of our unit going there (or staying)
    helping: dict[str, str] = {}  # unit's province -> the province of our unit it supports
    units = game.units
    order = sorted(mine)
    rng.shuffle(order)
    waiting = list(order)
    deferred: set[str] = set()
    while waiting:
        prov = waiting.pop(0)
        scored = options[prov]
        choice = scored[pick(scored, rng)][1]
        target = province_of(choice)
        other = taken.get(target)
        if other is not None and other != prov:
            # one of ours goes (or stays) where this one would go: it supports it there if a fight is
            # likely (DumbBot's rule), else it goes to the best place still free
            enemy = target in units and units[target].power != power
            reach = values.graph.reach[mine[prov].type].get(mine[prov].location, frozenset())
            if (enemy or values.competition.get(target, 0) > 0) and target in reach:
                helping[prov] = other
                dest[prov] = mine[prov].location
                taken.setdefault(prov, prov)
                continue
            free = [x for x in scored if province_of(x[1]) not in taken]
            if not free:  # every place is ours already: stay (a support may be found below)
                dest[prov] = mine[prov].location
                taken.setdefault(prov, prov)
                continue
            choice = free[pick(free, rng)][1]
            target = province_of(choice)
        if target != prov and target in mine and target not in dest and prov not in deferred:
            # another of ours stands there and has not chosen yet: let it choose first
            deferred.add(prov)
            waiting.append(prov)
            continue
        dest[prov] = choice
        taken[target] = prov
    # a supporter may be carried or carry instead (worth what it wanted, the place it supports); a unit
    # supported may not (its supporters' orders are for what it does)
    supported = set(helping.values())
    choices = carry.Choices(game, mine, values, dest, taken, helping)
    convoyed = carry.convoys(choices, supported | keep, rng, noise)
    carrying = {p for a, _, fleets in convoyed for p in (a, *fleets)}
    # a unit supported where it stays may protect (a protecting army holds, and may be supported to hold)
    held = {p for p in supported if province_of(dest[p]) == p}
    running = carry.runs(choices, supported | carrying, keep | held)
    return _coordinate(game, power, mine, dest, helping, values, convoyed + running)


def _must_stay(game: Game, power: str, mine: Mapping[str, Unit]) -> set[str]:
    """In the fall, the units that stay where they are: on a supply centre not yet ours (staying takes it).
    (A unit on one of ours that another power could enter is not held there: its defence is in the values,
    and holding every such unit made the player too passive to take its neighbours' centres, see
    docs/bots.md.)"""
    centres = game.position.centres
    return {prov for prov in mine if prov in game.variant.centre_set and centres.get(prov) != power}


def _coordinate(
    game: Game,
    power: str,
    mine: Mapping[str, Unit],
    dest: dict[str, str],
    helping: Mapping[str, str],
    values: Values,
    carried: list[carry.Carried],
) -> list[Order]:
    """Orders from each unit's chosen place (and the unit it chose to support, the moves it carries or is
    carried in), made to work together."""
    staying = {p for p, d in dest.items() if province_of(d) == p}
    moving = {p: province_of(d) for p, d in dest.items() if province_of(d) != p}
    # a move into a province where ours stays, or a swap with one of ours, would bounce: stay instead
    changed = True
    while changed:
        changed = False
        for p, to in sorted(moving.items()):
            if to in staying or moving.get(to) == p:
                del moving[p]
                staying.add(p)
                dest[p] = mine[p].location
                changed = True
                break
    orders: dict[str, Order] = {}
    for p in moving:
        orders[p] = Move(mine[p], dest[p])
    # a carried move still made: its carriers' orders (a convoyed army's move goes via convoy)
    for p, to, by in carried:
        if moving.get(p) == province_of(to):
            orders.update(carry.orders_of(mine, [(p, to, by)], mine[p].type == "A"))
    units = game.units
    v = game.variant
    for p in sorted(staying):
        u = mine[p]
        if p in orders:
            continue  # it convoys or protects
        orders[p] = Hold(u)
        reach = values.graph.reach[u.type].get(u.location, frozenset())  # (a support is given next to the unit)
        helped = helping.get(p)
        if helped is not None:
            to = moving.get(helped, helped)
            if to in reach:
                orders[p] = Support(u, helped, to) if helped in moving else Support(u, helped)
                continue
        threatened = values.competition.get(p, 0) > 0
        if threatened and p in v.centre_set:
            continue  # it holds its centre
        # support one of our attacks it can reach, the one most contested first
        best: tuple[float, Order] | None = None
        for q, to in moving.items():
            if to in reach and to != p:
                need = values.competition.get(to, 0) + (1 if to in units and units[to].power != power else 0)
                score = need * 1e6 + values.of(mine[q].type, dest[q])
                if need > 0 and (best is None or score > best[0]):
                    best = (score, Support(u, q, to))
        if best is None:
            # else support a neighbour of ours that stays where it is threatened
            for q in sorted(staying):
                if q != p and q in reach and values.competition.get(q, 0) > 0:
                    best = (0.0, Support(u, q))
                    break
        if best is not None:
            orders[p] = best[1]
    return taken(game, (o for _, o in sorted(orders.items())))


def checked(game: Game, order: Order) -> Order | None:
    """``order`` if the rules take it as legal now; else, in a movement phase, the unit's hold if it is a
    unit's order; else None (a bot's orders are always legal: they are made from a player's view, which may
    know less than the game, and checked against the game itself)."""
    if game.check_order(order).verdict == "legal":
        return order
    if game.phase.kind == "movement" and not isinstance(order, POWER_ORDERS):
        return Hold(order.unit)
    return None


def taken(game: Game, orders: Iterable[Order]) -> list[Order]:
    """The orders as the game takes them (:func:`checked`), in their order."""
    return [c for c in (checked(game, o) for o in orders) if c is not None]


def retreat_orders(game: Game, power: str, rng: random.Random) -> list[Order]:
    """Each of ``power``'s dislodged units to the best place it may retreat to, or disbanded."""
    out: list[Order] = []
    dislodged = [d for d in game.position.dislodged if d.unit.power == power]
    if not dislodged:
        return out
    values = Values(game, power, "movement")
    used: set[str] = set()
    for d in sorted(dislodged, key=lambda d: d.unit.province):
        choices = [
            o
            for o in possible_orders(game, d.unit.province)
            if isinstance(o, Retreat) and province_of(o.dest) not in used
        ]
        if not choices:
            out.append(Disband(d.unit))
            continue
        scored = ranked([o.dest for o in choices], values.value[d.unit.type], rng)
        to = scored[pick(scored, rng)][1]
        used.add(province_of(to))
        out.append(next(o for o in choices if o.dest == to))
    return out


def adjustment_orders(game: Game, power: str, rng: random.Random) -> list[Order]:
    """``power``'s builds on its best free places, or its removals of its least useful units."""
    due = adjustments_due(game.variant, game.units, game.position.centres).get(power)
    if due is None or due.delta == 0:
        return []
    out: list[Order] = []
    if due.delta > 0:
        values = Values(game, power, "build")
        places = build_places(game.variant, power, game.units, game.position.centres)
        used: set[str] = set()
        for _ in range(due.delta):
            free = [b for b in places if province_of(b.split()[1]) not in used]
            if not free:
                out.append(Waive(power))
                continue
            scored = sorted(
                ((values.of(unit_type_of(b.split()[0]), b.split()[1]), rng.random(), b) for b in free), reverse=True
            )
            top = [(s, b) for s, _, b in scored]
            t, loc = top[pick(top, rng)][1].split()
            used.add(province_of(loc))
            out.append(Build(power, unit_type_of(t), loc))
        return out
    values = Values(game, power, "remove")
    mine = [u for u in game.units.values() if u.power == power]
    worst = sorted(mine, key=lambda u: (values.of(u.type, u.location), rng.random()))
    return [Disband(u) for u in worst[: -due.delta]]
