"""Keyboard and screen readers: axe-core (pinned in package.json, injected from node_modules: no request
leaves the site) finds no serious or critical violation; units are selected and ordered from the keyboard;
the position is available as text; the file opener shows its focus."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app_driver import Site, adjudicate, arrow_to, focused, new_game, open_app, phase, serious_violations


def test_axe_finds_no_serious_violation(shared_app: tuple[Any, Any], site: Site) -> None:
    page, recorder = shared_app
    assert serious_violations(page, site) == []
    # with a unit selected (its choices shown)
    page.locator('#map .adj-unit[data-location="par"]').click()
    assert serious_violations(page, site) == []
    assert json.dumps(recorder.page_errors) == "[]"


def test_a_unit_is_ordered_from_the_keyboard(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    paris = page.locator('#map .adj-unit[data-location="par"]')
    # the units are one Tab stop (the arrow keys go to the nearest that way: tests/browser/test_order_entry.py)
    assert page.locator('#map .adj-unit.orderable[tabindex="0"]').count() == 1
    assert paris.get_attribute("tabindex") == "-1" and "Paris" in (paris.get_attribute("aria-label") or "")
    paris.focus()
    page.keyboard.press("Enter")
    assert page.locator('#map .adj-unit.selected[data-location="par"]').count() == 1
    # the focus goes to the unit's first highlighted place
    assert page.evaluate("document.activeElement.classList.contains('adj-target')")
    burgundy = page.locator('#map .adj-target[id="bur"]')
    assert burgundy.get_attribute("aria-label") == "Burgundy"
    burgundy.focus()
    page.keyboard.press("Enter")
    assert "FRA: A Par - Bur" in page.inner_text("#order-list")
    assert phase(page) == "S1901M"
    assert recorder.page_errors == []


def test_the_position_as_text_and_the_file_openers_focus(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    page.click("#position-text summary")
    france = page.inner_text('#position-list li[data-power="france"]')
    assert "A Paris" in france and "F Brest" in france and "3 centres" in france
    page.focus("#download")
    page.keyboard.press("Tab")  # to the file input behind "Open file"
    assert page.evaluate("document.activeElement.id") == "upload"
    outline = page.evaluate("getComputedStyle(document.getElementById('upload-label')).outlineStyle")
    assert outline == "solid"
    assert page.get_attribute("#orders-text", "id") == page.evaluate(
        "document.querySelector('label[for=orders-text]').htmlFor")


#: How the Tab order's tests name a control: its id, else its unit's place, else its tag and text.
NAME = """(e) => e.id || (e.dataset.location ? 'unit ' + e.dataset.location
    : e.tagName.toLowerCase() + ' ' + e.textContent.trim().slice(0, 24))"""

#: Each stop of the Tab order: a name, its box on the page (scrolled into view by the focus; the hidden file
#: input shows as its "Open file" label), the part of the page it lies in, and whether it shows its focus
#: (an outline of 2 px or more, or, drawn on the map, the focus colour's stroke).
FOCUS_STOP = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const shown = e.id === 'upload' ? document.getElementById('upload-label') : e;
    const r = shown.getBoundingClientRect();
    const part = ['#map', '.topbar', '.board', '.column'].find(s => e.closest(s)) || 'elsewhere';
    const outline = (x) => {
        const s = getComputedStyle(x);
        return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
    };
    const stroke = (x) => [x, ...x.querySelectorAll('*')].some(y => getComputedStyle(y).stroke === 'rgb(240, 180, 0)');
    return {name: (""" + NAME + """)(e), x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height, part,
            focused: outline(shown) || (e instanceof SVGElement && stroke(e))};
}"""

#: Every control a keyboard user should reach: shown, enabled, in the Tab order.
CONTROLS = """() => Array.from(document.querySelectorAll(
        'a[href], button, select, textarea, input, summary, [tabindex]'))
    .filter(e => !e.disabled && e.tabIndex >= 0 && !e.closest('[hidden], dialog:not([open])')
        && !e.closest('details:not([open]) > :not(summary)')  // (folded away: Tab passes it by)
        && (e.id === 'upload' || e.getClientRects().length > 0)
        && getComputedStyle(e).visibility !== 'hidden')
    .map(""" + NAME + """)"""


def tab_through(page: Any) -> list[dict[str, Any]]:
    """The page's Tab order from its first control (the variant chooser) to its last, as focus stops."""
    page.focus("#variant-select")
    stops = [page.evaluate(FOCUS_STOP)]
    for _ in range(400):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS_STOP)
        if stop is None or stop["name"] == stops[0]["name"]:
            return stops
        stops.append(stop)
    raise AssertionError("Tab never left the page")


def reads_after(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether ``after`` comes after ``before`` in reading order: on a line below, or further along the same
    line (2 px of slack for borders)."""
    below = after["y"] >= before["y"] + before["h"] - 2
    same_line = after["y"] < before["y"] + before["h"] and before["y"] < after["y"] + after["h"]
    return below or (same_line and after["x"] >= before["x"] + before["w"] - 2)


def as_blocks(stops: list[dict[str, Any]], page: Any) -> list[dict[str, Any]]:
    """The stops with the map's own (its units, its highlighted places, in the map's order) taken as one
    block, the map's box, after checking that each lies on the map."""
    board = page.locator("#map").bounding_box()
    scroll = page.evaluate("[scrollX, scrollY]")
    blocks: list[dict[str, Any]] = []
    for stop in stops:
        if stop["part"] != "#map":
            blocks.append(stop)
            continue
        assert board is not None
        if stop["name"] != "map":  # the map's box was measured scrolled as it is now
            assert stop["w"] > 0 and stop["h"] > 0, stop
        if not blocks or blocks[-1]["name"] != "map":
            blocks.append({"name": "map", "x": board["x"] + scroll[0], "y": board["y"] + scroll[1],
                           "w": board["width"], "h": board["height"], "part": "#map", "focused": True})
    return blocks


def prepare_for_tabbing(new_context: Any, site: Site, width: int, height: int) -> Any:
    """A game one adjudication in (the history buttons, the results' key and its sentences shown), with a
    unit ordered, at ``width`` x ``height``."""
    context, recorder = new_context(viewport={"width": width, "height": height})
    page = open_app(context, site.url)
    page.locator('#map .adj-unit[data-location="par"]').dispatch_event("click")
    page.locator('#map [id="bur"]').dispatch_event("click")
    adjudicate(page)
    page.locator('#map .adj-unit[data-location="mar"]').dispatch_event("click")
    page.locator('#map .adj-unit[data-location="mar"]').dispatch_event("click")
    page.click("#results-key summary")
    page.click("#position-text summary")
    return page, recorder


def check_every_control_is_reached_and_shows_its_focus(page: Any, stops: list[dict[str, Any]]) -> None:
    names = [stop["name"] for stop in stops]
    assert sorted(set(page.evaluate(CONTROLS)) - set(names)) == []
    for wanted in ("map", "zoom-in", "order-list", "adjudicate", "hist-prev", "results", "upload"):
        assert wanted in names, wanted
    # the map's units are one Tab stop (the arrow keys go to the nearest that way)
    assert len([name for name in names if name.startswith("unit ")]) == 1, names
    assert [stop["name"] for stop in stops if not stop["focused"] or stop["w"] * stop["h"] == 0] == []


def test_on_a_phone_the_tab_order_reads_down_the_page(new_context: Any, site: Site) -> None:
    """At 390 x 844 (one column) each control the Tab key reaches lies after the one before in reading order,
    below it or beside it on its right, the map's units taken as the map: Tab goes down the page as the eye
    does, through the Orders panel straight after the map, and every control shows its focus."""
    page, recorder = prepare_for_tabbing(new_context, site, 390, 844)
    stops = tab_through(page)
    check_every_control_is_reached_and_shows_its_focus(page, stops)
    blocks = as_blocks(stops, page)
    out_of_order = [(a["name"], b["name"]) for a, b in zip(blocks, blocks[1:], strict=False) if not reads_after(a, b)]
    assert out_of_order == []
    names = [stop["name"] for stop in blocks]
    key = next(index for index, name in enumerate(names) if name.startswith("summary What happened"))
    assert names.index("zoom-in") < names.index("order-list") < names.index("adjudicate") < key
    assert recorder.page_errors == []


def test_on_a_wide_screen_the_tab_order_reads_the_header_the_map_then_the_column_beside_it(
        new_context: Any, site: Site) -> None:
    """At 1366 x 900 Tab goes through the header, then the map and its tools (the left column), then the
    column on the map's right from top to bottom (the Orders panel, the results' key and the position as
    text, the other panels): each part in reading order, and every control shows its focus."""
    page, recorder = prepare_for_tabbing(new_context, site, 1366, 900)
    stops = tab_through(page)
    check_every_control_is_reached_and_shows_its_focus(page, stops)
    blocks = as_blocks(stops, page)
    parts = [block["part"] for block in blocks]
    assert parts == sorted(parts, key=[".topbar", "#map", ".board", ".column"].index)
    for part in (".topbar", ".board", ".column"):
        inside = [block for block in blocks if block["part"] == part or (part == ".board" and block["part"] == "#map")]
        assert [(a["name"], b["name"]) for a, b in zip(inside, inside[1:], strict=False) if not reads_after(a, b)] == []
    board, column = page.locator(".board").bounding_box(), page.locator(".column").bounding_box()
    assert board is not None and column is not None and column["x"] >= board["x"] + board["width"]
    assert abs(column["y"] - board["y"]) < 2  # side by side, from the same top
    assert recorder.page_errors == []


def tab_to(page: Any, selector: str, limit: int = 300) -> None:
    """Press Tab until the focused element matches ``selector`` (CSS), as a keyboard user looks for it."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def adjudicate_by_keyboard(page: Any) -> None:
    """Tab to Adjudicate and press Enter; through the warning (which takes the focus) with Enter. The focus
    ends on Adjudicate, never on the page's body."""
    tab_to(page, "#adjudicate")
    page.keyboard.press("Enter")
    if page.locator("#adjudicate-warning").is_visible():
        assert focused(page) == "adjudicate-anyway"
        page.keyboard.press("Enter")
    assert focused(page) == "adjudicate"


def type_orders(page: Any, text: str) -> None:
    tab_to(page, "#orders-text")
    page.keyboard.type(text)
    tab_to(page, "#orders-apply")
    page.keyboard.press("Enter")


def test_a_game_is_played_saved_and_opened_from_the_keyboard_alone(
        new_context: Any, site: Site, tmp_path: Path) -> None:
    """With Tab, the arrow keys, Enter and typing only: orders typed, a retreat and a build given on the map,
    adjudicating through its warning, stepping through the history to its ends, a new game, the game saved
    and opened as a file. The focus always stays on a control."""
    context, recorder = new_context(viewport={"width": 1366, "height": 900})
    page = open_app(context, site.url)
    # Playwright takes over the file chooser once a page has a listener for it: set up now, not as Enter
    # is pressed (a chooser opened before the takeover is the browser's own, and no event comes)
    page.on("filechooser", lambda _: None)
    page.focus("#variant-select")
    type_orders(page, "Austria: A vie - tyr")
    adjudicate_by_keyboard(page)
    type_orders(page, "Austria: A tyr - ven\nF tri S A tyr - ven")
    adjudicate_by_keyboard(page)
    assert phase(page) == "F1901R"
    # the retreat: the dislodged army, then where it goes
    page.focus("#variant-select")
    tab_to(page, '#map .adj-unit.dislodged[data-location="ven"]')
    page.keyboard.press("Enter")  # the focus goes to the first place it may retreat to
    arrow_to(page, '#map .adj-target[id="pie"]')
    page.keyboard.press("Enter")
    assert "ITA: A Ven R Pie" in page.inner_text("#order-list")
    adjudicate_by_keyboard(page)
    assert phase(page) == "W1901A"
    # the build: the free home centre, then the army among the choices
    page.focus("#variant-select")
    tab_to(page, '#map .adj-target, #map .adj-unit.orderable')
    arrow_to(page, '#map .adj-target[id="vie"]')
    page.keyboard.press("Enter")
    assert "Vienna" in page.inner_text("#click-prompt")
    tab_to(page, "[data-action=build-A]")
    page.keyboard.press("Enter")
    assert "AUS: Build A Vie" in page.inner_text("#order-list")
    # the history: back two phases, then » to the current one (which disables it: the focus moves to ‹)
    page.focus("#variant-select")
    tab_to(page, "#hist-prev")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    assert "(F1901M)" in page.inner_text("#phase-label")
    tab_to(page, "#hist-last")
    page.keyboard.press("Enter")
    assert "(W1901A)" in page.inner_text("#phase-label") and focused(page) == "hist-prev"
    # saved as a file, a new game, then the file opened again
    tab_to(page, "#download")
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    page.focus("#variant-select")
    tab_to(page, "#new-game")
    page.keyboard.press("Enter")
    page.wait_for_selector("html[data-phase='S1901M']", state="attached", timeout=10_000)
    tab_to(page, "#upload")
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(str(saved))
    page.wait_for_selector("html[data-phase='W1901A']", state="attached", timeout=10_000)
    assert "AUS: Build A Vie" in page.inner_text("#order-list")
    assert recorder.page_errors == []


def test_zoomed_in_the_map_follows_the_keyboards_focus(shared_app: tuple[Any, Any]) -> None:
    """With the map zoomed in, each unit the keyboard reaches (Tab to the units, then the arrow keys) is moved
    into the part of the map shown, so its focus ring is seen."""
    page, recorder = shared_app
    page.focus("#map")
    for _ in range(4):
        page.keyboard.press("+")
    assert page.get_attribute("#map", "data-zoom") != "1.00"
    outside = []
    page.keyboard.press("Tab")
    # every unit in turn, each reached by the arrow keys from the one before
    for location in page.eval_on_selector_all("#map .adj-unit.orderable", "es => es.map(e => e.dataset.location)"):
        arrow_to(page, f'#map .adj-unit[data-location="{location}"]')
        inside = page.evaluate("""() => { const e = document.activeElement, m = document.querySelector('#map svg');
            const r = e.getBoundingClientRect(), b = m.getBoundingClientRect();
            return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom; }""")
        if not inside:
            outside.append(page.evaluate("document.activeElement.dataset.location"))
    assert outside == []
    assert recorder.page_errors == []


def test_open_file_is_written_as_the_buttons_beside_it(shared_app: tuple[Any, Any]) -> None:
    page, _ = shared_app
    size = "id => getComputedStyle(document.getElementById(id)).fontSize"
    assert page.evaluate(size, "upload-label") == page.evaluate(size, "download")


def test_the_embed_dialog_and_its_code_have_names(shared_app: tuple[Any, Any], site: Site) -> None:
    """"Embed code" opens a dialog whose code box a screen reader names by what it is for."""
    page, recorder = shared_app
    page.focus("#copy-embed")
    page.keyboard.press("Enter")
    assert page.locator("#embed-dialog[open]").count() == 1
    assert page.evaluate("document.activeElement.id") == "embed-code"
    assert serious_violations(page, site) == []
    names = page.evaluate("""() => [document.getElementById('embed-dialog'), document.getElementById('embed-code')]
        .map(e => { const ids = (e.getAttribute('aria-labelledby') || '').split(' ').filter(Boolean);
                    const by = ids.map(id => document.getElementById(id).textContent.trim()).join(' ');
                    return by || (e.labels && e.labels.length ? e.labels[0].textContent.trim() : ''); })""")
    assert names[0] == "Embed this game" and names[1].startswith("Paste this line"), names
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "copy-embed"
    assert recorder.page_errors == []


def test_a_new_game_puts_the_maps_tab_stop_on_its_first_unit(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    stops = "[...document.querySelectorAll('#map [tabindex=\"0\"]')].map(e => e.dataset.location || e.id)"
    first = page.evaluate(stops)
    assert len(first) == 1
    # the keyboard takes the Tab stop to another unit of the map
    page.locator(f'#map [data-location="{first[0]}"]').focus()
    page.keyboard.press("ArrowRight")
    moved = page.evaluate(stops)
    assert len(moved) == 1 and moved != first
    new_game(page, "standard")
    assert page.evaluate(stops) == first
    assert recorder.page_errors == []
