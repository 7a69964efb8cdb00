"""Retreat and adjustment phases: pure functions of (variant, position, orders).

>>> from adjutant import load_variant
>>> v = load_variant("standard")
>>> str(Phase.parse("F1901R")), Phase.parse("S1901M").next(), Phase(1901, "winter", "adjustment").title
('F1901R', Phase(year=1901, season='spring', kind='retreat'), 'Winter 1901 adjustments')
"""

from __future__ import annotations

import functools
import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import AdjutantError
from ..map.kinds import PhaseKind, Season
from ..map.variant import Variant, province_of
from .orders import Build, Disband, Retreat, Unit, Waive

SEASON_LETTERS: dict[Season, str] = {"spring": "S", "fall": "F", "winter": "W"}
KIND_LETTERS: dict[PhaseKind, str] = {"movement": "M", "retreat": "R", "adjustment": "A"}


@dataclass(frozen=True, order=True)
class Phase:
    year: int
    season: Season
    kind: PhaseKind

    def __str__(self) -> str:
        return f"{SEASON_LETTERS[self.season]}{self.year}{KIND_LETTERS[self.kind]}"

    @property
    def title(self) -> str:
        kind = {"movement": "movement", "retreat": "retreats", "adjustment": "adjustments"}[self.kind]
        return f"{self.season.title()} {self.year} {kind}"

    @classmethod
    def parse(cls, text: str) -> Phase:
        m = re.fullmatch(r"([SFW])(\d{1,5})([MRA])", text.strip().upper())
        if not m:
            raise AdjutantError(f"{text!r} is not a phase (like S1901M, F1901R or W1901A)")
        season = {v: k for k, v in SEASON_LETTERS.items()}[m.group(1)]
        kind = {v: k for k, v in KIND_LETTERS.items()}[m.group(3)]
        phase = cls(int(m.group(2)), season, kind)
        if (season == "winter") != (kind == "adjustment"):
            raise AdjutantError(f"{text!r} is not a phase: adjustments happen in winter, and only then")
        return phase

    def next(self) -> Phase:
        """The phase after this one, before skipping phases with nothing to decide."""
        return _next_phase(self.year, self.season, self.kind)


@functools.lru_cache(maxsize=1024)
def _next_phase(year: int, season: Season, kind: PhaseKind) -> Phase:
    """:meth:`Phase.next`, made once per phase (phases are values: the same one serves every game)."""
    if kind == "movement":
        return Phase(year, season, "retreat")
    if season == "spring":
        return Phase(year, "fall", "movement")
    if season == "fall":
        return Phase(year, "winter", "adjustment")
    return Phase(year + 1, "spring", "movement")


# --- retreats -----------------------------------------------------------------------------------


class Dislodgement(NamedTuple):
    """A unit dislodged in a movement phase, waiting to retreat."""

    unit: Unit
    #: the province the successful attacker came from (the unit may not retreat there), or None if it
    #: came by convoy (or coast-run)
    attacker_from: str | None
    attacker: Unit



@dataclass(frozen=True)
class RetreatResult:
    unit: Unit
    order: Retreat | Disband | None
    success: bool
    reason: str = ""


def retreat_options(
    variant: Variant, d: Dislodgement, units: Mapping[str, Unit], contested: Iterable[str], season: Season
) -> list[str]:
    """Where a dislodged unit may retreat: adjacent, empty, not contested, not where its attacker came
    from, open this season, and not across a weak passage."""
    blocked = set(contested)
    out = []
    for loc in variant.neighbours(d.unit.type, d.unit.location):
        prov = province_of(loc)
        p = variant.provinces[prov]
        if prov in units or prov in blocked or prov == d.attacker_from or not p.open_in(season):
            continue
        if variant.edge_kind(d.unit.location, loc) == "weak":
            continue
        out.append(loc)
    return out


def adjudicate_retreats(
    variant: Variant,
    units: Mapping[str, Unit],
    dislodged: Iterable[Dislodgement],
    contested: Iterable[str],
    orders: Iterable[Retreat | Disband],
    season: Season,
) -> tuple[dict[str, Unit], list[RetreatResult]]:
    """Resolve retreats; returns the units on the board afterwards and one result per dislodged unit."""
    dislodged = list(dislodged)
    contested = set(contested)
    by_unit = {(o.unit.power, o.unit.location): o for o in orders}
    wanted: dict[str, list[int]] = {}
    chosen: list[tuple[Retreat | Disband | None, str, str]] = []
    for k, d in enumerate(dislodged):
        o = by_unit.get((d.unit.power, d.unit.location))
        if isinstance(o, Retreat):
            dest = _retreat_dest(variant, d, o.dest, units, contested, season)
            problem = retreat_problem(variant, d, o.dest, units, contested, season)
            if problem:
                chosen.append((o, "", problem))
                continue
            wanted.setdefault(province_of(dest), []).append(k)
            chosen.append((o, dest, ""))
        else:
            chosen.append((o, "", "disbanded" if isinstance(o, Disband) else "no retreat ordered: disbanded"))
    new_units = dict(units)
    results = []
    for k, d in enumerate(dislodged):
        o, dest, why = chosen[k]
        if dest and len(wanted[province_of(dest)]) == 1:
            new_units[province_of(dest)] = Unit(d.unit.power, d.unit.type, dest)
            results.append(RetreatResult(d.unit, o, True))
        elif dest:
            others = [str(dislodged[j].unit) for j in wanted[province_of(dest)] if j != k]
            results.append(RetreatResult(d.unit, o, False, f"bounced with {', '.join(others)}: disbanded"))
        else:
            results.append(RetreatResult(d.unit, o, isinstance(o, Disband), why))
    return new_units, results


def _retreat_dest(
    variant: Variant, d: Dislodgement, dest: str, units: Mapping[str, Unit], contested: set[str], season: Season
) -> str:
    if d.unit.type == "A":
        return province_of(dest)
    if "/" not in dest:
        fitting = [x for x in retreat_options(variant, d, units, contested, season) if province_of(x) == dest]
        if len(fitting) == 1:
            return fitting[0]
    return dest


def retreat_problem(
    variant: Variant, d: Dislodgement, dest: str, units: Mapping[str, Unit], contested: Iterable[str], season: Season
) -> str:
    """Why a retreat is illegal (``"illegal: …: disbanded"``), or ``""``."""
    contested = set(contested)
    dest = _retreat_dest(variant, d, dest, units, contested, season)
    if dest in retreat_options(variant, d, units, contested, season):
        return ""
    return _why_not(variant, d, dest, units, contested, season)


def _why_not(
    variant: Variant, d: Dislodgement, dest: str, units: Mapping[str, Unit], contested: set[str], season: Season
) -> str:
    prov = province_of(dest)
    name = variant.provinces[prov].name if prov in variant.provinces else dest
    if not variant.can_move(d.unit.type, d.unit.location, dest):
        return f"illegal: {variant.province_name(d.unit.location)} is not adjacent to {name}: disbanded"
    if prov in units:
        return f"illegal: {name} is occupied: disbanded"
    if prov == d.attacker_from:
        return f"illegal: the attack came from {name}: disbanded"
    if prov in contested:
        return f"illegal: {name} was left empty by a stand-off: disbanded"
    if variant.edge_kind(d.unit.location, dest) == "weak":
        return f"illegal: no retreat across the weak passage to {name}: disbanded"
    return f"illegal: {name} cannot be entered in {season}: disbanded"


# --- adjustments ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class AdjustmentResult:
    power: str
    order: Build | Disband | Waive | None
    success: bool
    reason: str = ""
    #: for a civil-disorder removal, the unit removed
    unit: Unit | None = None


@dataclass
class Adjustment:
    """What a power must do this winter: ``delta`` > 0 builds allowed, < 0 units to remove."""

    power: str
    delta: int
    build_places: list[str] = field(default_factory=list)


def adjustments_due(variant: Variant, units: Mapping[str, Unit], centres: Mapping[str, str]) -> dict[str, Adjustment]:
    out: dict[str, Adjustment] = {}
    owned = Counter(centres.values())
    have = Counter(u.power for u in units.values())
    for power in variant.powers.values():
        delta = owned[power.id] - have[power.id]
        if delta == 0:
            continue
        places = build_places(variant, power.id, units, centres)
        if delta > 0:
            delta = min(delta, len({province_of(p) for p in places}))
        if delta != 0:
            out[power.id] = Adjustment(power.id, delta, places)
    return out


def build_places(variant: Variant, power: str, units: Mapping[str, Unit], centres: Mapping[str, str]) -> list[str]:
    """``["A lon", "F lon", ...]``: every build the power could order now."""
    return list(dict.fromkeys(_build_places(variant, power, units, centres)))


def can_build(variant: Variant, power: str, units: Mapping[str, Unit], centres: Mapping[str, str]) -> bool:
    """Whether the power could order some build now (:func:`build_places` is not empty)."""
    return next(_build_places(variant, power, units, centres), None) is not None


def _build_places(variant: Variant, power: str, units: Mapping[str, Unit], centres: Mapping[str, str]) -> Iterator[str]:
    p = variant.powers[power]
    for prov in p.home_centres:
        if centres.get(prov) == power and prov not in units:
            yield from variant.builds_at(prov)
    for site in p.build_sites:
        if site.province in units or not all(centres.get(r) == power for r in site.requires):
            continue
        if variant.provinces[site.province].centre and centres.get(site.province) != power:
            continue
        yield from variant.builds_at(site.province, site.units, site.coast)


def adjudicate_adjustments(
    variant: Variant,
    units: Mapping[str, Unit],
    centres: Mapping[str, str],
    orders: Iterable[Build | Disband | Waive],
) -> tuple[dict[str, Unit], list[AdjustmentResult]]:
    """Apply builds and removals; a power that orders too few removals loses the units furthest from
    its home centres (DATC 6.J, the 2023 rules)."""
    due = adjustments_due(variant, units, centres)
    new_units = dict(units)
    results: list[AdjustmentResult] = []
    orders = list(orders)
    for o in list(orders):
        # a unit in a province closed in winter may be removed by its owner even when nothing is due
        # (Loeb9's Arctic Ocean); it never adds a build
        if isinstance(o, Disband) and voluntary_removal(variant, o.unit, due):
            orders.remove(o)
            if new_units.get(o.unit.province) == o.unit:
                del new_units[o.unit.province]
                results.append(AdjustmentResult(o.unit.power, o, True, "removed by its owner"))
            else:
                results.append(AdjustmentResult(o.unit.power, o, False, "no such unit to remove"))
    for power, adj in sorted(due.items()):
        mine = [o for o in orders if (o.power if isinstance(o, (Build, Waive)) else o.unit.power) == power]
        if adj.delta > 0:
            left = adj.delta
            used: set[str] = set()
            for o in mine:
                if isinstance(o, Waive):
                    if left > 0:
                        left -= 1
                        results.append(AdjustmentResult(power, o, True))
                    else:
                        results.append(AdjustmentResult(power, o, False, "no builds left to waive"))
                    continue
                if not isinstance(o, Build):
                    results.append(AdjustmentResult(power, o, False, "illegal: builds are due, not removals"))
                    continue
                reason = _build_problem(variant, power, o, new_units, centres, used, left)
                if reason:
                    results.append(AdjustmentResult(power, o, False, reason))
                    continue
                left -= 1
                used.add(province_of(o.location))
                new_units[province_of(o.location)] = Unit(power, o.type, _build_location(variant, o))
                results.append(AdjustmentResult(power, o, True))
            if left > 0:
                results.append(AdjustmentResult(power, None, True, f"{left} unused build(s) waived"))
        else:
            need = -adj.delta
            removed: set[str] = set()
            for o in mine:
                if not isinstance(o, Disband):
                    results.append(AdjustmentResult(power, o, False, "illegal: removals are due, not builds"))
                    continue
                u = new_units.get(o.unit.province)
                if len(removed) >= need:
                    results.append(AdjustmentResult(power, o, False, "no more removals are due"))
                elif u is None or u != o.unit or o.unit.province in removed:
                    results.append(AdjustmentResult(power, o, False, "no such unit to remove"))
                else:
                    removed.add(o.unit.province)
                    del new_units[o.unit.province]
                    results.append(AdjustmentResult(power, o, True))
            if len(removed) < need:
                for u in civil_disorder(variant, power, new_units, centres, need - len(removed)):
                    del new_units[u.province]
                    results.append(AdjustmentResult(power, None, True, "civil disorder: removed", unit=u))
    for o in orders:
        power = o.power if isinstance(o, (Build, Waive)) else o.unit.power
        if power not in due:
            results.append(AdjustmentResult(power, o, False, "no adjustment is due"))
    return new_units, results


def voluntary_removal(variant: Variant, unit: Unit, due: Mapping[str, Adjustment]) -> bool:
    """Whether removing the unit is a free choice of its owner rather than one of the removals due."""
    if variant.provinces[unit.province].open_in("winter"):
        return False
    adj = due.get(unit.power)
    return adj is None or adj.delta > 0


def _build_location(variant: Variant, o: Build) -> str:
    if o.type == "F" and "/" not in o.location:
        locs = variant.fleet_locations(o.location)
        if len(locs) == 1:
            return locs[0]
    return o.location


def _build_problem(
    variant: Variant,
    power: str,
    o: Build,
    units: Mapping[str, Unit],
    centres: Mapping[str, str],
    used: set[str],
    left: int,
) -> str:
    prov = province_of(o.location)
    name = variant.provinces[prov].name
    if prov in used or prov in units:
        return f"illegal: {name} is occupied"
    loc = _build_location(variant, o)
    if o.type == "F" and "/" not in loc and variant.provinces[prov].coasts:
        return f"illegal: say which coast of {name} to build on"
    allowed = build_places(variant, power, units, centres)
    if f"{o.type} {loc}" not in allowed:
        if prov not in variant.powers[power].home_centres and not any(
            s.province == prov for s in variant.powers[power].build_sites
        ):
            return f"illegal: {name} is not a home centre of {variant.powers[power].name}"
        if centres.get(prov) != power and variant.provinces[prov].centre:
            return f"illegal: {variant.powers[power].name} does not own {name}"
        if not variant.can_stand(o.type, loc):
            return f"illegal: a {'fleet' if o.type == 'F' else 'army'} cannot be built in {name}"
        return f"illegal: {variant.powers[power].name} may not build there now"
    if left <= 0:
        return "no builds left"
    return ""


def civil_disorder(
    variant: Variant, power: str, units: Mapping[str, Unit], centres: Mapping[str, str], count: int
) -> list[Unit]:
    """The units removed when a power orders too few removals (DATC 6.J, 2023 rules): the furthest from
    any supply centre it owns first, distance counted in steps between neighbouring provinces whatever the
    unit's type; fleets before armies on ties, then by province name."""
    homes = [c for c, owner in centres.items() if owner == power]
    mine = [u for u in units.values() if u.power == power]
    keyed = sorted(
        mine,
        key=lambda u: (
            -_distance(variant, u, set(homes)),
            0 if u.type == "F" else 1,
            variant.provinces[u.province].name,
        ),
    )
    return keyed[:count]


def _distance(variant: Variant, unit: Unit, targets: set[str]) -> int:
    if not targets:
        return 0
    start = unit.province
    seen = {start}
    queue: deque[tuple[str, int]] = deque([(start, 0)])
    while queue:
        loc, d = queue.popleft()
        if province_of(loc) in targets:
            return d
        for n in _steps(variant, province_of(loc)):
            if n not in seen:
                seen.add(n)
                queue.append((n, d + 1))
    return 1000


def _steps(variant: Variant, prov: str) -> list[str]:
    """For distances, a unit steps to any neighbouring province, land or sea."""
    out = set()
    for loc in variant.locations(prov):
        for t in ("A", "F"):
            for n in variant.neighbours(t, loc):
                out.add(province_of(n))
    return sorted(out)


def update_centres(variant: Variant, units: Mapping[str, Unit], centres: Mapping[str, str]) -> dict[str, str]:
    """After a Fall turn: each supply centre with a unit in it belongs to that unit's power."""
    out = dict(centres)
    for prov in variant.centre_set.intersection(units):
        out[prov] = units[prov].power
    return out


__all__ = [
    "Adjustment",
    "AdjustmentResult",
    "Dislodgement",
    "Phase",
    "RetreatResult",
    "adjudicate_adjustments",
    "adjudicate_retreats",
    "adjustments_due",
    "build_places",
    "can_build",
    "civil_disorder",
    "voluntary_removal",
    "retreat_options",
    "retreat_problem",
    "update_centres",
]
