"""Adjudication speed: Adjutant against the `diplomacy` package (PyPI, 1.1.2) on the same positions.

    .venv/bin/python benchmarks/adjudication.py [--games N] [--years N] [--seed N] [--variant ID]

Plays seeded random games (a random legal order for every unit, every adjustment due, from
``adjutant.randomgame.random_orders``) and, before each phase, sets a `diplomacy` game to exactly the same
position (units, dislodged units with their retreat options, centres, phase) and gives it the same
orders. Only the adjudication call is timed on each side; setting up the position and reading the
orders (parsing, validation) are done before the clock starts:
- Adjutant: ``Game.adjudicate()`` (resolve the phase, record the results, advance, skip empty phases);
- diplomacy: ``Game.process()`` (the same work in that package: resolve, record, advance, skip).
For movement phases it also times the resolvers alone: Adjutant's ``adjudicate_movement`` against
diplomacy's ``_resolve_moves`` (after its own ``_determine_orders``/``_add_coasts``, untimed).

It measures twice, on the same phases, and prints a table for each:
- interleaved: as the games are played, each phase goes to diplomacy and then to Adjutant, each engine
  given the position and the orders right before its own timed call (so each engine's call runs soon
  after the other engine's, which has evicted much of the CPU's caches);
- separate: every phase is recorded (its position and orders) and replayed afterwards through each
  engine in its own loop, all Adjutant phases and then all diplomacy phases, each call still timed on its
  own after the same untimed setup (a new game at the recorded position given the recorded orders).
Each table gives median and p95 milliseconds per phase kind and the ratio. Target (issue 2): Adjutant at
least 10x faster per movement phase. Any movement phase where the two disagree on the resulting
units or dislodged units is counted and listed (the differential test in tests/ checks the same thing).
With ``--variant`` other than standard only Adjutant is timed (the package has no such maps).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import logging
import random
import statistics
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from adjutant import Game, Position, Unit, load_variant  # noqa: E402 - py/ is on the path only now
from adjutant.legal import possible_orders  # noqa: E402
from adjutant.orders import (  # noqa: E402
    POWER_ORDERS,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    UnitOrder,
    Waive,
    order_power,
)
from adjutant.randomgame import random_orders  # noqa: E402
from adjutant.resolver import adjudicate_movement  # noqa: E402
from adjutant.variant import Variant  # noqa: E402

KINDS = ("movement", "retreat", "adjustment")


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


@dataclass(frozen=True)
class Recorded:
    """One phase as it stood before adjudication, to replay: the position and the orders given."""

    position: Position
    orders: list[Order]


def replayed(variant: Variant, phase: Recorded) -> Game:
    """A new game at a recorded position, given the recorded orders (each checked as it is given)."""
    game = Game(variant, phase.position)
    for o in phase.orders:
        game.add_order(o)
    return game


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


# --- the benchmark -----------------------------------------------------------------------------------

@dataclass
class Timings:
    adjutant: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    diplomacy: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    adjutant_resolver: list[float] = field(default_factory=list)
    diplomacy_resolver: list[float] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)


def _resolver_orders(orders: list[Order]) -> list[UnitOrder]:
    """The orders the resolver takes: those to units."""
    return [o for o in orders if not isinstance(o, POWER_ORDERS)]


def run(games: int, years: int, seed: int, variant: str, recorded: list[Recorded] | None = None) -> Timings:
    """The interleaved measurement: each phase to diplomacy, then to Adjutant, as the games are played.
    Each phase is appended to ``recorded``, if given, before it is adjudicated."""
    mirror = Mirror() if variant == "standard" else None
    out = Timings()
    for n in range(games):
        game_seed = seed + n
        for phase in random_game(game_seed, years, variant):
            game = phase.game
            kind = game.phase.kind
            if recorded is not None:
                recorded.append(Recorded(game.position, list(phase.orders)))
            if kind == "movement" and mirror is not None:
                # the resolvers alone, on the same position and orders, before either side advances
                mirror.load(game, phase.orders)
                out.diplomacy_resolver.append(mirror.resolve_only())
                given = _resolver_orders(phase.orders)
                t0 = time.perf_counter()
                adjudicate_movement(game.variant, game.units, given, game.phase.season)
                out.adjutant_resolver.append(time.perf_counter() - t0)
                diff, took_adj, took_dip = compare_movement(game_seed, phase, mirror)
                out.adjutant[kind].append(took_adj)
                out.diplomacy[kind].append(took_dip)
                if diff is not None:
                    out.disagreements.append(diff)
                continue
            if mirror is not None:
                mirror.load(game, phase.orders)
                out.diplomacy[kind].append(mirror.process())
            phase.give()
            t0 = time.perf_counter()
            game.adjudicate()
            out.adjutant[kind].append(time.perf_counter() - t0)
    return out


def replay(recorded: list[Recorded], variant: str) -> Timings:
    """The separate measurement: the recorded phases through Adjutant in one loop, then through diplomacy
    in another (and the resolvers alone likewise), each call timed on its own after its untimed setup."""
    v = load_variant(variant)
    out = Timings()
    moves = [r for r in recorded if r.position.phase.kind == "movement"]
    for r in recorded:
        game = replayed(v, r)
        t0 = time.perf_counter()
        game.adjudicate()
        out.adjutant[r.position.phase.kind].append(time.perf_counter() - t0)
    for r in moves:
        given = _resolver_orders(r.orders)
        t0 = time.perf_counter()
        adjudicate_movement(v, r.position.units, given, r.position.phase.season)
        out.adjutant_resolver.append(time.perf_counter() - t0)
    if variant != "standard":
        return out
    mirror = Mirror()
    for r in recorded:
        mirror.load(replayed(v, r), r.orders)
        out.diplomacy[r.position.phase.kind].append(mirror.process())
    for r in moves:
        mirror.load(replayed(v, r), r.orders)
        out.diplomacy_resolver.append(mirror.resolve_only())
    return out


def _p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def _ms(x: float) -> str:
    return f"{x * 1000:10.3f}"


def report(interleaved: Timings, separate: Timings, args: argparse.Namespace, wall: float) -> str:
    lines = [
        f"Adjudication benchmark: variant {args.variant}, {args.games} games x {args.years} years, "
        f"seed {args.seed}, Python {sys.version.split()[0]}",
        "Timed: only the adjudication call (Adjutant Game.adjudicate() / diplomacy Game.process(); "
        "'resolver only': adjudicate_movement() / _resolve_moves()).",
        "Not timed: building either position, parsing and validating the orders.",
        "",
        "1. Interleaved: as the games are played, each phase goes to diplomacy, then to Adjutant.",
        *_table(interleaved, "interleaved"),
        "",
        "2. Separate: the same phases, recorded and replayed through each engine in its own loop (all",
        "   Adjutant phases, then all diplomacy phases; each call timed on its own after the same setup).",
        *_table(separate, "separate"),
    ]
    t = interleaved
    if t.diplomacy["movement"]:
        lines += [
            "",
            f"Movement phases where the two disagree on units or dislodged units: {len(t.disagreements)} of "
            f"{len(t.adjutant['movement'])} (tests/test_differential.py lists the known differences).",
        ]
        lines += [str(d) for d in t.disagreements[:10]]
    lines.append(f"Wall time {wall:.1f} s")
    return "\n".join(lines)


def _table(t: Timings, label: str) -> list[str]:
    lines = [
        f"{'phase kind':<24}{'n':>6}  {'Adjutant ms':>21}  {'diplomacy 1.1.2 ms':>21}  {'ratio of medians':>17}",
        f"{'':<24}{'':>6}  {'median':>10} {'p95':>10}  {'median':>10} {'p95':>10}",
    ]
    rows = [(k, t.adjutant[k], t.diplomacy[k]) for k in KINDS]
    rows.append(("movement, resolver only", t.adjutant_resolver, t.diplomacy_resolver))
    for name, a, d in rows:
        if not a:
            lines.append(f"{name:<24}{0:>6}  (none)")
            continue
        am, ap = statistics.median(a), _p95(a)
        cells = f"{name:<24}{len(a):>6}  {_ms(am)} {_ms(ap)}  "
        if d:
            dm, dp = statistics.median(d), _p95(d)
            cells += f"{_ms(dm)} {_ms(dp)}  {dm / am:>16.1f}x"
        else:
            cells += f"{'-':>10} {'-':>10}"
        lines.append(cells)
    if t.diplomacy["movement"]:
        per_phase = [d / a for a, d in zip(t.adjutant["movement"], t.diplomacy["movement"], strict=True)]
        total = sum(t.diplomacy["movement"]) / sum(t.adjutant["movement"])
        tail = _p95(t.diplomacy["movement"]) / _p95(t.adjutant["movement"])
        lines.append(
            f"Movement phases ({label}), Adjutant faster by {statistics.median(per_phase):.1f}x (median of "
            f"per-phase ratios), {total:.1f}x (total time), {tail:.1f}x (p95 against p95). Target: 10x."
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=100, help="random games to play (default 100)")
    ap.add_argument("--years", type=int, default=10, help="years per game (default 10)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--variant", default="standard", help="variant id (diplomacy compares on standard only)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    recorded: list[Recorded] = []
    interleaved = run(args.games, args.years, args.seed, args.variant, recorded)
    separate = replay(recorded, args.variant)
    print(report(interleaved, separate, args, time.perf_counter() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
