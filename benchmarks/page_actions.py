"""What one action on the page costs in Python as a game grows: order entry, adjudication, opening a link.

    .venv/bin/python benchmarks/page_actions.py [--years 1,10,30,100] [--repeat 5] [--py FOLDER] [--cpu]
    .venv/bin/python benchmarks/page_actions.py --page [--years 1,100] [--repeat 3] [--site FOLDER]
    .venv/bin/python benchmarks/page_actions.py --pyodide [--years ...] [--repeat 3] [--py FOLDER]

Plays a seeded game of random legal orders of Cline 9-Man V for each number of game years (in CPython),
then times, as the page does them (each change re-makes the link of the game in hand):
- order entry: one order added, then the game's link made;
- adjudication: the phase's orders given and the link made, as the page does (outside the time), then
  the phase adjudicated and the link made (what is timed is the click on Adjudicate);
- link opening: the game's link decoded into a game.
Times are milliseconds, medians of --repeat. --py runs another checkout's engine (its py/ folder), to
compare with the code before a change. --cpu times the process's CPU time instead of the wall clock: on a
machine shared with other work, a steadier measure of the same code (what the page would wait for alone).

--pyodide times link opening alone in Pyodide under Node (tests/pyodide/run_python.mjs, which mounts this
repository at /repo: a --py folder must be inside it), to the decoder's first step (a link that carries
its position: that position read and checked, what the page draws before the replay) and to the game
replayed, each link decoded --repeat times in one interpreter, in Node's CPU time (steady on a shared
machine) and on the wall clock.

--page does the same in the built site in headless Chromium: the game's link opened in a fresh profile
(position visible: from the Python UI's start, the adjutant:pyStart mark, to the position drawn), then
three orders entered as text, one at a time, then (untimed) an order for every unit, and the phase
adjudicated (every unit ordered: the click adjudicates, rather than list units without orders), each
timed from the click to the next frame (a requestAnimationFrame callback, then a task after it); then it
plays on, untimed, to the next movement phase and times its adjudication too ("next adjud.": at these
seeds the fall's, into the winter's adjustments, the costliest to draw). Each repeat does this twice, in
two fresh profiles: once the page has settled (the service worker activated and the snapshot's copy
kept, as on every visit after the first, and the page's idle rehearsal over), and at once when Python is
ready ("1st visit", without the next adjudication: the clicks then share the machine with the first
visit's caching, the site's 23 MB hashed and the snapshot's 31 MB unpacked copy written into Cache
Storage, and with the rehearsal). "settled after" is how long that took from Python ready. The "CPU"
columns are the CPU time the page's renderer main thread ran meanwhile (Linux /proc; with the autosave
the page leaves for the next idle moment, when that came before the reading): the work a click costs,
which the wall clock on a loaded machine hides under the waits for a core. --site serves a site built
beforehand (`build.py --out FOLDER`, e.g. from another checkout, to compare) instead of building this
one.
--page prints the machine (processor, cores, memory, system, browser) and the load averages before, after
each game length and at the end, and for each figure the median of the repeats and their range (min-max),
then every single timing. On a machine shared with other work compare runs taken under similar load, or
the CPU columns.
Targets (issue 41, quiet machine): order entry, adjudication and the next adjudication within 50 ms
(click to next frame, median) at 1 and at 100 game years, within 100 ms with one other core-bound process
running; a 100-year link's position visible within 1 s of Python starting. Figures in docs/performance.md
("Page actions: click to next frame").
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


#: the clock actions are timed by (--cpu sets time.process_time)
clock = time.perf_counter


def timed(action: Any) -> float:
    start = clock()
    action()
    return (clock() - start) * 1000


CLICK = """async ([button, power, text]) => {
  if (power !== null) {
    document.getElementById("orders-power").value = power;
    document.getElementById("orders-text").value = text;
  }
  const start = performance.now();
  document.getElementById(button).click();
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - start;
}"""

OPENED = """() => performance.getEntriesByName("adjutant:positionVisible")[0].startTime
  - performance.getEntriesByName("adjutant:pyStart")[0].startTime"""


#: the page has settled: its service worker activated, the snapshot's copy kept (or none to keep), and
#: its idle rehearsal over (adjutant_ui.app.App.rehearse)
SETTLED = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const snapshot = window.adjutantShell.snapshot;
  return registration.active.state === "activated" && (!(snapshot && snapshot.keeping) || snapshot.kept !== null)
    && document.documentElement.hasAttribute("data-rehearsed");
}"""


def _descendants(root: int) -> list[int]:
    """The processes under ``root`` (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def renderer_cpu() -> float:
    """The CPU time, in ms, the main threads of this benchmark's Chromium renderers have run (from
    /proc/<pid>/schedstat, in nanoseconds); 0 where /proc does not say."""
    total = 0
    for pid in _descendants(os.getpid()):
        try:
            if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e6


def in_page(games: list[tuple[int, Any]], repeat: int, site: Path | None = None) -> None:
    """Open each game's link in the built site (``site``, or this checkout's built now) and time an order's
    entry and an adjudication there."""
    import tempfile

    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    from adjutant import decode_link, encode_link
    from adjutant.adjudication.orders import Hold, format_order, order_power
    from adjutant.randomgame import random_orders
    from chromium import CHROMIUM, CHROMIUM_FLAGS
    from machine import load, machine, spread

    import build

    print(f"machine: {machine(CHROMIUM)}")
    print(f"load average (1, 5, 15 min) before: {load()}")
    print(f"In the page (headless Chromium), ms: median of {repeat} repeats (range)")
    columns = ("link opening", "order entry", "adjudication", "next adjud.", "entry CPU", "adjud. CPU", "next CPU")
    first_columns = ("1st visit entry", "1st vis. adjud.", "settled after")
    with tempfile.TemporaryDirectory() as folder:
        dist = site or build.build(Path(folder) / "dist")
        with build.serving(dist) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)

            def enter_every_order(page: Any, game: Any, seed: int) -> None:
                """Enter random orders for everything ``game`` (the page's) has to order, power by power."""
                by_power: dict[str, list[str]] = {}
                for order in random_orders(game, random.Random(seed)):
                    by_power.setdefault(order_power(order), []).append(format_order(order))
                for power, lines in by_power.items():
                    page.evaluate(CLICK, ["orders-apply", power, "\n".join(lines)])

            def clicks(
                link: str, game: Any, years: int, settle: bool
            ) -> tuple[float, list[float], float, list[float], float, float, float, float]:
                """Open ``game``'s ``link`` in a fresh profile, let it settle or not, and time three orders and an
                adjudication, then (settled) the next movement phase's: (link opening, entries, adjudication,
                entries' CPU, adjudication's CPU, settling, the next adjudication and its CPU)."""
                for attempt in (1, 2):  # a renderer that crashes while the page starts is started again, once
                    context = browser.new_context(viewport={"width": 1280, "height": 800})
                    page = context.new_page()
                    try:
                        page.goto(base + "#" + link)
                        page.wait_for_selector("html[data-python-ready]", state="attached", timeout=300_000)
                        break
                    except PlaywrightError as error:
                        context.close()
                        if attempt == 2 or "crashed" not in str(error):
                            raise
                        print(f"(the renderer crashed while the page started: opened again) {error}".splitlines()[0])
                opened = page.evaluate(OPENED)
                settling = time.perf_counter()
                if settle:
                    page.wait_for_function(SETTLED, timeout=300_000, polling=100)
                    page.wait_for_timeout(500)  # the autosave and any idle work the caching held back
                settling = (time.perf_counter() - settling) * 1000
                entries, entries_cpu = [], []
                # three orders, each its own click (the first also pays for what Python does once)
                for place in sorted(game.units)[:3]:
                    unit = game.units[place]
                    used = renderer_cpu()
                    entries.append(page.evaluate(CLICK, ["orders-apply", unit.power, format_order(Hold(unit))]))
                    entries_cpu.append(renderer_cpu() - used)
                enter_every_order(page, game, years)
                used = renderer_cpu()
                adjudication = page.evaluate(CLICK, ["adjudicate", None, None])
                adjudication_cpu = renderer_cpu() - used
                following = following_cpu = math.nan
                if settle:  # on to the next movement phase (retreats and adjustments untimed), and its adjudication
                    while True:
                        shown = decode_link(page.evaluate("location.hash").lstrip("#"))
                        enter_every_order(page, shown, years)
                        if shown.phase.kind == "movement":
                            break
                        page.evaluate(CLICK, ["adjudicate", None, None])
                        if page.locator("#adjudicate-anyway").is_visible():  # (builds left unused)
                            page.click("#adjudicate-anyway")
                    page.wait_for_timeout(500)
                    used = renderer_cpu()
                    following = page.evaluate(CLICK, ["adjudicate", None, None])
                    following_cpu = renderer_cpu() - used
                context.close()
                return opened, entries, adjudication, entries_cpu, adjudication_cpu, settling, following, following_cpu

            for years, game in games:
                link = encode_link(game)
                opening, entry, adjudication, entry_cpu, adjudication_cpu = [], [], [], [], []
                following, following_cpu = [], []
                first_entry, first_adjudication, settled_after = [], [], []
                for _ in range(repeat):
                    opened, entries, adjudicated, entries_cpu, adjudicated_cpu, settling, *then = clicks(
                        link, game, years, True
                    )
                    opening.append(opened)
                    entry += entries
                    adjudication.append(adjudicated)
                    entry_cpu += entries_cpu
                    adjudication_cpu.append(adjudicated_cpu)
                    settled_after.append(settling)
                    following.append(then[0])
                    following_cpu.append(then[1])
                    _, entries, adjudicated, *_ = clicks(link, game, years, False)
                    first_entry += entries
                    first_adjudication.append(adjudicated)
                measured = (opening, entry, adjudication, following, entry_cpu, adjudication_cpu, following_cpu)
                measured += (first_entry, first_adjudication, settled_after)
                print(f"{years} game years, link of {len(link)} characters (load average now {load()}):")
                for name, times in zip(columns + first_columns, measured, strict=True):
                    print(f"  {name:<16} {spread(times):>18}   each: " + " ".join(f"{t:.0f}" for t in times))
            browser.close()
    print(f"load average (1, 5, 15 min) after: {load()}")


DECODE = """
import sys, time
import js
sys.path.insert(0, sys.argv[1])
from adjutant.formats.link import decoding

def node_cpu_ms():
    used = js.process.cpuUsage()
    return (used.user + used.system) / 1000

link, times = sys.argv[2], []
for _ in range(int(sys.argv[3])):
    start, used = time.perf_counter(), node_cpu_ms()
    steps = decoding(link)
    next(steps, None)  # (a link that carries its position: that position read and checked)
    first = node_cpu_ms() - used, (time.perf_counter() - start) * 1000
    for _ in steps:
        pass
    times.append(f"{first[0]:.1f}/{first[1]:.1f}/{node_cpu_ms() - used:.1f}/{(time.perf_counter() - start) * 1000:.1f}")
print(" ".join(times))
"""


def in_pyodide(games: list[tuple[int, Any]], repeat: int, engine: Path) -> None:
    """Time each game's link opening in Pyodide under Node, in one fresh interpreter per game."""
    import subprocess

    from adjutant import encode_link

    runner = ROOT / "tests" / "pyodide" / "run_python.mjs"
    mounted = "/repo/" + engine.resolve().relative_to(ROOT).as_posix()
    print(
        f"Link opening in Pyodide under Node, engine from {engine}; ms of CPU / of the wall clock, to the "
        f"decoder's first step (a link that carries its position: that position read) and to the whole game "
        f"replayed: each of {repeat}, then their medians"
    )
    print(f"{'years':>5} {'link chars':>11}  times (first step; whole)")
    for years, game in games:
        link = encode_link(game)
        done = subprocess.run(
            ["node", str(runner), "-c", DECODE, mounted, link, str(repeat)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        times = [tuple(float(t) for t in each.split("/")) for each in done.stdout.split()]
        each = " ".join(f"{t[0]:.0f}/{t[1]:.0f}; {t[2]:.0f}/{t[3]:.0f}" for t in times)
        first_cpu, first_wall, cpu, wall = (statistics.median(t[i] for t in times) for i in range(4))
        print(
            f"{years:>5} {len(link):>11}  {each}  median {first_cpu:.0f}/{first_wall:.0f}; {cpu:.0f}/{wall:.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", default="1,10,30,100", help="game lengths, comma-separated")
    parser.add_argument("--repeat", type=int, help="timings of each action (default 5; with --page 3, the fewest)")
    parser.add_argument("--py", type=Path, default=ROOT / "py", help="the engine's folder (default this py/)")
    parser.add_argument("--page", action="store_true", help="time the actions in the built site in Chromium")
    parser.add_argument("--site", type=Path, help="with --page: a site built beforehand (default: build this one)")
    parser.add_argument("--pyodide", action="store_true", help="time link opening in Pyodide under Node")
    parser.add_argument("--cpu", action="store_true", help="time CPU time, not the wall clock (CPython only)")
    args = parser.parse_args()
    if args.repeat is None:
        args.repeat = 3 if args.page else 5
    if args.page and args.repeat < 3:
        parser.error("--page takes at least 3 repeats: a median of fewer says nothing of the spread")
    if args.cpu:
        global clock
        clock = time.process_time
    sys.path.insert(0, str(args.py.resolve()))
    from adjutant import Game, decode_link, encode_link
    from adjutant.randomgame import random_game, random_orders

    if args.page or args.pyodide:
        played = []
        for years in (int(y) for y in args.years.split(",")):
            *_, last = random_game("cline5", 1, years)
            played.append((years, last))
        if args.page:
            in_page(played, args.repeat, args.site)
        else:
            in_pyodide(played, args.repeat, args.py)
        return

    measure = "CPU ms" if args.cpu else "ms"
    print(f"Cline V, CPython {sys.version.split()[0]}, engine from {args.py}; {measure}, median of {args.repeat}")
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
            encode_link(game)  # (the page made the link when the orders were given)
            adjudication.append(timed(lambda game=game: (game.adjudicate(), encode_link(game))))
            link = encode_link(game)
            opening.append(timed(lambda link=link: decode_link(link)))
        print(
            f"{years:>5} {len(game.history):>7} {len(link):>11}"
            + "".join(f"{statistics.median(times):>14.1f}" for times in (entry, adjudication, opening))
        )


if __name__ == "__main__":
    main()
