"""How long reading the costliest game files within the limits takes, in CPython.

    python benchmarks/hostile_files.py

Two files, each timed once with ``adjutant.formats.gamefile.loads``:

- *repeated*: a new Standard game whose current orders repeat ``A Par H`` until the file is just under
  ``MAX_FILE_BYTES`` (about 840,000 copies). Reading parses every order, so this is the most parsing a
  file can ask for; the count of orders a phase can hold (``gamefile.most_orders``) refuses it first.
- *full*: a Standard game of ``MAX_PHASES`` movement phases in which every power gives as many hold orders
  as the count allows, each unit's repeated: the most replaying a file within every limit can ask for.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from adjutant import Game, GameFileError, loads  # noqa: E402
from adjutant.formats.gamefile import MAX_PHASES, most_orders, to_data  # noqa: E402
from adjutant.formats.limits import MAX_FILE_BYTES  # noqa: E402


def repeated() -> str:
    copies = (MAX_FILE_BYTES - 1_000) // len('"A Par H",')
    data = dict(to_data(Game.new("standard")), orders={"france": ["A Par H"] * copies})
    return json.dumps(data, separators=(",", ":"))


def full() -> str:
    game = Game.new("standard")
    history: list[dict[str, object]] = []
    while sum(1 for r in game.history if not r.skipped) < MAX_PHASES:
        units = sorted(game.units.values(), key=lambda u: u.power)
        holds: dict[str, list[str]] = {}
        for n in range(most_orders(game)):
            unit = units[n % len(units)]
            holds.setdefault(unit.power, []).append(f"{unit.type} {unit.location} H")
        for power, texts in holds.items():
            for text in texts:
                game.add_order(game.parse(text, power))
        done = len(game.history)
        game.adjudicate()
        history.append({"phase": str(game.history[done].phase), "orders": holds, "results": []})
        history += [{"phase": str(r.phase), "skipped": True} for r in game.history[done + 1 :]]
    return json.dumps(dict(to_data(game), history=history), separators=(",", ":"))


def main() -> None:
    for name, make in (("repeated", repeated), ("full", full)):
        text = make()
        start = time.perf_counter()
        try:
            loads(text)
            outcome = "read"
        except GameFileError as e:
            outcome = f"refused: {e}"
        took = time.perf_counter() - start
        print(f"{name}: {len(text):,} bytes, {took:.2f} s, {outcome[:160]}")


if __name__ == "__main__":
    main()
