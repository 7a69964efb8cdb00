"""Start-up of the built site in headless Chromium on 127.0.0.1, next to a bare Pyodide page.

    .venv/bin/python benchmarks/startup.py [--runs N] [--game-link FRAGMENT]

Builds the site into a temporary folder, adds a page that does nothing but `loadPyodide()` from the same
runtime files, serves both with a plain file server, and prints, for each page, cold (a fresh browser
profile: empty HTTP cache) and warm (a reload in the same profile) start-up:
- map visible: the board's SVG is in the page (Adjutant only);
- position visible: the units are drawn (Adjutant only): from the snapshot of the autosaved game that
  the shell paints before Python is ready, or by Python. The cold run opens a fresh profile (no
  autosave: a new game, drawn by Python); the warm run reloads it, and the new game is autosaved;
- Python ready: Adjutant can take orders / the bare page's loadPyodide() has resolved.
Times are milliseconds from navigation start (performance.now() in the page), medians over the runs.
Targets (issue 6): ready within 1.15x of bare Pyodide; map visible within 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from chromium import CHROMIUM  # noqa: E402 - tests/ is on the path only now
from chromium import CHROMIUM_FLAGS as FLAGS  # noqa: E402

import build  # noqa: E402 - the repository root is on the path only now

BARE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>bare Pyodide</title></head>
<body><script type="module">
import { loadPyodide } from "./runtime/pyodide/pyodide.mjs";
const pyodide = await loadPyodide();
pyodide.runPython("1 + 1");
window.bareReady = performance.now();
document.documentElement.dataset.pythonReady = "true";
</script></body></html>
"""


def measure(page: Any, url: str, app: bool, reload: bool) -> tuple[float | None, float | None, float]:
    if reload:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector("html[data-python-ready]", state="attached", timeout=120_000)
    if app:
        marks = page.evaluate("window.adjutantShell.marks")
        return float(marks["mapVisible"]), float(marks["positionVisible"]), float(marks["pythonReady"])
    return None, None, float(page.evaluate("window.bareReady"))


def run(runs: int, fragment: str) -> dict[str, dict[str, list[float]]]:
    from playwright.sync_api import sync_playwright

    results: dict[str, dict[str, list[float]]] = {}

    def record(key: str, name: str, value: float | None) -> None:
        if value is not None:
            results.setdefault(key, {}).setdefault(name, []).append(value)

    with tempfile.TemporaryDirectory() as folder:
        dist = build.build(Path(folder) / "dist")
        (dist / "bare-pyodide.html").write_text(BARE_PAGE, encoding="utf-8")
        with build.serving(dist) as base, sync_playwright() as playwright:
            pages = {"bare Pyodide": (base + "bare-pyodide.html", False), "Adjutant": (base + fragment, True)}
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for _ in range(runs):
                # Alternate the order so that neither page always runs on a warmer machine.
                for name, (url, app) in pages.items() if _ % 2 == 0 else reversed(pages.items()):
                    context = browser.new_context(viewport={"width": 1280, "height": 800})
                    page = context.new_page()
                    for kind, reload in (("cold", False), ("warm", True)):
                        mapped, placed, ready = measure(page, url, app, reload)
                        record(f"{name} {kind}", "map visible", mapped)
                        record(f"{name} {kind}", "position visible", placed)
                        record(f"{name} {kind}", "Python ready", ready)
                    context.close()
            browser.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each page (default 5)")
    parser.add_argument("--game-link", default="", help="a fragment (#...) to open Adjutant at")
    args = parser.parse_args()
    results = run(args.runs, args.game_link)
    print(f"Start-up in headless Chromium, 127.0.0.1, median of {args.runs} runs (ms from navigation start)")
    columns = ("map visible", "position visible", "Python ready")
    print(f"{'page':<22}" + "".join(f"{name:>18}" for name in columns))
    for key in ("bare Pyodide cold", "Adjutant cold", "bare Pyodide warm", "Adjutant warm"):
        row = results.get(key, {})
        cells = [f"{statistics.median(row[n]):.0f}" if n in row else "-" for n in columns]
        print(f"{key:<22}" + "".join(f"{cell:>18}" for cell in cells))
    for kind in ("cold", "warm"):
        bare = statistics.median(results[f"bare Pyodide {kind}"]["Python ready"])
        ours = statistics.median(results[f"Adjutant {kind}"]["Python ready"])
        print(f"{kind}: Adjutant ready / bare Pyodide ready = {ours / bare:.2f} (target <= 1.15)")


if __name__ == "__main__":
    main()
