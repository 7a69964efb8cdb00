"""What a picture of one phase of a game shows: its units, its orders, and the results of the phase that
made it (moves made, bounces, cuts, dislodged units and where they may retreat, centres that changed hands,
builds and removals due), as plain data. The page's board and every export draw a :class:`Scene`
(:mod:`adjutant.pictures.drawing`), so they show the same things.

>>> from adjutant.game import Game
>>> game = Game.new("standard")
>>> _ = game.add_orders("A Par - Bur")
>>> [(s.kind, s.at, s.to) for s in scene(game).orders]
[('move', 'par', 'bur')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..adjudication.orders import (
    Build,
    Convoy,
    Disband,
    Order,
    Protect,
    Retreat,
    Support,
    VariantPowerOrder,
    VariantUnitOrder,
    Waive,
    format_order,
    parse_order,
)
from ..adjudication.orders import Move as _Move
from ..adjudication.phases import adjustments_due, retreat_options
from ..errors import AdjutantError
from ..formats.report import place_labels
from ..map.variant import province_of

if TYPE_CHECKING:
    from ..game import Game, Position


@dataclass(frozen=True)
class Shape:
    """One order as the map draws it."""

    kind: str  # hold, move, support, convoy, retreat, disband, build, protect, research, transfer, mattermit
    power: str
    at: str  # location of the ordered unit (or of the build)
    to: str = ""  # destination (move, retreat, supported/convoyed unit's destination)
    via: str = ""  # the supported or convoyed unit's location
    success: bool | None = None  # None: not adjudicated yet
    illegal: bool = False  # kept at the player's say although illegal: it will hold
    reason: str = ""  # why an adjudicated order failed (or what happened: "cut", "bounced", ...)
    outcome: str = ""  # the kind of result the map draws a symbol for: bounced, cut, dislodged (or "")
    unit: str = ""  # a build's unit type, A or F ("" for a waive and every other order)


def outcome_of(reason: str) -> str:
    """The kind of a result's reason the map has a symbol for: "bounced" (a move or retreat that
    bounced), "cut" (a support cut), "dislodged" (the unit was dislodged), or ""."""
    if reason.startswith("bounced"):
        return "bounced"
    if reason.startswith("cut"):
        return "cut"
    if "dislodged" in reason:
        return "dislodged"
    return ""


@dataclass(frozen=True)
class PhaseMarks:
    """What a phase did besides its orders' arrows, as the map draws it on the position it made."""

    #: provinces where moves bounced with nobody getting in -> the locations the units came from
    standoffs: dict[str, list[str]] = field(default_factory=dict)
    #: locations where a unit was dislodged -> the reason ("dislodged by A tyr")
    dislodged: dict[str, str] = field(default_factory=dict)
    #: in an adjustment position: power -> builds (positive) or removals (negative) due
    adjustments: dict[str, int] = field(default_factory=dict)
    #: in an adjustment position: power -> the home centres it may build in now
    build_sites: dict[str, list[str]] = field(default_factory=dict)


def order_shape(order: Order, units: Mapping[str, Any], success: bool | None = None) -> Shape | None:
    """How ``order`` is drawn; None for an order with nothing to draw (a power's order of its variant's own
    kind: Cluster's secret nomination)."""
    if isinstance(order, VariantPowerOrder):
        return None
    if isinstance(order, (Build, Waive)):
        unit = order.type if isinstance(order, Build) else ""
        return Shape("build", order.power, getattr(order, "location", ""), success=success, unit=unit)
    power, at = order.unit.power, order.unit.location

    def location(target: str) -> str:
        """Where the unit an order serves stands (its province if it is not found)."""
        unit = units.get(target)
        return str(unit.location) if unit is not None else target

    if isinstance(order, _Move):
        return Shape("move", power, at, order.dest, success=success)
    if isinstance(order, Retreat):
        return Shape("retreat", power, at, order.dest, success=success)
    if isinstance(order, Support):
        return Shape("support", power, at, order.dest or "", location(order.target), success)
    if isinstance(order, Convoy):
        return Shape("convoy", power, at, order.dest, location(order.target), success)
    if isinstance(order, Protect):
        return Shape("protect", power, at, order.dest, location(order.target), success)
    if isinstance(order, VariantUnitOrder):  # (Cluster's Transfer, Mattermission, Research)
        kind, dest, served = order.drawn()
        return Shape(kind, power, at, dest, location(served) if served else "", success=success)
    if isinstance(order, Disband):
        return Shape("disband", power, at, success=success)
    return Shape("hold", power, at, success=success)


def current_shapes(game: Game, illegal: Callable[[Order], str] | None = None) -> list[Shape]:
    """The orders given so far in the game's current phase, as drawn; ``illegal`` says why an order kept
    anyway is illegal ("" if it is not)."""
    units = {**game.dislodged_units(), **game.units}
    drawn = []
    for orders in game.all_orders().values():
        for order in orders:
            shape = order_shape(order, units)
            if shape is not None:
                drawn.append(replace(shape, illegal=True) if illegal is not None and illegal(order) else shape)
    return drawn


def record_shapes(game: Game, index: int, given: Mapping[str, Iterable[Order]] | None = None) -> list[Shape]:
    """History record ``index``'s orders, drawn with their results. ``given`` are the orders the phase was
    adjudicated with, by power, where the caller kept them (the record holds their text, read again
    otherwise: the parser costs a page's adjudication more than the drawing)."""
    record = game.history[index]
    position = game.position_at(index)
    dislodged = {d.unit.province: d.unit for d in position.dislodged}
    outcome = {r.order: r for r in record.results if r.order}
    everyone = {**dislodged, **position.units}
    known = {(power, format_order(order)): order for power, orders in (given or {}).items() for order in orders}
    out = []
    for power, texts in record.orders.items():
        for text in texts:
            order = known.get((power, text))
            if order is None:
                try:
                    order = parse_order(text, game.variant, position.units, power=power,
                                        phase=position.phase.kind, dislodged=dislodged)
                except AdjutantError:
                    continue
            result = outcome.get(text)
            success = result.success if result is not None else None
            shape = order_shape(order, everyone, success)
            if shape is not None:
                reason = place_labels(game.variant, result.reason) if result is not None else ""
                out.append(replace(shape, reason=reason, outcome=outcome_of(reason)))
    return out


def results_record(game: Game, view: int) -> int | None:
    """The history record whose results are drawn on position ``view``: the last one before it that was
    adjudicated (not skipped); None on the game's first position."""
    index = view - 1
    while index >= 0 and game.history[index].skipped:
        index -= 1
    return index if index >= 0 else None


def changed_centres(game: Game, view: int) -> dict[str, str]:
    """Supply centres whose owner changed in the phase that made position ``view``: province -> the earlier
    owner ("" for a neutral centre)."""
    index = results_record(game, view)
    if index is None:
        return {}
    before = game.position_at(index).centres
    now = game.position_at(view).centres
    return {p: before.get(p, "") for p in sorted(set(before) | set(now)) if before.get(p) != now.get(p)}


def retreat_choices(game: Game, view: int) -> dict[str, list[str]]:
    """In a retreat position, where each dislodged unit (by location) may retreat."""
    position = game.position_at(view)
    if position.phase.kind != "retreat":
        return {}
    return {d.unit.location: retreat_options(game.variant, d, position.units, position.contested,
                                             position.phase.season)
            for d in position.dislodged}


def phase_marks(game: Game, view: int, power: str | None = None, shapes: list[Shape] | None = None) -> PhaseMarks:
    """What the phase that made position ``view`` did besides its orders' arrows: stand-offs, units
    dislodged, and (in an adjustment position) the builds and removals due and where each power may build
    (only ``power``'s build places when a power is chosen). ``shapes``: that phase's, if already drawn."""
    standoffs: dict[str, list[str]] = {}
    dislodged: dict[str, str] = {}
    index = results_record(game, view)
    if index is not None:
        record = game.history[index]
        drawn = shapes if shapes is not None else record_shapes(game, index)
        won = {s.to for s in drawn if s.kind in ("move", "retreat") and s.success}
        for s in drawn:
            if s.kind in ("move", "retreat") and s.outcome == "bounced" and s.to not in won:
                standoffs.setdefault(province_of(s.to), []).append(s.at)
        standoffs = {p: sorted(units) for p, units in standoffs.items() if len(units) > 1}
        for r in record.results:
            if r.dislodged:
                dislodged[r.unit.split(" ")[-1]] = place_labels(game.variant, r.reason)
    position = game.position_at(view)
    adjustments: dict[str, int] = {}
    sites: dict[str, list[str]] = {}
    if position.phase.kind == "adjustment":
        for due in sorted(adjustments_due(game.variant, position.units, position.centres).values(),
                          key=lambda due: due.power):
            if due.delta:
                adjustments[due.power] = due.delta
            if due.delta > 0 and power in (None, due.power):
                sites[due.power] = sorted({province_of(text.split()[1]) for text in due.build_places})
    return PhaseMarks(standoffs, dislodged, adjustments, sites)


@dataclass(frozen=True)
class Scene:
    """One phase of a game as a picture shows it."""

    position: Position
    #: the orders given at the position (the current phase's, as entered; none for a past position)
    orders: list[Shape] = field(default_factory=list)
    #: the orders of the phase that made the position, with their results
    results: list[Shape] = field(default_factory=list)
    #: the centres that phase changed hands: province -> earlier owner
    changed: dict[str, str] = field(default_factory=dict)
    #: where each dislodged unit (by location) may retreat
    retreats: dict[str, list[str]] = field(default_factory=dict)
    #: stand-offs, dislodgements, adjustments due (None: the results are not shown)
    marks: PhaseMarks | None = None
    #: Cluster: the Sites of the Ancients the viewer may see (province -> level)
    sites: dict[str, int] = field(default_factory=dict)
    #: Cluster: the units' strengths the viewer may see (province -> "3", "2")
    strengths: dict[str, str] = field(default_factory=dict)


def scene(game: Game, view: int | None = None, *, orders: bool = True, results: bool = True,
          sites: Mapping[str, int] | None = None, strengths: Mapping[str, str] | None = None,
          illegal: Callable[[Order], str] | None = None) -> Scene:
    """Position ``view`` of ``game`` (an index into its history; None or ``len(history)``: the current
    phase) with its orders if ``orders`` and the results of the phase that made it if ``results``. A past
    position's orders are drawn as given (their results go on the position they made) only when its
    results are not shown, as a judge's map of the orders is. What a variant keeps secret is drawn only as
    given (``sites``, ``strengths``: what the viewer may see)."""
    last = len(game.history)
    view = last if view is None else view
    if not 0 <= view <= last:
        raise AdjutantError(f"there is no phase {view} in this game (it has {last + 1})")
    index = results_record(game, view) if results else None
    shown = record_shapes(game, index) if index is not None else []
    return Scene(
        game.position_at(view),
        orders=(current_shapes(game, illegal) if view == last else
                [] if results else [replace(s, success=None) for s in record_shapes(game, view)]) if orders else [],
        results=shown,
        changed=changed_centres(game, view) if results else {},
        retreats=retreat_choices(game, view),
        marks=phase_marks(game, view, shapes=shown) if results else None,
        sites=dict(sites or {}),
        strengths=dict(strengths or {}),
    )


def find_phase(game: Game, name: str) -> int:
    """The index of the position of phase ``name`` ("F1903M", any case) in ``game``'s history, the last
    one of that name (a phase undone and played again counts once)."""
    wanted = name.strip().upper()
    found = [i for i in range(len(game.history) + 1) if str(game.position_at(i).phase).upper() == wanted]
    if not found:
        names = ", ".join(str(game.position_at(i).phase) for i in range(len(game.history) + 1))
        raise AdjutantError(f"this game has no phase {name!r}; its phases are {names}")
    return found[-1]


__all__ = [
    "PhaseMarks",
    "Scene",
    "Shape",
    "changed_centres",
    "current_shapes",
    "find_phase",
    "order_shape",
    "outcome_of",
    "phase_marks",
    "record_shapes",
    "results_record",
    "retreat_choices",
    "scene",
]
