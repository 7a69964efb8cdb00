"""What one action on the page costs in Python as a game grows: order entry, adjudication, opening a link.

    .venv/bin/python benchmarks/page_actions.py [--years 1,10,30,100] [--repeat 5] [--py FOLDER]

Plays a seeded game of random legal orders of Cline 9-Man V for each number of game years (in CPython),
then times, as the page does them (each change re-makes the link of the game in hand):
- order entry: one order added, then the game's link made;
- adjudication: the phase's orders given, the phase adjudicated, then the link made (the orders' entry
  is outside the time; what is timed is the click on Adjudicate);
- link opening: the game's link decoded into a game.
Times are milliseconds, medians of --repeat. --py runs another checkout's engine (its py/ folder), to
compare with the code before a change. Targets (issue 21): order entry and adjudication within 50 ms at
100 game years (click to next frame, in the page); a 100-year link's position visible within 1 s of
Python being ready. Figures in docs/performance-startup.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def timed(action: Any) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", default="1,10,30,100", help="game lengths, comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="timings of each action (default 5)")
    parser.add_argument("--py", type=Path, default=ROOT / "py", help="the engine's folder (default this py/)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.py.resolve()))
    from adjutant import Game, decode_link, encode_link
    from adjutant.legal import random_game, random_orders

    print(f"Cline V, CPython {sys.version.split()[0]}, engine from {args.py}; ms, median of {args.repeat}")
    columns = ("order entry", "adjudication", "link opening")
    print(f"{'years':>5} {'phases':>7} {'link chars':>11}" + "".join(f"{name:>14}" for name in columns))
    for years in (int(y) for y in args.years.split(",")):
        game: Game = Game.new("cline5")
        for game in random_game("cline5", 1, years):  # noqa: B007 - the last state is the game played
            pass
        encode_link(game)  # the page made the link of the game it opened
        rng = random.Random(years)
        entry, adjudication, opening = [], [], []
        for _ in range(args.repeat):
            first, *rest = random_orders(game, rng)
            entry.append(timed(lambda game=game, order=first: (game.add_order(order), encode_link(game))))
            for order in rest:
                game.add_order(order)
            adjudication.append(timed(lambda game=game: (game.adjudicate(), encode_link(game))))
            link = encode_link(game)
            opening.append(timed(lambda link=link: decode_link(link)))
        print(
            f"{years:>5} {len(game.history):>7} {len(link):>11}"
            + "".join(f"{statistics.median(times):>14.1f}" for times in (entry, adjudication, opening))
        )


if __name__ == "__main__":
    main()
