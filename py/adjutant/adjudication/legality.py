"""Whether a movement-phase order is legal: what a unit may be ordered to do, from the map and the season
alone (an illegal order is adjudicated as a hold). The resolver, the game, the legal-order lists and
random games all ask here.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..map.kinds import Season
from ..map.routes import sea_route_exists
from ..map.variant import Variant, province_of
from .hooks import rules_of
from .orders import Convoy, Hold, Move, Support, Unit, UnitOrder, VariantUnitOrder, kind_refused


def _reaches(variant: Variant, unit: Unit, province: str, season: Season) -> bool:
    """Whether the unit could move to (and so support into) ``province`` without a convoy."""
    if province in variant.closed_in(season) or not variant.reaches(unit.type, unit.location, province):
        return False
    return unit.type != "A" or variant.edge_kind(unit.location, province) != "weak"


def normalize_move(variant: Variant, order: Move, season: Season) -> tuple[Move | None, str]:
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
    real = dest == dprov or dest in v.fleet_locations(dprov)
    carried = rules_of(v).carried_move(v, Move(unit, dest), season) if real else None
    if carried is not None:
        return carried, ""
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


def illegal_reason(variant: Variant, order: UnitOrder, units: Mapping[str, Unit], season: Season) -> str:
    """Why a movement-phase order is illegal, or ``""``. Illegal orders are adjudicated as holds."""
    return check_order(variant, order, season)[1]


def check_order(variant: Variant, order: UnitOrder, season: Season) -> tuple[UnitOrder, str]:
    """The order as it will be adjudicated (a move's coast filled in) and why it is illegal, or ``""``."""
    kind = type(order)
    if kind is Hold:
        return order, ""
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


def _other_reason(variant: Variant, order: UnitOrder, season: Season) -> str:
    v = variant
    if isinstance(order, VariantUnitOrder) and order.STANDS:
        return kind_refused(v, order)  # (legal wherever a hold is: Cluster's Research)
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
    # an order of a kind the classic rules do not have: the variant's, if its data names the kind
    return kind_refused(v, order) or rules_of(v).order_problem(v, order, season)
