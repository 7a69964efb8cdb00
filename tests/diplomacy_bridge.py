"""The bridge between Adjutant and the `diplomacy` package (PyPI, 1.1.2): the package's game set to an
Adjutant position and given the same orders in its notation, and the seeded random games both are given.

The differential test (``test_differential.py``) compares the two engines with it; the benchmarks in
``benchmarks/`` (``adjudication.py``, ``compare.py``, ``instructions.py``) time the same phases with it and
put this folder on their path to import it. The package is a test dependency (requirements.txt), never the
engine's.
"""

from __future__ import annotations

import contextlib
import io
import logging
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjutant import Game, Position, Unit
from adjutant.adjudication.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive, order_power
from adjutant.legal import possible_orders
from adjutant.randomgame import random_orders

# --- the bridge to diplomacy's notation --------------------------------------------------------------

def dip_loc(location: str) -> str:
    """``stp/nc`` -> ``STP/NC``: the package writes the same abbreviations in capitals."""
    return location.upper()


def dip_unit(unit: Unit) -> str:
    return f"{unit.type} {dip_loc(unit.location)}"


def dip_order(order: Order, units: Mapping[str, Unit]) -> str:
    """One Adjutant order in the package's syntax ('A PAR - BUR', 'F NTH C A LON - NWY', 'F STP/SC B')."""
    if isinstance(order, Build):
        return f"{order.type} {dip_loc(order.location)} B"
    if isinstance(order, Waive):
        return "WAIVE"
    u = dip_unit(order.unit)
    if isinstance(order, Hold):
        return f"{u} H"
    if isinstance(order, Move):
        return f"{u} - {dip_loc(order.dest)}" + (" VIA" if order.via_convoy else "")
    if isinstance(order, Support):
        target = units[order.target]
        text = f"{u} S {target.type} {dip_loc(target.location)}"
        # the package names no coast in a supported move's destination
        return text + (f" - {dip_loc(order.dest.split('/')[0])}" if order.dest else "")
    if isinstance(order, Convoy):
        return f"{u} C A {dip_loc(order.target)} - {dip_loc(order.dest)}"
    if isinstance(order, Retreat):
        return f"{u} R {dip_loc(order.dest)}"
    if isinstance(order, Disband):
        return f"{u} D"
    raise ValueError(f"no diplomacy notation for {order!r}")


UnitKey = tuple[str, str, str]  # (power, type, location), lower case as in Adjutant


class Mirror:
    """A `diplomacy` game set to Adjutant's position before each phase."""

    def __init__(self) -> None:
        logging.getLogger("diplomacy").setLevel(logging.ERROR)
        with contextlib.redirect_stdout(io.StringIO()):
            from diplomacy import Game as DipGame  # type: ignore[import-untyped]
        self._cls = DipGame
        self.game = self._new()
        self._owner: dict[str, UnitKey] = {}
        self._phase = ""

    def _new(self) -> Any:
        with contextlib.redirect_stdout(io.StringIO()):
            return self._cls(map_name="standard")

    def load(self, game: Game, orders: list[Order]) -> None:
        """Set the package's game to ``game``'s position and give it ``orders`` (all untimed)."""
        pos: Position = game.position
        retreats = {}
        for d in pos.dislodged:
            # Adjutant's retreat options (they already leave out contested places and the attacker's origin)
            options = possible_orders(game, d.unit.province)
            retreats[d.unit] = [o.dest for o in options if isinstance(o, Retreat)]
        self.load_position(str(pos.phase), pos.units, orders, pos.centres, retreats)

    def load_position(
        self,
        phase: str,
        units: Mapping[str, Unit],
        orders: Sequence[Order],
        centres: Mapping[str, str] | None = None,
        retreats: Mapping[Unit, list[str]] | None = None,
    ) -> None:
        """Set the package's game to a position (phase as ``S1901M``; dislodged units with the places each
        may retreat to) and give it ``orders``."""
        if self.game.is_game_done:
            self.game = self._new()
        g = self.game
        g.set_current_phase(phase)
        for p in g.powers.values():
            p.clear_units()
            p.clear_centers()
            p.clear_orders()
        self._phase = phase
        self._owner = {dip_unit(u): (u.power, u.type, u.location) for u in units.values()}
        by_power: dict[str, list[str]] = {}
        for u in units.values():
            by_power.setdefault(u.power.upper(), []).append(dip_unit(u))
        for power, texts in sorted(by_power.items()):
            g.set_units(power, texts)
        for unit, places in (retreats or {}).items():
            g.get_power(unit.power.upper()).retreats[dip_unit(unit)] = [dip_loc(x) for x in places]
        by_owner: dict[str, list[str]] = {}
        for prov, owner in (centres or {}).items():
            by_owner.setdefault(owner.upper(), []).append(prov.upper())
        for power, provs in sorted(by_owner.items()):
            g.set_centers(power, provs)
        g.build_caches()
        by_power_orders: dict[str, list[str]] = {}
        for o in orders:
            by_power_orders.setdefault(order_power(o).upper(), []).append(dip_order(o, units))
        for power, texts in sorted(by_power_orders.items()):
            g.set_orders(power, texts)
        g.error = []

    def process(self) -> float:
        """Adjudicate with ``Game.process()``; seconds taken."""
        g = self.game
        t0 = time.perf_counter()
        g.process()
        return time.perf_counter() - t0

    def resolve_only(self) -> float:
        """Time the package's movement resolver alone (on the loaded position; nothing is advanced)."""
        g = self.game
        g._determine_orders()
        g._add_coasts()
        t0 = time.perf_counter()
        g._resolve_moves()
        return time.perf_counter() - t0

    def units(self) -> set[UnitKey]:
        out = set()
        for name, p in self.game.powers.items():
            for u in p.units:
                t, loc = u.split()
                out.add((name.lower(), t, loc.lower()))
        return out

    def dislodged(self) -> set[UnitKey]:
        """The units the last phase processed dislodged (from its results: the package disbands at once a
        dislodged unit with nowhere to retreat, so it is not among the retreats)."""
        g = self.game
        results = g.result_history[g._phase_wrapper_type(self._phase)]
        out = set()
        for unit, res in results.items():
            if any(str(r) == "dislodged" for r in res):
                power, t, loc = self._owner[unit]
                out.add((power, t, loc))
        return out


def adjutant_units(units: Mapping[str, Unit]) -> set[UnitKey]:
    return {(u.power, u.type, u.location) for u in units.values()}


# --- random games ---------------------------------------------------------------------------------

@dataclass
class Phase:
    """One phase of a random game, before adjudication: the game (to adjudicate) and its orders, drawn but
    not yet given to it (:meth:`give` does that)."""

    game: Game
    orders: list[Order]

    def give(self) -> None:
        """Give the game this phase's orders (Adjutant's setup for the phase: each order is read and
        checked as it is given)."""
        for o in self.orders:
            self.game.add_order(o)


def random_game(seed: int, years: int, variant: str = "standard") -> Iterator[Phase]:
    """Yield each phase of a seeded random game with its random orders; the caller gives them
    (``phase.give()``) and adjudicates (``phase.game.adjudicate()``) before asking for the next."""
    rng = random.Random(seed)
    game = Game.new(variant)
    last = game.variant.first_year + years - 1
    while not game.over and game.phase.year <= last:
        yield Phase(game, random_orders(game, rng))


@dataclass
class Disagreement:
    phase: str
    seed: int
    units: list[str]
    orders: list[str]
    only_adjutant: list[UnitKey]
    only_diplomacy: list[UnitKey]
    dislodged_only_adjutant: list[UnitKey]
    dislodged_only_diplomacy: list[UnitKey]

    def __str__(self) -> str:
        return (
            f"seed {self.seed} {self.phase}: units only in Adjutant {self.only_adjutant}, only in diplomacy "
            f"{self.only_diplomacy}; dislodged only in Adjutant {self.dislodged_only_adjutant}, only in "
            f"diplomacy {self.dislodged_only_diplomacy}\n  units: {'; '.join(self.units)}\n"
            f"  orders: {'; '.join(self.orders)}"
        )


def compare_movement(seed: int, phase: Phase, mirror: Mirror) -> tuple[Disagreement | None, float, float]:
    """Adjudicate one movement phase on both sides; the disagreement if any, and both times (seconds)."""
    game = phase.game
    before = game.position
    # each engine is set up (given the position and the orders) right before its own timed call
    mirror.load(game, phase.orders)
    took_dip = mirror.process()
    phase.give()
    t0 = time.perf_counter()
    game.adjudicate()
    took_adj = time.perf_counter() - t0
    adj_units, adj_dis = _movement_outcome(game, before)
    dip_units, dip_dis = mirror.units(), mirror.dislodged()
    if adj_units == dip_units and adj_dis == dip_dis:
        return None, took_adj, took_dip
    return (
        Disagreement(
            str(before.phase),
            seed,
            sorted(f"{u.power}: {u}" for u in before.units.values()),
            [dip_order(o, before.units) for o in phase.orders],
            sorted(adj_units - dip_units),
            sorted(dip_units - adj_units),
            sorted(adj_dis - dip_dis),
            sorted(dip_dis - adj_dis),
        ),
        took_adj,
        took_dip,
    )


def _movement_outcome(game: Game, before: Position) -> tuple[set[UnitKey], set[UnitKey]]:
    """Units on the board and dislodged units right after the movement phase that started at ``before``."""
    i = next(k for k in range(len(game.snapshots) - 1, -1, -1) if game.snapshots[k] is before)
    after = game.position_at(i + 1)
    dislodged = {(d.unit.power, d.unit.type, d.unit.location) for d in after.dislodged}
    return adjutant_units(after.units), dislodged


# --- whole games of the package, in its saved-game format -------------------------------------------------

def package_game(seed: int, years: int) -> dict[str, Any]:
    """A seeded game of ``years`` game years played by the package itself, as its ``to_saved_game_format``
    writes it. Each unit's order is drawn from the package's possible orders: a move or hold first, then
    about half the units support one of the orders drawn (so that units are dislodged and retreat); in
    winter each power builds or removes as many as it must."""
    logging.getLogger("diplomacy").setLevel(logging.ERROR)
    with contextlib.redirect_stdout(io.StringIO()):
        from diplomacy import Game as DipGame
        from diplomacy.utils.export import to_saved_game_format  # type: ignore[import-untyped]
    rng = random.Random(seed)
    g = DipGame(map_name="standard")
    while not g.is_game_done and int(g.get_current_phase()[1:5]) < 1901 + years:
        # (sorted: the package lists them in an order that changes with the interpreter's hash seed)
        possible = {loc: sorted(orders) for loc, orders in g.get_all_possible_orders().items()}
        winter = g.get_current_phase().endswith("A")
        for _, power in sorted(g.powers.items()):
            locs = sorted(loc for loc in g.get_orderable_locations(power.name) if possible[loc])
            if winter:
                n = len(power.centers) - len(power.units)
                picks = [rng.choice(possible[loc]) for loc in rng.sample(locs, min(abs(n), len(locs)))]
                g.set_orders(power.name, picks)
                continue
            chosen = {loc: rng.choice([o for o in possible[loc] if " S " not in o] or possible[loc]) for loc in locs}
            for loc in locs:
                supports = [o for o in possible[loc] if " S " in o and o.split(" S ", 1)[1] in chosen.values()]
                if supports and rng.random() < 0.5:
                    chosen[loc] = rng.choice(supports)
            g.set_orders(power.name, list(chosen.values()))
        g.process()
    saved: dict[str, Any] = to_saved_game_format(g)
    return saved


def package_replay(saved: dict[str, Any]) -> list[str]:
    """The package given a saved game's orders phase by phase from its first state: where the state it comes
    to differs from the next phase the saved game holds (empty: it replays to the same states)."""
    logging.getLogger("diplomacy").setLevel(logging.ERROR)
    with contextlib.redirect_stdout(io.StringIO()):
        from diplomacy import Game as DipGame
    g = DipGame(map_name="standard")
    phases = saved["phases"]
    g.set_state(phases[0]["state"])
    problems = []
    for n, phase in enumerate(phases[:-1]):
        if g.get_current_phase() != phase["name"]:
            problems.append(f"phase {phase['name']}: the package is at {g.get_current_phase()}")
            break
        for power, orders in phase["orders"].items():
            g.set_orders(power, orders)
        g.process()
        want = phases[n + 1]["state"]
        got = g.get_state()
        for key in ("units", "centers"):
            if {p: sorted(x) for p, x in got[key].items()} != {p: sorted(x) for p, x in want[key].items()}:
                problems.append(f"after {phase['name']}: the package's {key} differ")
    return problems
