"""What a tap on the map costs while a position is set up in the page (py/adjutant_ui/setup.py).

    .venv/bin/python benchmarks/setup_taps.py [--site FOLDER] [--repeat 4]

Serves a built site (``build.py --out FOLDER``; default ``dist/``) to headless Chromium (/usr/bin/chromium),
presses "Set up a position" for Loeb9 and for Cluster (the game master's, with its strengths and sites),
and times taps on three sea provinces with the tool "puts a unit there" (each tap puts an army that the
rules refuse at sea, or a fleet: the note, the text, the problems and the map drawn again), from the
click event to the end of its handler (the page's Python), --repeat rounds of six taps. Prints the median
and the slowest, in milliseconds. Figures in docs/performance.md ("Setting up a position").
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from build import serving  # noqa: E402

TAP = """p => { const e = document.querySelector(`#map [id="${p}"]`); const t0 = performance.now();
  e.dispatchEvent(new MouseEvent('click', {bubbles: true, detail: 1})); return performance.now() - t0; }"""
ADD_VARIANT = """v => { const s = document.getElementById('variant-select');
  if (![...s.options].some(o => o.value === v)) s.add(new Option(v, v)); s.value = v; }"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "dist", help="a built site (build.py --out FOLDER)")
    parser.add_argument("--repeat", type=int, default=4)
    args = parser.parse_args()
    with serving(args.site) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.wait_for_selector("html[data-python-ready]", state="attached", timeout=90_000)
        print(f"{'variant':10} {'taps':>5} {'median ms':>10} {'slowest ms':>11}")
        for variant in ("loeb9", "cluster"):
            page.evaluate(ADD_VARIANT, variant)
            page.click("#setup-new")
            page.wait_for_function(f"() => document.documentElement.dataset.settingUp === '{variant}'")
            page.evaluate(TAP, "nth")  # (the first tap's note and choices are made once)
            times = []
            for _ in range(args.repeat):
                for province in ("nth", "nwg", "bar"):
                    for kind in ("#setup-army", "#setup-fleet"):
                        page.check(kind)
                        times.append(page.evaluate(TAP, province))
            print(f"{variant:10} {len(times):5} {statistics.median(times):10.1f} {max(times):11.1f}")
        browser.close()


if __name__ == "__main__":
    main()
