"""Movement adjudication: Kruijswijk's guess-and-check algorithm (DATC section 5).

Every order is a decision (a move succeeds, a support is given, a convoy or protection holds);
:meth:`Resolver.resolve` guesses and checks, and a cycle with two or no consistent answers is handed to
the backup rule, which is injected (Szykman by default; Coast-Running's rule for that variant).

>>> from adjutant import load_variant
>>> from adjutant.adjudication.orders import Move, Unit
>>> v = load_variant("standard")
>>> a, b = Unit("france", "A", "par"), Unit("germany", "A", "mun")
>>> r = adjudicate_movement(v, {"par": a, "mun": b}, [Move(a, "bur"), Move(b, "bur")])
>>> [(str(x.unit), x.success, x.reason) for x in r.results]
[('A mun', False, 'bounced with A par'), ('A par', False, 'bounced with A mun')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, assert_never

from ..map.kinds import Season
from ..map.options import BACKUP_RULES as BACKUP_RULE_NAMES
from ..map.options import BackupRuleName
from ..map.routes import convoy_chain, run_ends, sea_route_exists
from ..map.variant import Variant, province_of
from .legality import check_order
from .orders import Convoy, Hold, Move, Protect, Research, Support, Unit, UnitOrder, format_order
from .phases import Dislodgement

#: a decision's state (DATC 5.E)
UNRESOLVED, GUESSING, RESOLVED = range(3)
_VOID_SUPPORT = "void: the supported unit was not ordered that way"


class OrderResult(NamedTuple):
    """What became of one unit's order in a movement phase."""

    unit: Unit
    order: UnitOrder
    success: bool
    reason: str = ""
    #: the order as written, when it was illegal and the unit held instead
    illegal: str = ""
    dislodged_by: Unit | None = None


@dataclass
class MovementOutcome:
    results: list[OrderResult]
    #: units on the board after the phase, by province
    units: dict[str, Unit]
    dislodged: list[Dislodgement]
    #: provinces left empty by a stand-off (no retreat there)
    contested: set[str] = field(default_factory=set)


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


#: The kinds of order, as the resolver tells them apart (anything else is adjudicated as a hold).
HOLD, MOVE, SUPPORT, CONVOY, PROTECT, RESEARCH = range(6)
_KIND: dict[type, int] = {
    Hold: HOLD, Move: MOVE, Support: SUPPORT, Convoy: CONVOY, Protect: PROTECT, Research: RESEARCH
}


class Checked(NamedTuple):
    """A movement order as the resolver reads it, worked out from the order and the position alone (a
    :class:`~adjutant.game.Game` works it out once, as the order is given)."""

    #: the order as adjudicated: a move's coast filled in, an illegal order made a hold
    order: UnitOrder
    #: why the order as written is illegal, or ""
    illegal: str
    kind: int
    #: the province a move goes to ("" for other orders)
    to: str
    #: the order as written, in its canonical text ("" for a unit given no order)
    text: str
    #: the unit, as results name it ("A par")
    unit: str
    #: the unit's power
    power: str
    #: a move ordered by convoy (or, for a fleet, as a coast run)
    via: bool
    #: a move across a weak passage, not by convoy (only its supports count; a convoy across the strait is an
    #: ordinary convoy, maps/loeb9.md W9)
    weak: bool
    #: the province of the unit a support, convoy or protection serves ("" for other orders)
    target: str
    #: the order as written (a hold for a unit given none)
    written: UnitOrder


def _row(order: UnitOrder, written: UnitOrder, text: str, illegal: str = "", weak: bool = False) -> Checked:
    """The :class:`Checked` row of an order as adjudicated."""
    u = order.unit
    to, via, target = "", False, ""
    if isinstance(order, Move):
        to, via = province_of(order.dest), order.via_convoy
    elif isinstance(order, (Support, Convoy, Protect)):
        target = order.target
    return Checked(
        order=order, illegal=illegal, kind=_KIND.get(type(order), HOLD), to=to, text=text,
        unit=f"{u.type} {u.location}", power=u.power, via=via, weak=weak, target=target, written=written,
    )


def checked_order(variant: Variant, order: UnitOrder, season: Season, units: Mapping[str, Unit]) -> Checked:
    """:func:`~adjutant.adjudication.legality.check_order`'s answer in the form the resolver reads. An army's move by
    convoy is also checked against the position: with no fleets where a convoy could be, it is illegal (DATC 6.D.32)."""
    adjudicated, why = check_order(variant, order, season)
    u = order.unit
    if not why and type(adjudicated) is Move and adjudicated.via_convoy and u.type == "A":
        why = _no_fleets_to_convoy(variant, adjudicated, season, units)
    if why:
        return _row(Hold(u), order, format_order(order), illegal=why)
    weak = (
        isinstance(adjudicated, Move)
        and not adjudicated.via_convoy
        and variant.edge_kind(u.province, adjudicated.dest) == "weak"
    )
    return _row(adjudicated, order, format_order(order), weak=weak)


def _no_fleets_to_convoy(variant: Variant, move: Move, season: Season, units: Mapping[str, Unit]) -> str:
    """Why an army's move by convoy cannot be carried by the units on the board (DATC 6.D.32: with no
    fleets where a convoy could be, the move is illegal and the army holds, and may be supported to hold;
    with fleets there it merely fails, 6.D.8), or ""."""
    src, dst = move.unit.province, province_of(move.dest)
    # the seas that convoy with a unit in them (a unit at sea is a fleet)
    fleet_seas = units.keys() & variant.sea_graph(season)[0].keys()
    if sea_route_exists(variant, src, dst, season, only=fleet_seas):
        return ""
    return f"no fleets stand where they could convoy {move.unit} to {variant.provinces[dst].name}"


def _holding(unit: Unit) -> Checked:
    """The row of a unit given no order."""
    return _row(Hold(unit), Hold(unit), "")


class Given(NamedTuple):
    """What a :class:`Resolver` was given, as given (for the orders as written, and a trial resolver)."""

    units: Mapping[str, Unit]
    strengths: dict[str, int]
    checks: Mapping[str, Checked]
    #: :class:`Checked` for each unit on the board, in province order
    rows: list[Checked]
    #: the variant's preparation before resolving, if any
    prepare: Callable[[Resolver], None] | None


class Resolver:
    """One movement phase, adjudicated as DATC 3.0 section 5 describes. Build it, then call :meth:`run`.

    Every unit's order has an index (the units' provinces in sorted order); what guessing and checking asks
    of an order (its kind, destination, the unit standing there, its supports) is in lists by that index."""

    __slots__ = (
        "v", "season", "backup", "given", "prov", "at", "orders", "illegal", "kind", "to", "text", "unit_text",
        "power", "targets", "convoyed", "weak", "k", "moves", "moves_to", "occupant", "opponent", "supports_of",
        "carriers_of", "void", "live", "voided", "deps", "reducing", "leads_of", "state", "result",
    )

    def __init__(
        self,
        variant: Variant,
        units: Mapping[str, Unit],
        orders: Iterable[UnitOrder],
        season: Season = "spring",
        backup: BackupRule = szykman,
        prepare: Callable[[Resolver], None] | None = None,
        strengths: Mapping[str, int] | None = None,
        checks: Mapping[str, Checked] | None = None,
    ) -> None:
        """``checks``, if given, holds :func:`checked_order`'s answer for each order, by the province of its
        unit, and ``orders`` is not read (a :class:`~adjutant.game.Game` checks each order as it is given,
        so it need not be checked again)."""
        self.v = variant
        self.season = season
        self.backup = backup
        if checks is None:
            checks = {o.unit.province: checked_order(variant, o, season, units) for o in orders}
        self.prov = provs = sorted(units)
        self.at = {p: i for i, p in enumerate(provs)}
        #: one row per unit on the board (an order given for no unit there is left out)
        rows = [checks.get(p) or _holding(units[p]) for p in provs]
        self.given = Given(units, dict(strengths or {}), checks, rows, prepare)
        # the rows' fields as columns, one list each (``zip`` transposes them in C: a third of the setup's time)
        columns = map(list, zip(*rows, strict=True)) if rows else ([] for _ in Checked._fields)
        orders_, illegal, kind, to, text, unit_text, power, via, weak, targets, _ = columns
        self.orders: list[UnitOrder] = orders_
        self.illegal: list[str] = illegal
        self.kind: list[int] = kind
        self.to: list[str] = to
        #: each order's canonical text ("" for a unit given none), its unit's ("A par"), its unit's power
        self.text: list[str] = text
        self.unit_text: list[str] = unit_text
        self.power: list[str] = power
        #: the province of the unit a support, convoy or protection serves
        self.targets: list[str] = targets
        #: moves that go by convoy (or coast run): ordered so, or found to below
        self.convoyed: list[bool] = via
        self.weak: list[bool] = weak
        #: each unit's own strength: 1, or more for Cluster Diplomacy's multiple units (rule 1)
        strength = self.given.strengths
        self.k = [strength.get(p, 1) for p in provs] if strength else [1] * len(provs)
        #: the moves, and the moves by destination province
        self.moves = [i for i, dest in enumerate(to) if dest]
        self.moves_to: dict[str, list[int]] = {}
        for i in self.moves:
            self.moves_to.setdefault(to[i], []).append(i)
        #: supports and carriers (convoys, protections) by the index of the order they serve; supports of
        #: an order not given (``void``: they give nothing) and the other supports and carriers (``live``)
        self.supports_of: dict[int, list[int]] = {}
        self.carriers_of: dict[int, list[int]] = {}
        self.void: list[int] = []
        self.live: list[int] = []
        for i, target in enumerate(self.targets):
            if not target:
                continue
            j = self.at.get(target)
            if self.kind[i] == SUPPORT:
                if j is not None and self._support_matches(i, j):
                    self.supports_of.setdefault(j, []).append(i)
                    self.live.append(i)
                else:
                    self.void.append(i)
                continue
            self.live.append(i)
            if j is not None and self._carrier_matches(i, j):
                self.carriers_of.setdefault(j, []).append(i)
        #: moves that the variant's rule made hold without effect (Coast-Running)
        self.voided: set[int] = set()
        if self.carriers_of:
            for i in self.moves:
                if not self.convoyed[i] and self._convoy_intended(i):
                    # by convoy, not across the weak passage it could also take (maps/loeb9.md W9)
                    self.convoyed[i], self.weak[i] = True, False
        self._check_routes()
        #: for each move, the order of the unit standing where it goes and its head-to-head opponent (-1: none)
        self.occupant: list[int] = []
        self.opponent: list[int] = []
        self._index_moves()
        self.deps: list[int] = []
        #: the multiple supports whose reduction (Cluster rule 4) is being worked out, innermost last, and
        #: which multiple supports each leads to (:meth:`_leads_to`), found when first needed
        self.reducing: list[int] = []
        self.leads_of: dict[int, list[int]] | None = None
        self.state: list[int] = []
        self.result: list[bool] = []
        self._start_states()

    @property
    def written(self) -> list[UnitOrder]:
        """The orders as written, one per unit on the board (a hold for a unit given none)."""
        return [row.written for row in self.given.rows]

    def _check_routes(self) -> None:
        """Make illegal (a hold) each convoyed move that no unit on the board could carry: a coast run with no
        chain of protecting armies, an army whose convoy was only implied with no fleets where a convoy
        could be (an army ordered by convoy was checked with its order, :func:`checked_order`). A run with no
        coast named to a province with coasts goes to the one coast its chain reaches (as an ordinary move
        goes to the only coast it could, DATC 4.B, 6.B.2); if it reaches both, it is illegal."""
        for i in [i for i in self.moves if self.convoyed[i]]:
            o = self.orders[i]
            assert isinstance(o, Move)
            if o.unit.type == "F":
                v = self.v
                ends = set(self._run_ends(i, lambda c: True))
                named = "/" in o.dest or not v.provinces[o.dest].coasts
                reached = [d for d in ([o.dest] if named else v.fleet_locations(o.dest)) if d in ends]
                to = v.province_name(o.dest)
                if not reached:
                    where = v.province_name(o.unit.location)
                    self._make_hold(i, f"no unbroken chain of protecting armies runs from {where} to {to}")
                elif len(reached) > 1:
                    self._make_hold(i, f"say which coast of {to} the run goes to ({', '.join(reached)})")
                elif not named:
                    self.orders[i] = Move(o.unit, reached[0], True)
                    self._match_void_supports(i)  # (a support naming that coast)
            elif not o.via_convoy:
                why = _no_fleets_to_convoy(self.v, o, self.season, self.given.units)
                if why:
                    self._make_hold(i, why)

    def _index_moves(self) -> None:
        """For each move, the order of the unit standing where it goes (-1: none) and its head-to-head
        opponent (-1: none; a move by convoy or across a weak passage meets no one head to head)."""
        n = len(self.orders)
        self.occupant = [-1] * n
        self.opponent = [-1] * n
        for i in self.moves:
            j = self.at.get(self.to[i], -1)
            self.occupant[i] = j
            if j >= 0 and self.to[j] == self.prov[i] and not (self._other_way(i) or self._other_way(j)):
                self.opponent[i] = j

    def _other_way(self, i: int) -> bool:
        """Whether move ``i`` goes by convoy or across a weak passage."""
        return self.convoyed[i] or self.weak[i]

    def _make_hold(self, i: int, why: str) -> None:
        """Make move ``i`` an illegal order, adjudicated as a hold, and match its supports again."""
        o = self.orders[i]
        self.illegal[i] = why
        self.moves_to[self.to[i]].remove(i)
        if not self.moves_to[self.to[i]]:
            del self.moves_to[self.to[i]]
        self.moves.remove(i)
        self.orders[i] = Hold(o.unit)
        self.kind[i] = HOLD
        self.to[i] = ""
        self.convoyed[i] = self.weak[i] = False
        for s in self.supports_of.pop(i, []):
            self.live.remove(s)
            self.void.append(s)
        self._match_void_supports(i)

    def _match_void_supports(self, i: int) -> None:
        """Give order ``i`` the supports, void until now, that match it as it stands."""
        for s in list(self.void):
            if self.targets[s] == self.prov[i] and self.kind[s] == SUPPORT and self._support_matches(s, i):
                self.void.remove(s)
                self.supports_of.setdefault(i, []).append(s)
                self.live.append(s)
        self.void.sort()
        self.live.sort()

    # --- matching (DATC 5.B: which orders a support, convoy or protection serves) -------------------
    def _support_matches(self, s: int, j: int) -> bool:
        """Whether support ``s`` is for the order unit ``j`` was given (a support naming a coast supports
        only a move to that coast)."""
        support, target = self.orders[s], self.orders[j]
        assert isinstance(support, Support)
        if support.target_type is not None and support.target_type != target.unit.type:
            return False
        dest = support.dest
        if dest is None:
            return self.kind[j] != MOVE
        if "/" not in dest:
            return self.to[j] == dest
        return self.to[j] == province_of(dest) and isinstance(target, Move) and target.dest == dest

    def _carrier_matches(self, c: int, j: int) -> bool:
        """Whether convoy or protection ``c`` is for the move unit ``j`` was given."""
        carrier, target = self.orders[c], self.orders[j]
        assert isinstance(carrier, (Convoy, Protect))
        if not isinstance(target, Move) or province_of(target.dest) != province_of(carrier.dest):
            return False
        if isinstance(carrier, Convoy):
            return target.unit.type == "A"
        # a fleet's move to a place it can reach directly is an ordinary move, not a coast run
        # (:func:`~adjutant.map.routes.is_run`): nothing to protect
        return target.unit.type == "F" and self.convoyed[j]

    def implied_convoys(self, carriers: Iterable[int]) -> list[int]:
        """Moves carried by these convoys that were not ordered 'via convoy' and could go overland."""
        out = []
        for c in carriers:
            j = self.at.get(self.targets[c])
            if j is None or not self.convoyed[j] or c not in self.carriers_of.get(j, ()):
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
        if m.unit.type != "A":
            return False
        route = None
        for c in self.carriers_of.get(i, ()):
            if self.kind[c] == CONVOY and self.power[c] == m.unit.power:
                route = route or self.v.convoy_route_seas(m.unit.province, province_of(m.dest), self.season)
                if self.prov[c] in route:
                    return True
        return False

    # --- guess and check (DATC 5.E, 5.F) -------------------------------------------------------------
    def settle(self, i: int, value: bool) -> None:
        self.result[i] = value
        self.state[i] = RESOLVED

    def resolve(self, i: int) -> bool:
        state, result, deps = self.state, self.result, self.deps
        now = state[i]
        if now == RESOLVED:
            return result[i]
        if now == GUESSING:
            # appended at every read, even if listed already: a decision resolved further down that reads
            # this guess must see the list grow, or it would be settled with the guessed value
            deps.append(i)
            return result[i]
        mark = len(deps)
        result[i] = False
        state[i] = GUESSING
        first = self.adjudicate(i)
        if len(deps) == mark:
            if state[i] != RESOLVED:
                result[i] = first
                state[i] = RESOLVED
            return result[i]
        if deps[mark] != i:
            # depends on a guess made further up: not ours to settle
            deps.append(i)
            result[i] = first
            return first
        for j in deps[mark:]:
            state[j] = UNRESOLVED
        del deps[mark:]
        result[i] = True
        state[i] = GUESSING
        second = self.adjudicate(i)
        if first == second:
            for j in deps[mark:]:
                state[j] = UNRESOLVED
            del deps[mark:]
            self.settle(i, first)
            return first
        cycle = list(dict.fromkeys(deps[mark:]))
        if i not in cycle:
            cycle.insert(0, i)
        for j in cycle:
            state[j] = UNRESOLVED
        del deps[mark:]
        self.backup(self, cycle)
        return self.resolve(i)

    def adjudicate(self, i: int) -> bool:
        """The decision of order ``i`` from the others' (DATC 5.B)."""
        kind = self.kind[i]
        if kind == MOVE:
            return self._move_succeeds(i)
        if kind == SUPPORT:
            return self._support_given(i)
        if kind in (CONVOY, PROTECT):
            return not self._dislodged(self.prov[i])
        return True

    def _run_ends(self, i: int, holds: Callable[[int], bool]) -> Iterator[str]:
        """Coast-Running: where the fleet of move ``i`` may end a run along the coasts of provinces whose
        armies protect it (those for which ``holds`` is true), in search order (:func:`~adjutant.map.routes.run_ends`:
        each step goes along a shared coastline, so a run cannot cross a province between two of its coasts)."""
        guards = {self.prov[c]: c for c in self.carriers_of.get(i, ())}
        return run_ends(self.v, self.orders[i].unit.location, guards, lambda p: holds(guards[p]))

    # --- the rules of DATC 5.B ----------------------------------------------------------------------
    def _path(self, i: int) -> bool:
        """Whether move ``i`` has its path: over land, or a chain of carriers that are not dislodged."""
        if i in self.voided:
            return False
        if not self.convoyed[i]:
            return True
        carriers = self.carriers_of.get(i)
        if not carriers:
            return False  # no unit was ordered to carry it
        o = self.orders[i]
        assert isinstance(o, Move)
        # the 1971 reading of an ambiguous route: every unit ordered to carry must survive
        if self.v.options.any_carrier_disrupts and not all([self.resolve(c) for c in carriers]):
            return False
        if o.unit.type == "F":
            return o.dest in self._run_ends(i, self.resolve)
        # a chain of the carrying fleets that hold, from a sea by the army to a sea by its destination
        fleets = {self.prov[c]: c for c in carriers}
        return convoy_chain(self.v, self.season, self.prov[i], self.to[i], fleets, lambda s: self.resolve(fleets[s]))

    def _support_count(self, i: int, exclude_power: str | None = None) -> int:
        """The strength the supports of order ``i`` give it (those of ``exclude_power`` left out)."""
        n = 0
        for s in self.supports_of.get(i, ()):
            if exclude_power is not None and self.power[s] == exclude_power:
                continue
            if self.k[s] != 1:
                if not self._in_circle_with_reduced(s):
                    n += self._support_value(s)
            elif self.resolve(s):
                n += 1
        return n

    def _support_value(self, s: int) -> int:
        """Cluster rule 4: a multiple unit's support is reduced by the strength of the strongest attack
        on it (one that would cut an ordinary support), not cut; nothing if it is dislodged."""
        if self._dislodged(self.prov[s]):
            return 0
        self.reducing.append(s)
        try:
            attacks = [self._attack_strength(j) for j in self._cutters(s) if self._cuts(j)]
        finally:
            self.reducing.pop()
        return max(0, self.k[s] - max(attacks, default=0))

    def _in_circle_with_reduced(self, s: int) -> bool:
        """Whether multiple support ``s`` is in a circle of multiple supports that reduce one another
        (each gives to an attack on the next) with the support whose reduction is being worked out: such
        a support adds nothing to that attack (maps/cluster.md, "Rule 4 in a circle")."""
        if not self.reducing:
            return False
        top = self.reducing[-1]
        return self._leads_to(s, top) and self._leads_to(top, s)

    def _leads_to(self, start: int, goal: int) -> bool:
        """Whether multiple support ``start`` leads to ``goal`` (reaches it or itself, for ``goal ==
        start``): each support leads to the multiple supports given to a move that would reduce it."""
        if self.leads_of is None:
            multiple = [s for s in self.live if self.kind[s] == SUPPORT and self.k[s] != 1]
            self.leads_of = {
                s: [t for j in self._cutters(s) for t in self.supports_of.get(j, ()) if self.k[t] != 1]
                for s in multiple
            }
        leads, seen, todo = self.leads_of, set(), list(self.leads_of.get(start, ()))
        while todo:
            t = todo.pop()
            if t == goal:
                return True
            if t not in seen:
                seen.add(t)
                todo += leads.get(t, ())
        return False

    def _base(self, i: int) -> int:
        """A unit's own strength (one, or a Cluster multiple), or none across a weak passage (only its
        supports count)."""
        return 0 if self.weak[i] else self.k[i]

    def _hold_strength(self, prov: str) -> int:
        j = self.at.get(prov)
        if j is None:
            return 0
        if self.to[j]:
            return 0 if self.resolve(j) else self.k[j]
        # a researching unit stands one weaker (Cluster rule 5.1)
        own = self.k[j] - 1 if self.kind[j] == RESEARCH else self.k[j]
        return own + self._support_count(j)

    def _attack_strength(self, i: int) -> int:
        if not self._path(i):
            return 0
        j = self.occupant[i]
        if j < 0 or (self.to[j] and self.opponent[i] < 0 and self.resolve(j)):
            return self._defend_strength(i)
        defender = self.power[j]
        if defender == self.power[i]:
            return 0
        return self._base(i) + self._support_count(i, exclude_power=defender)

    def _defend_strength(self, i: int) -> int:
        """The unit's own strength and all its supports'; also the attack strength of a move with no one to
        dislodge, and the prevent strength of a move that has its path and meets no one head to head."""
        return self._base(i) + self._support_count(i)

    def _prevent_strength(self, i: int) -> int:
        if not self._path(i):
            return 0
        h2h = self.opponent[i]
        if h2h >= 0 and self.resolve(h2h):
            return 0
        return self._defend_strength(i)

    def _move_succeeds(self, i: int) -> bool:
        attack = self._attack_strength(i)
        if attack == 0:
            return False
        h2h = self.opponent[i]
        if h2h >= 0:
            if attack <= self._defend_strength(h2h):
                return False
        elif attack <= self._hold_strength(self.to[i]):
            return False
        return all(attack > self._prevent_strength(j) for j in self.moves_to[self.to[i]] if j != i)

    def _cutters(self, i: int) -> list[int]:
        """Moves that would cut support ``i`` if they are valid attacks."""
        s = self.orders[i]
        assert isinstance(s, Support)
        against = province_of(s.dest) if s.dest is not None else None
        power = self.power[i]
        return [j for j in self.moves_to.get(self.prov[i], ()) if self.power[j] != power and self.prov[j] != against]

    def _cuts(self, j: int) -> bool:
        """Whether an attack is real enough to cut a support: it has its path, and a move across a weak
        passage only with support behind it."""
        return self._path(j) and (not self.weak[j] or self._support_count(j) > 0)

    def _support_given(self, i: int) -> bool:
        if self.k[i] != 1:
            return self._support_value(i) > 0
        if any(self._cuts(j) for j in self._cutters(i)):
            return False
        return not self._dislodged(self.prov[i])

    def _dislodged(self, prov: str) -> bool:
        j = self.at.get(prov)
        if j is not None and self.to[j] and self.resolve(j):
            return False
        return any(self.resolve(m) for m in self.moves_to.get(prov, ()))

    # --- decisions that need no guess --------------------------------------------------------------
    def _unopposed(self, i: int) -> bool:
        """Move ``i`` succeeds whatever else is decided: over land, unsupported, with its own strength, into
        a province no unit stands in and no other unit goes to."""
        return (
            self.occupant[i] < 0
            and len(self.moves_to[self.to[i]]) == 1
            and not self.convoyed[i]
            and not self.weak[i]
            and self.k[i] > 0
            and i not in self.supports_of
            and i not in self.voided
        )

    def _unattacked(self, i: int) -> bool:
        """Support, convoy or protection ``i`` is given (holds) whatever else is decided: no unit moves into
        its province, so it is neither cut nor dislodged."""
        return self.prov[i] not in self.moves_to

    # --- running -----------------------------------------------------------------------------------
    def run(self) -> MovementOutcome:
        self.decide()
        units, dislodged, contested, success, reasons, attackers = self.tally()
        columns = zip(self.orders, self.written, success, reasons, self.illegal, attackers, strict=True)
        results = [OrderResult(o.unit, w, ok, why, bad, by) for o, w, ok, why, bad, by in columns]
        return MovementOutcome(results, units, dislodged, contested)

    def decide(self) -> None:
        """Resolve every order, from the start again whenever the backup rule changes how a move is made."""
        if self.given.prepare is not None:
            self.given.prepare(self)
            self._start_states()  # (the preparation may void moves)
        while True:
            try:
                for i in range(len(self.orders)):
                    if self.state[i] != RESOLVED:
                        self.resolve(i)
            except _Restart:
                self.deps = []
                self._index_moves()
                self._start_states()
                continue
            return

    def _start_states(self) -> None:
        """Every decision as before any is guessed: the moves and the supports and carriers are to decide,
        but for those settled without a guess (:meth:`_unopposed`, :meth:`_unattacked`); an order that is no
        decision (a hold, research, a support of an order not given) stands settled by :meth:`adjudicate`'s
        rule for it."""
        n = len(self.orders)
        self.state = [RESOLVED] * n
        self.result = [True] * n
        for i in self.void:
            self.result[i] = False
        for i in self.moves:
            if not self._unopposed(i):
                self.state[i] = UNRESOLVED
        for i in self.live:
            if not self._unattacked(i):
                self.state[i] = UNRESOLVED

    def go_overland(self, moves: Iterable[int]) -> None:
        """Take back a convoy that was only implied: the armies move over land, and adjudication starts
        again (DATC 6.G.11)."""
        for i in moves:
            self.convoyed[i], self.weak[i] = False, self.given.rows[i].weak
        raise _Restart

    def tally(
        self,
    ) -> tuple[dict[str, Unit], list[Dislodgement], set[str], list[bool], list[str], list[Unit | None]]:
        """After :meth:`decide`: the units on the board, the dislodged units, the provinces left empty by a
        stand-off, and for each order whether it succeeded, why not, and the unit that dislodged its own."""
        winner_into = {self.to[i]: i for i in self.moves if self.result[i]}
        contested = set()
        for prov, movers in self.moves_to.items():
            if prov not in winner_into and any(self._prevent_strength(m) > 0 for m in movers):
                contested.add(prov)
        units = dict(self.given.units)
        for i in winner_into.values():
            del units[self.prov[i]]
        for i in winner_into.values():
            move = self.orders[i]
            assert isinstance(move, Move)
            units[self.to[i]] = Unit(move.unit.power, move.unit.type, move.dest)
        attackers: list[Unit | None] = [None] * len(self.orders)
        dislodged: list[Dislodgement] = []
        for w in winner_into.values():
            j = self.occupant[w]
            if j >= 0 and not (self.kind[j] == MOVE and self.result[j]):
                by = attackers[j] = self.orders[w].unit
                dislodged.append(Dislodgement(self.orders[j].unit, None if self.convoyed[w] else by.province, by))
        dislodged.sort(key=lambda d: d.unit.province)
        verdicts = [self._verdict(i, by) for i, by in enumerate(attackers)]
        success = [ok for ok, _ in verdicts]
        reasons = [why for _, why in verdicts]
        return units, dislodged, contested, success, reasons, attackers

    def _bounced(self, i: int) -> str:
        """Why a move that had its path failed: the unit it may not dislodge, or whom it bounced with."""
        j = self.occupant[i]
        power, text = self.power, self.unit_text
        if j >= 0 and power[j] == power[i] and self._attack_strength(i) == 0:
            return f"may not dislodge own unit {text[j]}"
        movers = self.moves_to[self.to[i]]
        # the unit that stayed where it went, then the other units that went there
        rivals = [text[m] for m in movers if m != i]
        if j >= 0 and not (self.kind[j] == MOVE and self.result[j]):
            rivals.insert(0, text[j])
        return "bounced with " + ", ".join(rivals) if rivals else "bounced"

    def _verdict(self, i: int, by: Unit | None) -> tuple[bool, str]:
        """Whether the order succeeded, and why not: bounced with whom, cut by whom, dislodged by whom."""
        kind, result = self.kind[i], self.result[i]
        hit = f"dislodged by {by}" if by is not None else ""
        tail = ", " + hit if hit else ""
        if self.illegal[i]:
            return False, f"illegal: {self.illegal[i]}" + tail
        if kind == MOVE:
            if result:
                return True, ""
            if i in self.voided:
                return False, "the attack may not affect its own convoy or protection: it does not take place" + tail
            if self.convoyed[i] and not self._path(i):
                how = "convoy" if self.orders[i].unit.type == "A" else "protected coast"
                return False, f"no {how} path" + tail
            return False, self._bounced(i) + tail
        if kind == SUPPORT:
            j = self.at.get(self.targets[i])
            if j is not None and self.illegal[j]:
                return False, f"void: the supported unit's order is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.supports_of.get(j, ()):
                return False, _VOID_SUPPORT + tail
            if result:
                return True, hit
            cut = [self.unit_text[c] for c in self._cutters(i) if self._cuts(c)]
            return False, (f"cut by {', '.join(cut)}" + tail) if cut else hit
        if kind in (CONVOY, PROTECT):
            j = self.at.get(self.targets[i])
            what = "the convoyed army" if kind == CONVOY else "the protected fleet"
            if j is not None and self.illegal[j]:
                return False, f"void: {what}'s move is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.carriers_of.get(j, ()):
                return False, f"void: {what} was not ordered that way" + tail
            if result:
                return True, ""
            return False, hit or "the convoy fails (paradox)"
        return by is None, hit


def carried_attacks_spare_their_carriers(resolver: Resolver) -> None:
    """Coast-Running: "a convoyed attack may not affect the convoying fleets" (and a coast run may not
    affect its protecting armies). A carried move whose attack would change the outcome of an attack on
    any unit carrying it does not take place: the unit holds, with no effect anywhere.

    The rule is decided for all carried moves at once, so that no move's fate hangs on the names of the
    provinces: in each round every carried move not yet void is tried against the same position (the moves
    voided in the rounds before), and those that would affect a carrier are voided together; rounds go on
    until one voids nothing."""
    carried = [
        i
        for i, o in enumerate(resolver.orders)
        if isinstance(o, Move) and resolver.convoyed[i] and resolver.carriers_of.get(i)
    ]
    if not carried:
        return
    carriers = {i: sorted(resolver.orders[c].unit.province for c in resolver.carriers_of[i]) for i in carried}
    watched = sorted({p for provinces in carriers.values() for p in provinces})
    voided: set[int] = set()
    while True:
        baseline = _carrier_fates(resolver, voided, watched)
        newly = {
            i
            for i in carried
            if i not in voided
            and any(baseline[p] != fate for p, fate in _carrier_fates(resolver, voided | {i}, carriers[i]).items())
        }
        if not newly:
            break
        voided |= newly
    resolver.voided = voided


def _carrier_fates(resolver: Resolver, voided: set[int], watch: list[str]) -> dict[str, str | None]:
    """For each province in ``watch``: where the attack that dislodges its unit comes from (None: the unit
    is not dislodged), in a trial of the phase with the ``voided`` carried moves not taking place."""
    trial = Resolver(
        resolver.v,
        resolver.given.units,
        (),
        resolver.season,
        resolver.backup,
        strengths=resolver.given.strengths,
        checks=resolver.given.checks,
    )
    trial.voided = set(voided)
    out = trial.run()
    hit = {d.unit.province: d.attacker.province for d in out.dislodged}
    return {p: hit.get(p) for p in watch}


def adjudicate_movement(
    variant: Variant,
    units: Mapping[str, Unit],
    orders: Iterable[UnitOrder],
    season: Season = "spring",
    backup: BackupRule | None = None,
    strengths: Mapping[str, int] | None = None,
    checks: Mapping[str, Checked] | None = None,
) -> MovementOutcome:
    """Resolve a movement phase. Units without orders hold; illegal orders become holds. ``strengths``
    gives units other than one their own strength, by province (Cluster Diplomacy's multiple units).
    ``checks``, if given, holds :func:`checked_order`'s answer for each order, by its unit's province."""
    return movement_resolver(variant, units, orders, season, backup, strengths, checks).run()


def movement_resolver(
    variant: Variant,
    units: Mapping[str, Unit],
    orders: Iterable[UnitOrder],
    season: Season = "spring",
    backup: BackupRule | None = None,
    strengths: Mapping[str, int] | None = None,
    checks: Mapping[str, Checked] | None = None,
) -> Resolver:
    """The resolver :func:`adjudicate_movement` runs, with the variant's backup rule, for a caller that
    reads the outcome itself (:meth:`Resolver.decide`, then :meth:`Resolver.tally`)."""
    rule = BACKUP_RULES[variant.options.backup_rule]
    return Resolver(variant, units, orders, season, backup or rule[0], rule[1], strengths, checks)


def backup_rule(name: BackupRuleName) -> tuple[BackupRule, Callable[[Resolver], None] | None]:
    """What the backup rule a variant names does: (paradox rule, preparation before resolving)."""
    if name == "szykman":
        return szykman, None
    if name == "coast_running":
        return szykman, carried_attacks_spare_their_carriers
    assert_never(name)


#: Each backup rule a variant may name (:data:`adjutant.map.options.BACKUP_RULES`), by its name.
BACKUP_RULES = {name: backup_rule(name) for name in BACKUP_RULE_NAMES}
