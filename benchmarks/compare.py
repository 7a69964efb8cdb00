"""Two versions of the engine against each other, timed the way the interleaved benchmark times one.

    .venv/bin/python benchmarks/compare.py OTHER [--games N] [--reps N]

OTHER is a folder holding another copy of the ``adjutant`` package, for example an earlier commit's:
``git archive REV py/adjutant | tar -x -C /tmp/rev`` and then ``/tmp/rev/py/adjutant``. Both copies are
loaded into this one process (under two names), the seeded random games of ``adjudication.py`` are
played once, and each movement phase is then adjudicated by both copies in turn, in shuffled order,
each call right after `diplomacy` has processed the same phase (as in the interleaved table of
``adjudication.py``). Both copies must leave the same units on the board. It prints the median time per
movement phase of each and their ratio. Timing both in one run, phase by phase, cancels most of the
machine's drift: two runs of the same copy against itself came within 0.5 % of each other, where two
separate runs of ``adjudication.py`` often differ by 10 %.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT / "py", ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from adjutant import Position  # noqa: E402 - the folders are on the path only now
from adjutant.adjudication.orders import Order, format_order  # noqa: E402
from diplomacy_bridge import Mirror, random_game  # noqa: E402


def load_copy(name: str, folder: Path) -> ModuleType:
    """Import the package in ``folder`` under ``name`` (its modules import each other relatively)."""
    init = folder / "__init__.py"
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"{folder} holds no Python package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def movement_phases(games: int, years: int) -> list[tuple[Position, list[Order]]]:
    """Each movement phase of the seeded random games: the position and the orders given."""
    out = []
    for n in range(games):
        for phase in random_game(1 + n, years):
            if phase.game.phase.kind == "movement":
                out.append((phase.game.position, list(phase.orders)))
            phase.give()
            phase.game.adjudicate()
    return out


def timed(
    engine: ModuleType, position: Position, texts: list[str], mirror: Mirror, orders: list[Order]
) -> tuple[float, Any]:
    """One copy's adjudication of a phase, right after `diplomacy` processed it: seconds, and the units."""
    variant = engine.load_variant("standard")
    units = {p: engine.Unit(u.power, u.type, u.location) for p, u in position.units.items()}
    phase = engine.game.Phase(position.phase.year, position.phase.season, position.phase.kind)
    game = engine.Game(variant, engine.Position(phase, units, dict(position.centres)))
    parsed = [game.parse(t) for t in texts]
    mirror.load_position(str(position.phase), position.units, orders, position.centres)
    mirror.process()
    for order in parsed:
        game.add_order(order)
    t0 = time.perf_counter()
    game.adjudicate()
    took = time.perf_counter() - t0
    return took, sorted((u.power, u.type, u.location) for u in game.position_at(1).units.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("other", type=Path, help="a folder holding another copy of the adjutant package")
    ap.add_argument("--games", type=int, default=20, help="random games to play (default 20)")
    ap.add_argument("--years", type=int, default=10, help="years per game (default 10)")
    ap.add_argument("--reps", type=int, default=3, help="times each phase goes to each copy (default 3)")
    args = ap.parse_args(argv)
    os.environ.setdefault("ADJUTANT_MAPS", str(ROOT / "maps"))  # (a copy elsewhere reads this tree's maps)
    this = load_copy("adjutant_this", ROOT / "py" / "adjutant")
    other = load_copy("adjutant_other", args.other.resolve())
    phases = movement_phases(args.games, args.years)
    mirror = Mirror()
    times: dict[str, list[float]] = {"this": [], "other": []}
    rng = random.Random(5)
    for rep in range(args.reps):
        order = list(range(len(phases)))
        rng.shuffle(order)
        for k in order:
            position, orders = phases[k]
            texts = [format_order(o) for o in orders]
            turns = [("this", this), ("other", other)]
            if (k + rep) % 2:
                turns.reverse()
            outcomes = []
            for label, engine in turns:
                took, units = timed(engine, position, texts, mirror, orders)
                times[label].append(took)
                outcomes.append(units)
            if outcomes[0] != outcomes[1]:
                print(f"the two copies disagree on {position.phase}", file=sys.stderr)
                return 1
    a, b = statistics.median(times["this"]), statistics.median(times["other"])
    print(
        f"movement phases: this copy {a * 1e6:.1f} us, {args.other} {b * 1e6:.1f} us (medians of "
        f"{len(times['this'])}); this / other = {a / b:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
