"""The search computer player: the heuristic's orders improved by adjudicating them.

1. The other powers' likely orders: a few samples of the heuristic player's orders for each power with a
   unit near ours (the first sample as it would play, the others with noise in its values); the powers
   further off hold.
2. Candidate order sets for our units: the heuristic's own and a few noisy variations of it. Each is
   adjudicated against every sample by the engine's resolver, and scored: supply centres held and taken
   (as the fall would count them), units dislodged, then the value of the places our units end in. The
   best on average is kept.
3. Then, unit by unit, each of its sensible orders (hold, the best moves, supports of our own units) is
   tried in place of its order in the best set; a change that raises the average score is kept.

The work is counted in adjudications: ``iterations`` of them decide the answer, so it is the same for the
same seed, whatever the machine; a deadline (a time budget) stops it earlier. :class:`Search` does the
work in steps, for :class:`~adjutant.bots.Thinker`.

>>> import random
>>> from adjutant.game import Game
>>> from adjutant.bots.values import Values
>>> g = Game.new("standard")
>>> s = Search(g, "austria", random.Random(1), Values(g, "austria", "movement"), iterations=40)
>>> while not s.advance():
...     pass
>>> len(s.best()), s.done
(3, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator, Iterator, Mapping

from ..adjudication.orders import Hold, Move, Order, Support, Unit, UnitOrder
from ..adjudication.resolver import Checked, checked_order, movement_resolver
from ..game import Game
from ..map.variant import province_of
from . import carry, heuristic
from .values import Values

#: adjudications a search makes at most, by default
ITERATIONS = 300
#: samples of the other powers' orders
SAMPLES = 6
#: noisy variations of the heuristic's own orders tried first
VARIATIONS = 6
#: the noise in the values behind a variation or a sample (a share of a place's value)
NOISE = 0.4
#: how far (in moves) a power's unit may stand from ours and still be thought to reply
NEAR = 2
#: the score of an outcome: per supply centre held or taken (fall, spring), per unit dislodged, and of the
#: places our units stand in (their values, over the best place's)
CENTRE = {"fall": 10.0, "spring": 4.0}
DISLODGED = {"fall": 4.0, "spring": 6.0}
PLACE = 2.0


class Search:
    """One power's search in one movement phase; :meth:`advance` does one step (at most one sample made
    or one adjudication), :meth:`best` is the best order set found so far."""

    def __init__(
        self,
        game: Game,
        power: str,
        rng: random.Random,
        values: Values,
        iterations: int = ITERATIONS,
        strengths: Mapping[str, int] | None = None,
    ) -> None:
        self.game, self.power, self.rng, self.values = game, power, rng, values
        self.iterations = iterations
        self.strengths = strengths
        self.mine = heuristic.own_units(game, power)
        self.used = 0
        self.done = not self.mine
        self._best: dict[str, UnitOrder] = {}
        self._rows: dict[UnitOrder, Checked] = {}
        #: each sample's rows for every unit on the board (by the sample's id), ours replaced per candidate
        self._sample_rows: dict[int, dict[str, Checked]] = {}
        self._samples: list[dict[str, UnitOrder]] = []
        #: the best place's value, for the part of the score the places make
        self._top = max((abs(x) for table in values.value.values() for x in table.values()), default=1.0) or 1.0
        self._work: Iterator[None] = self._plan()

    # --- the work -------------------------------------------------------------------------------------
    def advance(self) -> bool:
        """One step of the work; True once the search has finished."""
        if not self.done:
            try:
                next(self._work)
            except StopIteration:
                self.done = True
        return self.done

    def run(self, deadline: float | None = None) -> list[Order]:
        """Search to the end (or to ``deadline``, a :func:`time.perf_counter` time); the best orders."""
        while not self.advance():
            if deadline is not None and time.perf_counter() >= deadline and self._best:
                break
        return self.best()

    def best(self) -> list[Order]:
        """The best order set found so far (the heuristic's, before any is scored)."""
        if not self._best:
            self._best = self._as_set(heuristic.movement_orders(self.game, self.power, random.Random(0), self.values))
        return heuristic.taken(self.game, (o for _, o in sorted(self._best.items())))

    def _plan(self) -> Iterator[None]:
        game, power, rng = self.game, self.power, self.rng
        base = self._as_set(heuristic.movement_orders(game, power, rng, self.values))
        self._best = base
        yield
        samples: list[dict[str, UnitOrder]] = []
        near = self._near_powers()
        others: dict[str, Values] = {}
        for other in near:
            others[other] = Values(game, other, "movement")
            yield
        for k in range(SAMPLES):
            sample: dict[str, UnitOrder] = {}
            for other in near:
                orders = heuristic.movement_orders(game, other, rng, others[other], noise=NOISE if k else 0.0)
                sample.update(self._as_set(orders))
                yield
            samples.append(sample)
        self._samples = samples
        # the heuristic's set and its variations
        tried = {self._key(base)}
        best_score = yield from self._score(base)
        for _ in range(VARIATIONS):
            if self.used >= self.iterations:
                return
            cand = self._as_set(heuristic.movement_orders(game, power, rng, self.values, noise=NOISE))
            if self._key(cand) in tried:
                continue
            tried.add(self._key(cand))
            score = yield from self._score(cand)
            if score > best_score:
                self._best, best_score = cand, score
        # then unit by unit
        while self.used < self.iterations:
            improved = False
            provs = sorted(self.mine)
            rng.shuffle(provs)
            for prov in provs:
                for alt in self._alternatives(prov):
                    if self.used >= self.iterations:
                        return
                    changed = self._with(prov, alt)
                    if changed is None or self._key(changed) in tried:
                        continue
                    tried.add(self._key(changed))
                    score = yield from self._score(changed)
                    if score > best_score:
                        self._best, best_score, improved = changed, score, True
            if not improved:
                return

    def _score(self, cand: dict[str, UnitOrder]) -> Generator[None, None, float]:
        """The mean score of ``cand`` against the samples (one step per adjudication)."""
        total = 0.0
        for sample in self._samples:
            total += self._outcome(cand, sample)
            self.used += 1
            yield
        return total / len(self._samples)

    # --- the pieces -----------------------------------------------------------------------------------
    def _near_powers(self) -> list[str]:
        """The powers with a unit within :data:`NEAR` moves of one of ours."""
        reach = self.values.graph.around
        close = {u.province for u in self.mine.values()}
        frontier = {u.location for u in self.mine.values()}
        for _ in range(NEAR):
            nxt = {p for loc in frontier for p in reach.get(loc, ())} - close
            close |= nxt
            frontier = {loc for p in nxt for loc in self.game.variant.locations(p)}
        return sorted({u.power for p, u in self.game.units.items() if p in close and u.power != self.power})

    def _as_set(self, orders: list[Order]) -> dict[str, UnitOrder]:
        return {o.unit.province: o for o in orders if hasattr(o, "unit")}  # type: ignore[misc]

    @staticmethod
    def _key(cand: Mapping[str, UnitOrder]) -> frozenset[UnitOrder]:
        return frozenset(cand.values())

    def _row(self, order: UnitOrder) -> Checked:
        found = self._rows.get(order)
        if found is None:
            found = self._rows[order] = checked_order(self.game.variant, order, self.game.phase.season, self.game.units)
        return found

    def _with(self, prov: str, alt: UnitOrder) -> dict[str, UnitOrder] | None:
        """The best set with the unit in ``prov`` given ``alt``: a support of ours for what it did before
        becomes a hold. None if ``alt`` would stay where another of ours is moving to."""
        went = province_of(alt.dest) if isinstance(alt, Move) else None
        if went is None and any(
            isinstance(o, Move) and province_of(o.dest) == prov for q, o in self._best.items() if q != prov
        ):
            return None
        cand = {**self._best, prov: alt}
        # a carried move and its carriers go together: the others of its group hold
        group = carry.groups(self._best).get(prov, set())
        for q in group:
            cand[q] = Hold(self._best[q].unit)
        changed = {prov, *group}
        for q, o in self._best.items():
            if isinstance(o, Support) and o.target in changed and (o.target != prov or o.dest != went):
                cand[q] = Hold(o.unit)
        return cand

    def _alternatives(self, prov: str) -> list[UnitOrder]:
        """The sensible orders of our unit in ``prov``: hold, its best moves, supports of our units next to it
        (to hold, or in the moves they are given in the best set)."""
        u = self.mine[prov]
        values = self.values
        game = self.game
        moves = [d for d in game.variant.neighbours(u.type, u.location) if province_of(d) != prov]
        moves = [d for d in moves if game.variant.provinces[province_of(d)].open_in(game.phase.season)]
        moves.sort(key=lambda d: -values.of(u.type, d))
        # never where another of ours goes or stays, nor into the place of one coming here
        going = {q: province_of(o.dest) for q, o in self._best.items() if isinstance(o, Move) and q != prov}
        staying = {q for q in self._best if q not in going and q != prov}
        moves = [d for d in moves if province_of(d) not in staying and province_of(d) not in going.values()]
        moves = [d for d in moves if going.get(province_of(d)) != prov]
        out: list[UnitOrder] = [Hold(u), *(Move(u, d) for d in moves[:4])]
        reach = {province_of(d) for d in game.variant.neighbours(u.type, u.location)}
        for q, o in sorted(self._best.items()):
            if q == prov:
                continue
            if isinstance(o, Move) and province_of(o.dest) in reach:
                out.append(Support(u, q, province_of(o.dest)))
            elif not isinstance(o, Move) and q in reach:
                out.append(Support(u, q))
        return [o for o in out if o != self._best.get(prov) and not self._row(o).illegal]

    def _outcome(self, cand: Mapping[str, UnitOrder], sample: Mapping[str, UnitOrder]) -> float:
        """The score of our orders ``cand`` against the others' ``sample`` (the units of neither hold)."""
        game = self.game
        base = self._sample_rows.get(id(sample))
        if base is None:
            base = {prov: self._row(sample.get(prov) or Hold(u)) for prov, u in game.units.items()}
            self._sample_rows[id(sample)] = base
        checks = dict(base)
        for prov, o in cand.items():
            checks[prov] = self._row(o)
        resolver = movement_resolver(
            game.variant, game.units, (), game.phase.season, strengths=self.strengths, checks=checks
        )
        resolver.decide()
        after, dislodged, _, _, _, _ = resolver.tally()
        return self._value(after, [d.unit for d in dislodged])

    def _value(self, after: Mapping[str, Unit], dislodged: list[Unit]) -> float:
        power, game, values = self.power, self.game, self.values
        season = game.phase.season
        centres = game.position.centres
        held = 0
        for c in game.variant.centres:
            u = after.get(c)
            owner = u.power if u is not None else centres.get(c)
            held += owner == power
        lost = sum(1 for u in dislodged if u.power == power)
        place = sum(values.of(u.type, u.location) for u in after.values() if u.power == power) / self._top
        key = "fall" if season == "fall" else "spring"
        return CENTRE[key] * held - DISLODGED[key] * lost + PLACE * place


def search_orders(
    game: Game,
    power: str,
    rng: random.Random,
    values: Values,
    deadline: float | None = None,
    strengths: Mapping[str, int] | None = None,
) -> list[Order]:
    """``power``'s movement orders chosen by :class:`Search` (to its end, or to ``deadline``)."""
    return Search(game, power, rng, values, strengths=strengths).run(deadline)
