"""Text-direction controls from outside (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) in a link and in a file's
name: the page says what is wrong, shows no control, and its own words still read in order around the
outside text (docs/security.md, "Text-direction controls")."""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from adjutant import Game
from adjutant.formats.gamefile import to_data
from app_driver import Site, open_app

RLO = "\u202e"
#: every text-direction control adjutant.formats.limits.BIDI_CONTROLS lists, as a JavaScript character class
CONTROLS = r"/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/"

#: where each of two words of #message-text is drawn: the left edge of its first character (a text
#: overridden right to left draws the earlier word to the right of the later)
WORD_LEFT = """([first, second]) => {
    const node = document.getElementById("message-text").firstChild;
    const left = (word) => {
        const at = node.data.indexOf(word);
        if (at < 0) return null;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return range.getBoundingClientRect().left;
    };
    return [left(first), left(second)];
}"""


def link_of(payload: dict[str, Any]) -> str:
    raw = zlib.compress(json.dumps(payload, ensure_ascii=False).encode(), 9)[2:-4]
    return "standard." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def message(page: Any) -> str:
    page.wait_for_selector("#message:not([hidden])", timeout=10_000)
    return str(page.evaluate("document.getElementById('message-text').textContent"))


def controls_in_page(page: Any) -> bool:
    return bool(page.evaluate(f"{CONTROLS}.test(document.body.innerText + document.title)"))


def controls_in(page: Any, selector: str) -> bool:
    return bool(page.evaluate(f"s => {CONTROLS}.test(document.querySelector(s).textContent)", selector))


def reads_in_order(page: Any, first: str, second: str) -> bool:
    left, right = page.evaluate(WORD_LEFT, [first, second])
    assert left is not None and right is not None, (first, second)
    return bool(left < right)


def test_a_link_with_an_override_is_refused_by_name_and_reorders_nothing(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    # an order written out in the link, its direction overridden: "A Par H" would show as "H raP A"
    hostile = {"a": 1, "v": "standard", "n": 0, "x": [[0, "france", f"{RLO}A Par H"]]}
    page = open_app(context, site.url + "#" + link_of(hostile))
    said = message(page)
    assert "could not be opened" in said and "text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE)" in said, said
    assert not controls_in_page(page)
    assert reads_in_order(page, "could", "control")
    assert page.evaluate("document.documentElement.dataset.phase") == "S1901M"  # a new game, not the link's
    assert recorder.page_errors == []


def test_a_file_named_with_an_override_and_quoting_one_does_not_turn_the_message_around(shared_page: Any) -> None:
    page, recorder = shared_page()
    # a name as a sender could give it, and an order that quoted back would turn the rest of the message
    name = f"game{RLO}nosj.txt"
    data = dict(to_data(Game.new("standard")), orders={"france": [f"A Par - {RLO}Bur"]})
    content = json.dumps(data, ensure_ascii=False).encode()
    page.set_input_files("#upload", {"name": name, "mimeType": "application/json", "buffer": content})
    said = message(page)
    assert said.startswith("gamenosj.txt could not be opened: ") and "Your game is unchanged." in said, said
    assert "text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE)" in said, said
    assert not controls_in_page(page)
    assert reads_in_order(page, "could", "unchanged")
    assert page.evaluate("document.documentElement.dataset.phase") == "S1901M"
    assert recorder.page_errors == []


def test_orders_typed_with_an_override_are_quoted_back_without_it(shared_page: Any) -> None:
    page, recorder = shared_page()
    page.fill("#orders-text", f"France: A Par - {RLO}Bur\nEngland: F Lon - Nth")
    page.click("#orders-apply")
    page.wait_for_selector("#orders-errors li", timeout=10_000)
    problems = page.locator("#orders-errors li").all_inner_texts()
    assert len(problems) == 1 and problems[0].startswith("line 1: France: A Par - Bur: "), problems
    assert "is not a province of Standard" in problems[0]
    assert not controls_in(page, "#orders-errors")
    assert recorder.page_errors == []


def test_the_shells_early_paint_shows_a_saved_phase_title_without_its_controls(new_context: Any, site: Site) -> None:
    """Before Python is ready the shell paints the autosaved position from the plain snapshot the UI keeps in
    storage (web/shell.js), its phase title included. Storage is outside text (another tab, an extension,
    a hand edit): a title there carrying a text-direction control is shown without it. Python is kept from
    starting, so the title on the page is the shell's own."""
    context, _ = new_context()
    page = open_app(context, site.url)
    # (the new game's snapshot is written with its autosave, once the page is idle)
    page.wait_for_function("() => localStorage.getItem('adjutant.snapshot') !== null", timeout=10_000)
    saved = json.loads(page.evaluate("localStorage.getItem('adjutant.snapshot')"))
    saved["title"] = f"Spring 1901 {RLO}tnemevom"
    page.evaluate("s => localStorage.setItem('adjutant.snapshot', s)", json.dumps(saved))
    page.route("**/adjutant-pyodide.mjs", lambda route: route.abort())
    page.reload()
    page.wait_for_selector("html[data-position-visible='snapshot']", state="attached", timeout=10_000)
    label = str(page.evaluate("document.getElementById('phase-label').textContent"))
    assert label == "Spring 1901 tnemevom", label
    assert page.get_attribute("html", "data-python-ready") is None
