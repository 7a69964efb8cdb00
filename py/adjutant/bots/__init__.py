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
    Thinker.for_seats(game, powers=None, budget_ms=None)
        a Thinker for the game's computer seats (each its own level and seed), whose orders are
        computer_orders' (below).
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
from collections.abc import Generator, Sequence

from ..adjudication.orders import Order, order_power
from ..errors import BotError
from ..game import Game
from ..randomgame import random_orders
from ..seats import DEFAULT_LEVEL, LEVELS, Seat, phase_seed
from ..steps import run_to_end
from . import cluster, heuristic
from .search import Search
from .values import Values, warming

#: the largest seed :func:`bot_orders` takes (a seat's phase seeds are below it: :func:`phase_seed`)
ORDERS_SEED_MAX = 2**64 - 1

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
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= ORDERS_SEED_MAX:
        raise BotError(f"{str(seed)[:40]!r} is not a seed for a computer player's orders (a whole number from 0)")
    if game.over:
        raise BotError("the game is over: no more orders")
    if game.rules.view_of(game.position.variant_state) is not None:
        raise BotError("this is a view of the game: only the game master's game has orders to make")


#: a computer player's work, in steps: it yields how much of it is done (0 to 1) between them, and returns
#: the orders
Job = Generator[float, None, list[Order]]


def _job(game: Game, power: str, level: str, seed: int, budget_ms: float | None) -> Job:
    """``power``'s orders for the current phase (the arguments checked), worked out in steps (it yields
    between them, each a few milliseconds): :func:`bot_orders` runs it through, a :class:`Thinker` a slice
    at a time. ``budget_ms`` counts the time spent in the steps only."""
    rng = random.Random(seed)
    kind = game.phase.kind
    if level == "random":
        return random_orders(game, rng, powers=[power])
    for _ in warming(game.variant):
        yield 0.0
    seen = cluster.view_for(game, power) if cluster.is_secret(game) else game
    yield 0.0  # (each part of a power's orders a step of its own: none holds a page's slice long)
    if kind == "retreat":
        return heuristic.taken(game, heuristic.retreat_orders(seen, power, rng))
    if kind == "adjustment":
        return heuristic.taken(game, heuristic.adjustment_orders(seen, power, rng))
    values = Values(seen, power, "movement")
    if level == "search":
        yield 0.0
        # (in Cluster, with the units' strengths its power knows; the others counted as one)
        search = Search(seen, power, rng, values, strengths=cluster.known_strengths(seen))
        spent = 0.0
        while True:
            started = time.perf_counter()
            finished = search.advance()
            spent += time.perf_counter() - started
            if finished or (budget_ms is not None and spent * 1000 >= budget_ms):
                break
            yield search.used / search.iterations
        orders = search.best()
    else:
        yield 0.2
        orders = heuristic.movement_orders(seen, power, rng, values)
        yield 0.6
    best = max((values.of(u.type, u.location) for u in seen.units.values()), default=0.0)

    def worth(prov: str) -> float:
        u = seen.units.get(prov)
        return values.of(u.type, u.location) if u is not None else best

    nominations = cluster.nominations(seen, power, worth, rng)
    orders = cluster.own_orders(seen, power, orders, values)
    yield 0.8
    return heuristic.taken(game, [*orders, *nominations])


def bot_orders(
    game: Game, power: str, level: str = DEFAULT_LEVEL, seed: int = 0, budget_ms: float | None = None
) -> list[Order]:
    """The orders for ``power`` in the current phase, always legal and the same for the same game, power,
    level and seed (see the module's docstring)."""
    _check(game, [power], level, seed)
    orders = run_to_end(_job(game, power, level, seed, budget_ms))
    return [o for o in orders if order_power(o) == power]


def computer_orders(game: Game) -> dict[str, list[Order]]:
    """The orders of every computer seat of ``game`` for the current phase (a seat with nothing to order
    is left out), each drawn from its seat's seed and the phase."""
    thinker = Thinker.for_seats(game)
    thinker.step(float("inf"))
    return {power: orders for power, orders in thinker.orders().items() if orders}


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
    whether all are done; :meth:`orders` has them once done. Each power's orders are those
    :func:`bot_orders` gives with the same arguments: the work is the same, cut into slices (the search's
    budget, if any, counts the time in its slices)."""

    def __init__(
        self,
        game: Game,
        powers: Sequence[str],
        level: str = DEFAULT_LEVEL,
        seed: int = 0,
        budget_ms: float | None = None,
    ) -> None:
        _check(game, powers, level, seed)
        self.game, self.powers, self.budget_ms = game, list(dict.fromkeys(powers)), budget_ms
        #: each power's level and seed
        self.plan = {power: (level, seed) for power in self.powers}
        self._done: dict[str, list[Order]] = {}
        self._job: Job | None = None
        self._part = 0.0  # how much of the current power's work is done

    @classmethod
    def for_seats(cls, game: Game, powers: Sequence[str] | None = None, budget_ms: float | None = None) -> Thinker:
        """A Thinker for the computer seats of ``game`` (``powers``: only those of them), each at its seat's
        level with its seed for the phase: once finished, its orders are :func:`computer_orders`'s."""
        seats = {p: s for p, s in sorted(game.computer.items()) if powers is None or p in powers}
        thinker = cls(game, list(seats), DEFAULT_LEVEL, 0, budget_ms)
        thinker.plan = {p: (s.level, phase_seed(s, str(game.phase), p)) for p, s in seats.items()}
        return thinker

    def step(self, ms: float = 25.0) -> bool:
        """Work for about ``ms`` (at least one step; no further step once the longest made so far would
        end past ``ms``); True once every power's orders are made."""
        start = time.perf_counter()
        longest = 0.0
        while len(self._done) < len(self.powers):
            began = time.perf_counter()
            power = self.powers[len(self._done)]
            if self._job is None:
                level, seed = self.plan[power]
                self._job = _job(self.game, power, level, seed, self.budget_ms)
            try:
                self._part = next(self._job)
            except StopIteration as done:
                self._done[power] = [o for o in done.value if order_power(o) == power]
                self._job, self._part = None, 0.0
            now = time.perf_counter()
            longest = max(longest, now - began)
            if (now - start + longest) * 1000 >= ms:
                break
        return self.finished

    @property
    def progress(self) -> float:
        """How much is done, from 0.0 to 1.0 (by powers, and within a search by its adjudications)."""
        if not self.powers:
            return 1.0
        return min(1.0, (len(self._done) + self._part) / len(self.powers))

    @property
    def finished(self) -> bool:
        return len(self._done) >= len(self.powers)

    def orders(self) -> dict[str, list[Order]]:
        """The orders made so far, by power: every power's, complete and legal, once finished."""
        return dict(self._done)
