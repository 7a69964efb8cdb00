"""A game: the position, the orders given for the current phase, and the history of every phase.

Only :meth:`Game.adjudicate` changes the position; everything else reads it.

>>> game = Game.new("standard")
>>> str(game.phase), len(game.units), game.centre_counts()["russia"]
('S1901M', 22, 4)
>>> game.add_orders("England: F Lon - Nth; F Edi - Nwg; A Lvp - Yor")
[]
>>> record = game.adjudicate()[0]
>>> str(game.phase), game.units["nth"]
('F1901M', Unit(power='england', type='F', location='nth'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, NamedTuple

from .adjudication import records
from .adjudication.orders import (
    POWER_ORDER_TYPES,
    POWER_ORDERS,
    Build,
    Disband,
    Order,
    Retreat,
    Unit,
    UnitOrder,
    VariantPowerOrder,
    Waive,
    find_power,
    format_order,
    order_power,
    parse_order,
    split_orders,
)
from .adjudication.phases import (
    Dislodgement,
    Phase,
    adjudicate_adjustments,
    adjudicate_retreats,
    adjustments_due,
    can_build,
    retreat_options,
    retreat_problem,
    update_centres,
    voluntary_removal,
)
from .adjudication.records import PhaseRecord, Result
from .adjudication.resolver import Checked, checked_order, movement_resolver
from .errors import AdjutantError, BotError, OrderError
from .map.kinds import unit_type_of
from .map.variant import Variant, load_variant
from .seats import DEFAULT_LEVEL, Seat, seat_problem
from .variants.hooks import VariantRules, VariantState
from .variants.registry import rules_for

#: the classes of the orders a power gives (its variant's kinds too): the set the parser keeps
_POWER_ORDER_TYPES = POWER_ORDER_TYPES


@dataclass(frozen=True)
class Position:
    """Everything about the board at the start of a phase."""

    phase: Phase
    units: dict[str, Unit]
    centres: dict[str, str]
    dislodged: tuple[Dislodgement, ...] = ()
    contested: frozenset[str] = frozenset()
    #: what the variant's own rules add to the position (:class:`~adjutant.variants.hooks.VariantState`;
    #: Cluster Diplomacy's multiple units, sites, knowledge and transferees), None under the classic rules
    variant_state: VariantState | None = None

    def __init__(
        self,
        phase: Phase,
        units: dict[str, Unit],
        centres: dict[str, str],
        dislodged: tuple[Dislodgement, ...] = (),
        contested: frozenset[str] = frozenset(),
        variant_state: VariantState | None = None,
    ) -> None:
        # the fields above, set at once (for speed: the frozen dataclass's __init__ sets them one by one)
        self.__dict__.update(
            phase=phase,
            units=units,
            centres=centres,
            dislodged=dislodged,
            contested=contested,
            variant_state=variant_state,
        )


@dataclass(frozen=True)
class OrderProblem:
    """An order that could not be taken (``kept`` False) or that was taken but is illegal and will hold."""

    line: int
    text: str
    message: str
    kept: bool

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}: {self.message}" if self.text else f"line {self.line}: {self.message}"


#: what the rules make of an order: taken as given; taken, though it is adjudicated as illegal (the unit
#: holds); or not taken at all (it cannot be given now)
Verdict = Literal["legal", "illegal", "refused"]


class OrderCheck(NamedTuple):
    """What the rules make of an order given now (:meth:`Game.check_order`), and why ("" when legal)."""

    verdict: Verdict
    reason: str = ""


LEGAL = OrderCheck("legal")


@dataclass
class Game:
    """A game of one variant. The orders given for the current phase are the game's own: they are read
    through :meth:`orders_of`, :meth:`all_orders` and :meth:`written_orders`, and changed only through
    :meth:`add_orders`, :meth:`add_order`, :meth:`set_orders` and :meth:`clear_orders`."""

    variant: Variant
    position: Position
    history: list[PhaseRecord] = field(default_factory=list)
    winner: str | None = None
    draw: tuple[str, ...] | None = None
    #: positions before each history record, for undo and for stepping through the history
    snapshots: list[Position] = field(default_factory=list, repr=False)
    #: the powers the computer plays (:mod:`adjutant.bots`), by power id; changed through :meth:`set_computer`
    computer: dict[str, Seat] = field(default_factory=dict)
    #: each power's orders for the current phase, as given (powers in the order they first gave orders)
    _orders: dict[str, list[Order]] = field(default_factory=dict, init=False)
    #: each movement order checked once, as it is given: by province, the row of the last order given for
    #: the unit there (the order is the row's ``written``). :meth:`adjudicate` hands the resolver these rows
    _checks: dict[str, Checked] = field(default_factory=dict, init=False, repr=False, compare=False)
    #: the position :attr:`_checks` were made in (the rows depend on its units and season)
    _checks_at: Position | None = field(default=None, init=False, repr=False, compare=False)
    #: during one adjudication, the centres each power owns, with the ``centres`` dict they were counted in
    _owned: tuple[dict[str, str], dict[str, int]] | None = field(default=None, init=False, repr=False, compare=False)

    # --- creation -------------------------------------------------------------------------------
    @classmethod
    def new(cls, variant: Variant | str, seed: int | None = None) -> Game:
        """A game at the variant's start. ``seed`` draws a variant's hidden setup (Cluster Diplomacy's
        Sites of the Ancients; a random seed if None); variants without one ignore it."""
        v = load_variant(variant) if isinstance(variant, str) else variant
        units: dict[str, Unit] = {}
        for p in v.powers.values():
            for text in p.units:
                t, loc = text.split()
                units[loc.split("/")[0]] = Unit(p.id, unit_type_of(t), loc)
        centres = {h: p.id for p in v.powers.values() for h in p.home_centres}
        state = rules_for(v).start(v, seed)
        return cls(v, Position(Phase(v.first_year, "spring", "movement"), units, centres, variant_state=state))

    # --- reading ----------------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self.position.phase

    @property
    def units(self) -> dict[str, Unit]:
        return self.position.units

    @property
    def rules(self) -> VariantRules:
        """The rules the variant is played by (:func:`adjutant.variants.registry.rules_for`): their hooks add to
        the classic rules (Cluster Diplomacy's) or leave them as they are."""
        return rules_for(self.variant)

    @property
    def over(self) -> bool:
        return self.winner is not None or self.draw is not None

    def centre_counts(self) -> dict[str, int]:
        return {**dict.fromkeys(self.variant.powers, 0), **_count(self.position.centres.values())}

    def unit_counts(self) -> dict[str, int]:
        return {**dict.fromkeys(self.variant.powers, 0), **_count_powers(self.units)}

    def dislodged_units(self) -> dict[str, Unit]:
        return {d.unit.province: d.unit for d in self.position.dislodged}

    def orders_due(self) -> dict[str, int]:
        """Powers that still owe orders this phase, with how many."""
        due: dict[str, int] = {}
        kind = self.phase.kind
        if self.over:
            return due
        if kind == "movement":
            ordered = {o.unit.province for os in self._orders.values() for o in os if not isinstance(o, POWER_ORDERS)}
            for u in self.units.values():
                if u.province not in ordered:
                    due[u.power] = due.get(u.power, 0) + 1
        elif kind == "retreat":
            ordered = {o.unit.province for os in self._orders.values() for o in os if not isinstance(o, POWER_ORDERS)}
            for d in self.position.dislodged:
                if d.unit.province not in ordered:
                    due[d.unit.power] = due.get(d.unit.power, 0) + 1
        else:
            for power, adj in adjustments_due(self.variant, self.units, self.position.centres).items():
                left = abs(adj.delta) - len(self._orders.get(power, []))
                if left > 0:
                    due[power] = left
        return due

    def adjustments(self) -> dict[str, int]:
        """Winter: builds (positive) or removals (negative) each power must make."""
        return {p: a.delta for p, a in adjustments_due(self.variant, self.units, self.position.centres).items()}

    # --- the orders given -----------------------------------------------------------------------------
    def orders_of(self, power: str) -> tuple[Order, ...]:
        """``power``'s orders for this phase, in the order given."""
        return tuple(self._orders.get(power, ()))

    def all_orders(self) -> dict[str, tuple[Order, ...]]:
        """The orders given for this phase, by power (the powers that gave any, in the order they first did)."""
        return {power: tuple(mine) for power, mine in self._orders.items() if mine}

    def written_orders(self) -> dict[str, list[str]]:
        """The orders given, by power, in their canonical text: unit orders in province order, adjustments
        in the order given (the first builds are the ones made)."""
        return records.written(self._orders, self.phase.kind)

    # --- giving orders ------------------------------------------------------------------------------
    def parse(self, text: str, power: str | None = None, default_power: str | None = None) -> Order:
        units: Mapping[str, Unit] = self.units
        dislodged: Mapping[str, Unit] = self.dislodged_units()
        who = power or default_power
        if who is not None:
            units, dislodged = self.rules.orderable(self.position.variant_state, who, self.phase.kind, units, dislodged)
        return parse_order(
            text,
            self.variant,
            units,
            power=power,
            phase=self.phase.kind,
            dislodged=dislodged,
            default_power=default_power,
        )

    def add_orders(self, text: str, power: str | None = None) -> list[OrderProblem]:
        """Read orders (one or many, any power unless ``power`` is given) and keep each one, replacing an
        earlier order for the same unit. Returns the problems: orders not taken, and orders taken that
        are illegal (they will hold)."""
        if self.over:
            raise AdjutantError("the game is over: no more orders")
        problems: list[OrderProblem] = []
        for line, part, header in split_orders(text, self.variant):
            default = None
            try:
                if header is not None:
                    hp = find_power(self.variant, header)
                    if hp is None:
                        raise OrderError(f"{header!r} is not a power of {self.variant.name}")
                    if power is not None and hp.id != power:
                        raise OrderError(f"these orders are for {hp.name}, not {self.variant.powers[power].name}")
                    default = hp.id
                order = self.parse(part, power, default)
            except OrderError as e:
                problems.append(OrderProblem(line, part, e.reason, False))
                continue
            check, row = self._judge(order)
            if check.verdict == "refused":
                problems.append(OrderProblem(line, part, check.reason, False))
                continue
            self._keep(order, row)
            if check.verdict == "illegal":
                problems.append(OrderProblem(line, part, check.reason, True))
        return problems

    def set_orders(self, power: str, text: str) -> list[OrderProblem]:
        """Replace all of one power's orders for this phase by those in ``text``."""
        if power not in self.variant.powers:
            raise AdjutantError(f"{power!r} is not a power of {self.variant.name}")
        # a power's orders of a variant's own kind (Cluster's nominations) are not orders to units: they stay
        mine = self._orders.get(power, [])
        self._orders[power] = [o for o in mine if isinstance(o, VariantPowerOrder)]
        self._forget(mine)
        return self.add_orders(text, power)

    def clear_orders(self, power: str | None = None) -> None:
        if power is None:
            self._orders.clear()
            self._checks = {}
        else:
            self._forget(self._orders.pop(power, []))

    def _forget(self, orders: Iterable[Order]) -> None:
        """Drop the rows of orders taken back (once they are out of :attr:`_orders`). A unit another power
        also gave an order for keeps that order, and its row."""
        checks = self._checks
        for o in orders:
            if type(o) in _POWER_ORDER_TYPES:
                continue
            prov = o.unit.province  # type: ignore[union-attr]  # (a unit's order)
            row = checks.get(prov)
            if row is None or row.written != o:
                continue
            del checks[prov]
            other = next(
                (x for os in self._orders.values() for x in os
                 if type(x) not in _POWER_ORDER_TYPES and x.unit.province == prov),  # type: ignore[union-attr]
                None,
            )
            if other is not None:
                checks[prov] = self._row(other)  # type: ignore[arg-type]  # (a unit's order)

    def set_computer(self, power: str, level: str | None = DEFAULT_LEVEL, seed: int = 0) -> None:
        """Hand ``power`` to the computer at ``level`` with ``seed`` (:class:`~adjutant.seats.Seat`), or
        give it back to a player (``level`` None). Raises :class:`BotError` on an unknown power or level."""
        if power not in self.variant.powers:
            raise BotError(f"{str(power)[:40]!r} is not a power of {self.variant.name}")
        if level is None:
            self.computer.pop(power, None)
            return
        problem = seat_problem(level, seed)
        if problem:
            raise BotError(problem)
        self.computer[power] = Seat(level, seed)
        self.computer = dict(sorted(self.computer.items()))

    def check_order(self, order: Order) -> OrderCheck:
        """What the rules make of ``order`` if it were given now (it is not given)."""
        return self._judge(order)[0]

    def _judge(self, order: Order) -> tuple[OrderCheck, Checked | None]:
        """:meth:`check_order`'s answer, with a movement order's row (for :meth:`_keep`, if it is given)."""
        state, rules = self.position.variant_state, self.rules
        if isinstance(order, VariantPowerOrder):
            mine = self._orders.get(order.power, [])
            pending = [o for o in mine if isinstance(o, VariantPowerOrder) and o.slot() != order.slot()]
            why = rules.nomination_problem(self.variant, state, self.units, order, pending)
            return OrderCheck("refused", why) if why else LEGAL, None
        if self.phase.kind == "movement" and not isinstance(order, POWER_ORDERS):
            objection = rules.unit_order_problem(self.variant, state, order)
            if objection is not None:
                return OrderCheck("refused" if objection.refused else "illegal", objection.reason), None
            try:
                row = self._row(order)
            except KeyError as missing:  # a hand-built order naming a place the map does not have
                return OrderCheck("refused", _not_on_the_map(missing)), None
            return OrderCheck("illegal", row.illegal) if row.illegal else LEGAL, row
        if self.phase.kind == "retreat" and isinstance(order, Retreat):
            d = next((x for x in self.position.dislodged if x.unit.province == order.unit.province), None)
            if d is None:
                return OrderCheck("refused", f"{order.unit} was not dislodged"), None
            reason = retreat_problem(
                self.variant, d, order.dest, self.units, self.position.contested, self.phase.season
            )
            reason = reason.removeprefix("illegal: ").removesuffix(": disbanded")
            return OrderCheck("illegal", reason) if reason else LEGAL, None
        if self.phase.kind == "adjustment":
            power = order_power(order)
            due = adjustments_due(self.variant, self.units, self.position.centres)
            if isinstance(order, Disband) and voluntary_removal(self.variant, order.unit, due):
                return LEGAL, None
            if power not in due:
                return OrderCheck("refused", f"{self.variant.powers[power].name} has no builds or removals due"), None
        return LEGAL, None

    def nominate(self, power: str, level: int, location: str | None) -> None:
        """Name ``power``'s ``level`` times force unit, the unit in ``location``, or leave it to a later build
        (None): the order the variant's rules make of it (:meth:`VariantRules.nomination
        <adjutant.variants.hooks.VariantRules.nomination>`: Cluster Diplomacy's rule 2; the classic rules
        have none). Secret; it takes effect when the movement phase is adjudicated, and may be changed until
        then. Raises :class:`OrderError` saying why it cannot be made now."""
        if self.over:
            raise AdjutantError("the game is over")
        p = self.position
        order = self.rules.nomination(self.variant, p.variant_state, p.phase, p.units, power, level, location)
        check = self.check_order(order)
        if check.verdict != "legal":
            raise OrderError(check.reason, format_order(order))
        self.add_order(order)

    def add_order(self, order: Order) -> None:
        """Keep an order as given, replacing the unit's earlier order (a build replaces an earlier build
        in the same province; a waive beyond the power's supply centres, which can never count, is not kept).
        Unlike :meth:`add_orders` it reports nothing: for orders already read. A movement order's legality is
        worked out here, once, for :meth:`adjudicate`."""
        self._keep(order, None)

    def _keep(self, order: Order, row: Checked | None) -> None:
        """:meth:`add_order`, given a movement order's row if it is already worked out."""
        if self.phase.kind == "movement" and type(order) not in _POWER_ORDER_TYPES:
            o: UnitOrder = order  # type: ignore[assignment]  # (a unit's order)
            if row is None:
                try:
                    row = self._row(o)
                except KeyError as missing:  # a hand-built order naming a place the map does not have
                    raise OrderError(_not_on_the_map(missing), format_order(order)) from None
            self._checks[o.unit.province] = row
        mine = self._orders.setdefault(order_power(order), [])
        if isinstance(order, Waive):
            held = self._centre_counts().get(order.power, 0)
            if sum(type(o) is Waive for o in mine) >= held:
                return  # (a power has fewer builds to waive than centres it holds: a waive beyond them never counts)
        if isinstance(order, VariantPowerOrder):
            slot = order.slot()
            mine[:] = [o for o in mine if not (isinstance(o, VariantPowerOrder) and o.slot() == slot)]
        elif not isinstance(order, (Build, Waive)):
            mine[:] = [o for o in mine if isinstance(o, POWER_ORDERS) or o.unit.province != order.unit.province]
        elif isinstance(order, Build):
            mine[:] = [
                o
                for o in mine
                if not (isinstance(o, Build) and o.location.split("/")[0] == order.location.split("/")[0])
            ]
        mine.append(order)

    def _row(self, order: UnitOrder) -> Checked:
        """A movement order in this position as the resolver reads it
        (:func:`~adjutant.adjudication.resolver.checked_order`): the row kept if the order was given, else worked out
        now."""
        if self._checks_at is not self.position:
            self._check_again()
        row = self._checks.get(order.unit.province)
        if row is not None and row.written == order:
            return row
        return checked_order(self.variant, order, self.phase.season, self.units)

    def _check_again(self) -> None:
        """Work out the rows of the orders given in this position (a new one since they were given)."""
        checks: dict[str, Checked] = {}
        variant, season, units = self.variant, self.phase.season, self.units
        for os in self._orders.values():
            for order in os:
                if type(order) not in _POWER_ORDER_TYPES:  # (the order types have no subclasses)
                    o: UnitOrder = order  # type: ignore[assignment]  # (a unit's order)
                    checks[o.unit.province] = checked_order(variant, o, season, units)
        self._checks, self._checks_at = checks, self.position

    # --- adjudication -------------------------------------------------------------------------------
    def adjudicate(self) -> list[PhaseRecord]:
        """Resolve the current phase, then skip any phases with nothing to decide. Returns the records
        added to the history (the adjudicated phase first)."""
        if self.over:
            raise AdjutantError("the game is over")
        if self.rules.view_of(self.position.variant_state) is not None:
            raise AdjutantError("this is a view of the game, for display: only the game master's game is adjudicated")
        self._owned = None  # (the centres may have been changed in place since the last adjudication)
        added = [self._step()]
        self._skip(added)
        self._owned = None
        return added

    def _skip(self, added: list[PhaseRecord]) -> None:
        """Skip the phases with nothing to decide after the one just adjudicated, recording each in
        ``added``: retreats with no unit dislodged, adjustments with no removal due and no build possible.
        (One loop that reads the position's fields itself: it runs after every adjudication. The orders were
        cleared when the adjudicated phase moved on, and no skipped phase has any; the victory check is made
        on coming to an adjustment phase: a spring after a skipped winter has the same centres.)"""
        while self.winner is None and self.draw is None:
            p = self.position
            phase, units, centres, state = p.phase, p.units, p.centres, p.variant_state
            if phase.kind == "retreat":
                if p.dislodged:
                    if not self._nowhere_to_retreat():
                        return
                    added.append(self._disband_the_unretreatable())
                    continue
                if phase.season == "fall":
                    centres = update_centres(self.variant, units, centres)
            elif phase.kind == "adjustment" and self._nothing_to_adjust():
                state = self.rules.adjustments_skipped(state)
            else:
                return
            record = records.skipped(phase)
            added.append(record)
            self._record(record, Position(phase.next(), units, centres, variant_state=state))
            if self.position.phase.kind == "adjustment":
                self._check_victory()

    def _nowhere_to_retreat(self) -> bool:
        """Whether no unit dislodged in this retreat phase has a place to retreat to."""
        p = self.position
        return not any(
            retreat_options(self.variant, d, p.units, p.contested, p.phase.season) for d in p.dislodged
        )

    def _disband_the_unretreatable(self) -> PhaseRecord:
        """Adjudicate a retreat phase in which no dislodged unit can retreat, as the judges do: every one is
        disbanded, the results say so, and the game goes on. The phase is recorded as skipped (no order could
        be given in it: undo takes it back with the phase before, and a game file does not replay it)."""
        return self._step(nowhere_to_retreat=True)

    def _centre_counts(self) -> dict[str, int]:
        """The centres each power owns, counted once an adjudication: the victory check and a skipped
        adjustment phase both ask, and the centres change only in the fall."""
        centres = self.position.centres
        if self._owned is None or self._owned[0] is not centres:
            self._owned = (centres, _count(centres.values()))
        return self._owned[1]

    def _nothing_to_adjust(self) -> bool:
        """Whether this adjustment phase has nothing to decide: no removal due, and no build possible."""
        units, centres = self.position.units, self.position.centres
        closed = self.variant.closed_in("winter")
        if closed and not closed.isdisjoint(units):
            return False
        owned = self._centre_counts()
        have = _count_powers(units)
        if owned == have:
            return True
        for p, n in have.items():
            if n > owned.get(p, 0):
                return False  # removals are due
        # builds are due if some power with more centres than units has a place to build
        v = self.variant
        for p, n in owned.items():
            if n > have.get(p, 0) and p in v.powers and can_build(v, p, units, centres):
                return False
        return True

    def _record(self, record: PhaseRecord, position: Position) -> None:
        """Add a phase's record to the history (the position it started from kept beside it) and move on."""
        self.snapshots.append(self.position)
        self.history.append(record)
        self.position = position

    def _advance(self, record: PhaseRecord, position: Position) -> None:
        """After an adjudicated phase: record it, move on, clear the orders, and check for a winner."""
        self._record(record, position)
        self._orders = {}
        self._checks = {}
        if position.phase.kind == "adjustment" or (
            position.phase.season == "spring" and record.phase.season != "spring"
        ):
            self._check_victory()

    def _check_victory(self) -> None:
        counts = self._centre_counts()
        best = max(counts.values()) if counts else 0
        if best >= self.variant.victory_centres:
            leaders = [p for p, n in counts.items() if n == best]
            if len(leaders) == 1:
                self.winner = leaders[0]

    def _step(self, nowhere_to_retreat: bool = False) -> PhaseRecord:
        """Adjudicate the current phase, record it and move on (``nowhere_to_retreat``: a retreat phase in
        which no dislodged unit can retreat, recorded as :func:`~adjutant.adjudication.records.retreats` says)."""
        p = self.position
        v = self.variant
        kind = p.phase.kind
        rules, state = self.rules, p.variant_state
        if kind == "movement":
            return self._variant_movement(p) if rules.adjudicates_movement(state) else self._movement(p)
        if kind == "retreat":
            given_r = [o for os in self._orders.values() for o in os if isinstance(o, (Retreat, Disband))]
            given_r = rules.retreat_orders(state, self.dislodged_units(), given_r)
            units, rresults = adjudicate_retreats(v, p.units, p.dislodged, p.contested, given_r, p.phase.season)
            units, state, more = rules.after_retreats(v, state, units, rresults)
            record = records.retreats(p.phase, self.written_orders(), rresults + more, nowhere_to_retreat)
            centres = update_centres(v, units, p.centres) if p.phase.season == "fall" else p.centres
            self._advance(record, Position(p.phase.next(), units, centres, variant_state=state))
            return record
        given_a = [o for os in self._orders.values() for o in os if isinstance(o, (Build, Disband, Waive))]
        units, aresults = adjudicate_adjustments(v, p.units, p.centres, given_a)
        units, state, more_a = rules.after_adjustments(state, p.units, units)
        record = records.adjustments(p.phase, self.written_orders(), aresults + more_a)
        self._advance(record, Position(p.phase.next(), units, p.centres, variant_state=state))
        return record

    def _variant_movement(self, p: Position) -> PhaseRecord:
        """A movement phase the variant adjudicates itself (:meth:`VariantRules.adjudicate_movement
        <adjutant.variants.hooks.VariantRules.adjudicate_movement>`: Cluster's nominations, transfers and
        mattermissions around the resolver)."""
        given: list[UnitOrder] = [o for os in self._orders.values() for o in os if not isinstance(o, POWER_ORDERS)]
        nominations = [o for os in self._orders.values() for o in os if isinstance(o, VariantPowerOrder)]
        out, state, given = self.rules.adjudicate_movement(
            self.variant, p.phase, p.units, p.variant_state, given, nominations
        )
        record = records.variant_movement(p.phase, out, given, nominations)
        self._advance(
            record,
            Position(
                p.phase.next(), out.units, p.centres, tuple(out.dislodged), frozenset(out.contested), state
            ),
        )
        return record

    def _movement(self, p: Position) -> PhaseRecord:
        # each order was checked when it was given (:meth:`add_order`): the rows are the orders as they stand
        if self._checks_at is not p:
            self._check_again()
        checks = self._checks
        resolver = movement_resolver(self.variant, p.units, (), p.phase.season, checks=checks)
        resolver.decide()
        units, dislodged, contested, success, reasons, attackers = resolver.tally()
        record = records.movement(p.phase, resolver, success, reasons, attackers, self._orders)
        self._advance(record, Position(p.phase.next(), units, p.centres, tuple(dislodged), frozenset(contested)))
        return record

    # --- history ------------------------------------------------------------------------------------
    def undo(self) -> PhaseRecord:
        """Take back the last adjudication (and the phases skipped after it); its orders are given again."""
        if not self.history:
            raise AdjutantError("there is nothing to undo")
        while self.history and self.history[-1].skipped:
            self.history.pop()
            self.position = self.snapshots.pop()
        record = self.history.pop()
        self.position = self.snapshots.pop()
        self.winner = None
        self.draw = None
        self._orders = {}
        self._checks = {}
        for power, texts in record.orders.items():
            for text in texts:
                self.add_order(self.parse(text, power))
        return record

    def position_at(self, index: int) -> Position:
        """The position before history record ``index`` (``len(history)``: the current one)."""
        if index == len(self.history):
            return self.position
        return self.snapshots[index]

    def declare_draw(self, powers: Iterable[str]) -> None:
        names = tuple(sorted(powers))
        for p in names:
            if p not in self.variant.powers:
                raise AdjutantError(f"{p!r} is not a power of {self.variant.name}")
        if not names:
            raise AdjutantError("a draw needs at least one power")
        self.draw = names

    def copy(self) -> Game:
        game = replace(self, history=list(self.history), snapshots=list(self.snapshots), computer=dict(self.computer))
        game._orders = {p: list(os) for p, os in self._orders.items()}
        game._checks, game._checks_at = dict(self._checks), self._checks_at
        return game


def _not_on_the_map(missing: KeyError) -> str:
    """What is wrong with an order naming a place the map does not have (its name is the missing key)."""
    return f"{missing.args[0]!r} is not a place on this map"


def _count(values: Iterable[str]) -> dict[str, int]:
    """How many times each value comes (a plain loop: for speed, a ``Counter`` costs more to make)."""
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return counts


def _count_powers(units: Mapping[str, Unit]) -> dict[str, int]:
    """How many units each power has."""
    counts: dict[str, int] = {}
    for u in units.values():
        p = u.power
        counts[p] = counts.get(p, 0) + 1
    return counts


__all__ = ["LEGAL", "Game", "OrderCheck", "OrderProblem", "PhaseRecord", "Position", "Result", "Verdict"]
