"""Which orders a unit or power could give: for the map's click-to-order, random games and the link codec.

``candidates`` lists, in a fixed order that depends only on the position, every order worth offering
(some may be illegal, e.g. a convoy nobody will carry); ``possible_orders`` keeps the legal ones.

>>> from adjutant.game import Game
>>> from adjutant.adjudication.orders import format_order
>>> g = Game.new("standard")
>>> [format_order(o) for o in possible_orders(g, "lon")][:4]
['F lon H', 'F lon - eng', 'F lon - nth', 'F lon - wal']
"""

from __future__ import annotations

import weakref
from bisect import bisect_left
from collections.abc import Mapping

from .adjudication.legality import illegal_reason
from .adjudication.orders import Build, Convoy, Disband, Hold, Move, Order, Protect, Retreat, Support, Unit, Waive
from .game import Game
from .map.kinds import Season, UnitType
from .map.routes import is_convoy_sea
from .map.variant import Variant, province_of
from .variants.hooks import VariantState
from .variants.registry import rules_for


def _sea_components(variant: Variant, fleets_at_sea: set[str]) -> dict[str, int]:
    comp: dict[str, int] = {}
    n = 0
    for start in sorted(fleets_at_sea):
        if start in comp:
            continue
        n += 1
        todo = [start]
        comp[start] = n
        while todo:
            s = todo.pop()
            for nb in variant.neighbours("F", s):
                if nb in fleets_at_sea and nb not in comp:
                    comp[nb] = n
                    todo.append(nb)
    return comp


class _Near:
    """What a unit's orders are listed from that depends on the map alone: the places next to it (all,
    and those open in the season, in the map's order) and their provinces."""

    __slots__ = ("adjacent", "open", "open_provinces", "provinces", "reach")

    def __init__(self, variant: Variant, unit_type: UnitType, location: str, season: Season) -> None:
        places = variant.neighbours(unit_type, location)
        self.adjacent = frozenset(places)
        self.open = tuple(d for d in places if variant.provinces[province_of(d)].open_in(season))
        self.provinces = frozenset(map(province_of, places))
        self.open_provinces = tuple(dict.fromkeys(map(province_of, self.open)))
        #: the provinces, other than its own, a unit here could support into
        self.reach = self.provinces - {province_of(location)}


#: by variant, ``_Near`` by (unit type, location, season): a decoder lists the same units' orders phase
#: after phase, and a variant's map never changes
_NEAR: weakref.WeakKeyDictionary[Variant, dict[tuple[str, str, str], _Near]] = weakref.WeakKeyDictionary()


class Candidates:
    """The candidate orders of every unit in one movement phase (computed once per position)."""

    def __init__(
        self, variant: Variant, units: Mapping[str, Unit], season: Season, variant_state: VariantState | None = None
    ) -> None:
        self.v = variant
        self.units = units
        self.season = season
        #: the position's variant state: with one, each unit's candidates end with the variant's own orders
        #: (:meth:`VariantRules.unit_candidates <adjutant.variants.hooks.VariantRules.unit_candidates>`: in
        #: Cluster, Research, and Transfer and Mattermission where the power knows them and the site)
        self.variant_state = variant_state
        self.rules = rules_for(variant)
        table = _NEAR.get(variant)
        if table is None:
            table = _NEAR[variant] = {}
        #: this variant's :class:`_Near` by (unit type, location, season)
        self._near_table = table
        fleets = {p for p, u in units.items() if u.type == "F" and is_convoy_sea(variant, p, season)}
        self.comp = _sea_components(variant, fleets)
        # coastal provinces each sea component touches
        self.shores: dict[int, set[str]] = {}
        for sea, c in self.comp.items():
            for loc in variant.neighbours("F", sea):
                self.shores.setdefault(c, set()).add(province_of(loc))
        #: the shores in their fixed order, each sorted (the coasts a convoy could carry an army to)
        self._sorted_shores = [(shore, sorted(shore)) for _, shore in sorted(self.shores.items())]
        self._targets: dict[str, list[str]] = {}
        self._target_provinces: dict[str, tuple[str, ...]] = {}
        #: each unit's province's place among the units' provinces sorted
        self._rank = {prov: rank for rank, prov in enumerate(sorted(units))}
        #: the units' provinces sorted (a unit's rank is its place here)
        self._by_rank = sorted(units)
        #: by province: the units that could move there, each as a support code (:meth:`_supports`)
        self._moving_to: dict[str, list[int]] | None = None
        #: by sea component: how many convoys a fleet in it could order (:meth:`_convoys`)
        self._convoy_counts: dict[int, int] = {}
        self._supportable_at: dict[str, int] | None = None
        #: by sea component: the armies on its shore and where a convoy could take each (_shore_armies)
        self._armies_ashore: dict[int, list[tuple[str, list[str]]]] = {}

    def _near(self, u: Unit) -> _Near:
        key = (u.type, u.location, self.season)
        found = self._near_table.get(key)
        if found is None:
            found = self._near_table[key] = _Near(self.v, u.type, u.location, self.season)
        return found

    def _movers(self) -> dict[str, list[int]]:
        if self._moving_to is None:
            moving_to: dict[str, list[int]] = {}
            for prov, rank in self._rank.items():
                code = rank << 16
                for dp in self.target_provinces(prov):
                    code += 1
                    moving_to.setdefault(dp, []).append(code)
            self._moving_to = moving_to
        return self._moving_to

    def _supportable(self) -> dict[str, int]:
        """By province: how many units could be supported there (the unit standing there, to hold, and
        the units that could move there)."""
        if self._supportable_at is None:
            self._supportable_at = {dp: len(movers) for dp, movers in self._movers().items()}
            for prov in self.units:
                self._supportable_at[prov] = self._supportable_at.get(prov, 0) + 1
        return self._supportable_at

    def target_provinces(self, prov: str) -> tuple[str, ...]:
        """The provinces the unit in ``prov`` could move to, each once (a province's coasts are one), in
        the order of :meth:`move_targets`: the destinations another unit could support it to."""
        found = self._target_provinces.get(prov)
        if found is None:
            targets = self.move_targets(prov)
            near = self._near(self.units[prov])
            if len(targets) == len(near.open):  # (no coast a convoy could carry it to)
                found = near.open_provinces
            else:
                found = tuple(dict.fromkeys(map(province_of, targets)))
            self._target_provinces[prov] = found
        return found

    def move_targets(self, prov: str) -> list[str]:
        """Where the unit in ``prov`` could move: adjacent places, and for armies on a coast every coast a
        chain of fleets could carry it to."""
        if prov in self._targets:
            return self._targets[prov]
        u = self.units[prov]
        out = list(self._near(u).open)
        if u.type == "A" and self.v.provinces[prov].type == "coastal":
            near = set(out)
            for shore, ordered in self._sorted_shores:
                if prov in shore:
                    for d in ordered:
                        if d != prov and d not in near and self.v.provinces[d].army_can_stand:
                            out.append(d)
                            near.add(d)
        self._targets[prov] = out
        return out

    def of(self, prov: str) -> list[Order]:
        """Every candidate order of the unit in ``prov``, in their fixed order: hold, moves, supports,
        convoys (and in Cluster, its own orders)."""
        u = self.units[prov]
        orders: list[Order] = [Hold(u)]
        adjacent = self._near(u).adjacent
        for d in self.move_targets(prov):
            orders.append(Move(u, d, d not in adjacent))
        orders += [self._support(u, code) for code in self._supports(prov)]
        orders += [Convoy(u, army, d) for army, destinations in self._shore_armies(prov) for d in destinations]
        if self.variant_state is not None:
            orders += self.rules.unit_candidates(self.v, self.variant_state, self.units, u)
        return orders

    def count(self, prov: str) -> int:
        """How many candidate orders the unit in ``prov`` has: ``len(self.of(prov))``, found without
        making them (a link's decoder needs the count of every unit but one order of each)."""
        supportable = self._supportable()
        reach = self._reach(prov)
        n = 1 + len(self.move_targets(prov))
        for dp in reach:
            n += supportable.get(dp, 0)
        for dp in self.target_provinces(prov):  # less this unit's own moves within its reach
            if dp in reach:
                n -= 1
        sea = self.comp.get(prov)
        if sea is not None:
            n += self._convoys(sea)
        if self.variant_state is not None:
            n += len(self.rules.unit_candidates(self.v, self.variant_state, self.units, self.units[prov]))
        return n

    def nth(self, prov: str, k: int) -> Order:
        """The candidate order at ``k`` (from 0) of the unit in ``prov``: ``self.of(prov)[k]``, made alone;
        IndexError if there is none."""
        if k < 0:
            raise IndexError(k)
        u = self.units[prov]
        if k == 0:
            return Hold(u)
        k -= 1
        targets = self.move_targets(prov)
        if k < len(targets):
            d = targets[k]
            return Move(u, d, d not in self._near(u).adjacent)
        k -= len(targets)
        supports = self._supports(prov)
        if k < len(supports):
            return self._support(u, supports[k])
        k -= len(supports)
        sea = self.comp.get(prov)
        if sea is not None and k < self._convoys(sea):
            for army, destinations in self._shore_armies(prov):
                if k < len(destinations):
                    return Convoy(u, army, destinations[k])
                k -= len(destinations)
        elif sea is not None:
            k -= self._convoys(sea)
        if self.variant_state is not None:
            return self.rules.unit_candidates(self.v, self.variant_state, self.units, u)[k]
        raise IndexError(k)

    def _reach(self, prov: str) -> frozenset[str]:
        """The provinces, other than its own, the unit in ``prov`` could support into."""
        return self._near(self.units[prov]).reach

    def _supports(self, prov: str) -> list[int]:
        """The unit in ``prov``'s supports, sorted: by the supported unit's province, its hold first, then
        the provinces within reach it could move to in the order of its move targets. Each is a code: the
        supported unit's rank shifted 16 bits up, plus 0 for its hold or its move's place among its target
        provinces counted from 1 (:meth:`_support` makes the order). Found from the index of who could move
        where, not by going through every unit for every unit."""
        codes: list[int] = []
        movers = self._movers()
        rank = self._rank
        for dp in self._reach(prov):
            if dp in rank:
                codes.append(rank[dp] << 16)
            codes += movers.get(dp, ())
        codes.sort()
        # less the unit's own moves (its codes are together, after sorting)
        mine = rank[prov] << 16
        start = bisect_left(codes, mine)
        end = bisect_left(codes, mine + (1 << 16), start)
        if end > start:
            del codes[start:end]
        return codes

    def _support(self, u: Unit, code: int) -> Support:
        """The support by ``u`` that ``code`` stands for (:meth:`_supports`)."""
        other = self._by_rank[code >> 16]
        at = code & 0xFFFF
        return Support(u, other) if at == 0 else Support(u, other, self.target_provinces(other)[at - 1])

    def _shore_armies(self, prov: str) -> list[tuple[str, list[str]]]:
        """For a fleet in ``prov`` that could convoy: each army on its sea's shore, in sorted order, with
        the coastal provinces of that shore it could be convoyed to, sorted."""
        sea = self.comp.get(prov)
        if sea is None:
            return []
        found = self._armies_ashore.get(sea)
        if found is None:
            shore = sorted(self.shores.get(sea, set()))
            coastal = [d for d in shore if self.v.provinces[d].type == "coastal"]
            found = self._armies_ashore[sea] = [
                (other, [d for d in coastal if d != other])
                for other in shore
                if (a := self.units.get(other)) is not None and a.type == "A"
            ]
        return found

    def _convoys(self, sea: int) -> int:
        """How many convoy orders a fleet in sea component ``sea`` has: ``_shore_armies``'s destinations
        counted without listing them (each army's shore's coasts but its own)."""
        found = self._convoy_counts.get(sea)
        if found is None:
            shore = self.shores.get(sea, set())
            coastal = {d for d in shore if self.v.provinces[d].type == "coastal"}
            found = 0
            for other in shore:
                a = self.units.get(other)
                if a is not None and a.type == "A":
                    found += len(coastal) - (other in coastal)
            self._convoy_counts[sea] = found
        return found


def candidates(game: Game, prov: str) -> list[Order]:
    """Every order offered for the unit in ``prov`` (a dislodged one in a retreat phase), and those another
    power may give for it (:meth:`VariantRules.candidates_for_others
    <adjutant.variants.hooks.VariantRules.candidates_for_others>`: in Cluster, the transfers out of a host);
    the moves others' orders would carry and the orders to carry them follow (:func:`runs`, :func:`protects`:
    Coast-Running's runs and protect orders).
    (:class:`Candidates`, whose lists a game's link counts in, leaves those two out.)"""
    kind = game.phase.kind
    if kind == "movement":
        state = game.position.variant_state
        orders = Candidates(game.variant, game.units, game.phase.season, state).of(prov)
        orders += [*runs(game, prov), *protects(game, prov)]
        return orders + game.rules.candidates_for_others(state, game.units, prov)
    if kind == "retreat":
        u = game.dislodged_units()[prov]
        return retreat_candidates(game.variant, u)
    raise ValueError("in an adjustment phase, use adjustment_candidates")


def runs(game: Game, prov: str) -> list[Move]:
    """In a movement phase, the moves the unit in ``prov`` could make only carried by others' orders, as
    the variant's rules offer them (:meth:`~adjutant.adjudication.hooks.AdjudicationHooks.carried_moves`:
    Coast-Running's runs); none under the classic rules.

    >>> from adjutant.game import Game
    >>> g = Game.new("coast_running")
    >>> [o.dest for o in runs(g, "ank")][:3]
    ['aeg', 'bul/ec', 'bul/sc']
    """
    if game.phase.kind != "movement":
        return []
    return game.rules.carried_moves(game.variant, game.units, prov, game.phase.season)


def protects(game: Game, prov: str) -> list[Protect]:
    """In a movement phase, the orders the unit in ``prov`` could give to carry another's move, as the
    variant's rules offer them (:meth:`~adjutant.adjudication.hooks.AdjudicationHooks.carrier_orders`:
    Coast-Running's protect orders); none under the classic rules.

    >>> from adjutant.game import Game
    >>> from adjutant.adjudication.orders import format_order
    >>> g = Game.new("coast_running")
    >>> [format_order(o) for o in protects(g, "ven")]
    ['A ven P F tri - apu']
    """
    if game.phase.kind != "movement":
        return []
    return game.rules.carrier_orders(game.variant, game.units, prov, game.phase.season)


def retreat_candidates(variant: Variant, u: Unit) -> list[Order]:
    out: list[Order] = [Disband(u)]
    return out + [Retreat(u, d) for d in variant.neighbours(u.type, u.location)]


def adjustment_candidates(game: Game, power: str) -> list[Order]:
    """Builds on every home centre and build site (whatever their state), removals of every unit, waive."""
    v = game.variant
    p = v.powers[power]
    out: list[Order] = []
    places = list(p.home_centres) + [s.province for s in p.build_sites if s.province not in p.home_centres]
    for prov in places:
        out.append(Build(power, "A", prov))
        for loc in v.fleet_locations(prov):
            out.append(Build(power, "F", loc))
    for u in sorted(game.units.values(), key=lambda u: u.province):
        if u.power == power:
            out.append(Disband(u))
    out.append(Waive(power))
    return out


def possible_orders(game: Game, prov: str) -> list[Order]:
    """The legal orders for the unit in ``prov`` this phase."""
    kind = game.phase.kind
    if kind == "movement":
        season = game.phase.season
        state, rules = game.position.variant_state, game.rules
        # legal on the board, and not objected to by the variant's rules (in Cluster, an original unit
        # whose aura is away only stands)
        return [o for o in candidates(game, prov) if not illegal_reason(game.variant, o, game.units, season)  # type: ignore[arg-type]
                and rules.unit_order_problem(game.variant, state, o) is None]  # type: ignore[arg-type]
    if kind == "retreat":
        from .adjudication.phases import retreat_options

        d = next(x for x in game.position.dislodged if x.unit.province == prov)
        ok = set(retreat_options(game.variant, d, game.units, game.position.contested, game.phase.season))
        return [o for o in retreat_candidates(game.variant, d.unit) if not isinstance(o, Retreat) or o.dest in ok]
    raise ValueError("in an adjustment phase, use adjustment_candidates")
