"""What a picture of the board costs: drawing a position (adjutant.pictures.scene and adjutant.pictures.drawing) in
CPython and in Pyodide under Node, and making the PNG in the page.

    .venv/bin/python benchmarks/pictures.py [--repeat 20] [--maps dist/maps]
    .venv/bin/python benchmarks/pictures.py --pyodide [--repeat 20] [--maps dist/maps]
    .venv/bin/python benchmarks/pictures.py --page [--repeat 3] [--site dist]

For each variant, a seeded game of random legal orders is played for two game years, and its last
position with the results that made it is drawn: "scene" works out what it shows, "overlay" draws it as
SVG text (what the page's board builds its elements from, and its shell paints), "picture" makes the
whole file (the map, the overlay, the title, the key and the results written below). Milliseconds, medians
of --repeat, over the built maps (--maps: a built site's maps folder; `python build.py` writes dist/maps).

--pyodide times the same in Pyodide under Node (tests/pyodide/run_python.mjs, which mounts this
repository at /repo: the maps folder must be inside it), in one interpreter.

--page opens the built site (--site, built beforehand) in headless Chromium, plays Spring 1901 of Standard
with a bounce, steps back to the phase with its results, and times "Download the board" from the click
to the file (Python draws the picture, the browser rasterises it) for a PNG 1600 and 3200 pixels wide,
and the rasterising alone (adjutantPage.rasterise of the picture's SVG).
Figures in docs/performance.md ("Pictures of the board").
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

from adjutant import Game  # noqa: E402
from adjutant.map.variant import available_variants  # noqa: E402
from adjutant.randomgame import random_game  # noqa: E402


def played(variant: str) -> Game:
    game = Game.new(variant, seed=7)
    for game in random_game(variant, seed=7, years=2):  # noqa: B007 - the last one is kept
        pass
    return game


def median_ms(action: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def in_cpython(maps: Path, repeat: int) -> None:
    from adjutant.cli import board_picture
    from adjutant.pictures.drawing import Drawing, MapPoints, to_svg
    from adjutant.pictures.scene import scene

    print(f"CPython {sys.version.split()[0]}, ms, median of {repeat}")
    print(f"{'variant':>14} {'elements':>9} {'scene':>8} {'overlay':>8} {'picture':>8} {'kB':>6}")
    for variant, _ in available_variants():
        game = played(variant)
        map_svg = (maps / f"{variant}.svg").read_text(encoding="utf-8")
        drawing = Drawing(game.variant, MapPoints.from_svg(map_svg))
        drawn = scene(game)
        overlay = drawing.overlay(drawn)
        count = sum(1 for _ in overlay.iter())
        t_scene = median_ms(lambda: scene(game), repeat)  # noqa: B023 - called at once
        t_overlay = median_ms(lambda: to_svg(drawing.overlay(drawn)), repeat)  # noqa: B023
        picture = board_picture(game, map_svg)
        t_picture = median_ms(lambda: board_picture(game, map_svg), repeat)  # noqa: B023
        print(f"{variant:>14} {count:>9} {t_scene:>8.1f} {t_overlay:>8.1f} {t_picture:>8.1f} "
              f"{len(picture) / 1000:>6.0f}")


PYODIDE = """
import statistics, sys, time
sys.path.insert(0, "/repo/py")
from adjutant import Game
from adjutant.pictures.drawing import Drawing, MapPoints, to_svg
from adjutant.randomgame import random_game
from adjutant.pictures.scene import scene

variant, maps, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
for game in random_game(variant, seed=7, years=2):
    pass
map_svg = open(f"{maps}/{variant}.svg", encoding="utf-8").read()
drawing = Drawing(game.variant, MapPoints.from_svg(map_svg))
drawn = scene(game)
def ms(action):
    times = []
    for _ in range(repeat):
        start = time.perf_counter(); action(); times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
print(f"{ms(lambda: scene(game)):.1f} {ms(lambda: to_svg(drawing.overlay(drawn))):.1f}")
"""


def in_pyodide(maps: Path, repeat: int) -> None:
    runner = ROOT / "tests" / "pyodide" / "run_python.mjs"
    mounted = "/repo/" + maps.resolve().relative_to(ROOT).as_posix()
    print(f"Pyodide under Node, ms, median of {repeat}")
    print(f"{'variant':>14} {'scene':>8} {'overlay':>8}")
    for variant, _ in available_variants():
        done = subprocess.run(["node", str(runner), "-c", PYODIDE, variant, mounted, str(repeat)], cwd=ROOT,
                              capture_output=True, text=True, check=True)
        t_scene, t_overlay = done.stdout.split()[-2:]
        print(f"{variant:>14} {float(t_scene):>8.1f} {float(t_overlay):>8.1f}")


def in_page(site: Path, repeat: int) -> None:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    from chromium import CHROMIUM, CHROMIUM_FLAGS

    import build

    print(f"In the page (headless Chromium), ms, median of {repeat}")
    rows: dict[str, list[float]] = {}
    with build.serving(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        for _ in range(repeat):
            context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True,
                                          service_workers="block")
            page = context.new_page()
            page.goto(base)
            page.wait_for_selector("html[data-python-ready]", state="attached", timeout=120_000)
            page.select_option("#orders-power", "")
            page.fill("#orders-text", "France: A par - bur; A mar S A par - bur\nGermany: A mun - bur")
            page.click("#orders-apply")
            page.click("#adjudicate")
            if page.locator("#adjudicate-warning").is_visible():
                page.click("#adjudicate-anyway")
            for choice in ("png-1600", "png-3200", "svg"):
                page.click("#picture-open")
                page.check(f'input[name="picture-format"][value="{choice}"]')
                page.evaluate("delete document.documentElement.dataset.pictureMade")
                start = time.perf_counter()
                with page.expect_download() as made:
                    page.click("#picture-download")
                rows.setdefault(f"download {choice}", []).append((time.perf_counter() - start) * 1000)
                path = Path(made.value.path())
                page.keyboard.press("Escape")
            svg = path.read_text(encoding="utf-8")
            for width in (1600, 3200):
                took = page.evaluate("""async ([text, width]) => { const start = performance.now();
                    await window.adjutantPage.rasterise(text, width); return performance.now() - start; }""",
                                     [svg, width])
                rows.setdefault(f"rasterise {width} px", []).append(float(took))
            context.close()
        browser.close()
    for name, times in rows.items():
        print(f"{name:>22} {statistics.median(times):>8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--maps", type=Path, default=ROOT / "dist" / "maps")
    parser.add_argument("--pyodide", action="store_true")
    parser.add_argument("--page", action="store_true")
    parser.add_argument("--site", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    if args.page:
        in_page(args.site, args.repeat)
    elif args.pyodide:
        in_pyodide(args.maps, args.repeat)
    else:
        in_cpython(args.maps, args.repeat)


if __name__ == "__main__":
    main()
