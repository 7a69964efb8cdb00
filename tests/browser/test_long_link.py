"""A long game's link at the start: the position it carries is drawn before its history is replayed, the
table inert (and the status line saying so) until the replay has reached that position; a link whose
history does not reach it is refused, and the game in hand kept."""

from __future__ import annotations

from typing import Any

from adjutant import Game
from adjutant.randomgame import random_game
from app_driver import PYTHON_READY_TIMEOUT_MS, Site, enter_text, open_app, units
from session_games import carrying

# What the page showed, each frame, while the link's carried position was shown and its history replayed.
WATCH = """
window.adjutantCarried = [];
(function tick() {
  const root = document.documentElement;
  if (root && root.dataset.positionCarried === "checking") {
    window.adjutantCarried.push({
      units: Array.from(document.querySelectorAll("#map .adj-unit"),
                        (e) => e.dataset.power + " " + e.dataset.type + " " + e.dataset.location).sort(),
      inert: document.querySelector("main.table").inert,
      status: document.getElementById("boot-text").textContent,
      visible: !document.getElementById("boot").hidden,
    });
  }
  if (!(root && root.hasAttribute("data-python-ready"))) requestAnimationFrame(tick);
})();
"""


def long_game(seed: int) -> Game:
    *_, game = random_game("cline5", seed, 40)
    return game


def on_the_map(game: Game) -> list[str]:
    return sorted(f"{u.power} {u.type} {u.location}" for u in game.units.values())


def started(page: Any, url: str) -> Any:
    page.goto(url)
    page.wait_for_selector("html[data-python-ready]", state="attached", timeout=PYTHON_READY_TIMEOUT_MS)
    return page


def test_a_long_links_position_shows_before_its_replay_and_the_table_takes_orders_after(
    new_context: Any, site: Site
) -> None:
    from adjutant import encode_link

    game = long_game(2)
    context, recorder = new_context()
    context.add_init_script(WATCH)
    page = started(context.new_page(), site.url + "#" + encode_link(game))
    seen = page.evaluate("window.adjutantCarried")
    # frames were drawn while the history was replayed: the position on the map, the table inert, and
    # the status line saying why
    assert len(seen) >= 2
    assert all(frame["units"] == on_the_map(game) and frame["inert"] for frame in seen)
    assert all(frame["visible"] and "being checked" in frame["status"] for frame in seen)
    marks = page.evaluate("""() => ["positionVisible", "sessionReady"].map(
        (name) => performance.getEntriesByName("adjutant:" + name)[0].startTime)""")
    assert marks[0] < marks[1]  # (visible before the replay ended)
    # then the table is the game's, usable
    assert page.evaluate("document.documentElement.dataset.positionCarried") == "checked"
    assert page.evaluate("document.querySelector('main.table').inert") is False
    assert game.phase.title in page.inner_text("#phase-label") and units(page) == on_the_map(game)
    power, unit = next((u.power, u) for u in sorted(game.units.values(), key=lambda u: u.location))
    enter_text(page, f"{unit.type} {unit.location} H", power)
    page.wait_for_function("(at) => document.querySelector('#order-list').textContent.toLowerCase().includes(at)",
                           arg=unit.location.split("/")[0])
    assert recorder.page_errors == []


def test_a_long_link_whose_history_does_not_reach_its_position_is_refused_and_the_game_in_hand_kept(
    new_context: Any, site: Site
) -> None:
    context, recorder = new_context()
    page = open_app(context, site.url)
    in_hand = units(page)
    game, other = long_game(2), long_game(3)
    tampered = carrying(game, other)
    # at the start: the carried position shown while the replay checks it, then refused, and the game in
    # hand (the autosave) shown instead
    page.goto("about:blank")
    context.add_init_script(WATCH)
    page = started(page, site.url + "#" + tampered)
    seen = page.evaluate("window.adjutantCarried")
    assert seen and seen[0]["units"] == on_the_map(other) and seen[0]["inert"]
    message = page.inner_text("#message-text")
    assert "the position it carries is not the one its orders lead to" in message
    assert "Showing your last game instead" in message
    assert page.evaluate("document.documentElement.dataset.positionCarried") == "refused"
    assert units(page) == in_hand
    assert page.evaluate("document.querySelector('main.table').inert") is False
    # opened later, as a changed address: refused, the game in hand still shown
    page.click("#message-close")
    page.evaluate("(link) => { location.hash = link; }", tampered)
    page.wait_for_function("() => !document.getElementById('message').hidden")
    assert "the position it carries is not the one its orders lead to" in page.inner_text("#message-text")
    assert units(page) == in_hand
    assert recorder.page_errors == []
