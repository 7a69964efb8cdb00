"""How long a shared link is: seeded random games with legal orders, encoded with adjutant.formats.link.

    python benchmarks/link_size.py [--years 10] [--seeds 5]

Prints, per variant, the link length in characters (the fragment after '#g=') for games of the given
length, next to the size of the same game as a file. Target (issue 6): a 10-year, 9-power Cline V game
fits in at most 2,000 characters.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from adjutant import Game, decode_link, dumps, encode_link  # noqa: E402
from adjutant.randomgame import random_game  # noqa: E402


def play(variant: str, seed: int, years: int) -> Game:
    game = Game.new(variant)
    for game in random_game(variant, seed, years):  # noqa: B007 - the last state is the game played
        pass
    return game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--variants", default="standard,loeb9,cline5,cline6,coast_running")
    args = ap.parse_args()
    print(f"{'variant':14} {'powers':>6} {'phases':>7} {'link chars (median / max)':>26} {'file bytes':>11} "
          f"{'encode ms':>10} {'decode ms':>10}")
    for variant in args.variants.split(","):
        sizes, files, enc, dec, phases = [], [], [], [], []
        for seed in range(args.seeds):
            g = play(variant, seed, args.years)
            t = time.perf_counter()
            link = encode_link(g)
            enc.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            again = decode_link(link)
            dec.append((time.perf_counter() - t) * 1000)
            assert dumps(again) == dumps(g)
            sizes.append(len(link))
            files.append(len(dumps(g, indent=None).encode()))
            phases.append(len(g.history))
        print(
            f"{variant:14} {len(g.variant.powers):>6} {statistics.median(phases):>7.0f} "
            f"{statistics.median(sizes):>12.0f} / {max(sizes):<11} {statistics.median(files):>11.0f} "
            f"{statistics.median(enc):>10.1f} {statistics.median(dec):>10.1f}"
        )


if __name__ == "__main__":
    main()
