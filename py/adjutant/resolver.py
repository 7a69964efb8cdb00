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
from itertools import compress
from typing import NamedTuple

from .orders import Convoy, Hold, Move, Protect, Research, Support, Unit, UnitOrder, format_order
from .variant import Variant, province_of

#: a decision's state (a settled one is falsy: the orders still to decide are found by truth)
RESOLVED, UNRESOLVED, GUESSING = 0, 1, 2
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
    if province in variant.closed_in(season) or not variant.reaches(unit.type, unit.location, province):
        return False
    return unit.type != "A" or variant.edge_kind(unit.location, province) != "weak"


def sea_route_exists(variant: Variant, src: str, dst: str, season: str, only: set[str] | None = None) -> bool:
    """Whether some chain of seas (of the seas in ``only``, if given) joins two coastal provinces."""
    graph, shore = variant.sea_graph(season)
    goal = shore.get(dst)
    if not goal:
        return False
    starts = shore.get(src, frozenset())
    if only is not None:
        starts = starts & only
    seen = set(starts)
    todo = list(seen)
    while todo:
        s = todo.pop()
        if s in goal:
            return True
        for n in graph[s]:
            if n not in seen and (only is None or n in only):
                seen.add(n)
                todo.append(n)
    return False


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
        closed = variant.closed_in(season)
        if order.unit.province in closed:
            return order, f"a unit in {variant.provinces[order.unit.province].name} can only hold in {season}"
        assert isinstance(order, Move)
        u = order.unit
        if (
            not order.via_convoy
            and variant.can_move(u.type, u.location, order.dest)
            and province_of(order.dest) not in closed
        ):
            return order, ""  # the common case (to a place next door, its coast named if it has coasts)
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


#: The kinds of order, as the resolver tells them apart (anything else is adjudicated as a hold).
HOLD, MOVE, SUPPORT, CONVOY, PROTECT, RESEARCH = range(6)
_KIND: dict[type, int] = {
    Hold: HOLD, Move: MOVE, Support: SUPPORT, Convoy: CONVOY, Protect: PROTECT, Research: RESEARCH
}


class Checked(NamedTuple):
    """A movement order as the resolver reads it, worked out from the order and the position alone (a
    :class:`~adjutant.game.Game` works it out once, as the order is given). The resolver reads the fields
    before ``written`` as columns (:class:`Resolver`); the last two it reads from the row."""

    #: the order as adjudicated: a move's coast filled in, an illegal order made a hold
    order: UnitOrder
    #: why the order as written is illegal, or ""
    illegal: str
    kind: int
    #: the province a move goes to (None for other orders)
    to: str | None
    #: the order as written, in its canonical text ("" for a unit given no order)
    text: str
    #: the unit, as results name it ("A par")
    unit: str
    #: the unit's power
    power: str
    #: a move ordered by convoy (or, for a fleet, as a coast run)
    via: bool
    #: a move across a weak passage (only its supports count)
    weak: bool
    #: the province of the unit a support, convoy or protection serves (None for other orders)
    target: str | None
    #: the order as written (a hold for a unit given none)
    written: UnitOrder
    #: the unit where a successful move puts it
    moved: Unit | None


def checked_order(variant: Variant, order: UnitOrder, season: str, units: Mapping[str, Unit]) -> Checked:
    """:func:`check_order`'s answer in the form the resolver reads. An army's move by convoy is also
    checked against the position: with no fleets where a convoy could be, it is illegal (DATC 6.D.32)."""
    adjudicated, why = check_order(variant, order, season)
    u = order.unit
    text, unit = format_order(order), f"{u.type} {u.location}"
    if not why and type(adjudicated) is Move and adjudicated.via_convoy and u.type == "A":
        why = _no_fleets_to_convoy(variant, adjudicated, season, units)
    if why:
        return Checked(Hold(u), why, HOLD, None, text, unit, u.power, False, False, None, order, None)
    if isinstance(adjudicated, Move):
        dest = adjudicated.dest
        to = province_of(dest)
        weak = bool(variant._pair_kinds) and variant._pair_kinds.get((u.province, to)) == "weak"
        moved = Unit(u.power, u.type, dest)
        return Checked(adjudicated, "", MOVE, to, text, unit, u.power, adjudicated.via_convoy, weak, None, order, moved)
    kind = _KIND.get(type(adjudicated), HOLD)
    target = adjudicated.target if isinstance(adjudicated, (Support, Convoy, Protect)) else None
    return Checked(adjudicated, "", kind, None, text, unit, u.power, False, False, target, order, None)


def _no_fleets_to_convoy(variant: Variant, move: Move, season: str, units: Mapping[str, Unit]) -> str:
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
    hold = Hold(unit)
    return Checked(hold, "", HOLD, None, "", f"{unit.type} {unit.location}", unit.power, False, False, None, hold, None)


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
    """One movement phase. Build it, then call :meth:`run`.

    Orders are indexed by the sorted provinces of their units, and what guessing and checking asks of an
    order (its kind, destination, opponent, supports) is worked out once into tables by that index.
    (It keeps under 30 attributes: past that, CPython gives each instance a plain dict, slower to read.)"""

    def __init__(
        self,
        variant: Variant,
        units: Mapping[str, Unit],
        orders: Iterable[UnitOrder],
        season: str = "spring",
        backup: BackupRule = szykman,
        prepare: Callable[[Resolver], None] | None = None,
        strengths: Mapping[str, int] | None = None,
        checks: Mapping[str, Checked] | None = None,
    ) -> None:
        """``checks``, if given, holds :func:`checked_order`'s answer for each order, by the province of its
        unit, and ``orders`` is not read (a :class:`~adjutant.game.Game` checks each order as it is given,
        so it need not be checked again; the rows hold the orders)."""
        self.v = variant
        self.season = season
        self.backup = backup
        strengths_ = dict(strengths) if strengths else {}
        if checks is None:
            checks = {o.unit.province: checked_order(variant, o, season, units) for o in orders}
        self.prov = provs = sorted(units)
        n = len(provs)
        # (the board's dict copied, then each value set: no table grows as it is filled)
        at: dict[str, int] = dict(units)  # type: ignore[arg-type]  # (the values are set next)
        i = 0
        for p in provs:
            at[p] = i
            i += 1  # noqa: SIM113 - a counter: quicker than the tuples of enumerate here
        self.at = at
        #: one row per unit on the board, in province order (an order given for no unit there is left out)
        found = list(map(checks.get, provs))
        rows: list[Checked] = (
            found  # type: ignore[assignment]  # (no None in it)
            if None not in found
            else [row or _holding(units[p]) for p, row in zip(provs, found, strict=True)]
        )
        self.given = tuple.__new__(Given, (units, strengths_, checks, rows, prepare))  # (made in C)
        # a column per field: the orders as adjudicated, why each is illegal, its kind, the province a move
        # goes to (None for other orders), whether it goes by convoy, whether it crosses a weak passage (made
        # lists if a move is made a hold), and the order's text ("" for a unit given none), the unit's, its
        # power's, the unit a support or carrier serves
        text: Sequence[str]
        unit_text: Sequence[str]
        power: Sequence[str]
        targets: Sequence[str | None]
        # (the last two columns are made too, and not read: stopping the zip before them, by ``islice``, took
        # fewer instructions but more time, one more type's code to bring into the CPU's caches each phase)
        order_col, illegal_col, kind_col, to_col, text, unit_text, power, convoy_col, weak_col, targets, _, _ = (
            zip(*rows, strict=True) if rows else [()] * len(Checked._fields)
        )
        # (the columns stay the tuples they are made as, but for the convoys found below, until a move is made a
        # hold: :meth:`_check_routes`)
        orders_: Sequence[UnitOrder] = order_col
        illegal: Sequence[str] = illegal_col
        kinds_: Sequence[int] = kind_col
        to: Sequence[str | None] = to_col
        convoyed: list[bool] = list(convoy_col)
        weak: Sequence[bool] = weak_col
        self.text: Sequence[str] = text
        self.unit_text: Sequence[str] = unit_text
        #: each unit's power
        self.power: Sequence[str] = power
        self.orders, self.illegal, self.kind, self.to, self.targets = orders_, illegal, kinds_, to, targets
        #: moves that go by convoy (or coast run): ordered so, or found to below
        self.convoyed = convoyed
        self.weak = weak
        #: the moves (a move made a hold later leaves it), and the supports, convoys and protections
        self.moves: list[int] = list(compress(range(n), to))
        served = list(compress(range(n), targets))
        #: for each move, the order of the unit standing where it goes (-1: none), and its head-to-head
        #: opponent (-1: none; until convoys and weak passages are known, :meth:`_no_head_to_head`)
        self.occupant = occupant = [-1] * n
        self.opponent = opponent = [-1] * n
        #: moves by destination province
        moves_to: dict[str, list[int]] = {}
        self.moves_to = moves_to
        for i in self.moves:
            dest: str = to[i]  # type: ignore[assignment]  # (a move's)
            movers = moves_to.get(dest)
            if movers is None:
                moves_to[dest] = [i]
            else:
                movers.append(i)
            there = at.get(dest, -1)
            if there >= 0:
                occupant[i] = there
                if to[there] == provs[i]:
                    opponent[i] = there
        #: each unit's own strength: 1, or more for Cluster Diplomacy's multiple units (rule 1)
        self.k = [strengths_.get(p, 1) for p in provs] if strengths_ else [1] * n
        self.deps: list[int] = []
        #: supports and carriers (convoys, protections) by the index of the order they serve
        #: (plain dicts: a ``defaultdict`` is slower to make and to fill, and most phases fill few)
        self.supports_of: dict[int, list[int]] = {}
        self.carriers_of: dict[int, list[int]] = {}
        #: moves that the variant's rule made hold without effect (Coast-Running)
        self.voided: set[int] = set()
        supports_of = self.supports_of
        #: supports of an order not given (they give nothing: no decision of theirs is asked for), and the
        #: other supports, convoys and protections
        self.void: list[int] = []
        self.live: list[int] = []
        void, live = self.void, self.live
        convoy_orders: set[tuple[str, str, str]] = set()
        for i in served:
            j = at.get(targets[i])  # (a served order's)
            o = orders_[i]
            if kinds_[i] == SUPPORT:
                # :meth:`_support_matches`, read from the tables (most orders of a phase are supports)
                named, d = o.target_type, o.dest  # type: ignore[union-attr]
                if j is None or (named is not None and named != orders_[j].unit.type):
                    fits = False
                elif d is None:
                    fits = kinds_[j] != MOVE
                elif "/" not in d:
                    fits = to[j] == d
                else:
                    fits = to[j] == d.partition("/")[0] and d == orders_[j].dest  # type: ignore[union-attr]
                if fits:
                    mine = supports_of.get(j)  # type: ignore[arg-type]  # (it fits: j is a unit's)
                    if mine is None:
                        supports_of[j] = [i]  # type: ignore[index]
                    else:
                        mine.append(i)
                    live.append(i)
                else:
                    void.append(i)
                continue
            live.append(i)
            if j is None:
                continue
            if kinds_[i] == CONVOY:
                convoy_orders.add((self.power[i], o.target, o.dest))  # type: ignore[arg-type, union-attr]
            if self._carrier_matches(o, j):  # type: ignore[arg-type]
                self.carriers_of.setdefault(j, []).append(i)
        # moves whose route is to check against the board: armies whose convoy is only implied, and coast runs
        # (an army ordered by convoy was checked with its order, :func:`checked_order`)
        unchecked = False
        if convoy_orders:
            for i in self.moves:
                u = orders_[i].unit
                if (
                    not convoyed[i]
                    and u.type == "A"
                    and (u.power, u.province, to[i]) in convoy_orders
                    and self._convoy_intended(i)
                ):
                    convoyed[i] = unchecked = True
        # the head-to-head opponents found above stand unless a move goes by convoy or across a weak passage
        if True in convoyed:
            carried = [i for i in self.moves if convoyed[i]]
            if unchecked or variant.options.protect_order:  # (coast runs: fleets carried by armies)
                self._check_routes(carried)
                carried = [i for i in carried if convoyed[i]]
            self._no_head_to_head(carried)
        if True in weak:
            self._no_head_to_head([i for i in self.moves if weak[i]])
        self.state: list[int]
        self.result: list[bool]
        self._start_states()

    @property
    def written(self) -> list[UnitOrder]:
        """The orders as written, one per unit on the board (a hold for a unit given none)."""
        return [row.written for row in self.given.rows]

    def _check_routes(self, carried: list[int]) -> None:
        """Make those of these convoyed moves that no unit on the board could carry illegal (they hold): coast
        runs with no chain of protecting armies, and armies whose convoy was only implied (an army ordered by
        convoy was checked with its order, :func:`checked_order`)."""
        # (the columns that a move made a hold changes, made lists)
        self.orders, self.kind, self.to, self.weak = list(self.orders), list(self.kind), list(self.to), list(self.weak)
        self.illegal = illegal = list(self.illegal)
        for i in carried:
            o = self.orders[i]
            assert isinstance(o, Move)
            if o.unit.type == "F":
                if not self._run_chain(i, lambda c: True):
                    illegal[i] = (
                        f"no unbroken chain of protecting armies runs from {self.v.province_name(o.unit.location)} "
                        f"to {self.v.province_name(o.dest)}"
                    )
                    self._make_hold(i)
            elif not o.via_convoy:
                why = _no_fleets_to_convoy(self.v, o, self.season, self.given.units)
                if why:
                    illegal[i] = why
                    self._make_hold(i)

    def _index_moves(self) -> None:
        """For each move, the order of the unit standing where it goes (-1: none) and its head-to-head
        opponent (-1: none); again whenever a move changes how it is made."""
        n = len(self.orders)
        to, at, convoyed, weak = self.to, self.at, self.convoyed, self.weak
        self.occupant = occupant = [-1] * n
        self.opponent = opponent = [-1] * n
        for i in range(n):
            dest = to[i]
            if dest is None:
                continue
            j = at.get(dest, -1)
            occupant[i] = j
            if j >= 0 and to[j] == self.prov[i] and not (convoyed[i] or weak[i] or convoyed[j] or weak[j]):
                opponent[i] = j

    def _no_head_to_head(self, moves: Iterable[int]) -> None:
        """Moves by convoy or across a weak passage meet no one head to head (as :meth:`_index_moves` finds)."""
        opponent = self.opponent
        for i in moves:
            j = opponent[i]
            if j >= 0:
                opponent[j] = opponent[i] = -1

    def _make_hold(self, i: int) -> None:
        """Make move ``i`` a hold (its columns are lists by now: :meth:`_check_routes`)."""
        orders, kind, to, weak = self.orders, self.kind, self.to, self.weak
        assert isinstance(orders, list) and isinstance(kind, list) and isinstance(to, list) and isinstance(weak, list)
        o = orders[i]
        if isinstance(o, Move):
            self.moves_to[province_of(o.dest)].remove(i)
        orders[i] = Hold(o.unit)
        kind[i] = HOLD
        j = self.opponent[i]
        if j >= 0:
            self.opponent[j] = -1
        self.occupant[i] = self.opponent[i] = -1
        self.convoyed[i] = False
        to[i] = None
        weak[i] = False
        self.moves.remove(i)
        # the supports of the unit, matched again to the hold
        for j, s in enumerate(self.orders):
            if isinstance(s, Support) and s.target == o.unit.province:
                for table in (self.supports_of.get(i, []), self.void, self.live):
                    if j in table:
                        table.remove(j)
                if self._support_matches(s, self.orders[i]):
                    self.supports_of.setdefault(i, []).append(j)
                    self.live.append(j)
                else:
                    self.void.append(j)
        self.void.sort()
        self.live.sort()

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
        # a fleet's move to a place it borders is an ordinary move, not a coast run: nothing to protect
        return target.unit.type == "F" and self.convoyed[j]

    def implied_convoys(self, carriers: Iterable[int]) -> list[int]:
        """Moves carried by these convoys that were not ordered 'via convoy' and could go overland."""
        out = []
        for c in carriers:
            j = self.at.get(self.orders[c].target)  # type: ignore[union-attr]
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
        for o in self.orders:
            if (
                isinstance(o, Convoy)
                and o.unit.power == m.unit.power
                and o.target == m.unit.province
                and o.dest == province_of(m.dest)
                and not self.illegal[self.at[o.unit.province]]
                and o.unit.province in self.v.convoy_route_seas(m.unit.province, province_of(m.dest), self.season)
            ):
                return True
        return False

    # --- guess and check -------------------------------------------------------------------------
    def settle(self, i: int, value: bool) -> None:
        self.result[i] = value
        self.state[i] = RESOLVED

    def resolve(self, i: int) -> bool:
        state, result, deps = self.state, self.result, self.deps
        now = state[i]
        if now == RESOLVED:
            return result[i]
        if now == GUESSING:
            if i not in deps:
                deps.append(i)
            return result[i]
        mark = len(deps)
        result[i] = False
        state[i] = GUESSING
        first = self._move_succeeds(i) if self.kind[i] == MOVE else self.adjudicate(i)
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
        cycle = list(deps[mark:])
        if i not in cycle:
            cycle.insert(0, i)
        for j in cycle:
            state[j] = UNRESOLVED
        del deps[mark:]
        self.backup(self, cycle)
        return self.resolve(i)

    def adjudicate(self, i: int) -> bool:
        kind = self.kind[i]
        if kind == MOVE:
            return self._move_succeeds(i)
        if kind == SUPPORT:
            return self._support_given(i)
        if kind in (CONVOY, PROTECT):
            return not self._dislodged(self.prov[i])
        return True

    def _run_chain(self, i: int, holds: Callable[[int], bool]) -> bool:
        """Coast-Running: whether the fleet of move ``i`` can run along the coasts of provinces whose
        armies protect it (those for which ``holds`` is true) to its destination. Each step goes along a
        shared coastline, so a run cannot cross a province between two of its coasts."""
        o = self.orders[i]
        assert isinstance(o, Move)
        v = self.v
        guards = {self.orders[c].unit.province: c for c in self.carriers_of.get(i, ())}
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
        if not self.convoyed[i]:
            return True
        if self.weak[i]:
            return True
        if not self.carriers_of.get(i):
            return False  # no unit was ordered to carry it
        o = self.orders[i]
        assert isinstance(o, Move)
        # the 1971 reading of an ambiguous route: every unit ordered to carry must survive
        if self.v.options.any_carrier_disrupts and not all([self.resolve(c) for c in self.carriers_of[i]]):
            return False
        if o.unit.type == "F":
            return self._run_chain(i, self.resolve)
        # a chain of the carrying fleets that hold, from a sea by the army to a sea by its destination
        graph, shore = self.v.sea_graph(self.season)
        provs = self.prov
        fleets = {provs[c]: c for c in self.carriers_of[i]}
        near_src, goal = shore.get(provs[i], ()), shore.get(self.to[i], ())  # type: ignore[arg-type]
        todo = [s for s in fleets if s in near_src]
        seen: set[str] = set()
        while todo:
            s = todo.pop()
            if s in seen:
                continue
            seen.add(s)
            if not self.resolve(fleets[s]):
                continue
            if s in goal:
                return True
            near = graph.get(s, ())
            todo.extend(n for n in fleets if n not in seen and n in near)
        return False

    def _support_count(self, i: int, exclude_power: str | None = None) -> int:
        supports = self.supports_of.get(i)
        if not supports:
            return 0
        n = 0
        k, power, state, result = self.k, self.power, self.state, self.result
        for s in supports:
            if exclude_power is not None and power[s] == exclude_power:
                continue
            if k[s] != 1:
                n += self._support_value(s)
            elif result[s] if state[s] == RESOLVED else self.resolve(s):
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
        j = self.opponent[i]
        return None if j < 0 else j

    def _hold_strength(self, prov: str) -> int:
        j = self.at.get(prov)
        if j is None:
            return 0
        if self.to[j] is not None:
            return 0 if self.resolve(j) else self.k[j]
        # a researching unit stands one weaker (Cluster rule 5.1)
        own = self.k[j] - 1 if self.kind[j] == RESEARCH else self.k[j]
        return own + self._support_count(j)

    def _attack_strength(self, i: int) -> int:
        if self.convoyed[i] and not self._path(i):
            return 0
        j = self.occupant[i]
        if j < 0 or (self.to[j] is not None and self.opponent[i] < 0 and self.resolve(j)):
            return self._defend_strength(i)
        defender = self.power[j]
        if defender == self.power[i]:
            return 0
        return self._base(i) + self._support_count(i, exclude_power=defender)

    def _defend_strength(self, i: int) -> int:
        """The unit's own strength (:meth:`_base`, written out: the hot path) and all its supports'; also the
        attack strength of a move with no one to dislodge, and the prevent strength of a move that gets there
        and meets no one head to head."""
        return (0 if self.weak[i] else self.k[i]) + self._support_count(i)

    def _prevent_strength(self, i: int) -> int:
        if self.convoyed[i] and not self._path(i):
            return 0
        h2h = self.opponent[i]
        if h2h >= 0 and self.resolve(h2h):
            return 0
        return self._defend_strength(i)

    def _move_succeeds(self, i: int) -> bool:
        if self.voided and i in self.voided:
            return False
        if self.occupant[i] < 0 and not self.convoyed[i]:
            # overland into a province no unit stands in: no hold strength to beat, no one to spare
            attack = self._defend_strength(i)
            if attack == 0:
                return False
        else:
            attack = self._attack_strength(i)
            if attack == 0:
                return False
            h2h = self.opponent[i]
            if h2h >= 0:
                if attack <= self._defend_strength(h2h):
                    return False
            elif attack <= self._hold_strength(self.to[i]):  # type: ignore[arg-type]
                return False
        for j in self.moves_to[self.to[i]]:  # type: ignore[index]  # noqa: SIM110 - no generator in the hot path
            if j != i and attack <= self._prevent_strength(j):
                return False
        return True

    def _cutters(self, i: int) -> list[int]:
        """Moves that would cut support ``i`` if they are valid attacks."""
        movers = self.moves_to.get(self.prov[i])
        if not movers:
            return []
        s = self.orders[i]
        assert isinstance(s, Support)
        against = province_of(s.dest) if s.dest is not None else None
        power = self.power[i]
        return [j for j in movers if self.power[j] != power and self.prov[j] != against]

    def _cuts(self, j: int) -> bool:
        """Whether an attack is real enough to cut a support: it gets there (by its path), and a move
        across a weak passage only with support behind it."""
        if self.convoyed[j] and not self._path(j):
            return False
        return not self.weak[j] or self._support_count(j) > 0

    def _support_given(self, i: int) -> bool:
        if self.k[i] != 1:
            return self._support_value(i) > 0
        prov = self.prov[i]
        movers = self.moves_to.get(prov)
        if not movers:
            return True  # nothing comes in: neither cut nor dislodged
        for j in self._cutters(i):
            if self._cuts(j):
                return False
        return not self._dislodged(prov)

    def _dislodged(self, prov: str) -> bool:
        j = self.at.get(prov)
        if j is not None and self.to[j] is not None and self.resolve(j):
            return False
        movers = self.moves_to.get(prov)
        if not movers:
            return False
        for m in movers:  # noqa: SIM110 - no generator in the hot path
            if self.resolve(m):
                return True
        return False

    # --- results -----------------------------------------------------------------------------
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
        if self.voided:
            self._start_states()  # (voided moves, set since the tables were made, are not to be settled early)
        n = len(self.orders)
        while True:
            try:
                # the orders still to decide, in order (read as the loop goes: one decision settles others;
                # a restart makes the table anew)
                for i in compress(range(n), self.state):
                    self.resolve(i)
            except _Restart:
                self.deps = []
                self._index_moves()
                self._start_states()
                continue
            return

    def _start_states(self) -> None:
        """Every decision as before any is guessed: holds (and research) stand, supports of no order given
        give nothing, supports and carriers that no unit moves against succeed, and so does a move that no
        decision can change; the rest are to decide."""
        n = len(self.kind)
        # settled to start with: a hold (or research) stands, a support of an order not given gives nothing, and a
        # support, convoy or protection is settled below or set to decide; the moves are to decide (two loops
        # over a few orders: in time, cheaper than ``bytes.translate`` by kind, whose code is rarely in the CPU's
        # caches when a phase starts)
        self.state = state = [RESOLVED] * n
        self.result = result = [True] * n
        for i in self.moves:
            state[i] = UNRESOLVED
        for i in self.void:
            result[i] = False
        moves_to, provs = self.moves_to, self.prov
        for i in self.live:
            if provs[i] in moves_to:
                state[i] = UNRESOLVED
            else:
                result[i] = True  # (neither cut nor dislodged)
        occupant, convoyed, weak, k, supports_of, voided = (
            self.occupant, self.convoyed, self.weak, self.k, self.supports_of, self.voided
        )
        for movers in moves_to.values():
            if len(movers) == 1:
                i = movers[0]
                if (
                    occupant[i] < 0
                    and not convoyed[i]
                    and not weak[i]
                    and k[i] > 0
                    and not supports_of.get(i)
                    and not (voided and i in voided)
                ):
                    # overland, unsupported, into a province no unit stands in and no other unit goes to: it
                    # succeeds whatever else happens (no decision to guess)
                    state[i] = RESOLVED
                    result[i] = True

    def go_overland(self, moves: Iterable[int]) -> None:
        """Take back a convoy that was only implied: the armies move over land, and adjudication starts
        again (DATC 6.G.11)."""
        for i in moves:
            self.convoyed[i] = False
        raise _Restart

    def tally(
        self,
    ) -> tuple[dict[str, Unit], list[Dislodgement], set[str], list[bool], list[str], list[Unit | None]]:
        """After :meth:`decide`: the units on the board, the dislodged units, the provinces left empty by a
        stand-off, and for each order whether it succeeded, why not, and the unit that dislodged its own.
        Lists rather than one record per order: the game builds its own records from them."""
        orders, result, kind, to, illegal, at = self.orders, self.result, self.kind, self.to, self.illegal, self.at
        provs, convoyed, rows = self.prov, self.convoyed, self.given.rows
        n = len(orders)
        success = [True] * n
        reasons = [""] * n
        attackers: list[Unit | None] = [None] * n
        moves, occupant, opponent, weak, k = self.moves, self.occupant, self.opponent, self.weak, self.k
        # (a loop: quicker here than ``compress`` and ``map`` over the lists' ``__getitem__``)
        winner_into: dict[str, int] = {}
        for i in moves:
            if result[i]:
                winner_into[to[i]] = i  # type: ignore[index]  # (a move's)
        winners = list(winner_into.values())
        contested: set[str] = set()
        for prov, movers in self.moves_to.items():
            if prov in winner_into:
                continue
            for m in movers:
                h = opponent[m]
                # :meth:`_prevent_strength` is more than nothing, read at once for a move overland that did not
                # lose a head-to-head battle
                if ((h < 0 or not result[h]) and not convoyed[m] and not weak[m] and k[m] > 0) or (
                    self._prevent_strength(m) > 0
                ):
                    contested.add(prov)
                    break
        # the units where they stand, less those that moved, then those that moved where they went (a unit
        # that moved in takes the place of one that stayed: that one was dislodged)
        units = dict(self.given.units)
        for i in winners:
            del units[provs[i]]
        for i in winners:
            units[to[i]] = rows[i].moved  # type: ignore[index, assignment]  # a successful move has its unit
        # supports of an order not given (a dislodged one's verdict, and the rare other, below)
        for i in self.void:
            success[i] = False
            reasons[i] = _VOID_SUPPORT
        dislodged: list[Dislodgement] = []
        # orders whose verdict takes more than the usual questions: :meth:`_verdict` gives it
        odd = list(compress(range(n), illegal)) if illegal.count("") != n else []  # (most phases: none illegal)
        targets = self.targets
        if odd:
            # a support of an illegal order says so
            odd += [i for i in self.void if (j := at.get(targets[i])) is not None and illegal[j]]
        for w in winners:
            j = occupant[w]
            if j >= 0 and not (kind[j] == MOVE and result[j]):
                odd.append(j)
        if odd:
            odd = sorted(set(odd))
            for i in odd:
                w = winner_into.get(provs[i], -1)
                if w >= 0 and not (kind[i] == MOVE and result[i]):
                    a = orders[w].unit
                    attackers[i] = a
                    dislodged.append(Dislodgement(orders[i].unit, None if convoyed[w] else a.province, a))
                success[i], reasons[i] = self._verdict(i, attackers[i])
        skip = set(odd)
        for i in self.live:
            if i in skip:
                continue
            # a support given to a legal order: :meth:`_verdict`'s answer, without the call
            if kind[i] == SUPPORT and result[i] and not illegal[at[targets[i]]]:
                continue
            success[i], reasons[i] = self._verdict(i, None)
        voided = self.voided
        for i in moves:
            if result[i] or i in skip:
                continue
            success[i] = False
            if not convoyed[i] and not (voided and i in voided):
                # a move that failed overland: :meth:`_verdict`'s answer, without its other questions
                reasons[i] = self._bounced(i)
            else:
                success[i], reasons[i] = self._verdict(i, None)
        return units, dislodged, contested, success, reasons, attackers

    def _bounced(self, i: int) -> str:
        """Why a move that had its path failed: the unit it may not dislodge, or whom it bounced with."""
        j = self.occupant[i]
        power, text = self.power, self.unit_text
        if j >= 0 and power[j] == power[i] and self._attack_strength(i) == 0:
            return f"may not dislodge own unit {text[j]}"
        movers = self.moves_to[self.to[i]]  # type: ignore[index]
        # the unit that stayed where it went, then the other units that went there
        rivals = [text[m] for m in movers if m != i] if len(movers) > 1 else []
        if j >= 0 and not (self.kind[j] == MOVE and self.result[j]):
            rivals.insert(0, text[j])
        return "bounced with " + ", ".join(rivals) if rivals else "bounced"

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
            if self.convoyed[i] and not self._path(i):
                return False, ("no convoy path" if o.unit.type == "A" else "no protected coast path") + tail
            return False, self._bounced(i) + tail
        if isinstance(o, Support):
            j = self.at.get(o.target)
            if j is not None and self.illegal[j]:
                return False, f"void: the supported unit's order is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.supports_of.get(j, ()):
                return False, _VOID_SUPPORT + tail
            if self.result[i]:
                return True, tail.lstrip(", ")
            cut = [self.unit_text[j] for j in self._cutters(i) if self._cuts(j)]
            if cut:
                return False, f"cut by {', '.join(cut)}" + tail
            return False, tail.lstrip(", ")
        if isinstance(o, (Convoy, Protect)):
            j = self.at.get(o.target)
            what = "the convoyed army" if isinstance(o, Convoy) else "the protected fleet"
            if j is not None and self.illegal[j]:
                return False, f"void: {what}'s move is illegal ({self.illegal[j]})" + tail
            if j is None or i not in self.carriers_of.get(j, ()):
                return False, f"void: {what} was not ordered that way" + tail
            if self.result[i]:
                return True, ""
            return False, tail.lstrip(", ") if by is not None else "the convoy fails (paradox)"
        return by is None, tail.lstrip(", ")


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
    season: str = "spring",
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
    season: str = "spring",
    backup: BackupRule | None = None,
    strengths: Mapping[str, int] | None = None,
    checks: Mapping[str, Checked] | None = None,
) -> Resolver:
    """The resolver :func:`adjudicate_movement` runs, with the variant's backup rule, for a caller that
    reads the outcome itself (:meth:`Resolver.decide`, then :meth:`Resolver.tally`)."""
    rule = BACKUP_RULES[variant.options.backup_rule]
    return Resolver(variant, units, orders, season, backup or rule[0], rule[1], strengths, checks)


#: The named backup rules a variant may choose: (paradox rule, preparation before resolving).
BACKUP_RULES: dict[str, tuple[BackupRule, Callable[[Resolver], None] | None]] = {
    "szykman": (szykman, None),
    "coast_running": (szykman, carried_attacks_spare_their_carriers),
}
