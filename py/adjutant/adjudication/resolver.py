"""Movement adjudication: Kruijswijk's guess-and-check algorithm (DATC section 5).

Every order is a decision (a move succeeds, a support is given, a convoy or protection holds);
:meth:`Resolver.resolve` guesses and checks, and a cycle with two or no consistent answers is handed to
the backup rule. What a variant changes (which units carry which moves, a carried move's path, the
moves that do not take place, the backup rule) the resolver asks the variant's hooks
(:mod:`.hooks`), which the variants' registry names.

>>> from adjutant import load_variant
>>> from adjutant.adjudication.orders import Move, Unit
>>> v = load_variant("standard")
>>> a, b = Unit("france", "A", "par"), Unit("germany", "A", "mun")
>>> r = adjudicate_movement(v, {"par": a, "mun": b}, [Move(a, "bur"), Move(b, "bur")])
>>> [(str(x.unit), x.success, x.reason) for x in r.results]
[('A mun', False, 'bounced with A par'), ('A par', False, 'bounced with A mun')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..map.kinds import Season
from ..map.routes import sea_route_exists
from ..map.variant import Variant, province_of
from .hooks import AdjudicationHooks, SupportRule, rules_of
from .legality import check_order
from .orders import CARRIERS, Convoy, Hold, Move, Support, Unit, UnitOrder, format_order
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


class _Restart(Exception):
    """Adjudication must start again because the backup rule changed how a move is made."""


# --- the resolver ---------------------------------------------------------------------------------


#: The kinds of order, as the resolver tells them apart (anything else is adjudicated as a hold): a carry
#: is any of :data:`~.orders.CARRIERS` (a convoy; Coast-Running's protection of a run).
#: An order of a kind the classic rules do not have (Cluster's research, transfer, mattermission) is its
#: variant's own: adjudicated as a hold, with the strength the variant's rules give it
#: (:meth:`~.hooks.AdjudicationHooks.standing_strength`).
HOLD, MOVE, SUPPORT, CARRY, OWN = range(5)
_KIND: dict[type, int] = {Hold: HOLD, Move: MOVE, Support: SUPPORT} | dict.fromkeys(CARRIERS, CARRY)
#: the orders that serve another unit's
_SERVING = (Support, *CARRIERS)


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
    elif isinstance(order, _SERVING):
        target = order.target
    return Checked(
        order=order, illegal=illegal, kind=_KIND.get(type(order), OWN), to=to, text=text,
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


class Resolver:
    """One movement phase, adjudicated as DATC 3.0 section 5 describes. Build it, then call :meth:`run`.

    Every unit's order has an index (the units' provinces in sorted order); what guessing and checking asks
    of an order (its kind, destination, the unit standing there, its supports) is in lists by that index."""

    __slots__ = (
        "v", "season", "rules", "given", "prov", "at", "orders", "illegal", "kind", "to", "text", "unit_text",
        "power", "targets", "convoyed", "weak", "k", "moves", "moves_to", "occupant", "opponent", "supports_of",
        "carriers_of", "void", "live", "voided", "voids_decided", "deps", "stand", "strong", "state", "result",
    )

    def __init__(
        self,
        variant: Variant,
        units: Mapping[str, Unit],
        orders: Iterable[UnitOrder],
        season: Season = "spring",
        rules: AdjudicationHooks | None = None,
        strengths: Mapping[str, int] | None = None,
        checks: Mapping[str, Checked] | None = None,
    ) -> None:
        """``rules``: the variant's hooks (None: those the registry names, :func:`~.hooks.rules_of`).
        ``checks``, if given, holds :func:`checked_order`'s answer for each order, by the province of its
        unit, and ``orders`` is not read (a :class:`~adjutant.game.Game` checks each order as it is given,
        so it need not be checked again)."""
        self.v = variant
        self.season = season
        self.rules = rules or rules_of(variant)
        if checks is None:
            checks = {o.unit.province: checked_order(variant, o, season, units) for o in orders}
        self.prov = provs = sorted(units)
        self.at = {p: i for i, p in enumerate(provs)}
        #: one row per unit on the board (an order given for no unit there is left out)
        rows = [checks.get(p) or _holding(units[p]) for p in provs]
        self.given = Given(units, dict(strengths or {}), checks, rows)
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
        #: each unit's own strength: one, or as given (Cluster Diplomacy's multiple units, rule 1)
        strength = self.given.strengths
        self.k = [strength.get(p, 1) for p in provs] if strength else [1] * len(provs)
        #: the strength each unit stands with (without supports): its own, or as the variant's rules give
        #: a unit given an order of the variant's own kind
        self.stand = list(self.k)
        if OWN in kind:
            for i, k in enumerate(kind):
                if k == OWN:
                    self.stand[i] = self.rules.standing_strength(orders_[i], self.k[i])
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
        #: moves that the variant's rules make hold without effect (:meth:`~.hooks.AdjudicationHooks.voided_moves`)
        self.voided: set[int] = set()
        #: whether :attr:`voided` is decided (a trial of the phase is given it)
        self.voids_decided = False
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
        #: the variant's rule for the supports of units of strength other than one (None: there are none)
        self.strong: SupportRule | None = None
        if strength and any(k != 1 for k in self.k):
            self.strong = self.rules.support_rule(self, self.resolve)
        self.state: list[int] = []
        self.result: list[bool] = []
        self._start_states()

    @property
    def written(self) -> list[UnitOrder]:
        """The orders as written, one per unit on the board (a hold for a unit given none)."""
        return [row.written for row in self.given.rows]

    def _check_routes(self) -> None:
        """Make illegal (a hold) each carried move that no unit on the board could carry: a fleet's that the
        variant's rules say its carriers cannot carry (:meth:`~.hooks.AdjudicationHooks.carried_fleet`,
        which may fill in its coast), an army whose convoy was only implied with no fleets where a convoy
        could be (an army ordered by convoy was checked with its order, :func:`checked_order`)."""
        for i in [i for i in self.moves if self.convoyed[i]]:
            o = self.orders[i]
            assert isinstance(o, Move)
            if o.unit.type == "F":
                carriers = [self.prov[c] for c in self.carriers_of.get(i, ())]
                move, why = self.rules.carried_fleet(self.v, o, carriers)
                if move is None:
                    self._make_hold(i, why)
                elif move != o:
                    self.orders[i] = move
                    self._match_void_supports(i)  # (a support naming its coast)
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
        """Whether carrier ``c`` (a convoy or another of :data:`~.orders.CARRIERS`) is for the move unit
        ``j`` was given: one to the same province that the variant's rules let it carry."""
        carrier, target = self.orders[c], self.orders[j]
        assert isinstance(carrier, CARRIERS)
        if not isinstance(target, Move) or province_of(target.dest) != province_of(carrier.dest):
            return False
        return self.rules.carries(carrier, target, self.convoyed[j])

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
            if isinstance(self.orders[c], Convoy) and self.power[c] == m.unit.power:
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
        self.rules.backup(self, cycle)
        return self.resolve(i)

    def adjudicate(self, i: int) -> bool:
        """The decision of order ``i`` from the others' (DATC 5.B)."""
        kind = self.kind[i]
        if kind == MOVE:
            return self._move_succeeds(i)
        if kind == SUPPORT:
            return self._support_given(i)
        if kind == CARRY:
            return not self.dislodged(self.prov[i])
        return True

    # --- the rules of DATC 5.B ----------------------------------------------------------------------
    def _path(self, i: int) -> bool:
        """Whether move ``i`` has its path: over land, or carried by carriers that are not dislodged (the
        variant's rules say which carry it, :meth:`~.hooks.AdjudicationHooks.carried_path`)."""
        if i in self.voided:
            return False
        if not self.convoyed[i]:
            return True
        carriers = self.carriers_of.get(i)
        if not carriers:
            return False  # no unit was ordered to carry it
        o = self.orders[i]
        assert isinstance(o, Move)
        return self.rules.carried_path(self.v, self.season, o, {self.prov[c]: c for c in carriers}, self.resolve)

    def _support_count(self, i: int, exclude_power: str | None = None) -> int:
        """The strength the supports of order ``i`` give it (those of ``exclude_power`` left out): one for
        each support given by a unit of strength one, and what the variant's rule gives the others'."""
        n = 0
        for s in self.supports_of.get(i, ()):
            if exclude_power is not None and self.power[s] == exclude_power:
                continue
            if self.k[s] != 1:
                assert self.strong is not None
                n += self.strong.strength(s)
            elif self.resolve(s):
                n += 1
        return n

    def _base(self, i: int) -> int:
        """A unit's own strength, or none across a weak passage (only its supports count)."""
        return 0 if self.weak[i] else self.k[i]

    def _hold_strength(self, prov: str) -> int:
        j = self.at.get(prov)
        if j is None:
            return 0
        if self.to[j]:
            return 0 if self.resolve(j) else self.k[j]
        return self.stand[j] + self._support_count(j)

    def attack_strength(self, i: int) -> int:
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
        attack = self.attack_strength(i)
        if attack == 0:
            return False
        h2h = self.opponent[i]
        if h2h >= 0:
            if attack <= self._defend_strength(h2h):
                return False
        elif attack <= self._hold_strength(self.to[i]):
            return False
        return all(attack > self._prevent_strength(j) for j in self.moves_to[self.to[i]] if j != i)

    def cutters(self, i: int) -> list[int]:
        """Moves that would cut support ``i`` if they are valid attacks."""
        s = self.orders[i]
        assert isinstance(s, Support)
        against = province_of(s.dest) if s.dest is not None else None
        power = self.power[i]
        return [j for j in self.moves_to.get(self.prov[i], ()) if self.power[j] != power and self.prov[j] != against]

    def cuts(self, j: int) -> bool:
        """Whether an attack is real enough to cut a support: it has its path, and a move across a weak
        passage only with support behind it."""
        return self._path(j) and (not self.weak[j] or self._support_count(j) > 0)

    def _support_given(self, i: int) -> bool:
        if self.k[i] != 1:
            assert self.strong is not None
            return self.strong.given(i)
        if any(self.cuts(j) for j in self.cutters(i)):
            return False
        return not self.dislodged(self.prov[i])

    def dislodged(self, prov: str) -> bool:
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
        if self._void_carried_moves():
            self._start_states()
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

    def _void_carried_moves(self) -> bool:
        """Void the carried moves the variant's rules say do not take place
        (:meth:`~.hooks.AdjudicationHooks.voided_moves`); whether any was."""
        if self.voids_decided or not self.carriers_of:
            return False
        self.voids_decided = True
        carried = {
            i: sorted(self.prov[c] for c in self.carriers_of[i])
            for i in self.moves
            if self.convoyed[i] and self.carriers_of.get(i)
        }
        if not carried:
            return False
        self.voided = set(self.rules.voided_moves(self.v, carried, self._carrier_fates))
        return bool(self.voided)

    def _carrier_fates(self, voided: frozenset[int], watch: Sequence[str]) -> dict[str, str | None]:
        """For each province in ``watch``: where the attack that dislodges its unit comes from (None: the unit
        is not dislodged), in a trial of the phase with the ``voided`` carried moves not taking place."""
        given = self.given
        trial = Resolver(self.v, given.units, (), self.season, self.rules, given.strengths, given.checks)
        trial.voided, trial.voids_decided = set(voided), True
        out = trial.run()
        hit = {d.unit.province: d.attacker.province for d in out.dislodged}
        return {p: hit.get(p) for p in watch}

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
        if j >= 0 and power[j] == power[i] and self.attack_strength(i) == 0:
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
                return False, f"no {self.rules.path_name(self.orders[i].unit.type)} path" + tail
            return False, self._bounced(i) + tail
        if kind == SUPPORT:
            j = self.at.get(self.targets[i])
            if j is not None and self.illegal[j]:
                return False, f"void: the supported unit's order is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.supports_of.get(j, ()):
                return False, _VOID_SUPPORT + tail
            if result:
                return True, hit
            cut = [self.unit_text[c] for c in self.cutters(i) if self.cuts(c)]
            return False, (f"cut by {', '.join(cut)}" + tail) if cut else hit
        if kind == CARRY:
            j = self.at.get(self.targets[i])
            what = self.rules.carried_name(self.orders[i])
            if j is not None and self.illegal[j]:
                return False, f"void: {what}'s move is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.carriers_of.get(j, ()):
                return False, f"void: {what} was not ordered that way" + tail
            if result:
                return True, ""
            return False, hit or "the convoy fails (paradox)"
        return by is None, hit


def adjudicate_movement(
    variant: Variant,
    units: Mapping[str, Unit],
    orders: Iterable[UnitOrder],
    season: Season = "spring",
    strengths: Mapping[str, int] | None = None,
    checks: Mapping[str, Checked] | None = None,
) -> MovementOutcome:
    """Resolve a movement phase. Units without orders hold; illegal orders become holds. ``strengths``
    gives units other than one their own strength, by province (Cluster Diplomacy's multiple units).
    ``checks``, if given, holds :func:`checked_order`'s answer for each order, by its unit's province."""
    return movement_resolver(variant, units, orders, season, strengths, checks).run()


def movement_resolver(
    variant: Variant,
    units: Mapping[str, Unit],
    orders: Iterable[UnitOrder],
    season: Season = "spring",
    strengths: Mapping[str, int] | None = None,
    checks: Mapping[str, Checked] | None = None,
) -> Resolver:
    """The resolver :func:`adjudicate_movement` runs, with the variant's hooks, for a caller that reads the
    outcome itself (:meth:`Resolver.decide`, then :meth:`Resolver.tally`)."""
    return Resolver(variant, units, orders, season, rules_of(variant), strengths, checks)
