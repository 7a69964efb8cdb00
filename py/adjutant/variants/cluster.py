"""Cluster Diplomacy's rules: the Sites of the Ancients, multiple units, Research, Transfer and
Mattermission (rules 4–7 of the Cluster Diplomacy rules text; its readings and decisions are in
``maps/cluster.md``).

The game master places the sites at random before play (rule 6); the placement here is a pure function of
the variant and a seed, so it is reproducible from the seed kept (secretly) in the game. The rest is the
Cluster state a position carries (:class:`ClusterState`) and the steps of a phase that change it, which
:class:`ClusterDiplomacy` hands the game as the hooks of :mod:`adjutant.variants.hooks`, around the ordinary
adjudication.

>>> from adjutant import load_variant
>>> v = load_variant("cluster")
>>> sites = place_sites(v, seed=1901)
>>> len(sites), sorted(set(sites.values()))
(21, [1, 2, 3])
>>> sites == place_sites(v, seed=1901)
True
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..adjudication.hooks import SupportRule, Supports
from ..adjudication.orders import (
    Disband,
    Hold,
    Mattermit,
    Move,
    Nominate,
    Order,
    Research,
    Retreat,
    Support,
    Transfer,
    Unit,
    UnitOrder,
    find_power,
)
from ..adjudication.phases import AdjustmentResult, Phase, RetreatResult
from ..adjudication.resolver import MovementOutcome, OrderResult, adjudicate_movement
from ..errors import AdjutantError, GameFileError
from ..map.kinds import Season, UnitType
from ..map.options import ClusterRules
from ..map.variant import Variant, province_of
from .hooks import Objection, VariantMovement, VariantRules, VariantState

#: How many times placement starts again from scratch before giving up (it never needs many).
ATTEMPTS = 200


def _rules(variant: Variant) -> ClusterRules:
    if variant.cluster is None:
        raise AdjutantError(f"{variant.name} has no Sites of the Ancients")
    return variant.cluster


def neighbours(variant: Variant, province: str) -> set[str]:
    """Provinces sharing a crossable border with ``province`` (by any unit)."""
    out: set[str] = set()
    for loc in variant.locations(province):
        for t in ("A", "F"):
            out.update(province_of(n) for n in variant.neighbours(t, loc))
    return out


def country_of(rules: ClusterRules, province: str) -> str | None:
    for country, members in rules.countries.items():
        if province in members:
            return country
    return None


def place_sites(variant: Variant, seed: int) -> dict[str, int]:
    """Province -> site level (1, 2 or 3) for every Site of the Ancients, drawn with ``seed``.

    Rule 6: of each level, at least one and at most three stand at sea, no two are adjacent, and no more
    than two are in any one country. Decision (maps/cluster.md): one site at most per province, and only
    on provinces a unit can enter.
    """
    rules = _rules(variant)
    rng = random.Random(seed)
    spaces = sorted(p.id for p in variant.provinces.values() if p.type != "impassable" and not p.offboard)
    seas = [p for p in spaces if variant.provinces[p].is_sea]
    lands = [p for p in spaces if not variant.provinces[p].is_sea]
    near = {p: neighbours(variant, p) for p in spaces}
    low, high = rules.sea_sites_per_level
    for _ in range(ATTEMPTS):
        sites: dict[str, int] = {}
        if _fill(rules, rng, sites, seas, lands, near, low, high):
            return sites
    raise AdjutantError(f"could not place the Sites of the Ancients on {variant.name}")


def _fill(
    rules: ClusterRules,
    rng: random.Random,
    sites: dict[str, int],
    seas: list[str],
    lands: list[str],
    near: dict[str, set[str]],
    low: int,
    high: int,
) -> bool:
    for level in rules.site_levels:
        at_sea = rng.randint(low, high)
        for pool, count in ((seas, at_sea), (lands, rules.sites_per_level - at_sea)):
            for _ in range(count):
                options = [p for p in pool if _allowed(rules, sites, near, p, level)]
                if not options:
                    return False
                sites[rng.choice(options)] = level
    return True


def _allowed(rules: ClusterRules, sites: dict[str, int], near: dict[str, set[str]], p: str, level: int) -> bool:
    if p in sites:
        return False
    if any(sites.get(n) == level for n in near[p]):
        return False
    country = country_of(rules, p)
    if country is None:
        return True
    same = sum(1 for q, lv in sites.items() if lv == level and country_of(rules, q) == country)
    return same < rules.sites_per_country_per_level


def check_sites(variant: Variant, sites: dict[str, int]) -> list[str]:
    """Every way a placement breaks rule 6 (empty: it keeps them all)."""
    rules = _rules(variant)
    problems = []
    for level in rules.site_levels:
        mine = [p for p, lv in sites.items() if lv == level]
        if len(mine) != rules.sites_per_level:
            problems.append(f"level {level}: {len(mine)} sites, not {rules.sites_per_level}")
        at_sea = sum(1 for p in mine if variant.provinces[p].is_sea)
        low, high = rules.sea_sites_per_level
        if not low <= at_sea <= high:
            problems.append(f"level {level}: {at_sea} sites at sea, not between {low} and {high}")
        for p in mine:
            for q in neighbours(variant, p):
                if q in mine and p < q:
                    problems.append(f"level {level}: {p} and {q} are adjacent")
        for country in rules.countries:
            n = sum(1 for p in mine if country_of(rules, p) == country)
            if n > rules.sites_per_country_per_level:
                problems.append(f"level {level}: {n} sites in {country}")
    return problems


def distances(variant: Variant, start: str, limit: int) -> dict[str, int]:
    """Every province within ``limit`` moves of ``start`` across any crossable border, with its number of
    moves (``start`` itself at 0)."""
    found = {start: 0}
    queue: deque[str] = deque([start])
    while queue:
        p = queue.popleft()
        if found[p] < limit:
            for n in neighbours(variant, p):
                if n not in found:
                    found[n] = found[p] + 1
                    queue.append(n)
    return found


def distance(variant: Variant, start: str, goal: str) -> int | None:
    """Moves across any crossable border from one province to another (None if unreachable)."""
    return distances(variant, start, len(variant.provinces)).get(goal)


def mattermission_targets(variant: Variant, site: str, unit_type: UnitType) -> list[str]:
    """Where a unit of the type standing on a Mattermission site may be mattermitted: every place on land or
    a coast where it could stand, within the variant's range of the site (decisions in maps/cluster.md)."""
    rules = _rules(variant)
    near = distances(variant, site, rules.mattermission_range)
    out = []
    for p in sorted(near):
        if near[p] == 0 or variant.provinces[p].is_sea:
            continue
        locations = [p] if unit_type == "A" else variant.fleet_locations(p)
        out += [loc for loc in locations if variant.can_stand(unit_type, loc)]
    return out


# --- the Cluster state of a position ----------------------------------------------------------------

TRANSFER, MATTERMISSION = "transfer", "mattermission"
#: the knowledge a site of each level holds (rule 5.1: only level 2 teaches Transfer, only level 3
#: Mattermission; level 1 teaches nothing)
KNOWLEDGE = {2: TRANSFER, 3: MATTERMISSION}
#: the view of a game that holds every secret (the game master's); others are for display only
GM = "gm"
PUBLIC = "public"


@dataclass(frozen=True)
class Aura:
    """A multiple unit's strength (rule 1), and whether it has been used, so is reported (rule 2)."""

    level: int
    revealed: bool = False


@dataclass(frozen=True)
class Transferee:
    """An aura transferred into another unit, its host (rule 5.2)."""

    #: the power whose aura it is: the host follows its orders whenever it gives one
    power: str
    #: the host's province (while ``retreating``, the province it was dislodged from)
    host: str
    #: the original unit's province (it stands there, its aura away); None once it has died
    original: str | None
    #: what the transferee is worth: the host's strength
    value: int
    #: the host's own level: when the value drops below it, the aura and its original unit die
    host_level: int
    #: the phase of the transfer (the value drops in the same season of each later year)
    since: str
    retreating: bool = False


@dataclass(frozen=True)
class ClusterState(VariantState):
    """Everything Cluster Diplomacy adds to a position. Secret but for what the rules report: the
    revealed multiples and the research results (see :mod:`adjutant.group_play.cluster_views` for the views)."""

    #: an id for the game, public, so that a game's parts can be told from another game's
    game: str
    #: the seed the sites were drawn with (None in a view without the game master's secrets)
    seed: int | None
    #: province -> site level
    sites: Mapping[str, int] = field(default_factory=dict)
    #: the multiple units on the board, by province
    auras: Mapping[str, Aura] = field(default_factory=dict)
    #: in a retreat phase, the dislodged multiple units, by the province they were dislodged from
    retreating: Mapping[str, Aura] = field(default_factory=dict)
    #: power -> the levels it left to a later build (rule 2)
    deferred: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    #: power -> what it knows ("transfer", "mattermission")
    knowledge: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: power -> the places it has searched or a transferee of its found: province -> site level (0: none)
    found: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    transferees: tuple[Transferee, ...] = ()
    #: power -> the provinces of the units it built in the adjustment phase just played
    fresh: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: every research result, reported to all (rule 5.1): (phase, province, site level or 0 for none)
    research: tuple[tuple[str, str, int], ...] = ()
    #: whether the first movement phase has been adjudicated (nominations were open until then)
    started: bool = False
    #: GM, PUBLIC or a power id: whose view of the game this is
    view: str = GM

    def strengths(self) -> dict[str, int]:
        """Each unit's strength other than one, by province: its aura, or a host its transferee's worth."""
        out = {p: a.level for p, a in self.auras.items() if a.level != 1}
        for t in self.transferees:
            if not t.retreating:
                out[t.host] = t.value
        return out

    def controller(self, province: str, retreating: bool = False) -> str | None:
        """The power whose transferee commands the unit in ``province``, if any."""
        t = self.carried(province, retreating)
        return t.power if t is not None else None

    def carried(self, province: str, retreating: bool = False) -> Transferee | None:
        """The transferee the unit in ``province`` hosts, if any."""
        for t in self.transferees:
            if t.host == province and t.retreating == retreating:
                return t
        return None

    def originals(self) -> set[str]:
        return {t.original for t in self.transferees if t.original is not None}


def cluster_state(state: VariantState | None) -> ClusterState | None:
    """A position's Cluster state (its ``variant_state``), or None in a game of another variant."""
    return state if isinstance(state, ClusterState) else None


def start(variant: Variant, seed: int | None = None, game: str | None = None) -> ClusterState:
    """The state of a new game: the sites drawn from ``seed`` (a random one if None)."""
    import secrets

    if seed is None:
        seed = secrets.randbits(63)
    return ClusterState(game or secrets.token_hex(6), seed, place_sites(variant, seed))


def _name(variant: Variant, location: str) -> str:
    return variant.province_name(location)


def level_of(state: ClusterState, province: str) -> int:
    aura = state.auras.get(province)
    return aura.level if aura is not None else 1


# --- orders: who gives them, and what can be said at once -------------------------------------------


def board_for(
    state: ClusterState, units: Mapping[str, Unit], dislodged: Mapping[str, Unit], power: str
) -> tuple[dict[str, Unit], dict[str, Unit]]:
    """The units as ``power`` may order them: its own, and the hosts its transferees command (which keep
    their owner for every other rule)."""
    mine = dict(units)
    gone = dict(dislodged)
    for t in state.transferees:
        if t.power != power:
            continue
        board = gone if t.retreating else mine
        u = board.get(t.host)
        if u is not None:
            board[t.host] = Unit(power, u.type, u.location)
    return mine, gone


def effective_orders(
    state: ClusterState,
    board: Mapping[str, Unit],
    given: Iterable[UnitOrder],
    retreating: bool = False,
    phase: Phase | None = None,
) -> list[UnitOrder]:
    """One order per unit: a host's commanding power's if it gave one, else the owner's (rule 5.2: a
    transferee may let the host follow the host player's orders by giving none). In the movement ``phase``
    whose drop kills a transferee, its host carries out only a transfer of its (made before the drop: the
    transferee's "chance to move out"); any other order of its for the host does not count."""
    dying = {t.host for t in state.transferees if phase is not None and not t.retreating and _dies_in(t, phase)}
    chosen: dict[str, UnitOrder] = {}
    for o in given:
        prov = o.unit.province
        unit = board.get(prov)
        if unit is None:
            continue
        ruler = state.controller(prov, retreating)
        if prov in dying and not isinstance(o, Transfer):
            ruler = None
        if o.unit.power == ruler or (o.unit.power == unit.power and prov not in chosen):
            chosen[prov] = o
    return [chosen[p] for p in sorted(chosen)]


def _drops_in(t: Transferee, phase: Phase) -> bool:
    """Whether the transferee's worth drops in this phase: the same season of each later year (rule 5.2)."""
    since = Phase.parse(t.since)
    return phase.kind == "movement" and phase.season == since.season and phase.year > since.year


def _dies_in(t: Transferee, phase: Phase) -> bool:
    """Whether the transferee dies at this phase's drop: its worth falls below its host's own level."""
    return _drops_in(t, phase) and t.value - 1 < t.host_level


def entry_problem(variant: Variant, state: ClusterState, order: UnitOrder) -> str:
    """What the board alone says is wrong with a Transfer or Mattermission order ("" if nothing)."""
    u = order.unit
    here = _name(variant, u.location)
    if isinstance(order, Mattermit):
        rules = _rules(variant)
        dest = order.dest
        there = _name(variant, dest)
        if province_of(dest) not in distances(variant, u.province, rules.mattermission_range):
            return f"{there} is more than {rules.mattermission_range} spaces from {here}"
        if province_of(dest) == u.province:
            return f"{here} cannot mattermit to itself"
        if variant.provinces[province_of(dest)].is_sea:
            return f"a mattermission ends on land or a coast, not at sea ({there})"
        targets = mattermission_targets(variant, u.province, u.type)
        if dest not in targets:
            if u.type == "F" and any(province_of(t) == province_of(dest) for t in targets):
                options = [t for t in targets if province_of(t) == province_of(dest)]
                return f"say which coast of {there} ({', '.join(options)})"
            return f"a{'n army' if u.type == 'A' else ' fleet'} cannot stand in {there}"
    if isinstance(order, Transfer):
        if order.target == u.province:
            return "a unit cannot take itself over"
        if order.target_type != u.type:
            return "an aura transfers only to a unit of its own type (army to army, fleet to fleet)"
    if u.province in state.originals() and not isinstance(order, Hold):
        return "its aura is away in another unit: it can only stand"
    return ""


# --- nominations (rule 2) ---------------------------------------------------------------------------


def nomination_problem(
    variant: Variant,
    state: ClusterState,
    units: Mapping[str, Unit],
    order: Nominate,
    pending: Iterable[Nominate] = (),
) -> str:
    """Why ``order`` cannot be made now ("" if it can). Before the first movement phase is adjudicated a
    power names any unit of its own, or leaves the level to a later build; after, a level left over can
    only be given to a unit built in the adjustment phase just played."""
    rules = _rules(variant)
    power, level = order.power, order.level
    if level not in rules.multiples:
        return f"there is no {level} times force unit (only {' or '.join(str(k) for k in rules.multiples)})"
    if state.started and level not in state.deferred.get(power, ()):
        held = any(
            units.get(p) is not None and units[p].power == power and a.level == level for p, a in state.auras.items()
        )
        return (
            f"the {level} times force unit was nominated already"
            if held
            else f"the {level} times force unit is gone for good"
        )
    if order.location is None:
        return ""
    prov = province_of(order.location)
    unit = units.get(prov)
    if unit is None or unit.power != power:
        return f"there is no unit of {variant.powers[power].name} in {_name(variant, prov)}"
    if state.started and prov not in state.fresh.get(power, ()):
        return f"{unit} was not built in the last adjustment phase: a later multiple unit must be a new build"
    if prov in state.auras:
        return f"{unit} is already a {state.auras[prov].level} times force unit"
    for n in pending:
        if n.power == power and n.level != level and n.location is not None and province_of(n.location) == prov:
            return f"{unit} is already nominated the {n.level} times force unit"
    return ""


def nominations_due(variant: Variant, state: ClusterState, pending: Iterable[Nominate]) -> dict[str, list[int]]:
    """Power -> the levels it may still nominate now and has not (before the first movement phase: every
    level not yet named or deferred; later: deferred levels, while it has a new build to name)."""
    named = {(n.power, n.level) for n in pending if not state.started or n.location is not None}
    taken = {(n.power, province_of(n.location)) for n in pending if n.location is not None}
    out: dict[str, list[int]] = {}
    for power in sorted(variant.powers):
        if not state.started:
            levels = [k for k in _rules(variant).multiples]
        else:
            free = [p for p in state.fresh.get(power, ()) if (power, p) not in taken]
            levels = list(state.deferred.get(power, ())) if free else []
        levels = [k for k in levels if (power, k) not in named]
        if levels:
            out[power] = levels
    return out


def apply_nominations(
    variant: Variant, state: ClusterState, units: Mapping[str, Unit], nominations: Sequence[Nominate]
) -> ClusterState:
    """The nominations made this movement phase take effect as it is adjudicated; before the first one,
    a level not named is left to a later build."""
    auras = dict(state.auras)
    deferred = {p: list(ks) for p, ks in state.deferred.items()}
    named: set[tuple[str, int]] = set()
    for n in nominations:
        if nomination_problem(variant, state, units, n, nominations) or n.location is None:
            continue
        auras[province_of(n.location)] = Aura(n.level)
        named.add((n.power, n.level))
        if n.level in deferred.get(n.power, []):
            deferred[n.power].remove(n.level)
    if not state.started:
        for power in sorted(variant.powers):
            left = [k for k in _rules(variant).multiples if (power, k) not in named]
            if left:
                deferred[power] = left
    return replace(
        state, auras=auras, deferred={p: tuple(ks) for p, ks in sorted(deferred.items()) if ks}, started=True
    )


# --- a movement phase -------------------------------------------------------------------------------


def _transfer_problem(
    variant: Variant,
    state: ClusterState,
    units: Mapping[str, Unit],
    order: Transfer,
    power: str,
    transferring: set[str],
    targets: list[str],
) -> str:
    prov, target = order.unit.province, order.target
    level = level_of(state, prov)
    if TRANSFER not in state.knowledge.get(power, ()):
        return f"{variant.powers[power].name} has no Knowledge of Transfer"
    carried = state.carried(prov)
    if carried is not None:
        # a host transfers only the aura it carries, on its transferee's order (rule 5.2: "a chance to move out")
        if carried.power != power:
            return "it carries another power's aura: only that aura can transfer out of it"
        level = carried.value
    if level <= 1:
        return "only a multiple unit can transfer"
    if prov not in state.sites:
        return f"{_name(variant, prov)} is not a Site of the Ancients"
    host = units.get(target)
    if host is None or host.type != order.unit.type or target == prov:
        return f"there is no {'army' if order.unit.type == 'A' else 'fleet'} in {_name(variant, target)} to take over"
    if state.controller(target) is not None or target in state.originals():
        return f"{host} is already part of a transfer"
    if target in transferring:
        return f"{host} is transferring itself"
    if targets.count(target) > 1:
        return f"more than one aura transfers into {host}"
    if not _may_take(level, level_of(state, target), variant):
        return f"a {level} times force unit cannot take over {host}"
    return ""


def _may_take(level: int, host_level: int, variant: Variant) -> bool:
    """Rule 5.2: "a 2 unit can be transferred to a 1 unit; a 3 unit ... to a 3 or a 2 unit", and (its
    own example) to a normal one: a unit takes over any weaker unit, the strongest also its equal."""
    return host_level < level or host_level == level == max(_rules(variant).multiples)


def _mattermission_problem(variant: Variant, state: ClusterState, order: Mattermit, power: str) -> str:
    if MATTERMISSION not in state.knowledge.get(power, ()):
        return f"{variant.powers[power].name} has no Knowledge of Mattermission"
    if order.unit.province not in state.sites:
        return f"{_name(variant, order.unit.province)} is not a Site of the Ancients"
    return entry_problem(variant, state, order)


def _fingerprint(out: MovementOutcome) -> tuple[Any, ...]:
    return (
        tuple(sorted((p, u.location) for p, u in out.units.items())),
        tuple(sorted(d.unit.province for d in out.dislodged)),
        tuple(r.success for r in out.results),
    )


def _involved(prov: str, orders: Sequence[UnitOrder]) -> bool:
    mine = next((o for o in orders if o.unit.province == prov), None)
    if isinstance(mine, (Move, Support, Research)):
        return True
    return any(isinstance(o, Move) and province_of(o.dest) == prov for o in orders)


def used_strengths(
    variant: Variant,
    units: Mapping[str, Unit],
    orders: Sequence[UnitOrder],
    season: Season,
    strengths: Mapping[str, int],
    outcome: MovementOutcome,
    candidates: Iterable[str],
) -> set[str]:
    """The multiple units whose strength was used (rule 2): those without which, at strength one, the
    phase would have ended otherwise (another unit moved, was dislodged, or an order failed)."""
    base = _fingerprint(outcome)
    used = set()
    for prov in sorted(candidates):
        if strengths.get(prov, 1) == 1 or not _involved(prov, orders):
            continue
        trial = {p: k for p, k in strengths.items() if p != prov}
        if _fingerprint(adjudicate_movement(variant, units, orders, season, strengths=trial)) != base:
            used.add(prov)
    return used


@dataclass
class _Turn:
    """The work of one movement phase: what changes, kept together while it is decided."""

    variant: Variant
    phase: Phase
    state: ClusterState
    units: dict[str, Unit]
    orders: dict[str, UnitOrder]
    giver: dict[str, str]
    notes: dict[str, tuple[bool, str]] = field(default_factory=dict)
    extra: list[OrderResult] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)

    def destroy(self, prov: str, reason: str) -> None:
        u = self.units.pop(prov)
        self.extra.append(OrderResult(u, self.orders.pop(prov, Hold(u)), False, reason))
        self.gone.add(prov)


def adjudicate_movement_phase(
    variant: Variant,
    phase: Phase,
    units: Mapping[str, Unit],
    state: ClusterState,
    given: Sequence[UnitOrder],
    nominations: Sequence[Nominate],
) -> tuple[MovementOutcome, ClusterState]:
    """A Cluster movement phase around the ordinary adjudication: nominations take effect, transfers
    (before movement), the transferees' yearly drop, mattermission taken off the board; then the
    resolver with every unit's strength; then mattermitted arrivals, research, what was revealed, and the
    multiple units and transferees carried to where they went."""
    state = apply_nominations(variant, state, units, nominations)
    turn = _Turn(
        variant,
        phase,
        state,
        dict(units),
        {o.unit.province: replace(o, unit=units[o.unit.province]) for o in given if o.unit.province in units},
        {o.unit.province: o.unit.power for o in given},
    )
    originals = state.originals()
    for prov in sorted(originals & set(turn.orders)):
        if not isinstance(turn.orders[prov], Hold):
            turn.orders[prov] = Hold(turn.units[prov])
            turn.notes[prov] = (False, "illegal: its aura is away in another unit: it can only stand")
    made, left = _transfers(turn)
    transferees = made + _drop(turn, [t for t in state.transferees if t.host not in left])
    mattermitted = _take_off(turn)
    board = {p: u for p, u in turn.units.items() if p not in mattermitted}
    strengths = {p: a.level for p, a in state.auras.items() if p in board and a.level != 1}
    hosts = {t.host for t in transferees}
    for t in transferees:
        if t.host in board:
            strengths[t.host] = t.value
    orders = [o for p, o in sorted(turn.orders.items()) if p in board]
    out = adjudicate_movement(variant, board, orders, phase.season, strengths=strengths)
    used = used_strengths(variant, board, orders, phase.season, strengths, out, set(state.auras) - hosts)
    return _after_movement(turn, transferees, mattermitted, out, used)


def _transfers(turn: _Turn) -> tuple[list[Transferee], set[str]]:
    """Rule 5.2: transfers take place before movement; the original unit stands. A transferee may move out
    of its host into another unit, worth one less again (each transfer costs a level), its yearly drop
    counted from then; the host it leaves is its owner's again. Returns the transfers made, and the hosts
    left."""
    transfers = {p: o for p, o in turn.orders.items() if isinstance(o, Transfer)}
    targets = [o.target for o in transfers.values()]
    made = []
    left = set()
    for prov, o in sorted(transfers.items()):
        turn.orders[prov] = Hold(o.unit)
        why = _transfer_problem(turn.variant, turn.state, turn.units, o, turn.giver[prov], set(transfers), targets)
        if why:
            turn.notes[prov] = (False, f"transfer fails: {why}")
            continue
        host = turn.units[o.target]
        carried = turn.state.carried(prov)
        worth, original = (level_of(turn.state, prov), prov) if carried is None else (carried.value, carried.original)
        made.append(
            Transferee(turn.giver[prov], o.target, original, worth - 1, level_of(turn.state, o.target), str(turn.phase))
        )
        if carried is not None:
            left.add(prov)
        turn.notes[prov] = (True, f"transfer: took over {host}")
    return made, left


def _drop(turn: _Turn, transferees: Iterable[Transferee]) -> list[Transferee]:
    """Rule 5.2: each game year after the transfer the transferee is worth one less (after transfers,
    before movement); below the host's own level it dies, and the original unit with it ("it dies, as does
    the original unit": the aura, not the host, which is its owner's again; maps/cluster.md)."""
    kept = []
    for t in transferees:
        if _drops_in(t, turn.phase):
            t = replace(t, value=t.value - 1)
            if t.value < t.host_level:
                if t.original is not None and t.original in turn.units:
                    turn.destroy(t.original, "destroyed: its transferred aura has died")
                continue
        kept.append(t)
    return kept


def _take_off(turn: _Turn) -> dict[str, Mattermit]:
    """Rule 5.3: a unit mattermitted leaves its site at once, with movement; one that may not holds."""
    out = {}
    for prov, o in sorted(turn.orders.items()):
        if not isinstance(o, Mattermit):
            continue
        why = _mattermission_problem(turn.variant, turn.state, o, turn.giver[prov])
        if why:
            turn.orders[prov] = Hold(o.unit)
            turn.notes[prov] = (False, f"mattermission fails: {why}")
            continue
        out[prov] = o
    return out


def _after_movement(
    turn: _Turn,
    transferees: list[Transferee],
    mattermitted: dict[str, Mattermit],
    out: MovementOutcome,
    used: set[str],
) -> tuple[MovementOutcome, ClusterState]:
    v, state = turn.variant, turn.state
    units = dict(out.units)
    dislodged = {d.unit.province: d for d in out.dislodged}
    #: where each unit that left its province went (its province now), or None if it is gone
    went: dict[str, str | None] = {}
    for r in out.results:
        o = turn.orders.get(r.unit.province)
        if isinstance(o, Move) and r.success:
            went[r.unit.province] = province_of(o.dest)
    results = list(out.results)
    # mattermitted arrivals (rule 5.3): alone, where no unit stands or moves, they stay; else they and every
    # unit ordered to move there (whether its move succeeded or not) are destroyed, and a unit that stood
    # there survives
    moving_to: dict[str, list[str]] = {}
    for r in out.results:
        if isinstance(r.order, Move) and not r.illegal:
            moving_to.setdefault(province_of(r.order.dest), []).append(r.unit.province)
    arriving: dict[str, list[str]] = {}
    for prov, o in mattermitted.items():
        arriving.setdefault(province_of(o.dest), []).append(prov)
    # who stands where after movement, before any arrival or destruction (so no space's order decides another's)
    standing = dict(units)
    for dest, origins in sorted(arriving.items()):
        there = v.province_name(dest)
        occupant = standing.get(dest)
        movers = moving_to.get(dest, [])
        if len(origins) == 1 and occupant is None and not movers:
            o = mattermitted[origins[0]]
            units[dest] = Unit(o.unit.power, o.unit.type, o.dest)
            went[origins[0]] = dest
            results.append(OrderResult(o.unit, o, True, "mattermitted"))
            continue
        entered = any(went.get(m) == dest for m in movers)
        others = [str(mattermitted[p].unit) for p in origins] + [str(turn.units[m]) for m in movers]
        if occupant is not None and not entered:
            others.append(str(occupant))
        for prov in origins:
            o = mattermitted[prov]
            with_ = ", ".join(x for x in others if x != str(o.unit))
            results.append(OrderResult(o.unit, o, False, f"destroyed: mattermitted into {there} with {with_}"))
            went[prov] = None
        for mover in movers:
            # where its move left it: in the space, back in its own, or dislodged from its own
            if went.get(mover) == dest:
                del units[dest]
            elif mover in dislodged:
                del dislodged[mover]
            else:
                del units[mover]
            went[mover] = None
            turn.notes[mover] = (False, f"destroyed: a unit was mattermitted into {there}")
    # research (rule 5.1): a unit not dislodged learns the site it stands on; the result is reported to all
    knowledge = {p: set(k) for p, k in state.knowledge.items()}
    found = {p: dict(f) for p, f in state.found.items()}
    research = list(state.research)

    def learn(power: str, prov: str) -> int:
        level = state.sites.get(prov, 0)
        found.setdefault(power, {})[prov] = level
        if level in KNOWLEDGE:
            knowledge.setdefault(power, set()).add(KNOWLEDGE[level])
        return level

    for prov, o in sorted(turn.orders.items()):
        if isinstance(o, Research) and prov not in dislodged:
            level = learn(turn.giver[prov], prov)
            research.append((str(turn.phase), prov, level))
            turn.notes[prov] = (True, research_note(v, prov, level))
    # the transferees and multiple units go where their units went
    kept: list[Transferee] = []
    for t in transferees:
        original = t.original
        if original is not None and original in dislodged:
            # "the original unit stands in position - if dislodged it dies"
            del dislodged[original]
            turn.gone.add(original)
            turn.notes[original] = (False, "destroyed: dislodged while its aura is away")
            original = None
        t = replace(t, original=original)
        if t.host in went:
            to = went[t.host]
            if to is None:
                _lose_original(turn, t, units)
                continue
            t = replace(t, host=to)
        elif t.host in dislodged:
            t = replace(t, retreating=True)
        if not t.retreating:
            learn(t.power, t.host)  # a transferee discovers the site it finishes a turn on
        kept.append(t)
    auras: dict[str, Aura] = {}
    retreating: dict[str, Aura] = {}
    for prov, a in state.auras.items():
        if prov in used:
            a = replace(a, revealed=True)
        if prov in turn.gone or prov not in turn.units:
            continue
        if prov in went:
            to = went[prov]
            if to is not None:
                auras[to] = a
        elif prov in dislodged:
            retreating[prov] = a
        else:
            auras[prov] = a
    new_state = replace(
        state,
        auras=dict(sorted(auras.items())),
        retreating=dict(sorted(retreating.items())),
        knowledge={p: tuple(sorted(k)) for p, k in sorted(knowledge.items()) if k},
        found={p: dict(sorted(f.items())) for p, f in sorted(found.items())},
        transferees=tuple(kept),
        fresh={},
        research=tuple(research),
    )
    final = []
    for r in out.results:
        note = turn.notes.get(r.unit.province)
        if note is not None:
            tail = f", dislodged by {r.dislodged_by}" if r.dislodged_by is not None else ""
            r = r._replace(success=note[0] and r.dislodged_by is None, reason=note[1] + tail)
        final.append(r)
    final += results[len(out.results) :] + turn.extra
    final.sort(key=lambda r: r.unit.province)
    return MovementOutcome(final, units, list(dislodged.values()), set(out.contested)), new_state


def _lose_original(turn: _Turn, t: Transferee, units: dict[str, Unit]) -> None:
    """A host destroyed takes its transferee with it, and so the original unit (rule 5.2)."""
    if t.original is not None and units.pop(t.original, None) is not None:
        turn.gone.add(t.original)
        turn.notes[t.original] = (False, "destroyed: its transferred aura died with its host")


def research_note(variant: Variant, prov: str, level: int) -> str:
    where = variant.province_name(prov)
    if level == 0:
        return f"research: no Site of the Ancients in {where}"
    return f"research: a level-{level} Site of the Ancients in {where}"


# --- the orders offered (:mod:`adjutant.legal`) --------------------------------------------------------


def unit_orders(variant: Variant, state: ClusterState, units: Mapping[str, Unit], u: Unit) -> list[Order]:
    """Cluster's own orders for ``u``: Research for every unit; Transfer and Mattermission where its power
    knows them and knows the site the unit stands on (Transfer into every other unit of its type)."""
    out: list[Order] = [Research(u)]
    knows = state.knowledge.get(u.power, ())
    if not state.found.get(u.power, {}).get(u.province) or u.province in state.originals():
        return out
    if TRANSFER in knows and level_of(state, u.province) > 1:
        for other in sorted(units):
            o = units[other]
            if other != u.province and o.type == u.type:
                out.append(Transfer(u, other, o.type))
    if MATTERMISSION in knows:
        out += [Mattermit(u, t) for t in mattermission_targets(variant, u.province, u.type)]
    return out


def transfers_out(state: ClusterState, units: Mapping[str, Unit], prov: str) -> list[Order]:
    """Cluster 5.2, "moving out": the transfers the power whose transferee the unit in ``prov`` hosts may
    order for it (the order is that power's: its unit is the host as that power commands it), when that
    power knows Transfer and the site the host stands on and the transferee is worth 2 or more; into
    every other unit of the host's type but the aura's own original, which is part of the transfer and
    would refuse it (maps/cluster.md)."""
    t = state.carried(prov)
    u = units.get(prov)
    if t is None or u is None or t.value <= 1:
        return []
    if TRANSFER not in state.knowledge.get(t.power, ()) or not state.found.get(t.power, {}).get(prov):
        return []
    host = Unit(t.power, u.type, u.location)
    return [Transfer(host, other, units[other].type) for other in sorted(units)
            if other not in (prov, t.original) and units[other].type == u.type]


def random_orders(
    variant: Variant,
    state: ClusterState,
    units: Mapping[str, Unit],
    legal: Callable[[str], list[UnitOrder]],
    rng: random.Random,
) -> list[Order]:
    """Random nominations while they are due, and orders from the powers commanding transferred hosts
    (half the time: else the host follows its owner's), for random games."""
    out: list[Order] = []
    for power, levels in nominations_due(variant, state, []).items():
        chosen: list[Nominate] = []
        for level in levels:
            if state.started:
                places = list(state.fresh.get(power, ()))
            else:
                places = sorted(p for p, u in units.items() if u.power == power)
            options = [Nominate(power, level, units[p].location) for p in places] + [Nominate(power, level)]
            options = [n for n in options if not nomination_problem(variant, state, units, n, chosen)]
            pick = rng.choice(options)
            chosen.append(pick)
            out.append(pick)
    for t in state.transferees:
        if not t.retreating and t.host in units and rng.random() < 0.5:
            o = rng.choice(legal(t.host))
            out.append(replace(o, unit=Unit(t.power, o.unit.type, o.unit.location)))
    return out


# --- retreats and adjustments ------------------------------------------------------------------------


def retreat_orders(state: ClusterState, dislodged: Mapping[str, Unit], given: Iterable[Any]) -> list[Any]:
    """The retreat orders that count (a host's commanding power's first), given to the dislodged units."""
    return [replace(o, unit=dislodged[o.unit.province]) for o in effective_orders(state, dislodged, given, True)]


def after_retreats(
    variant: Variant, state: ClusterState, units: Mapping[str, Unit], results: Sequence[RetreatResult]
) -> tuple[dict[str, Unit], ClusterState, list[RetreatResult]]:
    """Multiple units and hosts that retreated keep their aura or transferee; those disbanded lose it for
    good (a host's original unit dies with it)."""
    units = dict(units)
    went: dict[str, str | None] = {}
    for r in results:
        moved = r.success and r.order is not None and hasattr(r.order, "dest")
        went[r.unit.province] = province_of(getattr(r.order, "dest", "")) if moved else None
    auras = dict(state.auras)
    for prov, a in state.retreating.items():
        dest = went.get(prov)
        if dest is not None:
            auras[dest] = a
    extra: list[RetreatResult] = []
    kept = []
    knowledge = {p: set(k) for p, k in state.knowledge.items()}
    found = {p: dict(f) for p, f in state.found.items()}
    for t in state.transferees:
        if t.retreating:
            dest = went.get(t.host)
            if dest is None:
                if t.original is not None and t.original in units:
                    u = units.pop(t.original)
                    auras.pop(t.original, None)
                    extra.append(RetreatResult(u, None, False, "destroyed: its transferred aura died with its host"))
                continue
            t = replace(t, host=dest, retreating=False)
            level = state.sites.get(dest, 0)
            found.setdefault(t.power, {})[dest] = level
            if level in KNOWLEDGE:
                knowledge.setdefault(t.power, set()).add(KNOWLEDGE[level])
        kept.append(t)
    new_state = replace(
        state,
        auras=dict(sorted(auras.items())),
        retreating={},
        transferees=tuple(kept),
        knowledge={p: tuple(sorted(k)) for p, k in sorted(knowledge.items()) if k},
        found={p: dict(sorted(f.items())) for p, f in sorted(found.items())},
    )
    return units, new_state, extra


def after_adjustments(
    state: ClusterState, before: Mapping[str, Unit], after: Mapping[str, Unit]
) -> tuple[dict[str, Unit], ClusterState, list[AdjustmentResult]]:
    """Units removed take their aura (gone for good) or transferee (and so its original unit) with them;
    the units built are kept as the ones a deferred multiple may be given to (rule 2)."""
    units = dict(after)
    removed = {p for p, u in before.items() if units.get(p) != u}
    extra: list[AdjustmentResult] = []
    kept = []
    lost = set(removed)
    for t in state.transferees:
        if t.host in removed:
            if t.original is not None and t.original in units:
                u = units.pop(t.original)
                lost.add(t.original)
                extra.append(
                    AdjustmentResult(u.power, None, True, "destroyed: its transferred aura died with its host", u)
                )
            continue
        kept.append(replace(t, original=None) if t.original in removed else t)
    fresh: dict[str, list[str]] = {}
    for p, u in sorted(units.items()):
        if before.get(p) != u:
            fresh.setdefault(u.power, []).append(p)
    new_state = replace(
        state,
        auras={p: a for p, a in state.auras.items() if p not in lost},
        transferees=tuple(kept),
        fresh={p: tuple(ps) for p, ps in fresh.items()},
    )
    return units, new_state, extra


# --- the state's file form (a view's: see :mod:`adjutant.formats.gamefile`) -------------------------------------


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise GameFileError(message)


def state_to_data(state: ClusterState) -> dict[str, Any]:
    """A view's Cluster state as JSON (never the sites or seed: only the game master's game has them,
    and its file keeps the seed)."""
    data: dict[str, Any] = {"game": state.game, "view": state.view, "started": state.started}
    if state.auras:
        data["auras"] = {p: [a.level, a.revealed] for p, a in state.auras.items()}
    if state.retreating:
        data["retreating"] = {p: [a.level, a.revealed] for p, a in state.retreating.items()}
    if state.research:
        data["research"] = [list(r) for r in state.research]
    if state.deferred:
        data["deferred"] = {p: list(ks) for p, ks in state.deferred.items()}
    if state.knowledge:
        data["knowledge"] = {p: list(ks) for p, ks in state.knowledge.items()}
    if state.found:
        data["found"] = {p: dict(f) for p, f in state.found.items()}
    if state.transferees:
        data["transferees"] = [
            [t.power, t.host, t.original, t.value, t.host_level, t.since, t.retreating] for t in state.transferees
        ]
    if state.fresh:
        data["fresh"] = {p: list(ps) for p, ps in state.fresh.items()}
    return data


def _int(x: Any, what: str) -> int:
    _expect(type(x) is int and -100 < x < 100, f"{what} must be a small whole number")
    return int(x)


def _word(x: Any, what: str) -> str:
    _expect(
        isinstance(x, str) and 0 < len(x) <= 40 and re.fullmatch(r"[a-z0-9_/,]+", x) is not None, f"{what} is malformed"
    )
    return str(x)


def _aura_map(x: Any, what: str) -> dict[str, Aura]:
    _expect(isinstance(x, dict), f"{what} must be an object")
    out = {}
    for p, v in x.items():
        _expect(isinstance(v, list) and len(v) == 2 and isinstance(v[1], bool), f"{what} is malformed")
        out[_word(p, what)] = Aura(_int(v[0], what), bool(v[1]))
    return out


def state_from_data(data: Any) -> ClusterState:
    _expect(isinstance(data, dict), "the cluster section must be an object")
    try:
        game = _word(data.get("game"), "the game's id")
        view = _word(data.get("view"), "the view")
        _expect(isinstance(data.get("started", False), bool), "'started' must be true or false")
        research = []
        for r in data.get("research", []):
            _expect(isinstance(r, list) and len(r) == 3, "a research result is malformed")
            research.append(
                (str(Phase.parse(_word(r[0].lower(), "a phase"))), _word(r[1], "a province"), _int(r[2], "a level"))
            )
        transferees = []
        for t in data.get("transferees", []):
            _expect(isinstance(t, list) and len(t) == 7 and isinstance(t[6], bool), "a transferee is malformed")
            original = None if t[2] is None else _word(t[2], "a province")
            transferees.append(
                Transferee(
                    _word(t[0], "a power"),
                    _word(t[1], "a province"),
                    original,
                    _int(t[3], "a value"),
                    _int(t[4], "a level"),
                    str(Phase.parse(_word(t[5].lower(), "a phase"))),
                    t[6],
                )
            )
        return ClusterState(
            game,
            None,
            auras=_aura_map(data.get("auras", {}), "auras"),
            retreating=_aura_map(data.get("retreating", {}), "retreating"),
            research=tuple(research),
            deferred={
                _word(p, "a power"): tuple(_int(k, "a level") for k in ks) for p, ks in data.get("deferred", {}).items()
            },
            knowledge={
                _word(p, "a power"): tuple(_word(k, "knowledge") for k in ks)
                for p, ks in data.get("knowledge", {}).items()
            },
            found={
                _word(p, "a power"): {_word(q, "a province"): _int(k, "a level") for q, k in f.items()}
                for p, f in data.get("found", {}).items()
            },
            transferees=tuple(transferees),
            fresh={
                _word(p, "a power"): tuple(_word(q, "a province") for q in ps)
                for p, ps in data.get("fresh", {}).items()
            },
            started=bool(data.get("started", False)),
            view=view,
        )
    except (AttributeError, TypeError, ValueError) as e:  # a list where an object belongs, and the like
        if isinstance(e, GameFileError):
            raise
        raise GameFileError(f"the cluster section is malformed ({str(e)[:100]})") from None


# --- the hooks of the game (:mod:`adjutant.variants.hooks`) ---------------------------------------------


def _own(state: VariantState | None) -> ClusterState:
    found = cluster_state(state)
    if found is None:
        raise AdjutantError("the position has no Cluster state")
    return found


# --- a position set up (adjutant.setup): strengths, sites, knowledge and levels deferred --------------

#: the settings a Cluster set-up adds to the notation, in the order written
SETUP_KEYS = ("strengths", "deferred", "knowledge", "sites")
_STRENGTH = re.compile(r"^([0-9]+)\s+(.+?)(\s+revealed)?$", re.IGNORECASE)


def _by_power(variant: Variant, text: str, key: str, problems: list[str]) -> list[tuple[str, str]]:
    """``"France: 3 Par, 2 Bre; England: 3 Lon"`` as (power id, item) pairs, each problem added."""
    out = []
    for group in (g.strip() for g in text.split(";") if g.strip()):
        name, colon, rest = group.partition(":")
        power = find_power(variant, name.strip()) if colon else None
        if power is None:
            problems.append(f"--{key}: {group[:60]!r} names no power of {variant.name} (write 'France: …')")
            continue
        out += [(power.id, item.strip()) for item in rest.split(",") if item.strip()]
    return out


def set_up_state(
    variant: Variant,
    state: ClusterState,
    phase: Phase,
    units: Mapping[str, Unit],
    dislodged: Mapping[str, Unit],
    settings: Mapping[str, str],
) -> tuple[ClusterState, list[str]]:
    """``state`` with a set-up's strengths (rule 1: each power one 3 times and one 2 times unit, its own,
    or the level left to a later build), levels deferred, knowledge and sites (where given; else the sites
    drawn stand); and every problem."""
    problems: list[str] = []
    levels = _rules(variant).multiples
    held: dict[str, dict[int, str]] = {}  # power -> level -> where (or "a later build")

    def claim(power: str, level: int, where: str, what: str) -> bool:
        name = variant.powers[power].name
        if level not in levels:
            problems.append(f"--{what}: {name}: a unit's strength is {' or '.join(map(str, levels))} times, "
                            f"not {level} (rule 1)")
            return False
        if level in held.setdefault(power, {}):
            problems.append(f"--{what}: {name} has two {level} times units ({held[power][level]} and {where}): "
                            f"rule 1 gives each power one of each")
            return False
        held[power][level] = where
        return True

    auras: dict[str, Aura] = {}
    retreating: dict[str, Aura] = {}
    for power, item in _by_power(variant, settings.get("strengths", ""), "strengths", problems):
        m = _STRENGTH.match(item)
        prov = variant.lookup(m.group(2)) if m else None
        if m is None or prov is None:
            problems.append(f"--strengths: {item[:40]!r} is not a strength and a province (like '3 Par', or "
                            "'2 Lon revealed' once rule 2 has reported it)")
            continue
        level, name = int(m.group(1)), variant.provinces[prov].name
        standing, gone = units.get(prov), dislodged.get(prov)
        unit = gone if gone is not None and gone.power == power else standing
        if unit is None or unit.power != power:
            problems.append(f"--strengths: {variant.powers[power].name}: {level} {name}: no "
                            f"{variant.powers[power].adjective} unit stands in {name}")
            continue
        if claim(power, level, name, "strengths"):
            (retreating if unit is gone else auras)[prov] = Aura(level, m.group(3) is not None)
    deferred: dict[str, list[int]] = {}
    for power, item in _by_power(variant, settings.get("deferred", ""), "deferred", problems):
        if not item.isdigit() or len(item) > 2:
            problems.append(f"--deferred: {item[:40]!r} is not a strength (like 'France: 2')")
        elif claim(power, int(item), "a later build", "deferred"):
            deferred.setdefault(power, []).append(int(item))
    knowledge: dict[str, set[str]] = {}
    for power, item in _by_power(variant, settings.get("knowledge", ""), "knowledge", problems):
        if item.lower() not in (TRANSFER, MATTERMISSION):
            problems.append(f"--knowledge: {item[:40]!r} is not what a power may know ({TRANSFER} or {MATTERMISSION})")
        else:
            knowledge.setdefault(power, set()).add(item.lower())
    sites = dict(state.sites)
    if settings.get("sites", "").strip():
        sites = {}
        for group in (g.strip() for g in settings["sites"].split(";") if g.strip()):
            level_text, colon, rest = group.partition(":")
            if not colon or level_text.strip() not in ("1", "2", "3"):
                problems.append(f"--sites: {group[:40]!r} does not start with a site's level, 1, 2 or 3 "
                                "(like '1: Lon, Nth; 2: Par')")
                continue
            for item in (i.strip() for i in rest.split(",") if i.strip()):
                prov = variant.lookup(item)
                if prov is None:
                    problems.append(f"--sites: {item[:40]!r} is not a province of {variant.name}")
                elif variant.provinces[prov].type == "impassable":
                    name = variant.provinces[prov].name
                    problems.append(f"--sites: no unit can go to {name}, so no site stands there")
                elif prov in sites:
                    problems.append(f"--sites: two sites in {variant.provinces[prov].name}")
                else:
                    sites[prov] = int(level_text)
    first = phase == Phase(variant.first_year, "spring", "movement")
    made = replace(
        state,
        sites=sites,
        auras=auras,
        retreating=retreating,
        deferred={p: tuple(sorted(ks, reverse=True)) for p, ks in deferred.items()},
        knowledge={p: tuple(k for k in (TRANSFER, MATTERMISSION) if k in ks) for p, ks in knowledge.items()},
        # nominations are open in a set-up at the first movement phase with no strength given, as in a new game
        started=not (first and not auras and not deferred),
    )
    return made, problems


def setup_settings(
    variant: Variant, state: ClusterState, units: Mapping[str, Unit], dislodged: Mapping[str, Unit]
) -> dict[str, str]:
    """A Cluster position's own settings in the notation, as :func:`set_up_state` reads them (a transfer
    under way, the places searched and the research reported are not part of a set-up)."""
    def by_power(items: Iterable[tuple[str, str]]) -> str:
        grouped: dict[str, list[str]] = {}
        for power, text in items:
            grouped.setdefault(power, []).append(text)
        return "; ".join(f"{variant.powers[p].name}: {', '.join(grouped[p])}" for p in variant.powers if p in grouped)

    def strength(prov: str, aura: Aura) -> str:
        return f"{aura.level} {prov[:1].upper()}{prov[1:]}{' revealed' if aura.revealed else ''}"

    out = {}
    strengths = by_power(
        (board[p].power, strength(p, a))
        for board, auras in ((units, state.auras), (dislodged, state.retreating))
        for p, a in sorted(auras.items()) if a.level != 1 and p in board
    )
    deferred = by_power((p, str(k)) for p, ks in state.deferred.items() for k in ks)
    knowledge = by_power((p, k) for p, ks in state.knowledge.items() for k in ks)
    sites = "; ".join(
        f"{level}: {', '.join(sorted(p for p, lv in state.sites.items() if lv == level))}"
        for level in (1, 2, 3) if level in state.sites.values()
    )
    for key, text in (("strengths", strengths), ("deferred", deferred), ("knowledge", knowledge), ("sites", sites)):
        if text:
            out[key] = text
    return out


class MultipleSupports:
    """Rule 4 in one movement phase: a multiple unit's support is reduced by the strength of the strongest
    attack on it (one that would cut an ordinary support), not cut; nothing if it is dislodged."""

    def __init__(self, phase: Supports) -> None:
        self.phase = phase
        #: the multiple supports whose reduction is being worked out, innermost last
        self.reducing: list[int] = []
        #: which multiple supports each leads to (:meth:`_leads_to`), found when first needed
        self.leads_of: dict[int, list[int]] | None = None

    def strength(self, s: int) -> int:
        """What support ``s`` adds: its reduced strength, or nothing in a circle with the support whose
        reduction is being worked out."""
        return 0 if self._in_circle_with_reduced(s) else self._value(s)

    def given(self, s: int) -> bool:
        return self._value(s) > 0

    def _value(self, s: int) -> int:
        """The support's strength, reduced by the strongest attack on it; nothing if it is dislodged."""
        phase = self.phase
        if phase.dislodged(phase.prov[s]):
            return 0
        self.reducing.append(s)
        try:
            attacks = [phase.attack_strength(j) for j in phase.cutters(s) if phase.cuts(j)]
        finally:
            self.reducing.pop()
        return max(0, phase.k[s] - max(attacks, default=0))

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
        phase = self.phase
        if self.leads_of is None:
            multiple = sorted(s for given in phase.supports_of.values() for s in given if phase.k[s] != 1)
            self.leads_of = {
                s: [t for j in phase.cutters(s) for t in phase.supports_of.get(j, ()) if phase.k[t] != 1]
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


class ClusterDiplomacy(VariantRules):
    """Cluster Diplomacy's rules as the game's hooks: the sites drawn at the start, nominations, hosts
    ordered by their transferees' powers, Transfer and Mattermission checked as they are given and
    offered, the movement phase around the resolver, multiple units and transferees carried through
    retreats and adjustments, and the state in the game file. In a position without a Cluster state each
    hook is the classic one."""

    title = "Cluster"
    file_key = "cluster"
    hidden_setup = True
    keeps_secrets = True

    def applies_to(self, variant: Variant) -> bool:
        return variant.cluster is not None

    # --- strengths in the resolver (rules 1, 4 and 5.1) -------------------------------------------------
    def standing_strength(self, order: UnitOrder, strength: int) -> int:
        """A researching unit stands one weaker (rule 5.1)."""
        return strength - 1 if isinstance(order, Research) else strength

    def support_rule(self, phase: Supports, given: Callable[[int], bool]) -> SupportRule:
        """A multiple unit's support is reduced, not cut (rule 4)."""
        return MultipleSupports(phase)

    def start(self, variant: Variant, seed: int | None) -> ClusterState:
        return start(variant, seed)

    setup_keys = SETUP_KEYS

    def set_up_state(
        self,
        variant: Variant,
        state: VariantState | None,
        phase: Phase,
        units: Mapping[str, Unit],
        dislodged: Mapping[str, Unit],
        settings: Mapping[str, str],
    ) -> tuple[VariantState | None, list[str]]:
        found = cluster_state(state)
        if found is None:
            return state, []
        return set_up_state(variant, found, phase, units, dislodged, settings)

    def setup_settings(
        self, variant: Variant, state: VariantState | None, units: Mapping[str, Unit], dislodged: Mapping[str, Unit]
    ) -> dict[str, str]:
        found = cluster_state(state)
        return setup_settings(variant, found, units, dislodged) if found is not None else {}

    def orderable(
        self,
        state: VariantState | None,
        power: str,
        kind: str,
        units: Mapping[str, Unit],
        dislodged: Mapping[str, Unit],
    ) -> tuple[Mapping[str, Unit], Mapping[str, Unit]]:
        found = cluster_state(state)
        if found is None or kind == "adjustment":
            return units, dislodged
        # a power also orders the hosts its transferees command (rule 5.2)
        return board_for(found, units, dislodged, power)

    def nominations_refused(self, variant: Variant, state: VariantState | None) -> str:
        return "" if isinstance(state, ClusterState) else super().nominations_refused(variant, state)

    def nomination_problem(
        self,
        variant: Variant,
        state: VariantState | None,
        units: Mapping[str, Unit],
        order: Nominate,
        pending: Iterable[Nominate],
    ) -> str:
        found = cluster_state(state)
        if found is None:
            return super().nomination_problem(variant, state, units, order, pending)
        return nomination_problem(variant, found, units, order, pending)

    def unit_order_problem(self, variant: Variant, state: VariantState | None, order: UnitOrder) -> Objection | None:
        found = cluster_state(state)
        why = entry_problem(variant, found, order) if found is not None else ""
        # a Transfer or Mattermission the board alone rules out is not taken; another order is, and holds
        return Objection(why, isinstance(order, (Transfer, Mattermit))) if why else None

    def unit_candidates(
        self, variant: Variant, state: VariantState, units: Mapping[str, Unit], unit: Unit
    ) -> list[Order]:
        found = cluster_state(state)
        return unit_orders(variant, found, units, unit) if found is not None else []

    def candidates_for_others(self, state: VariantState | None, units: Mapping[str, Unit], prov: str) -> list[Order]:
        found = cluster_state(state)
        return transfers_out(found, units, prov) if found is not None else []

    def random_orders(
        self,
        variant: Variant,
        state: VariantState | None,
        units: Mapping[str, Unit],
        legal: Callable[[str], list[UnitOrder]],
        rng: random.Random,
    ) -> list[Order]:
        found = cluster_state(state)
        return random_orders(variant, found, units, legal, rng) if found is not None else []

    def view_of(self, state: VariantState | None) -> str | None:
        found = cluster_state(state)
        return found.view if found is not None and found.view != GM else None

    def adjudicates_movement(self, state: VariantState | None) -> bool:
        return isinstance(state, ClusterState)

    def adjudicate_movement(
        self,
        variant: Variant,
        phase: Phase,
        units: Mapping[str, Unit],
        state: VariantState | None,
        given: Sequence[UnitOrder],
        nominations: Sequence[Nominate],
    ) -> VariantMovement:
        """Nominations, transfers and mattermissions around the resolver (:func:`adjudicate_movement_phase`),
        with one order per unit (:func:`effective_orders`)."""
        found = _own(state)
        orders = effective_orders(found, units, given, phase=phase)
        outcome, after = adjudicate_movement_phase(variant, phase, units, found, orders, nominations)
        return VariantMovement(outcome, after, orders)

    def retreat_orders(
        self, state: VariantState | None, dislodged: Mapping[str, Unit], given: list[Retreat | Disband]
    ) -> list[Retreat | Disband]:
        found = cluster_state(state)
        return retreat_orders(found, dislodged, given) if found is not None else given

    def after_retreats(
        self, variant: Variant, state: VariantState | None, units: dict[str, Unit], results: list[RetreatResult]
    ) -> tuple[dict[str, Unit], VariantState | None, list[RetreatResult]]:
        found = cluster_state(state)
        if found is None:
            return super().after_retreats(variant, state, units, results)
        return after_retreats(variant, found, units, results)

    def after_adjustments(
        self, state: VariantState | None, before: Mapping[str, Unit], after: dict[str, Unit]
    ) -> tuple[dict[str, Unit], VariantState | None, list[AdjustmentResult]]:
        found = cluster_state(state)
        if found is None:
            return super().after_adjustments(state, before, after)
        return after_adjustments(found, before, after)

    def adjustments_skipped(self, state: VariantState | None) -> VariantState | None:
        found = cluster_state(state)
        return replace(found, fresh={}) if found is not None else state  # no builds this winter

    def file_section(self, state: VariantState | None) -> Any:
        found = cluster_state(state)
        return {"game": found.game, "seed": found.seed} if found is not None else None

    def state_from_file(self, variant: Variant, section: Any) -> ClusterState:
        _expect(
            isinstance(section, dict)
            and isinstance(section.get("game"), str)
            and type(section.get("seed")) is int
            and 0 <= section["seed"] < 2**63,
            f'a game of {variant.name} needs its "cluster" section: {{"game": id, "seed": number}}',
        )
        try:
            return start(variant, section["seed"], section["game"])
        except AdjutantError as e:
            raise GameFileError(f"the game's sites: {e}") from None

    def state_to_data(self, state: VariantState | None) -> dict[str, Any]:
        return state_to_data(_own(state))

    def state_from_data(self, variant: Variant, data: Any) -> ClusterState:
        return state_from_data(data)

    def game_id(self, state: VariantState | None) -> str | None:
        found = cluster_state(state)
        return found.game if found is not None else None
