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
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT / "py", ROOT / "tests"):  # the engine, and the bridge to diplomacy (tests/diplomacy_bridge.py)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from adjutant import Game, Position, load_variant  # noqa: E402 - py/ is on the path only now
from adjutant.adjudication.orders import POWER_ORDERS, Order, UnitOrder  # noqa: E402
from adjutant.adjudication.resolver import adjudicate_movement  # noqa: E402
from adjutant.map.variant import Variant  # noqa: E402
from diplomacy_bridge import Disagreement, Mirror, compare_movement, random_game  # noqa: E402

KINDS = ("movement", "retreat", "adjustment")


# --- replaying recorded phases ------------------------------------------------------------------

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
