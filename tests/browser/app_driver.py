"""Helpers the browser tests share (a module of its own: `conftest` is a name other test folders use)."""

from __future__ import annotations

import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjutant.game import Game
from adjutant.group_play import cluster_views
from adjutant_ui.session import game_to_text
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
    """Start a new game of ``variant`` with the header's controls and wait for its units on its map (the
    map of the game replaced may be the same variant's: its units are marked first, and the new game's
    board draws new ones)."""
    page.evaluate("() => document.querySelectorAll('#map .adj-unit').forEach(u => { u.adjutantReplaced = true; })")
    page.select_option("#variant-select", variant)
    page.click("#new-game")
    page.wait_for_selector(f"#map[data-variant='{variant}']", state="attached", timeout=10_000)
    page.wait_for_function(
        "() => { const units = [...document.querySelectorAll('#map .adj-unit')];"
        " return units.length > 0 && !units.some(unit => unit.adjutantReplaced); }",
        timeout=10_000,
    )


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


def links_read(page: Any) -> int:
    """How many links opened later the page has read in this tab, each shown or refused (its root's
    ``data-links-opened``, set once the last one is read)."""
    return int(page.evaluate("() => Number(document.documentElement.dataset.linksOpened || 0)"))


#: whether the page has read a link opened later since it had read ``before`` of them
READ_SINCE = "before => Number(document.documentElement.dataset.linksOpened || 0) > before"


def open_link(page: Any, link: str, variant: str, phase: str) -> None:
    """Open a game's ``link`` in the page as a link opened later (its fragment put in the address bar: the
    page reads it as when a player pastes a link there) and wait until the page has read it and shows its
    game, of ``variant`` at ``phase``."""
    before = links_read(page)
    page.evaluate("h => { location.hash = h; }", link)
    page.wait_for_function(
        f"([variant, phase, before]) => ({READ_SINCE})(before)"
        " && document.getElementById('map').dataset.variant === variant"
        " && document.documentElement.dataset.phase === phase",
        arg=[variant, phase, before], timeout=30_000)


# --- the map and the keyboard ---------------------------------------------------------------------------

def strengths(page: Any) -> dict[str, str]:
    """The strength each Cluster multiple unit on the map is marked with, by its location."""
    marked = page.eval_on_selector_all(
        "#map .adj-unit[data-strength]", "els => els.map(e => [e.dataset.location, e.dataset.strength])"
    )
    return dict(marked)


def tap_map(page: Any, location: str) -> None:
    """A tap on a place of the map: its unit if one is drawn there, else the region."""
    unit = page.locator(f'#map .adj-unit[data-location="{location}"]')
    if unit.count():
        finger_tap(page, unit.first)
    else:
        finger_tap(page, page.locator(f'#map [id="{location}"]'), force=True)


def tab_to(page: Any, target: str, limit: int = 60, key: str = "Tab") -> list[str]:
    """Press Tab (or ``key``: Shift+Tab) until ``target`` (an id) has the focus: the ids focused on the way."""
    seen = []
    for _ in range(limit):
        page.keyboard.press(key)
        focused = str(page.evaluate("document.activeElement.id"))
        seen.append(focused)
        if focused == target:
            return seen
    raise AssertionError(f"Tab never reached #{target}: {seen}")


def assert_focus_visible(page: Any) -> None:
    """The focused element shows its focus: a focus ring at least 2 px wide."""
    style = page.evaluate(
        """(() => { const e = document.activeElement, s = getComputedStyle(e);
             return [e.matches(':focus-visible'), s.outlineStyle, parseFloat(s.outlineWidth)]; })()"""
    )
    assert style[0] and style[1] != "none" and style[2] >= 2, style


#: the overlay's layers in order, each with its drawings (sorted: a kept drawing need not be in the
#: place a fresh drawing puts it), and the supply centres' fills
#: What the board draws. Which unit holds the map's one Tab stop (tabindex 0, the others -1) follows the
#: page's keyboard focus and the power chosen for the orders, not the game: it is left out.
DRAWN = """() => ({
  layers: [...document.querySelectorAll('#adj-overlay > g')].map(layer =>
    [layer.getAttribute('class'),
     [...layer.children].map(e => e.outerHTML.replace(/ tabindex="-?[01]"/g, '')).sort()]),
  centres: [...document.querySelectorAll('#map circle.sc[data-province]')].map(c =>
    c.getAttribute('data-province') + ' ' + c.style.fill + ' ' + c.getAttribute('data-owner')),
  targets: [...document.querySelectorAll('#map .adj-target')].map(e => e.id).sort(),
})"""


def drawn_afresh(context: Any, site: Site, page: Any) -> Any:
    """What a new tab opening ``page``'s game from its link draws."""
    fresh = open_app(context, site.url + str(page.evaluate("location.hash")))
    try:
        return fresh.evaluate(DRAWN)
    finally:
        fresh.close()


#: the point halfway along a named coast's line on the map, in the page's coordinates
COAST_LINE_MIDDLE = """coast => { const line = document.querySelector(`#map [id="${coast}"] .coast-line`);
  const p = line.getPointAtLength(line.getTotalLength() / 2), m = line.getScreenCTM();
  return [p.x * m.a + p.y * m.c + m.e, p.x * m.b + p.y * m.d + m.f]; }"""

#: what :func:`focused_element` reads of the focused element
FOCUSED = """(() => { const e = document.activeElement;
  return {location: e.getAttribute('data-location') || (e.closest('#map') ? e.id : ''), id: e.id,
          label: e.getAttribute('aria-label') || e.textContent.trim(), action: e.dataset ? e.dataset.action : null,
          place: e.classList.contains('adj-target'), unit: e.classList.contains('adj-unit')}; })()"""


def focused_element(page: Any) -> dict[str, Any]:
    """What has the focus: its map location, id, label, action and whether it is a map place or a unit
    (:func:`focused` gives its id alone)."""
    return dict(page.evaluate(FOCUSED))


#: the focused element's map point and the point of the one ``selector`` (an argument) matches: each is
#: the anchor (``data-unit``, map coordinates) of its location, as the page's arrow keys use it
ANCHOR_OF = """const anchorOf = loc => { const p = document.querySelector(`#map [id="${loc}"][data-unit]`)
    || document.querySelector(`#map [id="${loc.split('/')[0]}"][data-unit]`);
  return p ? p.getAttribute('data-unit').split(',').map(Number) : null; };"""
STEERING = """s => { """ + ANCHOR_OF + """
  const at = e => e ? anchorOf(e.getAttribute('data-location') || e.id) : null;
  const f = document.activeElement;
  return {at: f.matches(s), key: f.getAttribute('data-location') || f.id, here: at(f),
          there: at(document.querySelector(s))}; }"""
ARROWS = ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp")


def arrow_to(page: Any, selector: str, limit: int = 40) -> int:
    """Press arrow keys, each towards the map's button ``selector`` (CSS) matches, as a keyboard user heads
    for a place on a map, until it has the focus; how many presses. From each button the keys are tried
    nearest the target's bearing first and none twice, so a detour round a gap is found and a dead end ends."""
    tried: set[tuple[str, str]] = set()
    for count in range(limit + 1):
        state = page.evaluate(STEERING, selector)
        if state["at"]:
            return count
        assert state["here"] and state["there"], f"{selector} or the focus is not on the map: {focused_element(page)}"
        dx, dy = (state["there"][i] - state["here"][i] for i in (0, 1))
        across = "ArrowRight" if dx > 0 else "ArrowLeft"
        down = "ArrowDown" if dy > 0 else "ArrowUp"
        keys = [across, down] if abs(dx) >= abs(dy) else [down, across]
        key = next((k for k in [*keys, *ARROWS] if (state["key"], k) not in tried), None)
        if key is None:
            break
        tried.add((state["key"], key))
        page.keyboard.press(key)
    raise AssertionError(f"the arrow keys never reached {selector} (at {focused_element(page)})")


def unit_at(location: str) -> str:
    return f'#map .adj-unit[data-location="{location}"]'


def place_at(location: str) -> str:
    return f'#map .adj-target[id="{location}"]'


def shows_on_top(page: Any, selector: str) -> bool:
    """Whether what is on screen at the centre of ``selector``'s first match belongs to it: no unit or other
    symbol is drawn over it (the map scrolled to it first)."""
    return bool(page.locator(selector).first.evaluate("""e => {
        e.scrollIntoView({block: 'center', inline: 'center'});
        const r = e.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return top !== null && e.contains(top); }"""))


# --- phones and accessibility --------------------------------------------------------------------------

#: a phone's screen, in CSS px
PHONE_WIDTH, PHONE_HEIGHT = 390, 844
#: a phone's browser (the options of a browser context): 390 x 844 CSS px, touch, the clipboard allowed
PHONE = {
    "viewport": {"width": PHONE_WIDTH, "height": PHONE_HEIGHT},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
    "permissions": ["clipboard-read", "clipboard-write"],
}


def in_viewport(page: Any, selector: str) -> bool:
    """Whether the whole of the element is on screen, horizontally and vertically (to within a pixel: a
    scroll position is whole pixels, an element's place may not be)."""
    script = """e => { const r = e.getBoundingClientRect();
      return r.top >= -1 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth && r.height > 0; }"""
    return bool(page.eval_on_selector(selector, script))


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Any, site: Site) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now. The script is served from the
    site's own folder (the page's Content Security Policy allows no inline script, rightly)."""
    served = site.root / "test-axe.min.js"
    if not served.exists():
        shutil.copyfile(AXE, served)
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(url=site.url.rstrip("/") + "/test-axe.min.js")
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ': ' + v.help + ' ' + JSON.stringify(v.nodes.slice(0, 3).map(n => n.target)));
    }""")
    return [str(line) for line in found]


def box(page: Any, selector: str) -> dict[str, float]:
    """The box of the element ``selector`` matches, which must be shown."""
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def on_screen(page: Any, selectors: tuple[str, ...]) -> None:
    """Each of ``selectors`` lies wholly within the screen, as it is now (not scrolled to), to within a pixel
    (a box scrolled to the screen's top may lie a fraction of one above it)."""
    for selector in selectors:
        shown = box(page, selector)
        off = f"{selector} is off the screen: {shown}"
        assert shown["y"] >= -1 and shown["y"] + shown["height"] <= PHONE_HEIGHT + 1, off
        assert shown["x"] >= -1 and shown["x"] + shown["width"] <= PHONE_WIDTH + 1, off


def small_controls(page: Any) -> list[str]:
    """The visible controls less than 24 CSS px either way, each with its size."""
    return [str(s) for s in page.evaluate("""() => Array.from(
        document.querySelectorAll('button, select, input, .button, summary, #results-summary li[tabindex]'))
        .filter(e => e.offsetParent !== null && !e.classList.contains('visually-hidden'))
        .map(e => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && (r.width < 24 || r.height < 24))
        .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")]


# --- Cluster games made by the engine, opened in the page ----------------------------------------------

def france_knowing(level: int, munich_site: bool = False) -> Game:
    """A Cluster game, fall 1901: France's A Par, its triple unit, researched the level ``level`` site it
    stands on in spring, so France knows Transfer (level 2) or Mattermission (level 3) and has found that
    site (the first seed whose sites put one of that level in Paris, and with ``munich_site`` one in
    Munich too)."""
    def fits(game: Game) -> bool:
        sites = game.position.variant_state.sites
        return bool(sites.get("par") == level and (not munich_site or "mun" in sites))

    game = next(g for g in map(cluster_views.new_game, range(1000)) if fits(g))
    assert game.add_orders("France: Nominate 3 par\nNominate 2 mar\nA par RES") == []
    game.adjudicate()
    assert game.position.variant_state.knowledge == {"france": ("transfer",) if level == 2 else ("mattermission",)}
    return game


def open_game(page: Any, game: Game, tmp_path: Any) -> None:
    """Open ``game`` from a file as its game master (not sealed yet: it can be ordered)."""
    path = tmp_path / "cluster-game.json"
    path.write_text(game_to_text(game), encoding="utf-8")
    page.set_input_files("#upload", str(path))
    page.wait_for_selector("#passphrase-dialog[open]", timeout=10_000)
    page.click("#passphrase-cancel")
    # the file's game on the map: its phase and its units' places (a Cluster game shown before is not it)
    page.wait_for_function(
        """([phase, places]) => document.documentElement.dataset.phase === phase
             && document.querySelector("#map[data-variant='cluster']") !== null
             && JSON.stringify([...document.querySelectorAll('#map .adj-unit')]
                  .map(u => u.dataset.location.split('/')[0]).sort()) === JSON.stringify(places)""",
        arg=[str(game.phase), sorted(game.units)], timeout=10_000)
