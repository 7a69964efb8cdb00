"""The keys of the map explain the marks only some variants draw: Coast-Running's protect shield, Cluster's
order letters (R, T, M) with the research ring, the strengths and the Sites of the Ancients.

Each item of a key that explains such a mark (its ``data-marks``) is shown exactly when the map draws
the mark, and its drawing is made of the same classes as the mark on the map; a Standard game lists none
of them. The keys are text a screen reader gets, and fit a phone's width.
"""

from __future__ import annotations

from typing import Any

from app_driver import (
    Site,
    adjudicate,
    enter_text,
    france_knowing,
    new_cluster_game,
    new_game,
    open_app,
    open_game,
    phase,
    serious_violations,
)

#: the line or ring each order mark's key draws beside its letter or shield, as the board draws the order
ORDER_LINES = {"protect": ".adj-line.dotted", "research": ".adj-ring.dashed", "transfer": ".adj-line.double",
               "mattermit": ".adj-line.dashed.long"}


def shown_keys(page: Any) -> list[str]:
    """The items of the keys with ``data-marks`` that are shown, after checking that each is shown exactly
    when the map draws its mark, and that its drawing has the classes of the mark's drawing on the map."""
    checked = page.evaluate("""lines => {
        const shown = [], wrong = [];
        // (the key's own ink-* classes give its drawings a neutral colour where the map's take the power's)
        const own = c => c.getAttribute('class').split(' ').filter(n => !n.startsWith('ink-')).join(' ');
        const classes = e => [...new Set([...e.querySelectorAll('[class]')].map(own))].sort().join(' | ');
        for (const item of document.querySelectorAll('.legend-item[data-marks]')) {
            const key = item.dataset.key, selector = item.dataset.marks;
            const marks = [...document.querySelectorAll('#map ' + selector)];
            const visible = item.checkVisibility();
            if (visible !== marks.length > 0) wrong.push(`${key}: shown ${visible}, ${marks.length} on the map`);
            if (!visible) continue;
            shown.push(key);
            const drawings = [...item.querySelectorAll('svg ' + selector)];
            if (!drawings.length) wrong.push(`${key}: the key draws no ${selector}`);
            const drawn = new Set(drawings.map(classes)), onMap = new Set(marks.map(classes));
            for (const c of onMap) {
                if (!drawn.has(c)) wrong.push(`${key}: the map draws [${c}], the key [${[...drawn]}]`);
            }
            const line = lines[key];
            if (line && !(item.querySelector(line)
                          && document.querySelector(`#map .adj-order.${key} ${line}`)))
                wrong.push(`${key}: ${line} is not in both the key and the map`);
        }
        return [shown, wrong];
    }""", ORDER_LINES)
    shown, wrong = checked
    assert wrong == []
    return [str(key) for key in shown]


def read_aloud(page: Any, selector: str) -> str:
    """What a screen reader gets of ``selector``: its part of the accessibility tree, as text."""
    return str(page.locator(selector).aria_snapshot())


def fits_the_width(page: Any) -> list[str]:
    """The shown key items that stick out of the window, and whether the page scrolls sideways."""
    return list(page.evaluate("""() => {
        const width = document.documentElement.clientWidth, out = [];
        if (document.documentElement.scrollWidth > width) out.push('the page scrolls sideways');
        for (const item of document.querySelectorAll('.map-legend .legend-item')) {
            const r = item.getBoundingClientRect();
            const out_of_sight = r.left < 0 || r.right > width;
            if (item.checkVisibility() && out_of_sight) out.push(item.dataset.key || item.textContent);
        }
        return out; }"""))


def test_a_standard_game_lists_no_variant_mark(shared_app: tuple[Any, Any]) -> None:
    page, recorder = shared_app
    enter_text(page, "France: A par - bur\nGermany: A mun - bur")
    adjudicate(page)
    assert page.locator("#results-key").is_visible()
    assert page.locator('#results-key .legend-item[data-key="bounced"]').is_visible()
    assert shown_keys(page) == []
    assert not page.locator("#map-legend").is_visible()
    # the results key is read as text (its drawings are not), and none of the variant marks is in it
    heard = read_aloud(page, "#results-key")
    assert "moved" in heard and "bounced" in heard and "stand-off" in heard
    assert "protect" not in heard.lower() and "research" not in heard.lower()
    assert recorder.page_errors == []


def test_coast_running_protect_is_in_the_key_while_the_map_shows_it(
    new_context: Any, site: Site
) -> None:
    context, recorder = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = open_app(context, site.url)
    new_game(page, "coast_running")
    enter_text(page, "Italy: F nap - ion\nA rom - apu")
    adjudicate(page)
    assert shown_keys(page) == []
    enter_text(page, "Italy: F ion C A apu - tun\nA apu - tun")
    adjudicate(page)
    if phase(page) == "W1901A":
        adjudicate(page)  # Italy's build may be waived
    assert phase(page) == "S1902M"
    # the protect order given: its shield on the map, and the key explains it (and nothing else)
    enter_text(page, "Italy: A Tun P F Ion - Wes\nF Ion - Wes")
    assert page.locator("#map .adj-orders .adj-order.protect").count() == 1
    assert shown_keys(page) == ["protect"]
    assert page.locator("#map-legend").is_visible()
    heard = read_aloud(page, "#map-legend")
    assert "protect (P)" in heard and "research" not in heard
    assert fits_the_width(page) == []
    # adjudicated: the protect's result keeps its shield, still explained; the results key beside it
    adjudicate(page)
    assert phase(page) == "F1902M"
    assert page.locator("#map .adj-results .adj-order.protect").count() == 1
    assert page.locator("#map .adj-unit-mark.protect.result .adj-shield").count() == 1
    # as the key says, the run's own arrow shows whether it went through
    assert page.locator('#map .adj-results .adj-order.move.succeeded[data-result="order:ion"]').count() == 1
    assert shown_keys(page) == ["protect"]
    assert page.locator("#results-key").is_visible()
    assert fits_the_width(page) == []
    assert serious_violations(page, site) == []
    # the results hidden: no shield on the map, none in the key
    page.uncheck("#show-results")
    assert page.locator("#map .adj-shield").count() == 0
    assert shown_keys(page) == []
    assert not page.locator("#map-legend").is_visible()
    assert recorder.page_errors == []


def test_cluster_marks_are_in_the_key_while_the_map_shows_them(shared_app: tuple[Any, Any], tmp_path: Any) -> None:
    page, recorder = shared_app
    # a new game, as its game master: the Sites of the Ancients, of all three levels, and nothing else
    new_cluster_game(page)
    assert shown_keys(page) == ["site-1", "site-2", "site-3"]
    heard = read_aloud(page, "#map-legend")
    assert "Site with the knowledge of Transfer" in heard and "strength" not in heard
    # France's multiple units nominated and a research ordered: its R and dashed ring are explained
    page.select_option("select[name='nominate-france-3']", "par")
    page.select_option("select[name='nominate-france-2']", "mar")
    page.click("[data-action='nominate-france']")
    enter_text(page, "France: A par RES")
    assert page.inner_text("#orders-errors") == ""
    assert shown_keys(page) == ["research", "site-1", "site-2", "site-3"]
    # adjudicated: the research's result keeps its R; the nominated units' strengths are drawn and explained
    adjudicate(page)
    assert page.locator("#map .adj-unit-mark.research.result").count() == 1
    assert page.locator("#map .adj-strength").count() == 2
    assert shown_keys(page) == ["research", "site-1", "site-2", "site-3", "strength"]
    assert "research (R)" in read_aloud(page, "#map-legend")
    assert recorder.page_errors == []

    # a transfer and a mattermission, each in a game whose France knows it
    for level, order, key in ((2, "France: A par TRA A mun", "transfer"), (3, "France: A par MAT ruh", "mattermit")):
        folder = tmp_path / f"level-{level}"
        folder.mkdir()
        page.on("dialog", accept)  # yes to replacing the game before, not saved in this browser
        try:
            open_game(page, france_knowing(level), folder)
        finally:
            page.remove_listener("dialog", accept)
        before = shown_keys(page)
        assert key not in before
        enter_text(page, order)
        assert page.inner_text("#orders-errors") == ""
        assert sorted(set(shown_keys(page)) - set(before)) == [key]
        assert f"({key[0].upper()})" in read_aloud(page, "#map-legend")
    assert recorder.page_errors == []


def accept(dialog: Any) -> None:
    """The player's yes to the page's question."""
    dialog.accept()
