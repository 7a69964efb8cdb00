"""A game's history: one record per phase, holding the orders as written and the results, and the functions
that make each kind of phase's record from what its adjudication returned (:class:`~adjutant.game.Game` calls
them; nothing else makes a record of a phase it adjudicated).

>>> from adjutant.adjudication.phases import Phase
>>> skipped(Phase(1901, "spring", "retreat")).silent
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..map.kinds import PhaseKind
from .orders import POWER_ORDERS, Build, Disband, Order, Unit, UnitOrder, VariantPowerOrder, format_order
from .phases import AdjustmentResult, Phase, RetreatResult
from .resolver import MovementOutcome, Resolver

#: a retreat result's reason for a unit given no order (:func:`~adjutant.adjudication.phases.adjudicate_retreats` gives
#: it), and for one that could be given none
NOT_ORDERED = "no retreat ordered: disbanded"
NOWHERE = "no place to retreat: disbanded"


class Result(NamedTuple):
    """One line of a phase's results."""

    power: str
    #: the order in canonical form, or "" for what happened without an order (civil disorder, no order)
    order: str
    unit: str
    success: bool
    reason: str = ""
    dislodged: bool = False

    def to_data(self) -> dict[str, object]:
        d: dict[str, object] = {"power": self.power, "order": self.order, "unit": self.unit, "success": self.success}
        if self.reason:
            d["reason"] = self.reason
        if self.dislodged:
            d["dislodged"] = True
        return d


@dataclass
class PhaseRecord:
    phase: Phase
    orders: dict[str, list[str]]
    results: list[Result]
    #: added by the adjudication of the phase before, with no order given in it
    skipped: bool = False

    @property
    def silent(self) -> bool:
        """A skipped phase with nothing to report (a retreat phase whose units could only be disbanded has)."""
        return self.skipped and not self.results


def written(orders: Mapping[str, Iterable[Order]], kind: PhaseKind) -> dict[str, list[str]]:
    """Orders given in a phase of ``kind``, by power, as a record holds them: in their canonical text, unit
    orders in province order, adjustments in the order given (the first builds are the ones made)."""
    out = {}
    for p, os in sorted(orders.items()):
        texts = [format_order(o) for o in (os if kind == "adjustment" else sorted(os, key=_unit_order_key))]
        if texts:
            out[p] = texts
    return out


def skipped(phase: Phase) -> PhaseRecord:
    """The record of a phase with nothing to decide, passed over after the phase before it."""
    return PhaseRecord(phase, {}, [], skipped=True)


def movement(
    phase: Phase,
    resolver: Resolver,
    success: list[bool],
    reasons: list[str],
    attackers: list[Unit | None],
    orders: Mapping[str, Sequence[Order]],
) -> PhaseRecord:
    """A movement phase's record, from its decided resolver and what
    :meth:`~adjutant.adjudication.resolver.Resolver.tally` said of each of its rows (whether it succeeded, why not, the
    unit that dislodged it), and the orders given by each power."""
    powers, texts = resolver.power, resolver.text
    n = len(attackers)
    # (a unit has an attacker just when it is among the dislodged)
    dislodged = [a is not None for a in attackers] if attackers.count(None) < n else [False] * n
    # each Result made from its columns (for speed: ``tuple.__new__`` skips the NamedTuple's constructor)
    columns = zip(powers, texts, resolver.unit_text, success, reasons, dislodged, strict=True)
    results: list[Result] = list(map(tuple.__new__, [Result] * n, columns))
    if n - texts.count("") == sum(map(len, orders.values())):
        # each order was for a unit on the board, one per unit: the resolver's order is the province order
        # (each order's power gave it: the powers that gave orders are those ``orders`` holds)
        by_power: dict[str, list[str]] = {power: [] for power in sorted(orders)}
        for power, text in zip(powers, texts, strict=True):
            if text:
                by_power[power].append(text)
        if [] in by_power.values():
            by_power = {power: mine for power, mine in by_power.items() if mine}  # (a power that gave none)
        return PhaseRecord(phase, by_power, results)
    unit_orders = [o for os in orders.values() for o in os if not isinstance(o, POWER_ORDERS)]
    grouped: defaultdict[str, list[str]] = defaultdict(list)
    for o in sorted(unit_orders, key=lambda o: o.unit.province):
        grouped[o.unit.power].append(format_order(o))
    return PhaseRecord(phase, dict(sorted(grouped.items())), results)


def variant_movement(
    phase: Phase, outcome: MovementOutcome, given: Sequence[UnitOrder], power_orders: Iterable[VariantPowerOrder]
) -> PhaseRecord:
    """The record of a movement phase a variant adjudicated itself (Cluster's): its outcome, the unit orders
    that counted (one per unit) and the orders of the variant's own kinds the powers gave (each power's in
    the order of their :meth:`~.orders.VariantPowerOrder.record_key`: Cluster's nominations strongest first)."""
    texts = {o.unit.province: format_order(o) for o in given}
    dislodged = {d.unit.province for d in outcome.dislodged}
    results = [
        Result(r.unit.power, texts.get(r.unit.province, ""), f"{r.unit.type} {r.unit.location}", r.success,
               r.reason, r.unit.province in dislodged)
        for r in outcome.results
    ]
    written: dict[str, list[str]] = {}
    for o in sorted(given, key=lambda o: o.unit.province):
        written.setdefault(o.unit.power, []).append(texts[o.unit.province])
    for po in sorted(power_orders, key=lambda po: po.record_key()):
        written.setdefault(po.power, []).append(format_order(po))
    return PhaseRecord(phase, dict(sorted(written.items())), results)


def retreats(
    phase: Phase, orders: dict[str, list[str]], results: Iterable[RetreatResult], nowhere: bool = False
) -> PhaseRecord:
    """A retreat phase's record, from the orders as written and the results of adjudicating it. ``nowhere``:
    no dislodged unit could retreat, and the record is the judges': every one disbanded for having no place to
    go, and the phase skipped (no order could be given in it: undo takes it back with the phase before, and a
    game file does not replay it)."""
    lines = [
        Result(
            r.unit.power,
            format_order(r.order) if r.order else "",
            str(r.unit),
            r.success,
            NOWHERE if nowhere and r.reason == NOT_ORDERED else r.reason,
        )
        for r in results
    ]
    return PhaseRecord(phase, orders, lines, skipped=nowhere)


def adjustments(phase: Phase, orders: dict[str, list[str]], results: Iterable[AdjustmentResult]) -> PhaseRecord:
    """An adjustment phase's record, from the orders as written and the results of adjudicating it."""
    lines = []
    for a in results:
        unit = str(a.unit) if a.unit else (str(a.order.unit) if isinstance(a.order, Disband) else "")
        if isinstance(a.order, Build):
            unit = f"{a.order.type} {a.order.location}"
        lines.append(Result(a.power, format_order(a.order) if a.order else "", unit, a.success, a.reason))
    return PhaseRecord(phase, orders, lines)


def _unit_order_key(o: Order) -> tuple[str, str]:
    """Unit orders in province order, then a power's own (a variant's kind by its record key: Cluster's
    nominations strongest first)."""
    if isinstance(o, VariantPowerOrder):
        return ("~", o.record_key())
    if isinstance(o, POWER_ORDERS):
        return ("~", format_order(o))
    return (o.unit.province, "")


__all__ = ["PhaseRecord", "Result", "adjustments", "movement", "retreats", "skipped", "variant_movement", "written"]
