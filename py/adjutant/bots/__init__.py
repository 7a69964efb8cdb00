"""Computer players, for every variant: the orders of a power for the current phase, always legal.

Levels (:data:`LEVELS`, weakest first; the default is ``"heuristic"``):

- ``"random"``: a random legal order for each unit (:func:`adjutant.randomgame.random_orders`).
- ``"heuristic"``: a province-value player in the manner of David Norman's DumbBot (:mod:`.values`,
  :mod:`.heuristic`).
- ``"search"``: the heuristic's orders and variations of them, each adjudicated against the other powers'
  likely orders, the one with the best expected outcome taken (:mod:`.search`).

The API::

    bot_orders(game, power, level="heuristic", seed=0, budget_ms=None) -> list[Order]
        the orders for ``power`` in the current phase (movement, retreat, adjustment, Cluster's
        nominations), always legal; the same for the same game, power, level and seed (a budget in
        milliseconds makes the search stop early, so a search with a budget depends on the clock: give
        ``budget_ms=None`` and the search's own iteration count decides); [] for a power with nothing to
        order. Raises BotError (an AdjutantError) for an unknown power or level, or a finished game.
    Thinker(game, powers, level="heuristic", seed=0, budget_ms=None)
        the same for several powers, in slices (for a page whose main thread must never block):
        ``step(ms)`` works about ``ms`` and says whether it has finished; ``progress`` (0 to 1);
        ``orders()``, per power, complete once finished.
    computer_orders(game) -> dict[str, list[Order]]
        the orders of every computer seat of the game (``game.computer``), each from its seat's seed and
        the phase (:func:`adjutant.seats.phase_seed`), so that replaying a game gives the same orders.
    play_computer(game) -> dict[str, list[Order]]
        computer_orders, given to the game.

A Cluster bot plays from what a player of its power sees (:mod:`.cluster`).

>>> from adjutant.game import Game
>>> g = Game.new("standard")
>>> orders = bot_orders(g, "france", seed=1)
>>> len(orders), all(g.check_order(o).verdict == "legal" for o in orders)
(3, True)
>>> orders == bot_orders(g, "france", seed=1)
True
>>> g.set_computer("france", "heuristic", 5)
>>> sorted(play_computer(g))
['france']
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..errors import BotError
from ..game import Game
from ..orders import Hold, Nominate, Order, order_power
from ..randomgame import random_orders
from ..seats import DEFAULT_LEVEL, LEVELS, MAX_SEED, Seat, phase_seed
from . import cluster, heuristic
from .values import Values

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "BotError",
    "Seat",
    "Thinker",
    "bot_orders",
    "computer_orders",
    "play_computer",
]


def _check(game: Game, powers: Sequence[str], level: str, seed: int) -> None:
    if level not in LEVELS:
        raise BotError(f"{str(level)[:40]!r} is not a computer player's level (the levels are {', '.join(LEVELS)})")
    for power in powers:
        if power not in game.variant.powers:
            raise BotError(f"{str(power)[:40]!r} is not a power of {game.variant.name}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= 2**64:
        raise BotError(f"{str(seed)[:40]!r} is not a computer player's seed (a whole number from 0 to {MAX_SEED})")
    if game.over:
        raise BotError("the game is over: no more orders")
    if game.rules.view_of(game.position.variant_state) is not None:
        raise BotError("this is a view of the game: only the game master's game has orders to make")


def _orders_now(game: Game, power: str, level: str, rng: random.Random, deadline: float | None) -> list[Order]:
    """``power``'s orders for the current phase (the arguments checked)."""
    kind = game.phase.kind
    if level == "random":
        return random_orders(game, rng, powers=[power])
    seen = cluster.view_for(game, power) if cluster.is_secret(game) else game
    if kind == "retreat":
        return heuristic.retreat_orders(seen, power, rng)
    if kind == "adjustment":
        return heuristic.adjustment_orders(seen, power, rng)
    values = Values(seen, power, "movement")
    if level == "search":
        from .search import search_orders

        orders = search_orders(seen, power, rng, values, deadline)
    else:
        orders = heuristic.movement_orders(seen, power, rng, values)
    best = max((values.of(u.type, u.location) for u in seen.units.values()), default=0.0)

    def worth(prov: str) -> float:
        u = seen.units.get(prov)
        return values.of(u.type, u.location) if u is not None else best

    nominations = cluster.nominations(seen, power, worth, rng)
    return [*orders, *nominations]


def _legal(game: Game, orders: list[Order]) -> list[Order]:
    """The orders as the game takes them: a unit's order the rules would not take as legal becomes its hold
    (a bot's orders are made from a player's view, and checked against the game itself)."""
    out: list[Order] = []
    for o in orders:
        if game.check_order(o).verdict == "legal":
            out.append(o)
        elif not isinstance(o, Nominate) and hasattr(o, "unit") and game.phase.kind == "movement":
            out.append(Hold(o.unit))
    return out


def bot_orders(
    game: Game, power: str, level: str = DEFAULT_LEVEL, seed: int = 0, budget_ms: float | None = None
) -> list[Order]:
    """The orders for ``power`` in the current phase, always legal and the same for the same game, power,
    level and seed (see the module's docstring)."""
    _check(game, [power], level, seed)
    rng = random.Random(seed)
    deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000
    orders = _orders_now(game, power, level, rng, deadline)
    return [o for o in _legal(game, orders) if order_power(o) == power]


def computer_orders(game: Game) -> dict[str, list[Order]]:
    """The orders of every computer seat of ``game`` for the current phase (a seat with nothing to order
    is left out), each drawn from its seat's seed and the phase."""
    out: dict[str, list[Order]] = {}
    for power, seat in sorted(game.computer.items()):
        orders = bot_orders(game, power, seat.level, phase_seed(seat, str(game.phase), power))
        if orders:
            out[power] = orders
    return out


def play_computer(game: Game) -> dict[str, list[Order]]:
    """:func:`computer_orders`, given to the game (replacing those seats' earlier orders); returns them."""
    found = computer_orders(game)
    for power, orders in found.items():
        game.clear_orders(power)
        for o in orders:
            game.add_order(o)
    return found


class Thinker:
    """The orders of several powers, worked out in slices: ``step(ms)`` does about ``ms`` of work and says
    whether all are done; :meth:`orders` has them once done. Each power's orders are those of
    :func:`bot_orders` with the same arguments (the search, given no budget, stops at its iteration count,
    so the slices do not change its answer)."""

    def __init__(
        self,
        game: Game,
        powers: Sequence[str],
        level: str = DEFAULT_LEVEL,
        seed: int = 0,
        budget_ms: float | None = None,
    ) -> None:
        _check(game, powers, level, seed)
        self.game, self.powers, self.level, self.seed, self.budget_ms = game, list(powers), level, seed, budget_ms
        self._done: dict[str, list[Order]] = {}
        self._next = 0

    def step(self, ms: float = 25.0) -> bool:
        """Work for about ``ms`` (at least one power's orders); True once every power's orders are made."""
        start = time.perf_counter()
        while self._next < len(self.powers):
            power = self.powers[self._next]
            self._done[power] = bot_orders(self.game, power, self.level, self.seed, self.budget_ms)
            self._next += 1
            if (time.perf_counter() - start) * 1000 >= ms:
                break
        return self._next >= len(self.powers)

    @property
    def progress(self) -> float:
        """How much is done, from 0.0 to 1.0."""
        return self._next / len(self.powers) if self.powers else 1.0

    @property
    def finished(self) -> bool:
        return self._next >= len(self.powers)

    def orders(self) -> dict[str, list[Order]]:
        """The orders made so far, by power: every power's, complete and legal, once finished."""
        return dict(self._done)
