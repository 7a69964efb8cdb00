"""Where one click's time goes in the page, from Chromium's own trace: the renderer main thread's events
during an order's entry and an adjudication, with the CPU each took.

    .venv/bin/python benchmarks/click_trace.py [--years 1,100] [--site FOLDER] [--least 0.3]

Opens the seeded Cline V game of `page_actions.py --page` (each number of game years) from its link in the
built site (`--site`, or this checkout built now), waits until the page has settled, then enters three
orders as text (the third traced) and adjudicates once every unit has an order (traced). For each traced
click it prints the tree of the main thread's trace events (`devtools.timeline`) from the click to the next
frame and after it (the idle save), each with its thread time (`tdur`: the CPU it ran, which the machine's
load does not inflate) and its wall time, leaving out events under ``--least`` ms of CPU: the click's
handler (`EventDispatch`, the page's Python), PyScript's mutation observer (`RunMicrotasks`), the frame's
style (`UpdateLayoutTree`), `Layout`, `PrePaint`, `Paint`, `Layerize`, `Commit`, and the autosave
(`FireIdleCallback`). Figures in docs/performance.md ("Page actions: click to next frame").
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from page_actions import CLICK, SETTLED  # noqa: E402  (after the path is set)

CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute"


def tree(events: list[dict[str, Any]], least: float) -> list[str]:
    """The renderer main thread's complete events, nested by time, as indented lines (CPU, wall, name)."""
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    spans = sorted((e for e in events if (e["pid"], e["tid"]) in main and e.get("ph") == "X" and "dur" in e),
                   key=lambda e: (e["ts"], -e["dur"]))
    stack: list[dict[str, Any]] = []
    lines = []
    for e in spans:
        while stack and e["ts"] >= stack[-1]["ts"] + stack[-1]["dur"]:
            stack.pop()
        depth = len(stack)
        stack.append(e)
        if e.get("tdur", 0) / 1000 >= least:
            data = e.get("args", {}).get("data", {})
            kind = f" {data['type']}" if isinstance(data, dict) and "type" in data else ""
            lines.append(f"{'  ' * depth}{e['tdur'] / 1000:7.2f} CPU {e['dur'] / 1000:7.2f} wall  {e['name']}{kind}")
    return lines


def traced(page: Any, cdp: Any, click: list[Any]) -> tuple[float, list[dict[str, Any]]]:
    """The ``click`` (page_actions.CLICK's arguments) timed to the next frame, and the trace events taken
    while it ran and for a second after it (the idle save)."""
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda message: events.extend(message["value"]))
    cdp.on("Tracing.tracingComplete", lambda _: done.append(True))
    cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
    result = float(page.evaluate(CLICK, click))
    page.wait_for_timeout(1000)
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(50)
    return result, events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", default="1,100", help="game lengths, comma-separated")
    parser.add_argument("--site", type=Path, help="a site built beforehand (default: build this one)")
    parser.add_argument("--least", type=float, default=0.3, help="leave out events under this many ms of CPU")
    args = parser.parse_args()
    from adjutant import encode_link
    from adjutant.adjudication.orders import Hold, format_order, order_power
    from adjutant.randomgame import random_game, random_orders
    from chromium import CHROMIUM, CHROMIUM_FLAGS
    from machine import load, machine
    from playwright.sync_api import sync_playwright

    import build

    print(f"machine: {machine(CHROMIUM)}; load average before: {load()}")
    with tempfile.TemporaryDirectory() as folder:
        dist = args.site or build.build(Path(folder) / "dist")
        with build.serving(dist) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            for years in (int(y) for y in args.years.split(",")):
                *_, game = random_game("cline5", 1, years)
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.goto(base + "#" + encode_link(game))
                page.wait_for_selector("html[data-python-ready]", state="attached", timeout=300_000)
                page.wait_for_function(SETTLED, timeout=300_000, polling=100)
                page.wait_for_timeout(500)
                cdp = context.new_cdp_session(page)
                units = sorted(game.units)[:3]
                for n, place in enumerate(units):
                    unit = game.units[place]
                    click = ["orders-apply", unit.power, format_order(Hold(unit))]
                    if n < len(units) - 1:
                        page.evaluate(CLICK, click)
                        continue
                    wall, events = traced(page, cdp, click)
                    print(f"\n{years} game years, order entry: {wall:.1f} ms to the next frame")
                    print("\n".join(tree(events, args.least)))
                by_power: dict[str, list[str]] = {}
                for order in random_orders(game, random.Random(years)):
                    by_power.setdefault(order_power(order), []).append(format_order(order))
                for power, lines in by_power.items():
                    page.evaluate(CLICK, ["orders-apply", power, "\n".join(lines)])
                page.wait_for_timeout(500)
                wall, events = traced(page, cdp, ["adjudicate", None, None])
                print(f"\n{years} game years, adjudication: {wall:.1f} ms to the next frame")
                print("\n".join(tree(events, args.least)))
                context.close()
            browser.close()
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
