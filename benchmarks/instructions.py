"""Instructions per movement phase: a steady measure of the engine's cost, for comparing two versions.

    .venv/bin/python benchmarks/instructions.py [--games N] [--years N] [--seed N]

Timings on a shared machine swing by 10-20 % between runs of the same code, which hides changes of a few
per cent. This counts instead the CPU instructions CPython executes inside ``Game.adjudicate()`` for each
movement phase of seeded random games (the same games as ``adjudication.py``), with valgrind's callgrind
tool (Debian package ``valgrind``; the script says so if it is missing). Two runs of the same
code give the same count (hash seed fixed); it does not see cache misses, so it measures work, not time.

How: the games are played here, natively, and each movement phase is written down (phase, units,
centres, orders as text). The script then runs itself under callgrind, which counts only inside one
``functools.reduce`` call that adjudicates every recorded phase in turn (set up beforehand, untimed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from adjutant import Game, Position, Unit, load_variant  # noqa: E402 - py/ is on the path only now
from adjutant.adjudication.orders import format_order  # noqa: E402
from adjutant.adjudication.phases import Phase  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from diplomacy_bridge import random_game  # noqa: E402


def record(games: int, years: int, seed: int) -> list[dict[str, object]]:
    """Each movement phase of the seeded random games, as plain data."""
    out: list[dict[str, object]] = []
    for n in range(games):
        for phase in random_game(seed + n, years):
            g = phase.game
            if g.phase.kind == "movement":
                p = g.position
                out.append(
                    {
                        "phase": str(p.phase),
                        "units": [[u.power, u.type, u.location] for u in p.units.values()],
                        "centres": p.centres,
                        "orders": [format_order(o) for o in phase.orders],
                    }
                )
            phase.give()
            g.adjudicate()
    return out


def games_from(phases: list[dict[str, object]]) -> list[Game]:
    """A game at each recorded position, given its orders (each order read and checked: untimed)."""
    v = load_variant("standard")
    out = []
    for r in phases:
        units = {loc.partition("/")[0]: Unit(power, t, loc) for power, t, loc in r["units"]}  # type: ignore[attr-defined]
        g = Game(v, Position(Phase.parse(str(r["phase"])), units, dict(r["centres"])))  # type: ignore[call-overload]
        for text in r["orders"]:  # type: ignore[attr-defined]
            g.add_order(g.parse(text))
        out.append(g)
    return out


def measure(path: str) -> None:
    """Run under callgrind: adjudicate every recorded phase inside the one counted call."""
    import functools

    games = games_from(json.loads(Path(path).read_text()))
    functools.reduce(lambda _, g: g.adjudicate(), games, None)
    print(f"phases {len(games)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=8, help="random games to play (default 8)")
    ap.add_argument("--years", type=int, default=10, help="years per game (default 10)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--measure", help=argparse.SUPPRESS)  # the run under callgrind
    args = ap.parse_args(argv)
    if args.measure:
        measure(args.measure)
        return 0
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("valgrind is not installed (apt-get install -y valgrind): nothing measured", file=sys.stderr)
        return 2
    phases = record(args.games, args.years, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp, "phases.json")
        data.write_text(json.dumps(phases))
        run = subprocess.run(
            [
                valgrind,
                "--tool=callgrind",
                "--collect-atstart=no",
                "--toggle-collect=functools_reduce",
                f"--callgrind-out-file={Path(tmp, 'callgrind.out')}",
                sys.executable,
                __file__,
                "--measure",
                str(data),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            check=False,
        )
    counted = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or counted is None or f"phases {len(phases)}" not in run.stdout:
        print(f"the run under callgrind failed:\n{run.stdout}\n{run.stderr[-2000:]}", file=sys.stderr)
        return 1
    per_phase = int(counted.group(1)) / len(phases)
    print(
        f"Instructions per movement phase in Game.adjudicate(): {per_phase:,.0f} "
        f"({len(phases)} phases of {args.games} games x {args.years} years, seed {args.seed}; "
        f"Python {sys.version.split()[0]})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
