"""Helpers the browser tests share (a module of its own: `conftest` is a name other test folders use)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browser_warnings import RendererCrashed

# Cold start is 4-5 s here; a loaded CI machine may be several times slower.
PYTHON_READY_TIMEOUT_MS = 90_000


@dataclass
class Site:
    """The built site: its folder, and the URL it is served at on 127.0.0.1."""

    root: Path
    url: str


class Openings:
    """How many times this process's tests loaded a page of the site (the app, an embedding page, a reload):
    what a browser test costs most (docs/performance.md, "Tests and CI time"). `count_loads` counts a
    page's loads; the run's summary adds up each test's share (tests/browser/conftest.py)."""

    count = 0

    @classmethod
    def count_loads(cls, page: Any) -> Any:
        """Count every load of a document of the site in ``page`` from now on (a document the page
        loads again, a reload or Back to another document included; a changed fragment loads none)."""
        page.on("load", _counted)
        return page


def _counted(page: Any) -> None:
    url = str(page.url)
    if not url.startswith("about:") and (url.split("#")[0].split("?")[0].endswith(("/", ".html"))):
        Openings.count += 1



class CrashWatch:
    """A page's "crash" listener (Playwright takes a Python callable, not a built-in method such as
    list.append)."""

    def __init__(self) -> None:
        self.crashed = False

    def __call__(self, _page: Any) -> None:
        self.crashed = True


def open_app(context: Any, url: str) -> Any:
    """Open a page at `url` and wait until Python is ready (orders can be entered)."""
    return _ready(context, url, None)


def reopen_app(page: Any, url: str) -> Any:
    """Take an open page to `url` (through about:blank, so that the page loads again even when only the
    fragment changes) and wait until Python is ready; the page to go on with (a new one in the same
    context if the renderer crashed)."""
    page.goto("about:blank")
    return _ready(page.context, url, page)


def _ready(context: Any, url: str, page: Any | None) -> Any:
    """Load `url` in `page` (or a new page) and wait until Python is ready.

    If the renderer crashes before Python is ready, which is before the test has done anything more in the
    page, the app is opened again, once, in a new page of the same context; a second crash fails the test."""
    from playwright.sync_api import Error as PlaywrightError

    for attempt in (1, 2):
        if page is None:
            page = context.new_page()
        watch = CrashWatch()
        page.on("crash", watch)
        try:
            page.goto(url)
            page.wait_for_selector("html[data-python-ready]", state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
        except PlaywrightError as error:
            # (the "crash" event may come after the error it causes: "Page crashed" says it too)
            crashed = watch.crashed or "Page crashed" in str(error)
            if not crashed or attempt == 2:
                raise
            warnings.warn(
                RendererCrashed(f"Chromium's renderer crashed while opening {url[:80]}; opened again"), stacklevel=3
            )
            page.close()
            page = None
            continue
        page.remove_listener("crash", watch)
        return page
    raise AssertionError("unreachable")


def new_game(page: Any, variant: str) -> None:
    """Start a new game of ``variant`` with the header's controls and wait for its map."""
    page.select_option("#variant-select", variant)
    page.click("#new-game")
    page.wait_for_selector(f"#map[data-variant='{variant}']", state="attached", timeout=10_000)


def open_new_cluster_dialog(page: Any) -> None:
    """New game -> Cluster, up to its passphrase dialog (a draft variant is not offered in the list: this
    offers it)."""
    page.evaluate(
        """() => { const select = document.getElementById('variant-select');
          if (![...select.options].some(o => o.value === 'cluster')) select.add(new Option('Cluster', 'cluster')); }"""
    )
    page.select_option("#variant-select", "cluster")
    page.click("#new-game")
    page.wait_for_selector("#passphrase-dialog[open]", timeout=5_000)


def new_cluster_game(page: Any) -> None:
    """A new Cluster game with generated passphrases, as its game master, once its sealed link is made."""
    open_new_cluster_dialog(page)
    page.click("#passphrase-generate")
    page.click("#passphrase-ok")
    page.wait_for_function("() => location.hash.startsWith('#cluster.s=')", timeout=30_000)


def adjudicate(page: Any, tap: bool = False) -> None:
    """Press "Adjudicate" (clicked, or tapped on a touch screen) and, if the page warns that something has
    no order, go on anyway."""
    press = (lambda selector: page.locator(selector).tap()) if tap else page.click
    press("#adjudicate")
    if page.locator("#adjudicate-warning").is_visible():
        press("#adjudicate-anyway")


def autosaved(page: Any) -> str:
    """The autosave once it holds the game in the address bar (the page writes it when the browser is
    idle after a change, not during the click)."""
    page.wait_for_function("() => localStorage.getItem('adjutant.autosave') === location.hash.slice(1)", timeout=10_000)
    return str(page.evaluate("localStorage.getItem('adjutant.autosave')"))


def inside_unit_box(page: Any, mark: str, location: str) -> bool:
    """Whether the element ``mark`` (a selector under #map) is drawn inside the box the map keeps clear
    for the unit at ``location`` (adjutant.pictures.pieces.UNIT_HALF around the unit's centre), so it hides no name."""
    from adjutant.pictures import pieces

    unit = page.locator(f'#map .adj-unit[data-location="{location}"] .adj-unit-body').evaluate(
        "e => { const b = e.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; }")
    box = page.locator(f"#map {mark}").evaluate("e => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; }")
    (cx, cy), (hx, hy) = unit, pieces.UNIT_HALF
    x, y, w, h = box
    return bool(cx - hx <= x and x + w <= cx + hx and cy - hy <= y and y + h <= cy + hy)


def finger_tap(page: Any, element: Any, force: bool = False) -> None:
    """Taps a part of the map as a finger does: where it and the province it acts on are both drawn under
    24 px, it takes taps that zoom in to it first (the whole map is shown again first if the part is outside
    what is shown)."""
    if not page.evaluate("""e => { const r = e.getBoundingClientRect(), m = e.ownerSVGElement.getBoundingClientRect();
        return r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom; }""",
                         element.element_handle()):
        page.locator("#zoom-reset").tap()
    for _ in range(4):
        if page.evaluate(FINGER_SIDE, element.element_handle()) >= 24:
            break
        element.tap(force=force)
    element.tap(force=force)


#: The larger short side, in CSS px, of a map part and of the province it is in.
FINGER_SIDE = """e => {
    const side = x => { const r = x && x.getBoundingClientRect(); return r ? Math.min(r.width, r.height) : 0; };
    const place = (e.getAttribute("data-location") || e.getAttribute("data-province") || e.id).split("/")[0];
    return Math.max(side(e), side(e.ownerSVGElement.getElementById(place)));
}"""


# --- reading and clicking the page -----------------------------------------------------------------


def click_map(page: Any, location: str) -> None:
    """Click a place on the map as a player does: its unit if one is drawn there, else the region."""
    unit = page.locator(f'#map .adj-unit[data-location="{location}"]')
    if unit.count():
        unit.first.click()
    else:
        page.locator(f'#map [id="{location}"]').click(force=True)


def enter_text(page: Any, text: str, power: str = "") -> None:
    page.select_option("#orders-power", power)
    page.fill("#orders-text", text)
    page.click("#orders-apply")


def phase(page: Any) -> str:
    return str(page.evaluate("document.documentElement.dataset.phase"))


def units(page: Any) -> list[str]:
    return sorted(
        page.eval_on_selector_all(
            "#map .adj-unit", "els => els.map(e => e.dataset.power + ' ' + e.dataset.type + ' ' + e.dataset.location)"
        )
    )


def order_list(page: Any) -> str:
    """The orders given, as the order list shows them."""
    return str(page.inner_text("#order-list"))


def focused(page: Any) -> str:
    """The id of the element that has the focus (its tag where it has none)."""
    return str(page.evaluate("document.activeElement.id || document.activeElement.tagName"))


def open_link(page: Any, link: str, variant: str, phase: str) -> None:
    """Open a game's ``link`` in the page as a link opened later (its fragment put in the address bar: the
    page reads it as when a player pastes a link there) and wait until its game, of ``variant`` at
    ``phase``, is shown."""
    page.evaluate("h => { location.hash = h; }", link)
    page.wait_for_function(
        "([variant, phase]) => document.getElementById('map').dataset.variant === variant"
        " && document.documentElement.dataset.phase === phase",
        arg=[variant, phase], timeout=30_000)
