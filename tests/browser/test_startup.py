"""Start-up: the page's Python starts from the memory snapshot build.py ships, and starts without it
when the snapshot cannot be had; either way the page comes up ready to take orders."""

from __future__ import annotations

from typing import Any

from app_driver import PYTHON_READY_TIMEOUT_MS, Site

import build

SNAPSHOT_WARNING = "snapshot could not be used"


def started(page: Any) -> list[str]:
    """The loader's marks, in order: it marks where Python's start began and where it was ready."""
    return page.evaluate(
        "performance.getEntriesByType('mark').map(m => m.name).filter(n => /loadPyodide|pyodideReady/.test(n))"
    )


def warnings_of(page: Any) -> list[str]:
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text) if message.type == "warning" else None)
    return messages


def test_python_starts_from_the_snapshot(new_context: Any, site: Site) -> None:
    assert (site.root / "runtime" / "pyodide" / build.SNAPSHOT_NAME).is_file()
    # no service worker: its precache would fetch the snapshot a second time, whenever it installs
    context, recorder = new_context(service_workers="block")
    page = context.new_page()
    warned = warnings_of(page)
    page = _open(page, site.url)
    assert started(page) == ["adjutant:loadPyodide", "adjutant:pyodideReady"]
    assert [text for text in warned if SNAPSHOT_WARNING in text] == []
    fetched = [url for url in recorder.requests if url.endswith(build.SNAPSHOT_NAME)]
    assert len(fetched) == 1
    # Pyodide's WebAssembly, which the shell fetches and compiles as the page loads, is fetched once
    assert len([url for url in recorder.requests if url.endswith("/pyodide.asm.wasm")]) == 1
    assert page.evaluate("performance.getEntriesByName('adjutant:moduleReady').length") == 1
    # the app's modules are all in the snapshot: none is fetched (only a Python started without it needs
    # their archive); PyScript's own package is, as bytecode, with the variants' data, all in one file
    assert [url for url in recorder.requests if url.endswith("/" + build.APP_ARCHIVE) or "/py/" in url] == []
    assert len([url for url in recorder.requests if url.endswith("/" + build.APP_BUNDLE)]) == 1
    assert [url for url in recorder.requests if url.endswith((".pyc", ".json")) and "/app-" in url] == []
    assert page.locator("#orders-apply").is_enabled()
    # the objects of the start (the modules, the variants, the game) are out of the cycle collector's
    # passes, which over them are a long task of their own (docs/computer-players.md)
    assert page.evaluate(FROZEN) > 10_000
    assert recorder.page_errors == []


#: how many objects the page's Python has frozen out of the cycle collector's passes
FROZEN = """async () => (await window.adjutantShell.python.started).runPython("import gc; gc.get_freeze_count()")"""


# The modules of PyScript's own package the page's Python holds once the page is ready, then what a name
# of it asked for gives: the page's own document.
PYSCRIPT_PACKAGE = """async () => {
  const python = await window.adjutantShell.python.started;
  return JSON.parse(python.runPython(`
import json, sys
held = sorted(name for name in sys.modules if name.startswith("pyscript."))
from pyscript import display, document
json.dumps({"held": held, "display": callable(display), "apply": document.getElementById("orders-apply").textContent})
`));
}"""


def test_pyscripts_package_is_imported_when_first_used_not_at_start(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    page = _open(context.new_page(), site.url)
    found = page.evaluate(PYSCRIPT_PACKAGE)
    assert found["held"] == []  # PyScript's import of its package, before the page's script, ran none of it
    assert found["display"] is True
    assert found["apply"] == page.inner_text("#orders-apply")
    assert recorder.page_errors == []


def test_without_the_snapshot_python_starts_afresh(new_context: Any, site: Site) -> None:
    # (it then reads the engine from the archive of the modules the snapshot would have held)
    context, recorder = new_context()
    context.route("**/" + build.SNAPSHOT_NAME, lambda route: route.abort())
    page = context.new_page()
    warned = warnings_of(page)
    page = _open(page, site.url)
    assert [text for text in warned if SNAPSHOT_WARNING in text] != []
    assert started(page) == ["adjutant:loadPyodide", "adjutant:pyodideReady"]
    # a working Python: an order entered as text is taken
    page.fill("#orders-text", "A Par - Bur")
    page.click("#orders-apply")
    page.wait_for_function("() => document.querySelector('#order-list').textContent.includes('Bur')")
    assert "Par" in page.inner_text("#order-list")
    assert recorder.page_errors == []


def _open(page: Any, url: str) -> Any:
    """Open the app in this page (its listeners already attached) and wait until Python is ready."""
    page.goto(url)
    page.wait_for_selector("html[data-python-ready]", state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
    return page


def test_without_the_shells_webassembly_pyodide_fetches_its_own(new_context: Any, site: Site) -> None:
    context, recorder = new_context()
    failed: list[str] = []

    def first_fails(route: Any) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort()

    # the shell's early request fails; Pyodide's own, made only then, succeeds
    context.route("**/pyodide.asm.wasm", first_fails)
    page = _open(context.new_page(), site.url)
    assert len(failed) == 1
    assert len([url for url in recorder.requests if url.endswith("/pyodide.asm.wasm")]) == 2
    assert started(page) == ["adjutant:loadPyodide", "adjutant:pyodideReady"]
    page.fill("#orders-text", "A Par - Bur")
    page.click("#orders-apply")
    page.wait_for_function("() => document.querySelector('#order-list').textContent.includes('Bur')")
    assert recorder.page_errors == []


# The frames the page drew until Python was ready: each is a moment its main thread was free.
TICKS = """
window.adjutantTicks = [];
(function tick() {
  window.adjutantTicks.push(performance.now());
  const root = document.documentElement; // (none yet as the first tick runs)
  if (!(root && root.hasAttribute("data-python-ready"))) requestAnimationFrame(tick);
})();
"""
BETWEEN = """() => {
  const at = (name) => performance.getEntriesByName("adjutant:" + name)[0].startTime;
  return window.adjutantTicks.filter((t) => t > at("pyStart") && t < at("sessionReady")).length;
}"""


def test_a_long_games_link_is_replayed_with_the_page_given_turns_meanwhile(new_context: Any, site: Site) -> None:
    from adjutant import encode_link
    from adjutant.randomgame import random_game

    *_, game = random_game("cline5", 2, 40)
    context, recorder = new_context()
    context.add_init_script(TICKS)
    page = _open(context.new_page(), site.url + "#" + encode_link(game))
    # the replay (hundreds of phases, several tenths of a second at the least) ran in slices, with
    # frames drawn between them, not as one task
    assert page.evaluate(BETWEEN) >= 2
    assert game.phase.title in page.inner_text("#phase-label")
    assert recorder.page_errors == []


# The frames the page draws from now on, and whether the game table was ever inert meanwhile.
WATCH = """() => {
  window.adjutantTicks = [];
  window.adjutantInert = false;
  (function tick() {
    window.adjutantTicks.push(performance.now());
    if (document.querySelector("main.table").inert) window.adjutantInert = true;
    requestAnimationFrame(tick);
  })();
}"""
READ_BETWEEN = """() => {
  const at = (name) => performance.getEntriesByName("adjutant:" + name).at(-1).startTime;
  return window.adjutantTicks.filter((t) => t > at("linkOpening") && t < at("linkRead")).length;
}"""


def test_a_long_games_link_opened_later_is_read_as_at_the_start_with_the_page_given_turns(
    new_context: Any, site: Site
) -> None:
    from adjutant import encode_link
    from adjutant.randomgame import random_game

    *_, game = random_game("cline5", 2, 40)
    context, recorder = new_context()
    page = _open(context.new_page(), site.url)
    page.evaluate(WATCH)
    # a changed address (a pasted link, say): the same reader as at the start, in slices, frames drawn
    # between them, the table in hand taking no input meanwhile
    page.evaluate("(link) => { location.hash = link; }", encode_link(game))
    page.wait_for_function("() => performance.getEntriesByName('adjutant:linkRead').length > 0")
    page.wait_for_function("(title) => document.querySelector('#phase-label').textContent.includes(title)",
                           arg=game.phase.title)
    assert page.evaluate(READ_BETWEEN) >= 2
    assert page.evaluate("window.adjutantInert") is True
    assert page.evaluate("document.querySelector('main.table').inert") is False
    assert recorder.page_errors == []


def test_a_link_opened_while_a_long_one_is_read_is_the_one_shown(new_context: Any, site: Site) -> None:
    from adjutant import Game, encode_link
    from adjutant.randomgame import random_game

    *_, long_game = random_game("cline5", 2, 40)
    short = Game.new("standard")
    short.add_orders("A Par - Bur")
    short.adjudicate()
    context, recorder = new_context()
    page = _open(context.new_page(), site.url)
    # the long link's replay is under way (its first slice read) when the second link is opened
    page.evaluate("(link) => { location.hash = link; }", encode_link(long_game))
    page.wait_for_function("() => performance.getEntriesByName('adjutant:linkOpening').length === 1")
    page.evaluate("(link) => { location.hash = link; }", encode_link(short))
    page.wait_for_function("() => performance.getEntriesByName('adjutant:linkRead').length === 2")
    page.wait_for_timeout(300)  # (time for a page that would show the first link's game after it)
    assert short.phase.title in page.inner_text("#phase-label")
    assert page.evaluate("location.hash.slice(1)") == encode_link(short)
    assert recorder.page_errors == []
