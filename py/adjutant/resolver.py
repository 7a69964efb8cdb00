"""Movement adjudication: Kruijswijk's guess-and-check algorithm (DATC section 5).

Every order is a decision (a move succeeds, a support is given, a convoy or protection holds);
:meth:`Resolver.resolve` guesses and checks, and a cycle with two or no consistent answers is handed to
the backup rule, which is injected (Szykman by default; Coast-Running's rule for that variant).

>>> from adjutant import load_variant
>>> from adjutant.orders import Move, Unit
>>> v = load_variant("standard")
>>> a, b = Unit("france", "A", "par"), Unit("germany", "A", "mun")
>>> r = adjudicate_movement(v, {"par": a, "mun": b}, [Move(a, "bur"), Move(b, "bur")])
>>> [(str(x.unit), x.success, x.reason) for x in r.results]
[('A mun', False, 'bounced with A par'), ('A par', False, 'bounced with A mun')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .orders import Convoy, Hold, Move, Protect, Research, Support, Unit, UnitOrder
from .variant import Variant, province_of

UNRESOLVED, GUESSING, RESOLVED = 0, 1, 2


class OrderResult(NamedTuple):
    """What became of one unit's order in a movement phase."""

    unit: Unit
    order: UnitOrder
    success: bool
    reason: str = ""
    #: the order as written, when it was illegal and the unit held instead
    illegal: str = ""
    dislodged_by: Unit | None = None


class Dislodgement(NamedTuple):
    unit: Unit
    #: the province the successful attacker came from (the unit may not retreat there), or None if it
    #: came by convoy (or coast-run)
    attacker_from: str | None
    attacker: Unit


@dataclass
class MovementOutcome:
    results: list[OrderResult]
    #: units on the board after the phase, by province
    units: dict[str, Unit]
    dislodged: list[Dislodgement]
    #: provinces left empty by a stand-off (no retreat there)
    contested: set[str] = field(default_factory=set)


# --- legality --------------------------------------------------------------------------------------


def _reaches(variant: Variant, unit: Unit, province: str, season: str) -> bool:
    """Whether the unit could move to (and so support into) ``province`` without a convoy."""
    p = variant.provinces.get(province)
    if p is None or not p.open_in(season):
        return False
    if unit.type == "A":
        return variant.can_move("A", unit.location, province) and variant.edge_kind(unit.location, province) != "weak"
    return bool(variant.fleet_reaches(unit.location, province))


def sea_route_exists(variant: Variant, src: str, dst: str, season: str, only: set[str] | None = None) -> bool:
    """Whether some chain of seas (of the seas in ``only``, if given) joins two coastal provinces."""
    seas = [s for s in _seas(variant, season) if only is None or s in only]
    starts = [s for s in seas if variant.touches(s, src, "F")]
    seen = set(starts)
    todo = list(starts)
    while todo:
        s = todo.pop()
        if variant.touches(s, dst, "F"):
            return True
        for n in variant.neighbours("F", s):
            if n in seen or not _is_convoy_sea(variant, n, season) or (only is not None and n not in only):
                continue
            seen.add(n)
            todo.append(n)
    return False


def _seas(variant: Variant, season: str) -> tuple[str, ...]:
    return variant.convoy_seas(season)


def _is_convoy_sea(variant: Variant, province: str, season: str) -> bool:
    p = variant.provinces.get(province)
    return p is not None and p.is_sea and p.convoy and p.open_in(season)


def normalize_move(variant: Variant, order: Move, season: str) -> tuple[Move | None, str]:
    """Check a move; returns the move with its coast filled in where only one is possible, or None and
    the reason it is illegal."""
    unit, dest = order.unit, order.dest
    v = variant
    dprov = province_of(dest)
    p = v.provinces.get(dprov)
    if p is None:
        return None, f"{dest} is not a province"
    name, here = v.provinces[dprov].name, v.provinces[unit.province].name
    if dprov == unit.province:
        return None, f"{here} cannot move to itself"
    if not p.open_in(season):
        return None, f"{name} cannot be entered in {season}"
    if p.type == "impassable":
        return None, f"{name} is impassable"
    if unit.type == "A":
        dest = dprov
        if not p.army_can_stand:
            return None, f"an army cannot go to sea ({name})"
        if v.can_move("A", unit.location, dest) and not order.via_convoy:
            return Move(unit, dest, False), ""
        if v.provinces[unit.province].type != "coastal" or p.type != "coastal":
            return None, f"{here} is not adjacent to {name}"
        if not sea_route_exists(v, unit.province, dprov, season):
            return None, f"{here} is not adjacent to {name}, and no sea route joins them"
        return Move(unit, dest, True), ""
    if order.via_convoy:
        return None, "only armies can be convoyed"
    if p.type == "land":
        return None, f"a fleet cannot go inland ({name})"
    options = v.fleet_reaches(unit.location, dprov)
    if not options and v.options.protect_order and (not p.coasts or "/" in dest):
        # a coast run: legal if armies protect an unbroken chain of coast (checked with the orders)
        return Move(unit, dest, True), ""
    if "/" in dest:
        if dest not in options:
            where = v.province_name(dest)
            return None, f"{v.province_name(unit.location)} is not adjacent to {where}"
        return Move(unit, dest, False), ""
    if not options:
        return None, f"{v.province_name(unit.location)} is not adjacent to {name}"
    if len(options) > 1:
        return None, f"say which coast of {name} ({', '.join(options)})"
    return Move(unit, options[0], False), ""


def illegal_reason(variant: Variant, order: UnitOrder, units: Mapping[str, Unit], season: str) -> str:
    """Why a movement-phase order is illegal, or ``""``. Illegal orders are adjudicated as holds."""
    return check_order(variant, order, season)[1]


def check_order(variant: Variant, order: UnitOrder, season: str) -> tuple[UnitOrder, str]:
    """The order as it will be adjudicated (a move's coast filled in) and why it is illegal, or ``""``."""
    kind = type(order)
    if kind is Hold:
        return order, ""
    if kind is Research:
        return order, "" if variant.cluster is not None else f"there is no research in {variant.name}"
    if kind is Move:
        if not variant.provinces[order.unit.province].open_in(season):
            return order, f"a unit in {variant.provinces[order.unit.province].name} can only hold in {season}"
        assert isinstance(order, Move)
        u = order.unit
        if (
            u.type == "A"
            and not order.via_convoy
            and variant.can_move("A", u.location, order.dest)
            and variant.provinces[order.dest].open_in(season)
        ):
            return order, ""  # the common case, decided at once
        move, why = normalize_move(variant, order, season)
        return (move or order), why
    return order, _other_reason(variant, order, season)


def _other_reason(variant: Variant, order: UnitOrder, season: str) -> str:
    v = variant
    unit = order.unit
    here = v.provinces[unit.province]
    if not here.open_in(season):
        return f"a unit in {here.name} can only hold in {season}"
    if isinstance(order, Support):
        if order.target == unit.province:
            return "a unit cannot support itself"
        goal = province_of(order.dest) if order.dest is not None else order.target
        if goal == unit.province:
            return "a unit cannot support a move into its own province"
        if not _reaches(v, unit, goal, season):
            return f"{v.province_name(unit.location)} cannot reach {v.provinces[goal].name}"
        return ""
    if isinstance(order, Convoy):
        if unit.type != "F" or not here.is_sea:
            return "only fleets at sea can convoy"
        if not here.convoy:
            return f"fleets in {here.name} cannot convoy"
        if v.provinces[order.target].type != "coastal" or v.provinces[order.dest].type != "coastal":
            return "only armies on a coast can be convoyed to a coast"
        return ""
    if isinstance(order, Protect):
        if not v.options.protect_order:
            return f"there is no protect order in {v.name}"
        if unit.type != "A" or here.type != "coastal":
            return "only armies on a coast can protect"
        return ""
    return ""


# --- backup rules -------------------------------------------------------------------------------

BackupRule = Callable[["Resolver", Sequence[int]], None]


class _Restart(Exception):
    """Adjudication must start again because the backup rule changed how a move is made."""


def szykman(resolver: Resolver, cycle: Sequence[int]) -> None:
    """DATC's preferred backup rule: circular movement succeeds; in a convoy paradox, an army whose convoy
    was only implied (it could go overland) goes overland, and otherwise every convoy in the cycle fails
    (so the convoyed armies hold and have no effect)."""
    carriers = [i for i in cycle if isinstance(resolver.orders[i], (Convoy, Protect))]
    implied = resolver.implied_convoys(carriers)
    if implied:
        resolver.go_overland(implied)
    if not carriers:
        for i in cycle:
            resolver.settle(i, isinstance(resolver.orders[i], Move))
        return
    for i in carriers:
        resolver.settle(i, False)


# --- the resolver ---------------------------------------------------------------------------------


class Resolver:
    """One movement phase. Build it, then call :meth:`run`."""

    def __init__(
        self,
        variant: Variant,
        units: Mapping[str, Unit],
        orders: Iterable[UnitOrder],
        season: str = "spring",
        backup: BackupRule = szykman,
        prepare: Callable[[Resolver], None] | None = None,
        strengths: Mapping[str, int] | None = None,
    ) -> None:
        self.v = variant
        self.season = season
        self.backup = backup
        self.prepare = prepare
        self.inputs = (dict(units), list(orders))
        self.strengths = dict(strengths or {})
        given = {o.unit.province: o for o in self.inputs[1]}
        orders_: list[UnitOrder] = []
        self.orders = orders_
        self.illegal: list[str] = []
        self.written: list[UnitOrder] = []
        self.at: dict[str, int] = {}
        #: per order: the province a move goes to (None for other orders), whether it crosses a weak
        #: passage, the power and province of the unit
        self.to: list[str | None] = []
        self.weak: list[bool] = []
        self.power: list[str] = []
        self.prov: list[str] = []
        # moves by destination province
        self.moves_to: dict[str, list[int]] = {}
        kinds = variant._pair_kinds
        convoy_orders: set[tuple[str, str, str]] = set()
        for prov in sorted(units):
            i = len(orders_)
            unit = units[prov]
            written = given.get(prov) or Hold(unit)
            order, reason = check_order(variant, written, season)
            if reason:
                order = Hold(unit)
            self.at[prov] = i
            orders_.append(order)
            self.written.append(written)
            self.illegal.append(reason)
            self.power.append(unit.power)
            self.prov.append(prov)
            if isinstance(order, Move):
                dest = province_of(order.dest)
                self.to.append(dest)
                self.weak.append(bool(kinds) and variant.edge_kind(unit.location, dest) == "weak")
                self.moves_to.setdefault(dest, []).append(i)
            else:
                self.to.append(None)
                self.weak.append(False)
                if isinstance(order, Convoy):
                    convoy_orders.add((unit.power, order.target, order.dest))
        n = len(orders_)
        #: each unit's own strength: 1, or more for Cluster Diplomacy's multiple units (rule 1)
        self.k = [self.strengths.get(p, 1) for p in self.prov]
        self.multiple = any(k != 1 for k in self.k)
        self.state = [UNRESOLVED] * n
        self.result = [False] * n
        self.deps: list[int] = []
        # supports and carriers by the order they serve
        self.supports_of: list[list[int]] = [[] for _ in range(n)]
        self.carriers_of: list[list[int]] = [[] for _ in range(n)]
        self.convoyed = [False] * n
        #: moves that the variant's rule made hold without effect (Coast-Running)
        self.voided: set[int] = set()
        for i, o in enumerate(orders_):
            if isinstance(o, Move):
                if o.via_convoy or (
                    convoy_orders
                    and o.unit.type == "A"
                    and (o.unit.power, o.unit.province, self.to[i]) in convoy_orders
                    and self._convoy_intended(i)
                ):
                    self.convoyed[i] = True
            elif isinstance(o, Support):
                j = self.at.get(o.target)
                if j is not None and self._support_matches(o, orders_[j]):
                    self.supports_of[j].append(i)
            elif isinstance(o, (Convoy, Protect)):
                j = self.at.get(o.target)
                if j is not None and self._carrier_matches(o, j):
                    self.carriers_of[j].append(i)
        if not any(self.convoyed):
            return
        fleets_at_sea = {p for p, u in units.items() if u.type == "F" and self.v.provinces[p].is_sea}
        for i, o in enumerate(self.orders):
            if self.convoyed[i] and isinstance(o, Move) and o.unit.type == "F":
                if not self._run_chain(i, lambda c: True):
                    self.illegal[i] = (
                        f"no unbroken chain of protecting armies runs from {self.v.province_name(o.unit.location)} "
                        f"to {self.v.province_name(o.dest)}"
                    )
                    self._make_hold(i)
                continue
            if self.convoyed[i] and isinstance(o, Move):
                src, dst = o.unit.province, province_of(o.dest)
                if not sea_route_exists(self.v, src, dst, season, fleets_at_sea):
                    # DATC 6.D.32: with no fleets where a convoy could be, the move is illegal and the
                    # army holds (and may be supported to hold); with fleets there it merely fails (6.D.8)
                    name = self.v.provinces[dst].name
                    self.illegal[i] = f"no fleets stand where they could convoy {o.unit} to {name}"
                    self._make_hold(i)

    def _make_hold(self, i: int) -> None:
        o = self.orders[i]
        if isinstance(o, Move):
            self.moves_to[province_of(o.dest)].remove(i)
        self.orders[i] = Hold(o.unit)
        self.convoyed[i] = False
        self.to[i] = None
        self.weak[i] = False
        for j, s in enumerate(self.orders):
            if isinstance(s, Support) and s.target == o.unit.province:
                if j in self.supports_of[i]:
                    self.supports_of[i].remove(j)
                if self._support_matches(s, self.orders[i]):
                    self.supports_of[i].append(j)

    # --- matching ----------------------------------------------------------------------------
    def _support_matches(self, s: Support, target: UnitOrder) -> bool:
        if s.target_type is not None and s.target_type != target.unit.type:
            return False
        if s.dest is None:
            return not isinstance(target, Move)
        if not isinstance(target, Move) or province_of(target.dest) != province_of(s.dest):
            return False
        return "/" not in s.dest or s.dest == target.dest

    def _carrier_matches(self, c: Convoy | Protect, j: int) -> bool:
        target = self.orders[j]
        if not isinstance(target, Move) or province_of(target.dest) != province_of(c.dest):
            return False
        if isinstance(c, Convoy):
            return target.unit.type == "A"
        return target.unit.type == "F"

    def implied_convoys(self, carriers: Iterable[int]) -> list[int]:
        """Moves carried by these convoys that were not ordered 'via convoy' and could go overland."""
        out = []
        for c in carriers:
            j = self.at.get(self.orders[c].target)  # type: ignore[union-attr]
            if j is None or not self.convoyed[j] or c not in self.carriers_of[j]:
                continue
            m = self.orders[j]
            assert isinstance(m, Move)
            if not m.via_convoy and self.v.can_move("A", m.unit.location, m.dest):
                out.append(j)
        return sorted(set(out))

    def _convoy_intended(self, i: int) -> bool:
        """An army ordered to an adjacent province goes by convoy, unspecified, only when a fleet of its
        own power convoys it from a place on some convoy route (DATC 4.A.3, the 2023 rules)."""
        m = self.orders[i]
        assert isinstance(m, Move)
        for o in self.orders:
            if (
                isinstance(o, Convoy)
                and o.unit.power == m.unit.power
                and o.target == m.unit.province
                and o.dest == province_of(m.dest)
                and not self.illegal[self.at[o.unit.province]]
                and o.unit.province in self._route_seas(m.unit.province, province_of(m.dest))
            ):
                return True
        return False

    def _route_seas(self, src: str, dst: str) -> set[str]:
        """Seas on some chordless sea route from ``src`` to ``dst`` (a route with no fleet to spare)."""
        v, season = self.v, self.season
        found: set[str] = set()

        def extend(path: list[str]) -> None:
            last = path[-1]
            if v.touches(last, dst, "F"):
                found.update(path)
                return
            if len(path) >= 8:
                return
            for n in v.neighbours("F", last):
                if n in path or not _is_convoy_sea(v, n, season):
                    continue
                # chordless: the new sea touches neither the start nor any sea but the last one
                if v.touches(n, src, "F") or any(v.can_move("F", q, n) for q in path[:-1]):
                    continue
                extend([*path, n])

        for s in _seas(v, season):
            if v.touches(s, src, "F"):
                extend([s])
        return found

    # --- guess and check -------------------------------------------------------------------------
    def settle(self, i: int, value: bool) -> None:
        self.result[i] = value
        self.state[i] = RESOLVED

    def resolve(self, i: int) -> bool:
        if self.state[i] == RESOLVED:
            return self.result[i]
        if self.state[i] == GUESSING:
            if i not in self.deps:
                self.deps.append(i)
            return self.result[i]
        mark = len(self.deps)
        self.result[i] = False
        self.state[i] = GUESSING
        first = self.adjudicate(i)
        if len(self.deps) == mark:
            if self.state[i] != RESOLVED:
                self.settle(i, first)
            return self.result[i]
        if self.deps[mark] != i:
            # depends on a guess made further up: not ours to settle
            self.deps.append(i)
            self.result[i] = first
            return first
        for j in self.deps[mark:]:
            self.state[j] = UNRESOLVED
        del self.deps[mark:]
        self.result[i] = True
        self.state[i] = GUESSING
        second = self.adjudicate(i)
        if first == second:
            for j in self.deps[mark:]:
                self.state[j] = UNRESOLVED
            del self.deps[mark:]
            self.settle(i, first)
            return first
        cycle = list(self.deps[mark:])
        if i not in cycle:
            cycle.insert(0, i)
        for j in cycle:
            self.state[j] = UNRESOLVED
        del self.deps[mark:]
        self.backup(self, cycle)
        return self.resolve(i)

    def adjudicate(self, i: int) -> bool:
        if self.to[i] is not None:
            return self._move_succeeds(i)
        kind = type(self.orders[i])
        if kind is Support:
            return self._support_given(i)
        if kind is Convoy or kind is Protect:
            return not self._dislodged(self.prov[i])
        return True

    def _run_chain(self, i: int, holds: Callable[[int], bool]) -> bool:
        """Coast-Running: whether the fleet of move ``i`` can run along the coasts of provinces whose
        armies protect it (those for which ``holds`` is true) to its destination. Each step goes along a
        shared coastline, so a run cannot cross a province between two of its coasts."""
        o = self.orders[i]
        assert isinstance(o, Move)
        v = self.v
        guards = {self.orders[c].unit.province: c for c in self.carriers_of[i]}
        if province_of(o.dest) in guards:
            return False
        dests = [o.dest] if "/" in o.dest or not v.provinces[province_of(o.dest)].coasts else v.fleet_locations(o.dest)
        todo = [loc for p in guards for loc in v.fleet_locations(p) if v.can_move("F", o.unit.location, loc)]
        seen: set[str] = set()
        while todo:
            loc = todo.pop()
            if loc in seen:
                continue
            seen.add(loc)
            if not holds(guards[province_of(loc)]):
                continue
            if any(v.can_move("F", loc, d) for d in dests):
                return True
            todo += [n for p in guards for n in v.fleet_locations(p) if n not in seen and v.can_move("F", loc, n)]
        return False

    # --- strengths ---------------------------------------------------------------------------
    def _path(self, i: int) -> bool:
        if i in self.voided:
            return False
        o = self.orders[i]
        assert isinstance(o, Move)
        if not self.convoyed[i]:
            return True
        if self.v.edge_kind(o.unit.location, o.dest) == "weak":
            return True
        # the 1971 reading of an ambiguous route: every unit ordered to carry must survive
        if self.v.options.any_carrier_disrupts and not all([self.resolve(c) for c in self.carriers_of[i]]):
            return False
        if o.unit.type == "F":
            return self._run_chain(i, self.resolve)
        src, dst = o.unit.province, province_of(o.dest)
        fleets = {self.orders[c].unit.province: c for c in self.carriers_of[i]}
        starts = [s for s in fleets if self.v.touches(s, src, "F")]
        seen: set[str] = set()
        todo = list(starts)
        while todo:
            s = todo.pop()
            if s in seen:
                continue
            seen.add(s)
            if not self.resolve(fleets[s]):
                continue
            if self.v.touches(s, dst, "F"):
                return True
            todo.extend(n for n in fleets if n not in seen and self.v.can_move("F", s, n))
        return False

    def _support_count(self, i: int, exclude_power: str | None = None) -> int:
        n = 0
        for s in self.supports_of[i]:
            if exclude_power is not None and self.power[s] == exclude_power:
                continue
            if self.k[s] != 1:
                n += self._support_value(s)
            elif self.resolve(s):
                n += 1
        return n

    def _support_value(self, s: int) -> int:
        """Cluster rule 4: a multiple unit's support is reduced by the strength of the strongest attack
        on it (one that would cut an ordinary support), not cut; nothing if it is dislodged."""
        if self._dislodged(self.prov[s]):
            return 0
        attacks = [self._attack_strength(j) for j in self._cutters(s) if self._cuts(j)]
        return max(0, self.k[s] - max(attacks, default=0))

    def _weak(self, i: int) -> bool:
        return self.weak[i]

    def _base(self, i: int) -> int:
        """A unit's own strength (one, or a Cluster multiple), or none across a weak passage (only its
        supports count)."""
        return 0 if self.weak[i] else self.k[i]

    def _head_to_head(self, i: int) -> int | None:
        j = self.at.get(self.to[i])  # type: ignore[arg-type]
        if j is None or self.convoyed[i] or self.weak[i]:
            return None
        if self.to[j] == self.prov[i] and not self.convoyed[j] and not self.weak[j]:
            return j
        return None

    def _hold_strength(self, prov: str) -> int:
        j = self.at.get(prov)
        if j is None:
            return 0
        if self.to[j] is not None:
            return 0 if self.resolve(j) else self.k[j]
        # a researching unit stands one weaker (Cluster rule 5.1)
        own = self.k[j] - 1 if type(self.orders[j]) is Research else self.k[j]
        return own + self._support_count(j)

    def _attack_strength(self, i: int) -> int:
        if self.convoyed[i] and not self._path(i):
            return 0
        j = self.at.get(self.to[i])  # type: ignore[arg-type]
        if j is None or (self.to[j] is not None and self._head_to_head(i) is None and self.resolve(j)):
            return self._base(i) + self._support_count(i)
        defender = self.power[j]
        if defender == self.power[i]:
            return 0
        return self._base(i) + self._support_count(i, exclude_power=defender)

    def _defend_strength(self, i: int) -> int:
        return self._base(i) + self._support_count(i)

    def _prevent_strength(self, i: int) -> int:
        if self.convoyed[i] and not self._path(i):
            return 0
        h2h = self._head_to_head(i)
        if h2h is not None and self.resolve(h2h):
            return 0
        return self._base(i) + self._support_count(i)

    def _move_succeeds(self, i: int) -> bool:
        if i in self.voided:
            return False
        attack = self._attack_strength(i)
        if attack == 0:
            return False
        h2h = self._head_to_head(i)
        if h2h is not None:
            if attack <= self._defend_strength(h2h):
                return False
        elif attack <= self._hold_strength(self.to[i]):  # type: ignore[arg-type]
            return False
        return all(j == i or attack > self._prevent_strength(j) for j in self.moves_to[self.to[i]])  # type: ignore[index]

    def _cutters(self, i: int) -> list[int]:
        """Moves that would cut support ``i`` if they are valid attacks."""
        s = self.orders[i]
        assert isinstance(s, Support)
        against = province_of(s.dest) if s.dest is not None else None
        power = self.power[i]
        return [j for j in self.moves_to.get(self.prov[i], ()) if self.power[j] != power and self.prov[j] != against]

    def _cuts(self, j: int) -> bool:
        """Whether an attack is real enough to cut a support: it gets there (by its path), and a move
        across a weak passage only with support behind it."""
        if self.convoyed[j] and not self._path(j):
            return False
        return not self.weak[j] or self._support_count(j) > 0

    def _support_given(self, i: int) -> bool:
        if self.k[i] != 1:
            return self._support_value(i) > 0
        for j in self._cutters(i):
            if self._cuts(j):
                return False
        return not self._dislodged(self.prov[i])

    def _dislodged(self, prov: str) -> bool:
        j = self.at.get(prov)
        if j is not None and self.to[j] is not None and self.resolve(j):
            return False
        return any(self.resolve(m) for m in self.moves_to.get(prov, ()))

    # --- results -----------------------------------------------------------------------------
    def run(self) -> MovementOutcome:
        if self.prepare is not None:
            self.prepare(self)
        while True:
            try:
                for i in range(len(self.orders)):
                    self.resolve(i)
            except _Restart:
                n = len(self.orders)
                self.state = [UNRESOLVED] * n
                self.result = [False] * n
                self.deps = []
                continue
            return self._outcome()

    def go_overland(self, moves: Iterable[int]) -> None:
        """Take back a convoy that was only implied: the armies move over land, and adjudication starts
        again (DATC 6.G.11)."""
        for i in moves:
            self.convoyed[i] = False
        raise _Restart

    def _describe(self, i: int) -> str:
        return str(self.orders[i].unit)

    def _outcome(self) -> MovementOutcome:
        results: list[OrderResult] = []
        new_units: dict[str, Unit] = {}
        dislodged: list[Dislodgement] = []
        contested: set[str] = set()
        winner_into: dict[str, int] = {}
        for i, o in enumerate(self.orders):
            if isinstance(o, Move) and self.result[i]:
                winner_into[province_of(o.dest)] = i
        for prov, movers in self.moves_to.items():
            if prov not in winner_into and any(self._prevent_strength(j) > 0 for j in movers):
                contested.add(prov)
        for i, o in enumerate(self.orders):
            unit = o.unit
            moved = isinstance(o, Move) and self.result[i]
            attacker = winner_into.get(unit.province)
            is_dislodged = attacker is not None and not moved
            if moved:
                assert isinstance(o, Move)
                new_units[province_of(o.dest)] = Unit(unit.power, unit.type, o.dest)
            elif not is_dislodged:
                new_units.setdefault(unit.province, unit)
            by = None
            if is_dislodged and attacker is not None:
                a = self.orders[attacker]
                assert isinstance(a, Move)
                by = a.unit
                dislodged.append(Dislodgement(unit, None if self.convoyed[attacker] else a.unit.province, a.unit))
            success, reason = self._verdict(i, by)
            results.append(OrderResult(unit, self.written[i], success, reason, self.illegal[i], dislodged_by=by))
        # a unit that moved in takes precedence over one staying (which was dislodged)
        return MovementOutcome(results, new_units, dislodged, contested)

    def _verdict(self, i: int, by: Unit | None) -> tuple[bool, str]:
        """Whether the order succeeded, and why not: bounced with whom, cut by whom, dislodged by whom."""
        o = self.orders[i]
        if by is None and not self.illegal[i] and (type(o) in (Hold, Research) or (type(o) is Move and self.result[i])):
            return True, ""
        tail = f", dislodged by {by}" if by is not None else ""
        if self.illegal[i]:
            return False, f"illegal: {self.illegal[i]}" + tail
        if isinstance(o, Move):
            if self.result[i]:
                return True, ""
            if i in self.voided:
                return False, "the attack may not affect its own convoy or protection: it does not take place" + tail
            if not self._path(i):
                return False, ("no convoy path" if o.unit.type == "A" else "no protected coast path") + tail
            rivals = [self._describe(j) for j in self.moves_to.get(province_of(o.dest), []) if j != i]
            j = self.at.get(province_of(o.dest))
            if j is not None and not (isinstance(self.orders[j], Move) and self.result[j]):
                rivals.insert(0, self._describe(j))
            if self._attack_strength(i) == 0 and j is not None and self.orders[j].unit.power == o.unit.power:
                return False, f"may not dislodge own unit {self._describe(j)}" + tail
            return False, (f"bounced with {', '.join(rivals)}" if rivals else "bounced") + tail
        if isinstance(o, Support):
            j = self.at.get(o.target)
            if j is not None and self.illegal[j]:
                return False, f"void: the supported unit's order is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.supports_of[j]:
                return False, "void: the supported unit was not ordered that way" + tail
            if self.result[i]:
                return True, tail.lstrip(", ")
            cut = [self._describe(j) for j in self._cutters(i) if self._cuts(j)]
            if cut:
                return False, f"cut by {', '.join(cut)}" + tail
            return False, tail.lstrip(", ")
        if isinstance(o, (Convoy, Protect)):
            j = self.at.get(o.target)
            what = "the convoyed army" if isinstance(o, Convoy) else "the protected fleet"
            if j is not None and self.illegal[j]:
                return False, f"void: {what}'s move is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.carriers_of[j]:
                return False, f"void: {what} was not ordered that way" + tail
            if self.result[i]:
                return True, ""
            return False, tail.lstrip(", ") if by is not None else "the convoy fails (paradox)"
        return by is None, tail.lstrip(", ")


def carried_attacks_spare_their_carriers(resolver: Resolver) -> None:
    """Coast-Running: "a convoyed attack may not affect the convoying fleets" (and a coast run may not
    affect its protecting armies). A carried move whose attack would change the outcome of an attack on
    any unit carrying it does not take place: the unit holds, with no effect anywhere."""
    carried = [
        i
        for i, o in enumerate(resolver.orders)
        if isinstance(o, Move) and resolver.convoyed[i] and resolver.carriers_of[i]
    ]
    if not carried:
        return
    voided: set[int] = set()

    def fates(void: set[int], watch: list[str]) -> list[tuple[str, str | None]]:
        trial = Resolver(
            resolver.v,
            resolver.inputs[0],
            resolver.inputs[1],
            resolver.season,
            resolver.backup,
            strengths=resolver.strengths,
        )
        trial.voided = set(void)
        out = trial.run()
        hit = {d.unit.province: d.attacker.province for d in out.dislodged}
        return [(p, hit.get(p)) for p in watch]

    changed = True
    while changed:
        changed = False
        for i in carried:
            if i in voided:
                continue
            watch = sorted(resolver.orders[c].unit.province for c in resolver.carriers_of[i])
            if fates(voided, watch) != fates(voided | {i}, watch):
                voided.add(i)
                changed = True
    resolver.voided = voided


def adjudicate_movement(
    variant: Variant,
    units: Mapping[str, Unit],
    orders: Iterable[UnitOrder],
    season: str = "spring",
    backup: BackupRule | None = None,
    strengths: Mapping[str, int] | None = None,
) -> MovementOutcome:
    """Resolve a movement phase. Units without orders hold; illegal orders become holds. ``strengths``
    gives units other than one their own strength, by province (Cluster Diplomacy's multiple units)."""
    rule = BACKUP_RULES[variant.options.backup_rule]
    return Resolver(variant, units, orders, season, backup or rule[0], rule[1], strengths).run()


#: The named backup rules a variant may choose: (paradox rule, preparation before resolving).
BACKUP_RULES: dict[str, tuple[BackupRule, Callable[[Resolver], None] | None]] = {
    "szykman": (szykman, None),
    "coast_running": (szykman, carried_attacks_spare_their_carriers),
}
