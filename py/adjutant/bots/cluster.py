"""The computer player's part of Cluster Diplomacy: it plays from the view a player of its power has
(:mod:`adjutant.group_play.cluster_views`: the public game and the power's own secrets, never the sites it has not
found nor the other powers' strengths), and it makes the power's nominations of its multiple units.

>>> from adjutant.group_play.cluster_views import new_game
>>> g = new_game(seed=3)
>>> view = view_for(g, "france")
>>> view.position.variant_state.view, len(view.units) == len(g.units)
('france', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..adjudication.orders import Hold, Move, Order
from ..game import Game
from ..group_play.cluster_views import join_parts, pending_nominations, public_data, secret_parts
from ..legal import Candidates
from ..map.variant import province_of
from ..variants.cluster import GM, cluster_state, nomination_problem, nominations_due
from ..variants.cluster_orders import Mattermit, Nominate, Research
from .values import Values


def is_secret(game: Game) -> bool:
    """Whether ``game`` is a Cluster game master's game (with secrets a player's view leaves out)."""
    state = cluster_state(game.position.variant_state)
    return state is not None and state.view == GM


def view_for(game: Game, power: str) -> Game:
    """What a player of ``power`` sees of ``game``'s current position (a Cluster game master's game): its
    public view with that power's secrets (the history left out: a bot decides from the position)."""
    now = Game(game.variant, game.position)
    return join_parts(public_data(now), [secret_parts(now)[power]])


def known_strengths(game: Game) -> dict[str, int] | None:
    """In a Cluster game or view, the strengths other than one that it knows, by province (in a power's
    view: its own units' and those the game has revealed to it); None in other variants."""
    state = cluster_state(game.position.variant_state)
    return None if state is None else state.strengths()


def nominations(game: Game, power: str, worth: Callable[[str], float], rng: random.Random) -> list[Nominate]:
    """``power``'s nominations due now: the strongest level to the unit at the most valuable place
    (``worth`` of its province), and so on; a level with no unit to take it is left to a later build."""
    state = cluster_state(game.position.variant_state)
    if state is None or game.phase.kind != "movement":
        return []
    due = nominations_due(game.variant, state, pending_nominations(game)).get(power, [])
    if not due:
        return []
    if state.started:
        places = list(state.fresh.get(power, ()))
    else:
        places = [p for p, u in game.units.items() if u.power == power]
    order = sorted(places, key=lambda p: (-worth(p), rng.random()))
    chosen: list[Nominate] = []
    for level in sorted(due, reverse=True):
        pick = None
        for p in order:
            n = Nominate(power, level, game.units[p].location)
            if not nomination_problem(game.variant, state, game.units, n, chosen):
                pick = n
                order.remove(p)
                break
        if pick is None:
            pick = Nominate(power, level)
            if nomination_problem(game.variant, state, game.units, pick, chosen):
                continue
        chosen.append(pick)
    return chosen


def own_orders(game: Game, power: str, orders: list[Order], values: Values) -> list[Order]:
    """Cluster's own orders in place of some of ``power``'s (in a power's view ``game``): a unit that would
    only hold, with no other power's unit next to it, researches a place no one has researched (to learn
    Transfer or Mattermission from a site); a unit on a site it may mattermit from goes to the most
    valuable place it can reach that way, if that is worth more than any place next to it and none of ours
    goes there. Transfer is left to players (its worth depends on strengths a power cannot see)."""
    state = cluster_state(game.position.variant_state)
    if state is None:
        return orders
    searched = {prov for _, prov, _ in state.research} | set(state.found.get(power, {}))
    going = {province_of(o.dest) for o in orders if isinstance(o, Move)}
    going |= {o.unit.province for o in orders if not isinstance(o, (Move, Nominate))}  # type: ignore[union-attr]
    c = Candidates(game.variant, game.units, game.phase.season, state)
    out: list[Order] = []
    for o in orders:
        if isinstance(o, Nominate) or not hasattr(o, "unit"):
            out.append(o)
            continue
        u = o.unit
        offered = c.of(u.province)
        jumps = [x for x in offered if isinstance(x, Mattermit) and province_of(x.dest) not in going]
        if jumps:
            best = max(jumps, key=lambda x: values.of(u.type, x.dest))
            near = max((values.of(u.type, d) for d in game.variant.neighbours(u.type, u.location)), default=0.0)
            if values.of(u.type, best.dest) > max(near, values.of(u.type, u.location)):
                going.add(province_of(best.dest))
                out.append(best)
                continue
        quiet = values.competition.get(u.province, 0) == 0
        if isinstance(o, Hold) and quiet and u.province not in searched and Research(u) in offered:
            out.append(Research(u))
            continue
        out.append(o)
    return out
