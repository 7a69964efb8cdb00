"""Province values for the computer players, in the manner of David Norman's DumbBot (from its published
description): each supply centre is worth the size of the power it could be taken from (or, for one of our
own, the size of the strongest neighbour that could take it); that worth is spread over the map by
distance, ten steps; each place's value is a weighted sum of the ten, plus our strength next to it less
the strongest other power's. Values are per place (a province, or a coast for fleets) and per unit type,
on the engine's own graph of the variant, so any map works.

>>> from adjutant.game import Game
>>> g = Game.new("standard")
>>> v = Values(g, "france", "movement")
>>> v.of("A", "bur") > v.of("A", "gas") > v.of("A", "pic") - 1_000_000
True
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from operator import mul

from ..adjudication.orders import Unit
from ..game import Game
from ..map.kinds import UNIT_TYPES, UnitType
from ..map.variant import Variant, province_of

#: a power's size from its centres n: ``A n² + B n + C`` (DumbBot's coefficients)
SIZE = (1, 4, 16)
#: how far the worth of a centre is spread (proximity steps)
STEPS = 10
#: the rows of a table made per step of :meth:`Graph.prepare` and :meth:`Graph.warm` (a millisecond or two
#: in Pyodide: a phone's slice of the page's main thread holds several)
ROWS_PER_STEP = 8
#: weights, by phase kind and season: attack and defence at step 0, then each step's proximity, then
#: strength and competition
WEIGHTS: dict[str, tuple[int, int, tuple[int, ...], int, int]] = {
    "spring": (700, 300, (100, 1000, 30, 10, 6, 5, 4, 3, 2, 1), 1000, 1000),
    "fall": (600, 400, (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1), 1000, 1000),
    "build": (700, 300, (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1), 1000, 1000),
    "remove": (300, 700, (1000, 100, 30, 10, 6, 5, 4, 3, 2, 1), 1000, 1000),
}


class Graph:
    """A variant's places for each unit type and their neighbours there (fixed for the variant), also as
    indices into the places (the values are spread over them as lists, for speed)."""

    def __init__(self, variant: Variant) -> None:
        for _ in self._build(variant):
            pass

    def _build(self, variant: Variant) -> Iterator[None]:
        """Make the graph, yielding after each unit type's places (a page's slice each)."""
        self.places: dict[UnitType, tuple[str, ...]] = {}
        self.near: dict[UnitType, dict[str, tuple[str, ...]]] = {}
        #: by unit type: each place's neighbours' indices, and its province
        self.links: dict[UnitType, tuple[tuple[int, ...], ...]] = {}
        self.province: dict[UnitType, tuple[str, ...]] = {}
        #: by unit type: the provinces a unit at a place could move to (and support into)
        self.reach: dict[UnitType, dict[str, frozenset[str]]] = {}
        around: dict[str, set[str]] = {}
        for t in UNIT_TYPES:
            places = tuple(
                loc for prov in variant.provinces for loc in variant.locations(prov) if variant.can_stand(t, loc)
            )
            self.places[t] = places
            table = {loc: tuple(d for d in variant.neighbours(t, loc) if variant.can_stand(t, d)) for loc in places}
            self.near[t] = table
            index = {loc: i for i, loc in enumerate(places)}
            self.links[t] = tuple(tuple(index[d] for d in table[loc]) for loc in places)
            self.province[t] = tuple(province_of(loc) for loc in places)
            self.reach[t] = {loc: frozenset(province_of(d) for d in ds) for loc, ds in table.items()}
            for loc, ds in table.items():
                around.setdefault(loc, set()).update(province_of(d) for d in ds)
            yield
        #: the provinces next to a place, for either type of unit there (how near powers are)
        self.around = {loc: frozenset(ps) for loc, ps in around.items()}
        #: the supply centres, in the order of the columns of :meth:`spread`
        self.centres = tuple(variant.centres)
        self._steps: dict[UnitType, list[list[list[float]]]] = {}
        self._spread: dict[tuple[UnitType, tuple[int, ...]], list[list[float]]] = {}

    def spread(self, unit_type: UnitType, weights: tuple[int, ...]) -> list[list[float]]:
        """For each place of ``unit_type`` (a row), how much of each centre's worth (a column) reaches it:
        the worth spread step by step (each step a place's worth and its neighbours', over five), the
        steps weighted by ``weights``. The spreading is linear, so this is worked out once per variant and
        a power's values are one product of it with the centres' worths."""
        for _ in self._spreading(unit_type, weights):
            pass
        return self._spread[(unit_type, weights)]

    def _spreading(self, unit_type: UnitType, weights: tuple[int, ...]) -> Iterator[None]:
        """Work out the table of :meth:`spread`, yielding after every few rows (a page's slice)."""
        key = (unit_type, weights)
        if key in self._spread:
            return
        steps = self._step_table(unit_type, len(weights))
        width = len(self.centres)
        found = []
        for i in range(len(self.places[unit_type])):
            row = [0.0] * width
            for w, table in zip(weights, steps, strict=False):
                row = [a + w * b for a, b in zip(row, table[i], strict=True)]
            found.append(row)
            if i % ROWS_PER_STEP == ROWS_PER_STEP - 1:
                yield
        self._spread.setdefault(key, found)  # (another caller may have made it while this one was paused)

    def _step_table(self, unit_type: UnitType, count: int) -> list[list[list[float]]]:
        """The share of each centre's worth at each place after 0, 1, ... ``count - 1`` steps."""
        for _ in self.prepare(unit_type, count):
            pass
        return self._steps[unit_type]

    def prepare(self, unit_type: UnitType, count: int = STEPS) -> Iterator[None]:
        """Work out the tables of :meth:`_step_table` one step at a time (yielding after each): the first
        use of a variant's values costs tens of steps of a few milliseconds, which a page spreads out."""
        steps = self._steps.get(unit_type)
        if steps is None:
            column = {c: k for k, c in enumerate(self.centres)}
            width = len(self.centres)
            first = []
            for p in self.province[unit_type]:
                row = [0.0] * width
                if p in column:
                    row[column[p]] = 1.0
                first.append(row)
            steps = self._steps[unit_type] = [first]
            yield
        links = self.links[unit_type]
        while len(steps) < count:
            done = len(steps)
            last = steps[-1]
            nxt = []
            for i, near in enumerate(links):
                row = list(last[i])
                for j in near:
                    row = [a + b for a, b in zip(row, last[j], strict=True)]
                nxt.append([x / 5 for x in row])
                if i % ROWS_PER_STEP == ROWS_PER_STEP - 1:
                    yield
            if len(steps) == done:  # (else another caller made this step while this one was paused)
                steps.append(nxt)
            yield

    def warm(self) -> Iterator[None]:
        """Work out every table the values of any phase need, a step at a time (see :meth:`prepare`)."""
        for t in UNIT_TYPES:
            yield from self.prepare(t)
            for weights in sorted({w[2] for w in WEIGHTS.values()}):
                yield from self._spreading(t, weights)
                yield


_GRAPHS: weakref.WeakKeyDictionary[Variant, Graph] = weakref.WeakKeyDictionary()


def warming(variant: Variant) -> Iterator[None]:
    """The variant's graph (:func:`graph_of`) made, then every table of its values, a step at a time."""
    graph = _GRAPHS.get(variant)
    if graph is None:
        graph = Graph.__new__(Graph)
        yield from graph._build(variant)
        graph = _GRAPHS.setdefault(variant, graph)
    yield from graph.warm()


def graph_of(variant: Variant) -> Graph:
    found = _GRAPHS.get(variant)
    if found is None:
        found = _GRAPHS[variant] = Graph(variant)
    return found


def size(centres: int) -> int:
    a, b, c = SIZE
    return a * centres * centres + b * centres + c


def strengths(units: Mapping[str, Unit], graph: Graph) -> dict[str, dict[str, int]]:
    """By power: how many of its units stand in or next to each province."""
    out: dict[str, dict[str, int]] = {}
    for u in units.values():
        mine = out.setdefault(u.power, {})
        mine[u.province] = mine.get(u.province, 0) + 1
        for p in graph.reach[u.type].get(u.location, ()):
            if p != u.province:
                mine[p] = mine.get(p, 0) + 1
    return out


class Values:
    """The value of every place to ``power`` for a phase of ``kind`` ("movement", "retreat", "build",
    "remove"), computed once: :meth:`of` reads it."""

    def __init__(self, game: Game, power: str, kind: str, units: Mapping[str, Unit] | None = None) -> None:
        v = game.variant
        self.graph = graph = graph_of(v)
        units = game.units if units is None else units
        centres = game.position.centres
        season = game.phase.season
        key = kind if kind in ("build", "remove") else ("spring" if season == "spring" else "fall")
        attack_w, defence_w, steps, strength_w, competition_w = WEIGHTS[key]
        counts: dict[str, int] = {}
        for holder in centres.values():
            counts[holder] = counts.get(holder, 0) + 1
        near = strengths(units, graph)
        self.near = near
        own = near.get(power, {})
        #: per province: the most units any one other power has in or next to it
        competition: dict[str, int] = {}
        #: per province: the size of the largest other power with a unit in or next to it
        threat: dict[str, int] = {}
        for other, table in near.items():
            if other == power:
                continue
            s = size(counts.get(other, 0))
            for p, n in table.items():
                if n > competition.get(p, 0):
                    competition[p] = n
                if s > threat.get(p, 0):
                    threat[p] = s
        self.competition = competition
        self.strength = own
        base: dict[str, int] = {}
        for c in v.centres:
            owner = centres.get(c)
            if owner == power:
                base[c] = defence_w * threat.get(c, 0)
            else:
                # an unowned centre is worth a small power's size: it can be taken, and no one will miss it
                base[c] = attack_w * (size(counts[owner]) if owner is not None else size(0))
        worth = [float(base.get(c, 0)) for c in graph.centres]
        self.value: dict[UnitType, dict[str, float]] = {}
        for t in UNIT_TYPES:
            spread = graph.spread(t, steps)
            self.value[t] = {
                loc: sum(map(mul, row, worth)) + strength_w * own.get(p, 0) - competition_w * competition.get(p, 0)
                for loc, p, row in zip(graph.places[t], graph.province[t], spread, strict=True)
            }

    def of(self, unit_type: UnitType, location: str) -> float:
        """The value of ``location`` for a unit of ``unit_type`` (a place it cannot stand: very low)."""
        return self.value[unit_type].get(location, -1e18)
