"""The computer players (adjutant.bots): legality, strength and speed, per variant.

    .venv/bin/python benchmarks/bots.py [--quick] [--variants standard,cline5] [--no-pyodide]

For each variant it plays, with the same seeds:
- reference games, every power the heuristic player;
- rotating-seat games for the random and the search player: the tested player at one power's seat (the
  seat turns with each game: game n at the n-th power, in the order of their ids), the others heuristic.
It prints
- the illegal orders: every order a bot gives is checked by ``Game.check_order`` before it is given, and
  every result adjudicated as illegal is counted too, over all the power-phases of those games (target 0);
- strength: the mean supply centres at the tested seat after the games' years, with its standard error,
  against the heuristic player's own mean at the same seats in the reference games (same seeds), and the
  ratio (targets: the heuristic at least 1.8 times random's; the search at least 1.5 times the heuristic's);
- time per power-phase (one power's orders, movement, retreat or adjustment), CPython, median and p95, by
  level; and the same in real Pyodide under Node (tests/pyodide/run_python.mjs runs this file there with
  ``--timing``: a few game years of the heuristic and the search on each variant).
- a nine-power phase with eight computer players at the search level, made by a Thinker in 25 ms slices
  in Pyodide: the longest slice, and the whole; a phone is modelled as PHONE times slower than Pyodide on
  this machine (the results are drawn once the Thinker is done: the target is 10 s on a phone).

Full run: 70 games of 10 years on Standard, one game per seat on the others. ``--quick``: one game per
seat, of 4 years, and the timing in Pyodide on Standard and Cline V only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from adjutant.adjudication.orders import Order  # noqa: E402
from adjutant.bots import Thinker, bot_orders  # noqa: E402
from adjutant.bots.selfplay import play_game  # noqa: E402
from adjutant.bots.values import graph_of  # noqa: E402
from adjutant.game import Game  # noqa: E402
from adjutant.map.variant import available_variants, load_variant  # noqa: E402

#: how much slower than Pyodide on this machine a phone-class device is taken to be (a mid-range phone's
#: single core against a desktop's, for Python-heavy work: about three times, by Speedometer and Geekbench
#: single-core scores)
PHONE = 3.0


class Tally:
    """Counts what the bots give over the games: power-phases, illegal orders, time per power-phase."""

    def __init__(self) -> None:
        self.power_phases = 0
        self.illegal: list[str] = []
        self.times: dict[str, list[float]] = defaultdict(list)
        self.levels: dict[str, str] = {}

    def watch(self, game: Game, power: str, orders: list[Order], seconds: float) -> None:
        if not orders:
            return  # (a power with nothing to order: no power-phase)
        self.power_phases += 1
        self.times[self.levels.get(power, "heuristic")].append(seconds * 1000)
        for o in orders:
            check = game.check_order(o)
            if check.verdict != "legal":
                self.illegal.append(f"{game.phase} {power} {o}: {check.reason}")

    def game(self, variant: str, levels: dict[str, str], years: int, seed: int) -> Game:
        """A game played, its orders checked."""
        self.levels = levels
        game = play_game(variant, levels, years, seed=seed, watch=self.watch)
        for record in game.history:
            self.illegal += [f"{record.phase} {r.power} {r.order}: {r.reason}" for r in record.results
                             if r.reason.startswith("illegal")]
        return game


def mean_se(xs: list[int]) -> tuple[float, float]:
    m = statistics.mean(xs)
    se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
    return m, se


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def tournament(variant: str, games: int, years: int, tally: Tally) -> dict[str, object]:
    powers = sorted(load_variant(variant).powers)
    seats = [powers[n % len(powers)] for n in range(games)]
    out: dict[str, object] = {"games": games, "years": years}
    for tested in ("heuristic", "random", "search"):
        played = [tally.game(variant, {} if tested == "heuristic" else {seats[n]: tested}, years, n)
                  for n in range(games)]
        out[tested] = mean_se([g.centre_counts()[seats[n]] for n, g in enumerate(played)])
    return out


def timing(variants: list[str], years: int) -> dict[str, dict[str, list[float]]]:
    """Milliseconds per power-phase by variant and level: a game of ``years`` at the heuristic level, its
    first movement phases at the search level too; and ("warm") the making of the variant's tables of
    values, once per variant (a page does it in slices, :meth:`~adjutant.bots.values.Graph.warm`)."""
    out: dict[str, dict[str, list[float]]] = {}
    for variant in variants:
        started = time.perf_counter()
        for _ in graph_of(load_variant(variant)).warm():
            pass
        warm = (time.perf_counter() - started) * 1000
        tally = Tally()
        tally.game(variant, {}, years, 1)
        game = Game.new(variant, seed=1)
        search: list[float] = []
        for _ in range(2):  # spring and fall 1901
            for power in sorted(game.variant.powers):
                started = time.perf_counter()
                for o in bot_orders(game, power, "search", 1):
                    game.add_order(o)
                search.append((time.perf_counter() - started) * 1000)
            game.adjudicate()
        out[variant] = {"heuristic": tally.times["heuristic"], "search": search, "warm": [warm]}
    return out


def nine_powers() -> dict[str, float]:
    """Eight computer players at the search level in Cline V's first phase, by a Thinker in 25 ms slices."""
    game = Game.new("cline5")
    powers = sorted(game.variant.powers)[1:]
    thinker = Thinker(game, powers, "search", seed=1)
    longest = 0.0
    started = time.perf_counter()
    while True:
        t = time.perf_counter()
        finished = thinker.step(25.0)
        longest = max(longest, (time.perf_counter() - t) * 1000)
        if finished:
            break
    return {"longest_slice_ms": longest, "total_ms": (time.perf_counter() - started) * 1000}


def pyodide_timing(variants: list[str], years: int) -> dict[str, object] | None:
    node = shutil.which("node")
    runner = ROOT / "tests" / "pyodide" / "run_python.mjs"
    if node is None or not (ROOT / "node_modules" / "pyodide").is_dir():
        print("(no Node or no node_modules/pyodide: the Pyodide timing is left out)")
        return None
    done = subprocess.run(
        [node, str(runner), "benchmarks/bots.py", "--timing", ",".join(variants), "--years", str(years)],
        cwd=ROOT, capture_output=True, text=True, timeout=3600, env=dict(os.environ),
    )
    if done.returncode != 0:
        print("Pyodide timing failed:", done.stderr[-2000:])
        return None
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def print_times(title: str, times: dict[str, dict[str, list[float]]]) -> None:
    print(f"\n{title}: ms per power-phase, median / p95 (n)")
    for variant, by_level in times.items():
        cells = [f"{lvl} {statistics.median(xs):6.1f} / {pct(xs, 0.95):6.1f} ({len(xs)})"
                 for lvl, xs in by_level.items() if xs]
        print(f"  {variant:14} " + "   ".join(cells))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--variants", default="")
    parser.add_argument("--no-pyodide", action="store_true")
    parser.add_argument("--pyodide-only", action="store_true", help="the timing in Pyodide only")
    parser.add_argument("--timing", help=argparse.SUPPRESS)  # (inside Pyodide: the timing only, as JSON)
    parser.add_argument("--years", type=int, default=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.timing:
        found: dict[str, object] = {"times": timing(args.timing.split(","), args.years), "nine": nine_powers()}
        print(json.dumps(found))
        return 0
    variants = args.variants.split(",") if args.variants else [vid for vid, _ in available_variants()]
    if args.pyodide_only:
        report_pyodide(["standard", "cline5"] if args.quick else variants)
        return 0
    print("variant        games x years  power-phases  illegal   heuristic (at the seats)   random        "
          "search        heuristic/random  search/heuristic")
    times: dict[str, dict[str, list[float]]] = {}
    for variant in variants:
        powers = len(load_variant(variant).powers)
        if args.quick:
            games, years = powers, 4
        else:
            games, years = (70 if variant == "standard" else powers), 10
        tally = Tally()
        t = tournament(variant, games, years, tally)
        (h, hse), (r, rse), (s, sse) = t["heuristic"], t["random"], t["search"]  # type: ignore[misc]
        print(f"{variant:14} {games:4} x {years:<5} {tally.power_phases:12}  {len(tally.illegal):7}   "
              f"{h:5.2f} ± {hse:4.2f}                {r:5.2f} ± {rse:4.2f}  {s:5.2f} ± {sse:4.2f}  "
              f"{h / r if r else float('inf'):16.2f}  {s / h:16.2f}", flush=True)
        for line in tally.illegal[:10]:
            print("   illegal:", line)
        times[variant] = {k: v for k, v in tally.times.items()}
    print_times("CPython", times)
    if not args.no_pyodide:
        report_pyodide(["standard", "cline5"] if args.quick else variants)
    return 0


def report_pyodide(variants: list[str]) -> None:
    found = pyodide_timing(variants, 2)
    if found is None:
        return
    print_times("Pyodide (under Node)", found["times"])  # type: ignore[arg-type]
    nine: dict[str, float] = found["nine"]  # type: ignore[assignment]
    print(f"\nCline V, eight computer players at the search level, a Thinker in 25 ms slices (Pyodide): "
          f"longest slice {nine['longest_slice_ms']:.0f} ms, all orders in {nine['total_ms'] / 1000:.1f} s "
          f"(a phone, modelled as {PHONE:g}x slower: {nine['total_ms'] * PHONE / 1000:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
